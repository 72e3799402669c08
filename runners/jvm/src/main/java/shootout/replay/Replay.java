package shootout.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import shootout.codec.Codec;
import shootout.harness.RunFigures;
import shootout.registry.Registry;
import shootout.workload.Dataset;
import shootout.workload.IexSink;
import shootout.workload.MultiMessage;
import shootout.workload.Workload;

/**
 * The JVM runner's side of `shootout replay` (docs/replay.md): reads a
 * shootout-dataset/1 file of iex records and a shootout-replay-plan/1 plan,
 * replays, for each format (in --formats order) and each of the plan's
 * transports, a warm-up and then every run of the plan, and writes
 * shootout-replay-runs/1. It computes no statistic: each run holds its raw
 * counts and histograms, from which the Rust command computes them.
 *
 * <p>Codecs: every run, the warm-up included, gets a fresh pair (the
 * producer's encoder and the consumer's decoder, one per thread), as in Rust
 * and Go; what the warm-up leaves is compiled code, not grown buffers. Each
 * run decodes into a sink of its own, validated when it ends.
 */
public final class Replay {
    private Replay() {}

    public static final String SCHEMA = "shootout-replay-runs/1";
    public static final String LANGUAGE = "java";
    public static final String CLOCK =
            "System.nanoTime (CLOCK_MONOTONIC through the vDSO on Linux), the same clock in both threads";
    /** The most warm-up passes before a format's runs on a transport, however long the JIT keeps compiling. */
    static final int MAX_WARMUP_PASSES = 20;
    /** After each warm-up pass: time for the compilations it queued to finish in the background. */
    static final long COMPILATION_PAUSE_MS = 100;

    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

    /** The JIT's total compilation time so far, in ms; 0 where the JVM does not measure it (then one warm-up pass). */
    private static long compilationMs() {
        return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() : 0;
    }

    /** The libraries of the replay itself, reported beside the formats'. */
    static final List<String> LIBRARIES =
            List.of("jdk", "org.agrona:agrona", "org.hdrhistogram:HdrHistogram", "net.openhft:affinity");

    /** A usage error (exit status 2). */
    public static final class UsageError extends Exception {
        private static final long serialVersionUID = 1L;

        UsageError(String message) {
            super(message);
        }
    }

    /**
     * The whole replay; returns the exit status: 0 every run valid, 3 some run failed (each with its error in the results). Throws
     * a UsageError for a bad --formats, an IOException or Plan.Refused for a bad input (one line each: the caller prints it).
     */
    public static int run(
            Path dataset,
            Path planPath,
            String formats,
            String out,
            List<Registry.Format> registry,
            PrintStream stdout,
            PrintStream err)
            throws UsageError, Plan.Refused, IOException, InterruptedException {
        Dataset.Header header;
        try {
            header = Dataset.readHeader(dataset);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException(dataset + ": no such file", e);
        }
        if (!header.workload().equals(Workload.IEX.name)) {
            throw new IOException(dataset + ": workload \"" + header.workload() + "\", expected \"" + Workload.IEX.name
                    + "\" (replay plays IEX captures)");
        }
        if (header.records() > Integer.MAX_VALUE - 8) {
            throw new IOException(dataset + ": " + header.records() + " records, more than one replay holds");
        }
        List<Registry.Format> chosen = choose(registry, formats);
        Plan plan = Plan.read(planPath, (int) header.records());
        List<MultiMessage> records = load(dataset);

        List<Map<String, Object>> runs = new ArrayList<>();
        SortedSet<Integer> granted = new TreeSet<>();
        int failed = 0;
        boolean gcMissing = false;
        try (GcWatch gc = new GcWatch();
                Link.Ring ring = plan.transports().contains("ring") ? new Link.Ring() : null) {
            for (Registry.Format f : chosen) {
                for (String transport : plan.transports()) {
                    Pair pair = Pair.of(f);
                    String cannot = pair.error;
                    int warmups = 0;
                    if (cannot == null && plan.warmupRecords() > 0) {
                        Plan.Span largest = plan.largest();
                        Plan.Span w = new Plan.Span(
                                largest.first(), largest.first() + Math.min(plan.warmupRecords(), largest.records()));
                        // Until a pass, and a pause for the compilations it queued, compiles nothing: code the JIT
                        // compiles during a timed run takes a core from one of the two busy threads for milliseconds.
                        long compiled;
                        OneRun.Outcome o;
                        do {
                            compiled = compilationMs();
                            o = once(
                                    new OneRun.Input(records, plan.sendTimeNs(), w, 0, plan.busiestSecond()),
                                    pair,
                                    transport,
                                    ring,
                                    granted,
                                    gc);
                            warmups++;
                            pair = Pair.of(f);
                            Thread.sleep(COMPILATION_PAUSE_MS);
                        } while (o.error() == null && warmups < MAX_WARMUP_PASSES && compilationMs() != compiled);
                        if (o.error() != null) {
                            cannot = "warm-up (records [" + w.first() + ", " + w.end() + ") at max) failed: "
                                    + o.error();
                        }
                    }
                    int bad = 0;
                    for (Plan.Run r : plan.runs()) {
                        OneRun.Outcome o = null;
                        if (cannot == null) {
                            pair = Pair.of(f);
                            o = once(
                                    new OneRun.Input(
                                            records, plan.sendTimeNs(), r.span(), r.speed(), plan.busiestSecond()),
                                    pair,
                                    transport,
                                    ring,
                                    granted,
                                    gc);
                            gcMissing |= o.gc() == null && gc.available;
                        }
                        String error = o == null ? cannot : o.error();
                        runs.add(entry(f.info().name(), transport, r, o, error));
                        if (error != null) {
                            bad++;
                            err.println("FAILED " + f.info().name() + " over " + transport + " at " + r.speedJson()
                                    + ": " + error);
                        }
                    }
                    failed += bad;
                    err.println("replayed " + f.info().name() + " over " + transport + ": "
                            + plan.runs().size() + " runs" + (bad > 0 ? ", " + bad + " failed" : "") + " after "
                            + warmups + " warm-up passes");
                }
            }
        }
        if (gcMissing) {
            err.println("shootout-jvm: some runs' GC notifications did not all come within a second: their gc is null");
        }

        Map<String, Object> r = new LinkedHashMap<>();
        r.put("schema", SCHEMA);
        r.put("language", LANGUAGE);
        r.put("versions", versions(chosen));
        r.put("clock", CLOCK);
        r.put("pinning", Pinning.describe());
        Map<String, Object> transports = new LinkedHashMap<>();
        for (String t : plan.transports()) {
            transports.put(t, t.equals("ring") ? Link.Ring.describe() : Link.Udp.describe(granted));
        }
        r.put("transports", transports);
        r.put("runs", runs);
        byte[] json =
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(r);
        if (out.equals("-")) {
            stdout.write(json);
            stdout.println();
            stdout.flush();
        } else {
            Files.write(Path.of(out), json);
        }
        err.println("replay results in " + (out.equals("-") ? "standard output" : out)
                + (failed > 0 ? "; " + failed + " runs failed" : ""));
        return failed == 0 ? 0 : 3;
    }

    /** The producer's encoder and the consumer's decoder of one format, or why they could not be made. */
    private record Pair(Codec<MultiMessage, IexSink> encoder, Codec<MultiMessage, IexSink> decoder, String error) {
        static Pair of(Registry.Format f) {
            if (!f.runs(Workload.IEX.name)) {
                return new Pair(null, null, f.info().name() + " does not run the iex workload: " + f.reason("iex"));
            }
            try {
                return new Pair(f.codec(Workload.IEX), f.codec(Workload.IEX), null);
            } catch (Throwable e) {
                return new Pair(null, null, "the codec could not be set up: " + e);
            }
        }
    }

    /** One run over a transport: the ring (drained of what a failed run left) or a fresh pair of UDP channels. */
    private static OneRun.Outcome once(
            OneRun.Input in, Pair pair, String transport, Link.Ring ring, SortedSet<Integer> granted, GcWatch gc)
            throws IOException, InterruptedException {
        if (transport.equals("ring")) {
            ring.drain();
            return OneRun.run(in, pair.encoder, pair.decoder, ring, gc);
        }
        try (Link.Udp udp = new Link.Udp()) {
            granted.add(udp.grantedRcvbuf);
            return OneRun.run(in, pair.encoder, pair.decoder, udp, gc);
        }
    }

    /** One entry of the results' runs; o is null for a run that was not made (error says why). */
    private static Map<String, Object> entry(
            String format, String transport, Plan.Run r, OneRun.Outcome o, String error) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", format);
        m.put("transport", transport);
        m.put("speed", r.speedJson());
        m.put("first", r.span().first());
        m.put("end", r.span().end());
        m.put("sent", o == null ? 0 : o.sent());
        m.put("received", o == null ? 0 : o.received());
        m.put("duration_ns", o == null ? 0 : o.durationNs());
        m.put("max_backlog", o == null ? 0 : o.maxBacklog());
        // A run not made has no samples: its histogram is empty, not left out.
        m.put("latency", RunFigures.base64(o == null ? OneRun.histogram() : o.latency()));
        m.put("busiest", o == null || o.busiest() == null ? null : RunFigures.base64(o.busiest()));
        m.put("sizes", o == null ? List.of() : OneRun.sizes(o.sizes()));
        m.put("allocations", o == null ? List.of() : o.allocations());
        m.put("gc", o == null || o.gc() == null ? null : o.gc().toJson());
        m.put("error", error);
        return m;
    }

    /** The formats named, in --formats order (every one that runs iex, in registry order, when none are). */
    static List<Registry.Format> choose(List<Registry.Format> registry, String names) throws UsageError {
        if (names.isEmpty()) {
            return registry.stream().filter(f -> f.runs(Workload.IEX.name)).toList();
        }
        List<Registry.Format> out = new ArrayList<>();
        for (String n : names.split(",")) {
            Registry.Format f = registry.stream()
                    .filter(x -> x.info().name().equals(n))
                    .findFirst()
                    .orElseThrow(() -> new UsageError("--formats: no format " + n + " in the jvm runner"));
            if (out.contains(f)) {
                throw new UsageError("--formats: " + n + " is named twice");
            }
            out.add(f);
        }
        return out;
    }

    /** Every record of the dataset, in order; they must add up to the header's reference, so a reader bug cannot pass for a format's. */
    static List<MultiMessage> load(Path dataset) throws IOException {
        try (Dataset<MultiMessage> d = Dataset.open(dataset, Workload.IEX)) {
            List<MultiMessage> all = new ArrayList<>((int) d.header.records());
            IexSink sink = new IexSink();
            for (List<MultiMessage> window; !(window = d.next(4096)).isEmpty(); ) {
                for (MultiMessage m : window) {
                    m.feed(sink);
                }
                all.addAll(window);
            }
            String diff = Workload.IEX.checker.apply(d.header.reference()).apply(sink);
            if (diff != null) {
                throw new IOException(
                        dataset + ": the records as read do not add up to the header's reference aggregate: " + diff);
            }
            return all;
        }
    }

    /** The versions of the replay's libraries and of each format's, as the runner reports them (Registry.version). */
    static Map<String, String> versions(List<Registry.Format> formats) {
        Map<String, String> v = new LinkedHashMap<>();
        List<String> libraries = new ArrayList<>(LIBRARIES);
        formats.forEach(f -> libraries.add(f.info().library()));
        for (String lib : libraries) {
            v.putIfAbsent(lib, Registry.version(lib));
        }
        return v;
    }
}
