package shootout.study.figures;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shootout-study-figures/1 document (spec/studies/README.md) that every study writes: its variants of tables of
 * labelled rows, written as indented JSON. The studies (study.logs, jmh) and the `--study` command (study.Studies) build
 * on it; it builds on none of them.
 */
public final class Figures {
    private Figures() {}

    public static final String SCHEMA = "shootout-study-figures/1";

    /** What a study's measurement gives: its variants (the study's own first), further facts, and every departure from the document. */
    public record Measurement(List<Map<String, Object>> variants, Map<String, Object> facts, List<String> departures) {}

    public static Map<String, Object> variant(String id, String title, Map<?, ?>... tables) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", id);
        v.put("title", title);
        v.put("tables", List.of(tables));
        return v;
    }

    public static Map<String, Object> table(String id, List<Map<String, Object>> rows) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("id", id);
        t.put("rows", rows);
        return t;
    }

    public static Map<String, Object> row(String label, Map<String, ?> values) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("label", label);
        r.put("values", values);
        return r;
    }

    /** A row with each run's value of its figures (key to runs), whose spread decides a comparison. */
    public static Map<String, Object> row(String label, Map<String, ?> values, Map<String, List<Double>> runs) {
        Map<String, Object> r = row(label, values);
        r.put("runs", runs);
        return r;
    }

    /** Writes a study's figures as indented JSON to the file {@code target} names ("-": standard output). */
    public static void write(Object figures, String target, PrintStream out, PrintStream err)
            throws java.io.IOException {
        byte[] json =
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(figures);
        if (target.equals("-")) {
            out.write(json);
            out.println();
        } else {
            Files.write(Path.of(target), json);
            err.println("figures in " + target);
        }
    }
}
