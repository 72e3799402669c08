package shootout.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import shootout.Spec;
import shootout.formats.avro.AvroGeneric;
import shootout.formats.protobuf.ProtobufDynamic;
import shootout.registry.Registry;
import shootout.workload.Workload;

/**
 * The schema formats (docs/dataset-format.md, "With a schema"): protobuf-dynamic and avro-generic run a jsonl or csv dataset
 * whose header carries their schema, and say why not on any other dataset: one without a schema of their kind, one whose
 * run could not build it ({"reason": ...}), any other workload.
 */
class SchemaFormatsTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> SCHEMA_FORMATS = List.of("protobuf-dynamic", "avro-generic");

    /** A quick measuring run of the schema formats on dataset: its results, which must follow the results schema. */
    static JsonNode results(Path dir, Path dataset) throws Exception {
        String results = Ran.quick(dir, Registry.FORMATS, 0, dataset, "--formats", String.join(",", SCHEMA_FORMATS));
        ResultsSchemaTest.assertValid(results);
        return JSON.readTree(results);
    }

    static Map<String, String> notRun(JsonNode results) {
        Map<String, String> reasons = new HashMap<>();
        results.get("not_run")
                .forEach(
                        n -> reasons.put(n.get("name").asText(), n.get("reason").asText()));
        return reasons;
    }

    static List<String> measured(JsonNode results) {
        List<String> names = new ArrayList<>();
        results.get("formats").forEach(f -> names.add(f.get("name").asText()));
        return names;
    }

    /** Each schema fixture runs the format of its header's schema, measured and validated; the other kind says it has no schema. */
    @Test
    void eachSchemaFixtureRunsItsFormatAndTheOtherSaysWhy(@TempDir Path dir) throws Exception {
        JsonNode protobuf = results(dir, Spec.fixture("jsonl-protobuf"));
        assertEquals(List.of("baseline", "protobuf-dynamic"), measured(protobuf));
        assertEquals(AvroGeneric.NO_SCHEMA, notRun(protobuf).get("avro-generic"));
        JsonNode avro = results(dir, Spec.fixture("jsonl-avro"));
        assertEquals(List.of("baseline", "avro-generic"), measured(avro));
        assertEquals(ProtobufDynamic.NO_SCHEMA, notRun(avro).get("protobuf-dynamic"));
        for (JsonNode r : List.of(protobuf, avro)) {
            assertEquals(0, r.get("failed").size(), r.get("failed").toString());
            JsonNode f = r.get("formats").get(1);
            assertEquals("dynamic", f.at("/labels/api").asText());
            assertTrue(
                    f.get("tags").toString().contains("\"dynamic\""),
                    f.get("tags").toString());
            assertEquals(
                    Registry.version(f.get("library").asText()),
                    f.get("library_version").asText());
            assertTrue(!f.get("library_version").asText().equals("unknown"), f.toString());
        }
        assertEquals("Protocol Buffers", protobuf.at("/formats/1/family").asText());
        assertEquals(
                "com.google.protobuf:protobuf-java",
                protobuf.at("/formats/1/library").asText());
        assertEquals("Avro", avro.at("/formats/1/family").asText());
        assertEquals("org.apache.avro:avro", avro.at("/formats/1/library").asText());
    }

    @Test
    void aJsonlDatasetWithoutRecordSchemasGivesBothReasons(@TempDir Path dir) throws Exception {
        JsonNode r = results(dir, Spec.fixture("jsonl"));
        assertEquals(List.of("baseline"), measured(r));
        Map<String, String> reasons = notRun(r);
        assertEquals(
                "no protobuf schema: run with --schema FILE.proto (a csv run builds one from its columns)",
                reasons.get("protobuf-dynamic"));
        assertEquals(
                "no Avro schema: run with --schema FILE.avsc (a csv run builds one from its columns)",
                reasons.get("avro-generic"));
    }

    /** A header whose run could not build a schema says why in its place: that text is the format's reason. */
    @Test
    void aSchemaTheRunCouldNotBuildIsTheFormatsReason(@TempDir Path dir) throws Exception {
        List<String> lines = Spec.lines("jsonl-protobuf");
        ObjectNode header = (ObjectNode) JSON.readTree(lines.get(0));
        ObjectNode schemas = header.putObject("record_schemas");
        schemas.putObject("protobuf").put("reason", "column 2: \"unit price\" is not an identifier");
        schemas.putObject("avro").put("reason", "row 17: 2^70 does not fit a long");
        header.set("reference", header.remove("reference")); // the header's key order: reference last
        lines.set(0, JSON.writeValueAsString(header));
        JsonNode r = results(dir, Spec.writeDataset(dir, "unbuilt.jsonl", lines));
        assertEquals(List.of("baseline"), measured(r));
        assertEquals("column 2: \"unit price\" is not an identifier", notRun(r).get("protobuf-dynamic"));
        assertEquals("row 17: 2^70 does not fit a long", notRun(r).get("avro-generic"));
    }

    @Test
    void everyOtherWorkloadIsNotRunSayingSo() {
        for (Workload<?, ?> w : Workload.RECORD_CLASSES) {
            for (Map<String, Object> row : Registry.notRun(w.name)) {
                if (SCHEMA_FORMATS.contains(row.get("name"))) {
                    assertEquals(
                            "dynamic: runs only the jsonl and csv workloads, with a schema", row.get("reason"), w.name);
                }
            }
            assertEquals(
                    SCHEMA_FORMATS.size(),
                    Registry.notRun(w.name).stream()
                            .filter(row -> SCHEMA_FORMATS.contains(row.get("name")))
                            .count(),
                    w.name);
        }
    }

    /** `--list --json` lists them on jsonl and csv (what they run with a schema), with api dynamic and their wire and framing. */
    @Test
    void listJsonGivesThemJsonlAndCsv() throws Exception {
        Ran r = Ran.run("--list", "--json");
        assertEquals(0, r.code(), r.err());
        Map<String, JsonNode> listed = new HashMap<>();
        JSON.readTree(r.out()).forEach(x -> listed.put(x.get("name").asText(), x));
        for (String name : SCHEMA_FORMATS) {
            JsonNode x = listed.get(name);
            assertEquals("[\"jsonl\",\"csv\"]", x.get("workloads").toString(), name);
            assertEquals("dynamic", x.at("/labels/api").asText(), name);
        }
        assertEquals("protobuf", listed.get("protobuf-dynamic").get("wire").asText());
        assertEquals("varint", listed.get("protobuf-dynamic").get("framing").asText());
        assertEquals("avro", listed.get("avro-generic").get("wire").asText());
        assertEquals("u32le", listed.get("avro-generic").get("framing").asText());
    }
}
