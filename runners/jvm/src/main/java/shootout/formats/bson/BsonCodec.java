package shootout.formats.bson;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinaryWriter;
import org.bson.BsonType;
import org.bson.io.BasicOutputBuffer;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.formats.model.ClassModel;
import shootout.formats.model.ModelCodec;
import shootout.workload.Workload;

/**
 * BSON through the driver's BsonBinaryWriter and BsonBinaryReader (org.mongodb:bson):
 * each record one document with its field names, arrays as BSON arrays, nested
 * records as documents, absent cells as null, in serde's shape as Rust's bson
 * crate writes it: iex's body a one-entry document from the variant's name to
 * its fields, the side its name. BSON has int32, int64 and double only: u8 and
 * i32 fields are int32, u32 (iex's size, a long here) int64, a float32 is
 * widened to a double and narrowed back (exactly), u64 travel as int64 bits
 * (Rust's bson writes those that fit int64 the same and refuses the others).
 * A document starts with its own length: no extra prefix.
 */
public final class BsonCodec<R, S> extends ModelCodec<R, S> {
    public static final Info INFO = new Info(
            "bson",
            "BSON",
            "org.mongodb:bson",
            Labels.of(true, "owned", "validated", "reflection"),
            Framing.NONE,
            "bson",
            "BsonBinaryWriter/BsonBinaryReader over the record class's fields (a field model walked by reflection), one document "
                    + "per record with field names, in serde's shape (iex: the body a one-entry document {Trade: {...}}, the side "
                    + "by name); f32 as double, u64 as int64 bits; the document's own length frames it");

    private final BasicOutputBuffer buffer = new BasicOutputBuffer(1 << 12);

    public BsonCodec(Workload<R, S> w) {
        super(w, Shape.SERDE);
    }

    @Override
    public void encode(Stream out, R r) throws Exception {
        buffer.truncateToPosition(0);
        try (BsonBinaryWriter w = new BsonBinaryWriter(buffer)) {
            w.writeStartDocument();
            write(w, modelled(r), model);
            w.writeEndDocument();
        }
        out.write(buffer.getInternalBuffer(), 0, buffer.getPosition());
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        if (end - off < 5) {
            throw new IOException("bson: " + (end - off) + " bytes left, a document takes 5 at least");
        }
        int n = Stream.getIntLE(buf, off);
        if (n < 5 || n > end - off) {
            throw new IOException("bson: document length " + n + " with " + (end - off) + " bytes left");
        }
        try (BsonBinaryReader r =
                new BsonBinaryReader(ByteBuffer.wrap(buf, off, n).slice())) {
            r.readStartDocument();
            Object o = read(r, model);
            r.readEndDocument();
            feed(o, sink);
        }
        return n;
    }

    public static void write(BsonBinaryWriter w, Object o, ClassModel m) throws IllegalAccessException {
        for (ClassModel.Slot s : m.slots) {
            String k = s.name;
            Object v;
            switch (s.kind) {
                case LONG -> w.writeInt64(k, s.field.getLong(o));
                case INT -> w.writeInt32(k, s.field.getInt(o));
                case DOUBLE -> w.writeDouble(k, s.field.getDouble(o));
                case FLOAT -> w.writeDouble(k, s.field.getFloat(o));
                case BOOL -> w.writeBoolean(k, s.field.getBoolean(o));
                case STRING -> {
                    v = s.field.get(o);
                    if (v == null) {
                        w.writeNull(k);
                    } else {
                        w.writeString(k, (String) v);
                    }
                }
                case BOXED_LONG, BOXED_INT, BOXED_DOUBLE, BOXED_FLOAT -> {
                    v = s.field.get(o);
                    if (v == null) {
                        w.writeNull(k);
                    } else if (v instanceof Long l) {
                        w.writeInt64(k, l);
                    } else if (v instanceof Integer i) {
                        w.writeInt32(k, i);
                    } else {
                        w.writeDouble(k, ((Number) v).doubleValue());
                    }
                }
                case INTS -> {
                    w.writeStartArray(k);
                    for (int x : (int[]) s.field.get(o)) {
                        w.writeInt32(x);
                    }
                    w.writeEndArray();
                }
                case LONGS -> {
                    w.writeStartArray(k);
                    for (long x : (long[]) s.field.get(o)) {
                        w.writeInt64(x);
                    }
                    w.writeEndArray();
                }
                case DOUBLES -> {
                    w.writeStartArray(k);
                    for (double x : (double[]) s.field.get(o)) {
                        w.writeDouble(x);
                    }
                    w.writeEndArray();
                }
                case BOOLS -> {
                    w.writeStartArray(k);
                    for (boolean x : (boolean[]) s.field.get(o)) {
                        w.writeBoolean(x);
                    }
                    w.writeEndArray();
                }
                case STRINGS -> {
                    w.writeStartArray(k);
                    for (String x : (String[]) s.field.get(o)) {
                        w.writeString(x);
                    }
                    w.writeEndArray();
                }
                case RECORDS -> {
                    w.writeStartArray(k);
                    for (Object e : (Object[]) s.field.get(o)) {
                        w.writeStartDocument();
                        write(w, e, s.element);
                        w.writeEndDocument();
                    }
                    w.writeEndArray();
                }
                case UNION -> {
                    v = s.field.get(o);
                    ClassModel variant = s.variantOf(v);
                    w.writeStartDocument(k);
                    w.writeStartDocument(variant.name);
                    write(w, v, variant);
                    w.writeEndDocument();
                    w.writeEndDocument();
                }
                case ENUM -> w.writeString(k, ((Enum<?>) s.field.get(o)).name());
                default -> throw new IllegalStateException(s.kind.toString());
            }
        }
    }

    public static Object read(BsonBinaryReader r, ClassModel m) throws IOException, IllegalAccessException {
        Object o = m.newInstance();
        int seen = 0;
        while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
            String name = r.readName();
            int i = m.index(name);
            if (i < 0) {
                throw new IOException("bson: unknown field " + name);
            }
            seen++;
            ClassModel.Slot s = m.slots[i];
            if (r.getCurrentBsonType() == BsonType.NULL) {
                r.readNull();
                s.setNull(o, "bson");
                continue;
            }
            switch (s.kind) {
                case LONG -> s.field.setLong(o, r.readInt64());
                case INT -> s.field.setInt(o, r.readInt32());
                case DOUBLE -> s.field.setDouble(o, r.readDouble());
                case FLOAT -> s.field.setFloat(o, (float) r.readDouble());
                case BOOL -> s.field.setBoolean(o, r.readBoolean());
                case STRING -> s.field.set(o, r.readString());
                case BOXED_LONG -> s.field.set(o, r.readInt64());
                case BOXED_INT -> s.field.set(o, r.readInt32());
                case BOXED_DOUBLE -> s.field.set(o, r.readDouble());
                case BOXED_FLOAT -> s.field.set(o, (float) r.readDouble());
                case INTS -> {
                    int[] a = new int[8];
                    int n = 0;
                    r.readStartArray();
                    while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                        a = n == a.length ? java.util.Arrays.copyOf(a, n * 2) : a;
                        a[n++] = r.readInt32();
                    }
                    r.readEndArray();
                    s.field.set(o, java.util.Arrays.copyOf(a, n));
                }
                case LONGS -> {
                    long[] a = new long[8];
                    int n = 0;
                    r.readStartArray();
                    while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                        a = n == a.length ? java.util.Arrays.copyOf(a, n * 2) : a;
                        a[n++] = r.readInt64();
                    }
                    r.readEndArray();
                    s.field.set(o, java.util.Arrays.copyOf(a, n));
                }
                case DOUBLES -> {
                    double[] a = new double[8];
                    int n = 0;
                    r.readStartArray();
                    while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                        a = n == a.length ? java.util.Arrays.copyOf(a, n * 2) : a;
                        a[n++] = r.readDouble();
                    }
                    r.readEndArray();
                    s.field.set(o, java.util.Arrays.copyOf(a, n));
                }
                case BOOLS -> {
                    boolean[] a = new boolean[8];
                    int n = 0;
                    r.readStartArray();
                    while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                        a = n == a.length ? java.util.Arrays.copyOf(a, n * 2) : a;
                        a[n++] = r.readBoolean();
                    }
                    r.readEndArray();
                    s.field.set(o, java.util.Arrays.copyOf(a, n));
                }
                case STRINGS -> {
                    java.util.ArrayList<String> a = new java.util.ArrayList<>();
                    r.readStartArray();
                    while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                        a.add(r.readString());
                    }
                    r.readEndArray();
                    s.field.set(o, a.toArray(new String[0]));
                }
                case RECORDS -> {
                    java.util.ArrayList<Object> a = new java.util.ArrayList<>();
                    r.readStartArray();
                    while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                        r.readStartDocument();
                        a.add(read(r, s.element));
                        r.readEndDocument();
                    }
                    r.readEndArray();
                    s.field.set(o, a.toArray(s.element.newArray(0)));
                }
                case UNION -> s.field.set(o, readVariant(r, s));
                case ENUM -> s.field.set(o, s.constantNamed(r.readString(), "bson"));
                default -> throw new IllegalStateException(s.kind.toString());
            }
        }
        if (seen != m.slots.length) {
            throw new IOException("bson: " + seen + " of " + m.slots.length + " fields");
        }
        return o;
    }

    /** A union slot's value as serde writes it: a document of exactly one entry, the variant's name to its fields. */
    private static Object readVariant(BsonBinaryReader r, ClassModel.Slot s)
            throws IOException, IllegalAccessException {
        r.readStartDocument();
        if (r.readBsonType() == BsonType.END_OF_DOCUMENT) {
            throw s.notOneVariant("bson", "no entry");
        }
        ClassModel variant = s.variantNamed(r.readName(), "bson");
        r.readStartDocument();
        Object v = read(r, variant);
        r.readEndDocument();
        if (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
            throw s.notOneVariant("bson", "more than one entry");
        }
        r.readEndDocument();
        return v;
    }
}
