package shootout.study.logs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;

/**
 * Thrift, binary or compact protocol, with the study's schema (every field
 * `optional`: string, double, i64, i32, and f11 a double), written through
 * libthrift's TProtocol by hand as Scrooge's generated code writes it: a
 * field only when present. Each record goes into a new TMemoryBuffer(64) and
 * out behind its 4-byte big-endian length.
 *
 * <p>As the study's code did ({@link #asStudyWrote}), what goes out is
 * `buffer.getArray`: the buffer's whole backing array, whose length is its
 * capacity (64, doubled as it fills), not the bytes written; the rest is
 * zeros, which the reader skips, as the record ends at its STOP field.
 * Otherwise, the bytes written and no more.
 */
final class Thrift extends Format implements Format.FieldBytes {
    /** Scrooge's TField constants: name, type, number. */
    private final Map<DataSet, TField[]> fields = new EnumMap<>(DataSet.class);

    private final boolean asStudyWrote;
    private final TProtocolFactory protocols;

    private Thrift(boolean compact, boolean asStudyWrote) {
        super(
                compact ? "Thrift compact" : "Thrift binary",
                (compact ? "thrift-compact" : "thrift-binary") + (asStudyWrote ? "-backing-array" : ""),
                true);
        this.asStudyWrote = asStudyWrote;
        this.protocols = compact ? new TCompactProtocol.Factory() : new TBinaryProtocol.Factory();
        for (DataSet set : DataSet.values()) {
            TField[] f = new TField[DataSet.FIELDS];
            for (int i = 0; i < DataSet.FIELDS; i++) {
                byte type = switch (set.kinds[i]) {
                    case STRING -> TType.STRING;
                    case DOUBLE, FLOAT -> TType.DOUBLE;
                    case LONG -> TType.I64;
                    case INT -> TType.I32;
                };
                f[i] = new TField("f" + (i + 1), type, (short) (i + 1));
            }
            fields.put(set, f);
        }
    }

    static Thrift asStudyWrote(boolean compact) {
        return new Thrift(compact, true);
    }

    static Thrift exact(boolean compact) {
        return new Thrift(compact, false);
    }

    /** The record into a new TMemoryBuffer(64), as the study's code wrote it. */
    TMemoryBuffer encode(Data d, DataSet set) throws IOException {
        try {
            TMemoryBuffer buffer = new TMemoryBuffer(64);
            TProtocol p = protocols.getProtocol(buffer);
            p.writeStructBegin(new TStruct(set.recordName));
            TField[] f = fields.get(set);
            for (int i = 0; i < DataSet.FIELDS; i++) {
                Object v = set.get(d, i);
                if (v == null) {
                    continue;
                }
                p.writeFieldBegin(f[i]);
                switch (set.kinds[i]) {
                    case STRING -> p.writeString((String) v);
                    case DOUBLE -> p.writeDouble((double) v);
                    case FLOAT -> p.writeDouble((float) v);
                    case LONG -> p.writeI64((long) v);
                    case INT -> p.writeI32((int) v);
                }
                p.writeFieldEnd();
            }
            p.writeFieldStop();
            p.writeStructEnd();
            return buffer;
        } catch (TException e) {
            throw new IOException(e);
        }
    }

    Data decode(byte[] record, DataSet set) throws IOException {
        try {
            TProtocol p = protocols.getProtocol(new TMemoryInputTransport(record));
            TField[] f = fields.get(set);
            Data d = set.empty();
            p.readStructBegin();
            for (TField field = p.readFieldBegin(); field.type != TType.STOP; field = p.readFieldBegin()) {
                int i = field.id - 1;
                if (i < 0 || i >= DataSet.FIELDS || field.type != f[i].type) {
                    TProtocolUtil.skip(p, field.type);
                } else {
                    set.set(
                            d,
                            i,
                            switch (set.kinds[i]) {
                                case STRING -> p.readString();
                                case DOUBLE -> p.readDouble();
                                case FLOAT -> (float) p.readDouble();
                                case LONG -> p.readI64();
                                case INT -> p.readI32();
                            });
                }
                p.readFieldEnd();
            }
            p.readStructEnd();
            return d;
        } catch (TException e) {
            throw new IOException(e);
        }
    }

    @Override
    RecordWriter writer(OutputStream out, DataSet set) {
        return Format.lengthPrefixed(out, d -> {
            TMemoryBuffer buffer = encode(d, set);
            return asStudyWrote ? buffer.getArray() : Arrays.copyOf(buffer.getArray(), buffer.length());
        });
    }

    @Override
    RecordReader reader(InputStream in, DataSet set) {
        return Format.lengthPrefixed(in, record -> decode(record, set));
    }

    /** A struct holding only the UUID field, less the struct holding none (its STOP byte). */
    @Override
    public int uuidFieldBytes(String uuid) throws IOException {
        return encode(DataSet.STRINGS.onlyFirst(uuid), DataSet.STRINGS).length()
                - encode(DataSet.STRINGS.empty(), DataSet.STRINGS).length();
    }
}
