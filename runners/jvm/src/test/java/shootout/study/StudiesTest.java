package shootout.study;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import shootout.cli.Main;

/** `--study`: the answer `shootout study` reads, and the command line's errors. */
class StudiesTest {
    private record Ran(int status, String out, String err) {
    }

    private static Ran run(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int status = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Ran(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static List<String> texts(JsonNode array, String key) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get(key).asText()));
        return out;
    }

    @Test
    void scalaLogsAnswersWithTheStudysTablesOurFiguresAndItsDepartures() throws Exception {
        Ran r = run("--study", "scala-logs", "--out", "-", "--records", "300", "--runs", "1", "--warmup", "0");
        assertEquals(0, r.status(), r.err());
        JsonNode figures = new ObjectMapper().readTree(r.out());
        assertEquals("shootout-study-figures/1", figures.get("schema").asText());
        assertEquals("scala-logs", figures.get("study").asText());
        assertEquals("java", figures.get("language").asText());
        assertTrue(figures.get("environment").get("libraries").has("org.apache.avro:avro"));
        assertEquals(List.of("study", "corrected"), texts(figures.get("variants"), "id"));

        JsonNode study = figures.get("variants").get(0).get("tables");
        assertEquals(List.of("csv-size", "uuid-field-bytes", "file-size", "write-ms", "read-ms"), texts(study, "id"));
        List<String> formats = List.of("Java serialization", "JSON", "Avro", "Protobuf", "Thrift binary", "Thrift compact", "MessagePack");
        assertEquals(List.of("mixed", "strings", "longs"), texts(study.get(0).get("rows"), "label"));
        assertEquals(List.of("Avro", "MessagePack", "Protobuf", "Thrift compact", "Thrift binary", "Java serialization"),
                texts(study.get(1).get("rows"), "label"));
        for (JsonNode table : study) {
            List<String> keys = switch (table.get("id").asText()) {
                case "csv-size" -> List.of("mb");
                case "uuid-field-bytes" -> List.of("bytes");
                case "file-size" -> List.of("mixed_mb", "strings_mb", "longs_mb");
                default -> List.of("mixed", "strings", "longs");
            };
            if (keys.size() == 3) {
                assertEquals(formats, texts(table.get("rows"), "label"), table.get("id").asText());
            }
            for (JsonNode row : table.get("rows")) {
                List<String> names = new ArrayList<>();
                row.get("values").fieldNames().forEachRemaining(names::add);
                assertEquals(keys, names, table.get("id") + " " + row.get("label"));
                row.get("values").forEach(v -> assertTrue(v.isNumber() && v.asDouble() > 0, row.toString()));
            }
        }
        JsonNode corrected = figures.get("variants").get(1).get("tables");
        assertEquals(List.of("file-size"), texts(corrected, "id"));
        assertEquals(formats, texts(corrected.get(0).get("rows"), "label"));
        assertTrue(figures.get("facts").has("csv_mib_strings"));
        assertFalse(figures.get("departures").isEmpty());
    }

    @Test
    void anUnknownStudyAMissingOutOrHelpIsAUsageError() throws Exception {
        Ran unknown = run("--study", "nope", "--out", "-");
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().contains("unknown study \"nope\" (known: scala-logs"), unknown.err());
        Ran noOut = run("--study", "scala-logs");
        assertEquals(2, noOut.status());
        assertTrue(noOut.err().contains("--study needs --out"), noOut.err());
        assertEquals(2, run("--study", "scala-logs", "--out", "-", "--runs", "0").status());
        Ran help = run("--study", "scala-logs", "--help");
        assertEquals(2, help.status());
        assertTrue(help.err().startsWith("usage: ") && help.err().contains("--records N"), help.err());
    }
}
