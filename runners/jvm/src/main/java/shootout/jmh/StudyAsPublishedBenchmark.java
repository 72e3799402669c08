package shootout.jmh;

import java.io.IOException;
import org.apache.ignite.IgniteCheckedException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The IEP-75 study's JMH benchmarks under the study's own names (the `study`
 * variant of `shootout-jvm --study ignite-iep75`), each one call of
 * StudyAsPublished; one shared state, as the study's benchmark class was its
 * own @State(Scope.Benchmark) on one thread.
 */
@State(Scope.Benchmark)
public class StudyAsPublishedBenchmark extends JmhDefaults {
    private StudyAsPublished s;

    @Setup
    public void setup() throws IOException, IgniteCheckedException {
        s = new StudyAsPublished();
    }

    @Benchmark
    public byte[] writePrimitivesMsgPackRaw() throws IOException {
        return s.writePrimitivesMsgPackRaw();
    }

    @Benchmark
    public byte[] writePrimitivesIgnite() {
        return s.writePrimitivesIgnite();
    }

    @Benchmark
    public StudyAsPublished.IntAndString readPrimitivesMsgPack() throws IOException {
        return s.readPrimitivesMsgPack();
    }

    @Benchmark
    public StudyAsPublished.IntAndString readPrimitivesIgnite() {
        return s.readPrimitivesIgnite();
    }

    @Benchmark
    public byte[] writePojoMsgPack() throws IOException {
        return s.writePojoMsgPack();
    }

    @Benchmark
    public byte[] writePojoMsgPack2() throws IOException {
        return s.writePojoMsgPack2();
    }

    @Benchmark
    public byte[] writePojoIgnite() throws IgniteCheckedException {
        return s.writePojoIgnite();
    }

    @Benchmark
    public StudyAsPublished.IntPojo readPojoMsgPack() throws IOException {
        return s.readPojoMsgPack();
    }

    @Benchmark
    public StudyAsPublished.IntPojo readPojoIgnite() throws IgniteCheckedException {
        return s.readPojoIgnite();
    }

    @Benchmark
    public byte[] writeSqlQueryMsgPack() throws IOException {
        return s.writeSqlQueryMsgPack();
    }

    @Benchmark
    public byte[] writeSqlQueryIgnite() {
        return s.writeSqlQueryIgnite();
    }
}
