package shootout.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import shootout.Spec;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.workload.FieldSink;
import shootout.workload.User;
import shootout.workload.Workload;

/**
 * The run count: exactly --warmup warm-up runs, then exactly --runs measured runs, no more, no fewer; and the throughput rounds of
 * each measured run.
 */
class HarnessTest {
    static Harness.Settings settings(int warmup, int runs) {
        return new Harness.Settings(warmup, runs, 1, 128, 1, 0);
    }

    /** One window holds the whole user fixture (300 records), so every pass over it is one pass over the window. */
    static Harness.Settings oneWindow(int warmup, int runs, int rounds) {
        return new Harness.Settings(warmup, runs, rounds, 1000, 1, 0);
    }

    /** A measurement on the user fixture, and how many times its input was opened. */
    record Counted(Harness.Measured measured, int opens) {}

    static Counted measure(Harness.Settings s) throws Exception {
        return measure(s, List.of(new Entry<>(Baseline.INFO, () -> new Baseline<>(Workload.USER.feed))));
    }

    /** The user fixture, window by window, counting every open of the input (one per pass over it). */
    static Counted measure(Harness.Settings s, List<Entry<User, FieldSink>> entries) throws Exception {
        Spec.Fixture<User, FieldSink> fixture = Spec.read(Workload.USER);
        List<User> records = fixture.records();
        AtomicInteger opens = new AtomicInteger();
        Harness.Source<User> src = () -> {
            opens.incrementAndGet();
            return new Harness.Windows<User>() {
                int at;

                @Override
                public List<User> next(int n) {
                    List<User> w = records.subList(at, Math.min(at + n, records.size()));
                    at += w.size();
                    return w;
                }

                @Override
                public void close() {}
            };
        };
        Harness.Measured m = Harness.measure(
                src, Workload.USER, fixture.check(), entries, s, new Timer(0, 1), op -> "record " + op, null);
        return new Counted(m, opens.get());
    }

    @Test
    void theRunnerMakesExactlyTheWarmUpAndMeasuredRunsAsked() throws Exception {
        Counted c = measure(settings(2, 3));
        List<Harness.RunInfo> runs = c.measured().runs();
        assertEquals(5, runs.size(), "2 warm-up runs, then 3 measured");
        for (int i = 0; i < runs.size(); i++) {
            assertEquals(i, runs.get(i).index());
            assertEquals(i < 2, runs.get(i).warmup(), "run " + i);
        }
        Harness.FormatRuns baseline = c.measured().formats().get(0);
        assertEquals(null, baseline.failure);
        assertEquals(3, baseline.runs.size(), "a format keeps its measured runs only");
        // One pass over the input per run, besides the reading check before them and the JIT warm-up's first window.
        assertEquals(2 + 5, c.opens());
    }

    @Test
    void withoutWarmUpEveryRunIsMeasured() throws Exception {
        Counted c = measure(settings(0, 1));
        assertEquals(1, c.measured().runs().size());
        assertFalse(c.measured().runs().get(0).warmup());
        assertEquals(1, c.measured().formats().get(0).runs.size());
        assertEquals(2 + 1, c.opens());
    }

    @Test
    void noMeasuredRunNoRoundANegativeWarmUpOrAnEmptyWindowIsRefused() {
        for (Harness.Settings s :
                List.of(settings(1, 0), settings(-1, 3), new Harness.Settings(1, 3, 1, 0, 1, 0), oneWindow(1, 3, 0))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> measure(s), s.toString());
            assertTrue(e.getMessage().contains("--runs"), e.getMessage());
        }
    }

    /** The baseline, counting its decodes; from decode number corruptFrom + 1 on, it feeds each record to the sink twice. */
    static final class Counting implements Codec<User, FieldSink> {
        final Baseline<User, FieldSink> floor = new Baseline<>(Workload.USER.feed);
        final long corruptFrom;
        long decodes;

        Counting(long corruptFrom) {
            this.corruptFrom = corruptFrom;
        }

        @Override
        public void encode(Stream out, User r) {
            floor.encode(out, r);
        }

        @Override
        public int decode(byte[] buf, int off, int end, FieldSink sink) throws Exception {
            if (++decodes > corruptFrom) {
                floor.decode(buf, off, end, sink);
            }
            return floor.decode(buf, off, end, sink);
        }
    }

    static Entry<User, FieldSink> entry(Codec<User, FieldSink> codec) {
        return new Entry<>(
                new Info(
                        "counting",
                        "test",
                        "jdk",
                        Labels.of(true, "owned", "unchecked", "generated"),
                        Framing.NONE,
                        null,
                        ""),
                () -> codec);
    }

    @Test
    void eachFurtherRoundAddsAThroughputPassToTheMeasuredRunsOnly() throws Exception {
        int n = Spec.read(Workload.USER).records().size();
        Counting codec = new Counting(Long.MAX_VALUE);
        Counted c = measure(oneWindow(1, 2, 3), List.of(entry(codec)));
        Harness.FormatRuns f = c.measured().formats().get(0);
        assertEquals(null, f.failure);
        assertEquals(2, f.runs.size());
        for (Harness.Measurement m : f.runs) {
            for (RunFigures direction : List.of(m.encode(), m.decode())) {
                assertEquals(3L * n, direction.ops(), "3 rounds over the records");
                assertEquals(3, direction.roundNs().length, "one time per round");
                assertEquals(
                        direction.totalNs(),
                        java.util.Arrays.stream(direction.roundNs()).sum(),
                        "rounds add up");
                assertTrue(java.util.Arrays.stream(direction.roundNs()).allMatch(ns -> ns > 0), "every round timed");
            }
        }
        // The JIT warm-up's window and the warm-up run make the three passes once; each measured run three passes and
        // two more rounds.
        assertEquals(3L * n + 3L * n + 2 * (3L * n + 2L * n), codec.decodes);

        // Without a warm-up run, the first run, whose streams give the encoded sizes, is a measured one with its three
        // rounds.
        Counted first = measure(oneWindow(0, 1, 3), List.of(entry(new Counting(Long.MAX_VALUE))));
        assertEquals(
                3L * n, first.measured().formats().get(0).runs.get(0).encode().ops());
        assertEquals(
                4L * n,
                first.measured().formats().get(0).encodedBytes,
                "the baseline writes 4 bytes a record, counted in round 1 only");
    }

    @Test
    void aFurtherRoundDecodesIntoItsOwnSinkAndIsValidated() throws Exception {
        int n = Spec.read(Workload.USER).records().size();
        // The JIT warm-up's window and round 1 decode correctly (3 passes each); round 2 feeds every record twice.
        Counted c = measure(oneWindow(0, 1, 2), List.of(entry(new Counting(6L * n))));
        Harness.Failure failure = c.measured().formats().get(0).failure;
        assertTrue(failure != null, "round 2's sink must be checked");
        assertEquals(0, failure.run());
        assertTrue(
                failure.reason()
                        .startsWith("decoded data does not match the reference aggregate (throughput round 2 pass): "),
                failure.reason());
    }

    @Test
    void allocatedBytesPerOpAreOverTheAllocationPassNotEveryRound() {
        Harness.Direction d = new Harness.Direction(3);
        d.ops = 3000;
        d.allocOps = 1000;
        d.allocBytes = 4000;
        assertEquals(4.0, RunFigures.finish(d).allocatedBytesPerOp());
    }
}
