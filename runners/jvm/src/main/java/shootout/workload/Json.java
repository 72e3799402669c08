package shootout.workload;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;

/** The dataset's JSON reading: exact 64-bit integers, floats to the bit. */
public final class Json {
    private Json() {}

    /**
     * Reads the dataset: an unknown field or a float given for an integer is an
     * error; a float written as the integer token "-0" (Go's encoding/json writes
     * -0.0 so) keeps its sign, which Jackson's own coercion of an integer token
     * to a double loses.
     */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .addModule(signedZero())
            .build();

    private static double number(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT) {
            String text = p.getText();
            return text.equals("-0") ? -0.0 : Double.parseDouble(text);
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT) {
            return p.getDoubleValue();
        }
        throw new JsonParseException(p, "expected a number, found " + t);
    }

    private static float number32(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
            String text = p.getText();
            return text.equals("-0") ? -0.0f : Float.parseFloat(text);
        }
        throw new JsonParseException(p, "expected a number, found " + t);
    }

    private static SimpleModule signedZero() {
        SimpleModule m = new SimpleModule("dataset-floats");
        JsonDeserializer<Double> d = new JsonDeserializer<>() {
            @Override
            public Double deserialize(JsonParser p, DeserializationContext c) throws IOException {
                return number(p);
            }
        };
        JsonDeserializer<Float> f = new JsonDeserializer<>() {
            @Override
            public Float deserialize(JsonParser p, DeserializationContext c) throws IOException {
                return number32(p);
            }
        };
        m.addDeserializer(Double.class, d);
        m.addDeserializer(double.class, d);
        m.addDeserializer(Float.class, f);
        m.addDeserializer(float.class, f);
        m.addDeserializer(double[].class, new JsonDeserializer<>() {
            @Override
            public double[] deserialize(JsonParser p, DeserializationContext c) throws IOException {
                if (p.currentToken() != JsonToken.START_ARRAY) {
                    throw new JsonParseException(p, "expected an array of numbers");
                }
                double[] out = new double[8];
                int n = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    if (n == out.length) {
                        out = java.util.Arrays.copyOf(out, n * 2);
                    }
                    out[n++] = number(p);
                }
                return java.util.Arrays.copyOf(out, n);
            }
        });
        return m;
    }

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
