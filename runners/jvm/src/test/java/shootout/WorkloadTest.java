package shootout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import shootout.workload.Dataset;
import shootout.workload.FieldSink;
import shootout.workload.RecordSchemas;
import shootout.workload.Workload;

class WorkloadTest {
    @ParameterizedTest
    @MethodSource("shootout.Spec#fixtureNames")
    void everyFixtureAddsUpToItsHeadersReference(String fixture) throws Exception {
        check(Spec.fixture(fixture), Workload.named(Spec.header(fixture).workload()));
    }

    private static <R, S> void check(Path fixture, Workload<R, S> w) throws Exception {
        Spec.Fixture<R, S> s = Spec.read(fixture, w);
        S sink = w.newSink.get();
        for (R r : s.records()) {
            w.feed.accept(r, sink);
        }
        assertNull(s.check().apply(sink), fixture.toString());
        assertTrue(s.records().size() >= 5, fixture + " has too few records");
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
        String line =
                "{\"id\":1,\"name\":\"\",\"email\":\"\",\"age\":0,\"score\":-0,\"ratio\":-0,\"active\":false,\"level\":0,\"created_at\":0,\"tags\":[]}";
        long bits = Double.doubleToRawLongBits(-0.0);
        String header =
                "{\"schema\":\"shootout-dataset/1\",\"workload\":\"object\",\"records\":1,\"source\":\"t\",\"input\":null,"
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
        List<String> lines = Spec.lines("sql");
        Path short_ = Spec.writeDataset(dir, "short.jsonl", lines.subList(0, lines.size() - 1));
        assertThrows(java.io.IOException.class, () -> {
            try (Dataset<?> d = Dataset.open(short_, Workload.SQL)) {
                while (!d.next(100).isEmpty()) {
                    // read to the end
                }
            }
        });
    }

    /** A jsonl header with the given record_schemas member (none when null), and no records. */
    static Path jsonlHeader(Path dir, String recordSchemas) throws Exception {
        String header =
                "{\"schema\":\"shootout-dataset/1\",\"workload\":\"jsonl\",\"records\":0,\"source\":\"t\",\"input\":null,"
                        + "\"fields\":[]," + (recordSchemas == null ? "" : "\"record_schemas\":" + recordSchemas + ",")
                        + "\"reference\":{}}";
        Path p = dir.resolve("schemas.jsonl");
        Files.writeString(p, header + "\n");
        return p;
    }

    @Test
    void theHeadersRecordSchemasAreEachKindsSchemaOrReasonOrNothing(@TempDir Path dir) throws Exception {
        RecordSchemas protobuf = Spec.header("jsonl-protobuf").recordSchemas();
        RecordSchemas.Protobuf p = assertInstanceOf(RecordSchemas.Protobuf.class, protobuf.protobuf());
        assertEquals("events.proto", p.file());
        assertEquals("shootout.events.Event", p.message());
        assertTrue(p.descriptorSet().length > 0);
        assertEquals(
                new RecordSchemas.Unbuilt(
                        "no Avro schema: run with --schema FILE.avsc (a csv run builds one from its columns)"),
                protobuf.avro());
        RecordSchemas avro = Spec.header("jsonl-avro").recordSchemas();
        RecordSchemas.Avro a = assertInstanceOf(RecordSchemas.Avro.class, avro.avro());
        assertEquals("events.avsc", a.file());
        assertTrue(a.schema().contains("\"name\": \"Event\""), a.schema());
        assertEquals(
                new RecordSchemas.Unbuilt(
                        "no protobuf schema: run with --schema FILE.proto (a csv run builds one from its columns)"),
                avro.protobuf());
        assertSame(RecordSchemas.NONE, Spec.header("jsonl").recordSchemas());
        assertSame(
                RecordSchemas.NONE, Dataset.readHeader(jsonlHeader(dir, null)).recordSchemas());
        RecordSchemas unbuilt = Dataset.readHeader(jsonlHeader(
                        dir,
                        "{\"protobuf\":{\"reason\":\"column 1: a b is not an identifier\"},"
                                + "\"avro\":{\"reason\":\"row 3: 2^70 is beyond 64 bits\"}}"))
                .recordSchemas();
        assertEquals(new RecordSchemas.Unbuilt("column 1: a b is not an identifier"), unbuilt.protobuf());
        assertEquals(new RecordSchemas.Unbuilt("row 3: 2^70 is beyond 64 bits"), unbuilt.avro());
    }

    @Test
    void aRecordSchemasThatIsNotOneIsRefusedNamingWhatIsWrong(@TempDir Path dir) throws Exception {
        Map<String, String> bad = Map.of(
                "[]",
                "record_schemas is not an object",
                "{\"avro\":\"x\"}",
                "record_schemas.avro is not an object",
                "{\"avro\":{\"file\":\"a.avsc\"}}",
                "record_schemas.avro.schema is not a string",
                "{\"protobuf\":{\"file\":\"a.proto\",\"message\":\"A\",\"descriptor_set\":\"not base64!\"}}",
                "record_schemas.protobuf.descriptor_set is not standard base64",
                "{\"protobuf\":{\"reason\":7}}",
                "record_schemas.protobuf.reason is not a string");
        for (Map.Entry<String, String> b : bad.entrySet()) {
            Exception e =
                    assertThrows(java.io.IOException.class, () -> Dataset.readHeader(jsonlHeader(dir, b.getKey())));
            assertTrue(e.getMessage().contains("line 1: " + b.getValue()), e.getMessage());
        }
    }
}
