package shootout.workload;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The jsonl workload's aggregate (docs/dataset-format.md, "`jsonl`: any JSON
 * value", workload/jsonl/aggregate.rs): a codec walks each decoded record
 * into it, value by value and depth first, through one method per kind, and
 * it counts every value at any depth and sums each record's value hash H.
 *
 * <p>H is computed as the values arrive, on a stack of open arrays and
 * objects (an array's running hash and element count, an object's member sum
 * and count, the key awaiting its value): nothing is allocated per value once
 * the stack and the scratch buffer have grown to the data's depth and longest
 * text, but for integers beyond 64 bits (whose decimal text is hashed).
 * Duplicate keys (information for a finding, never compared) are found by
 * sorting the 64-bit text hashes of an object's keys when it ends, so two
 * different keys of one object whose hashes collide would count as one
 * duplicate. A record is one value completed at the top level.
 *
 * <p>The sink checks the order of calls (a member value needs its key, an end
 * its begin) and throws IllegalStateException for a walk that breaks it.
 */
public final class JsonlSink {
    static final long OFF = TextHash.OFFSET, P = TextHash.PRIME;
    /** 2^53: beyond it, integers are no longer all exact as doubles. */
    static final long EXACT = 1L << 53;

    static final long NEGATIVE_ZERO = Double.doubleToRawLongBits(-0.0);

    static long step(long h, long w) {
        return (h ^ w) * P;
    }

    static final long H_NULL = step(OFF, 1),
            H_FALSE = step(OFF, 2),
            H_TRUE = step(OFF, 3),
            H_INT = step(OFF, 4),
            H_U64 = step(OFF, 5),
            H_FLOAT = step(OFF, 7),
            H_ARRAY = step(OFF, 9),
            H_OBJECT = step(OFF, 11);
    long records,
            hash,
            nulls,
            booleans,
            integers,
            bigIntegers,
            hugeIntegers,
            floats,
            negativeZeros,
            integralFloats,
            strings,
            textBytes,
            arrays,
            elements,
            objects,
            members,
            duplicateKeys;

    /** Open containers: frame f = depth - 1 is the innermost. */
    private int depth;

    private boolean[] isObject = new boolean[16];
    /** An array's running hash, an object's wrapping sum over its members. */
    private long[] acc = new long[16];

    private long[] count = new long[16];
    /** An object's last key's text hash, and whether that key still awaits its value. */
    private long[] keyHash = new long[16];

    private boolean[] keyed = new boolean[16];
    /** Where an object's keys start on the key stack. */
    private int[] keyStart = new int[16];
    /** The text hashes of the keys of every open object, innermost last. */
    private long[] keys = new long[64];

    private int keyTop;
    /** A String's UTF-8 bytes, encoded here rather than into a new array. */
    private byte[] scratch = new byte[256];

    public long records() {
        return records;
    }

    /** The open arrays and objects: 0 between records. */
    public int depth() {
        return depth;
    }

    private void value(long h) {
        if (depth == 0) {
            records++;
            hash += h;
            return;
        }
        int f = depth - 1;
        if (isObject[f]) {
            if (!keyed[f]) {
                throw new IllegalStateException("jsonl sink: an object member's value without its key");
            }
            acc[f] += step(step(keyHash[f], h), 10);
            keyed[f] = false;
        } else {
            acc[f] = step(acc[f], h);
        }
        count[f]++;
    }

    public void nullValue() {
        nulls++;
        value(H_NULL);
    }

    public void bool(boolean v) {
        booleans++;
        value(v ? H_TRUE : H_FALSE);
    }

    /** An integer in the i64 range. */
    public void i64(long v) {
        integers++;
        if (v > EXACT || v < -EXACT) {
            bigIntegers++;
        }
        value(step(H_INT, v));
    }

    /** An unsigned 64-bit integer, its bits in a long (values from 2^63 read as negative longs). */
    public void u64(long bits) {
        if (bits >= 0) {
            i64(bits);
            return;
        }
        integers++;
        bigIntegers++;
        value(step(H_U64, bits));
    }

    /** An integer of any size. */
    public void bigInteger(BigInteger v) {
        int bits = v.bitLength();
        if (bits <= 63) {
            i64(v.longValue());
        } else if (bits == 64 && v.signum() > 0) {
            u64(v.longValue());
        } else {
            integers++;
            bigIntegers++;
            hugeIntegers++;
            byte[] decimal = v.toString().getBytes(StandardCharsets.US_ASCII);
            value(step(TextHash.of(decimal, 0, decimal.length), 6));
        }
    }

    /**
     * A number a library holds as a decimal (BigDecimal, BSON's Decimal128),
     * read by the spec's rule for a number's text: an integer when its text has
     * no '.' and no exponent (scale 0), otherwise a float, the double nearest it.
     */
    public void decimal(BigDecimal v) {
        if (v.scale() == 0) {
            if (v.precision() <= 18) {
                i64(v.longValue());
            } else {
                bigInteger(v.unscaledValue());
            }
        } else {
            f64(v.doubleValue());
        }
    }

    public void f64(double v) {
        floats++;
        long bits = Double.doubleToRawLongBits(v);
        if (bits == NEGATIVE_ZERO) {
            negativeZeros++;
        }
        if (!Double.isNaN(v) && !Double.isInfinite(v) && v == Math.floor(v)) {
            integralFloats++;
        }
        value(step(H_FLOAT, bits));
    }

    /** A string held as a Java String. */
    public void text(String v) {
        int n = utf8Length(v);
        string(hashOf(v, n), n);
    }

    /** A string as UTF-8 bytes in place. */
    public void utf8(byte[] b, int off, int len) {
        string(TextHash.of(b, off, len), len);
    }

    /** A string as UTF-8 bytes in a ByteBuffer, from position to limit. */
    public void utf8(ByteBuffer b) {
        string(TextHash.of(b), b.remaining());
    }

    private void string(long textHash, int bytes) {
        strings++;
        textBytes += bytes;
        value(step(textHash, 8));
    }

    public void beginArray() {
        push(false);
    }

    public void endArray() {
        int f = depth - 1;
        if (f < 0 || isObject[f]) {
            throw new IllegalStateException(
                    "jsonl sink: the end of an array " + (f < 0 ? "outside any" : "inside an object"));
        }
        long n = count[f];
        depth--;
        arrays++;
        elements += n;
        value(step(acc[f], n));
    }

    public void beginObject() {
        push(true);
    }

    /** The next member's key, held as a Java String. */
    public void key(String k) {
        int n = utf8Length(k);
        key(hashOf(k, n));
    }

    /** The next member's key as UTF-8 bytes in place. */
    public void keyUtf8(byte[] b, int off, int len) {
        key(TextHash.of(b, off, len));
    }

    private void key(long h) {
        int f = depth - 1;
        if (f < 0 || !isObject[f]) {
            throw new IllegalStateException("jsonl sink: a key " + (f < 0 ? "outside any object" : "inside an array"));
        }
        if (keyed[f]) {
            throw new IllegalStateException("jsonl sink: a key after a key with no value");
        }
        keyHash[f] = h;
        keyed[f] = true;
        if (keyTop == keys.length) {
            keys = Arrays.copyOf(keys, keys.length * 2);
        }
        keys[keyTop++] = h;
    }

    public void endObject() {
        int f = depth - 1;
        if (f < 0 || !isObject[f]) {
            throw new IllegalStateException(
                    "jsonl sink: the end of an object " + (f < 0 ? "outside any" : "inside an array"));
        }
        if (keyed[f]) {
            throw new IllegalStateException("jsonl sink: the end of an object after a key with no value");
        }
        long n = count[f];
        int from = keyStart[f];
        if (keyTop - from > 1) {
            Arrays.sort(keys, from, keyTop);
            for (int i = from + 1; i < keyTop; i++) {
                if (keys[i] == keys[i - 1]) {
                    duplicateKeys++;
                }
            }
        }
        keyTop = from;
        depth--;
        objects++;
        members += n;
        value(step(step(H_OBJECT, acc[f]), n));
    }

    private void push(boolean object) {
        if (depth == isObject.length) {
            int n = depth * 2;
            isObject = Arrays.copyOf(isObject, n);
            acc = Arrays.copyOf(acc, n);
            count = Arrays.copyOf(count, n);
            keyHash = Arrays.copyOf(keyHash, n);
            keyed = Arrays.copyOf(keyed, n);
            keyStart = Arrays.copyOf(keyStart, n);
        }
        int f = depth++;
        isObject[f] = object;
        acc[f] = object ? 0 : H_ARRAY;
        count[f] = 0;
        keyed[f] = false;
        keyStart[f] = keyTop;
    }

    /** The UTF-8 length of a String; a lone surrogate counts as the one byte '?' that String.getBytes writes for it. */
    static int utf8Length(String s) {
        int n = s.length(), bytes = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                if (c < 0x800) {
                    bytes++;
                } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    bytes += 2; // 4 bytes for 2 chars
                    i++;
                } else if (!Character.isSurrogate(c)) {
                    bytes += 2;
                }
            }
        }
        return bytes;
    }

    /** The text hash of a String of utf8 bytes in UTF-8, encoded into the scratch buffer unless it is ASCII. */
    private long hashOf(String s, int utf8) {
        int n = s.length();
        if (utf8 == n) {
            return TextHash.ofAscii(s);
        }
        if (scratch.length < utf8) {
            scratch = new byte[Math.max(utf8, scratch.length * 2)];
        }
        byte[] b = scratch;
        int at = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                b[at++] = (byte) c;
            } else if (c < 0x800) {
                b[at++] = (byte) (0xc0 | c >> 6);
                b[at++] = (byte) (0x80 | c & 0x3f);
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                b[at++] = (byte) (0xf0 | cp >> 18);
                b[at++] = (byte) (0x80 | cp >> 12 & 0x3f);
                b[at++] = (byte) (0x80 | cp >> 6 & 0x3f);
                b[at++] = (byte) (0x80 | cp & 0x3f);
            } else if (Character.isSurrogate(c)) {
                b[at++] = '?';
            } else {
                b[at++] = (byte) (0xe0 | c >> 12);
                b[at++] = (byte) (0x80 | c >> 6 & 0x3f);
                b[at++] = (byte) (0x80 | c & 0x3f);
            }
        }
        return TextHash.of(b, 0, at);
    }

    /** This sink's figures, to compare with a reference. */
    public Reference figures() {
        return new Reference(
                records,
                hash,
                nulls,
                booleans,
                integers,
                bigIntegers,
                hugeIntegers,
                floats,
                negativeZeros,
                integralFloats,
                strings,
                textBytes,
                arrays,
                elements,
                objects,
                members,
                duplicateKeys);
    }

    /**
     * How the decoded records differ from the reference, or null when they do
     * not: the first difference in the spec's order and words, with both figures.
     */
    public String firstDifference(Reference want) {
        return want.firstDifference(figures());
    }

    /** The reference aggregate of the dataset's header (or a sink's figures): every count, the hash, duplicate keys. */
    public record Reference(
            long records,
            long hash,
            long nulls,
            long booleans,
            long integers,
            long bigIntegers,
            long hugeIntegers,
            long floats,
            long negativeZeros,
            long integralFloats,
            long strings,
            long textBytes,
            long arrays,
            long elements,
            long objects,
            long members,
            long duplicateKeys) {

        /** The keys of the reference, in its order. */
        static final String[] KEYS = {
            "records",
            "hash",
            "nulls",
            "booleans",
            "integers",
            "big_integers",
            "huge_integers",
            "floats",
            "negative_zeros",
            "integral_floats",
            "strings",
            "text_bytes",
            "arrays",
            "elements",
            "objects",
            "members",
            "duplicate_keys"
        };

        /** Parses a header's reference: every key an integer from 0 to 2^64 - 1. */
        public static Reference parse(JsonNode ref) {
            if (ref == null || !ref.isObject()) {
                throw new IllegalArgumentException("the jsonl reference is not an object: " + ref);
            }
            long[] v = new long[KEYS.length];
            for (int i = 0; i < KEYS.length; i++) {
                JsonNode n = ref.get(KEYS[i]);
                if (n == null) {
                    throw new IllegalArgumentException("the jsonl reference has no " + KEYS[i]);
                }
                v[i] = Json.u64(n, KEYS[i]);
            }
            return new Reference(
                    v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14],
                    v[15], v[16]);
        }

        private static String figures(long want, long got) {
            return Long.toUnsignedString(want) + " in the input, " + Long.toUnsignedString(got) + " decoded";
        }

        /**
         * The first of got's figures that differs from these (the input's), in
         * docs/dataset-format.md's order and words: records; members (with the
         * input's duplicate keys); integers beyond 64 bits; integers beyond
         * ±2^53; -0.0; integers and floats together; each other count by name;
         * the hash. duplicate_keys is not compared.
         */
        public String firstDifference(Reference got) {
            if (records != got.records) {
                return "expected " + Long.toUnsignedString(records) + " records, decoded "
                        + Long.toUnsignedString(got.records);
            }
            if (members != got.members) {
                String why = duplicateKeys == 0
                        ? ""
                        : " (the input has " + Long.toUnsignedString(duplicateKeys) + " duplicate key"
                                + (duplicateKeys == 1 ? "" : "s") + ": the library keeps one value per key)";
                return "members: " + figures(members, got.members) + why;
            }
            if (hugeIntegers != got.hugeIntegers) {
                return "integers beyond 64 bits: " + figures(hugeIntegers, got.hugeIntegers);
            }
            if (bigIntegers != got.bigIntegers) {
                return "integers beyond ±2^53: " + figures(bigIntegers, got.bigIntegers);
            }
            if (negativeZeros != got.negativeZeros) {
                return "-0.0: " + figures(negativeZeros, got.negativeZeros);
            }
            if (integers != got.integers || floats != got.floats) {
                String both =
                        "integers: " + figures(integers, got.integers) + "; floats: " + figures(floats, got.floats);
                // Wrapping differences: what the integers lost is exactly what the floats gained, or the other way
                // round.
                long lost = integers - got.integers, gained = got.floats - floats;
                if (lost == gained && Long.compareUnsigned(got.integers, integers) < 0) {
                    return "integers read back as floats: " + both;
                }
                if (lost == gained && Long.compareUnsigned(got.floats, floats) < 0) {
                    return "floats with integral values read back as integers: " + both;
                }
                return both;
            }
            long[] w = {nulls, booleans, integralFloats, strings, textBytes, arrays, elements, objects};
            long[] g = {
                got.nulls,
                got.booleans,
                got.integralFloats,
                got.strings,
                got.textBytes,
                got.arrays,
                got.elements,
                got.objects
            };
            String[] names = {
                "nulls", "booleans", "integral_floats", "strings", "text_bytes", "arrays", "elements", "objects"
            };
            for (int i = 0; i < w.length; i++) {
                if (w[i] != g[i]) {
                    return names[i] + ": " + figures(w[i], g[i]);
                }
            }
            if (hash != got.hash) {
                return "a value changed: hash " + figures(hash, got.hash);
            }
            return null;
        }
    }
}
