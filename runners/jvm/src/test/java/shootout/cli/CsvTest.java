package shootout.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import shootout.Spec;
import shootout.TestRegistry;
import shootout.codec.Mapping;
import shootout.registry.Registry;
import shootout.workload.Dataset;
import shootout.workload.RecordSchemas;
import shootout.workload.Workload;

/**
 * The csv workload is jsonl under another name (docs/dataset-format.md, "`csv`: any CSV, its columns' types inferred"): the same
 * records, reference and findings, every format running it as it runs jsonl, and results that name it csv. The dataset here is
 * the shared fixture spec/fixtures/csv.jsonl: 300 generated orders, each row an object.
 */
class CsvTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static Path csvFixture() {
        return Spec.fixture("csv");
    }

    /** The csv fixture's record schemas, on which a schema format runs it or says why not. */
    static RecordSchemas fixtureSchemas() throws java.io.IOException {
        return Spec.header("csv").recordSchemas();
    }

    @Test
    void csvIsJsonlUnderAnotherName() {
        Workload<?, ?> csv = Workload.named("csv"), jsonl = Workload.JSONL;
        assertSame(Workload.CSV, csv);
        assertEquals("csv", csv.name);
        assertSame(jsonl.type, csv.type);
        assertSame(jsonl.fields, csv.fields);
        assertSame(jsonl.newSink, csv.newSink);
        assertSame(jsonl.feed, csv.feed);
        assertSame(jsonl.checker, csv.checker);
        assertSame(jsonl.readLine, csv.readLine);
        assertSame(jsonl.compare, csv.compare);
        assertFalse(Workload.RECORD_CLASSES.contains(csv), "csv has no record class, as jsonl has none");
    }

    /**
     * Every format that runs jsonl runs csv with the same codec and notes; every other gives the same reason on both. So on
     * a dataset with record schemas (the schema formats run) and one without (they do not).
     */
    @Test
    void everyFormatRunsCsvExactlyAsItRunsJsonl() throws Exception {
        for (RecordSchemas schemas : List.of(
                RecordSchemas.NONE,
                Spec.header("jsonl-protobuf").recordSchemas(),
                Spec.header("jsonl-avro").recordSchemas())) {
            int runs = 0;
            for (Registry.Format f : Registry.FORMATS) {
                String name = f.info().name();
                assertEquals(f.runs("jsonl"), f.runs("csv"), name);
                Mapping.OnDataset<?, ?> jsonl = f.on(Workload.JSONL, schemas), csv = f.on(Workload.CSV, schemas);
                assertEquals(jsonl.runs(), csv.runs(), name);
                if (jsonl.runs()) {
                    runs++;
                    assertEquals(f.info(Workload.JSONL), f.info(Workload.CSV), name);
                    assertEquals(
                            jsonl.make().make().getClass(), csv.make().make().getClass(), name);
                } else {
                    assertEquals(jsonl.notRun(), csv.notRun(), name);
                }
            }
            assertTrue(runs > 0, "no format runs jsonl");
            assertEquals(
                    Registry.notRun(Workload.JSONL, schemas, Registry.FORMATS),
                    Registry.notRun(Workload.CSV, schemas, Registry.FORMATS));
            assertEquals(
                    Registry.entries(Workload.JSONL, schemas, Registry.FORMATS).stream()
                            .map(e -> e.info())
                            .toList(),
                    Registry.entries(Workload.CSV, schemas, Registry.FORMATS).stream()
                            .map(e -> e.info())
                            .toList());
        }
    }

    /** `--list --json` lists csv in the workloads of exactly the formats that list jsonl. */
    @Test
    void listJsonListsCsvWhereverItListsJsonl() throws Exception {
        Ran r = Ran.run("--list", "--json");
        assertEquals(0, r.code(), r.err());
        int listed = 0;
        for (JsonNode x : JSON.readTree(r.out())) {
            List<String> workloads = new ArrayList<>();
            x.get("workloads").forEach(w -> workloads.add(w.asText()));
            assertEquals(workloads.contains("jsonl"), workloads.contains("csv"), x.get("name") + ": " + workloads);
            listed += workloads.contains("csv") ? 1 : 0;
        }
        assertEquals(Registry.FORMATS.stream().filter(f -> f.runs("jsonl")).count(), listed);
    }

    @Test
    void aCsvDatasetIsNotAJsonlOneNorTheOtherWayRound() throws Exception {
        Exception e = assertThrows(java.io.IOException.class, () -> Dataset.open(csvFixture(), Workload.JSONL));
        assertTrue(e.getMessage().contains("workload \"csv\", expected \"jsonl\""), e.getMessage());
        e = assertThrows(java.io.IOException.class, () -> Dataset.open(Spec.fixture("jsonl"), Workload.CSV));
        assertTrue(e.getMessage().contains("workload \"jsonl\", expected \"csv\""), e.getMessage());
    }

    /**
     * A csv dataset through the command line, as ResultsSchemaTest runs jsonl's: its results name the workload csv, every format
     * that runs it is measured with its jsonl notes, and every other is in not_run with its jsonl reason.
     */
    @Test
    void aCsvDatasetRunsEndToEndAndItsResultsSayCsv(@TempDir Path dir) throws Exception {
        RecordSchemas schemas = fixtureSchemas();
        String results = Ran.quick(dir, Registry.FORMATS, 0, csvFixture());
        ResultsSchemaTest.assertValid(results);
        JsonNode j = JSON.readTree(results);
        assertEquals("csv", j.at("/workload/name").asText());
        long records = Spec.header("csv").records();
        assertEquals(records, j.at("/workload/records").asLong());
        assertEquals(0, j.get("failed").size(), j.get("failed").toString());
        List<String> measured = new ArrayList<>();
        for (JsonNode f : j.get("formats")) {
            String name = f.get("name").asText();
            if (f.get("baseline").asBoolean()) {
                continue;
            }
            measured.add(name);
            assertEquals(
                    TestRegistry.row(name).info(Workload.JSONL).notes(),
                    f.get("notes").asText(),
                    name);
            for (String direction : List.of("encode", "decode")) {
                for (JsonNode run : f.at("/" + direction + "/runs")) {
                    assertEquals(records, run.get("ops").asLong(), name + " " + direction);
                }
            }
        }
        assertEquals(
                Registry.FORMATS.stream()
                        .filter(f -> f.on(Workload.CSV, schemas).runs())
                        .map(f -> f.info().name())
                        .toList(),
                measured);
        Map<String, String> reasons = new HashMap<>();
        for (JsonNode n : j.get("not_run")) {
            reasons.put(n.get("name").asText(), n.get("reason").asText());
        }
        assertEquals(Registry.FORMATS.size() - measured.size() + Registry.UNAVAILABLE.size(), reasons.size());
        for (Registry.Format f : Registry.FORMATS) {
            if (!f.on(Workload.CSV, schemas).runs()) {
                assertEquals(
                        f.on(Workload.CSV, schemas).notRun(),
                        reasons.get(f.info().name()),
                        f.info().name());
            }
        }
        for (String name : ResultsSchemaTest.NOT_ON_JSONL) {
            assertNotEquals(Registry.NO_MAPPING, reasons.get(name), name);
        }
    }

    /**
     * Both interop modes on a csv dataset: each manifest names the workload csv, each stream is byte for byte the stream of the
     * same records as jsonl, and the runner decodes each back "ok" against the csv dataset.
     */
    @Test
    void aCsvDatasetsStreamsAreJsonlsAndDecodeBack(@TempDir Path dir) throws Exception {
        RecordSchemas schemas = fixtureSchemas();
        Path csvDir = Files.createDirectory(dir.resolve("csv")), jsonlDir = Files.createDirectory(dir.resolve("jsonl"));
        List<String> lines = Spec.lines("csv");
        lines.set(0, lines.get(0).replace("\"workload\":\"csv\"", "\"workload\":\"jsonl\""));
        Path jsonl = Spec.writeDataset(dir, "jsonl.jsonl", lines);
        Ran.interopEncode(csvDir, csvFixture());
        Ran.interopEncode(jsonlDir, jsonl);
        List<String> requests = new ArrayList<>();
        for (Registry.Format f : Registry.FORMATS) {
            String base = "java-" + f.info().name();
            assertEquals(
                    Files.exists(jsonlDir.resolve(base + ".json")), Files.exists(csvDir.resolve(base + ".json")), base);
            if (!f.on(Workload.CSV, schemas).runs()) {
                continue;
            }
            JsonNode m = JSON.readTree(csvDir.resolve(base + ".json").toFile()),
                    n = JSON.readTree(jsonlDir.resolve(base + ".json").toFile());
            assertEquals("csv", m.get("workload").asText(), base);
            assertEquals("jsonl", n.get("workload").asText(), base);
            assertTrue(m.get("error").isNull(), m.toString());
            assertEquals(n.get("sha256"), m.get("sha256"), base + ": the csv stream is not the jsonl one");
            assertEquals(n.get("bytes"), m.get("bytes"), base);
            requests.add(f.info().name() + "\t" + csvDir.resolve(base + ".bin").toAbsolutePath());
        }
        assertFalse(requests.isEmpty());
        Ran r = Ran.interopDecode(dir, csvFixture(), requests);
        assertEquals(0, r.code(), r.err());
        long records = Spec.header("csv").records();
        List<JsonNode> answers = r.jsonLines();
        for (JsonNode a : answers) {
            assertEquals("ok", a.get("status").asText(), a.toString());
            assertEquals(records, a.get("records").asLong(), a.toString());
        }
        assertEquals(requests.size(), answers.size());
    }
}
