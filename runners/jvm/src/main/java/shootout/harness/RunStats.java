package shootout.harness;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * One measured run of one direction (docs/results-schema.md's RunStats).
 * allocations_per_op is null: the JVM counts allocated bytes per thread, not
 * allocations. gc_count and gc_pause_ms are the collections (all collectors'
 * MXBeans) that ended during this direction's timed throughput loops.
 */
public record RunStats(double nsPerOp, long totalNs, long ops, double opsPerS, double mbPerS, long p50Ns, long p90Ns, long p99Ns,
        long p999Ns, long maxNs, double latencyMeanNs, long outliersLow, long outliersHigh, String histogram,
        double allocatedBytesPerOp, long gcCount, long gcPauseMs) {

    /** The numbers summarised as {median, min, max}, in the schema's order; null = not measured. */
    Map<String, Double> numbers() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("ns_per_op", nsPerOp);
        m.put("total_ns", (double) totalNs);
        m.put("ops", (double) ops);
        m.put("ops_per_s", opsPerS);
        m.put("mb_per_s", mbPerS);
        m.put("p50_ns", (double) p50Ns);
        m.put("p90_ns", (double) p90Ns);
        m.put("p99_ns", (double) p99Ns);
        m.put("p999_ns", (double) p999Ns);
        m.put("max_ns", (double) maxNs);
        m.put("latency_mean_ns", latencyMeanNs);
        m.put("allocations_per_op", null);
        m.put("allocated_bytes_per_op", allocatedBytesPerOp);
        m.put("gc_count", (double) gcCount);
        m.put("gc_pause_ms", (double) gcPauseMs);
        return m;
    }

    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ns_per_op", nsPerOp);
        m.put("total_ns", totalNs);
        m.put("ops", ops);
        m.put("ops_per_s", opsPerS);
        m.put("mb_per_s", mbPerS);
        m.put("p50_ns", p50Ns);
        m.put("p90_ns", p90Ns);
        m.put("p99_ns", p99Ns);
        m.put("p999_ns", p999Ns);
        m.put("max_ns", maxNs);
        m.put("latency_mean_ns", latencyMeanNs);
        m.put("outliers", Map.of("low", outliersLow, "high", outliersHigh));
        m.put("histogram", histogram);
        m.put("allocations_per_op", null);
        m.put("allocated_bytes_per_op", allocatedBytesPerOp);
        m.put("gc_count", gcCount);
        m.put("gc_pause_ms", gcPauseMs);
        return m;
    }

    static RunStats finish(Harness.Direction d) {
        Histogram h = d.latency;
        double ops = Math.max(d.ops, 1);
        double secs = Math.max(d.loopNs, 1) / 1e9;
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        String encoded = Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), n));
        // Tukey's fences: samples beyond Q1 − 1.5·IQR and Q3 + 1.5·IQR.
        double q1 = h.getValueAtPercentile(25), q3 = h.getValueAtPercentile(75);
        double lo = q1 - 1.5 * (q3 - q1), hi = q3 + 1.5 * (q3 - q1);
        long low = 0, high = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            if (h.highestEquivalentValue(v.getValueIteratedTo()) < lo) {
                low += v.getCountAtValueIteratedTo();
            } else if (h.lowestEquivalentValue(v.getValueIteratedTo()) > hi) {
                high += v.getCountAtValueIteratedTo();
            }
        }
        return new RunStats(d.loopNs / ops, d.loopNs, d.ops, d.ops / secs, d.bytes / 1e6 / secs, h.getValueAtPercentile(50),
                h.getValueAtPercentile(90), h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue(), h.getMean(),
                low, high, encoded, d.allocBytes / ops, d.gcCount, d.gcMs);
    }
}
