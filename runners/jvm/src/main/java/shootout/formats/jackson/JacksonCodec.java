package shootout.formats.jackson;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import java.util.function.BiConsumer;
import org.msgpack.jackson.dataformat.MessagePackMapper;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.workload.Workload;

/**
 * Jackson databind on the workload's record class, any of its binary or text
 * backends: one mapper per codec, its ObjectWriter and ObjectReader for the
 * record type made once (Jackson's documented fast path), the encoding written
 * straight into the stream after a 4-byte length prefix, read back from the
 * stream's array in place.
 */
public final class JacksonCodec<R, S> implements Codec<R, S> {
    private final ObjectWriter writer;
    private final ObjectReader reader;
    private final BiConsumer<R, S> feed;

    public JacksonCodec(ObjectMapper mapper, Workload<R, S> w) {
        this.writer = mapper.writerFor(w.type);
        this.reader = mapper.readerFor(w.type);
        this.feed = w.feed;
    }

    @Override
    public void encode(Stream out, R r) throws Exception {
        int at = out.reserve();
        writer.writeValue(out, r);
        out.seal(at);
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        R r = reader.readValue(buf, off + 4, n);
        feed.accept(r, sink);
        return n + 4;
    }

    static <M extends ObjectMapper> M strict(M m) {
        m.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        // Not for MessagePack: its parser throws at the end of input where Jackson's look for trailing tokens expects
        // none.
        if (!(m instanceof MessagePackMapper)) {
            m.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        }
        return m;
    }

    public static ObjectMapper json() {
        return strict(SerdeShape.register(JsonMapper.builder().build()));
    }

    public static ObjectMapper cbor() {
        return strict(SerdeShape.register(CBORMapper.builder().build()));
    }

    public static ObjectMapper smile() {
        return strict(SerdeShape.register(SmileMapper.builder().build()));
    }

    public static ObjectMapper msgpackMap() {
        return strict(SerdeShape.register(new MessagePackMapper()));
    }

    /** MessagePack with every record class (and iex's message and bodies) as an array of its fields in declaration order: no field names. */
    public static ObjectMapper msgpackArray() {
        MessagePackMapper m = new MessagePackMapper();
        for (Workload<?, ?> w : Workload.RECORD_CLASSES) {
            m.configOverride(w.type).setFormat(JsonFormat.Value.forShape(JsonFormat.Shape.ARRAY));
        }
        SerdeShape.asArrays(m);
        return strict(SerdeShape.register(m));
    }

    static final Labels LABELS = Labels.of(true, "owned", "validated", "reflection");
    static final String FRAMING =
            "4-byte little-endian length prefix per record; ObjectWriter/ObjectReader made once per record type; "
                    + "iex messages in Rust serde's shape (ts, symbol, body as an externally tagged Trade/LevelUpdate union, side by name), "
                    + "converted from and to the flat Java message by a Converter on a mix-in (one more object per message and body)";

    public static final Info JSON = new Info(
            "json-jackson",
            "JSON",
            "com.fasterxml.jackson.core:jackson-databind",
            LABELS,
            Framing.U32LE,
            "json",
            FRAMING + "; nulls written as null");
    public static final Info CBOR = new Info(
            "cbor-jackson",
            "CBOR",
            "com.fasterxml.jackson.dataformat:jackson-dataformat-cbor",
            LABELS,
            Framing.U32LE,
            "cbor-map",
            FRAMING + "; a map of field names per record");
    public static final Info SMILE = new Info(
            "smile-jackson",
            "Smile",
            "com.fasterxml.jackson.dataformat:jackson-dataformat-smile",
            LABELS,
            Framing.U32LE,
            "smile",
            FRAMING + "; Smile's default shared-name back-references within a record");
    public static final Info MSGPACK_MAP = new Info(
            "msgpack-jackson-map",
            "MessagePack",
            "org.msgpack:jackson-dataformat-msgpack",
            LABELS,
            Framing.U32LE,
            "msgpack-map",
            FRAMING + "; POJO as a map with field names (the study's \"with field names\")");
    public static final Info MSGPACK_ARRAY = new Info(
            "msgpack-jackson-array",
            "MessagePack",
            "org.msgpack:jackson-dataformat-msgpack",
            LABELS,
            Framing.U32LE,
            "msgpack-array",
            FRAMING + "; POJO as an array of its fields, no names (@JsonFormat(shape = ARRAY) as a config override)");
}
