package shootout.formats.fory;

import java.util.function.BiConsumer;
import org.apache.fory.Fory;
import org.apache.fory.config.Language;
import org.apache.fory.memory.MemoryBuffer;
import org.apache.fory.memory.MemoryUtils;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.workload.MultiMessage;
import shootout.workload.Workload;

/**
 * Apache Fory (Java mode, JIT-generated serializers, class registration
 * required, reference tracking off), serializing into one reused
 * MemoryBuffer; the record is copied into the stream after a length prefix.
 */
public final class ForyCodec<R, S> implements Codec<R, S> {
    public static final Info INFO = new Info("fory", "Fory", "org.apache.fory:fory-core", Labels.of(true, "owned", "validated", "generated"), Framing.U32LE, "fory",
            "Java mode, codegen serializers (generated at run time from the class), registered classes, no reference tracking, "
                    + "4-byte length prefix");

    private final Fory fory;
    private final MemoryBuffer out = MemoryUtils.buffer(1 << 12);
    private final Class<R> type;
    private final BiConsumer<R, S> feed;

    public ForyCodec(Workload<R, S> w) {
        fory = Fory.builder().withLanguage(Language.JAVA).requireClassRegistration(true).withRefTracking(false)
                .suppressClassRegistrationWarnings(true).build();
        fory.register(w.type);
        fory.register(MultiMessage.Message.class);
        fory.register(MultiMessage.Message[].class);
        this.type = w.type;
        this.feed = w.feed;
    }

    @Override
    public void encode(Stream s, R r) {
        out.writerIndex(0);
        fory.serialize(out, r);
        int n = out.writerIndex();
        s.putIntLE(n);
        s.ensure(n);
        out.get(0, s.buf, s.len, n);
        s.len += n;
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        MemoryBuffer in = MemoryUtils.wrap(buf, off + 4, n);
        R r = type.cast(fory.deserialize(in, type));
        feed.accept(r, sink);
        return n + 4;
    }
}
