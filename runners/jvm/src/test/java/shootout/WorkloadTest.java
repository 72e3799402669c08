package shootout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import shootout.workload.Dataset;
import shootout.workload.FieldSink;
import shootout.workload.Workload;

class WorkloadTest {
    static java.util.stream.Stream<String> workloads() {
        return Workload.ALL.stream().map(w -> w.name);
    }

    @ParameterizedTest
    @MethodSource("workloads")
    void everyFixtureAddsUpToItsHeadersReference(String workload) throws Exception {
        check(Workload.named(workload));
    }

    private static <R, S> void check(Workload<R, S> w) throws Exception {
        Spec.Fixture<R, S> s = Spec.read(w);
        S sink = w.newSink.get();
        for (R r : s.records()) {
            w.feed.accept(r, sink);
        }
        assertNull(s.check().apply(sink), w.name);
        assertTrue(s.records().size() >= 5, w.name + " fixture has too few records");
    }

    @Test
    void aSinkMissingARecordDiffers() throws Exception {
        Spec.Fixture<?, ?> s = Spec.read(Workload.USER);
        FieldSink sink = new FieldSink(shootout.workload.User.FIELDS.size());
        for (int i = 1; i < s.records().size(); i++) {
            ((shootout.workload.User) s.records().get(i)).visit(sink);
        }
        @SuppressWarnings("unchecked")
        String d = ((java.util.function.Function<FieldSink, String>) s.check()).apply(sink);
        assertNotNull(d);
        assertTrue(d.contains("records"), d);
    }

    @Test
    void aNegativeZeroWrittenAsGoWritesItKeepsItsSign(@TempDir Path dir) throws Exception {
        // Go's encoding/json writes -0.0 as "-0": the sign must survive the reader.
        String line = "{\"id\":1,\"name\":\"\",\"email\":\"\",\"age\":0,\"score\":-0,\"ratio\":-0,\"active\":false,\"level\":0,\"created_at\":0,\"tags\":[]}";
        long bits = Double.doubleToRawLongBits(-0.0);
        String header = "{\"schema\":\"shootout-dataset/1\",\"workload\":\"object\",\"records\":1,\"source\":\"t\",\"input\":null,"
                + "\"fields\":[\"id\",\"name\",\"email\",\"age\",\"score\",\"ratio\",\"active\",\"level\",\"created_at\",\"tags\"],"
                + "\"reference\":{\"records\":1,\"fields\":{}}}";
        Path p = dir.resolve("o.jsonl");
        Files.writeString(p, header + "\n" + line + "\n");
        try (Dataset<shootout.workload.SmallObject> d = Dataset.open(p, Workload.OBJECT)) {
            shootout.workload.SmallObject o = d.next(10).get(0);
            assertEquals(bits, Double.doubleToRawLongBits(o.score));
            assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(o.ratio));
        }
    }

    @Test
    void aDatasetOfAnotherWorkloadOrSchemaIsRefused(@TempDir Path dir) throws Exception {
        assertThrows(java.io.IOException.class, () -> Dataset.open(Spec.fixture("user"), Workload.SQL));
        Path p = dir.resolve("x.jsonl");
        Files.writeString(p, "{\"schema\":\"shootout-dataset/9\"}\n");
        assertThrows(java.io.IOException.class, () -> Dataset.readHeader(p));
        Path short_ = dir.resolve("short.jsonl");
        List<String> lines = Files.readAllLines(Spec.fixture("sql"));
        Files.write(short_, lines.subList(0, lines.size() - 1));
        assertThrows(java.io.IOException.class, () -> {
            try (Dataset<?> d = Dataset.open(short_, Workload.SQL)) {
                while (!d.next(100).isEmpty()) {
                    // read to the end
                }
            }
        });
    }
}
