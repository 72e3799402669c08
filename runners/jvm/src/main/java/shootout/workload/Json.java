package shootout.workload;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The dataset's JSON reading: exact 64-bit integers, floats to the bit. */
public final class Json {
    private Json() {
    }

    /** Reads the dataset: an unknown field or a float given for an integer is an error. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .build();

    static long u64(JsonNode n, String what) {
        if (n == null || !n.isIntegralNumber()) {
            throw new IllegalArgumentException(what + ": not an integer: " + n);
        }
        java.math.BigInteger v = n.bigIntegerValue();
        if (v.signum() < 0 || v.bitLength() > 64) {
            throw new IllegalArgumentException(what + ": " + v + " is not a u64");
        }
        return v.longValue();
    }

    static long i64(JsonNode n, String what) {
        if (n == null || !n.isIntegralNumber()) {
            throw new IllegalArgumentException(what + ": not an integer: " + n);
        }
        java.math.BigInteger v = n.bigIntegerValue();
        if (v.bitLength() > 63) {
            throw new IllegalArgumentException(what + ": " + v + " is not an i64");
        }
        return v.longValue();
    }

    /** A float (an integer token such as Go's "-0" for -0.0 cannot keep its sign through Jackson's tree). */
    static double f64(JsonNode n, String what) {
        if (n == null || !n.isNumber()) {
            throw new IllegalArgumentException(what + ": not a number: " + n);
        }
        return n.doubleValue();
    }
}
