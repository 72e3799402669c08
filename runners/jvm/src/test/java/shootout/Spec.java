package shootout;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import shootout.workload.Dataset;
import shootout.workload.RecordSchemas;
import shootout.workload.Workload;

/** The repository's spec/ (spec/README.md): the facts every language's tests hold their code to, one copy for all. */
public final class Spec {
    private Spec() {}

    /** spec/ of this checkout: the nearest one above the working directory (runners/jvm when Maven runs the tests). */
    public static final Path DIR = find();

    private static Path find() {
        Path here = Path.of("").toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("spec").resolve("fixtures"))) {
                return p.resolve("spec");
            }
        }
        throw new IllegalStateException("no spec/fixtures/ in " + here + " or a folder above it");
    }

    /** A spec file, parsed. */
    public static JsonNode json(String name) throws IOException {
        return new ObjectMapper().readTree(DIR.resolve(name).toFile());
    }

    /**
     * A fixture by name: a workload's own (its sample records and their reference aggregate, written by `shootout
     * export-dataset`), or one of its variants, such as jsonl-protobuf.
     */
    public static Path fixture(String name) {
        return DIR.resolve("fixtures").resolve(name + ".jsonl");
    }

    /**
     * Every fixture of a workload: its own, then its variants (spec/fixtures/WORKLOAD-VARIANT.jsonl, such as jsonl-protobuf.jsonl,
     * the jsonl records projected by a schema whose header carries it), by name.
     */
    public static List<Path> fixtures(String workload) throws IOException {
        List<Path> all = new ArrayList<>(List.of(fixture(workload)));
        try (DirectoryStream<Path> variants =
                Files.newDirectoryStream(DIR.resolve("fixtures"), workload + "-*.jsonl")) {
            variants.forEach(all::add);
        }
        all.subList(1, all.size()).sort(null);
        return all;
    }

    /** The name of every fixture of every workload, for {@link #fixture}: the tests that run each fixture take these. */
    public static List<String> fixtureNames() throws IOException {
        List<String> names = new ArrayList<>();
        for (Workload<?, ?> w : Workload.ALL) {
            for (Path p : fixtures(w.name)) {
                names.add(p.getFileName().toString().replaceFirst("\\.jsonl$", ""));
            }
        }
        return names;
    }

    /** A fixture's header: its workload, record count, reference and record schemas. */
    public static Dataset.Header header(String name) throws IOException {
        return Dataset.readHeader(fixture(name));
    }

    /** A fixture's lines, its header then one record a line: a test edits them into a dataset of its own. */
    public static List<String> lines(String name) throws IOException {
        return Files.readAllLines(fixture(name));
    }

    /** Writes lines as the dataset {@code file} in dir; returns its path. */
    public static Path writeDataset(Path dir, String file, List<String> lines) throws IOException {
        return Files.write(dir.resolve(file), lines);
    }

    /** A fixture's records, its reference's check and its header's record schemas. */
    public record Fixture<R, S>(
            Workload<R, S> workload, List<R> records, Function<S, String> check, RecordSchemas schemas) {}

    public static <R, S> Fixture<R, S> read(Workload<R, S> w) throws IOException {
        return read(fixture(w.name), w);
    }

    public static <R, S> Fixture<R, S> read(Path fixture, Workload<R, S> w) throws IOException {
        try (Dataset<R> d = Dataset.open(fixture, w)) {
            List<R> all = new ArrayList<>();
            for (List<R> window; !(window = d.next(1000)).isEmpty(); ) {
                all.addAll(window);
            }
            return new Fixture<>(w, all, w.checker.apply(d.header.reference()), d.header.recordSchemas());
        }
    }

    /** A JSON schema of spec/ (draft 2020-12), which every runner's output is held to. */
    public record JsonSchema(String name, Schema schema) {
        public static JsonSchema of(String name) {
            try {
                return new JsonSchema(
                        name,
                        SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                                .getSchema(Files.readString(DIR.resolve(name)), InputFormat.JSON));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        /** Every place where json breaks the schema, one a line; empty when json follows it. */
        public String breaks(String json) {
            return schema.validate(json, InputFormat.JSON).stream()
                    .map(e -> e.getInstanceLocation() + ": " + e.getMessage())
                    .collect(Collectors.joining("\n"));
        }

        public void assertFollows(String json) {
            assertEquals("", breaks(json), "the output breaks spec/" + name);
        }
    }
}
