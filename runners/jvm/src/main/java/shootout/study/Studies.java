package shootout.study;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import shootout.harness.Environment;
import shootout.jmh.StudyFigures;
import shootout.registry.Registry;
import shootout.study.figures.Figures;
import shootout.study.figures.UsageError;
import shootout.study.logs.ScalaLogs;

/**
 * `--study NAME`: measures a published study as its document did and
 * answers `shootout study` with one shootout-study-figures/1 object
 * (spec/studies/README.md). Exit status: 0 measured, 1 error, 2 usage.
 */
public final class Studies {
    private Studies() {}

    static final String USAGE = String.join(
            "\n",
            "usage: java -jar shootout-jvm.jar --study NAME --out FILE [--quick] [--records N] [--runs N] [--warmup N] [--dir DIR]",
            "  --study NAME   the study to measure: " + ScalaLogs.NAME + " (" + StudyFigures.NAME + ": --study "
                    + StudyFigures.NAME + " --help)",
            "  --out FILE     the figures (shootout-study-figures/1 JSON); - for standard output",
            "  --quick        a first look: " + Options.QUICK_RECORDS + " records per set, 1 warm-up and 1 timed pass",
            "  --records N    records per data set (default " + ScalaLogs.RECORDS + ", the study's)",
            "  --runs N       timed passes per file, their mean reported (default " + Options.RUNS + ")",
            "  --warmup N     untimed passes before them (default " + Options.WARMUPS + ")",
            "  --dir DIR      keep the generated and written files in DIR (default: a temporary directory, removed after)",
            "Run with a heap of 2 GB or more: Java serialization's streams hold every record of a file until it closes.");

    /** Whether the command line asks for a study. */
    public static boolean asked(String[] args) {
        for (String a : args) {
            if (a.equals("--study") || a.startsWith("--study=")) {
                return true;
            }
        }
        return false;
    }

    static boolean asks(String[] args, String study) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--study=" + study)
                    || args[i].equals("--study") && i + 1 < args.length && args[i + 1].equals(study)) {
                return true;
            }
        }
        return false;
    }

    static final class Options {
        static final int QUICK_RECORDS = 10_000, RUNS = 3, WARMUPS = 1;
        String study = "", out = "", dir = "";
        boolean quick;
        Integer records, runs, warmups;

        static Options parse(String[] args) throws UsageError {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String name = args[i], value = null;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                }
                if (name.equals("--help") || name.equals("-h")) {
                    throw new UsageError("");
                }
                if (name.equals("--quick")) {
                    o.quick = true;
                    continue;
                }
                if (value == null) {
                    if (i + 1 >= args.length) {
                        throw new UsageError(name + " needs a value");
                    }
                    value = args[++i];
                }
                switch (name) {
                    case "--study" -> o.study = value;
                    case "--out" -> o.out = value;
                    case "--dir" -> o.dir = value;
                    case "--records" -> o.records = count(name, value, 1);
                    case "--runs" -> o.runs = count(name, value, 1);
                    case "--warmup" -> o.warmups = count(name, value, 0);
                    default -> throw new UsageError("with --study: unknown option " + name);
                }
            }
            if (o.out.isEmpty()) {
                throw new UsageError("--study needs --out FILE (or - for standard output)");
            }
            return o;
        }

        private static int count(String name, String value, int least) throws UsageError {
            try {
                int n = Integer.parseInt(value);
                if (n >= least) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new UsageError(name + " " + value + ": a whole number, at least " + least);
        }

        ScalaLogs.Settings scalaLogs() {
            return new ScalaLogs.Settings(
                    records != null ? records : quick ? QUICK_RECORDS : ScalaLogs.RECORDS,
                    warmups != null ? warmups : WARMUPS,
                    runs != null ? runs : quick ? 1 : RUNS,
                    dir.isEmpty() ? null : Path.of(dir));
        }
    }

    /** The whole `--study` command; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (asks(args, StudyFigures.NAME)) {
            return StudyFigures.run(args, out, err); // JMH, with options of its own
        }
        Options o;
        try {
            o = Options.parse(args);
            if (!o.study.equals(ScalaLogs.NAME)) {
                throw new UsageError("--study: unknown study \"" + o.study + "\" (known: " + ScalaLogs.NAME + ")");
            }
        } catch (UsageError e) {
            return e.refuse(USAGE, err);
        }
        try {
            Instant started = Instant.now();
            Figures.Measurement m = ScalaLogs.measure(o.scalaLogs(), err);
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("schema", Figures.SCHEMA);
            figures.put("study", o.study);
            figures.put("language", "java");
            Map<String, Object> environment = Environment.read(started);
            Map<String, Object> libraries = new LinkedHashMap<>();
            for (String library : List.of(
                    "org.apache.avro:avro",
                    "com.google.protobuf:protobuf-java",
                    "org.apache.thrift:libthrift",
                    "org.msgpack:msgpack-core",
                    "com.fasterxml.jackson.core:jackson-databind")) {
                libraries.put(library, Registry.version(library));
            }
            environment.put("libraries", libraries);
            figures.put("environment", environment);
            figures.put("variants", m.variants());
            figures.put("facts", m.facts());
            figures.put("departures", m.departures());
            Figures.write(figures, o.out, out, err);
            return 0;
        } catch (Exception e) {
            err.println("shootout-jvm: --study " + o.study + ": " + e.getMessage());
            return 1;
        }
    }
}
