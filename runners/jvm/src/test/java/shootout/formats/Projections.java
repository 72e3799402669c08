package shootout.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import shootout.RoundTrip;
import shootout.codec.Codec;
import shootout.codec.Stream;
import shootout.workload.JsonlReader;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;
import shootout.workload.Workload;

/**
 * What a schema format (protobuf-dynamic, avro-generic) makes of records: each line is read into the library's message or
 * generic record, encoded, decoded and walked back; the decoded values must be the expected projections
 * (docs/dataset-format.md, "With a schema"), compared as the harness compares aggregates (the value hash of each, so every
 * member's key, kind and value).
 */
public final class Projections {
    private Projections() {}

    /** Asserts that the records in, through one stream of a fresh codec, decode to the projections want, one for one. */
    public static void assertProjects(Codec<JsonlRecord, JsonlSink> c, List<String> in, List<String> want)
            throws Exception {
        assertNull(difference(c, in, want), in + " should decode to " + want);
    }

    /** The one record in decodes to the projection want. */
    public static void assertProjects(Codec<JsonlRecord, JsonlSink> c, String in, String want) throws Exception {
        assertProjects(c, List.of(in), List.of(want));
    }

    /** A projection decodes to itself. */
    public static void assertProjects(Codec<JsonlRecord, JsonlSink> c, String projection) throws Exception {
        assertProjects(c, projection, projection);
    }

    /** The first difference of the decoded records from the projections want, or what failed in the round trip; null if none. */
    static String difference(Codec<JsonlRecord, JsonlSink> c, List<String> in, List<String> want) throws Exception {
        List<JsonlRecord> records = new ArrayList<>();
        for (String line : in) {
            records.add(JsonlReader.read(line));
        }
        c.prepare(records);
        JsonlSink got = new JsonlSink();
        String failed = RoundTrip.pass(c, records, new Stream(64), got);
        if (failed != null) {
            return failed;
        }
        JsonlSink expected = new JsonlSink();
        for (String line : want) {
            JsonlReader.read(line).value.feed(expected);
        }
        assertEquals(want.size(), got.records(), "records decoded");
        return Workload.JSONL.compare.apply(expected, got);
    }

    /** The error encoding the one record in throws (its conversion to the library's model failing, untimed, in prepare). */
    public static Exception encodeError(Codec<JsonlRecord, JsonlSink> c, String in) throws Exception {
        JsonlRecord r = JsonlReader.read(in);
        c.prepare(List.of(r));
        try {
            c.encode(new Stream(64), r);
        } catch (Exception e) {
            return e;
        }
        throw new AssertionError(in + " was encoded");
    }
}
