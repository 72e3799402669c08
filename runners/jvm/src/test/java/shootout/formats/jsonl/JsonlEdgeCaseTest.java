package shootout.formats.jsonl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import shootout.harness.Entry;
import shootout.registry.Registry;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;
import shootout.workload.Workload;

/**
 * What each jsonl codec's library model makes of the values at the edges:
 * the outcome observed, written down as expected (null: the records
 * round-trip and match; otherwise a part of the sink's finding or of the
 * encode or decode error), with why the library behaves so. A codec whose
 * outcome changes fails here, so the table (and the README's) stays true.
 */
class JsonlEdgeCaseTest {
    static String deep(int n) {
        return "[".repeat(n) + "]".repeat(n);
    }

    /** One record holding 2^60, 2^64 - 1, a 30-digit integer, -0.0, 1.0, a duplicate key and a 200-deep nested array. */
    static final String EDGE =
            "{\"big\":1152921504606846976,\"u64\":18446744073709551615,\"huge\":123456789012345678901234567890,"
                    + "\"nz\":-0.0,\"one\":1.0,\"dup\":1,\"dup\":2,\"deep\":" + deep(200) + "}";

    static final String MEMBERS =
            "members: 8 in the input, 7 decoded (the input has 1 duplicate key: the library keeps one value per key)";

    /** The edge record's outcome, codec by codec: only its first finding shows (the spec's order), FEATURES has each one. */
    static final Map<String, String> EDGE_OUTCOME = Map.ofEntries(
            Map.entry("baseline", "match"),
            // Jackson's ObjectNode is a map: set() keeps one value per key (the later), so the object has 7 members
            // where the input
            // has 8. Everything else survives: BigIntegerNode beyond a long (JSON digits, CBOR bignums, Smile big
            // integers), DoubleNode
            // keeps -0.0 and 1.0 as floats, and 200 levels are within Jackson's nesting limits (1000 in Jackson 2, 500
            // in Jackson 3).
            Map.entry("json-jackson", MEMBERS),
            Map.entry("cbor-jackson", MEMBERS),
            Map.entry("smile-jackson", MEMBERS),
            Map.entry("json-jackson3", MEMBERS),
            Map.entry("cbor-jackson3", MEMBERS),
            Map.entry("smile-jackson3", MEMBERS),
            // jackson-dataformat-msgpack's generator writes a BigInteger as a MessagePack integer, which ends at 2^64 -
            // 1: the
            // 30-digit integer is its encode error, before the duplicate key could show.
            Map.entry(
                    "msgpack-jackson-map",
                    "encode error: java.lang.IllegalArgumentException: MessagePack cannot serialize BigInteger "
                            + "larger than 2^64-1"),
            // DSL-JSON's untyped values are a LinkedHashMap (one value per key); it also writes -0.0 as 0.0 (FEATURES).
            Map.entry("json-dsljson", MEMBERS),
            // fastjson2's JSONObject is a map (one value per key); it also reads -0.0 as a BigDecimal 0.0 (FEATURES).
            Map.entry("json-fastjson2", MEMBERS),
            // Fory's deserializer refuses more than 50 levels by default (ForyBuilder#withMaxDepth raises it): the
            // 200-deep array is
            // its decode error (an error, not a silent loss, so the default stays).
            Map.entry(
                    "fory",
                    "decode error: org.apache.fory.exception.InsecureException: Read depth exceed max depth 50"),
            // msgpack-core's Value keeps every key (a map is its key-value pairs), but its packer writes integers of 64
            // bits at most.
            Map.entry(
                    "msgpack-raw",
                    "encode error: java.lang.IllegalArgumentException: MessagePack cannot serialize BigInteger larger "
                            + "than 2^64-1"),
            // BsonDocument is a map (one value per key); 2^64 - 1 and the 30-digit integer travel as Decimal128,
            // exactly.
            Map.entry("bson", MEMBERS),
            // com.dev-smart:ubjson has no high-precision number: 2^64 - 1 has no form (its TreeMap would also keep one
            // value per key).
            Map.entry(
                    "ubjson",
                    "encode error: java.lang.IllegalArgumentException: ubjson: the integer 18446744073709551615 is beyond int64"),
            // FlexBuffersBuilder's keyed unsigned puts are private: 2^64 - 1 as a member has no form (duplicate keys
            // would survive).
            Map.entry(
                    "flexbuffers",
                    "encode error: java.lang.IllegalArgumentException: flexbuffers: the integer 18446744073709551615 is "
                            + "above int64 and an object member's value"));

    /** One record per edge value (after one plain record where noted), so that each codec's every loss shows. */
    static final Map<String, String[]> FEATURES = new LinkedHashMap<>();

    static {
        FEATURES.put("2^60", new String[] {"{\"v\":1152921504606846976}"});
        FEATURES.put("2^64-1 member", new String[] {"{\"v\":18446744073709551615}"});
        FEATURES.put("2^64-1 element", new String[] {"{\"v\":[18446744073709551615]}"});
        FEATURES.put("30 digits", new String[] {"{\"v\":123456789012345678901234567890}"});
        FEATURES.put("-0.0", new String[] {"{\"v\":-0.0}"});
        FEATURES.put("1.0", new String[] {"{\"v\":1.0}"});
        FEATURES.put("duplicate key", new String[] {"{\"v\":1,\"v\":2}"});
        FEATURES.put("200 deep", new String[] {"{\"v\":" + deep(199) + "}"});
        FEATURES.put("512 deep", new String[] {"{\"v\":" + deep(511) + "}"});
        // After a list of integers: Fory's round trip of a list of only nulls fails once its codec has read and written
        // a list
        // of another element type (alone, or after a string or a list of nulls, it happens to read back).
        FEATURES.put("only nulls", new String[] {"{\"v\":[1]}", "{\"v\":[null]}"});
        FEATURES.put("NUL in a key", new String[] {"{\"a\\u0000b\":1}"});
        FEATURES.put("top-level array", new String[] {"[1,\"x\"]"});
    }

    static final String DUP =
            "members: 2 in the input, 1 decoded (the input has 1 duplicate key: the library keeps one value per key)";
    static final String MSGPACK_HUGE =
            "encode error: java.lang.IllegalArgumentException: MessagePack cannot serialize BigInteger larger "
                    + "than 2^64-1";
    static final String JACKSON3_DEPTH =
            "encode error: tools.jackson.core.exc.StreamConstraintsException: Document nesting depth (501) "
                    + "exceeds the maximum allowed (500";
    static final String UBJSON_WIDE = "encode error: java.lang.IllegalArgumentException: ubjson: the integer ";

    /** Each codec's outcome on each feature that does not match (every other feature matches). */
    static final Map<String, Map<String, String>> FEATURE_OUTCOMES = Map.ofEntries(
            Map.entry("baseline", Map.of()),
            Map.entry("json-jackson", Map.of("duplicate key", DUP)),
            Map.entry("cbor-jackson", Map.of("duplicate key", DUP)),
            Map.entry("smile-jackson", Map.of("duplicate key", DUP)),
            // The MessagePack generator's integer ends at 64 bits.
            Map.entry("msgpack-jackson-map", Map.of("duplicate key", DUP, "30 digits", MSGPACK_HUGE)),
            // Jackson 3's StreamWriteConstraints allow 500 levels by default (Jackson 2's, 1000): 512 is the writer's
            // error.
            Map.entry("json-jackson3", Map.of("duplicate key", DUP, "512 deep", JACKSON3_DEPTH)),
            Map.entry("cbor-jackson3", Map.of("duplicate key", DUP, "512 deep", JACKSON3_DEPTH)),
            Map.entry("smile-jackson3", Map.of("duplicate key", DUP, "512 deep", JACKSON3_DEPTH)),
            // DSL-JSON's number writer writes -0.0 as 0.0 (and its reader takes -0.0 as BigDecimal 0.0). Integers
            // beyond a long
            // come back as BigDecimal of scale 0: integers, by their text's kind.
            Map.entry("json-dsljson", Map.of("duplicate key", DUP, "-0.0", "-0.0: 1 in the input, 0 decoded")),
            // fastjson2 writes -0.0 but reads a number with a fraction as a BigDecimal (UseDoubleForDecimals does not
            // keep the sign
            // either): 0.0.
            Map.entry("json-fastjson2", Map.of("duplicate key", DUP, "-0.0", "-0.0: 1 in the input, 0 decoded")),
            // Fory: 50 levels at most on reading (its default); a list of only nulls is written with the element type
            // java.lang.Object by name, which the reader cannot resolve (apache/fory issue 2203). BigIntegers come back
            // as
            // BigDecimal of scale 0: integers.
            Map.entry(
                    "fory",
                    Map.of(
                            "duplicate key",
                            DUP,
                            "200 deep",
                            "decode error: org.apache.fory.exception.InsecureException: Read depth exceed max depth 50",
                            "512 deep",
                            "decode error: org.apache.fory.exception.InsecureException: Read depth exceed max depth 50",
                            "only nulls",
                            "decode error: org.apache.fory.exception.ClassUnregisteredException: Class java.lang.Object is not "
                                    + "registered")),
            // msgpack-core's map Value keeps every pair: duplicate keys survive.
            Map.entry("msgpack-raw", Map.of("30 digits", MSGPACK_HUGE)),
            // BSON: one value per key; a document is an object; a key is a C string, so U+0000 in one is the writer's
            // error.
            Map.entry(
                    "bson",
                    Map.of(
                            "duplicate key",
                            DUP,
                            "top-level array",
                            "encode error: java.lang.IllegalArgumentException: bson: the record is an array, not an object",
                            "NUL in a key",
                            "encode error: org.bson.BsonSerializationException: BSON cstring")),
            // com.dev-smart:ubjson: int64 at most (no high-precision number), a TreeMap per object.
            Map.entry(
                    "ubjson",
                    Map.of(
                            "duplicate key",
                            DUP,
                            "2^64-1 member",
                            UBJSON_WIDE,
                            "2^64-1 element",
                            UBJSON_WIDE,
                            "30 digits",
                            UBJSON_WIDE)),
            // FlexBuffers keeps duplicate keys; a UInt only where the builder has a public put (not as a member); no
            // type beyond 64
            // bits; a key is NUL-terminated, so "a\0b" reads back as "a": the hash shows the changed value.
            Map.entry(
                    "flexbuffers",
                    Map.of(
                            "2^64-1 member",
                                    "encode error: java.lang.IllegalArgumentException: flexbuffers: the integer 18446744073709551615 is "
                                            + "above int64 and an object member's value",
                            "30 digits",
                                    "encode error: java.lang.IllegalArgumentException: flexbuffers: the integer "
                                            + "123456789012345678901234567890 is beyond 64 bits",
                            "NUL in a key", "a value changed: hash ")));

    static List<Entry<JsonlRecord, JsonlSink>> entries() {
        return Registry.entries(Workload.JSONL);
    }

    @Test
    void everyJsonlCodecHasItsOutcomesWrittenDown() {
        TreeSet<String> codecs = new TreeSet<>();
        entries().forEach(e -> codecs.add(e.info().name()));
        assertEquals(codecs, new TreeSet<>(EDGE_OUTCOME.keySet()), "EDGE_OUTCOME's codecs");
        assertEquals(codecs, new TreeSet<>(FEATURE_OUTCOMES.keySet()), "FEATURE_OUTCOMES' codecs");
        for (Map<String, String> m : FEATURE_OUTCOMES.values()) {
            assertTrue(FEATURES.keySet().containsAll(m.keySet()), m.keySet().toString());
        }
    }

    static void assertOutcome(String expected, String observed, String what) {
        if (expected == null || expected.equals("match")) {
            assertNull(observed, what);
        } else {
            assertNotNull(observed, what + " now matches; expected " + expected);
            assertTrue(observed.startsWith(expected), what + ": expected " + expected + "..., observed " + observed);
        }
    }

    @TestFactory
    Stream<DynamicTest> theEdgeRecord() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Entry<JsonlRecord, JsonlSink> e : entries()) {
            String name = e.info().name();
            tests.add(DynamicTest.dynamicTest(
                    name, () -> assertOutcome(EDGE_OUTCOME.get(name), JsonlOutcomes.outcome(e, EDGE), name)));
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> eachEdgeValue() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Entry<JsonlRecord, JsonlSink> e : entries()) {
            String name = e.info().name();
            for (Map.Entry<String, String[]> f : FEATURES.entrySet()) {
                tests.add(DynamicTest.dynamicTest(
                        name + ": " + f.getKey(),
                        () -> assertOutcome(
                                FEATURE_OUTCOMES.getOrDefault(name, Map.of()).get(f.getKey()),
                                JsonlOutcomes.outcome(e, f.getValue()),
                                name + " on " + f.getKey())));
            }
        }
        return tests.stream();
    }
}
