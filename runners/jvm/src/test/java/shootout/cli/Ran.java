package shootout.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        int code = command.run(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Ran(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * A measuring run on workload's fixture with args, its results file in dir; the exit status must be code and
     * stderr must say where the results went. Returns the results file.
     */
    static String results(Path dir, List<Registry.Format> formats, int code, String workload, String... args) throws Exception {
        Path file = dir.resolve(workload + "-results.json");
        List<String> all = new ArrayList<>(List.of("--dataset", Spec.fixture(workload).toString(), "--out", file.toString()));
        all.addAll(List.of(args));
        Ran r = run(formats, all.toArray(String[]::new));
        assertEquals(code, r.code(), r.err());
        assertTrue(r.err().contains("shootout report " + file), r.err());
        return Files.readString(file);
    }
}
