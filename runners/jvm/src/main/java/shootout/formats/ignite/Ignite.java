package shootout.formats.ignite;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.ignite.IgniteCheckedException;
import org.apache.ignite.binary.BinaryObject;
import org.apache.ignite.binary.BinaryRawReader;
import org.apache.ignite.binary.BinaryRawWriter;
import org.apache.ignite.configuration.BinaryConfiguration;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.internal.binary.BinaryContext;
import org.apache.ignite.internal.binary.BinaryMarshaller;
import org.apache.ignite.internal.binary.BinaryReaderEx;
import org.apache.ignite.internal.binary.BinaryUtils;
import org.apache.ignite.internal.binary.BinaryWriterEx;
import org.apache.ignite.internal.binary.GridBinaryMarshaller;
import org.apache.ignite.internal.binary.streams.BinaryInputStream;
import org.apache.ignite.internal.binary.streams.BinaryOutputStream;
import org.apache.ignite.internal.binary.streams.BinaryStreams;
import org.apache.ignite.internal.util.IgniteUtils;
import org.apache.ignite.lang.IgnitePredicate;
import org.apache.ignite.marshaller.MarshallerContext;
import org.apache.ignite.marshaller.Marshallers;
import org.apache.ignite.marshaller.jdk.JdkMarshaller;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.formats.model.ClassModel;
import shootout.formats.model.ModelCodec;
import shootout.workload.Workload;

/**
 * Apache Ignite 2.x's binary format without a node, everything Ignite in this
 * one file (its internal APIs change between minor versions: this is
 * ignite-core 2.18.0). The set-up is the thin client's own
 * (ClientBinaryMarshaller): a BinaryMarshaller over a map-backed
 * MarshallerContext, and IgniteUtils.binaryContext with a caching metadata
 * handler. On JDK 17 Ignite needs its --add-opens list (the jar manifest's
 * Add-Opens, surefire's argLine).
 */
public final class Ignite {
    private Ignite() {}

    /** Type ids to class names, in memory: what a cluster's marshaller cache would hold. */
    static final class MapMarshallerContext implements MarshallerContext {
        private final Map<Integer, String> names = new ConcurrentHashMap<>();
        private final JdkMarshaller jdk = Marshallers.jdk();

        // Ignite's interface forces it: abstract, and deprecated for the 4-argument default that calls it.
        @SuppressWarnings("deprecation")
        @Override
        public boolean registerClassName(byte platformId, int typeId, String clsName) {
            names.put(typeId, clsName);
            return true;
        }

        @Override
        public boolean registerClassNameLocally(byte platformId, int typeId, String clsName) {
            return registerClassName(platformId, typeId, clsName);
        }

        /**
         * Through Ignite's class cache (IgniteUtils.forName), as a node's MarshallerContextImpl and the thin client's
         * context resolve it: Ignite asks for a user type's class on every read, and a Class.forName per read would
         * measure the class loader, not the format.
         */
        @Override
        public Class<?> getClass(int typeId, ClassLoader ldr) throws ClassNotFoundException {
            return IgniteUtils.forName(
                    getClassName((byte) 0, typeId), ldr == null ? Ignite.class.getClassLoader() : ldr, null);
        }

        @Override
        public String getClassName(byte platformId, int typeId) throws ClassNotFoundException {
            String n = names.get(typeId);
            if (n == null) {
                throw new ClassNotFoundException("type id " + typeId + " is not registered");
            }
            return n;
        }

        @Override
        public boolean isSystemType(String typeName) {
            return false;
        }

        @Override
        public IgnitePredicate<String> classNameFilter() {
            return null;
        }

        @Override
        public JdkMarshaller jdkMarshaller() {
            return jdk;
        }
    }

    /** A node-less binary marshaller (compact footers, as Ignite's default). */
    public static GridBinaryMarshaller marshaller() {
        return binaryMarshaller(true).binaryMarshaller();
    }

    /**
     * The Marshaller (Ignite's public interface, whose marshal and unmarshal
     * wrap the GridBinaryMarshaller) over a node-less binary context; compact
     * footers leave each field's id out of the object's footer (the schema id
     * in the header then names them).
     */
    private static BinaryMarshaller binaryMarshaller(boolean compactFooter) {
        BinaryMarshaller m = new BinaryMarshaller();
        m.setContext(new MapMarshallerContext());
        BinaryConfiguration bc = new BinaryConfiguration().setCompactFooter(compactFooter);
        m.setBinaryContext(IgniteUtils.binaryContext(m, new IgniteConfiguration().setBinaryConfiguration(bc)));
        return m;
    }

    /**
     * Ignite's side of the IEP-75 study as its JMH benchmark
     * (JmhBinaryMarshallerMsgPackBenchmark) set it up: a BinaryMarshaller with
     * full footers (its BinaryConfiguration.setCompactFooter(false)) for the
     * POJO, a writer on the thread's pooled buffer per call for loose values
     * (its `new BinaryWriterExImpl(ctx)`: array() copies the bytes out, close()
     * gives the buffer back) and a reader per call.
     */
    public static final class AsStudied {
        private final BinaryMarshaller marshaller = binaryMarshaller(false);
        private final BinaryContext ctx = marshaller.binaryMarshaller().context();

        public byte[] marshal(Object o) throws IgniteCheckedException {
            return marshaller.marshal(o);
        }

        public <T> T unmarshal(byte[] bytes) throws IgniteCheckedException {
            return marshaller.unmarshal(bytes, null);
        }

        public byte[] write(Consumer<BinaryRawWriter> values) {
            try (BinaryWriterEx w = BinaryUtils.writer(ctx, false, 0)) {
                values.accept(w);
                return w.array();
            }
        }

        public <T> T read(byte[] bytes, Function<BinaryRawReader, T> values) {
            return values.apply(BinaryUtils.reader(ctx, BinaryStreams.inputStream(bytes), null, true));
        }
    }

    /** What the JMH study's shootout variant (jmh.Study) needs of the marshaller, so that Ignite's internal types stay in this file. */
    public static final class Binary {
        final GridBinaryMarshaller m = marshaller();
        public final RawOut raw = new RawOut(m);

        public byte[] marshal(Object o) {
            return m.marshal(o, false);
        }

        public <T> T deserialize(byte[] exact) {
            return m.deserialize(exact, null);
        }

        public BinaryRawReader rawReader(byte[] buf, int off, int end) {
            return Ignite.rawReader(m, buf, off, end);
        }
    }

    /** A raw writer over a reused output stream: values one after another, no object header (the study's raw writer). */
    public static final class RawOut {
        public final BinaryOutputStream out = BinaryStreams.outputStream(1 << 12);
        public final BinaryWriterEx writer;

        public RawOut(GridBinaryMarshaller m) {
            writer = BinaryUtils.writer(m.context(), out);
        }

        public BinaryRawWriter reset() {
            out.position(0);
            return writer;
        }

        /** The bytes written since reset, copied into s. */
        public void copyTo(Stream s) {
            s.write(out.array(), 0, out.position());
        }
    }

    /** A raw reader at buf[off], before end: values one after another. */
    public static BinaryReaderEx rawReader(GridBinaryMarshaller m, byte[] buf, int off, int end) {
        BinaryInputStream in = BinaryStreams.inputStream(buf, end);
        in.position(off);
        return BinaryUtils.reader(m.context(), in, null, true, false); // skip the header check: raw values, no object
    }

    static final Labels POJO_LABELS = Labels.of(true, "owned", "validated", "reflection");
    public static final Info POJO = new Info(
            "ignite-binary",
            "Ignite binary",
            "org.apache.ignite:ignite-core",
            POJO_LABELS,
            Framing.U32LE,
            "ignite-binary",
            "GridBinaryMarshaller.marshal of the record object (binary object: 24-byte header, fields, compact footer), no node; "
                    + "4-byte length prefix; the header's type, version and total length are checked before unmarshal (Ignite's "
                    + "reader trusts lengths in the bytes), which deserializes into the class");
    public static final Info RAW = new Info(
            "ignite-raw",
            "Ignite binary",
            "org.apache.ignite:ignite-core",
            Labels.of(true, "owned", "validated", "reflection"),
            Framing.NONE,
            "ignite-raw",
            "Ignite's raw writer (BinaryRawWriter): the record's fields one after another as typed values, no object header or "
                    + "field ids, as the IEP-75 study wrote its raw case; nested records as a count and their fields; self-delimiting");

    /** The record as a binary object through the marshaller. */
    public static final class PojoCodec<R, S> implements Codec<R, S> {
        private final GridBinaryMarshaller m = marshaller();
        private final Class<R> type;
        private final BiConsumer<R, S> feed;

        public PojoCodec(Workload<R, S> w) {
            type = w.type;
            feed = w.feed;
            registerTypes(m, ClassModel.of(type));
        }

        @Override
        public void encode(Stream out, R r) {
            byte[] b = m.marshal(r, false);
            out.putIntLE(b.length);
            out.write(b, 0, b.length);
        }

        @Override
        public int decode(byte[] buf, int off, int end, S sink) throws Exception {
            int n = Stream.frame(buf, off, end);
            checkHeader(buf, off + 4, n);
            BinaryInputStream in = BinaryStreams.inputStream(buf, off + 4 + n);
            in.position(off + 4);
            Object o = m.unmarshal(in);
            if (o instanceof BinaryObject b) {
                // unmarshal keeps a user type binary; deserialize builds the class instance.
                o = b.deserialize();
            }
            feed.accept(type.cast(o), sink);
            return n + 4;
        }
    }

    /**
     * Registers the record class and the record classes it holds, with their
     * metadata (field names and the schema a compact footer refers to), as a
     * cluster's metadata exchange would before a node reads objects it did not
     * write: a decoder that has written nothing yet (another process's
     * stream) cannot read a compact-footer object without it.
     */
    static void registerTypes(GridBinaryMarshaller m, ClassModel model) {
        m.context().registerType(model.type, true, false);
        for (ClassModel.Slot s : model.slots) {
            if (s.element != null) {
                registerTypes(m, s.element);
            }
        }
    }

    /**
     * Ignite's reader trusts the lengths in the bytes (garbage can make it ask
     * for a multi-gigabyte array): before unmarshalling, the object header must
     * say a binary object of protocol version 1 whose total length is the frame's.
     */
    static void checkHeader(byte[] buf, int at, int n) throws IOException {
        if (n < GridBinaryMarshaller.DFLT_HDR_LEN
                || buf[at] != GridBinaryMarshaller.OBJ
                || buf[at + GridBinaryMarshaller.PROTO_VER_POS] != GridBinaryMarshaller.PROTO_VER
                || Stream.getIntLE(buf, at + GridBinaryMarshaller.TOTAL_LEN_POS) != n) {
            throw new IOException("ignite: not a binary object of " + n + " bytes");
        }
    }

    /** The record's fields through the raw writer and reader, walked by its ClassModel. */
    public static final class RawCodec<R, S> extends ModelCodec<R, S> {
        private final GridBinaryMarshaller m = marshaller();
        private final RawOut out = new RawOut(m);

        public RawCodec(Workload<R, S> w) {
            super(w);
        }

        @Override
        public void encode(Stream s, R r) throws Exception {
            write(out.reset(), r, model);
            out.copyTo(s);
        }

        @Override
        public int decode(byte[] buf, int off, int end, S sink) throws Exception {
            BinaryReaderEx r = rawReader(m, buf, off, end);
            Object o = read(r, model, end - off);
            int used = r.in().position() - off;
            if (used > end - off) {
                throw new IOException("ignite raw: read past the stream's end");
            }
            feed(o, sink);
            return used;
        }
    }

    public static void write(BinaryRawWriter w, Object o, ClassModel m) throws IllegalAccessException {
        for (ClassModel.Slot s : m.slots) {
            Object v;
            switch (s.kind) {
                case LONG -> w.writeLong(s.field.getLong(o));
                case INT -> w.writeInt(s.field.getInt(o));
                case DOUBLE -> w.writeDouble(s.field.getDouble(o));
                case FLOAT -> w.writeFloat(s.field.getFloat(o));
                case BOOL -> w.writeBoolean(s.field.getBoolean(o));
                case STRING -> w.writeString((String) s.field.get(o));
                case BOXED_LONG, BOXED_INT, BOXED_DOUBLE, BOXED_FLOAT -> w.writeObject(s.field.get(o));
                case INTS -> w.writeIntArray((int[]) s.field.get(o));
                case LONGS -> w.writeLongArray((long[]) s.field.get(o));
                case DOUBLES -> w.writeDoubleArray((double[]) s.field.get(o));
                case BOOLS -> w.writeBooleanArray((boolean[]) s.field.get(o));
                case STRINGS -> w.writeStringArray((String[]) s.field.get(o));
                case RECORDS -> {
                    v = s.field.get(o);
                    Object[] a = (Object[]) v;
                    w.writeInt(a.length);
                    for (Object e : a) {
                        write(w, e, s.element);
                    }
                }
                default -> throw new IllegalStateException(s.kind.toString());
            }
        }
    }

    public static Object read(BinaryRawReader r, ClassModel m, int left) throws Exception {
        Object o = m.newInstance();
        for (ClassModel.Slot s : m.slots) {
            switch (s.kind) {
                case LONG -> s.field.setLong(o, r.readLong());
                case INT -> s.field.setInt(o, r.readInt());
                case DOUBLE -> s.field.setDouble(o, r.readDouble());
                case FLOAT -> s.field.setFloat(o, r.readFloat());
                case BOOL -> s.field.setBoolean(o, r.readBoolean());
                case STRING -> s.field.set(o, r.readString());
                case BOXED_LONG -> s.field.set(o, (Long) r.readObject());
                case BOXED_INT -> s.field.set(o, (Integer) r.readObject());
                case BOXED_DOUBLE -> s.field.set(o, (Double) r.readObject());
                case BOXED_FLOAT -> s.field.set(o, (Float) r.readObject());
                case INTS -> s.field.set(o, nonNull(r.readIntArray()));
                case LONGS -> s.field.set(o, nonNull(r.readLongArray()));
                case DOUBLES -> s.field.set(o, nonNull(r.readDoubleArray()));
                case BOOLS -> s.field.set(o, nonNull(r.readBooleanArray()));
                case STRINGS -> s.field.set(o, nonNull(r.readStringArray()));
                case RECORDS -> {
                    int n = ClassModel.checkLength(r.readInt(), left);
                    Object[] a = s.element.newArray(n);
                    for (int i = 0; i < n; i++) {
                        a[i] = read(r, s.element, left);
                    }
                    s.field.set(o, a);
                }
                default -> throw new IllegalStateException(s.kind.toString());
            }
        }
        return o;
    }

    private static <T> T nonNull(T v) throws IOException {
        if (v == null) {
            throw new IOException("ignite raw: null where the record has an array");
        }
        return v;
    }
}
