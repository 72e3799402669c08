package shootout.harness;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Medians and bootstrap intervals (2,000 resamples, fixed seeds), as the Rust and Go runners compute them. */
final class Stats {
    private Stats() {
    }

    static final int RESAMPLES = 2000;

    /** The median; of an even count, the mean of the middle two. */
    static double median(double[] xs) {
        if (xs.length == 0) {
            return Double.NaN;
        }
        double[] s = xs.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    static double min(double[] xs) {
        return Arrays.stream(xs).min().orElse(Double.NaN);
    }

    static double max(double[] xs) {
        return Arrays.stream(xs).max().orElse(Double.NaN);
    }

    private static double[] resample(SplittableRandom rng, double[] xs, double[] into) {
        for (int i = 0; i < xs.length; i++) {
            into[i] = xs[rng.nextInt(xs.length)];
        }
        return into;
    }

    private static double[] interval(double[] stats) {
        Arrays.sort(stats);
        return new double[] {stats[(int) Math.round(0.025 * (stats.length - 1))], stats[(int) Math.round(0.975 * (stats.length - 1))]};
    }

    /** The 95 % interval of the median. */
    static double[] bootstrapMedian(double[] xs) {
        SplittableRandom rng = new SplittableRandom(1);
        double[] stats = new double[RESAMPLES], buf = new double[xs.length];
        for (int i = 0; i < RESAMPLES; i++) {
            stats[i] = median(resample(rng, xs, buf));
        }
        return interval(stats);
    }

    /** The 95 % interval of median(xs) / median(ys), both resampled. */
    static double[] bootstrapRatio(double[] xs, double[] ys) {
        SplittableRandom rng = new SplittableRandom(3);
        double[] stats = new double[RESAMPLES], a = new double[xs.length], b = new double[ys.length];
        for (int i = 0; i < RESAMPLES; i++) {
            stats[i] = median(resample(rng, xs, a)) / median(resample(rng, ys, b));
        }
        return interval(stats);
    }
}
