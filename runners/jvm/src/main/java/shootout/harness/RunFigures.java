package shootout.harness;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.AbstractHistogram;

/**
 * The raw figures of one measured run of one direction (docs/results-schema.md's
 * Run); the Rust CLI derives every statistic from them. allocations_per_op is
 * null: the JVM counts allocated bytes per thread, not allocations.
 * total_ns and ops add up every throughput round (round_ns: total_ns round by
 * round, adding up to it); allocated_bytes_per_op is
 * over the allocation pass's records. gc_count and gc_pause_ms are the
 * collections (all collectors' MXBeans) that ended during this direction's
 * timed throughput loops, every round's.
 */
public record RunFigures(
        long totalNs,
        long[] roundNs,
        long ops,
        String histogram,
        double allocatedBytesPerOp,
        long gcCount,
        long gcPauseMs) {

    Map<String, Object> toJson(double orderPosition) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("total_ns", totalNs);
        m.put("round_ns", roundNs);
        m.put("ops", ops);
        m.put("histogram", histogram);
        m.put("allocations_per_op", null);
        m.put("allocated_bytes_per_op", allocatedBytesPerOp);
        m.put("gc_count", gcCount);
        m.put("gc_pause_ms", gcPauseMs);
        m.put("order_position", orderPosition);
        return m;
    }

    /** The latency pass's histogram as base64 of HdrHistogram's compressed V2 encoding. */
    static RunFigures finish(Harness.Direction d) {
        return new RunFigures(
                d.loopNs,
                d.roundNs.clone(),
                d.ops,
                base64(d.latency),
                d.allocBytes / (double) Math.max(d.allocOps, 1),
                d.gcCount,
                d.gcMs);
    }

    /** A histogram as the results write it: base64 of HdrHistogram's compressed V2 encoding. */
    public static String base64(AbstractHistogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buf.array(), n));
    }
}
