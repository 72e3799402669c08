package shootout.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import shootout.Spec;
import shootout.TestRegistry;
import shootout.codec.Framing;
import shootout.registry.Registry;
import shootout.workload.Workload;

/** The results file the runner writes is what spec/results.schema.json describes (shootout-results/3), measured and failed formats alike. */
class ResultsSchemaTest {
    static final Spec.JsonSchema SCHEMA = Spec.JsonSchema.of("results.schema.json");

    /** The results of the formats on a fixture, from a quick run. */
    static String results(Path dir, String fixture, List<Registry.Format> formats, int code) throws Exception {
        return Ran.quick(dir, formats, code, Spec.fixture(fixture));
    }

    static void assertValid(String results) {
        SCHEMA.assertFollows(results);
    }

    @Test
    void everyFormatsResultsFollowTheSchema(@TempDir Path dir) throws Exception {
        for (String workload : List.of("user", "iex")) {
            assertValid(results(dir, workload, Registry.FORMATS, 0));
        }
    }

    @Test
    void aFailedFormatFollowsTheSchema(@TempDir Path dir) throws Exception {
        List<Registry.Format> formats = new ArrayList<>(Registry.FORMATS);
        formats.add(TestRegistry.testRow("crashes", Framing.U32LE, Workload.USER, MainTest.Crashes::new));
        String results = results(dir, "user", formats, 3);
        assertTrue(results.contains("\"crashes\""), results);
        assertValid(results);
    }

    /**
     * The formats that do not run a jsonl dataset without record schemas (the schema formats need one), each with its reason in
     * the registry (a format added later shows "no mapping yet").
     */
    static final List<String> NOT_ON_JSONL = List.of(
            "java-serialization",
            "msgpack-jackson-array",
            "json-jackson3-blackbird",
            "avro-reflect",
            "avro-generic",
            "kryo",
            "fory-java",
            "chronicle-wire",
            "ignite-binary",
            "ignite-raw",
            "protobuf",
            "protobuf-dynamic",
            "thrift-binary",
            "thrift-compact",
            "flatbuffers",
            "sbe");

    /**
     * The jsonl workload through the command line: every format that runs it
     * measured with its jsonl notes, or failed with its known loss (KnownLosses),
     * and every other format in not_run with the registry's reason, which for
     * each of NOT_ON_JSONL is not "no mapping yet".
     */
    @Test
    void theJsonlResultsFollowTheSchemaWithAReasonForEveryFormatNotRun(@TempDir Path dir) throws Exception {
        boolean losses = Registry.FORMATS.stream()
                .anyMatch(
                        f -> f.runs("jsonl") && shootout.KnownLosses.of(f.info().name(), "jsonl") != null);
        String results = results(dir, "jsonl", Registry.FORMATS, losses ? 3 : 0);
        assertValid(results);
        com.fasterxml.jackson.databind.JsonNode r = new com.fasterxml.jackson.databind.ObjectMapper().readTree(results);
        List<String> failed = new ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode f : r.get("failed")) {
            String name = f.get("name").asText(), loss = shootout.KnownLosses.of(name, "jsonl");
            assertTrue(loss != null && f.get("reason").asText().contains(loss), f.toString());
            failed.add(name);
        }
        int measured = 0;
        for (com.fasterxml.jackson.databind.JsonNode f : r.get("formats")) {
            if (!f.get("baseline").asBoolean()) {
                assertTrue(f.get("notes").asText().startsWith("on jsonl: "), f.get("name") + ": " + f.get("notes"));
                measured++;
            }
        }
        shootout.workload.RecordSchemas schemas = Spec.header("jsonl").recordSchemas();
        long runs = Registry.FORMATS.stream()
                .filter(f -> f.on(Workload.JSONL, schemas).runs())
                .count();
        assertEquals(runs, measured + failed.size());
        java.util.Map<String, String> reasons = new java.util.HashMap<>();
        for (com.fasterxml.jackson.databind.JsonNode n : r.get("not_run")) {
            reasons.put(n.get("name").asText(), n.get("reason").asText());
        }
        assertEquals(Registry.FORMATS.size() - runs + Registry.UNAVAILABLE.size(), reasons.size());
        for (Registry.Format f : Registry.FORMATS) {
            if (!f.on(Workload.JSONL, schemas).runs()) {
                assertEquals(
                        f.on(Workload.JSONL, schemas).notRun(),
                        reasons.get(f.info().name()),
                        f.info().name());
            }
        }
        for (String name : NOT_ON_JSONL) {
            String reason = reasons.get(name);
            assertTrue(reason != null && !reason.equals(Registry.NO_MAPPING), name + ": " + reason);
        }
    }

    @Test
    void aResultsFileMissingARequiredKeyIsRefused(@TempDir Path dir) throws Exception {
        String results = results(dir, "sql", Registry.FORMATS, 0);
        assertTrue(results.contains("\"order_position\""), "every run has an order_position");
        assertTrue(
                !SCHEMA.breaks(results.replace("\"order_position\"", "\"order_pos\""))
                        .isEmpty(),
                "the schema must refuse a renamed key");
    }
}
