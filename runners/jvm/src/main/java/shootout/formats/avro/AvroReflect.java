package shootout.formats.avro;

import java.util.function.BiConsumer;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.reflect.ReflectData;
import org.apache.avro.reflect.ReflectDatumReader;
import org.apache.avro.reflect.ReflectDatumWriter;
import org.apache.avro.util.ClassSecurityValidator;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.workload.Workload;

/**
 * Avro binary through Avro's reflection (ReflectData derives the schema from
 * the record class; the tabular workloads' boxed cells become
 * ["null", T] unions through ReflectData.AllowNull). Reused DatumWriter,
 * DatumReader, direct BinaryEncoder and BinaryDecoder.
 */
public final class AvroReflect<R, S> implements Codec<R, S> {
    public static final Info INFO = new Info("avro-reflect", "Avro", "org.apache.avro:avro", Labels.of(true, "owned", "validated", "reflection"), Framing.U32LE,
            "schema derived from the Java class by ReflectData (AllowNull: reference-typed fields are [null, T] unions), not the "
                    + "committed .avsc files; 4-byte length prefix");

    private final ReflectDatumWriter<R> writer;
    private final ReflectDatumReader<R> reader;
    private BinaryEncoder encoder;
    private BinaryDecoder decoder;
    private final BiConsumer<R, S> feed;

    static {
        // Avro 1.12 refuses classes it does not trust in reflection: trust the workload's record classes.
        ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(ClassSecurityValidator.getGlobal(),
                c -> c.getName().startsWith("shootout.workload.")));
    }

    public AvroReflect(Workload<R, S> w) {
        ReflectData data = ReflectData.AllowNull.get();
        Schema schema = data.getSchema(w.type);
        writer = new ReflectDatumWriter<>(schema, data);
        reader = new ReflectDatumReader<>(schema, schema, data);
        feed = w.feed;
    }

    @Override
    public void encode(Stream out, R r) throws Exception {
        int at = out.reserve();
        encoder = EncoderFactory.get().directBinaryEncoder(out, encoder);
        writer.write(r, encoder);
        encoder.flush();
        out.seal(at);
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        decoder = DecoderFactory.get().binaryDecoder(buf, off + 4, n, decoder);
        R r = reader.read(null, decoder);
        if (!decoder.isEnd()) {
            throw new java.io.IOException("avro: bytes left after the record");
        }
        feed.accept(r, sink);
        return n + 4;
    }
}
