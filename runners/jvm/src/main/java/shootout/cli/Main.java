package shootout.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import shootout.harness.Baseline;
import shootout.harness.Entry;
import shootout.harness.Environment;
import shootout.harness.Harness;
import shootout.harness.Results;
import shootout.harness.Timer;
import shootout.interop.Interop;
import shootout.registry.Registry;
import shootout.replay.Replay;
import shootout.study.Studies;
import shootout.workload.Dataset;
import shootout.workload.Workload;

/**
 * shootout-jvm: measures the JVM formats on a shootout-dataset/1 file and
 * writes a shootout-results/3 file (docs/results-schema.md): raw figures per
 * run, no statistics (the Rust CLI computes them). Its flags are the Go
 * runner's (cmd/shootout-go), so the Rust side drives both the same way, plus
 * --jit-warmup-ms. Exit status: 0 all measured, 1 error, 2 usage, 3 some
 * formats failed.
 */
public final class Main {
    private Main() {}

    static final String SCHEMA = "shootout-results/3";

    static final class UsageError extends Exception {
        private static final long serialVersionUID = 1L;

        UsageError(String m) {
            super(m);
        }
    }

    /** The parsed options, keys as the long options with '-' as '_'. */
    static final class Options {
        String dataset = "";
        int runs = 5, throughputRounds = 1, warmup = 1, window = 4096;
        long orderSeed = 1, jitWarmupMs = 500;
        String formats = "", out = "", interopEncode = "", interopDecode = "", replay = "";
        boolean list, json;

        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("dataset", dataset);
            m.put("runs", runs);
            m.put("throughput_rounds", throughputRounds);
            m.put("warmup", warmup);
            m.put("window", window);
            m.put("order_seed", orderSeed);
            m.put("jit_warmup_ms", jitWarmupMs);
            m.put("formats", formats);
            m.put("out", out);
            return m;
        }
    }

    /** The Rust CLI's bound on --throughput-rounds. */
    static final int MAX_THROUGHPUT_ROUNDS = 100;

    static final String USAGE = String.join(
            "\n",
            "usage: java -jar shootout-jvm.jar --dataset FILE --out FILE [options]",
            "       java -jar shootout-jvm.jar --list",
            "       java -jar shootout-jvm.jar --dataset FILE --interop-encode DIR [--formats a,b]",
            "       java -jar shootout-jvm.jar --dataset FILE --interop-decode LIST",
            "       java -jar shootout-jvm.jar --dataset FILE --replay PLAN --out FILE [--formats a,b]",
            "       java -jar shootout-jvm.jar --study NAME --out FILE [options]   (a published study; --study NAME --help lists its options)",
            "  --dataset FILE      shootout-dataset/1 file (shootout export-dataset)",
            "  --runs N            exactly N measured runs, each a whole pass over the dataset, at least 1 (default 5)",
            "  --throughput-rounds N  throughput passes over each window in each measured run, 1 to "
                    + MAX_THROUGHPUT_ROUNDS + " (default 1):",
            "                      each round after the first, in a new shuffled order, times the throughput pass again",
            "  --warmup N          warm-up runs before the measured ones, validated all the same (default 1)",
            "  --window N          records per window; each format's stream holds one window at a time (default 4096)",
            "  --order-seed S      seed of the formats' shuffled order in every window (default 1)",
            "  --formats a,b       comma-separated format names (default: all); the baseline always runs",
            "  --out FILE          results file (shootout-results/3 JSON); - for standard output",
            "  --jit-warmup-ms N   before the runs, each format repeats the first window for N ms so the JIT compiles it (default 500)",
            "  --list              list the formats and the workloads each runs, then exit",
            "  --json              with --list: print JSON (what `shootout formats --lang jvm` reads)",
            "  --interop-encode DIR  with --dataset (and --formats): write each format's stream, record ends and manifest into DIR",
            "                      (java-<format>.bin, .ends, .json; protocol shootout-interop/1, docs/interop.md), then exit",
            "  --interop-decode LIST with --dataset: decode each `<format>\\t<stream path>` line of LIST, validate it against the",
            "                      dataset's reference and print one JSON answer per line (ok, mismatch or error), then exit",
            "  --replay PLAN       with --dataset (iex) and --out: replay the dataset's records at the plan's send times",
            "                      (shootout-replay-plan/1, docs/replay.md) for each format (--formats order; default every",
            "                      format that runs iex) over each of the plan's transports; writes shootout-replay-runs/1",
            "Run with a fixed heap, e.g. java -Xms2g -Xmx2g -jar shootout-jvm.jar ...");

    public static void main(String[] args) {
        int code;
        try {
            code = run(args, System.out, System.err);
        } catch (Throwable t) {
            System.err.println("shootout-jvm: " + t);
            code = 1;
        }
        System.exit(code);
    }

    static Options parse(String[] args) throws UsageError {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("-")) {
                throw new UsageError("unexpected argument " + a);
            }
            String name = a.replaceFirst("^--?", ""), value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (name.equals("list")) {
                o.list = value == null || Boolean.parseBoolean(value);
                continue;
            }
            if (name.equals("json")) {
                o.json = value == null || Boolean.parseBoolean(value);
                continue;
            }
            if (name.equals("h") || name.equals("help")) {
                throw new UsageError("");
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new UsageError("flag needs an argument: -" + name);
                }
                value = args[++i];
            }
            try {
                switch (name) {
                    case "dataset" -> o.dataset = value;
                    case "runs" -> o.runs = Integer.parseInt(value);
                    case "throughput-rounds" -> o.throughputRounds = Integer.parseInt(value);
                    case "warmup" -> o.warmup = Integer.parseInt(value);
                    case "window" -> o.window = Integer.parseInt(value);
                    case "order-seed" -> o.orderSeed = Long.parseUnsignedLong(value);
                    case "jit-warmup-ms" -> o.jitWarmupMs = Long.parseLong(value);
                    case "formats" -> o.formats = value;
                    case "out" -> o.out = value;
                    case "interop-encode" -> o.interopEncode = value;
                    case "interop-decode" -> o.interopDecode = value;
                    case "replay" -> o.replay = value;
                    default -> throw new UsageError("flag provided but not defined: -" + name);
                }
            } catch (NumberFormatException e) {
                throw new UsageError("invalid value \"" + value + "\" for flag -" + name);
            }
        }
        return o;
    }

    /**
     * The measuring options' ranges, checked after parsing so that a value out
     * of range is one line on stderr (the Rust CLI shows it as is), not the
     * whole usage text.
     */
    static void checkRanges(Options o) throws UsageError {
        if (o.runs < 1) {
            throw new UsageError("--runs " + o.runs + ": at least 1 measured run");
        }
        if (o.throughputRounds < 1 || o.throughputRounds > MAX_THROUGHPUT_ROUNDS) {
            throw new UsageError(
                    "--throughput-rounds " + o.throughputRounds + ": from 1 to " + MAX_THROUGHPUT_ROUNDS + " rounds");
        }
        if (o.warmup < 0) {
            throw new UsageError("--warmup " + o.warmup + ": must not be negative");
        }
        if (o.window < 1) {
            throw new UsageError("--window " + o.window + ": at least 1 record per window");
        }
        if (o.jitWarmupMs < 0) {
            throw new UsageError("--jit-warmup-ms " + o.jitWarmupMs + ": must not be negative");
        }
    }

    /** The whole command; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (Studies.asked(args)) {
            return Studies.run(args, out, err);
        }
        return run(args, out, err, Registry.FORMATS);
    }

    /** The command over the given registry lines (tests add formats of their own). */
    static int run(String[] args, PrintStream out, PrintStream err, List<Registry.Format> formats) throws Exception {
        Options o;
        try {
            o = parse(args);
        } catch (UsageError e) {
            if (!e.getMessage().isEmpty()) {
                err.println("shootout-jvm: " + e.getMessage());
            }
            err.println(USAGE);
            return 2;
        }
        if (o.list && o.json) {
            return printList(formats, out);
        }
        if (o.list) {
            for (Registry.Format f : formats) {
                out.printf(
                        "%-24s %-19s %-38s %s%n",
                        f.info().name(),
                        f.info().family(),
                        String.join(" ", f.info().labels().tags()),
                        String.join(",", f.workloads()));
            }
            for (Registry.Unavailable u : Registry.UNAVAILABLE) {
                out.printf("%-24s %-19s not run: %s%n", u.name(), u.family(), u.reason());
            }
            return 0;
        }
        if (!o.replay.isEmpty()) {
            return replay(o, out, err, formats);
        }
        if (!o.interopEncode.isEmpty() || !o.interopDecode.isEmpty()) {
            return interop(o, out, err, formats);
        }
        if (o.dataset.isEmpty() || o.out.isEmpty()) {
            err.println("shootout-jvm: --dataset and --out are required");
            err.println(USAGE);
            return 2;
        }
        try {
            checkRanges(o);
            Dataset.Header header = Dataset.readHeader(Path.of(o.dataset));
            return measure(o, args, header, workload(o.dataset, header), out, err, formats);
        } catch (UsageError e) {
            err.println("shootout-jvm: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("shootout-jvm: " + e.getMessage());
            return 1;
        }
    }

    /** The workload a dataset's header names; one this runner does not know is the input's error. */
    static Workload<?, ?> workload(String dataset, Dataset.Header header) throws IOException {
        Workload<?, ?> w = Workload.named(header.workload());
        if (w == null) {
            throw new IOException(dataset + ": workload \"" + header.workload() + "\" is not one of the shootout's");
        }
        return w;
    }

    /** --interop-encode or --interop-decode: 0 when done, 1 on an I/O error with the dataset, the list or DIR, 2 on usage errors. */
    static int interop(Options o, PrintStream out, PrintStream err, List<Registry.Format> formats) {
        if (!o.interopEncode.isEmpty() && !o.interopDecode.isEmpty()) {
            err.println("shootout-jvm: --interop-encode and --interop-decode are separate runs");
            return 2;
        }
        if (o.dataset.isEmpty()) {
            err.println("shootout-jvm: --interop-encode and --interop-decode need --dataset");
            return 2;
        }
        return oneLineErrors(err, () -> {
            Workload<?, ?> w = workload(o.dataset, Dataset.readHeader(Path.of(o.dataset)));
            if (!o.interopEncode.isEmpty()) {
                return Interop.encode(Path.of(o.dataset), w, Path.of(o.interopEncode), o.formats, formats, err);
            }
            return Interop.decode(Path.of(o.dataset), w, Path.of(o.interopDecode), formats, out);
        });
    }

    /** A mode of the command; returns its exit status. */
    interface Mode {
        int run() throws Exception;
    }

    /** Runs a mode whose errors are one line on stderr each: exit 2 for a usage error, 1 for any other. */
    static int oneLineErrors(PrintStream err, Mode mode) {
        try {
            return mode.run();
        } catch (Interop.UsageError | Replay.UsageError e) {
            err.println("shootout-jvm: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("shootout-jvm: " + e.getMessage());
            return 1;
        }
    }

    /** --replay: 0 every run valid, 1 a bad dataset or plan (one line), 2 on usage errors, 3 some runs failed (in the results). */
    static int replay(Options o, PrintStream out, PrintStream err, List<Registry.Format> formats) {
        if (!o.interopEncode.isEmpty() || !o.interopDecode.isEmpty()) {
            err.println("shootout-jvm: --replay and --interop-encode or --interop-decode are separate runs");
            return 2;
        }
        if (o.dataset.isEmpty() || o.out.isEmpty()) {
            err.println("shootout-jvm: --replay needs --dataset and --out");
            return 2;
        }
        return oneLineErrors(
                err, () -> Replay.run(Path.of(o.dataset), Path.of(o.replay), o.formats, o.out, formats, out, err));
    }

    /**
     * The entries names asks for (all when empty), the baseline always. A name of no format of the workload is a usage error;
     * a format of the workload that does not run this dataset (a schema format without its schema) is left out, and the
     * results' not_run says why.
     */
    static <R, S> List<Entry<R, S>> select(
            List<Entry<R, S>> entries, String names, Workload<R, S> w, List<Registry.Format> formats)
            throws UsageError {
        if (names.isEmpty()) {
            return entries;
        }
        List<String> want = Arrays.asList(names.split(","));
        for (String n : want) {
            if (entries.stream().noneMatch(e -> e.info().name().equals(n))
                    && formats.stream().noneMatch(f -> f.info().name().equals(n) && f.runs(w.name))) {
                throw new UsageError("--formats: unknown format \"" + n + "\" on this workload");
            }
        }
        List<Entry<R, S>> out = new ArrayList<>();
        for (Entry<R, S> e : entries) {
            if (e.info().name().equals(Baseline.NAME) || want.contains(e.info().name())) {
                out.add(e);
            }
        }
        return out;
    }

    static <R, S> int measure(
            Options o,
            String[] args,
            Dataset.Header header,
            Workload<R, S> w,
            PrintStream out,
            PrintStream err,
            List<Registry.Format> formats)
            throws Exception {
        List<Entry<R, S>> entries = select(Registry.entries(w, header.recordSchemas(), formats), o.formats, w, formats);
        Function<S, String> check = w.checker.apply(header.reference());
        Map<String, Object> dataset = describe(Path.of(o.dataset));
        Instant started = Instant.now();
        List<Double> loadBefore = Environment.loadAverage();
        Timer timer = Timer.calibrate();
        Harness.Settings settings =
                new Harness.Settings(o.warmup, o.runs, o.throughputRounds, o.window, o.orderSeed, o.jitWarmupMs);
        Path path = Path.of(o.dataset);
        Harness.Source<R> src = () -> {
            Dataset<R> d = Dataset.open(path, w);
            return new Harness.Windows<R>() {
                @Override
                public List<R> next(int n) throws Exception {
                    return d.next(n);
                }

                @Override
                public void close() throws java.io.IOException {
                    d.close();
                }
            };
        };
        Harness.Measured m = Harness.measure(src, w, check, entries, settings, timer, Dataset::position, err::println);
        Results.Built built = Results.build(m, Registry::version);
        List<String> warnings = new ArrayList<>();
        if (o.warmup == 0) {
            warnings.add(
                    "--warmup 0: the first measured run includes first-use costs (each format did its JIT warm-up on the first window only)");
        }
        if (o.jitWarmupMs == 0) {
            warnings.add(
                    "--jit-warmup-ms 0: each format ran the first window once before measuring; the JIT may still be compiling");
        }
        if (!Environment.heapFixed()) {
            warnings.add("the heap is not fixed (-Xms equal to -Xmx): heap resizing may add to GC pauses");
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("schema", SCHEMA);
        r.put("runner", Map.of("language", "java", "name", "shootout-jvm"));
        Map<String, Object> inv = new LinkedHashMap<>();
        inv.put("command_line", args);
        inv.put("options", o.toJson());
        inv.put("load_before", loadBefore);
        inv.put("load_after", Environment.loadAverage());
        r.put("invocation", inv);
        r.put("environment", Environment.read(started));
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("clock", "System.nanoTime (CLOCK_MONOTONIC, vDSO clock_gettime)");
        t.put("counter_hz", 1e9);
        t.put("empty_region_ns", timer.emptyNs());
        t.put("resolution_ns", timer.resolutionNs());
        t.put("flag_below_ns", 5 * timer.resolutionNs());
        r.put("timer", t);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("warmup_runs", o.warmup);
        s.put("runs", o.runs);
        s.put("throughput_rounds", o.throughputRounds);
        s.put("window", o.window);
        s.put("order_seed", o.orderSeed);
        s.put("jit_warmup_ms", o.jitWarmupMs);
        r.put("settings", s);
        Map<String, Object> wl = new LinkedHashMap<>();
        wl.put("name", header.workload());
        wl.put("source", header.source());
        wl.put("input", header.input());
        wl.put("records", m.operations());
        wl.put("csv", null);
        wl.put("dataset", dataset);
        r.put("workload", wl);
        List<Map<String, Object>> runs = new ArrayList<>();
        for (Harness.RunInfo ri : m.runs()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("index", ri.index());
            x.put("warmup", ri.warmup());
            x.put("started", ri.started());
            x.put("wall_ms", ri.wallMs());
            x.put("gc_count", ri.gcCount());
            x.put("gc_pause_ms", ri.gcPauseMs());
            runs.add(x);
        }
        r.put("runs", runs);
        r.put("formats", built.formats());
        r.put("failed", built.failed());
        r.put("not_run", Registry.notRun(w, header.recordSchemas(), formats));
        r.put("warnings", warnings);
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        byte[] json = mapper.writeValueAsBytes(r);
        boolean stdout = o.out.equals("-");
        if (stdout) {
            out.write(json);
            out.println();
        } else {
            Files.write(Path.of(o.out), json);
        }
        for (Map<String, Object> f : built.failed()) {
            err.println("FAILED " + f.get("name") + ": " + f.get("reason"));
        }
        err.println("results in " + (stdout ? "standard output" : o.out) + "; `shootout report "
                + (stdout ? "FILE" : o.out) + "` shows the tables");
        return built.failed().isEmpty() ? 0 : 3;
    }

    static Map<String, Object> describe(Path path) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        long n = 0;
        try (InputStream in = Files.newInputStream(path)) {
            byte[] buf = new byte[1 << 16];
            for (int k; (k = in.read(buf)) > 0; ) {
                sha.update(buf, 0, k);
                n += k;
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("path", path.toString());
        m.put("bytes", n);
        m.put("sha256", HexFormat.of().formatHex(sha.digest()));
        return m;
    }

    /** `--list --json`: the keys of a results file's format entry, its wire and framing, the workloads each runs, or why none. */
    private static int printList(List<Registry.Format> formats, PrintStream out) throws IOException {
        List<Map<String, Object>> entries = new ArrayList<>();
        for (Registry.Format f : formats) {
            Map<String, Object> x = Results.identity(f.info(), Registry::version);
            x.put("wire", f.info().wire());
            x.put("framing", f.info().framing().spelling);
            x.put("labels", Results.labels(f.info().labels()));
            x.put("tags", f.info().labels().tags());
            x.put("notes", f.info().notes());
            x.put("workloads", f.workloads());
            entries.add(x);
        }
        for (Registry.Unavailable u : Registry.UNAVAILABLE) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("name", u.name());
            x.put("family", u.family());
            x.put("tags", List.of());
            x.put("workloads", List.of());
            x.put("not_run", u.reason());
            entries.add(x);
        }
        out.println(
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(entries));
        return 0;
    }
}
