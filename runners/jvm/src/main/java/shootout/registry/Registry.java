package shootout.registry;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import shootout.codec.Codec;
import shootout.codec.Info;
import shootout.formats.avro.AvroReflect;
import shootout.formats.bson.BsonCodec;
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
import shootout.formats.javaser.JavaSerialization;
import shootout.formats.kryo.KryoCodec;
import shootout.harness.Baseline;
import shootout.harness.Entry;
import shootout.workload.Workload;

/**
 * Every JVM format as data (the Go runner's registry): its metadata, a codec
 * constructor for the workloads it maps, and why it does not run elsewhere.
 */
public final class Registry {
    private Registry() {
    }

    /** Makes a format's codec for one workload. */
    @FunctionalInterface
    public interface Factory {
        Codec<?, ?> create(Workload<?, ?> w) throws Exception;
    }

    /** One registry line; notRun names the workloads it does not run, with the reason. */
    public record Format(Info info, Factory factory, Map<String, String> notRun) {
        public boolean runs(String workload) {
            return factory != null && !notRun.containsKey(workload);
        }
    }

    /** A format that runs on no workload here, with the reason. */
    public record Unavailable(String name, String family, String reason) {
    }

    private static Format every(Info info, Factory f) {
        return new Format(info, f, Map.of());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static final List<Format> FORMATS = List.of(
            every(JavaSerialization.INFO, w -> new JavaSerialization(w)),
            every(JacksonCodec.JSON, w -> new JacksonCodec(JacksonCodec.json(), w)),
            every(JacksonCodec.MSGPACK_MAP, w -> new JacksonCodec(JacksonCodec.msgpackMap(), w)),
            every(JacksonCodec.MSGPACK_ARRAY, w -> new JacksonCodec(JacksonCodec.msgpackArray(), w)),
            every(JacksonCodec.CBOR, w -> new JacksonCodec(JacksonCodec.cbor(), w)),
            every(JacksonCodec.SMILE, w -> new JacksonCodec(JacksonCodec.smile(), w)),
            every(AvroReflect.INFO, w -> new AvroReflect(w)),
            every(KryoCodec.INFO, w -> new KryoCodec(w)),
            every(ForyCodec.INFO, w -> new ForyCodec(w)),
            every(Ignite.POJO, w -> new Ignite.PojoCodec(w)),
            every(Ignite.RAW, w -> new Ignite.RawCodec(w)),
            every(MsgpackRaw.INFO, w -> new MsgpackRaw(w)),
            every(BsonCodec.INFO, w -> new BsonCodec(w)),
            every(UbjsonCodec.INFO, w -> new UbjsonCodec(w)),
            every(FlexCodec.INFO, w -> new FlexCodec(w)),
            every(ProtobufCodec.INFO, ProtobufCodec::of),
            every(ThriftCodec.BINARY, w -> ThriftCodec.of(w, false)),
            every(ThriftCodec.COMPACT, w -> ThriftCodec.of(w, true)),
            every(FlatCodec.INFO, FlatCodec::of),
            every(SbeCodec.INFO, SbeCodec::of));

    public static final List<Unavailable> UNAVAILABLE = List.of(
            new Unavailable("capnp", "Cap'n Proto", "no Cap'n Proto Java compiler (capnproto-java) is installable here"));

    /** The workload's runnable entries, baseline first. */
    public static <R, S> List<Entry<R, S>> entries(Workload<R, S> w) {
        return entries(w, FORMATS);
    }

    /** The runnable entries of formats on workload w, baseline first. */
    @SuppressWarnings("unchecked")
    public static <R, S> List<Entry<R, S>> entries(Workload<R, S> w, List<Format> formats) {
        List<Entry<R, S>> out = new ArrayList<>();
        out.add(new Entry<>(Baseline.INFO, () -> new Baseline<>(w.feed), null));
        for (Format f : formats) {
            if (f.runs(w.name)) {
                out.add(new Entry<>(f.info(), () -> {
                    try {
                        return (Codec<R, S>) f.factory().create(w);
                    } catch (RuntimeException e) {
                        throw e;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, null));
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
                out.add(row(f.info().name(), f.info().family(), f.notRun().getOrDefault(w, "no mapping yet")));
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

    /** The workloads format f runs on. */
    public static List<String> runsOn(Format f) {
        List<String> out = new ArrayList<>();
        for (Workload<?, ?> w : Workload.ALL) {
            if (f.runs(w.name)) {
                out.add(w.name);
            }
        }
        return out;
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
