package shootout.formats.jackson3;

import java.util.function.BiConsumer;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.workload.MultiMessage;
import shootout.workload.SerdeIex;
import shootout.workload.Workload;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.cfg.MapperBuilder;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.util.StdConverter;
import tools.jackson.dataformat.cbor.CBORMapper;
import tools.jackson.dataformat.smile.SmileMapper;
import tools.jackson.module.blackbird.BlackbirdModule;

/**
 * Jackson 3 (tools.jackson) databind on the workload's record class, as
 * {@code JacksonCodec} uses Jackson 2 (the two share only the annotations):
 * one immutable mapper per codec, its ObjectWriter and ObjectReader for the
 * record type made once, the encoding written straight into the stream after
 * a 4-byte length prefix, read back from the stream's array in place.
 */
public final class Jackson3Codec<R, S> implements Codec<R, S> {
    private final ObjectWriter writer;
    private final ObjectReader reader;
    private final BiConsumer<R, S> feed;

    public Jackson3Codec(ObjectMapper mapper, Workload<R, S> w) {
        this.writer = mapper.writerFor(w.type);
        this.reader = mapper.readerFor(w.type);
        this.feed = w.feed;
    }

    @Override
    public void encode(Stream out, R r) {
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

    static final class ToSerde extends StdConverter<MultiMessage.Message, SerdeIex.Message> {
        @Override
        public SerdeIex.Message convert(MultiMessage.Message m) {
            return SerdeIex.toSerde(m);
        }
    }

    static final class FromSerde extends StdConverter<SerdeIex.Message, MultiMessage.Message> {
        @Override
        public MultiMessage.Message convert(SerdeIex.Message s) {
            return SerdeIex.fromSerde(s);
        }
    }

    /** The iex message in Rust serde's shape, by the same route as Jackson 2's SerdeShape (Jackson 3's own databind annotations). */
    @JsonSerialize(converter = ToSerde.class)
    @JsonDeserialize(converter = FromSerde.class)
    abstract static class FlatMessageMixIn {}

    /**
     * Jackson 3's defaults but one: properties in declaration order, as
     * Jackson 2 and serde write them (3.0 made alphabetical order the
     * default). Failing on null primitives and on trailing tokens, which the
     * Jackson 2 codecs turn on, are 3.0's defaults; so is skipping unknown
     * properties (as serde does), where Jackson 2 fails.
     */
    static <M extends ObjectMapper, B extends MapperBuilder<M, B>> M build(B b) {
        return b.addMixIn(MultiMessage.Message.class, FlatMessageMixIn.class)
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .build();
    }

    public static ObjectMapper json() {
        return build(JsonMapper.builder());
    }

    /**
     * Blackbird replaces databind's reflective field and constructor access
     * with LambdaMetafactory-made calls; no Jackson 3 mapper has it by default.
     */
    public static ObjectMapper jsonBlackbird() {
        return build(JsonMapper.builder().addModule(new BlackbirdModule()));
    }

    public static ObjectMapper cbor() {
        return build(CBORMapper.builder());
    }

    public static ObjectMapper smile() {
        return build(SmileMapper.builder());
    }

    static final Labels LABELS = Labels.of(true, "owned", "validated", "reflection");
    static final String NOTES =
            "Jackson 3 (tools.jackson); 4-byte little-endian length prefix per record; ObjectWriter/ObjectReader made once "
                    + "per record type; Jackson 3's defaults (unknown properties skipped; null primitives and trailing tokens rejected) but "
                    + "properties in declaration order (not 3.0's alphabetical default); iex messages in Rust serde's shape "
                    + "(ts, symbol, body as an externally tagged Trade/LevelUpdate union, side by name), converted from and to the flat Java "
                    + "message by a Converter on a mix-in (one more object per message and body)";

    public static final Info JSON = new Info(
            "json-jackson3",
            "JSON",
            "tools.jackson.core:jackson-databind",
            LABELS,
            Framing.U32LE,
            "json",
            NOTES + "; nulls written as null");
    public static final Info JSON_BLACKBIRD = new Info(
            "json-jackson3-blackbird",
            "JSON",
            "tools.jackson.module:jackson-module-blackbird",
            LABELS,
            Framing.U32LE,
            "json",
            NOTES + "; nulls written as null; with the Blackbird module (not a default: registered on the "
                    + "mapper), on the json-jackson3 row's databind: Blackbird 3.2.4's LambdaMetafactory calls, since 3.3 "
                    + "makes classes with the ClassFile API and needs Java 25");
    public static final Info CBOR = new Info(
            "cbor-jackson3",
            "CBOR",
            "tools.jackson.dataformat:jackson-dataformat-cbor",
            LABELS,
            Framing.U32LE,
            "cbor-map",
            NOTES + "; a map of field names per record");
    public static final Info SMILE = new Info(
            "smile-jackson3",
            "Smile",
            "tools.jackson.dataformat:jackson-dataformat-smile",
            LABELS,
            Framing.U32LE,
            "smile",
            NOTES + "; Smile's default shared-name back-references within a record");
}
