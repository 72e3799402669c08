package shootout.registry;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import shootout.Spec;
import shootout.codec.Info;
import shootout.harness.Results;

/**
 * The registry is what spec/formats.json lists for the JVM (its "java" rows,
 * spec/README.md): name, family, wire, framing, labels and workloads of every
 * format, in registry order. With SHOOTOUT_UPDATE_EXPECTED set, the test
 * rewrites the java rows instead and keeps every other language's.
 */
class RegistryTest {
    static final String LANGUAGE = "java";
    /** The file's order of languages. */
    static final List<String> LANGUAGES = List.of("rust", "go", "java");

    static final ObjectMapper JSON = new ObjectMapper();
    /** serde_json's pretty layout, which the Rust and Go rewrites of the file write too: 2-space indent, `"key": value`, `[]`. */
    static final ObjectWriter PRETTY = JSON.writer(new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"))
            .withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator("")));

    /** The registry as rows of spec/formats.json. */
    static List<JsonNode> registryRows() {
        List<JsonNode> rows = new ArrayList<>();
        for (Registry.Format f : Registry.FORMATS) {
            Info i = f.info();
            ObjectNode row = JSON.createObjectNode();
            row.put("language", LANGUAGE);
            row.put("name", i.name());
            row.put("family", i.family());
            row.put("wire", i.wire());
            row.put("framing", i.framing().spelling);
            row.set("labels", JSON.valueToTree(Results.labels(i.labels())));
            row.set("workloads", JSON.valueToTree(f.workloads()));
            rows.add(row);
        }
        return rows;
    }

    @Test
    void specFormatsListsEveryJavaFormatAsTheRegistryHasIt() throws IOException {
        Path file = Spec.DIR.resolve("formats.json");
        if (System.getenv("SHOOTOUT_UPDATE_EXPECTED") != null) {
            rewrite(file);
            return;
        }
        if (!Files.exists(file)) {
            fail(
                    file
                            + " does not exist; write it: SHOOTOUT_UPDATE_EXPECTED=1 mvn -q test -Dtest=RegistryTest (in runners/jvm)");
        }
        List<String> listed = new ArrayList<>(), registry = new ArrayList<>();
        for (JsonNode row : JSON.readTree(file.toFile()).path("formats")) {
            if (row.path("language").asText().equals(LANGUAGE)) {
                listed.add(JSON.writeValueAsString(row));
            }
        }
        for (JsonNode row : registryRows()) {
            registry.add(JSON.writeValueAsString(row));
        }
        if (listed.equals(registry)) {
            return;
        }
        List<String> diff = new ArrayList<>();
        listed.stream().filter(row -> !registry.contains(row)).forEach(row -> diff.add("- " + row));
        registry.stream().filter(row -> !listed.contains(row)).forEach(row -> diff.add("+ " + row));
        if (diff.isEmpty()) {
            diff.add("(the same rows in another order)");
        }
        fail(
                "spec/formats.json (-) differs from the java registry (+):\n" + String.join("\n", diff)
                        + "\nIf the registry is right, rewrite its rows: SHOOTOUT_UPDATE_EXPECTED=1 mvn -q test -Dtest=RegistryTest (in runners/jvm)");
    }

    /** Replaces the java rows of the file (created when absent), read just before writing so that another language's rewrite is kept. */
    static void rewrite(Path file) throws IOException {
        List<JsonNode> before = new ArrayList<>(), after = new ArrayList<>();
        if (Files.exists(file)) {
            int ours = LANGUAGES.indexOf(LANGUAGE);
            for (JsonNode row : JSON.readTree(file.toFile()).path("formats")) {
                int rank = LANGUAGES.indexOf(row.path("language").asText());
                if (rank == ours) {
                    continue;
                }
                (rank >= 0 && rank < ours ? before : after).add(row);
            }
        }
        ObjectNode table = JSON.createObjectNode();
        table.put("schema", "shootout-formats/1");
        table.putArray("formats").addAll(before).addAll(registryRows()).addAll(after);
        Files.writeString(file, PRETTY.writeValueAsString(table) + "\n");
    }
}
