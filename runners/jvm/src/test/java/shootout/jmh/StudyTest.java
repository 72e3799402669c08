package shootout.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.apache.ignite.binary.BinaryRawReader;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.jackson.dataformat.JsonArrayFormat;
import org.msgpack.jackson.dataformat.MessagePackFactory;
import shootout.codec.Stream;
import shootout.formats.ignite.Ignite;
import shootout.formats.model.ClassModel;
import shootout.formats.msgpack.MsgpackRaw;
import shootout.workload.SmallObject;

/**
 * The IEP-75 study's figures that do not depend on the machine, and the round
 * trip of every operation both variants measure: as the study wrote it
 * (StudyAsPublished) and as shootout does (Study's candidates).
 */
class StudyTest {
    // As the study encoded the SQL request: the query string, then the arguments (Java Integers 2005 and 2) as an
    // array;
    // MessagePack: str8 header + 47 bytes, fixarray, uint16 2005, fixint 2; Ignite's writer: a string (type, int
    // length,
    // bytes) and an object array (type, component type id, length, two typed ints).

    @Test
    void theSqlRequestIs54BytesInMessagePackAnd71InIgnitesBinaryFormatAsTheStudyWroteIt() throws Exception {
        StudyAsPublished p = new StudyAsPublished();
        assertEquals(54, p.writeSqlQueryMsgPack().length);
        assertEquals(71, p.writeSqlQueryIgnite().length);
    }

    @Test
    void theSqlRequestIs54BytesInMessagePackAnd71InIgnitesBinaryFormatAsShootoutWritesIt() throws Exception {
        assertEquals(54, Study.sizes(new Study.Msgpack()).sqlRequest());
        assertEquals(71, Study.sizes(new Study.IgniteBinary()).sqlRequest());
    }

    @Test
    void theSqlRequestReadsBackInBothVariants() throws Exception {
        StudyAsPublished p = new StudyAsPublished();
        assertMsgpackRequest(p.writeSqlQueryMsgPack());
        assertIgniteRequest(new Ignite.AsStudied().read(p.writeSqlQueryIgnite(), StudyTest::request));
        Stream s = new Stream(64);
        new Study.Msgpack().writeSqlQuery(Study.QUERY, Study.ARGS, s);
        assertMsgpackRequest(Study.bytes(s));
        new Study.IgniteBinary().writeSqlQuery(Study.QUERY, Study.ARGS, s);
        assertIgniteRequest(request(new Ignite.Binary().rawReader(s.buf, 0, s.len)));
    }

    static Object[] request(BinaryRawReader r) {
        return new Object[] {r.readString(), r.readObjectArray()};
    }

    static void assertMsgpackRequest(byte[] b) throws Exception {
        MessageUnpacker u = MessagePack.newDefaultUnpacker(b);
        assertEquals(Study.QUERY, u.unpackString());
        assertEquals(2, u.unpackArrayHeader());
        assertEquals(2005, u.unpackInt());
        assertEquals(2, u.unpackInt());
        assertTrue(!u.hasNext());
    }

    static void assertIgniteRequest(Object[] queryAndArgs) {
        assertEquals(Study.QUERY, queryAndArgs[0]);
        assertArrayEquals(Study.ARGS, (Object[]) queryAndArgs[1]);
    }

    @Test
    void theStudysPrimitivesAreTheIntAndStringItWroteAndReadBack() throws Exception {
        StudyAsPublished p = new StudyAsPublished();
        byte[] hello = "Hello world".getBytes(StandardCharsets.US_ASCII);
        // MessagePack: positive fixint 42, fixstr of 11 bytes. Ignite's writer: a raw int (4 bytes LE), then a string
        // (type 9, int length).
        assertArrayEquals(concat(HexFormat.of().parseHex("2aab"), hello), p.writePrimitivesMsgPackRaw());
        assertArrayEquals(concat(HexFormat.of().parseHex("2a000000090b000000"), hello), p.writePrimitivesIgnite());
        StudyAsPublished.IntAndString expected = new StudyAsPublished.IntAndString(42, "Hello world");
        assertEquals(expected, p.readPrimitivesMsgPack());
        assertEquals(expected, p.readPrimitivesIgnite());
    }

    @Test
    void theStudysPojoGoesThroughJacksonForMessagePack() throws Exception {
        StudyAsPublished p = new StudyAsPublished();
        // With names: fixmap of 1, fixstr "val", 42; without (JsonArrayFormat): fixarray of 1, 42.
        assertArrayEquals(
                concat(HexFormat.of().parseHex("81a3"), "val".getBytes(StandardCharsets.US_ASCII), new byte[] {42}),
                p.writePojoMsgPack());
        byte[] withoutNames = p.writePojoMsgPack2();
        assertArrayEquals(HexFormat.of().parseHex("912a"), withoutNames);
        assertEquals(42, p.readPojoMsgPack().getVal());
        ObjectMapper positional =
                new ObjectMapper(new MessagePackFactory()).setAnnotationIntrospector(new JsonArrayFormat());
        assertEquals(
                42,
                positional
                        .readValue(withoutNames, StudyAsPublished.IntPojo.class)
                        .getVal());
    }

    @Test
    void theStudysIgnitePojoHasFullFootersAndReadsBack() throws Exception {
        StudyAsPublished p = new StudyAsPublished();
        // 24-byte header, the int field (type byte + 4), then a full footer: the field's id (4) and offset (1).
        // A compact footer keeps the offset only: 4 bytes fewer, as shootout's marshaller writes it.
        assertEquals(34, p.writePojoIgnite().length);
        assertEquals(30, new Ignite.Binary().marshal(new StudyAsPublished.IntPojo(42)).length);
        assertEquals(42, p.readPojoIgnite().getVal());
    }

    @Test
    void thePooledPackerRefusesWhatItCannotHold() {
        StudyAsPublished.PooledOutput pooled = new StudyAsPublished.PooledOutput();
        MessagePacker packer = StudyAsPublished.PACKER.newPacker(pooled);
        assertThrows(
                IllegalStateException.class,
                () -> packer.packString("x".repeat(200)).close());
    }

    static byte[] concat(byte[]... parts) {
        byte[] out = new byte[0];
        for (byte[] p : parts) {
            int at = out.length;
            out = Arrays.copyOf(out, at + p.length);
            System.arraycopy(p, 0, out, at, p.length);
        }
        return out;
    }

    @Test
    void everyCandidateReadsBackWhatItWrote() throws Exception {
        Stream s = new Stream(64);
        for (Study.Candidate c : Study.candidates()) {
            Study.Prims p = new Study.Prims();
            c.writePrimitives(p, s);
            assertEquals(p, c.readPrimitives(Study.bytes(s), s.len), c.name());
            SmallObject o = Study.pojo();
            c.writePojo(o, s);
            SmallObject back = c.readPojo(Study.bytes(s), s.len);
            assertEquals(o.id, back.id, c.name());
            assertEquals(o.email, back.email, c.name());
            assertEquals(Float.floatToIntBits(o.ratio), Float.floatToIntBits(back.ratio), c.name());
            assertEquals(o.level, back.level, c.name());
            assertArrayEquals(o.tags, back.tags, c.name());
        }
    }

    @Test
    void thePojoWithoutFieldNamesIsSmallerAndReadsBack() throws Exception {
        Stream named = new Stream(64), bare = new Stream(64);
        Study.Msgpack m = new Study.Msgpack();
        m.writePojo(Study.pojo(), named);
        m.writePojoWithoutNames(Study.pojo(), bare);
        assertTrue(bare.len < named.len);
        MessageUnpacker u = MessagePack.newDefaultUnpacker(Study.bytes(bare));
        SmallObject o = (SmallObject) MsgpackRaw.read(u, ClassModel.of(SmallObject.class), bare.len);
        assertEquals(Study.pojo().name, o.name);
        Stream raw = new Stream(128);
        new Study.IgniteBinary().writePojoWithoutNames(Study.pojo(), raw);
        SmallObject fromIgnite = (SmallObject) Ignite.read(
                new Ignite.Binary().rawReader(raw.buf, 0, raw.len), ClassModel.of(SmallObject.class), raw.len);
        assertEquals(Study.pojo().email, fromIgnite.email);
        assertArrayEquals(Study.pojo().tags, fromIgnite.tags);
    }
}
