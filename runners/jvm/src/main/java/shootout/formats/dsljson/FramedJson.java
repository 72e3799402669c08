package shootout.formats.dsljson;

import com.dslplatform.json.DslJson;
import com.dslplatform.json.JsonReader;
import com.dslplatform.json.JsonWriter;
import com.dslplatform.json.ParsingException;
import shootout.codec.Stream;

/**
 * One DSL-JSON writer and reader, reused record after record, over records framed by a 4-byte little-endian length.
 * The writer's bytes are copied into the stream after the length; the reader reads from offset 0 of its buffer only,
 * so each record is copied into a reused scratch array first, and only JSON whitespace may follow it in its frame
 * (Go's encoder ends each record with a newline).
 */
final class FramedJson {
    private final JsonWriter writer;
    private final JsonReader<Object> reader;
    private byte[] scratch = new byte[1 << 12];
    private int frameSize;

    FramedJson(DslJson<Object> dsl) {
        writer = dsl.newWriter();
        reader = dsl.newReader();
    }

    /** The writer, emptied, for the next record; {@link #endRecord} appends what was written to it. */
    JsonWriter startRecord() {
        writer.reset();
        return writer;
    }

    /** Appends the record written since {@link #startRecord} to out, after its length. */
    void endRecord(Stream out) {
        int n = writer.size();
        out.putIntLE(n);
        out.write(writer.getByteBuffer(), 0, n);
    }

    /** The reader at the first token of the record framed at buf[off]; {@link #closeRecord} checks its end. */
    JsonReader<Object> openRecord(byte[] buf, int off, int end) throws java.io.IOException {
        int n = Stream.frame(buf, off, end);
        if (scratch.length < n) {
            scratch = new byte[Math.max(n, scratch.length * 2)];
        }
        System.arraycopy(buf, off + 4, scratch, 0, n);
        reader.process(scratch, n);
        reader.getNextToken();
        frameSize = n + 4;
        return reader;
    }

    /**
     * Rejects anything but whitespace after the value read from the record {@link #openRecord} opened; returns the
     * bytes its frame takes in the stream.
     */
    int closeRecord() throws ParsingException {
        for (int i = reader.getCurrentIndex(); i < frameSize - 4; i++) {
            byte b = scratch[i];
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                throw reader.newParseError("bytes after the record");
            }
        }
        return frameSize;
    }
}
