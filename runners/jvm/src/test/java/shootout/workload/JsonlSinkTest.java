package shootout.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import shootout.Spec;

/** The jsonl workload's reader, value hash, aggregate and findings (docs/dataset-format.md, "`jsonl`: any JSON value"). */
class JsonlSinkTest {
    /** Feeds v with every string and key as UTF-8 bytes (in an array at an offset, or in a ByteBuffer): the sink's other ways in. */
    static void feedBytes(JsonValue v, JsonlSink s, boolean buffer) {
        switch (v.kind) {
            case STRING -> {
                byte[] b = ("##" + v.stringValue()).getBytes(StandardCharsets.UTF_8);
                if (buffer) {
                    s.utf8(ByteBuffer.wrap(b, 2, b.length - 2));
                } else {
                    s.utf8(b, 2, b.length - 2);
                }
            }
            case ARRAY -> {
                s.beginArray();
                for (int i = 0; i < v.size(); i++) {
                    feedBytes(v.get(i), s, buffer);
                }
                s.endArray();
            }
            case OBJECT -> {
                s.beginObject();
                for (int i = 0; i < v.size(); i++) {
                    byte[] k = ("#" + v.key(i)).getBytes(StandardCharsets.UTF_8);
                    s.keyUtf8(k, 1, k.length - 1);
                    feedBytes(v.get(i), s, buffer);
                }
                s.endObject();
            }
            case INT, U64, BIG -> s.bigInteger(v.bigIntegerValue());
            default -> v.feed(s);
        }
    }

    /** spec/vectors.json's jsonl hashes, every one, by each way into the sink: Strings, UTF-8 bytes in an array, in a ByteBuffer. */
    @Test
    void everyWayInHashesTheSpecsJsonlVectors() throws Exception {
        JsonNode vectors = Spec.json("vectors.json").at("/jsonl_hash/vectors");
        assertTrue(vectors.size() > 30, "spec/vectors.json has too few jsonl_hash vectors: " + vectors.size());
        for (JsonNode t : vectors) {
            String json = t.get("json").asText(), want = t.get("hash").asText();
            JsonValue v = JsonlReader.value(json);
            JsonlSink strings = new JsonlSink(), array = new JsonlSink(), buffer = new JsonlSink();
            v.feed(strings);
            feedBytes(v, array, false);
            feedBytes(v, buffer, true);
            for (JsonlSink s : new JsonlSink[] {strings, array, buffer}) {
                assertEquals(1, s.records, json);
                assertEquals(want, Long.toUnsignedString(s.hash), json);
                assertEquals(0, s.depth(), json);
            }
        }
    }

    @Test
    void theFixtureAddsUpToItsReference() throws Exception {
        Spec.Fixture<JsonlRecord, JsonlSink> f = Spec.read(Workload.JSONL);
        JsonlSink s = new JsonlSink();
        for (JsonlRecord r : f.records()) {
            JsonlRecord.feed(r, s);
        }
        assertNull(f.check().apply(s));
        assertEquals(f.records().size(), s.records);
    }

    @Test
    void theReaderKeepsEverythingTheTextSays() throws Exception {
        JsonValue v = JsonlReader.value("{\"a\":1,\"b\":-0,\"a\":2.0,\"c\":18446744073709551615,\"d\":1"
                + "0".repeat(1200) + ",\"e\":-0.0,\"f\":1E5,\"g\":\"\\ud83d\\ude00\"}");
        assertEquals(JsonValue.Kind.OBJECT, v.kind);
        assertEquals(8, v.size());
        assertEquals(
                List.of("a", "b", "a", "c", "d", "e", "f", "g"),
                java.util.stream.IntStream.range(0, 8).mapToObj(v::key).toList());
        assertEquals(JsonValue.Kind.INT, v.get(0).kind);
        assertEquals(0, v.get(1).longValue()); // -0 is the integer 0
        assertEquals(JsonValue.Kind.FLOAT, v.get(2).kind); // 2.0 is a float: its text has a '.'
        assertEquals(JsonValue.Kind.U64, v.get(3).kind);
        assertEquals(-1L, v.get(3).u64Bits());
        assertEquals(JsonValue.Kind.BIG, v.get(4).kind);
        assertEquals(BigInteger.TEN.pow(1200), v.get(4).bigIntegerValue());
        assertEquals(
                Double.doubleToRawLongBits(-0.0),
                Double.doubleToRawLongBits(v.get(5).doubleValue()));
        assertEquals(JsonValue.Kind.FLOAT, v.get(6).kind);
        assertEquals(100000.0, v.get(6).doubleValue());
        assertEquals("\ud83d\ude00", v.get(7).stringValue());
        assertEquals(JsonValue.Kind.BIG, JsonlReader.value("-9223372036854775809").kind);
        assertEquals(JsonValue.Kind.INT, JsonlReader.value("-9223372036854775808").kind);
        assertEquals(JsonValue.Kind.BIG, JsonlReader.value("18446744073709551616").kind);
        // The nearest double, ties to even: 2^53 + 1 is halfway between 2^53 and 2^53 + 2.
        assertEquals(9007199254740992.0, JsonlReader.value("9007199254740993.0").doubleValue());
        assertEquals(
                "[".repeat(512) + "]".repeat(512),
                JsonlReader.value("[".repeat(512) + "]".repeat(512)).toString());
    }

    @Test
    void theReaderRefusesWhatTheSpecRefusesNamingTheLine(@TempDir Path dir) throws Exception {
        String header =
                "{\"schema\":\"shootout-dataset/1\",\"workload\":\"jsonl\",\"records\":2,\"source\":\"t\",\"input\":null,\"fields\":[],"
                        + "\"reference\":{}}";
        String[][] refused = {
            {"[1e400]", "beyond the double range"},
            {"-1E400", "beyond the double range"},
            {"\"a\\ud800b\"", "no partner"},
            {"{\"\\udc00\":1}", "surrogate"}, // Jackson's own refusal of an unpaired surrogate in a key, or ours
            {"[".repeat(513) + "]".repeat(513), "deeper than 512"},
            {"{} {}", "more than one JSON value"},
            {"", "no JSON value"},
            {"[1,]", ""},
            {"NaN", ""},
        };
        for (String[] r : refused) {
            Path p = dir.resolve("d.jsonl");
            Files.writeString(p, header + "\n1\n" + r[0] + "\n");
            try (Dataset<JsonlRecord> d = Dataset.open(p, Workload.JSONL)) {
                IOException e = assertThrows(IOException.class, () -> d.next(10), r[0]);
                assertTrue(e.getMessage().startsWith("line 3: "), e.getMessage());
                assertTrue(e.getMessage().contains(r[1]), e.getMessage());
            }
        }
    }

    static JsonlSink.Reference figures(String... lines) throws IOException {
        JsonlSink s = new JsonlSink();
        for (String l : lines) {
            JsonlReader.value(l).feed(s);
        }
        return s.figures();
    }

    /** Each finding in the spec's order and words: the first count that differs, with both figures. */
    @Test
    void theFirstDifferenceIsNamedInTheSpecsOrder() throws Exception {
        JsonlSink.Reference in =
                figures("{\"a\":1,\"a\":2,\"b\":18446744073709551615,\"c\":123456789012345678901234567890,\"d\":-0.0}");
        assertEquals(1, in.duplicateKeys());
        assertNull(in.firstDifference(in));
        assertEquals("expected 1 records, decoded 2", in.firstDifference(figures("{}", "{}")));
        assertEquals(
                "members: 5 in the input, 4 decoded (the input has 1 duplicate key: the library keeps one value per key)",
                in.firstDifference(figures(
                        "{\"a\":2,\"b\":18446744073709551615,\"c\":123456789012345678901234567890,\"d\":-0.0}")));
        assertEquals(
                "integers beyond 64 bits: 1 in the input, 0 decoded",
                in.firstDifference(figures(
                        "{\"a\":1,\"a\":2,\"b\":18446744073709551615,\"c\":1.2345678901234568E29,\"d\":-0.0}")));
        assertEquals(
                "integers beyond ±2^53: 2 in the input, 1 decoded",
                in.firstDifference(
                        figures("{\"a\":1,\"a\":2,\"b\":-1,\"c\":123456789012345678901234567890,\"d\":-0.0}")));
        assertEquals(
                "-0.0: 1 in the input, 0 decoded",
                in.firstDifference(
                        figures(
                                "{\"a\":1,\"a\":2,\"b\":18446744073709551615,\"c\":123456789012345678901234567890,\"d\":0.0}")));
        JsonlSink.Reference ints = figures("[1,2.5]");
        assertEquals(
                "integers read back as floats: integers: 1 in the input, 0 decoded; floats: 1 in the input, 2 decoded",
                ints.firstDifference(figures("[1.0,2.5]")));
        assertEquals(
                "floats with integral values read back as integers: integers: 1 in the input, 2 decoded; floats: 1 in the input, 0 "
                        + "decoded",
                figures("[1,2.0]").firstDifference(figures("[1,2]")));
        // Not exactly what the other gained: both figures, no prefix.
        assertEquals(
                "integers: 1 in the input, 0 decoded; floats: 1 in the input, 1 decoded",
                ints.firstDifference(figures("[\"1\",2.5]")));
        assertEquals(
                "integers: 1 in the input, 0 decoded; floats: 1 in the input, 3 decoded",
                ints.firstDifference(figures("[1.5,2.5,3.5]")));
        // The duplicate-key remark whenever the input has duplicate keys.
        assertEquals(
                "members: 2 in the input, 3 decoded (the input has 1 duplicate key: the library keeps one value per key)",
                figures("{\"a\":1,\"a\":1}").firstDifference(figures("{\"a\":1,\"b\":1,\"c\":1}")));
        assertEquals("members: 1 in the input, 0 decoded", figures("{\"a\":1}").firstDifference(figures("{}")));
        assertEquals("nulls: 1 in the input, 0 decoded", figures("[null]").firstDifference(figures("[false]")));
        assertEquals(
                "integral_floats: 1 in the input, 0 decoded", figures("[1.0]").firstDifference(figures("[1.5]")));
        assertEquals("text_bytes: 1 in the input, 2 decoded", figures("[\"a\"]").firstDifference(figures("[\"é\"]")));
        assertEquals("arrays: 2 in the input, 1 decoded", figures("[[]]").firstDifference(figures("[{}]")));
        assertTrue(figures("[1,2]").firstDifference(figures("[2,1]")).startsWith("a value changed: hash "));
        // duplicate_keys is information for the finding, never compared.
        assertNull(figures("{\"a\":1,\"a\":1}").firstDifference(figures("{\"a\":1,\"a\":1}")));
    }

    @Test
    void theCountsAreTheSpecs() throws Exception {
        JsonlSink.Reference f = figures(
                "[9007199254740992,9007199254740993,-9007199254740993,1.0,-0.0,0.0,1e300,0.5,\"é\",{\"k\":null,\"k\":true}]");
        assertEquals(3, f.integers());
        assertEquals(2, f.bigIntegers()); // |v| > 2^53
        assertEquals(0, f.hugeIntegers());
        assertEquals(5, f.floats());
        assertEquals(1, f.negativeZeros());
        assertEquals(4, f.integralFloats()); // 1.0, -0.0, 0.0, 1e300
        assertEquals(1, f.strings());
        assertEquals(2, f.textBytes());
        assertEquals(1, f.nulls());
        assertEquals(1, f.booleans());
        assertEquals(1, f.arrays());
        assertEquals(10, f.elements());
        assertEquals(1, f.objects());
        assertEquals(2, f.members());
        assertEquals(1, f.duplicateKeys());
        assertEquals(1, figures("18446744073709551616").hugeIntegers());
        assertEquals(0, figures("18446744073709551615").hugeIntegers());
        assertEquals(1, figures("-9223372036854775809").hugeIntegers());
    }

    @Test
    void aWalkOutOfOrderIsRefused() {
        JsonlSink s = new JsonlSink();
        s.beginObject();
        assertThrows(IllegalStateException.class, () -> s.i64(1));
        assertThrows(IllegalStateException.class, s::endArray);
        JsonlSink t = new JsonlSink();
        t.beginArray();
        assertThrows(IllegalStateException.class, () -> t.key("k"));
        assertThrows(IllegalStateException.class, t::endObject);
        assertThrows(IllegalStateException.class, new JsonlSink()::endArray);
    }

    /** Once warm, the sink allocates nothing per value (integers beyond 64 bits aside, whose decimal text it hashes). */
    @Test
    void aWarmSinkAllocatesNothingPerValue() throws Exception {
        JsonValue v = JsonlReader.value(
                "{\"a\":[1,2.5,\"é日本\",null,true,{\"b\":[[[]]],\"b\":18446744073709551615}],\"c\":\"text\",\"日\":-0.0}");
        JsonlSink s = new JsonlSink();
        for (int i = 0; i < 10_000; i++) {
            v.feed(s);
        }
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 10_000; i++) {
            v.feed(s);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 1024, allocated + " bytes allocated over 10,000 records");
        assertEquals(20_000, s.records);
    }
}
