package shootout.formats.ubjson;

import com.devsmart.ubjson.UBArray;
import com.devsmart.ubjson.UBObject;
import com.devsmart.ubjson.UBReader;
import com.devsmart.ubjson.UBValue;
import com.devsmart.ubjson.UBValueFactory;
import com.devsmart.ubjson.UBWriter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.formats.model.ClassModel;
import shootout.formats.model.ModelCodec;
import shootout.workload.Workload;

/**
 * UBJSON through com.dev-smart:ubjson, a tree API (its writer takes objects
 * only as trees): each record becomes a UBObject (field names, typed arrays of
 * ints, longs, doubles and strings, nested objects, null cells) in serde's
 * shape (iex's body a one-entry object from the variant's name to its fields,
 * the side its name), written by UBWriter and read back by UBReader into a
 * tree that is then copied into the record. Integers take their smallest
 * type, as in Rust's crates/ubjson (the library prefers uint8 for 0 to 127,
 * Rust int8); a u64 above i64::MAX, which Rust writes as a high-precision
 * number, is int64 bits here.
 */
public final class UbjsonCodec<R, S> extends ModelCodec<R, S> {
    public static final Info INFO = new Info(
            "ubjson",
            "UBJSON",
            "com.dev-smart:ubjson",
            Labels.of(true, "owned", "validated", "reflection"),
            Framing.U32LE,
            "ubjson",
            "UBObject tree per record (field names; optimized typed arrays for int/long/double/string runs; serde's shape, iex's "
                    + "body a one-entry object {Trade: {...}}), UBWriter into the stream, UBReader back to a tree, then into the class; "
                    + "4-byte length prefix");

    private final Stream.Holder target = new Stream.Holder();
    private final UBWriter writer = new UBWriter(target);

    public UbjsonCodec(Workload<R, S> w) {
        super(w, Shape.SERDE);
    }

    @Override
    public void encode(Stream out, R r) throws Exception {
        target.stream = out;
        int at = out.reserve();
        writer.write(tree(modelled(r), model));
        out.seal(at);
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        ByteArrayInputStream in = new ByteArrayInputStream(buf, off + 4, n);
        UBValue v = new UBReader(in).read();
        if (in.available() != 0) {
            throw new IOException("ubjson: " + in.available() + " bytes left after the record");
        }
        if (v == null || !v.isObject()) {
            throw new IOException("ubjson: not an object");
        }
        feed(record(v.asObject(), model), sink);
        return n + 4;
    }

    public static UBObject tree(Object o, ClassModel m) throws IllegalAccessException {
        UBObject t = UBValueFactory.createObject();
        for (ClassModel.Slot s : m.slots) {
            Object v = s.field.get(o);
            UBValue u;
            if (v == null) {
                u = UBValueFactory.createNull();
            } else {
                u = switch (s.kind) {
                    case LONG, INT, BOXED_LONG, BOXED_INT -> UBValueFactory.createInt(((Number) v).longValue());
                    case DOUBLE, BOXED_DOUBLE -> UBValueFactory.createFloat64((Double) v);
                    case FLOAT, BOXED_FLOAT -> UBValueFactory.createFloat32((Float) v);
                    case BOOL -> UBValueFactory.createBool((Boolean) v);
                    case STRING -> UBValueFactory.createString((String) v);
                    case INTS -> UBValueFactory.createArray((int[]) v);
                    case LONGS -> UBValueFactory.createArray((long[]) v);
                    case DOUBLES -> UBValueFactory.createArray((double[]) v);
                    case BOOLS -> bools((boolean[]) v);
                    case STRINGS -> UBValueFactory.createArray((String[]) v);
                    case RECORDS -> {
                        Object[] a = (Object[]) v;
                        UBValue[] items = new UBValue[a.length];
                        for (int i = 0; i < a.length; i++) {
                            items[i] = tree(a[i], s.element);
                        }
                        yield UBValueFactory.createArray(items);
                    }
                    case UNION -> {
                        ClassModel variant = s.variantOf(v);
                        UBObject union = UBValueFactory.createObject();
                        union.put(variant.name, tree(v, variant));
                        yield union;
                    }
                    case ENUM -> UBValueFactory.createString(((Enum<?>) v).name());
                };
            }
            t.put(s.name, u);
        }
        return t;
    }

    public static Object record(UBObject t, ClassModel m) throws IOException, IllegalAccessException {
        Object o = m.newInstance();
        if (t.size() != m.slots.length) {
            throw new IOException("ubjson: " + t.size() + " fields, the record has " + m.slots.length);
        }
        for (ClassModel.Slot s : m.slots) {
            UBValue v = t.get(s.name);
            if (v == null) {
                throw new IOException("ubjson: no field " + s.name);
            }
            if (v.isNull()) {
                s.setNull(o, "ubjson");
                continue;
            }
            switch (s.kind) {
                case LONG -> s.field.setLong(o, number(v).asLong());
                case INT -> s.field.setInt(o, number(v).asInt());
                case DOUBLE -> s.field.setDouble(o, number(v).asFloat64());
                case FLOAT -> s.field.setFloat(o, number(v).asFloat32());
                case BOOL -> s.field.setBoolean(o, bool(v));
                case STRING -> s.field.set(o, string(v));
                case BOXED_LONG -> s.field.set(o, number(v).asLong());
                case BOXED_INT -> s.field.set(o, number(v).asInt());
                case BOXED_DOUBLE -> s.field.set(o, number(v).asFloat64());
                case BOXED_FLOAT -> s.field.set(o, number(v).asFloat32());
                case INTS -> s.field.set(o, ints(v));
                case LONGS -> s.field.set(o, longs(v));
                case DOUBLES -> s.field.set(o, doubles(v));
                case BOOLS -> s.field.set(o, bools(v));
                case STRINGS -> s.field.set(o, strings(v));
                case RECORDS -> {
                    UBArray a = array(v).asArray();
                    Object[] out = s.element.newArray(a.size());
                    for (int i = 0; i < out.length; i++) {
                        UBValue e = a.get(i);
                        if (!e.isObject()) {
                            throw new IOException("ubjson: " + s.name + "[" + i + "] is not an object");
                        }
                        out[i] = record(e.asObject(), s.element);
                    }
                    s.field.set(o, out);
                }
                case UNION -> s.field.set(o, variant(v, s));
                case ENUM -> s.field.set(o, s.constantNamed(string(v), "ubjson"));
                default -> throw new IllegalStateException(s.kind.toString());
            }
        }
        return o;
    }

    /** A union slot's value as serde writes it: an object of exactly one entry, the variant's name to its fields. */
    private static Object variant(UBValue v, ClassModel.Slot s) throws IOException, IllegalAccessException {
        if (!v.isObject()) {
            throw new IOException("ubjson: " + s.name + " is not an object");
        }
        UBObject union = v.asObject();
        if (union.size() != 1) {
            throw s.notOneVariant("ubjson", union.size() + " entries");
        }
        Map.Entry<String, UBValue> only = union.entrySet().iterator().next();
        ClassModel variant = s.variantNamed(only.getKey(), "ubjson");
        if (!only.getValue().isObject()) {
            throw new IOException("ubjson: " + s.name + "'s " + only.getKey() + " is not an object");
        }
        return record(only.getValue().asObject(), variant);
    }

    private static UBValue number(UBValue v) throws IOException {
        if (!v.isNumber()) {
            throw new IOException("ubjson: not a number");
        }
        return v;
    }

    private static boolean bool(UBValue v) throws IOException {
        if (!v.isBool()) {
            throw new IOException("ubjson: not a bool");
        }
        return v.asBool();
    }

    private static String string(UBValue v) throws IOException {
        if (!v.isString()) {
            throw new IOException("ubjson: not a string");
        }
        return v.asString();
    }

    /**
     * Booleans as an array of true/false values: the library's createArray(boolean[])
     * writes them as integers, which UBJSON readers (Rust's serde) do not take for booleans.
     */
    private static UBValue bools(boolean[] a) {
        UBValue[] items = new UBValue[a.length];
        for (int i = 0; i < a.length; i++) {
            items[i] = UBValueFactory.createBool(a[i]);
        }
        return UBValueFactory.createArray(items);
    }

    // An array this codec wrote is strongly typed (one type marker for all): the library's bulk getter reads it.
    // Any other (serde's, as Rust writes it: a marker per element, each integer in its smallest type) element by
    // element.

    private static int[] ints(UBValue v) throws IOException {
        UBArray a = array(v).asArray();
        if (a.getStrongType() == UBArray.ArrayType.Int32) {
            return a.asInt32Array();
        }
        int[] out = new int[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Math.toIntExact(integer(a.get(i)).asLong());
        }
        return out;
    }

    private static long[] longs(UBValue v) throws IOException {
        UBArray a = array(v).asArray();
        if (a.getStrongType() == UBArray.ArrayType.Int64) {
            return a.asInt64Array();
        }
        long[] out = new long[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = integer(a.get(i)).asLong();
        }
        return out;
    }

    private static double[] doubles(UBValue v) throws IOException {
        UBArray a = array(v).asArray();
        if (a.getStrongType() == UBArray.ArrayType.Float64) {
            return a.asFloat64Array();
        }
        double[] out = new double[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = number(a.get(i)).asFloat64();
        }
        return out;
    }

    private static boolean[] bools(UBValue v) throws IOException {
        UBArray a = array(v).asArray();
        boolean[] out = new boolean[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = bool(a.get(i));
        }
        return out;
    }

    private static String[] strings(UBValue v) throws IOException {
        UBArray a = array(v).asArray();
        if (a.getStrongType() == UBArray.ArrayType.String) {
            return a.asStringArray();
        }
        String[] out = new String[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = string(a.get(i));
        }
        return out;
    }

    private static UBValue integer(UBValue v) throws IOException {
        if (!v.isInteger()) {
            throw new IOException("ubjson: not an integer");
        }
        return v;
    }

    private static UBValue array(UBValue v) throws IOException {
        if (!v.isArray()) {
            throw new IOException("ubjson: not an array");
        }
        return v;
    }
}
