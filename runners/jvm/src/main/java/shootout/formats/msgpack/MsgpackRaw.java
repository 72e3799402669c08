package shootout.formats.msgpack;

import java.io.IOException;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.core.buffer.ArrayBufferInput;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.formats.model.ClassModel;
import shootout.formats.model.ModelCodec;
import shootout.workload.Workload;

/**
 * msgpack-core's packer and unpacker, value by value, as the IEP-75 study
 * wrote MessagePack "raw": a record is its fields one after another (no
 * record header, no names), arrays as an array header and their elements,
 * nested records as an array header and each one's fields, absent cells as
 * nil. MessagePack values delimit themselves: no length prefix, so the
 * study's SQL request is 54 bytes here as there.
 */
public final class MsgpackRaw<R, S> extends ModelCodec<R, S> {
    public static final Info INFO = new Info(
            "msgpack-raw",
            "MessagePack",
            "org.msgpack:msgpack-core",
            Labels.of(true, "owned", "validated", "reflection"),
            Framing.NONE,
            "msgpack-fields",
            "MessagePacker/MessageUnpacker value by value over the record class's fields (a field model walked by reflection): "
                    + "fields in sequence without names or a record header, smallest integer encodings, u64 as int64 bits; "
                    + "self-delimiting, no length prefix");

    private final Stream.Holder target = new Stream.Holder();
    private final MessagePacker packer = MessagePack.newDefaultPacker(target);
    private final ArrayBufferInput input = new ArrayBufferInput(new byte[0]);
    private final MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(input);

    public MsgpackRaw(Workload<R, S> w) {
        super(w);
    }

    @Override
    public void encode(Stream out, R r) throws Exception {
        target.stream = out;
        write(packer, r, model);
        packer.flush();
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        input.reset(buf, off, end - off);
        unpacker.reset(input);
        feed(read(unpacker, model, end - off), sink);
        return (int) unpacker.getTotalReadBytes();
    }

    public static void write(MessagePacker p, Object o, ClassModel m) throws IOException, IllegalAccessException {
        for (ClassModel.Slot s : m.slots) {
            switch (s.kind) {
                case LONG -> p.packLong(s.field.getLong(o));
                case INT -> p.packInt(s.field.getInt(o));
                case DOUBLE -> p.packDouble(s.field.getDouble(o));
                case FLOAT -> p.packFloat(s.field.getFloat(o));
                case BOOL -> p.packBoolean(s.field.getBoolean(o));
                case STRING -> {
                    String v = (String) s.field.get(o);
                    if (v == null) {
                        p.packNil();
                    } else {
                        p.packString(v);
                    }
                }
                case BOXED_LONG, BOXED_INT -> {
                    Number v = (Number) s.field.get(o);
                    if (v == null) {
                        p.packNil();
                    } else {
                        p.packLong(v.longValue());
                    }
                }
                case BOXED_DOUBLE -> {
                    Double v = (Double) s.field.get(o);
                    if (v == null) {
                        p.packNil();
                    } else {
                        p.packDouble(v);
                    }
                }
                case BOXED_FLOAT -> {
                    Float v = (Float) s.field.get(o);
                    if (v == null) {
                        p.packNil();
                    } else {
                        p.packFloat(v);
                    }
                }
                case INTS -> {
                    int[] a = (int[]) s.field.get(o);
                    p.packArrayHeader(a.length);
                    for (int v : a) {
                        p.packInt(v);
                    }
                }
                case LONGS -> {
                    long[] a = (long[]) s.field.get(o);
                    p.packArrayHeader(a.length);
                    for (long v : a) {
                        p.packLong(v);
                    }
                }
                case DOUBLES -> {
                    double[] a = (double[]) s.field.get(o);
                    p.packArrayHeader(a.length);
                    for (double v : a) {
                        p.packDouble(v);
                    }
                }
                case BOOLS -> {
                    boolean[] a = (boolean[]) s.field.get(o);
                    p.packArrayHeader(a.length);
                    for (boolean v : a) {
                        p.packBoolean(v);
                    }
                }
                case STRINGS -> {
                    String[] a = (String[]) s.field.get(o);
                    p.packArrayHeader(a.length);
                    for (String v : a) {
                        p.packString(v);
                    }
                }
                case RECORDS -> {
                    Object[] a = (Object[]) s.field.get(o);
                    p.packArrayHeader(a.length);
                    for (Object e : a) {
                        write(p, e, s.element);
                    }
                }
                default -> throw new IllegalStateException(s.kind.toString());
            }
        }
    }

    public static Object read(MessageUnpacker u, ClassModel m, int left) throws IOException, IllegalAccessException {
        Object o = m.newInstance();
        for (ClassModel.Slot s : m.slots) {
            switch (s.kind) {
                case LONG -> s.field.setLong(o, u.unpackLong());
                case INT -> s.field.setInt(o, u.unpackInt());
                case DOUBLE -> s.field.setDouble(o, u.unpackDouble());
                case FLOAT -> s.field.setFloat(o, u.unpackFloat());
                case BOOL -> s.field.setBoolean(o, u.unpackBoolean());
                case STRING -> s.field.set(o, u.tryUnpackNil() ? null : u.unpackString());
                case BOXED_LONG -> s.field.set(o, u.tryUnpackNil() ? null : (Long) u.unpackLong());
                case BOXED_INT -> s.field.set(o, u.tryUnpackNil() ? null : (Integer) u.unpackInt());
                case BOXED_DOUBLE -> s.field.set(o, u.tryUnpackNil() ? null : (Double) u.unpackDouble());
                case BOXED_FLOAT -> s.field.set(o, u.tryUnpackNil() ? null : (Float) u.unpackFloat());
                case INTS -> {
                    int[] a = new int[ClassModel.checkLength(u.unpackArrayHeader(), left)];
                    for (int i = 0; i < a.length; i++) {
                        a[i] = u.unpackInt();
                    }
                    s.field.set(o, a);
                }
                case LONGS -> {
                    long[] a = new long[ClassModel.checkLength(u.unpackArrayHeader(), left)];
                    for (int i = 0; i < a.length; i++) {
                        a[i] = u.unpackLong();
                    }
                    s.field.set(o, a);
                }
                case DOUBLES -> {
                    double[] a = new double[ClassModel.checkLength(u.unpackArrayHeader(), left)];
                    for (int i = 0; i < a.length; i++) {
                        a[i] = u.unpackDouble();
                    }
                    s.field.set(o, a);
                }
                case BOOLS -> {
                    boolean[] a = new boolean[ClassModel.checkLength(u.unpackArrayHeader(), left)];
                    for (int i = 0; i < a.length; i++) {
                        a[i] = u.unpackBoolean();
                    }
                    s.field.set(o, a);
                }
                case STRINGS -> {
                    String[] a = new String[ClassModel.checkLength(u.unpackArrayHeader(), left)];
                    for (int i = 0; i < a.length; i++) {
                        a[i] = u.unpackString();
                    }
                    s.field.set(o, a);
                }
                case RECORDS -> {
                    Object[] a = s.element.newArray(ClassModel.checkLength(u.unpackArrayHeader(), left));
                    for (int i = 0; i < a.length; i++) {
                        a[i] = read(u, s.element, left);
                    }
                    s.field.set(o, a);
                }
                default -> throw new IllegalStateException(s.kind.toString());
            }
        }
        return o;
    }
}
