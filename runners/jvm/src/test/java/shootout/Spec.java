package shootout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import shootout.workload.Dataset;
import shootout.workload.RecordSchemas;
import shootout.workload.Workload;

/** The repository's spec/ (spec/README.md): the facts every language's tests hold their code to, one copy for all. */
public final class Spec {
    private Spec() {
    }

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
     * A workload's fixture: its sample records and their reference aggregate,
     * written by `shootout export-dataset`.
     */
    public static Path fixture(String workload) {
        return DIR.resolve("fixtures").resolve(workload + ".jsonl");
    }

    /**
     * Every fixture of a workload: its own, then its variants (spec/fixtures/WORKLOAD-VARIANT.jsonl, such as jsonl-protobuf.jsonl,
     * the jsonl records projected by a schema whose header carries it), by name.
     */
    public static List<Path> fixtures(String workload) throws IOException {
        List<Path> all = new ArrayList<>(List.of(fixture(workload)));
        try (DirectoryStream<Path> variants = Files.newDirectoryStream(DIR.resolve("fixtures"), workload + "-*.jsonl")) {
            variants.forEach(all::add);
        }
        all.subList(1, all.size()).sort(null);
        return all;
    }

    /** A fixture's records, its reference's check and its header's record schemas. */
    public record Fixture<R, S>(Workload<R, S> workload, List<R> records, Function<S, String> check, RecordSchemas schemas) {
    }

    public static <R, S> Fixture<R, S> read(Workload<R, S> w) throws IOException {
        return read(fixture(w.name), w);
    }

    public static <R, S> Fixture<R, S> read(Path fixture, Workload<R, S> w) throws IOException {
        try (Dataset<R> d = Dataset.open(fixture, w)) {
            List<R> all = new ArrayList<>();
            for (List<R> window; !(window = d.next(1000)).isEmpty();) {
                all.addAll(window);
            }
            return new Fixture<>(w, all, w.checker.apply(d.header.reference()), d.header.recordSchemas());
        }
    }
}
