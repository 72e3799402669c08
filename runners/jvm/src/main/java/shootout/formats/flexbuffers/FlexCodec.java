package shootout.formats.flexbuffers;

import com.google.flatbuffers.ArrayReadWriteBuf;
import com.google.flatbuffers.ByteBufferReadWriteBuf;
import com.google.flatbuffers.FlexBuffers;
import com.google.flatbuffers.FlexBuffersBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.formats.model.ClassModel;
import shootout.formats.model.ModelCodec;
import shootout.workload.Workload;

/**
 * FlexBuffers (in flatbuffers-java): each record a map of its field names,
 * runs of numbers as typed vectors, strings and nested records as untyped
 * vectors, absent cells left out of the map, in serde's shape as Rust's
 * flexbuffers crate writes it: iex's body a one-entry map from the variant's
 * name to its fields, the side its name. Every integer is an Int, through
 * the builder's public keyed putInt: FlexBuffersBuilder has no public keyed
 * unsigned put (its putUInt and putUInt64 with a key are private), so Rust's
 * unsigned fields are written as Ints where Rust writes UInts; Rust's iex
 * reader takes either, as serde does (see runners/jvm/README.md). Read in place through
 * FlexBuffers.getRoot on a view of the stream (no copy), each value copied
 * out into the record. The builder shares keys and is reused; a FlexBuffer's
 * root is at its end, so records are length-prefixed.
 */
public final class FlexCodec<R, S> extends ModelCodec<R, S> {
    public static final Info INFO = new Info(
            "flexbuffers",
            "FlexBuffers",
            "com.google.flatbuffers:flatbuffers-java",
            Labels.of(true, "owned", "unchecked", "reflection"),
            Framing.U32LE,
            "flexbuffers",
            "FlexBuffersBuilder (shared keys, reused) over the record class's fields: a map per record, typed vectors for number "
                    + "runs, absent cells omitted; serde's shape (iex: the body a one-entry map {Trade: {...}}); every integer an Int "
                    + "through the public keyed putInt (the builder has no public keyed unsigned put, so Rust's u64/u32/u8 "
                    + "fields are Ints where Rust writes UInts); read through getRoot on a view of the stream without a "
                    + "verifier (Java's FlexBuffers has none; bounds come from ByteBuffer checks); 4-byte length prefix");

    private final FlexBuffersBuilder builder =
            new FlexBuffersBuilder(new ArrayReadWriteBuf(1 << 12), FlexBuffersBuilder.BUILDER_FLAG_SHARE_KEYS);

    public FlexCodec(Workload<R, S> w) {
        super(w, Shape.SERDE);
    }

    @Override
    public void encode(Stream out, R r) throws Exception {
        builder.clear();
        int start = builder.startMap();
        write(builder, modelled(r), model);
        builder.endMap(null, start);
        ByteBuffer b = builder.finish();
        out.putIntLE(b.remaining());
        out.write(b);
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        if (n < 3) {
            throw new IOException("flexbuffers: " + n + " bytes is no buffer");
        }
        FlexBuffers.Reference root = FlexBuffers.getRoot(
                new ByteBufferReadWriteBuf(ByteBuffer.wrap(buf, off + 4, n).slice()));
        if (!root.isMap()) {
            throw new IOException("flexbuffers: the root is not a map");
        }
        feed(read(root.asMap(), model, n), sink);
        return n + 4;
    }

    public static void write(FlexBuffersBuilder b, Object o, ClassModel m) throws IllegalAccessException {
        for (ClassModel.Slot s : m.slots) {
            String k = s.name;
            Object v = s.field.get(o);
            if (v == null) {
                continue;
            }
            switch (s.kind) {
                case LONG, INT, BOXED_LONG, BOXED_INT -> b.putInt(k, ((Number) v).longValue());
                case DOUBLE, BOXED_DOUBLE -> b.putFloat(k, (double) (Double) v);
                case FLOAT, BOXED_FLOAT -> b.putFloat(k, (float) (Float) v);
                case BOOL -> b.putBoolean(k, (Boolean) v);
                case STRING -> b.putString(k, (String) v);
                case INTS, LONGS, DOUBLES, BOOLS -> {
                    int st = b.startVector();
                    int n = putElements(b, s.kind, v);
                    // An empty typed vector does not read back as a vector (its element type is unknown): untyped then.
                    b.endVector(k, st, n > 0, false);
                }
                case STRINGS -> {
                    int st = b.startVector();
                    for (String x : (String[]) v) {
                        b.putString(x);
                    }
                    b.endVector(k, st, false, false);
                }
                case RECORDS -> {
                    int st = b.startVector();
                    for (Object e : (Object[]) v) {
                        int ms = b.startMap();
                        write(b, e, s.element);
                        b.endMap(null, ms);
                    }
                    b.endVector(k, st, false, false);
                }
                case UNION -> {
                    ClassModel variant = s.variantOf(v);
                    int union = b.startMap();
                    int fields = b.startMap();
                    write(b, v, variant);
                    b.endMap(variant.name, fields);
                    b.endMap(k, union);
                }
                case ENUM -> b.putString(k, ((Enum<?>) v).name());
                default -> throw new IllegalStateException(s.kind.toString());
            }
        }
    }

    /** Puts the elements of a primitive array slot's value into the open vector; returns how many. */
    private static int putElements(FlexBuffersBuilder b, ClassModel.Kind kind, Object array) {
        switch (kind) {
            case INTS -> {
                for (int x : (int[]) array) {
                    b.putInt(x);
                }
            }
            case LONGS -> {
                for (long x : (long[]) array) {
                    b.putInt(x);
                }
            }
            case DOUBLES -> {
                for (double x : (double[]) array) {
                    b.putFloat(x);
                }
            }
            case BOOLS -> {
                for (boolean x : (boolean[]) array) {
                    b.putBoolean(x);
                }
            }
            default -> throw new IllegalStateException(kind + " is not a primitive array");
        }
        return java.lang.reflect.Array.getLength(array);
    }

    public static Object read(FlexBuffers.Map map, ClassModel m, int left) throws IOException, IllegalAccessException {
        Object o = m.newInstance();
        for (ClassModel.Slot s : m.slots) {
            FlexBuffers.Reference v = map.get(s.name);
            if (v.isNull()) {
                s.setNull(o, "flexbuffers");
                continue;
            }
            switch (s.kind) {
                case LONG -> s.field.setLong(o, num(v).asLong());
                case INT -> s.field.setInt(o, Math.toIntExact(num(v).asLong()));
                case DOUBLE -> s.field.setDouble(o, flt(v).asFloat());
                case FLOAT -> s.field.setFloat(o, (float) flt(v).asFloat());
                case BOOL -> s.field.setBoolean(o, v.asBoolean());
                case STRING -> s.field.set(o, str(v));
                case BOXED_LONG -> s.field.set(o, num(v).asLong());
                case BOXED_INT -> s.field.set(o, Math.toIntExact(num(v).asLong()));
                case BOXED_DOUBLE -> s.field.set(o, flt(v).asFloat());
                case BOXED_FLOAT -> s.field.set(o, (float) flt(v).asFloat());
                case INTS -> {
                    FlexBuffers.Vector a = vec(v, left);
                    int[] out = new int[a.size()];
                    for (int i = 0; i < out.length; i++) {
                        out[i] = Math.toIntExact(a.get(i).asLong());
                    }
                    s.field.set(o, out);
                }
                case LONGS -> {
                    FlexBuffers.Vector a = vec(v, left);
                    long[] out = new long[a.size()];
                    for (int i = 0; i < out.length; i++) {
                        out[i] = a.get(i).asLong();
                    }
                    s.field.set(o, out);
                }
                case DOUBLES -> {
                    FlexBuffers.Vector a = vec(v, left);
                    double[] out = new double[a.size()];
                    for (int i = 0; i < out.length; i++) {
                        out[i] = a.get(i).asFloat();
                    }
                    s.field.set(o, out);
                }
                case BOOLS -> {
                    FlexBuffers.Vector a = vec(v, left);
                    boolean[] out = new boolean[a.size()];
                    for (int i = 0; i < out.length; i++) {
                        out[i] = a.get(i).asBoolean();
                    }
                    s.field.set(o, out);
                }
                case STRINGS -> {
                    FlexBuffers.Vector a = vec(v, left);
                    String[] out = new String[a.size()];
                    for (int i = 0; i < out.length; i++) {
                        out[i] = str(a.get(i));
                    }
                    s.field.set(o, out);
                }
                case RECORDS -> {
                    FlexBuffers.Vector a = vec(v, left);
                    Object[] out = s.element.newArray(a.size());
                    for (int i = 0; i < out.length; i++) {
                        FlexBuffers.Reference e = a.get(i);
                        if (!e.isMap()) {
                            throw new IOException("flexbuffers: " + s.name + "[" + i + "] is not a map");
                        }
                        out[i] = read(e.asMap(), s.element, left);
                    }
                    s.field.set(o, out);
                }
                case UNION -> s.field.set(o, variant(v, s, left));
                case ENUM -> s.field.set(o, s.constantNamed(str(v), "flexbuffers"));
                default -> throw new IllegalStateException(s.kind.toString());
            }
        }
        return o;
    }

    /** A union slot's value as serde writes it: a map of exactly one entry, the variant's name to its fields. */
    private static Object variant(FlexBuffers.Reference v, ClassModel.Slot s, int left)
            throws IOException, IllegalAccessException {
        if (!v.isMap()) {
            throw new IOException("flexbuffers: " + s.name + " is not a map");
        }
        FlexBuffers.Map union = v.asMap();
        if (union.size() != 1) {
            throw s.notOneVariant("flexbuffers", union.size() + " entries");
        }
        String name = union.keys().get(0).toString();
        ClassModel variant = s.variantNamed(name, "flexbuffers");
        FlexBuffers.Reference fields = union.get(0);
        if (!fields.isMap()) {
            throw new IOException("flexbuffers: " + s.name + "'s " + name + " is not a map");
        }
        return read(fields.asMap(), variant, left);
    }

    private static FlexBuffers.Reference num(FlexBuffers.Reference v) throws IOException {
        if (!v.isIntOrUInt()) {
            throw new IOException("flexbuffers: not an integer");
        }
        return v;
    }

    private static FlexBuffers.Reference flt(FlexBuffers.Reference v) throws IOException {
        if (!v.isFloat()) {
            throw new IOException("flexbuffers: not a float");
        }
        return v;
    }

    private static String str(FlexBuffers.Reference v) throws IOException {
        if (!v.isString()) {
            throw new IOException("flexbuffers: not a string");
        }
        return v.asString();
    }

    private static FlexBuffers.Vector vec(FlexBuffers.Reference v, int left) throws IOException {
        if (!v.isVector() && !v.isTypedVector()) {
            throw new IOException("flexbuffers: not a vector");
        }
        FlexBuffers.Vector a = v.asVector();
        ClassModel.checkLength(a.size(), left);
        return a;
    }
}
