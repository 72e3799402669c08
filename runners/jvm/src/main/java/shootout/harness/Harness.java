package shootout.harness;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.HdrHistogram.Histogram;
import shootout.codec.Codec;
import shootout.codec.Info;
import shootout.codec.Stream;
import shootout.workload.Workload;

/**
 * Measures codecs the way crates/shootout/src/benchmark and the Go runner's
 * harness do: each run is one pass over the dataset, window by window; in each
 * window every format, in a shuffled order, encodes the window into one reused
 * stream and decodes it back three times: a throughput pass timed as a whole, a
 * latency pass timed per record, an allocation pass. In a measured run with
 * settings.throughputRounds above 1, each further round over the window, in a
 * new shuffled order, makes the throughput pass again, decoding into its own
 * sink; the run's throughput figures add up every round. Every pass's aggregate
 * is checked against the dataset's reference at the end of every run.
 *
 * <p>Before the first run every format repeats the first window (all three
 * passes, unmeasured) for a fixed time, so the JIT has compiled its code
 * before anything is measured; the time and the window count are reported.
 *
 * <p>The run count: exactly settings.warmupRuns warm-up runs, then exactly
 * settings.runs measured runs. How many processes to run, and so how many runs
 * in all, is the Rust CLI's choice, not this harness's. Each run keeps its raw
 * figures only (RunFigures); the Rust CLI computes every statistic from them.
 */
public final class Harness {
    private Harness() {}

    /**
     * runs is the exact number of measured runs, after warmupRuns unmeasured ones; throughputRounds the throughput passes over each
     * window in a measured run (a warm-up run makes one).
     */
    public record Settings(
            int warmupRuns, int runs, int throughputRounds, int window, long orderSeed, long jitWarmupMs) {}

    /** Opens the input afresh for every pass. */
    public interface Source<R> {
        Windows<R> open() throws Exception;
    }

    /** The input's records window by window; an empty window is the end. */
    public interface Windows<R> extends AutoCloseable {
        List<R> next(int n) throws Exception;

        /** Closes the input; an input's close reads nothing more, so it is never interrupted. */
        @Override
        void close() throws java.io.IOException;
    }

    public record Failure(String reason, int run, Long operation, String position) {}

    public record RunInfo(int index, boolean warmup, String started, double wallMs, long gcCount, long gcPauseMs) {}

    /** One measured run of one format. */
    public record Measurement(RunFigures encode, RunFigures decode, double orderPosition) {}

    public static final class FormatRuns {
        public final Info info;
        public final List<Measurement> runs = new ArrayList<>();
        public long encodedBytes;
        public Failure failure;
        public double jitWarmupMs;
        public long jitWarmupWindows;

        FormatRuns(Info info) {
            this.info = info;
        }
    }

    public record Measured(List<FormatRuns> formats, List<RunInfo> runs, long operations) {}

    static final String[] PASSES = {"throughput", "latency", "allocation"};

    /** A failure of one window: op is the window's record to blame, or -1. */
    static final class WindowError extends Exception {
        private static final long serialVersionUID = 1L;

        final int op;

        WindowError(int op, String message, Throwable cause) {
            super(message, cause);
            this.op = op;
        }
    }

    /** One direction's accumulators over one run: ops over every throughput round, allocOps over the allocation pass. */
    static final class Direction {
        long loopNs, ops, allocBytes, allocOps, gcCount, gcMs;
        /** loopNs round by round: in each round every format ran once, so the statistics can take the machine's speed out of each. */
        final long[] roundNs;

        final Histogram latency = new Histogram(1, 10_000_000_000L, 3);

        Direction(int rounds) {
            roundNs = new long[rounds];
        }

        /** Adds one timed loop of round `round` (from 1). */
        void timed(int round, long ns) {
            loopNs += ns;
            roundNs[round - 1] += ns;
        }

        void record(long ns) {
            latency.recordValue(Math.min(Math.max(ns, 0), latency.getHighestTrackableValue()));
        }
    }

    static final class RunState<S> {
        final List<S> sinks = new ArrayList<>(3);
        /** The sinks of throughput rounds 2, 3, ... */
        final List<S> roundSinks = new ArrayList<>();

        final Direction encode, decode;
        long encodedBytes, positionSum, windows;

        RunState(int rounds) {
            encode = new Direction(rounds);
            decode = new Direction(rounds);
        }
    }

    /** Per-thread allocated bytes (HotSpot's com.sun.management extension). */
    public static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    static final List<GarbageCollectorMXBean> GCS = ManagementFactory.getGarbageCollectorMXBeans();

    static long[] gc() {
        long count = 0, ms = 0;
        for (GarbageCollectorMXBean b : GCS) {
            count += Math.max(b.getCollectionCount(), 0);
            ms += Math.max(b.getCollectionTime(), 0);
        }
        return new long[] {count, ms};
    }

    /** Keeps results observable, so no loop's work is dead code (JMH's Blackhole in spirit). */
    static volatile long sinkhole;

    static final class Bench<R, S> {
        final Codec<R, S> c;
        final Timer timer;

        Bench(Codec<R, S> c, Timer timer) {
            this.c = c;
            this.timer = timer;
        }

        void decodeStream(Stream s, S sink, int n, Direction latency) throws WindowError {
            byte[] buf = s.buf;
            int end = s.len, off = 0, decoded = 0;
            while (off < end) {
                int used;
                try {
                    if (latency == null) {
                        used = c.decode(buf, off, end, sink);
                    } else {
                        long start = System.nanoTime();
                        used = c.decode(buf, off, end, sink);
                        latency.record(timer.sample(start));
                    }
                } catch (Exception e) {
                    throw new WindowError(decoded, "decoding the window's stream at byte " + off + " failed: " + e, e);
                }
                if (used <= 0 || used > end - off) {
                    throw new WindowError(
                            decoded,
                            "decode reported " + used + " bytes used at stream byte " + off + " of " + end,
                            null);
                }
                off += used;
                decoded++;
            }
            if (decoded != n) {
                throw new WindowError(-1, "decoded " + decoded + " records from a window of " + n, null);
            }
        }

        private void encodeAll(List<R> records, Stream s, Direction latency) throws WindowError {
            s.reset();
            int n = records.size();
            for (int i = 0; i < n; i++) {
                try {
                    if (latency == null) {
                        c.encode(s, records.get(i));
                    } else {
                        long start = System.nanoTime();
                        c.encode(s, records.get(i));
                        latency.record(timer.sample(start));
                    }
                } catch (Exception e) {
                    throw new WindowError(i, "encoding failed: " + e, e);
                }
            }
        }

        /** A throughput pass into sink: each loop timed as a whole, no clock inside; the collections that end during them are counted. */
        private void throughput(List<R> records, Stream s, S sink, RunState<S> st, int round) throws WindowError {
            int n = records.size();
            long[] gc0 = gc();
            long start = System.nanoTime();
            encodeAll(records, s, null);
            long mid = System.nanoTime();
            long[] gc1 = gc();
            long decStart = System.nanoTime();
            decodeStream(s, sink, n, null);
            long end = System.nanoTime();
            long[] gc2 = gc();
            st.encode.timed(round, mid - start);
            st.decode.timed(round, end - decStart);
            st.encode.gcCount += gc1[0] - gc0[0];
            st.encode.gcMs += gc1[1] - gc0[1];
            st.decode.gcCount += gc2[0] - gc1[0];
            st.decode.gcMs += gc2[1] - gc1[1];
            sinkhole = s.len;
            st.encode.ops += n;
            st.decode.ops += n;
        }

        /** The three passes over one window. Anything the codec throws, Errors included, fails the format only. */
        void window(List<R> records, Stream s, RunState<S> st) throws WindowError {
            try {
                int n = records.size();
                // Untimed: a codec that encodes a model of its library's own makes it from the records here (the jsonl
                // codecs).
                c.prepare(records);
                // Throughput, round 1: the encoded sizes come from this pass only.
                throughput(records, s, st.sinks.get(0), st, 1);
                st.encodedBytes += s.len;

                // Latency: one sample per record.
                encodeAll(records, s, st.encode);
                decodeStream(s, st.sinks.get(1), n, st.decode);

                // Allocations: this thread's allocated bytes around the whole loops, in their own pass.
                long a0 = THREADS.getCurrentThreadAllocatedBytes();
                encodeAll(records, s, null);
                long a1 = THREADS.getCurrentThreadAllocatedBytes();
                decodeStream(s, st.sinks.get(2), n, null);
                long a2 = THREADS.getCurrentThreadAllocatedBytes();
                st.encode.allocBytes += a1 - a0;
                st.decode.allocBytes += a2 - a1;
                st.encode.allocOps += n;
                st.decode.allocOps += n;
            } catch (WindowError e) {
                throw e;
            } catch (Throwable t) {
                throw new WindowError(-1, "codec threw " + t, t);
            }
        }

        /** Throughput round `round` (from 2) over the window, decoding into that round's own sink; fails like window. */
        void throughputRound(List<R> records, Stream s, RunState<S> st, int round) throws WindowError {
            try {
                c.prepare(records);
                throughput(records, s, st.roundSinks.get(round - 2), st, round);
            } catch (WindowError e) {
                throw e;
            } catch (Throwable t) {
                throw new WindowError(-1, "codec threw " + t, t);
            }
        }
    }

    /**
     * Runs every runnable entry. A format that fails is withheld from then on,
     * with its failure; the others go on. Exceptions are the input's or the
     * harness's, never a format's.
     */
    public static <R, S> Measured measure(
            Source<R> src,
            Workload<R, S> spec,
            Function<S, String> check,
            List<Entry<R, S>> entries,
            Settings settings,
            Timer timer,
            LongFunction<String> position,
            java.util.function.Consumer<String> progress)
            throws Exception {
        if (settings.runs() < 1
                || settings.throughputRounds() < 1
                || settings.window() < 1
                || settings.warmupRuns() < 0) {
            throw new IllegalArgumentException(
                    "--runs, --throughput-rounds and --window must be at least 1, --warmup at least 0");
        }
        long ops = scan(src, spec, check, settings.window());
        List<Bench<R, S>> benches = new ArrayList<>();
        List<FormatRuns> results = new ArrayList<>();
        for (Entry<R, S> e : entries) {
            FormatRuns fr = new FormatRuns(e.info());
            results.add(fr);
            try {
                benches.add(new Bench<>(e.factory().make(), timer));
            } catch (Throwable t) {
                benches.add(null);
                fr.failure = new Failure("the codec could not be set up: " + t, 0, null, null);
            }
        }
        Stream stream = new Stream(1 << 20);
        jitWarmup(src, spec, benches, results, stream, settings, position);
        SplittableRandom rng = new SplittableRandom(settings.orderSeed());
        List<RunInfo> runs = new ArrayList<>();
        int[] order = new int[benches.size()];
        int allRuns = settings.warmupRuns() + settings.runs();
        for (int run = 0; run < allRuns; run++) {
            boolean warmup = run < settings.warmupRuns();
            // A warm-up run brings the caches and the heap to their steady state; more rounds would add nothing.
            int rounds = warmup ? 1 : settings.throughputRounds();
            Instant started = Instant.now();
            long t0 = System.nanoTime();
            long[] gc0 = gc();
            List<RunState<S>> states = new ArrayList<>();
            for (int i = 0; i < benches.size(); i++) {
                states.add(newRunState(spec, rounds));
            }
            long done = 0;
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            try (Windows<R> in = src.open()) {
                for (; ; ) {
                    List<R> records = in.next(settings.window());
                    if (records.isEmpty()) {
                        break;
                    }
                    shuffle(order, rng);
                    long pos = 0;
                    for (int f : order) {
                        if (results.get(f).failure != null) {
                            continue;
                        }
                        RunState<S> st = states.get(f);
                        st.positionSum += pos;
                        st.windows++;
                        pos++;
                        try {
                            benches.get(f).window(records, stream, st);
                        } catch (WindowError e) {
                            results.get(f).failure = failure(e, run, done, position);
                        }
                    }
                    for (int round = 2; round <= rounds; round++) {
                        shuffle(order, rng);
                        for (int f : order) {
                            if (results.get(f).failure != null) {
                                continue;
                            }
                            try {
                                benches.get(f).throughputRound(records, stream, states.get(f), round);
                            } catch (WindowError e) {
                                results.get(f).failure = failure(e, run, done, position);
                            }
                        }
                    }
                    done += records.size();
                }
            }
            if (done != ops) {
                throw new IllegalStateException("the input changed during the benchmark (run " + run + " read " + done
                        + " records, not " + ops + ")");
            }
            for (int f = 0; f < results.size(); f++) {
                FormatRuns r = results.get(f);
                if (r.failure != null) {
                    continue;
                }
                RunState<S> st = states.get(f);
                r.failure = validate(st, check, run);
                if (r.failure != null) {
                    continue;
                }
                if (run == 0) {
                    r.encodedBytes = st.encodedBytes;
                }
                if (!warmup) {
                    r.runs.add(new Measurement(
                            RunFigures.finish(st.encode),
                            RunFigures.finish(st.decode),
                            (double) st.positionSum / Math.max(st.windows, 1)));
                }
            }
            long wallNs = System.nanoTime() - t0;
            long[] gc1 = gc();
            if (progress != null) {
                progress.accept("run " + (run + 1) + " done ("
                        + (warmup ? "warm-up" : "measured run " + (run - settings.warmupRuns() + 1)) + ")");
            }
            runs.add(new RunInfo(
                    run,
                    warmup,
                    started.truncatedTo(ChronoUnit.SECONDS).toString(),
                    wallNs / 1e6,
                    gc1[0] - gc0[0],
                    gc1[1] - gc0[1]));
            System.gc();
        }
        return new Measured(results, runs, ops);
    }

    static <R, S> RunState<S> newRunState(Workload<R, S> spec, int rounds) {
        RunState<S> st = new RunState<>(rounds);
        for (int i = 0; i < 3; i++) {
            st.sinks.add(spec.newSink.get());
        }
        for (int round = 2; round <= rounds; round++) {
            st.roundSinks.add(spec.newSink.get());
        }
        return st;
    }

    /** A new order of the formats (Fisher-Yates). */
    static void shuffle(int[] order, SplittableRandom rng) {
        for (int i = order.length - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }

    /** Checks each pass's aggregate, every throughput round's included, against the reference: the first that differs, or null. */
    static <S> Failure validate(RunState<S> st, Function<S, String> check, int run) {
        for (int p = 0; p < 3 + st.roundSinks.size(); p++) {
            // Pass 3 is throughput round 2.
            String pass = p < 3 ? PASSES[p] : "throughput round " + (p - 1);
            String d = check.apply(p < 3 ? st.sinks.get(p) : st.roundSinks.get(p - 3));
            if (d != null) {
                return new Failure(
                        "decoded data does not match the reference aggregate (" + pass + " pass): " + d,
                        run,
                        null,
                        null);
            }
        }
        return null;
    }

    static Failure failure(WindowError e, int run, long done, LongFunction<String> position) {
        if (e.op >= 0) {
            long op = done + e.op;
            return new Failure(e.getMessage(), run, op, position.apply(op));
        }
        return new Failure(e.getMessage(), run, null, null);
    }

    /** The first pass, no format: the records as read must add up to the header's reference, so a reader bug cannot pass for a format's. */
    static <R, S> long scan(Source<R> src, Workload<R, S> spec, Function<S, String> check, int window)
            throws Exception {
        S sink = spec.newSink.get();
        long n = 0;
        try (Windows<R> in = src.open()) {
            for (; ; ) {
                List<R> records = in.next(window);
                if (records.isEmpty()) {
                    break;
                }
                for (R r : records) {
                    spec.feed.accept(r, sink);
                }
                n += records.size();
            }
        }
        if (n == 0) {
            throw new IllegalArgumentException("no records to benchmark");
        }
        String d = check.apply(sink);
        if (d != null) {
            throw new IllegalArgumentException(
                    "the records as read do not add up to the header's reference aggregate: " + d);
        }
        return n;
    }

    /**
     * JIT warm-up: each format repeats the first window's three passes,
     * unmeasured, until it has spent settings.jitWarmupMs (at least once, which
     * also grows its buffers before the first measured window).
     */
    static <R, S> void jitWarmup(
            Source<R> src,
            Workload<R, S> spec,
            List<Bench<R, S>> benches,
            List<FormatRuns> results,
            Stream stream,
            Settings settings,
            LongFunction<String> position)
            throws Exception {
        List<R> records;
        try (Windows<R> in = src.open()) {
            records = new ArrayList<>(in.next(settings.window()));
        }
        long budget = settings.jitWarmupMs() * 1_000_000L;
        for (int i = 0; i < benches.size(); i++) {
            FormatRuns r = results.get(i);
            if (r.failure != null) {
                continue;
            }
            long start = System.nanoTime(), windows = 0;
            do {
                try {
                    benches.get(i).window(records, stream, newRunState(spec, 1));
                } catch (WindowError e) {
                    r.failure = failure(e, 0, 0, position);
                    break;
                }
                windows++;
            } while (System.nanoTime() - start < budget);
            r.jitWarmupMs = (System.nanoTime() - start) / 1e6;
            r.jitWarmupWindows = windows;
        }
    }
}
