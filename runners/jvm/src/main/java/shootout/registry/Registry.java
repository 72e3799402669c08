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
import shootout.formats.avro.AvroReflect;
import shootout.formats.bson.BsonCodec;
import shootout.formats.chronicle.ChronicleWireCodec;
import shootout.formats.dsljson.DslJsonCodec;
import shootout.formats.fastjson2.Fastjson2Codec;
import shootout.formats.flexbuffers.FlexCodec;
import shootout.formats.flatbuffers.FlatCodec;
import shootout.formats.fory.ForyCodec;
import shootout.formats.msgpack.MsgpackRaw;
import shootout.formats.protobuf.ProtobufCodec;
import shootout.formats.sbe.SbeCodec;
import shootout.formats.thrift.ThriftCodec;
import shootout.formats.ubjson.UbjsonCodec;
import shootout.formats.ignite.Ignite;
import shootout.formats.jackson.JacksonCodec;
import shootout.formats.jackson3.Jackson3Codec;
import shootout.formats.javaser.JavaSerialization;
import shootout.formats.kryo.KryoCodec;
import shootout.harness.Baseline;
import shootout.harness.Entry;
import shootout.workload.Workload;

/**
 * Every JVM format as data (the Go runner's registry): one row each, its
 * metadata and its table of workloads (one codec constructor per workload it
 * maps). spec/formats.json lists the same rows for the other languages
 * (RegistryTest holds this list to it).
 */
public final class Registry {
    private Registry() {
    }

    /** The not-run reason of a workload a format has no row for. */
    public static final String NO_MAPPING = "no mapping yet";

    /** One registry row: the format and the workloads it maps. */
    public record Format(Info info, List<Mapping<?, ?>> mappings) {
        public boolean runs(String workload) {
            return mappings.stream().anyMatch(m -> m.workload().name.equals(workload));
        }

        /** A fresh codec of workload w, which the format must map. */
        @SuppressWarnings("unchecked")
        public <R, S> Codec<R, S> codec(Workload<R, S> w) throws Exception {
            for (Mapping<?, ?> m : mappings) {
                if (m.workload() == w) {
                    return ((Mapping<R, S>) m).make().make(); // the row of workload w is a Mapping<R, S>
                }
            }
            throw new IllegalArgumentException(info.name() + " has no mapping for the " + w.name + " workload");
        }

        /** The workloads it runs on, in Workload.ALL's order. */
        public List<String> workloads() {
            return Workload.ALL.stream().map(w -> w.name).filter(this::runs).toList();
        }
    }

    /** A format that runs on no workload here, with the reason. */
    public record Unavailable(String name, String family, String reason) {
    }

    public static final List<Format> FORMATS = List.of(
            new Format(JavaSerialization.INFO, Mapping.every(JavaSerialization::new)),
            new Format(JacksonCodec.JSON, Mapping.every(w -> new JacksonCodec<>(JacksonCodec.json(), w))),
            new Format(JacksonCodec.MSGPACK_MAP, Mapping.every(w -> new JacksonCodec<>(JacksonCodec.msgpackMap(), w))),
            new Format(JacksonCodec.MSGPACK_ARRAY, Mapping.every(w -> new JacksonCodec<>(JacksonCodec.msgpackArray(), w))),
            new Format(JacksonCodec.CBOR, Mapping.every(w -> new JacksonCodec<>(JacksonCodec.cbor(), w))),
            new Format(JacksonCodec.SMILE, Mapping.every(w -> new JacksonCodec<>(JacksonCodec.smile(), w))),
            new Format(Jackson3Codec.JSON, Mapping.every(w -> new Jackson3Codec<>(Jackson3Codec.json(), w))),
            new Format(Jackson3Codec.JSON_BLACKBIRD, Mapping.every(w -> new Jackson3Codec<>(Jackson3Codec.jsonBlackbird(), w))),
            new Format(Jackson3Codec.CBOR, Mapping.every(w -> new Jackson3Codec<>(Jackson3Codec.cbor(), w))),
            new Format(Jackson3Codec.SMILE, Mapping.every(w -> new Jackson3Codec<>(Jackson3Codec.smile(), w))),
            new Format(DslJsonCodec.INFO, Mapping.every(DslJsonCodec::new)),
            new Format(Fastjson2Codec.INFO, Mapping.every(Fastjson2Codec::new)),
            new Format(AvroReflect.INFO, Mapping.every(AvroReflect::new)),
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
            new Format(ThriftCodec.BINARY, ThriftCodec.mappings(false)),
            new Format(ThriftCodec.COMPACT, ThriftCodec.mappings(true)),
            new Format(FlatCodec.INFO, FlatCodec.MAPPINGS),
            new Format(SbeCodec.INFO, SbeCodec.MAPPINGS));

    public static final List<Unavailable> UNAVAILABLE = List.of(
            new Unavailable("capnp", "Cap'n Proto", "no Cap'n Proto Java compiler (capnproto-java) is installable here"));

    /** The workload's runnable entries, baseline first. */
    public static <R, S> List<Entry<R, S>> entries(Workload<R, S> w) {
        return entries(w, FORMATS);
    }

    /** The runnable entries of formats on workload w, baseline first. */
    public static <R, S> List<Entry<R, S>> entries(Workload<R, S> w, List<Format> formats) {
        List<Entry<R, S>> out = new ArrayList<>();
        out.add(new Entry<>(Baseline.INFO, () -> new Baseline<>(w.feed)));
        for (Format f : formats) {
            if (f.runs(w.name)) {
                out.add(new Entry<>(f.info(), () -> f.codec(w)));
            }
        }
        return out;
    }

    /** Every registered format that does not run on workload w, with its reason; none is dropped silently. */
    public static List<Map<String, Object>> notRun(String w) {
        return notRun(w, FORMATS);
    }

    public static List<Map<String, Object>> notRun(String w, List<Format> formats) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Format f : formats) {
            if (!f.runs(w)) {
                out.add(row(f.info().name(), f.info().family(), NO_MAPPING));
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
            try (InputStream in = Registry.class.getResourceAsStream("/META-INF/maven/" + ga[0] + "/" + ga[1] + "/pom.properties")) {
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
