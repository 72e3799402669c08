package shootout.formats.fastjson2;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.fastjson2.reader.ObjectReader;
import com.alibaba.fastjson2.reader.ObjectReaderProvider;
import com.alibaba.fastjson2.writer.ObjectWriter;
import com.alibaba.fastjson2.writer.ObjectWriterProvider;
import java.util.function.BiConsumer;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.workload.MultiMessage;
import shootout.workload.Workload;

/**
 * fastjson2 on the workload's record class (its public fields): written with
 * JSON.writeTo straight into the stream after a 4-byte length prefix, read
 * with the record type's ObjectReader, looked up once, from the stream's array
 * in place. Safe mode as fastjson2 ships it: no autoType (no type names are
 * read or written), and a context of this codec's own, so nothing is
 * registered in fastjson2's global providers.
 */
public final class Fastjson2Codec<R, S> implements Codec<R, S> {
    public static final Info INFO = new Info(
            "json-fastjson2",
            "JSON",
            "com.alibaba.fastjson2:fastjson2",
            Labels.of(true, "owned", "validated", "reflection"),
            Framing.U32LE,
            "json",
            "JSON.writeTo into the stream, JSONReader over the stream's array (no copy); 4-byte little-endian length prefix per record; "
                    + "autoType off; fields in fastjson2's default alphabetical order, nulls written as null (WriteNulls); unknown fields, "
                    + "null primitives and trailing bytes rejected; "
                    + "iex messages in Rust serde's shape (ts, symbol, body as an externally tagged Trade/LevelUpdate union, side by name) "
                    + "by an ObjectWriter and ObjectReader of the flat Java message registered on the codec's own providers");

    private final JSONWriter.Context writing;
    private final JSONReader.Context reading;
    private final ObjectReader<R> reader;
    private final Class<R> type;
    private final BiConsumer<R, S> feed;

    @SuppressWarnings("unchecked")
    public Fastjson2Codec(Workload<R, S> w) {
        ObjectWriterProvider writers = new ObjectWriterProvider();
        writers.register(MultiMessage.Message.class, SerdeMessage.WRITER);
        ObjectReaderProvider readers = new ObjectReaderProvider();
        readers.register(MultiMessage.Message.class, SerdeMessage.READER);
        writing = new JSONWriter.Context(writers, JSONWriter.Feature.WriteNulls);
        reading = new JSONReader.Context(
                readers,
                JSONReader.Feature.ErrorOnUnknownProperties,
                JSONReader.Feature.ErrorOnNullForPrimitives,
                JSONReader.Feature.ErrorOnNotSupportAutoType);
        reader = reading.getObjectReader(w.type); // the reader of w.type is an ObjectReader<R>
        type = w.type;
        feed = w.feed;
    }

    @Override
    public void encode(Stream out, R r) {
        int at = out.reserve();
        JSON.writeTo(out, r, writing);
        out.seal(at);
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        try (JSONReader in = JSONReader.of(buf, off + 4, n, reading)) {
            R r = reader.readObject(in, type, null, 0);
            if (r == null || !in.isEnd()) {
                throw new JSONException(in.info(r == null ? "null record" : "bytes after the record"));
            }
            feed.accept(r, sink);
        }
        return n + 4;
    }

    /** The flat Java iex message as Rust serde writes its Message: {"ts", "symbol", "body": {"Trade": {...}} or {"LevelUpdate": {...}}}. */
    static final class SerdeMessage {
        private SerdeMessage() {}

        static final ObjectWriter<MultiMessage.Message> WRITER = (w, value, fieldName, fieldType, features) -> {
            MultiMessage.Message m = (MultiMessage.Message) value;
            w.startObject();
            w.writeName("ts");
            w.writeColon();
            w.writeInt64(m.ts);
            w.writeName("symbol");
            w.writeColon();
            w.writeString(m.symbol);
            w.writeName("body");
            w.writeColon();
            w.startObject();
            boolean trade = m.kind == MultiMessage.Message.TRADE;
            w.writeName(trade ? "Trade" : "LevelUpdate");
            w.writeColon();
            w.startObject();
            w.writeName("price");
            w.writeColon();
            w.writeInt64(m.price);
            w.writeName("size");
            w.writeColon();
            w.writeInt64(m.size);
            if (!trade) {
                w.writeName("flags");
                w.writeColon();
                w.writeInt32(m.flags);
                w.writeName("side");
                w.writeColon();
                w.writeString(m.side == MultiMessage.Message.BUY ? "Buy" : "Sell");
            }
            w.endObject();
            w.endObject();
            w.endObject();
        };

        static final ObjectReader<MultiMessage.Message> READER = (r, fieldType, fieldName, features) -> {
            MultiMessage.Message m = new MultiMessage.Message();
            int seen = 0;
            expect(r.nextIfObjectStart(), r, "an iex message");
            while (!r.nextIfObjectEnd()) {
                String name = r.readFieldName();
                seen |= switch (name == null ? "" : name) {
                    case "ts" -> {
                        m.ts = r.readInt64Value();
                        yield 1;
                    }
                    case "symbol" -> {
                        m.symbol = r.readString();
                        expect(m.symbol != null, r, "a symbol");
                        yield 2;
                    }
                    case "body" -> {
                        readBody(r, m);
                        yield 4;
                    }
                    default -> throw new JSONException(r.info("unknown iex message field " + name));
                };
            }
            expect(seen == 7, r, "ts, symbol and body");
            return m;
        };

        /** The externally tagged body: one entry, its name the variant. */
        private static void readBody(JSONReader r, MultiMessage.Message m) {
            expect(r.nextIfObjectStart(), r, "a body");
            String variant = r.readFieldName();
            boolean trade = "Trade".equals(variant);
            expect(trade || "LevelUpdate".equals(variant), r, "Trade or LevelUpdate");
            m.kind = trade ? MultiMessage.Message.TRADE : MultiMessage.Message.LEVEL;
            expect(r.nextIfObjectStart(), r, "the " + variant + " fields");
            int seen = 0;
            while (!r.nextIfObjectEnd()) {
                String name = r.readFieldName();
                seen |= switch (name == null ? "" : name) {
                    case "price" -> {
                        m.price = r.readInt64Value();
                        yield 1;
                    }
                    case "size" -> {
                        m.size = r.readInt64Value();
                        yield 2;
                    }
                    case "flags" -> {
                        m.flags = r.readInt32Value();
                        yield 4;
                    }
                    case "side" -> {
                        String side = r.readString();
                        expect("Buy".equals(side) || "Sell".equals(side), r, "Buy or Sell");
                        m.side = side.equals("Buy") ? MultiMessage.Message.BUY : MultiMessage.Message.SELL;
                        yield 8;
                    }
                    default -> throw new JSONException(r.info("unknown " + variant + " field " + name));
                };
            }
            // A Trade has price and size only; a LevelUpdate all four.
            expect(seen == (trade ? 3 : 15), r, "every " + variant + " field");
            expect(r.nextIfObjectEnd(), r, "one variant in a body");
        }

        private static void expect(boolean ok, JSONReader r, String what) {
            if (!ok) {
                throw new JSONException(r.info("expected " + what));
            }
        }
    }
}
