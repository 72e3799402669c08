package shootout.formats.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.function.BiConsumer;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.workload.MultiMessage;
import shootout.workload.Workload;

/**
 * Kryo 5 with class registration required (the default), reference tracking
 * off (the records hold no shared references), one reused Output and Input.
 */
public final class KryoCodec<R, S> implements Codec<R, S> {
    public static final Info INFO = new Info(
            "kryo",
            "Kryo",
            "com.esotericsoftware:kryo",
            Labels.of(true, "owned", "validated", "reflection"),
            Framing.U32LE,
            "kryo",
            "FieldSerializer on registered classes, writeObject/readObject with the class known; the record is copied from "
                    + "Kryo's reused Output after a 4-byte length prefix; Input reads the stream's array in place");

    private final Kryo kryo = new Kryo();
    private final Output output = new Output(1 << 12, -1);
    private final Input input = new Input();
    private final Class<R> type;
    private final BiConsumer<R, S> feed;

    public KryoCodec(Workload<R, S> w) {
        kryo.setReferences(false);
        kryo.register(w.type);
        kryo.register(MultiMessage.Message.class);
        kryo.register(MultiMessage.Message[].class);
        kryo.register(int[].class);
        kryo.register(long[].class);
        kryo.register(double[].class);
        kryo.register(boolean[].class);
        kryo.register(String[].class);
        this.type = w.type;
        this.feed = w.feed;
    }

    @Override
    public void encode(Stream out, R r) {
        output.reset();
        kryo.writeObject(output, r);
        out.putIntLE(output.position());
        out.write(output.getBuffer(), 0, output.position());
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        input.setBuffer(buf, off + 4, n);
        R r = kryo.readObject(input, type);
        if (input.position() != off + 4 + n) {
            throw new java.io.IOException(
                    "kryo read " + (input.position() - off - 4) + " of the record's " + n + " bytes");
        }
        feed.accept(r, sink);
        return n + 4;
    }
}
