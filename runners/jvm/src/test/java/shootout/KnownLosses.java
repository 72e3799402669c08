package shootout;

import java.util.Map;

/**
 * Known library losses on the fixtures, as the Go runner's README lists its
 * own: format -> workload -> a part of the first difference (or of the error)
 * that the harness must report. CodecTest holds every codec's round trip of
 * every fixture to it, InteropTest every stream.
 */
public final class KnownLosses {
    private KnownLosses() {
    }

    public static final Map<String, Map<String, String>> FIXTURES = Map.of(
            // A BSON document is an object: the jsonl fixture's top-level array, string, number and literals have no BSON form
            // (BsonJsonl refuses them when it makes the record's BsonDocument; the encode of the record throws that).
            "bson", Map.of("jsonl", "not an object: a BSON document is an object"),
            // Fory 1.6.0's xlang writes a list whose elements are all null (the fixture's [null]) with the element type
            // java.lang.Object by name, which its reader cannot resolve (apache/fory issue 2203): the decode throws.
            "fory", Map.of("jsonl", "Class java.lang.Object is not registered"));

    /** The known loss of format on workload's fixture, or null. */
    public static String of(String format, String workload) {
        return FIXTURES.getOrDefault(format, Map.of()).get(workload);
    }
}
