package shootout.study.logs;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.Flushable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** One of the study's formats: how it wrote a data set's records into one file, and read them back. */
abstract class Format {
    private final String label;
    private final String slug;
    private final boolean keepsAbsence;

    Format(String label, String slug, boolean keepsAbsence) {
        this.label = label;
        this.slug = slug;
        this.keepsAbsence = keepsAbsence;
    }

    /** The row label in the figures, as the study's tables name the format. */
    public final String label() {
        return label;
    }

    /** The file name's part that tells the format (and its variant) apart. */
    final String slug() {
        return slug;
    }

    /**
     * Whether a record read back has absent fields absent. MessagePack and
     * Protobuf as the study wrote them have no absent field: each reads back
     * as the default written for it ({@link Kind#absent}).
     */
    final boolean keepsAbsence() {
        return keepsAbsence;
    }

    abstract RecordWriter writer(OutputStream out, DataSet set) throws IOException;

    abstract RecordReader reader(InputStream in, DataSet set) throws IOException;

    /** A format of the study's "Analyse de format" (every one but JSON). */
    interface FieldBytes {
        String label();

        /**
         * The bytes a field holding a 36-character UUID takes in a record, as
         * the study counts them: the field's own header (type, number or union
         * branch), its length and its text; not the record's framing, nor what
         * the stream writes once (schema, class descriptions).
         */
        int uuidFieldBytes(String uuid) throws IOException;
    }

    interface RecordWriter extends Closeable, Flushable {
        void write(Data d) throws IOException;

        /** A writer from its parts: how a record is written, what flushes the file and what closes it. */
        static RecordWriter of(Write write, Flushable flush, Closeable close) {
            return new RecordWriter() {
                @Override
                public void write(Data d) throws IOException {
                    write.write(d);
                }

                @Override
                public void flush() throws IOException {
                    flush.flush();
                }

                @Override
                public void close() throws IOException {
                    close.close();
                }
            };
        }
    }

    interface RecordReader extends Closeable {
        /** The next record, or null at the end. */
        Data next() throws IOException;

        /** A reader from its parts: how the next record is read, and what closes the file. */
        static RecordReader of(Next next, Closeable close) {
            return new RecordReader() {
                @Override
                public Data next() throws IOException {
                    return next.next();
                }

                @Override
                public void close() throws IOException {
                    close.close();
                }
            };
        }
    }

    interface Write {
        void write(Data d) throws IOException;
    }

    interface Next {
        Data next() throws IOException;
    }

    interface Encode {
        byte[] encode(Data d) throws IOException;
    }

    interface Decode {
        Data decode(byte[] record) throws IOException;
    }

    /** Each record behind its 4-byte big-endian length (the study's `ByteBuffer.allocate(4).putInt`), as it wrote Protobuf and Thrift. */
    static RecordWriter lengthPrefixed(OutputStream out, Encode encode) {
        DataOutputStream file = new DataOutputStream(new BufferedOutputStream(out));
        return RecordWriter.of(
                d -> {
                    byte[] record = encode.encode(d);
                    file.writeInt(record.length);
                    file.write(record);
                },
                file,
                file);
    }

    static RecordReader lengthPrefixed(InputStream in, Decode decode) {
        DataInputStream file = new DataInputStream(new BufferedInputStream(in));
        return RecordReader.of(
                () -> {
                    int first = file.read();
                    if (first < 0) {
                        return null;
                    }
                    byte[] record = new byte[first << 24 | file.readUnsignedByte() << 16 | file.readUnsignedShort()];
                    file.readFully(record);
                    return decode.decode(record);
                },
                file);
    }
}
