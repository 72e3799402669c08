package shootout.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import shootout.Samples;
import shootout.workload.FieldSink;
import shootout.workload.User;
import shootout.workload.Workload;

/** The run count: exactly --warmup warm-up runs, then exactly --runs measured runs, no more, no fewer. */
class HarnessTest {
    static Harness.Settings settings(int warmup, int runs) {
        return new Harness.Settings(warmup, runs, 128, 1, 0);
    }

    /** A measurement of the baseline on the user sample, and how many times its input was opened. */
    record Counted(Harness.Measured measured, int opens) {
    }

    /** The user sample, window by window, counting every open of the input (one per pass over it). */
    static Counted measure(Harness.Settings s) throws Exception {
        Samples.Sample<User, FieldSink> sample = Samples.read(Workload.USER);
        List<User> records = sample.records();
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
                public void close() {
                }
            };
        };
        List<Entry<User, FieldSink>> baseline = List.of(new Entry<>(Baseline.INFO, () -> new Baseline<>(Workload.USER.feed), null));
        Harness.Measured m = Harness.measure(src, Workload.USER, sample.check(), baseline, s, new Timer(0, 1), op -> "record " + op, null);
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
    void noMeasuredRunANegativeWarmUpOrAnEmptyWindowIsRefused() {
        for (Harness.Settings s : List.of(settings(1, 0), settings(-1, 3), new Harness.Settings(1, 3, 0, 1, 0))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> measure(s), s.toString());
            assertTrue(e.getMessage().contains("--runs"), e.getMessage());
        }
    }
}
