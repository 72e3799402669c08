package shootout.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import shootout.cli.Ran;

/** `shootout-jvm --study ignite-iep75`: the shootout-study-figures/1 answer's shape (spec/studies/README.md), never its timings. */
class StudyFiguresTest {
    static final List<String> JMH_ROWS = List.of(
            "writePrimitives",
            "readPrimitives",
            "writePojo (fields with names)",
            "writePojo (fields without names)",
            "readPojo",
            "writeSqlQuery");

    @Test
    void aQuickRunAnswersBothVariantsWithThePublishedRowsAndTheComputedSizes() throws Exception {
        Ran r = Ran.run("--study", "ignite-iep75", "--quick", "--iteration-ms", "20", "--out", "-");
        assertEquals(0, r.code(), r.err());
        JsonNode f = new ObjectMapper().readTree(r.out());
        assertEquals("shootout-study-figures/1", f.get("schema").asText());
        assertEquals("ignite-iep75", f.get("study").asText());
        assertEquals("java", f.get("language").asText());
        assertFalse(f.get("environment").get("toolchain").asText().isEmpty());
        assertFalse(f.get("environment")
                .get("libraries")
                .get("org.msgpack:jackson-dataformat-msgpack")
                .asText()
                .isEmpty());
        assertEquals(0, f.get("environment").get("jmh").get("forks").asInt());

        JsonNode variants = f.get("variants");
        assertEquals(2, variants.size());
        assertEquals("study", variants.get(0).get("id").asText());
        assertEquals("as the study did", variants.get(0).get("title").asText());
        assertEquals("shootout", variants.get(1).get("id").asText());
        for (JsonNode v : variants) {
            JsonNode jmh = table(v, "jmh");
            List<String> labels = new ArrayList<>();
            for (JsonNode row : jmh.get("rows")) {
                labels.add(row.get("label").asText());
                assertTrue(row.get("values").get("msgpack_ops_s").asDouble() > 0, row.toString());
            }
            assertEquals(JMH_ROWS, labels);
            JsonNode sql = table(v, "sql-size").get("rows");
            assertEquals("MessagePack", sql.get(0).get("label").asText());
            assertEquals(54, sql.get(0).get("values").get("bytes").asInt());
            assertEquals("Ignite binary", sql.get(1).get("label").asText());
            assertEquals(71, sql.get(1).get("values").get("bytes").asInt());
        }
        // The study measured no Ignite POJO without names; shootout's raw writer is that row's Ignite cell.
        assertFalse(
                table(variants.get(0), "jmh").get("rows").get(3).get("values").has("ignite_ops_s"));
        assertTrue(table(variants.get(1), "jmh")
                        .get("rows")
                        .get(3)
                        .get("values")
                        .get("ignite_ops_s")
                        .asDouble()
                > 0);

        List<String> departures = new ArrayList<>();
        f.get("departures").forEach(d -> departures.add(d.asText()));
        assertTrue(departures.stream().anyMatch(d -> d.startsWith("--quick")), departures.toString());
        assertTrue(departures.stream().anyMatch(d -> d.contains("JsonArrayFormat")), departures.toString());
    }

    static JsonNode table(JsonNode variant, String id) {
        for (JsonNode t : variant.get("tables")) {
            if (t.get("id").asText().equals(id)) {
                return t;
            }
        }
        throw new AssertionError("no table " + id + " in " + variant.get("id"));
    }

    @Test
    void usageErrorsExitTwo() throws Exception {
        assertEquals(2, Ran.run("--study", "ignite-iep75").code());
        assertEquals(
                2,
                Ran.run("--study", "ignite-iep75", "--out", "-", "--iterations", "0")
                        .code());
        assertEquals(2, Ran.run("--study", "scala", "--out", "-").code());
        Ran help = Ran.run("--study", "ignite-iep75", "--help");
        assertEquals(2, help.code());
        assertTrue(help.err().contains("--quick"), help.err());
    }
}
