package shootout.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import shootout.Spec;
import shootout.codec.Codec;
import shootout.codec.Stream;
import shootout.formats.dsljson.DslJsonCodec;
import shootout.formats.dsljson.DslJsonJsonl;
import shootout.formats.fory.ForyCodec;
import shootout.formats.fory.ForyJsonl;
import shootout.workload.Workload;

/**
 * The codecs that read a length-prefixed frame whole (DSL-JSON's and Fory's, typed and on jsonl) reject a byte after the
 * record inside its frame: a stream whose lengths and records disagree is corrupt, not a record.
 */
class WholeFrameTest {
    /** The first record of workload's fixture, framed by c with one more byte, b, inside its frame. */
    private static <R, S> byte[] framedWithByteAfter(Codec<R, S> c, Workload<R, S> w, char b) throws Exception {
        R r = Spec.read(w).records().get(0);
        c.prepare(List.of(r));
        Stream out = new Stream(64);
        c.encode(out, r);
        byte[] framed = Arrays.copyOf(out.buf, out.len + 1);
        framed[out.len] = (byte) b;
        Stream.putIntLE(framed, 0, out.len - 4 + 1);
        return framed;
    }

    private static <R, S> void assertRejectsAByteAfter(Codec<R, S> c, Workload<R, S> w) throws Exception {
        byte[] framed = framedWithByteAfter(c, w, 'x');
        assertThrows(Exception.class, () -> c.decode(framed, 0, framed.length, w.newSink.get()));
    }

    @Test
    void foryRejectsAByteAfterItsRecord() throws Exception {
        assertRejectsAByteAfter(new ForyCodec<>(Workload.USER, true), Workload.USER);
        assertRejectsAByteAfter(new ForyCodec<>(Workload.USER, false), Workload.USER);
        assertRejectsAByteAfter(new ForyJsonl(), Workload.JSONL);
    }

    @Test
    void dslJsonRejectsAnythingButWhitespaceAfterItsRecord() throws Exception {
        assertRejectsAByteAfter(new DslJsonCodec<>(Workload.USER), Workload.USER);
        assertRejectsAByteAfter(new DslJsonJsonl(), Workload.JSONL);
        // Go's encoder ends each record with a newline: JSON's whitespace after the record is read with it.
        var c = new DslJsonCodec<>(Workload.USER);
        byte[] framed = framedWithByteAfter(c, Workload.USER, '\n');
        assertEquals(framed.length, c.decode(framed, 0, framed.length, Workload.USER.newSink.get()));
    }
}
