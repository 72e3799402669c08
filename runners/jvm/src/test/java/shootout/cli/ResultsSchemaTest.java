package shootout.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import shootout.Spec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Mapping;
import shootout.registry.Registry;
import shootout.workload.Workload;

/** The results file the runner writes is what spec/results.schema.json describes (shootout-results/3), measured and failed formats alike. */
class ResultsSchemaTest {
    static final Schema SCHEMA = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(read(Spec.DIR.resolve("results.schema.json")), InputFormat.JSON);

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The results of every format on a fixture, with the settings of a quick Main run: 1 run, no warm-up, no JIT warm-up. */
    static String results(Path dir, String workload, List<Registry.Format> formats, int code) throws Exception {
        return Ran.results(dir, formats, code, workload, "--runs", "1", "--warmup", "0", "--jit-warmup-ms", "0");
    }

    static void assertValid(String results) {
        List<Error> errors = SCHEMA.validate(results, InputFormat.JSON);
        assertEquals("", errors.stream().map(e -> e.getInstanceLocation() + ": " + e.getMessage()).collect(Collectors.joining("\n")),
                "the results file breaks spec/results.schema.json");
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
        formats.add(new Registry.Format(new Info("crashes", "test", "jdk", Labels.of(false, "owned", "validated", "reflection"), Framing.U32LE,
                null, ""), List.of(new Mapping<>(Workload.USER, MainTest.Crashes::new))));
        String results = results(dir, "user", formats, 3);
        assertTrue(results.contains("\"crashes\""), results);
        assertValid(results);
    }

    /**
     * The formats that do not run a jsonl dataset without record schemas (the schema formats need one), each with its reason in
     * the registry (a format added later shows "no mapping yet").
     */
    static final List<String> NOT_ON_JSONL = List.of("java-serialization", "msgpack-jackson-array", "json-jackson3-blackbird", "avro-reflect",
            "avro-generic", "kryo", "fory-java", "chronicle-wire", "ignite-binary", "ignite-raw", "protobuf", "protobuf-dynamic",
            "thrift-binary", "thrift-compact", "flatbuffers", "sbe");

    /**
     * The jsonl workload through the command line: every format that runs it
     * measured with its jsonl notes, or failed with its known loss (KnownLosses),
     * and every other format in not_run with the registry's reason, which for
     * each of NOT_ON_JSONL is not "no mapping yet".
     */
    @Test
    void theJsonlResultsFollowTheSchemaWithAReasonForEveryFormatNotRun(@TempDir Path dir) throws Exception {
        boolean losses = Registry.FORMATS.stream().anyMatch(f -> f.runs("jsonl") && shootout.KnownLosses.of(f.info().name(), "jsonl") != null);
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
        shootout.workload.RecordSchemas schemas = shootout.workload.Dataset.readHeader(Spec.fixture("jsonl")).recordSchemas();
        long runs = Registry.FORMATS.stream().filter(f -> f.on(Workload.JSONL, schemas).runs()).count();
        assertEquals(runs, measured + failed.size());
        java.util.Map<String, String> reasons = new java.util.HashMap<>();
        for (com.fasterxml.jackson.databind.JsonNode n : r.get("not_run")) {
            reasons.put(n.get("name").asText(), n.get("reason").asText());
        }
        assertEquals(Registry.FORMATS.size() - runs + Registry.UNAVAILABLE.size(), reasons.size());
        for (Registry.Format f : Registry.FORMATS) {
            if (!f.on(Workload.JSONL, schemas).runs()) {
                assertEquals(f.on(Workload.JSONL, schemas).notRun(), reasons.get(f.info().name()), f.info().name());
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
        assertTrue(!SCHEMA.validate(results.replace("\"order_position\"", "\"order_pos\""), InputFormat.JSON).isEmpty(),
                "the schema must refuse a renamed key");
    }
}
