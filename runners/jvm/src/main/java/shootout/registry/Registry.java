package shootout.registry;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import shootout.codec.Codec;
import shootout.codec.Info;
import shootout.codec.Mapping;
import shootout.formats.avro.AvroGeneric;
import shootout.formats.avro.AvroReflect;
import shootout.formats.bson.BsonCodec;
import shootout.formats.bson.BsonJsonl;
import shootout.formats.chronicle.ChronicleWireCodec;
import shootout.formats.dsljson.DslJsonCodec;
import shootout.formats.dsljson.DslJsonJsonl;
import shootout.formats.fastjson2.Fastjson2Codec;
import shootout.formats.fastjson2.Fastjson2Jsonl;
import shootout.formats.flatbuffers.FlatCodec;
import shootout.formats.flexbuffers.FlexCodec;
import shootout.formats.flexbuffers.FlexJsonl;
import shootout.formats.fory.ForyCodec;
import shootout.formats.fory.ForyJsonl;
import shootout.formats.ignite.Ignite;
import shootout.formats.jackson.JacksonCodec;
import shootout.formats.jackson.JacksonJsonl;
import shootout.formats.jackson3.Jackson3Codec;
import shootout.formats.jackson3.Jackson3Jsonl;
import shootout.formats.javaser.JavaSerialization;
import shootout.formats.jsonl.JsonlCodec;
import shootout.formats.kryo.KryoCodec;
import shootout.formats.msgpack.MsgpackJsonl;
import shootout.formats.msgpack.MsgpackRaw;
import shootout.formats.protobuf.ProtobufCodec;
import shootout.formats.protobuf.ProtobufDynamic;
import shootout.formats.sbe.SbeCodec;
import shootout.formats.thrift.ThriftCodec;
import shootout.formats.ubjson.UbjsonCodec;
import shootout.formats.ubjson.UbjsonJsonl;
import shootout.harness.Baseline;
import shootout.harness.Entry;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;
import shootout.workload.RecordSchemas;
import shootout.workload.Workload;

/**
 * Every JVM format as data (the Go runner's registry): one row each, its
 * metadata and its table of workloads (one codec constructor per workload it
 * maps). spec/formats.json lists the same rows for the other languages
 * (RegistryTest holds this list to it).
 */
public final class Registry {
    private Registry() {}

    /** The not-run reason of a workload a format has no row for. */
    public static final String NO_MAPPING = "no mapping yet";

    /**
     * One registry row: the format, the workloads it maps, and why it does not run others (NO_MAPPING when it does not say).
     * A row of a workload runs every dataset of it, or decides per dataset (on): the schema formats run a jsonl or csv dataset
     * only with a schema in its header.
     */
    public record Format(Info info, List<Mapping<?, ?>> mappings, Map<String, String> notRun) {
        public Format(Info info, List<Mapping<?, ?>> mappings) {
            this(info, mappings, Map.of());
        }

        /** Whether it has a row for workload: it runs the workload's datasets, or those whose header gives it what it needs. */
        public boolean runs(String workload) {
            return mappings.stream().anyMatch(m -> m.workload().name.equals(workload));
        }

        /** Why the format does not run workload, a workload it has no row for. */
        public String reason(String workload) {
            return notRun.getOrDefault(workload, NO_MAPPING);
        }

        /** The row's metadata on workload w: the format's, with its mapping's own notes where it has them (the jsonl codecs). */
        public Info info(Workload<?, ?> w) {
            for (Mapping<?, ?> m : mappings) {
                if (m.workload() == w && m.notes() != null) {
                    Info i = info;
                    return new Info(i.name(), i.family(), i.library(), i.labels(), i.framing(), i.wire(), m.notes());
                }
            }
            return info;
        }

        /** The format on a dataset of workload w whose header carries schemas: its codec constructor, or why it does not run it. */
        @SuppressWarnings("unchecked")
        public <R, S> Mapping.OnDataset<R, S> on(Workload<R, S> w, RecordSchemas schemas) {
            for (Mapping<?, ?> m : mappings) {
                if (m.workload() == w) {
                    return ((Mapping<R, S>) m).perDataset().on(schemas); // the row of workload w is a Mapping<R, S>
                }
            }
            return Mapping.OnDataset.notRun(reason(w.name));
        }

        /** A fresh codec of workload w for a dataset without record schemas, which the format must run. */
        public <R, S> Codec<R, S> codec(Workload<R, S> w) throws Exception {
            Mapping.OnDataset<R, S> on = on(w, RecordSchemas.NONE);
            if (!on.runs()) {
                throw new IllegalArgumentException(
                        info.name() + " does not run the " + w.name + " workload: " + on.notRun());
            }
            return on.make().make();
        }

        /** The workloads it runs on, in Workload.ALL's order. */
        public List<String> workloads() {
            return Workload.ALL.stream().map(w -> w.name).filter(this::runs).toList();
        }
    }

    /** A format that runs on no workload here, with the reason. */
    public record Unavailable(String name, String family, String reason) {}

    /**
     * The jsonl workload (any JSON value) has no record class, so no row's
     * record-class codec takes it: a format runs it through its library's own
     * dynamic value model, by a codec of its own (JSONL_CODECS), or says why
     * it does not (JSONL_NOT_RUN). A format in neither shows NO_MAPPING.
     * Each holds for csv too (jsonl under another name: withJsonl).
     */
    static final Map<String, Mapping<JsonlRecord, JsonlSink>> JSONL_CODECS = Map.ofEntries(
            Map.entry(
                    JacksonCodec.JSON.name(),
                    JsonlCodec.mapping(() -> new JacksonJsonl(JacksonCodec.json()), JacksonJsonl.NOTES)),
            Map.entry(
                    JacksonCodec.MSGPACK_MAP.name(),
                    JsonlCodec.mapping(
                            () -> new JacksonJsonl(JacksonCodec.msgpackMap()),
                            JacksonJsonl.NOTES + "; an integer beyond 64 bits is the MessagePack generator's error")),
            Map.entry(
                    JacksonCodec.CBOR.name(),
                    JsonlCodec.mapping(
                            () -> new JacksonJsonl(JacksonCodec.cbor()),
                            JacksonJsonl.NOTES + "; integers beyond 64 bits as CBOR bignums")),
            Map.entry(
                    JacksonCodec.SMILE.name(),
                    JsonlCodec.mapping(() -> new JacksonJsonl(JacksonCodec.smile()), JacksonJsonl.NOTES)),
            Map.entry(
                    Jackson3Codec.JSON.name(),
                    JsonlCodec.mapping(() -> new Jackson3Jsonl(Jackson3Codec.json()), Jackson3Jsonl.NOTES)),
            Map.entry(
                    Jackson3Codec.CBOR.name(),
                    JsonlCodec.mapping(
                            () -> new Jackson3Jsonl(Jackson3Codec.cbor()),
                            Jackson3Jsonl.NOTES + "; integers beyond 64 bits as CBOR bignums")),
            Map.entry(
                    Jackson3Codec.SMILE.name(),
                    JsonlCodec.mapping(() -> new Jackson3Jsonl(Jackson3Codec.smile()), Jackson3Jsonl.NOTES)),
            Map.entry(DslJsonCodec.INFO.name(), JsonlCodec.mapping(DslJsonJsonl::new, DslJsonJsonl.NOTES)),
            Map.entry(Fastjson2Codec.INFO.name(), JsonlCodec.mapping(Fastjson2Jsonl::new, Fastjson2Jsonl.NOTES)),
            Map.entry(ForyCodec.XLANG.name(), JsonlCodec.mapping(ForyJsonl::new, ForyJsonl.NOTES)),
            Map.entry(MsgpackRaw.INFO.name(), JsonlCodec.mapping(MsgpackJsonl::new, MsgpackJsonl.NOTES)),
            Map.entry(BsonCodec.INFO.name(), JsonlCodec.mapping(BsonJsonl::new, BsonJsonl.NOTES)),
            Map.entry(UbjsonCodec.INFO.name(), JsonlCodec.mapping(UbjsonJsonl::new, UbjsonJsonl.NOTES)),
            Map.entry(FlexCodec.INFO.name(), JsonlCodec.mapping(FlexJsonl::new, FlexJsonl.NOTES)));

    private static final String OBJECT_GRAPHS =
            " serializes Java object graphs by their classes: a JSON value has no class here, and "
                    + "the java.util collections a codec would pick for one (LinkedHashMap, ArrayList, Long, ...) would measure those classes' "
                    + "serialization, not a value model of the format's own";
    private static final String SCHEMA = "a schema format: a record of any shape has no ";

    static final Map<String, String> JSONL_NOT_RUN = Map.ofEntries(
            Map.entry(JavaSerialization.INFO.name(), "Java serialization" + OBJECT_GRAPHS),
            Map.entry(KryoCodec.INFO.name(), "Kryo" + OBJECT_GRAPHS),
            Map.entry(
                    ForyCodec.JAVA.name(),
                    "Fory's Java mode" + OBJECT_GRAPHS + "; Fory's dynamic values are xlang's map, list and "
                            + "scalar types, which the fory row runs"),
            Map.entry(ChronicleWireCodec.INFO.name(), "Chronicle Wire" + OBJECT_GRAPHS),
            Map.entry(Ignite.POJO.name(), "Ignite's binary marshaller" + OBJECT_GRAPHS),
            Map.entry(
                    Ignite.RAW.name(),
                    "Ignite's raw writer writes a class's fields in the order the codec gives them: a JSON value "
                            + "has no class, and the binary format has no value model of its own"),
            Map.entry(
                    JacksonCodec.MSGPACK_ARRAY.name(),
                    "writes each record class as an array of its fields by position (a POJO shape): "
                            + "a JSON value has no fields, and Jackson's tree in MessagePack is the msgpack-jackson-map row's"),
            Map.entry(
                    Jackson3Codec.JSON_BLACKBIRD.name(),
                    "Blackbird replaces databind's reflective access to a class's properties: "
                            + "Jackson's tree (JsonNode) has none, so on jsonl this row would be json-jackson3's codec under another name"),
            Map.entry(
                    AvroReflect.INFO.name(),
                    SCHEMA + "Avro schema (the reflect codec derives one from a record class, and jsonl has "
                            + "none)"),
            Map.entry(
                    ProtobufCodec.INFO.name(),
                    SCHEMA + ".proto message; protobuf's own JSON model (google.protobuf.Struct and Value) "
                            + "holds every number as a double, so it would not carry the records"),
            Map.entry(ThriftCodec.BINARY.name(), SCHEMA + "Thrift struct"),
            Map.entry(ThriftCodec.COMPACT.name(), SCHEMA + "Thrift struct"),
            Map.entry(
                    FlatCodec.INFO.name(),
                    SCHEMA + "FlatBuffers table (its schemaless sibling FlexBuffers runs jsonl)"),
            Map.entry(SbeCodec.INFO.name(), SCHEMA + "SBE message (fixed-layout fields and groups)"));

    public static final List<Format> FORMATS = withJsonl(List.of(
            new Format(JavaSerialization.INFO, Mapping.every(JavaSerialization::new)),
            new Format(JacksonCodec.JSON, Mapping.every(w -> new JacksonCodec<>(JacksonCodec.json(), w))),
            new Format(JacksonCodec.MSGPACK_MAP, Mapping.every(w -> new JacksonCodec<>(JacksonCodec.msgpackMap(), w))),
            new Format(
                    JacksonCodec.MSGPACK_ARRAY, Mapping.every(w -> new JacksonCodec<>(JacksonCodec.msgpackArray(), w))),
            new Format(JacksonCodec.CBOR, Mapping.every(w -> new JacksonCodec<>(JacksonCodec.cbor(), w))),
            new Format(JacksonCodec.SMILE, Mapping.every(w -> new JacksonCodec<>(JacksonCodec.smile(), w))),
            new Format(Jackson3Codec.JSON, Mapping.every(w -> new Jackson3Codec<>(Jackson3Codec.json(), w))),
            new Format(
                    Jackson3Codec.JSON_BLACKBIRD,
                    Mapping.every(w -> new Jackson3Codec<>(Jackson3Codec.jsonBlackbird(), w))),
            new Format(Jackson3Codec.CBOR, Mapping.every(w -> new Jackson3Codec<>(Jackson3Codec.cbor(), w))),
            new Format(Jackson3Codec.SMILE, Mapping.every(w -> new Jackson3Codec<>(Jackson3Codec.smile(), w))),
            new Format(DslJsonCodec.INFO, Mapping.every(DslJsonCodec::new)),
            new Format(Fastjson2Codec.INFO, Mapping.every(Fastjson2Codec::new)),
            new Format(AvroReflect.INFO, Mapping.every(AvroReflect::new)),
            schemaFormat(AvroGeneric.INFO, AvroGeneric::on),
            new Format(KryoCodec.INFO, Mapping.every(KryoCodec::new)),
            new Format(ForyCodec.XLANG, ForyCodec.XLANG_MAPPINGS),
            new Format(ForyCodec.JAVA, Mapping.every(w -> new ForyCodec<>(w, false))),
            new Format(ChronicleWireCodec.INFO, Mapping.every(ChronicleWireCodec::new)),
            new Format(Ignite.POJO, Mapping.every(Ignite.PojoCodec::new)),
            new Format(Ignite.RAW, Mapping.every(Ignite.RawCodec::new)),
            new Format(MsgpackRaw.INFO, Mapping.every(MsgpackRaw::new)),
            new Format(BsonCodec.INFO, Mapping.every(BsonCodec::new)),
            new Format(UbjsonCodec.INFO, Mapping.every(UbjsonCodec::new)),
            new Format(FlexCodec.INFO, Mapping.every(FlexCodec::new)),
            new Format(ProtobufCodec.INFO, ProtobufCodec.MAPPINGS),
            schemaFormat(ProtobufDynamic.INFO, ProtobufDynamic::on),
            new Format(ThriftCodec.BINARY, ThriftCodec.mappings(false)),
            new Format(ThriftCodec.COMPACT, ThriftCodec.mappings(true)),
            new Format(FlatCodec.INFO, FlatCodec.MAPPINGS),
            new Format(SbeCodec.INFO, SbeCodec.MAPPINGS)));

    /** Why a schema format of jsonl and csv (ProtobufDynamic, AvroGeneric) runs no other workload. */
    static final String DYNAMIC_ONLY = "dynamic: runs only the jsonl and csv workloads, with a schema";

    /**
     * A format that runs jsonl and csv through its library's runtime schema API, on the schema a dataset's header carries
     * (docs/dataset-format.md, "With a schema"): perDataset makes its codec of that schema, or gives the reason it does not run
     * a dataset without one. The other workloads are their record classes', which the format's generated or reflective
     * sibling runs.
     */
    private static Format schemaFormat(Info info, Mapping.PerDataset<JsonlRecord, JsonlSink> perDataset) {
        List<Mapping<?, ?>> mappings = new ArrayList<>();
        for (Workload<JsonlRecord, JsonlSink> w : Workload.JSONL_NAMES) {
            mappings.add(new Mapping<>(w, perDataset, null));
        }
        Map<String, String> notRun = new LinkedHashMap<>();
        for (Workload<?, ?> w : Workload.RECORD_CLASSES) {
            notRun.put(w.name, DYNAMIC_ONLY);
        }
        return new Format(info, List.copyOf(mappings), Map.copyOf(notRun));
    }

    /**
     * Each row with its jsonl codec added, or its reason for not running jsonl; the same on each workload that is jsonl under
     * another name (Workload.JSONL_NAMES: csv).
     */
    private static List<Format> withJsonl(List<Format> rows) {
        List<Format> out = new ArrayList<>();
        for (Format f : rows) {
            String name = f.info().name();
            Mapping<JsonlRecord, JsonlSink> codec = JSONL_CODECS.get(name);
            if (codec != null) {
                List<Mapping<?, ?>> mappings = new ArrayList<>(f.mappings());
                for (Workload<JsonlRecord, JsonlSink> w : Workload.JSONL_NAMES) {
                    mappings.add(codec.on(w));
                }
                f = new Format(f.info(), List.copyOf(mappings), f.notRun());
            } else if (JSONL_NOT_RUN.containsKey(name)) {
                Map<String, String> notRun = new LinkedHashMap<>(f.notRun());
                for (Workload<JsonlRecord, JsonlSink> w : Workload.JSONL_NAMES) {
                    notRun.put(w.name, JSONL_NOT_RUN.get(name));
                }
                f = new Format(f.info(), f.mappings(), Map.copyOf(notRun));
            }
            out.add(f);
        }
        return List.copyOf(out);
    }

    public static final List<Unavailable> UNAVAILABLE = List.of(new Unavailable(
            "capnp", "Cap'n Proto", "no Cap'n Proto Java compiler (capnproto-java) is installable here"));

    /** The workload's runnable entries on a dataset without record schemas, baseline first. */
    public static <R, S> List<Entry<R, S>> entries(Workload<R, S> w) {
        return entries(w, RecordSchemas.NONE, FORMATS);
    }

    /** The entries of formats that run a dataset of workload w whose header carries schemas, baseline first. */
    public static <R, S> List<Entry<R, S>> entries(Workload<R, S> w, RecordSchemas schemas, List<Format> formats) {
        List<Entry<R, S>> out = new ArrayList<>();
        out.add(new Entry<>(Baseline.INFO, () -> new Baseline<>(w.feed)));
        for (Format f : formats) {
            Mapping.OnDataset<R, S> on = f.on(w, schemas);
            if (on.runs()) {
                out.add(new Entry<>(f.info(w), on.make()));
            }
        }
        return out;
    }

    /** Every registered format that does not run a dataset of workload w without record schemas, with its reason. */
    public static List<Map<String, Object>> notRun(String w) {
        return notRun(Workload.named(w), RecordSchemas.NONE, FORMATS);
    }

    /**
     * Every one of formats that does not run a dataset of workload w whose header carries schemas, with its reason; none is
     * dropped silently.
     */
    public static List<Map<String, Object>> notRun(Workload<?, ?> w, RecordSchemas schemas, List<Format> formats) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Format f : formats) {
            Mapping.OnDataset<?, ?> on = f.on(w, schemas);
            if (!on.runs()) {
                out.add(row(f.info().name(), f.info().family(), on.notRun()));
            }
        }
        for (Unavailable u : UNAVAILABLE) {
            out.add(row(u.name(), u.family(), u.reason()));
        }
        return out;
    }

    private static Map<String, Object> row(String name, String family, String reason) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("family", family);
        m.put("reason", reason);
        return m;
    }

    private static final Map<String, String> VERSIONS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Properties BUILT = new Properties();

    static {
        try (InputStream in = Registry.class.getResourceAsStream("/shootout-versions.properties")) {
            if (in != null) {
                BUILT.load(in);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The version of a library on the class path, from its jar's
     * META-INF/maven/GROUP/ARTIFACT/pom.properties (kept by the shaded jar), else
     * the version pom.xml names (shootout-versions.properties); "jdk" is the running JDK.
     */
    public static String version(String library) {
        if (library.equals("jdk")) {
            return Runtime.version().toString();
        }
        return VERSIONS.computeIfAbsent(library, lib -> {
            String[] ga = lib.split(":");
            if (ga.length != 2) {
                return "unknown";
            }
            try (InputStream in =
                    Registry.class.getResourceAsStream("/META-INF/maven/" + ga[0] + "/" + ga[1] + "/pom.properties")) {
                if (in == null) {
                    return BUILT.getProperty(lib, "unknown");
                }
                Properties p = new Properties();
                p.load(in);
                return p.getProperty("version", "unknown");
            } catch (Exception e) {
                return "unknown";
            }
        });
    }
}
