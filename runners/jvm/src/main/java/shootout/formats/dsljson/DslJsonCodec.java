package shootout.formats.dsljson;

import com.dslplatform.json.CompiledJson;
import com.dslplatform.json.DslJson;
import com.dslplatform.json.JsonConverter;
import com.dslplatform.json.JsonReader;
import com.dslplatform.json.JsonWriter;
import com.dslplatform.json.NumberConverter;
import com.dslplatform.json.ParsingException;
import com.dslplatform.json.StringConverter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.workload.LongsRow;
import shootout.workload.MixedRow;
import shootout.workload.MultiMessage;
import shootout.workload.Primitives;
import shootout.workload.SmallObject;
import shootout.workload.SqlRequest;
import shootout.workload.StringsRow;
import shootout.workload.User;
import shootout.workload.Workload;

/**
 * DSL-JSON with the converters its annotation processor writes at compile
 * time (its documented fastest path; no reflection at run time), one reused
 * JsonWriter and JsonReader per codec over length-prefixed records (FramedJson).
 */
public final class DslJsonCodec<R, S> implements Codec<R, S> {
    public static final Info INFO = new Info(
            "json-dsljson",
            "JSON",
            "com.dslplatform:dsl-json",
            new Labels(
                    true,
                    "owned",
                    "validated",
                    "generated",
                    "-0.0 written as 0.0 (DSL-JSON 2.0.2's double writer; a float keeps its sign); other floats are exact"),
            Framing.U32LE,
            "json",
            "converters written by DSL-JSON's annotation processor at compile time; reused JsonWriter (its bytes copied "
                    + "into the stream) and JsonReader (each record copied into a scratch array: it reads from offset 0 only); 4-byte "
                    + "little-endian length prefix per record; doubles parsed exactly (DoublePrecision.EXACT, not the default); nulls "
                    + "written as null; unknown fields skipped (DSL-JSON's default), anything but whitespace after the record rejected; iex messages in "
                    + "Rust serde's shape (ts, symbol, body as an externally tagged Trade/LevelUpdate union, side by name) by a "
                    + "@JsonConverter of the flat Java message");

    /**
     * Names every record class, so the annotation processor writes a
     * converter for each (it does for the classes an annotated class refers
     * to: the record classes themselves, some generated, stay unannotated).
     */
    @CompiledJson
    public static final class Records {
        public MultiMessage iex;
        public User user;
        public SqlRequest sql;
        public Primitives primitives;
        public SmallObject object;
        public MixedRow mixed;
        public StringsRow strings;
        public LongsRow longs;
    }

    private final JsonWriter.WriteObject<R> writeRecord;
    private final JsonReader.ReadObject<R> readRecord;
    private final FramedJson json;
    private final BiConsumer<R, S> feed;

    public DslJsonCodec(Workload<R, S> w) {
        DslJson<Object> dsl = new DslJson<>(
                new DslJson.Settings<>().includeServiceLoader().doublePrecision(JsonReader.DoublePrecision.EXACT));
        writeRecord = dsl.tryFindWriter(w.type);
        readRecord = dsl.tryFindReader(w.type);
        if (writeRecord == null || readRecord == null) {
            throw new IllegalStateException(
                    "DSL-JSON has no compiled converter for " + w.type.getName() + ": add it to DslJsonCodec.Records");
        }
        json = new FramedJson(dsl);
        feed = w.feed;
    }

    @Override
    public void encode(Stream out, R r) {
        writeRecord.write(json.startRecord(), r);
        json.endRecord(out);
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        JsonReader<Object> reader = json.openRecord(buf, off, end);
        R r = readRecord.read(reader);
        if (r == null) {
            throw reader.newParseError("null record");
        }
        int used = json.closeRecord();
        feed.accept(r, sink);
        return used;
    }

    /** The flat Java iex message as Rust serde writes its Message: {"ts", "symbol", "body": {"Trade": {...}} or {"LevelUpdate": {...}}}. */
    @JsonConverter(target = MultiMessage.Message.class)
    public static final class SerdeMessage {
        private SerdeMessage() {}

        private static byte[] ascii(String s) {
            return s.getBytes(StandardCharsets.US_ASCII);
        }

        private static final byte[] TS = ascii("{\"ts\":"),
                SYMBOL = ascii(",\"symbol\":"),
                TRADE = ascii(",\"body\":{\"Trade\":{\"price\":"),
                LEVEL = ascii(",\"body\":{\"LevelUpdate\":{\"price\":"),
                SIZE = ascii(",\"size\":"),
                FLAGS = ascii(",\"flags\":"),
                BUY = ascii(",\"side\":\"Buy\"}}}"),
                SELL = ascii(",\"side\":\"Sell\"}}}"),
                END_TRADE = ascii("}}}");

        public static final JsonWriter.WriteObject<MultiMessage.Message> JSON_WRITER = (w, m) -> {
            if (m == null) {
                w.writeNull();
                return;
            }
            boolean trade = m.kind == MultiMessage.Message.TRADE;
            w.writeAscii(TS);
            NumberConverter.serialize(m.ts, w);
            w.writeAscii(SYMBOL);
            StringConverter.serialize(m.symbol, w);
            w.writeAscii(trade ? TRADE : LEVEL);
            NumberConverter.serialize(m.price, w);
            w.writeAscii(SIZE);
            NumberConverter.serialize(m.size, w);
            if (trade) {
                w.writeAscii(END_TRADE);
            } else {
                w.writeAscii(FLAGS);
                NumberConverter.serialize(m.flags, w);
                w.writeAscii(m.side == MultiMessage.Message.BUY ? BUY : SELL);
            }
        };

        /** Called at the value's first token; returns at its last, as DSL-JSON's own readers do. */
        public static final JsonReader.ReadObject<MultiMessage.Message> JSON_READER = r -> {
            MultiMessage.Message m = new MultiMessage.Message();
            int seen = 0;
            expect(r.last() == '{', r, "an iex message");
            for (boolean first = true; nextField(r, first); first = false) {
                String name = r.readKey();
                seen |= switch (name) {
                    case "ts" -> {
                        m.ts = NumberConverter.deserializeLong(r);
                        yield 1;
                    }
                    case "symbol" -> {
                        m.symbol = r.readString();
                        yield 2;
                    }
                    case "body" -> {
                        readBody(r, m);
                        yield 4;
                    }
                    default -> throw r.newParseError("unknown iex message field " + name);
                };
            }
            expect(seen == 7, r, "ts, symbol and body");
            return m;
        };

        /** The externally tagged body: one entry, its name the variant. */
        private static void readBody(JsonReader<?> r, MultiMessage.Message m) throws IOException {
            expect(r.last() == '{' && r.getNextToken() == '"', r, "a body");
            String variant = r.readKey();
            boolean trade = variant.equals("Trade");
            expect(trade || variant.equals("LevelUpdate"), r, "Trade or LevelUpdate");
            m.kind = trade ? MultiMessage.Message.TRADE : MultiMessage.Message.LEVEL;
            int seen = 0;
            expect(r.last() == '{', r, "the " + variant + " fields");
            for (boolean first = true; nextField(r, first); first = false) {
                String name = r.readKey();
                seen |= switch (name) {
                    case "price" -> {
                        m.price = NumberConverter.deserializeLong(r);
                        yield 1;
                    }
                    case "size" -> {
                        m.size = NumberConverter.deserializeLong(r);
                        yield 2;
                    }
                    case "flags" -> {
                        m.flags = NumberConverter.deserializeInt(r);
                        yield 4;
                    }
                    case "side" -> {
                        String side = r.readString();
                        expect(side.equals("Buy") || side.equals("Sell"), r, "Buy or Sell");
                        m.side = side.equals("Buy") ? MultiMessage.Message.BUY : MultiMessage.Message.SELL;
                        yield 8;
                    }
                    default -> throw r.newParseError("unknown " + variant + " field " + name);
                };
            }
            // A Trade has price and size only; a LevelUpdate all four.
            expect(seen == (trade ? 3 : 15), r, "every " + variant + " field");
            expect(r.getNextToken() == '}', r, "one variant in a body");
        }

        /**
         * Moves to the next field of the object being read, from its opening
         * brace (first) or the end of the last field's value: true with the
         * reader at the field name's opening quote, false at the closing brace.
         */
        private static boolean nextField(JsonReader<?> r, boolean first) throws IOException {
            byte next = r.getNextToken();
            if (next == '}') {
                return false;
            }
            expect(first ? next == '"' : next == ',' && r.getNextToken() == '"', r, "a field name");
            return true;
        }

        private static void expect(boolean ok, JsonReader<?> r, String what) throws ParsingException {
            if (!ok) {
                throw r.newParseError("expected " + what);
            }
        }
    }
}
