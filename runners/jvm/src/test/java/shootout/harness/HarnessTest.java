package shootout.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import shootout.Samples;
import shootout.workload.FieldSink;
import shootout.workload.User;
import shootout.workload.Workload;

/** The run count: --runs measured runs, then more only within --time-budget-ms and --max-runs. */
class HarnessTest {
    static Harness.Settings settings(int warmup, int runs, long budgetMs, int maxRuns) {
        return new Harness.Settings(warmup, runs, budgetMs, maxRuns, 128, 1, 0);
    }

    static final long MS = 1_000_000;

    @Test
    void warmUpRunsAndTheFirstRunsAlwaysRunThenTheBudgetDecides() {
        Harness.Settings none = settings(1, 3, 0, 1000);
        assertTrue(Harness.another(none, 0, 0, Long.MAX_VALUE / 2, 0), "a warm-up run");
        assertTrue(Harness.another(none, 3, 2, Long.MAX_VALUE / 2, 0), "the third measured run");
        assertFalse(Harness.another(none, 4, 3, 0, 0), "no budget: exactly --runs");

        Harness.Settings budget = settings(0, 2, 100, 5);
        assertTrue(Harness.another(budget, 2, 2, 50 * MS, 40 * MS));
        assertTrue(Harness.another(budget, 2, 2, 50 * MS, 50 * MS), "ending exactly at the budget");
        assertFalse(Harness.another(budget, 2, 2, 50 * MS, 51 * MS), "the longest run would overrun the budget");
        assertTrue(Harness.another(budget, 4, 4, 0, 0));
        assertFalse(Harness.another(budget, 5, 5, 0, 0), "--max-runs");
    }

    /** The user sample, window by window; each open (one per run) sleeps sleepMs first. */
    static Harness.Measured measure(Harness.Settings s, long sleepMs) throws Exception {
        Samples.Sample<User, FieldSink> sample = Samples.read(Workload.USER);
        List<User> records = sample.records();
        Harness.Source<User> src = () -> {
            Thread.sleep(sleepMs);
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
        return Harness.measure(src, Workload.USER, sample.check(), baseline, s, new Timer(0, 1), op -> "record " + op, null);
    }

    static int measuredRuns(Harness.Measured m) {
        Harness.FormatRuns f = m.formats().get(0);
        assertEquals(null, f.failure);
        assertEquals(m.runs().stream().filter(r -> !r.warmup()).count(), f.runs.size());
        return f.runs.size();
    }

    @Test
    void withoutABudgetTheRunnerMakesExactlyTheMeasuredRunsAsked() throws Exception {
        Harness.Measured m = measure(settings(1, 3, 0, 1000), 0);
        assertEquals(3, measuredRuns(m));
        assertEquals(4, m.runs().size());
        assertTrue(m.runs().get(0).warmup());
    }

    @Test
    void aLargeBudgetAddsRunsUpToMaxRuns() throws Exception {
        int n = measuredRuns(measure(settings(0, 2, 600_000, 4), 0));
        assertTrue(n > 2 && n <= 4, n + " measured runs");
    }

    @Test
    void noRunStartsThatTheLongestRunSoFarWouldTakePastTheBudget() throws Exception {
        // Every run takes at least 30 ms: after k runs, another starts only if 30 k + 30 <= 150, so at most 5 in all.
        int n = measuredRuns(measure(settings(0, 1, 150, 1000), 30));
        assertTrue(n >= 1 && n <= 5, n + " measured runs");
    }
}
