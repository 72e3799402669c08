package shootout.study;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import shootout.cli.Ran;

/** `--study`: the answer `shootout study` reads, and the command line's errors. */
class StudiesTest {
    private static List<String> texts(JsonNode array, String key) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get(key).asText()));
        return out;
    }

    @Test
    void scalaLogsAnswersWithTheStudysTablesOurFiguresAndItsDepartures() throws Exception {
        Ran r = Ran.run("--study", "scala-logs", "--out", "-", "--records", "300", "--runs", "1", "--warmup", "0");
        assertEquals(0, r.code(), r.err());
        JsonNode figures = new ObjectMapper().readTree(r.out());
        assertEquals("shootout-study-figures/1", figures.get("schema").asText());
        assertEquals("scala-logs", figures.get("study").asText());
        assertEquals("java", figures.get("language").asText());
        assertTrue(figures.get("environment").get("libraries").has("org.apache.avro:avro"));
        assertEquals(List.of("study", "corrected"), texts(figures.get("variants"), "id"));

        JsonNode study = figures.get("variants").get(0).get("tables");
        assertEquals(List.of("csv-size", "uuid-field-bytes", "file-size", "write-ms", "read-ms"), texts(study, "id"));
        List<String> formats = List.of(
                "Java serialization", "JSON", "Avro", "Protobuf", "Thrift binary", "Thrift compact", "MessagePack");
        assertEquals(List.of("mixed", "strings", "longs"), texts(study.get(0).get("rows"), "label"));
        assertEquals(
                List.of("Avro", "MessagePack", "Protobuf", "Thrift compact", "Thrift binary", "Java serialization"),
                texts(study.get(1).get("rows"), "label"));
        for (JsonNode table : study) {
            List<String> keys = switch (table.get("id").asText()) {
                case "csv-size" -> List.of("mib");
                case "uuid-field-bytes" -> List.of("bytes");
                case "file-size" -> List.of("mixed_mib", "strings_mib", "longs_mib");
                default -> List.of("mixed", "strings", "longs");
            };
            if (keys.size() == 3) {
                assertEquals(
                        formats,
                        texts(table.get("rows"), "label"),
                        table.get("id").asText());
            }
            for (JsonNode row : table.get("rows")) {
                List<String> names = new ArrayList<>();
                row.get("values").fieldNames().forEachRemaining(names::add);
                assertEquals(keys, names, table.get("id") + " " + row.get("label"));
                row.get("values").forEach(v -> assertTrue(v.isNumber() && v.asDouble() > 0, row.toString()));
                // A time keeps each timed pass, for the spread that decides a comparison.
                if (table.get("id").asText().endsWith("-ms")) {
                    for (String set : keys) {
                        assertEquals(1, row.get("runs").get(set).size(), row.toString());
                    }
                }
            }
        }
        JsonNode corrected = figures.get("variants").get(1).get("tables");
        assertEquals(List.of("file-size"), texts(corrected, "id"));
        assertEquals(formats, texts(corrected.get(0).get("rows"), "label"));
        // MessagePack's record lengths: packInt, 3 bytes for each 20-UUID record of the strings set.
        assertEquals(
                3 * 300,
                figures.get("facts").get("msgpack_length_prefix_bytes_strings").asLong());
        assertTrue(
                figures.get("departures").toString().contains("4 octets"),
                figures.get("departures").toString());
        assertFalse(figures.get("departures").isEmpty());
    }

    @Test
    void anUnknownStudyAMissingOutOrHelpIsAUsageError() throws Exception {
        Ran unknown = Ran.run("--study", "nope", "--out", "-");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("unknown study \"nope\" (known: scala-logs"), unknown.err());
        Ran noOut = Ran.run("--study", "scala-logs");
        assertEquals(2, noOut.code());
        assertTrue(noOut.err().contains("--study needs --out"), noOut.err());
        assertEquals(
                2, Ran.run("--study", "scala-logs", "--out", "-", "--runs", "0").code());
        Ran help = Ran.run("--study", "scala-logs", "--help");
        assertEquals(2, help.code());
        assertTrue(help.err().startsWith("usage: ") && help.err().contains("--records N"), help.err());
    }
}
