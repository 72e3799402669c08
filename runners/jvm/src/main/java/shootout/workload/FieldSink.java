package shootout.workload;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The aggregate of a record-shaped workload (docs/dataset-format.md,
 * "Record-shaped workloads"; the Go runner's workload.FieldSink): per field,
 * over its present values, the count, the wrapping i64 sum of integers
 * (booleans 0/1), the f64 sum of floats in operation order, the wrapping u64
 * sum of the floats' bit patterns (f32 widened first), the UTF-8 byte count
 * and the wrapping u64 sum of the texts' word-wise FNV-1a hashes. Java's long
 * arithmetic wraps, as the doc requires for both i64 and u64 sums.
 */
public final class FieldSink {
    long records;
    final long[] present, intSum, floatBits, textBytes, textHash;
    final double[] floatSum;

    public FieldSink(int fields) {
        present = new long[fields];
        intSum = new long[fields];
        floatBits = new long[fields];
        textBytes = new long[fields];
        textHash = new long[fields];
        floatSum = new double[fields];
    }

    public void record() {
        records++;
    }

    public void i(int field, long v) {
        present[field]++;
        intSum[field] += v;
    }

    public void bool(int field, boolean v) {
        i(field, v ? 1 : 0);
    }

    public void f(int field, double v) {
        present[field]++;
        floatSum[field] += v;
        floatBits[field] += Double.doubleToRawLongBits(v);
    }

    /** A text held as a Java String. */
    public void text(int field, String v) {
        present[field]++;
        int n = v.length();
        boolean ascii = true;
        for (int i = 0; i < n; i++) {
            if (v.charAt(i) >= 0x80) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            textBytes[field] += n;
            textHash[field] += TextHash.ofAscii(v);
        } else {
            byte[] b = v.getBytes(StandardCharsets.UTF_8);
            textBytes[field] += b.length;
            textHash[field] += TextHash.of(b, 0, b.length);
        }
    }

    /** A text as UTF-8 bytes in place (zero-copy codecs pass a view of their buffer). */
    public void utf8(int field, byte[] b, int off, int len) {
        present[field]++;
        textBytes[field] += len;
        textHash[field] += TextHash.of(b, off, len);
    }

    /** A text as UTF-8 bytes in a ByteBuffer, from position to limit. */
    public void utf8(int field, java.nio.ByteBuffer b) {
        present[field]++;
        int len = b.remaining();
        textBytes[field] += len;
        textHash[field] += TextHash.of(b);
    }

    // Nullable cells of the tabular workloads: null = absent.
    public void text(int field, String v, boolean nullable) {
        if (v != null) {
            text(field, v);
        }
    }

    public void i(int field, Long v) {
        if (v != null) {
            i(field, v.longValue());
        }
    }

    public void i(int field, Integer v) {
        if (v != null) {
            i(field, v.longValue());
        }
    }

    public void f(int field, Double v) {
        if (v != null) {
            f(field, v.doubleValue());
        }
    }

    public void f(int field, Float v) {
        if (v != null) {
            f(field, (double) v.floatValue());
        }
    }

    public long records() {
        return records;
    }

    /**
     * The first field (in aggregate order) whose figures differ from the
     * reference, or null when equal. Floats compare by bits, so NaN equals NaN
     * and -0.0 differs from +0.0.
     */
    public String firstDifference(Reference want, List<String> names) {
        if (want.records != records) {
            return "expected " + Long.toUnsignedString(want.records) + " records, decoded "
                    + Long.toUnsignedString(records);
        }
        for (int i = 0; i < names.size(); i++) {
            Reference.Stats w = want.fields.get(names.get(i));
            if (w == null) {
                return "field " + names.get(i) + ": missing from the reference";
            }
            if (w.present != present[i]
                    || w.intSum != intSum[i]
                    || Double.doubleToRawLongBits(w.floatSum) != Double.doubleToRawLongBits(floatSum[i])
                    || w.floatBits != floatBits[i]
                    || w.textBytes != textBytes[i]
                    || w.textHash != textHash[i]) {
                return "field " + names.get(i) + ": expected " + w + ", decoded "
                        + new Reference.Stats(
                                present[i], intSum[i], floatSum[i], floatBits[i], textBytes[i], textHash[i]);
            }
        }
        return null;
    }

    /** A record-shaped reference aggregate, parsed from the dataset header. */
    public static final class Reference {
        final long records;
        final java.util.Map<String, Stats> fields = new java.util.HashMap<>();

        /** The figures of an aggregate fed here, to compare another one with (interop's per-record search). */
        public Reference(FieldSink s, List<String> names) {
            records = s.records;
            for (int i = 0; i < names.size(); i++) {
                fields.put(
                        names.get(i),
                        new Stats(
                                s.present[i],
                                s.intSum[i],
                                s.floatSum[i],
                                s.floatBits[i],
                                s.textBytes[i],
                                s.textHash[i]));
            }
        }

        public Reference(JsonNode ref) {
            records = Json.u64(ref.get("records"), "records");
            JsonNode fs = ref.get("fields");
            if (fs == null || !fs.isObject()) {
                throw new IllegalArgumentException("reference has no fields object");
            }
            fs.properties().forEach(e -> {
                JsonNode s = e.getValue();
                fields.put(
                        e.getKey(),
                        new Stats(
                                Json.u64(s.get("present"), "present"),
                                Json.i64(s.get("int_sum"), "int_sum"),
                                Json.f64(s.get("float_sum"), "float_sum"),
                                Json.u64(s.get("float_bits"), "float_bits"),
                                Json.u64(s.get("text_bytes"), "text_bytes"),
                                Json.u64(s.get("text_hash"), "text_hash")));
            });
        }

        record Stats(long present, long intSum, double floatSum, long floatBits, long textBytes, long textHash) {
            @Override
            public String toString() {
                return "{present " + Long.toUnsignedString(present) + ", int_sum " + intSum + ", float_sum " + floatSum
                        + ", float_bits " + Long.toUnsignedString(floatBits) + ", text_bytes "
                        + Long.toUnsignedString(textBytes)
                        + ", text_hash " + Long.toUnsignedString(textHash) + "}";
            }
        }
    }
}
