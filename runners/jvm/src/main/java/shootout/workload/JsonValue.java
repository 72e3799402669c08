package shootout.workload;

import java.math.BigInteger;

/**
 * A jsonl record's canonical value (docs/dataset-format.md, "`jsonl`: any JSON
 * value"): everything its text says. Integers keep their exact value at any
 * size (an i64, a u64 beyond i64, or a BigInteger beyond both), floats are
 * doubles (-0.0 included), and objects keep every member in order, duplicate
 * keys included. Immutable; made by {@link JsonlReader} from a dataset line,
 * and converted once per record into each library's own model (the jsonl
 * codecs' {@link JsonlRecord.Model}s).
 */
public final class JsonValue {
    /** The value's kind; integers by range: INT an i64, U64 2^63 to 2^64-1, BIG beyond both. */
    public enum Kind {
        NULL,
        FALSE,
        TRUE,
        INT,
        U64,
        BIG,
        FLOAT,
        STRING,
        ARRAY,
        OBJECT
    }

    public static final JsonValue NULL = new JsonValue(Kind.NULL, 0, null, null);
    public static final JsonValue TRUE = new JsonValue(Kind.TRUE, 0, null, null);
    public static final JsonValue FALSE = new JsonValue(Kind.FALSE, 0, null, null);

    private static final BigInteger U64_LIMIT = BigInteger.ONE.shiftLeft(64);
    private static final JsonValue[] NO_ITEMS = {};
    private static final String[] NO_KEYS = {};

    public final Kind kind;
    /** INT: the value; U64: its 64 bits; FLOAT: the double's raw bits. */
    private final long bits;
    /** STRING: the String; BIG: the BigInteger; ARRAY and OBJECT: the JsonValue[] of elements or member values. */
    private final Object ref;
    /** OBJECT: the member keys, parallel to the values. */
    private final String[] keys;

    private JsonValue(Kind kind, long bits, Object ref, String[] keys) {
        this.kind = kind;
        this.bits = bits;
        this.ref = ref;
        this.keys = keys;
    }

    public static JsonValue bool(boolean v) {
        return v ? TRUE : FALSE;
    }

    /** An integer in the i64 range. */
    public static JsonValue integer(long v) {
        return new JsonValue(Kind.INT, v, null, null);
    }

    /** Any integer, kept in the narrowest of i64, u64 and BigInteger that holds it. */
    public static JsonValue integer(BigInteger v) {
        if (v.bitLength() <= 63) {
            return integer(v.longValue());
        }
        if (v.signum() > 0 && v.compareTo(U64_LIMIT) < 0) {
            return new JsonValue(Kind.U64, v.longValue(), null, null);
        }
        return new JsonValue(Kind.BIG, 0, v, null);
    }

    public static JsonValue floating(double v) {
        return new JsonValue(Kind.FLOAT, Double.doubleToRawLongBits(v), null, null);
    }

    public static JsonValue string(String v) {
        return new JsonValue(Kind.STRING, 0, v, null);
    }

    public static JsonValue array(JsonValue[] items) {
        return new JsonValue(Kind.ARRAY, 0, items.length == 0 ? NO_ITEMS : items, null);
    }

    /** An object of keys.length members, keys[i] to values[i], in order; a key may repeat. */
    public static JsonValue object(String[] keys, JsonValue[] values) {
        if (keys.length != values.length) {
            throw new IllegalArgumentException(keys.length + " keys, " + values.length + " values");
        }
        return new JsonValue(Kind.OBJECT, 0, values.length == 0 ? NO_ITEMS : values, keys.length == 0 ? NO_KEYS : keys);
    }

    /** An INT's value. */
    public long longValue() {
        check(Kind.INT);
        return bits;
    }

    /** A U64's 64 bits (the value is 2^64 more than this long, read as signed). */
    public long u64Bits() {
        check(Kind.U64);
        return bits;
    }

    /** Any integer's value as a BigInteger. */
    public BigInteger bigIntegerValue() {
        return switch (kind) {
            case INT -> BigInteger.valueOf(bits);
            case U64 -> new BigInteger(Long.toUnsignedString(bits));
            case BIG -> (BigInteger) ref;
            default -> throw new IllegalStateException("a " + kind + " is not an integer");
        };
    }

    public double doubleValue() {
        check(Kind.FLOAT);
        return Double.longBitsToDouble(bits);
    }

    public String stringValue() {
        check(Kind.STRING);
        return (String) ref;
    }

    /** An ARRAY's elements or an OBJECT's members. */
    public int size() {
        if (kind != Kind.ARRAY && kind != Kind.OBJECT) {
            throw new IllegalStateException("a " + kind + " has no elements");
        }
        return ((JsonValue[]) ref).length;
    }

    /** An ARRAY's element i, or an OBJECT's member i's value. */
    public JsonValue get(int i) {
        return ((JsonValue[]) ref)[i];
    }

    /** An OBJECT's member i's key. */
    public String key(int i) {
        check(Kind.OBJECT);
        return keys[i];
    }

    public boolean isInteger() {
        return kind == Kind.INT || kind == Kind.U64 || kind == Kind.BIG;
    }

    private void check(Kind k) {
        if (kind != k) {
            throw new IllegalStateException("a " + kind + ", not a " + k);
        }
    }

    /** Feeds the value, depth first, to the sink: the source side of validation (the baseline's decode and the scan). */
    public void feed(JsonlSink s) {
        switch (kind) {
            case NULL -> s.nullValue();
            case FALSE -> s.bool(false);
            case TRUE -> s.bool(true);
            case INT -> s.i64(bits);
            case U64 -> s.u64(bits);
            case BIG -> s.bigInteger((BigInteger) ref);
            case FLOAT -> s.f64(Double.longBitsToDouble(bits));
            case STRING -> s.text((String) ref);
            case ARRAY -> {
                s.beginArray();
                for (JsonValue e : (JsonValue[]) ref) {
                    e.feed(s);
                }
                s.endArray();
            }
            case OBJECT -> {
                JsonValue[] values = (JsonValue[]) ref;
                s.beginObject();
                for (int i = 0; i < values.length; i++) {
                    s.key(keys[i]);
                    values[i].feed(s);
                }
                s.endObject();
            }
        }
    }

    /** The canonical text (docs/dataset-format.md): members in order with duplicates, integers in full, floats with a '.' or exponent. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        write(b);
        return b.toString();
    }

    private void write(StringBuilder b) {
        switch (kind) {
            case NULL -> b.append("null");
            case FALSE -> b.append("false");
            case TRUE -> b.append("true");
            case INT -> b.append(bits);
            case U64 -> b.append(Long.toUnsignedString(bits));
            case BIG -> b.append(ref);
            case FLOAT ->
                b.append(Double.longBitsToDouble(bits)); // Java's shortest-enough form always has a '.' or an 'E'
            case STRING -> quote(b, (String) ref);
            case ARRAY -> {
                b.append('[');
                JsonValue[] items = (JsonValue[]) ref;
                for (int i = 0; i < items.length; i++) {
                    if (i > 0) {
                        b.append(',');
                    }
                    items[i].write(b);
                }
                b.append(']');
            }
            case OBJECT -> {
                b.append('{');
                JsonValue[] values = (JsonValue[]) ref;
                for (int i = 0; i < values.length; i++) {
                    if (i > 0) {
                        b.append(',');
                    }
                    quote(b, keys[i]);
                    b.append(':');
                    values[i].write(b);
                }
                b.append('}');
            }
        }
    }

    private static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
