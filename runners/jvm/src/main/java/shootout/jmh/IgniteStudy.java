package shootout.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import shootout.codec.Stream;
import shootout.workload.SmallObject;

/**
 * The IEP-75 study's benchmark list, as JVM users run it: throughput (ops/s)
 * of writePrimitives, readPrimitives, writePojo, readPojo and writeSqlQuery
 * for MessagePack and Ignite's binary format, plus CBOR, FlexBuffers, BSON
 * and UBJSON (Study's candidates); writePojoWithoutNames is MessagePack's
 * and Ignite raw's POJO without field names. Defaults are kept short
 * (1 fork, 3 × 1 s warm-up, 5 × 1 s measured) for a 2-core machine; JMH's
 * command-line options override them.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--add-opens=java.base/jdk.internal.access=ALL-UNNAMED",
        "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
        "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED", "--add-opens=java.base/java.math=ALL-UNNAMED",
        "--add-opens=java.base/java.time=ALL-UNNAMED", "--add-opens=java.base/java.text=ALL-UNNAMED",
        "--add-opens=java.sql/java.sql=ALL-UNNAMED", "--add-opens=java.management/sun.management=ALL-UNNAMED",
        "--add-opens=jdk.management/com.sun.management.internal=ALL-UNNAMED"})
public class IgniteStudy {
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
