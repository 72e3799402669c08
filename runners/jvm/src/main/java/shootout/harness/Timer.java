package shootout.harness;

import java.util.Arrays;

/**
 * System.nanoTime (CLOCK_MONOTONIC through the vDSO on Linux). The JVM offers
 * no fenced TSC read, so a latency sample carries the cost of two nanoTime
 * calls; its median is measured at start-up and subtracted. The results'
 * timer.flag_below_ns (5 × the observed resolution) tells the Rust CLI's
 * reports which percentiles to flag.
 */
public record Timer(long emptyNs, long resolutionNs) {
    public static Timer calibrate() {
        final int n = 20_000;
        long[] costs = new long[n];
        long resolution = Long.MAX_VALUE;
        // Twice: the first round runs in the interpreter.
        for (int round = 0; round < 2; round++) {
            resolution = Long.MAX_VALUE;
            for (int i = 0; i < n; i++) {
                long t = System.nanoTime();
                costs[i] = System.nanoTime() - t;
                if (costs[i] > 0 && costs[i] < resolution) {
                    resolution = costs[i];
                }
            }
        }
        Arrays.sort(costs);
        return new Timer(costs[n / 2], resolution == Long.MAX_VALUE ? 1 : resolution);
    }

    /** The time since start minus the empty region's cost, at least 0. */
    public long sample(long start) {
        return Math.max(System.nanoTime() - start - emptyNs, 0);
    }
}
