package shootout.jmh;

import com.devsmart.ubjson.UBReader;
import com.devsmart.ubjson.UBValue;
import com.devsmart.ubjson.UBValueFactory;
import com.devsmart.ubjson.UBWriter;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import com.fasterxml.jackson.dataformat.cbor.CBORParser;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import com.google.flatbuffers.ArrayReadWriteBuf;
import com.google.flatbuffers.ByteBufferReadWriteBuf;
import com.google.flatbuffers.FlexBuffers;
import com.google.flatbuffers.FlexBuffersBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.apache.ignite.binary.BinaryRawReader;
import org.apache.ignite.binary.BinaryRawWriter;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinaryWriter;
import org.bson.io.BasicOutputBuffer;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.core.buffer.ArrayBufferInput;
import shootout.codec.Stream;
import shootout.formats.bson.BsonCodec;
import shootout.formats.flexbuffers.FlexCodec;
import shootout.formats.ignite.Ignite;
import shootout.formats.model.ClassModel;
import shootout.formats.msgpack.MsgpackRaw;
import shootout.formats.ubjson.UbjsonCodec;
import shootout.workload.SmallObject;

/**
 * The IEP-75 study's operations (Apache Ignite 3's thin-client protocol
 * choice) as shootout writes them, for each schemaless candidate: five
 * primitives one after another, a POJO (the object workload's SmallObject)
 * with field names, and the SQL request `select * from cars where year > ? and
 * seats = ?` with [2005, 2]. Each candidate writes into a reused Stream and
 * reads from a byte range; shared by IgniteStudy's benchmarks, the size table
 * and the tests. The study's own code is StudyAsPublished.
 */
public final class Study {
    private Study() {}

    public static final String QUERY = "select * from cars where year > ? and seats = ?";
    /** The arguments as the study's client passed them: Java Integers. */
    public static final Object[] ARGS = {2005, 2};

    /** The primitives of writePrimitives/readPrimitives: one of each kind. */
    public static final class Prims {
        public int i = 123_456;
        public long l = 9_876_543_210L;
        public double d = 3.25;
        public boolean b = true;
        public String s = "primitive";

        @Override
        public boolean equals(Object o) {
            return o instanceof Prims p
                    && p.i == i
                    && p.l == l
                    && Double.compare(p.d, d) == 0
                    && p.b == b
                    && p.s.equals(s);
        }

        @Override
        public int hashCode() {
            return i;
        }
    }

    public static SmallObject pojo() {
        SmallObject o = new SmallObject();
        o.id = 1_234_567_890_123L;
        o.name = "Ada Lovelace";
        o.email = "ada@example.com";
        o.age = 36;
        o.score = 98.5;
        o.ratio = 0.75f;
        o.active = true;
        o.level = 7;
        o.created_at = 1_700_000_000_000L;
        o.tags = new String[] {"math", "engines"};
        return o;
    }

    /** A schemaless candidate: each operation writes into out (reset first) or reads buf[0, n). */
    public interface Candidate {
        String name();

        void writePrimitives(Prims p, Stream out) throws Exception;

        Prims readPrimitives(byte[] buf, int n) throws Exception;

        void writePojo(SmallObject o, Stream out) throws Exception;

        SmallObject readPojo(byte[] buf, int n) throws Exception;

        void writeSqlQuery(String query, Object[] args, Stream out) throws Exception;
    }

    static final ClassModel OBJECT = ClassModel.of(SmallObject.class);

    /**
     * msgpack-core, packer and unpacker by hand for every operation (the study
     * wrote its POJO through Jackson): writePojo writes a map with field names.
     */
    public static final class Msgpack implements Candidate {
        final Stream.Holder target = new Stream.Holder();
        final MessagePacker p = MessagePack.newDefaultPacker(target);
        final ArrayBufferInput in = new ArrayBufferInput(new byte[0]);
        final MessageUnpacker u = MessagePack.newDefaultUnpacker(in);

        public String name() {
            return "msgpack";
        }

        MessagePacker packer(Stream out) {
            out.reset();
            target.stream = out;
            return p;
        }

        MessageUnpacker unpacker(byte[] buf, int n) throws IOException {
            in.reset(buf, 0, n);
            u.reset(in);
            return u;
        }

        public void writePrimitives(Prims x, Stream out) throws IOException {
            packer(out)
                    .packInt(x.i)
                    .packLong(x.l)
                    .packDouble(x.d)
                    .packBoolean(x.b)
                    .packString(x.s)
                    .flush();
        }

        public Prims readPrimitives(byte[] buf, int n) throws IOException {
            MessageUnpacker r = unpacker(buf, n);
            Prims x = new Prims();
            x.i = r.unpackInt();
            x.l = r.unpackLong();
            x.d = r.unpackDouble();
            x.b = r.unpackBoolean();
            x.s = r.unpackString();
            return x;
        }

        public void writePojo(SmallObject o, Stream out) throws IOException {
            MessagePacker w = packer(out);
            w.packMapHeader(10);
            w.packString("id")
                    .packLong(o.id)
                    .packString("name")
                    .packString(o.name)
                    .packString("email")
                    .packString(o.email);
            w.packString("age")
                    .packInt(o.age)
                    .packString("score")
                    .packDouble(o.score)
                    .packString("ratio")
                    .packFloat(o.ratio);
            w.packString("active")
                    .packBoolean(o.active)
                    .packString("level")
                    .packInt(o.level)
                    .packString("created_at")
                    .packLong(o.created_at);
            w.packString("tags").packArrayHeader(o.tags.length);
            for (String t : o.tags) {
                w.packString(t);
            }
            w.flush();
        }

        /** writePojo without field names: the fields in order (the study's array through Jackson, here by hand). */
        public void writePojoWithoutNames(SmallObject o, Stream out) throws Exception {
            MsgpackRaw.write(packer(out), o, OBJECT);
            p.flush();
        }

        public SmallObject readPojo(byte[] buf, int n) throws IOException {
            MessageUnpacker r = unpacker(buf, n);
            SmallObject o = new SmallObject();
            for (int k = r.unpackMapHeader(); k > 0; k--) {
                switch (r.unpackString()) {
                    case "id" -> o.id = r.unpackLong();
                    case "name" -> o.name = r.unpackString();
                    case "email" -> o.email = r.unpackString();
                    case "age" -> o.age = r.unpackInt();
                    case "score" -> o.score = r.unpackDouble();
                    case "ratio" -> o.ratio = r.unpackFloat();
                    case "active" -> o.active = r.unpackBoolean();
                    case "level" -> o.level = r.unpackInt();
                    case "created_at" -> o.created_at = r.unpackLong();
                    case "tags" -> {
                        o.tags = new String[ClassModel.checkLength(r.unpackArrayHeader(), n)];
                        for (int i = 0; i < o.tags.length; i++) {
                            o.tags[i] = r.unpackString();
                        }
                    }
                    default -> throw new IOException("unknown field");
                }
            }
            return o;
        }

        public void writeSqlQuery(String query, Object[] args, Stream out) throws IOException {
            MessagePacker w = packer(out);
            w.packString(query).packArrayHeader(args.length);
            for (Object a : args) {
                w.packLong(((Number) a).longValue());
            }
            w.flush();
        }
    }

    /**
     * Ignite 2.x's binary format with compact footers (the study's had full
     * ones): the raw writer for primitives and the SQL request, the marshaller
     * for the POJO.
     */
    public static final class IgniteBinary implements Candidate {
        final Ignite.Binary m = new Ignite.Binary();
        final Ignite.RawOut raw = m.raw;

        public String name() {
            return "ignite";
        }

        public void writePrimitives(Prims x, Stream out) {
            BinaryRawWriter w = raw.reset();
            w.writeInt(x.i);
            w.writeLong(x.l);
            w.writeDouble(x.d);
            w.writeBoolean(x.b);
            w.writeString(x.s);
            out.reset();
            raw.copyTo(out);
        }

        public Prims readPrimitives(byte[] buf, int n) {
            BinaryRawReader r = m.rawReader(buf, 0, n);
            Prims x = new Prims();
            x.i = r.readInt();
            x.l = r.readLong();
            x.d = r.readDouble();
            x.b = r.readBoolean();
            x.s = r.readString();
            return x;
        }

        public void writePojo(SmallObject o, Stream out) {
            byte[] b = m.marshal(o);
            out.reset();
            out.write(b, 0, b.length);
        }

        /** The POJO through the raw writer: no field ids or schema (the study's raw case). */
        public void writePojoWithoutNames(SmallObject o, Stream out) throws Exception {
            Ignite.write(raw.reset(), o, OBJECT);
            out.reset();
            raw.copyTo(out);
        }

        public SmallObject readPojo(byte[] buf, int n) {
            return m.deserialize(n == buf.length ? buf : Arrays.copyOf(buf, n));
        }

        public void writeSqlQuery(String query, Object[] args, Stream out) {
            BinaryRawWriter w = raw.reset();
            w.writeString(query);
            w.writeObjectArray(args);
            out.reset();
            raw.copyTo(out);
        }
    }

    /** CBOR through Jackson: its streaming generator and parser by hand; the POJO through databind. */
    public static final class Cbor implements Candidate {
        final CBORMapper mapper = new CBORMapper();
        final CBORFactory factory = mapper.getFactory();
        final ObjectWriter pojoWriter = mapper.writerFor(SmallObject.class);
        final ObjectReader pojoReader = mapper.readerFor(SmallObject.class);

        public String name() {
            return "cbor";
        }

        public void writePrimitives(Prims x, Stream out) throws IOException {
            out.reset();
            try (CBORGenerator g = factory.createGenerator(out)) {
                g.writeNumber(x.i);
                g.writeNumber(x.l);
                g.writeNumber(x.d);
                g.writeBoolean(x.b);
                g.writeString(x.s);
            }
        }

        public Prims readPrimitives(byte[] buf, int n) throws IOException {
            try (CBORParser p = factory.createParser(buf, 0, n)) {
                Prims x = new Prims();
                p.nextToken();
                x.i = p.getIntValue();
                p.nextToken();
                x.l = p.getLongValue();
                p.nextToken();
                x.d = p.getDoubleValue();
                x.b = p.nextToken() == JsonToken.VALUE_TRUE;
                p.nextToken();
                x.s = p.getText();
                return x;
            }
        }

        public void writePojo(SmallObject o, Stream out) throws IOException {
            out.reset();
            pojoWriter.writeValue(out, o);
        }

        public SmallObject readPojo(byte[] buf, int n) throws IOException {
            return pojoReader.readValue(buf, 0, n);
        }

        public void writeSqlQuery(String query, Object[] args, Stream out) throws IOException {
            out.reset();
            try (CBORGenerator g = factory.createGenerator(out)) {
                g.writeString(query);
                g.writeStartArray(null, args.length);
                for (Object a : args) {
                    g.writeNumber(((Number) a).longValue());
                }
                g.writeEndArray();
            }
        }
    }

    /** FlexBuffers: primitives and the SQL request as a vector (a FlexBuffer has one root), the POJO as a map. */
    public static final class Flex implements Candidate {
        final FlexBuffersBuilder b =
                new FlexBuffersBuilder(new ArrayReadWriteBuf(256), FlexBuffersBuilder.BUILDER_FLAG_SHARE_KEYS);

        public String name() {
            return "flexbuffers";
        }

        void finish(Stream out) {
            ByteBuffer bb = b.finish();
            out.reset();
            out.write(bb);
        }

        static FlexBuffers.Reference root(byte[] buf, int n) {
            return FlexBuffers.getRoot(
                    new ByteBufferReadWriteBuf(ByteBuffer.wrap(buf, 0, n).slice()));
        }

        public void writePrimitives(Prims x, Stream out) {
            b.clear();
            int v = b.startVector();
            b.putInt(x.i);
            b.putInt(x.l);
            b.putFloat(x.d);
            b.putBoolean(x.b);
            b.putString(x.s);
            b.endVector(null, v, false, false);
            finish(out);
        }

        public Prims readPrimitives(byte[] buf, int n) {
            FlexBuffers.Vector v = root(buf, n).asVector();
            Prims x = new Prims();
            x.i = v.get(0).asInt();
            x.l = v.get(1).asLong();
            x.d = v.get(2).asFloat();
            x.b = v.get(3).asBoolean();
            x.s = v.get(4).asString();
            return x;
        }

        public void writePojo(SmallObject o, Stream out) throws Exception {
            b.clear();
            int m = b.startMap();
            FlexCodec.write(b, o, OBJECT);
            b.endMap(null, m);
            finish(out);
        }

        public SmallObject readPojo(byte[] buf, int n) throws Exception {
            return (SmallObject) FlexCodec.read(root(buf, n).asMap(), OBJECT, n);
        }

        public void writeSqlQuery(String query, Object[] args, Stream out) {
            b.clear();
            int v = b.startVector();
            b.putString(query);
            int a = b.startVector();
            for (Object x : args) {
                b.putInt(((Number) x).longValue());
            }
            b.endVector(null, a, true, false);
            b.endVector(null, v, false, false);
            finish(out);
        }
    }

    /** BSON: every value needs a name and a document around it; primitives are keyed "0".."4". */
    public static final class Bson implements Candidate {
        final BasicOutputBuffer buffer = new BasicOutputBuffer(256);

        public String name() {
            return "bson";
        }

        BsonBinaryWriter start() {
            buffer.truncateToPosition(0);
            BsonBinaryWriter w = new BsonBinaryWriter(buffer);
            w.writeStartDocument();
            return w;
        }

        void end(BsonBinaryWriter w, Stream out) {
            w.writeEndDocument();
            w.close();
            out.reset();
            out.write(buffer.getInternalBuffer(), 0, buffer.getPosition());
        }

        public void writePrimitives(Prims x, Stream out) {
            BsonBinaryWriter w = start();
            w.writeInt32("0", x.i);
            w.writeInt64("1", x.l);
            w.writeDouble("2", x.d);
            w.writeBoolean("3", x.b);
            w.writeString("4", x.s);
            end(w, out);
        }

        public Prims readPrimitives(byte[] buf, int n) {
            try (BsonBinaryReader r =
                    new BsonBinaryReader(ByteBuffer.wrap(buf, 0, n).slice())) {
                r.readStartDocument();
                Prims x = new Prims();
                x.i = r.readInt32("0");
                x.l = r.readInt64("1");
                x.d = r.readDouble("2");
                x.b = r.readBoolean("3");
                x.s = r.readString("4");
                r.readEndDocument();
                return x;
            }
        }

        public void writePojo(SmallObject o, Stream out) throws Exception {
            BsonBinaryWriter w = start();
            BsonCodec.write(w, o, OBJECT);
            end(w, out);
        }

        public SmallObject readPojo(byte[] buf, int n) throws Exception {
            try (BsonBinaryReader r =
                    new BsonBinaryReader(ByteBuffer.wrap(buf, 0, n).slice())) {
                r.readStartDocument();
                SmallObject o = (SmallObject) BsonCodec.read(r, OBJECT);
                r.readEndDocument();
                return o;
            }
        }

        public void writeSqlQuery(String query, Object[] args, Stream out) {
            BsonBinaryWriter w = start();
            w.writeString("query", query);
            w.writeStartArray("args");
            for (Object a : args) {
                w.writeInt32(((Number) a).intValue());
            }
            w.writeEndArray();
            end(w, out);
        }
    }

    /** UBJSON (com.dev-smart:ubjson): its writer's typed calls for primitives and the request, its object tree for the POJO. */
    public static final class Ubjson implements Candidate {
        final Stream.Holder target = new Stream.Holder();
        final UBWriter w = new UBWriter(target);

        public String name() {
            return "ubjson";
        }

        UBWriter writer(Stream out) {
            out.reset();
            target.stream = out;
            return w;
        }

        public void writePrimitives(Prims x, Stream out) throws IOException {
            UBWriter u = writer(out);
            u.writeInt32(x.i);
            u.writeInt64(x.l);
            u.writeFloat64(x.d);
            u.writeBool(x.b);
            u.writeString(UBValueFactory.createString(x.s));
        }

        public Prims readPrimitives(byte[] buf, int n) throws IOException {
            UBReader r = new UBReader(new ByteArrayInputStream(buf, 0, n));
            Prims x = new Prims();
            x.i = r.read().asInt();
            x.l = r.read().asLong();
            x.d = r.read().asFloat64();
            x.b = r.read().asBool();
            x.s = r.read().asString();
            return x;
        }

        public void writePojo(SmallObject o, Stream out) throws Exception {
            writer(out).write(UbjsonCodec.tree(o, OBJECT));
        }

        public SmallObject readPojo(byte[] buf, int n) throws Exception {
            UBValue v = new UBReader(new ByteArrayInputStream(buf, 0, n)).read();
            return (SmallObject) UbjsonCodec.record(v.asObject(), OBJECT);
        }

        public void writeSqlQuery(String query, Object[] args, Stream out) throws IOException {
            UBWriter u = writer(out);
            u.writeString(UBValueFactory.createString(query));
            int[] a = new int[args.length];
            for (int i = 0; i < a.length; i++) {
                a[i] = ((Number) args[i]).intValue();
            }
            u.writeInt32Array(a);
        }
    }

    public static List<Candidate> candidates() {
        return List.of(new Msgpack(), new IgniteBinary(), new Cbor(), new Flex(), new Bson(), new Ubjson());
    }

    public static Candidate named(String name) {
        for (Candidate c : candidates()) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException(name);
    }

    /** A candidate's encoded sizes: its primitives, its POJO with field names and the SQL request. */
    public record Sizes(int primitives, int pojo, int sqlRequest) {}

    public static Sizes sizes(Candidate c) throws Exception {
        Stream s = new Stream(256);
        c.writePrimitives(new Prims(), s);
        int prims = s.len;
        c.writePojo(pojo(), s);
        int pojo = s.len;
        c.writeSqlQuery(QUERY, ARGS, s);
        return new Sizes(prims, pojo, s.len);
    }

    /** The POJO without field names: MessagePack's fields in order, [0], and Ignite's raw writer, [1]. */
    public static int[] namelessPojoSizes() throws Exception {
        Stream s = new Stream(256);
        new Msgpack().writePojoWithoutNames(pojo(), s);
        int msgpack = s.len;
        new IgniteBinary().writePojoWithoutNames(pojo(), s);
        return new int[] {msgpack, s.len};
    }

    /** Every candidate's encoded sizes, as a text table. */
    public static String sizes() throws Exception {
        StringBuilder b = new StringBuilder(
                String.format("%-12s %12s %10s %10s%n", "format", "primitives", "pojo", "sql request"));
        for (Candidate c : candidates()) {
            Sizes z = sizes(c);
            b.append(String.format("%-12s %12d %10d %10d%n", c.name(), z.primitives(), z.pojo(), z.sqlRequest()));
        }
        int[] nameless = namelessPojoSizes();
        b.append(String.format("msgpack POJO without field names: %d bytes%n", nameless[0]));
        b.append(String.format("ignite POJO through the raw writer: %d bytes%n", nameless[1]));
        return b.toString();
    }

    static byte[] bytes(Stream s) {
        return Arrays.copyOf(s.buf, s.len);
    }
}
