package shootout.formats.jsonl;

import java.util.ArrayList;
import java.util.List;
import shootout.RoundTrip;
import shootout.codec.Codec;
import shootout.codec.Stream;
import shootout.harness.Entry;
import shootout.workload.JsonlReader;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;
import shootout.workload.Workload;

/** What a jsonl codec makes of some records: null (they round-trip and match), the sink's first difference, or the error. */
final class JsonlOutcomes {
    private JsonlOutcomes() {}

    static String outcome(Entry<JsonlRecord, JsonlSink> e, String... lines) throws Exception {
        List<JsonlRecord> records = new ArrayList<>();
        for (String l : lines) {
            records.add(JsonlReader.read(l));
        }
        JsonlSink want = new JsonlSink();
        for (JsonlRecord r : records) {
            JsonlRecord.feed(r, want);
        }
        Codec<JsonlRecord, JsonlSink> c = e.factory().make();
        c.prepare(records);
        JsonlSink got = new JsonlSink();
        String failed = RoundTrip.pass(c, records, new Stream(64), got);
        return failed != null ? failed : Workload.JSONL.compare.apply(want, got);
    }
}
