package shootout.formats.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.devsmart.ubjson.UBValue;
import com.devsmart.ubjson.UBValueFactory;
import com.devsmart.ubjson.UBWriter;
import com.google.flatbuffers.ByteBufferReadWriteBuf;
import com.google.flatbuffers.FlexBuffers;
import com.google.flatbuffers.FlexBuffersBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import shootout.TestRegistry;
import shootout.codec.Codec;
import shootout.codec.Stream;
import shootout.workload.IexSink;
import shootout.workload.MultiMessage;
import shootout.workload.Workload;

/**
 * The serde-shaped iex of the field-model walkers (BSON, UBJSON, FlexBuffers):
 * they read the records Rust's codecs write (the body an externally tagged
 * union), and refuse a body that is not exactly one known variant. CodecTest
 * round-trips every fixture through them; InteropTest both interop modes.
 */
class SerdeUnionTest {
    static final Workload<MultiMessage, IexSink> IEX = Workload.IEX;

    /**
     * One record as Rust's codecs write it (`shootout interop --workload iex
     * --lang rust --keep DIR`, record 94 of the generated capture: a level
     * update and a trade) without the framing, and the same record as Rust's
     * serde_json writes it (the dataset's JSON).
     */
    static final String RUST_RECORD_JSON =
            "{\"seq_no\":351,\"messages\":[{\"ts\":1710509400024007477,\"symbol\":\"XOM\",\"body\":{\"LevelUpdate\":{\"price\":1138300,\"size\":0,\"flags\":1,\"side\":\"Sell\"}}},{\"ts\":1710509400024007929,\"symbol\":\"KO\",\"body\":{\"Trade\":{\"price\":599000,\"size\":205}}}]}";

    static final Map<String, String> RUST_RECORD_HEX = Map.of(
            "bson",
                    "f3000000127365715f6e6f005f01000000000000046d6573736167657300d4000000033000750000001274730035c365"
                            + "953cf3bc170273796d626f6c0004000000584f4d0003626f6479004e000000034c6576656c557064617465003c000000"
                            + "127072696365007c5e1100000000001273697a6500000000000000000010666c61677300010000000273696465000500"
                            + "000053656c6c000000000331005400000012747300f9c465953cf3bc170273796d626f6c00030000004b4f0003626f64"
                            + "79002e000000035472616465002200000012707269636500d8230900000000001273697a6500cd000000000000000000"
                            + "000000",
            "ubjson",
                    "7b23690269067365715f6e6f49015f69086d657373616765735b2369027b236903690274734c17bcf33c9565c3356906"
                            + "73796d626f6c536903584f4d6904626f64797b236901690b4c6576656c5570646174657b236904690570726963656c00"
                            + "115e7c690473697a6569006905666c616773690169047369646553690453656c6c7b236903690274734c17bcf33c9565"
                            + "c4f9690673796d626f6c5369024b4f6904626f64797b236901690554726164657b236902690570726963656c000923d8"
                            + "690473697a6555cd",
            "flexbuffers",
                    "7365715f6e6f006d657373616765730074730073796d626f6c0003584f4d00626f6479004c6576656c55706461746500"
                            + "70726963650073697a6500666c6167730073696465000453656c6c0004121e0e1a000000070000000100000004000000"
                            + "010000007c5e110021000000000000000a0a140a01510101011926035d6a6e0004000000000000000100000000000000"
                            + "03000000000000001f00000000000000850000000000000035c365953cf3bc17241407024b4f00547261646500028e89"
                            + "020000000100000002000000d8230900cd0000000a0a01200101010f2603bfccd0000000000000000a00000000000000"
                            + "0100000000000000030000000000000025000000000000005400000000000000f9c465953cf3bc1724140702841d2727"
                            + "02001b01240104000200020010005f012809062501");

    static Codec<MultiMessage, IexSink> codec(String format) throws Exception {
        return TestRegistry.row(format).codec(IEX);
    }

    /** The record's body in the codec's framing: BSON delimits itself, the others take a u32 LE length first. */
    static byte[] framed(String format, byte[] body) {
        if (format.equals("bson")) {
            return body;
        }
        return ByteBuffer.allocate(4 + body.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(body.length)
                .put(body)
                .array();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bson", "ubjson", "flexbuffers"})
    void readsTheRecordRustWrites(String format) throws Exception {
        byte[] bytes = framed(format, HexFormat.of().parseHex(RUST_RECORD_HEX.get(format)));
        IexSink got = IEX.newSink.get();
        assertEquals(bytes.length, codec(format).decode(bytes, 0, bytes.length, got));
        IexSink want = IEX.newSink.get();
        IEX.feed.accept(IEX.readLine.read(RUST_RECORD_JSON), want);
        assertNull(IEX.compare.apply(want, got));
    }

    /** BSON's mapping leaves no choice of integer types or field order: the JVM writes Rust's bytes. */
    @Test
    void bsonWritesTheBytesRustWrites() throws Exception {
        Stream out = new Stream(64);
        codec("bson").encode(out, IEX.readLine.read(RUST_RECORD_JSON));
        assertArrayEquals(HexFormat.of().parseHex(RUST_RECORD_HEX.get("bson")), Arrays.copyOf(out.buf, out.len));
    }

    /**
     * Rust writes the unsigned fields (seq_no, price, size, flags) as UInt,
     * but FlexBuffersBuilder's keyed putUInt and putUInt64 are private: with a
     * key it offers only putInt for integers. So the JVM writes every integer
     * as an Int, a u64 above i64::MAX as a negative Int that reads back to the
     * same bits (Rust reads a non-negative Int as its unsigned field). If flexbuffers-java gains
     * a public keyed unsigned put, the first assertion fails: FlexCodec should
     * then write these fields as UInt through it (runners/jvm/README.md).
     */
    @Test
    void flexbuffersWritesRustsUnsignedFieldsAsIntThroughThePublicApi() throws Exception {
        List<String> keyedUnsignedPuts = Arrays.stream(FlexBuffersBuilder.class.getMethods())
                .filter(m -> m.getName().startsWith("putU")
                        && m.getParameterCount() > 0
                        && m.getParameterTypes()[0] == String.class)
                .map(Method::toString)
                .toList();
        assertEquals(
                List.of(),
                keyedUnsignedPuts,
                "flexbuffers-java now has a public keyed unsigned put: write Rust's unsigned iex fields as UInt with it");

        MultiMessage record = IEX.readLine.read(RUST_RECORD_JSON);
        record.seq_no = -1; // u64::MAX
        Codec<MultiMessage, IexSink> c = codec("flexbuffers");
        Stream out = new Stream(64);
        c.encode(out, record);
        FlexBuffers.Map root = FlexBuffers.getRoot(
                        new ByteBufferReadWriteBuf(ByteBuffer.wrap(Arrays.copyOfRange(out.buf, 4, out.len))))
                .asMap();
        assertEquals(FlexBuffers.FBT_INT, root.get("seq_no").getType());
        assertEquals(-1L, root.get("seq_no").asLong());
        FlexBuffers.Map message = root.get("messages").asVector().get(0).asMap();
        assertEquals(FlexBuffers.FBT_INT, message.get("ts").getType());
        FlexBuffers.Map level = message.get("body").asMap().get("LevelUpdate").asMap();
        for (String unsigned : List.of("price", "size", "flags")) {
            assertEquals(FlexBuffers.FBT_INT, level.get(unsigned).getType(), unsigned);
        }
        IexSink got = IEX.newSink.get(), want = IEX.newSink.get();
        assertEquals(out.len, c.decode(out.buf, 0, out.len, got));
        IEX.feed.accept(record, want);
        assertNull(IEX.compare.apply(want, got));
    }

    // A packet of one message whose body is given, built with each library's own value API (no codec involved), so the
    // union path sees every wrong body: the well-formed one reads, to show the rest fail for their body alone. Longs
    // are
    // int64 in BSON and Integers int32 (u8 flags, as Rust's bson writes them).

    static final Map<String, Object> TRADE = map("price", 1725500L, "size", 100L);

    static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    static Map<String, Object> packet(Object body) {
        return map("seq_no", 65L, "messages", List.of(map("ts", 1710509400000162029L, "symbol", "AAPL", "body", body)));
    }

    static final Map<String, Function<Object, byte[]>> WRITERS = Map.of(
            "bson",
                    v -> {
                        RawBsonDocument d = new RawBsonDocument((BsonDocument) bson(v), new BsonDocumentCodec());
                        byte[] b = new byte[d.getByteBuffer().remaining()];
                        d.getByteBuffer().get(b);
                        return b;
                    },
            "ubjson",
                    v -> {
                        ByteArrayOutputStream out = new ByteArrayOutputStream();
                        try {
                            new UBWriter(out).write(ubjson(v));
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        return out.toByteArray();
                    },
            "flexbuffers",
                    v -> {
                        FlexBuffersBuilder b = new FlexBuffersBuilder();
                        flexbuffers(b, null, v);
                        ByteBuffer buf = b.finish();
                        byte[] out = new byte[buf.remaining()];
                        buf.get(out);
                        return out;
                    });

    static BsonValue bson(Object v) {
        if (v instanceof Long l) {
            return new BsonInt64(l);
        } else if (v instanceof Integer i) {
            return new BsonInt32(i);
        } else if (v instanceof String s) {
            return new BsonString(s);
        } else if (v instanceof List<?> l) {
            BsonArray a = new BsonArray();
            l.forEach(e -> a.add(bson(e)));
            return a;
        }
        BsonDocument d = new BsonDocument();
        ((Map<?, ?>) v).forEach((k, e) -> d.append((String) k, bson(e)));
        return d;
    }

    static UBValue ubjson(Object v) {
        if (v instanceof Number n) {
            return UBValueFactory.createInt(n.longValue());
        } else if (v instanceof String s) {
            return UBValueFactory.createString(s);
        } else if (v instanceof List<?> l) {
            return UBValueFactory.createArray(
                    l.stream().map(SerdeUnionTest::ubjson).toArray(UBValue[]::new));
        }
        Map<String, UBValue> m = new LinkedHashMap<>();
        ((Map<?, ?>) v).forEach((k, e) -> m.put((String) k, ubjson(e)));
        return UBValueFactory.createObject(m);
    }

    static void flexbuffers(FlexBuffersBuilder b, String key, Object v) {
        if (v instanceof Number n) {
            b.putInt(key, n.longValue());
        } else if (v instanceof String s) {
            b.putString(key, s);
        } else if (v instanceof List<?> l) {
            int start = b.startVector();
            l.forEach(e -> flexbuffers(b, null, e));
            b.endVector(key, start, false, false);
        } else {
            int start = b.startMap();
            ((Map<?, ?>) v).forEach((k, e) -> flexbuffers(b, (String) k, e));
            b.endMap(key, start);
        }
    }

    static byte[] written(String format, Object body) {
        return framed(format, WRITERS.get(format).apply(packet(body)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bson", "ubjson", "flexbuffers"})
    void aBodyThatIsNotExactlyOneKnownVariantIsAnError(String format) throws Exception {
        Codec<MultiMessage, IexSink> c = codec(format);
        byte[] good = written(format, map("Trade", TRADE));
        IexSink sink = IEX.newSink.get();
        assertEquals(good.length, c.decode(good, 0, good.length, sink));
        List<Object> bad = List.of(
                map(),
                map("Trade", TRADE, "LevelUpdate", map("price", 1L, "size", 2L, "flags", 1, "side", "Buy")),
                map("Quote", TRADE),
                map("Trade", "price"),
                "Trade",
                map("LevelUpdate", map("price", 1L, "size", 2L, "flags", 1, "side", "Hold")),
                map("LevelUpdate", TRADE));
        for (Object body : bad) {
            byte[] b = written(format, body);
            assertThrows(
                    Exception.class,
                    () -> c.decode(b, 0, b.length, IEX.newSink.get()),
                    format + " read the body " + body);
        }
    }
}
