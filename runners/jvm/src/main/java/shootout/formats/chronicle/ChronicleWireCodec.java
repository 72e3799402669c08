package shootout.formats.chronicle;

import java.io.IOException;
import java.util.function.BiConsumer;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.workload.Workload;

/**
 * Chronicle Wire's binary wire (BINARY_LIGHT, its compact binary YAML) on
 * the workload's record class, through Chronicle's reflective WireMarshaller
 * (what a SelfDescribingMarshallable DTO gets by default; the record classes
 * are shared, so they extend nothing of Chronicle's). Records are written into
 * one reused on-heap Bytes and copied into the stream after a length prefix;
 * reading wraps the stream's array in place (a new wrapper only when the
 * stream's array is a new one).
 */
public final class ChronicleWireCodec<R, S> implements Codec<R, S> {
    public static final Info INFO = new Info(
            "chronicle-wire",
            "Chronicle Wire",
            "net.openhft:chronicle-wire",
            new Labels(
                    true,
                    "owned",
                    "validated",
                    "reflection",
                    "-0.0 reads back as 0 (BINARY_LIGHT writes a whole-number float as an integer); other floats are exact"),
            Framing.U32LE,
            "chronicle-wire",
            "WireType.BINARY_LIGHT, the record classes through Chronicle's reflective WireMarshaller (a SelfDescribingMarshallable's "
                    + "default), no type prefix for the declared class; written into a reused on-heap Bytes and copied into the stream "
                    + "after a 4-byte length prefix, read in place; bytes after the record rejected; runs on JDK 17 with the runner's "
                    + "--add-opens and no other flag; not made for untrusted bytes: a 600-byte random mixed record took 23 s to decode "
                    + "and decoded without an error");

    private final Bytes<?> written = Bytes.allocateElasticOnHeap(1 << 12);
    private final Wire writer = WireType.BINARY_LIGHT.apply(written);
    private byte[] readArray;
    private Bytes<byte[]> read;
    private Wire reader;
    private final Class<R> type;
    private final BiConsumer<R, S> feed;

    public ChronicleWireCodec(Workload<R, S> w) {
        type = w.type;
        feed = w.feed;
    }

    @Override
    public void encode(Stream out, R r) {
        written.clear();
        writer.getValueOut().object(type, r);
        int n = (int) written.readRemaining();
        out.putIntLE(n);
        out.ensure(n);
        written.read(out.buf, out.len, n);
        out.len += n;
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        if (buf != readArray) {
            readArray = buf;
            read = Bytes.wrapForRead(buf);
            reader = WireType.BINARY_LIGHT.apply(read);
        }
        read.readPositionRemaining(off + 4, n);
        R r = reader.getValueIn().object(type);
        if (r == null || read.readRemaining() != 0) {
            throw new IOException(r == null ? "null record" : read.readRemaining() + " bytes after the record");
        }
        feed.accept(r, sink);
        return n + 4;
    }
}
