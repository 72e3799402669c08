package shootout.formats.fory;

import java.io.IOException;
import org.apache.fory.Fory;
import org.apache.fory.memory.MemoryBuffer;
import org.apache.fory.memory.MemoryUtils;
import shootout.codec.Stream;

/**
 * Records framed by a 4-byte little-endian length, through one Fory: each serialized into one reused MemoryBuffer and
 * copied into the stream after its length, and read in place from the stream, whole (bytes left after the record are
 * an error).
 */
final class ForyFrames {
    private final Fory fory;
    private final MemoryBuffer out = MemoryUtils.buffer(1 << 12);
    private int used;

    ForyFrames(Fory fory) {
        this.fory = fory;
    }

    /** Serializes record and appends it to s after its length. */
    void write(Stream s, Object record) {
        out.writerIndex(0);
        fory.serialize(out, record);
        int n = out.writerIndex();
        s.putIntLE(n);
        s.ensure(n);
        out.get(0, s.buf, s.len, n);
        s.len += n;
    }

    /** The record framed at buf[off], read as type (the serializer of its registered class). */
    <T> T read(byte[] buf, int off, int end, Class<T> type) throws IOException {
        MemoryBuffer in = open(buf, off, end);
        T record = fory.deserialize(in, type);
        close(in);
        return record;
    }

    /** The value framed at buf[off], read as the type tags written with it say. */
    Object read(byte[] buf, int off, int end) throws IOException {
        MemoryBuffer in = open(buf, off, end);
        Object value = fory.deserialize(in);
        close(in);
        return value;
    }

    /** The bytes that the last record read took in the stream, its length included. */
    int used() {
        return used;
    }

    private static MemoryBuffer open(byte[] buf, int off, int end) throws IOException {
        return MemoryUtils.wrap(buf, off + 4, Stream.frame(buf, off, end));
    }

    private void close(MemoryBuffer in) throws IOException {
        int left = in.size() - in.readerIndex();
        if (left != 0) {
            throw new IOException("fory: " + left + " bytes left after the record");
        }
        used = in.size() + 4;
    }
}
