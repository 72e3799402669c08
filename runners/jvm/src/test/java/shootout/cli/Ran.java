package shootout.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import shootout.Spec;
import shootout.registry.Registry;

/** One run of the command line in this process: its exit status and what it printed. */
public record Ran(int code, String out, String err) {
    /** A run of the whole command line, as `java -jar shootout-jvm.jar` runs it (`--study` included). */
    public static Ran run(String... args) throws Exception {
        return capture((out, err) -> Main.run(args, out, err));
    }

    /** A run over the given registry rows (tests add formats of their own). */
    static Ran run(List<Registry.Format> formats, String... args) throws Exception {
        return capture((out, err) -> Main.run(args, out, err, formats));
    }

    interface Command {
        int run(PrintStream out, PrintStream err) throws Exception;
    }

    static Ran capture(Command command) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = command.run(
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Ran(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The settings of a quick measuring run, for its results' shape, not its figures: 1 measured run, no warm-up, no JIT warm-up. */
    static final List<String> QUICK = List.of("--runs", "1", "--warmup", "0", "--jit-warmup-ms", "0");

    /**
     * A measuring run on a fixture with args, its results file in dir; the exit status must be code and
     * stderr must say where the results went. Returns the results file.
     */
    static String results(Path dir, List<Registry.Format> formats, int code, String fixture, String... args)
            throws Exception {
        return results(dir, formats, code, Spec.fixture(fixture), List.of(args));
    }

    /** A quick measuring run (QUICK and args) on dataset, as {@link #results} checks it. */
    static String quick(Path dir, List<Registry.Format> formats, int code, Path dataset, String... args)
            throws Exception {
        List<String> all = new ArrayList<>(QUICK);
        all.addAll(List.of(args));
        return results(dir, formats, code, dataset, all);
    }

    private static String results(Path dir, List<Registry.Format> formats, int code, Path dataset, List<String> args)
            throws Exception {
        Path file = dir.resolve(dataset.getFileName().toString().replaceFirst("\\.jsonl$", "") + "-results.json");
        List<String> all = new ArrayList<>(List.of("--dataset", dataset.toString(), "--out", file.toString()));
        all.addAll(args);
        Ran r = run(formats, all.toArray(String[]::new));
        assertEquals(code, r.code(), r.err());
        assertTrue(r.err().contains("shootout report " + file), r.err());
        return Files.readString(file);
    }

    /** `--interop-encode dir` of dataset, of every format or those named, which must succeed; returns dir. */
    public static Path interopEncode(Path dir, Path dataset, String... formats) throws Exception {
        List<String> args =
                new ArrayList<>(List.of("--dataset", dataset.toString(), "--interop-encode", dir.toString()));
        if (formats.length > 0) {
            args.add("--formats");
            args.add(String.join(",", formats));
        }
        Ran r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return dir;
    }

    /** `--interop-decode` of requests (lines of FORMAT, a tab, a stream's path), written to dir, against dataset. */
    public static Ran interopDecode(Path dir, Path dataset, List<String> requests) throws Exception {
        Path list = dir.resolve("requests.tsv");
        Files.write(list, requests);
        return run("--dataset", dataset.toString(), "--interop-decode", list.toString());
    }

    /** What the run printed as JSON lines (--interop-decode's answers), one node a line. */
    public List<JsonNode> jsonLines() throws java.io.IOException {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isBlank()) {
                nodes.add(json.readTree(line));
            }
        }
        return nodes;
    }
}
