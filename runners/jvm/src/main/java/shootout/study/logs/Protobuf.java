package shootout.study.logs;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Protobuf with the study's schema (proto3; string, double, sint64, sint32,
 * and f11 a double), written by hand with protobuf-java's CodedOutputStream
 * to the bytes ScalaPB's generated code writes: a field only when it holds
 * other than its default, so an absent field reads back as the default the
 * study's code put in its place (`getOrElse(0)`). Each record is prefixed by
 * its 4-byte big-endian length, as the study did.
 */
final class Protobuf extends Format implements Format.FieldBytes {
    Protobuf() {
        super("Protobuf", "protobuf", false);
    }

    /** Whether proto3 writes the value: present and not its type's default. */
    private static boolean written(Kind kind, Object v) {
        return v != null && !v.equals(kind.absent);
    }

    private static int size(int number, Kind kind, Object v) {
        return switch (kind) {
            case STRING -> CodedOutputStream.computeStringSize(number, (String) v);
            case DOUBLE, FLOAT -> CodedOutputStream.computeDoubleSize(number, 0);
            case LONG -> CodedOutputStream.computeSInt64Size(number, (long) v);
            case INT -> CodedOutputStream.computeSInt32Size(number, (int) v);
        };
    }

    private static void write(CodedOutputStream out, int number, Kind kind, Object v) throws IOException {
        switch (kind) {
            case STRING -> out.writeString(number, (String) v);
            case DOUBLE -> out.writeDouble(number, (double) v);
            case FLOAT -> out.writeDouble(number, (float) v);
            case LONG -> out.writeSInt64(number, (long) v);
            case INT -> out.writeSInt32(number, (int) v);
        }
    }

    /** The record's message, sized first as generated code does. */
    static byte[] encode(Data d, DataSet set) throws IOException {
        int size = 0;
        for (int i = 0; i < DataSet.FIELDS; i++) {
            Object v = set.get(d, i);
            if (written(set.kinds[i], v)) {
                size += size(i + 1, set.kinds[i], v);
            }
        }
        byte[] message = new byte[size];
        CodedOutputStream out = CodedOutputStream.newInstance(message);
        for (int i = 0; i < DataSet.FIELDS; i++) {
            Object v = set.get(d, i);
            if (written(set.kinds[i], v)) {
                write(out, i + 1, set.kinds[i], v);
            }
        }
        out.checkNoSpaceLeft();
        return message;
    }

    static Data decode(byte[] message, DataSet set) throws IOException {
        Object[] values = new Object[DataSet.FIELDS];
        CodedInputStream in = CodedInputStream.newInstance(message);
        for (int tag; (tag = in.readTag()) != 0; ) {
            int i = WireFormat.getTagFieldNumber(tag) - 1;
            if (i < 0 || i >= DataSet.FIELDS) {
                in.skipField(tag);
                continue;
            }
            values[i] = switch (set.kinds[i]) {
                case STRING -> in.readString();
                case DOUBLE -> in.readDouble();
                case FLOAT -> (float) in.readDouble();
                case LONG -> in.readSInt64();
                case INT -> in.readSInt32();
            };
        }
        Data d = set.empty();
        for (int i = 0; i < DataSet.FIELDS; i++) {
            set.set(d, i, values[i] == null ? set.kinds[i].absent : values[i]);
        }
        return d;
    }

    @Override
    RecordWriter writer(OutputStream out, DataSet set) {
        return Format.lengthPrefixed(out, d -> encode(d, set));
    }

    @Override
    RecordReader reader(InputStream in, DataSet set) {
        return Format.lengthPrefixed(in, message -> decode(message, set));
    }

    /** A message holding only the UUID field: its tag, length and text. */
    @Override
    public int uuidFieldBytes(String uuid) throws IOException {
        return encode(DataSet.STRINGS.onlyFirst(uuid), DataSet.STRINGS).length;
    }
}
