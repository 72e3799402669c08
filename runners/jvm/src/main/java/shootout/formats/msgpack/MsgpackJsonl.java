package shootout.formats.msgpack;

import java.io.IOException;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.core.buffer.ArrayBufferInput;
import org.msgpack.value.ImmutableValue;
import org.msgpack.value.IntegerValue;
import org.msgpack.value.MapValue;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;
import shootout.codec.Stream;
import shootout.formats.jsonl.JsonlCodec;
import shootout.formats.model.ClassModel;
import shootout.workload.JsonValue;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;

/**
 * The jsonl workload through msgpack-core's own value model (Value, made by
 * ValueFactory): each record's Value made once from its canonical value (a
 * map keeps every key-value pair in order, duplicates included; integers as
 * IntegerValue, from a long or, beyond it, a BigInteger; floats as float64),
 * written by its writeTo into a reused packer (smallest integer encodings;
 * the packer refuses an integer beyond 64 bits, a per-record encode error),
 * read back by the unpacker into a Value as unpackValue does, but with each
 * string, array and map length checked against the bytes left first (so a
 * corrupt length cannot ask for a huge array), and walked into the sink.
 * MessagePack values delimit themselves: no length prefix.
 */
public final class MsgpackJsonl extends JsonlCodec<Value> {
    /** msgpack-core's Value of a record. */
    public static final JsonlRecord.Model<Value> VALUE =
            new JsonlRecord.Model<>("msgpack-core Value", MsgpackJsonl::value);

    public static final String NOTES =
            "on jsonl: msgpack-core's own Value model, not the record class's fields: each record an "
                    + "ImmutableValue made once by ValueFactory (maps keep every pair, duplicate keys included; IntegerValue from a long or a "
                    + "BigInteger; floats as float64), written by Value.writeTo into a reused packer (an integer beyond 64 bits is the "
                    + "packer's error), read back into a Value as unpackValue does, each length checked against the bytes left, then walked "
                    + "into the aggregate; self-delimiting, no length prefix";

    private final Stream.Holder target = new Stream.Holder();
    private final MessagePacker packer = MessagePack.newDefaultPacker(target);
    private final ArrayBufferInput input = new ArrayBufferInput(new byte[0]);
    private final MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(input);

    public MsgpackJsonl() {
        super(VALUE);
    }

    static Value value(JsonValue v) {
        return switch (v.kind) {
            case NULL -> ValueFactory.newNil();
            case FALSE -> ValueFactory.newBoolean(false);
            case TRUE -> ValueFactory.newBoolean(true);
            case INT -> ValueFactory.newInteger(v.longValue());
            case U64, BIG -> ValueFactory.newInteger(v.bigIntegerValue());
            case FLOAT -> ValueFactory.newFloat(v.doubleValue());
            case STRING -> ValueFactory.newString(v.stringValue());
            case ARRAY -> {
                Value[] a = new Value[v.size()];
                for (int i = 0; i < a.length; i++) {
                    a[i] = value(v.get(i));
                }
                yield ValueFactory.newArray(a, true);
            }
            case OBJECT -> {
                Value[] kv = new Value[v.size() * 2];
                for (int i = 0; i < v.size(); i++) {
                    kv[2 * i] = ValueFactory.newString(v.key(i));
                    kv[2 * i + 1] = value(v.get(i));
                }
                yield ValueFactory.newMap(kv, true);
            }
        };
    }

    @Override
    protected void write(Stream out, Value v) throws IOException {
        target.stream = out;
        v.writeTo(packer);
        packer.flush();
    }

    @Override
    public int decode(byte[] buf, int off, int end, JsonlSink sink) throws Exception {
        input.reset(buf, off, end - off);
        unpacker.reset(input);
        walk(read(unpacker, end - off), sink);
        return (int) unpacker.getTotalReadBytes();
    }

    /** unpackValue's reading of one value, but each string, array and map length checked against the bytes left. */
    static ImmutableValue read(MessageUnpacker u, int left) throws IOException {
        switch (u.getNextFormat().getValueType()) {
            case STRING: {
                int n = ClassModel.checkLength(u.unpackRawStringHeader(), left);
                return ValueFactory.newString(u.readPayload(n), true);
            }
            case ARRAY: {
                Value[] a = new Value[ClassModel.checkLength(u.unpackArrayHeader(), left)];
                for (int i = 0; i < a.length; i++) {
                    a[i] = read(u, left);
                }
                return ValueFactory.newArray(a, true);
            }
            case MAP: {
                Value[] kv = new Value[2 * ClassModel.checkLength(u.unpackMapHeader(), left / 2)];
                for (int i = 0; i < kv.length; i++) {
                    kv[i] = read(u, left);
                }
                return ValueFactory.newMap(kv, true);
            }
            case BINARY:
            case EXTENSION:
                throw new IOException("msgpack: a " + u.getNextFormat().getValueType() + " is not a JSON value");
            default:
                return u.unpackValue(); // nil, boolean, integer, float: no length
        }
    }

    /** Walks a Value into the sink, depth first. */
    static void walk(Value v, JsonlSink s) throws IOException {
        switch (v.getValueType()) {
            case NIL -> s.nullValue();
            case BOOLEAN -> s.bool(v.asBooleanValue().getBoolean());
            case INTEGER -> {
                IntegerValue i = v.asIntegerValue();
                if (i.isInLongRange()) {
                    s.i64(i.toLong());
                } else {
                    s.bigInteger(i.toBigInteger());
                }
            }
            case FLOAT -> s.f64(v.asFloatValue().toDouble());
            case STRING -> {
                byte[] b = v.asStringValue().asByteArray();
                s.utf8(b, 0, b.length);
            }
            case ARRAY -> {
                s.beginArray();
                for (Value e : v.asArrayValue()) {
                    walk(e, s);
                }
                s.endArray();
            }
            case MAP -> {
                MapValue m = v.asMapValue();
                Value[] kv = m.getKeyValueArray();
                s.beginObject();
                for (int i = 0; i < kv.length; i += 2) {
                    if (!kv[i].isStringValue()) {
                        throw new IOException("msgpack: a map key that is not a string: " + kv[i].getValueType());
                    }
                    byte[] k = kv[i].asStringValue().asByteArray();
                    s.keyUtf8(k, 0, k.length);
                    walk(kv[i + 1], s);
                }
                s.endObject();
            }
            default -> throw new IOException("msgpack: a " + v.getValueType() + " is not a JSON value");
        }
    }
}
