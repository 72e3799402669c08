package shootout.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import shootout.codec.Stream;
import shootout.workload.SmallObject;

/**
 * The IEP-75 study's benchmark list as shootout practises it (the `shootout`
 * variant of `shootout-jvm --study ignite-iep75`): throughput of
 * writePrimitives, readPrimitives, writePojo, readPojo and writeSqlQuery for
 * MessagePack (msgpack-core by hand) and Ignite's binary format (compact
 * footers), plus CBOR, FlexBuffers, BSON and UBJSON (Study's candidates), on
 * the object workload's SmallObject, each writing into a reused Stream;
 * writePojoWithoutNames is MessagePack's and Ignite raw's POJO without field
 * names. The study's own code is StudyAsPublishedBenchmark.
 */
public class IgniteStudy extends JmhDefaults {
    @State(Scope.Thread)
    public static class Candidates {
        @Param({"msgpack", "ignite", "cbor", "flexbuffers", "bson", "ubjson"})
        public String format;

        Study.Candidate c;
        final Stream out = new Stream(1024);
        final Study.Prims prims = new Study.Prims();
        final SmallObject pojo = Study.pojo();
        byte[] primsBytes, pojoBytes;

        @Setup
        public void setup() throws Exception {
            c = Study.named(format);
            c.writePrimitives(prims, out);
            primsBytes = Study.bytes(out);
            c.writePojo(pojo, out);
            pojoBytes = Study.bytes(out);
        }
    }

    @Benchmark
    public int writePrimitives(Candidates s) throws Exception {
        s.c.writePrimitives(s.prims, s.out);
        return s.out.len;
    }

    @Benchmark
    public Study.Prims readPrimitives(Candidates s) throws Exception {
        return s.c.readPrimitives(s.primsBytes, s.primsBytes.length);
    }

    @Benchmark
    public int writePojo(Candidates s) throws Exception {
        s.c.writePojo(s.pojo, s.out);
        return s.out.len;
    }

    @Benchmark
    public SmallObject readPojo(Candidates s) throws Exception {
        return s.c.readPojo(s.pojoBytes, s.pojoBytes.length);
    }

    @Benchmark
    public int writeSqlQuery(Candidates s) throws Exception {
        s.c.writeSqlQuery(Study.QUERY, Study.ARGS, s.out);
        return s.out.len;
    }

    /** writePojo without field names: MessagePack's fields in order, Ignite's raw writer. */
    @State(Scope.Thread)
    public static class Nameless {
        @Param({"msgpack", "ignite"})
        public String format;

        final Study.Msgpack msgpack = new Study.Msgpack();
        final Study.IgniteBinary ignite = new Study.IgniteBinary();
        final Stream out = new Stream(1024);
        final SmallObject pojo = Study.pojo();
    }

    @Benchmark
    public int writePojoWithoutNames(Nameless s) throws Exception {
        if (s.format.equals("msgpack")) {
            s.msgpack.writePojoWithoutNames(s.pojo, s.out);
        } else {
            s.ignite.writePojoWithoutNames(s.pojo, s.out);
        }
        return s.out.len;
    }
}
