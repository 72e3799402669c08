package shootout;

import java.util.List;
import shootout.codec.Codec;
import shootout.codec.Stream;

/**
 * Records through a codec as the harness sends them: encoded one after another into one stream, then decoded back from it
 * into a sink, each decode using exactly its own record's bytes. Every test that round-trips records through a codec does it
 * here.
 */
public final class RoundTrip {
    private RoundTrip() {}

    /**
     * One pass of records (prepared by c already) through c: out is reset, written and decoded back into sink. Null when
     * every record encoded and decoded, one decode each; else what failed first: "encode error: E" or "decode error: E" (E
     * the codec's exception, the record and byte said after it), a decode that used no bytes or more than were left, or a
     * count of decodes other than the records'.
     */
    public static <R, S> String pass(Codec<R, S> c, List<R> records, Stream out, S sink) {
        out.reset();
        for (int i = 0; i < records.size(); i++) {
            try {
                c.encode(out, records.get(i));
            } catch (Exception e) {
                return "encode error: " + e + " (record " + i + ")";
            }
        }
        int decoded = 0;
        for (int off = 0, used; off < out.len; off += used, decoded++) {
            try {
                used = c.decode(out.buf, off, out.len, sink);
            } catch (Exception e) {
                return "decode error: " + e + " (record " + decoded + ", at byte " + off + " of the stream)";
            }
            if (used <= 0 || used > out.len - off) {
                return "record " + decoded + ": decode used " + used + " bytes at " + off + " of " + out.len;
            }
        }
        return decoded == records.size() ? null : "decoded " + decoded + " records of " + records.size();
    }
}
