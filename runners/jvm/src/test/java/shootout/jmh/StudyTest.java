package shootout.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import shootout.codec.Stream;
import shootout.formats.model.ClassModel;
import shootout.formats.msgpack.MsgpackRaw;
import shootout.workload.SmallObject;

/** The IEP-75 study's figures that do not depend on the machine, and every candidate's round trips. */
class StudyTest {
    @Test
    void theSqlRequestIs54BytesInMessagePackAnd71InIgnitesBinaryFormat() throws Exception {
        // As the study encoded it: the query string, then the arguments (Java Integers 2005 and 2) as an array;
        // MessagePack: str8 header + 47 bytes, fixarray, uint16 2005, fixint 2; Ignite's raw writer: a string
        // (type, int length, bytes) and an object array (type, component type id, length, two typed ints).
        Stream s = new Stream(64);
        new Study.Msgpack().writeSqlQuery(Study.QUERY, Study.ARGS, s);
        assertEquals(54, s.len);
        new Study.IgniteBinary().writeSqlQuery(Study.QUERY, Study.ARGS, s);
        assertEquals(71, s.len);
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
        org.junit.jupiter.api.Assertions.assertTrue(bare.len < named.len);
        org.msgpack.core.MessageUnpacker u = org.msgpack.core.MessagePack.newDefaultUnpacker(Study.bytes(bare));
        SmallObject o = (SmallObject) MsgpackRaw.read(u, ClassModel.of(SmallObject.class), bare.len);
        assertEquals(Study.pojo().name, o.name);
    }
}
