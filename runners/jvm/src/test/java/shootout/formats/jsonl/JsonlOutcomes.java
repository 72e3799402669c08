package shootout.formats.jsonl;

import java.util.ArrayList;
import java.util.List;
import shootout.codec.Codec;
import shootout.codec.Stream;
import shootout.harness.Entry;
import shootout.workload.JsonlReader;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;
import shootout.workload.Workload;

/** What a jsonl codec makes of some records: null (they round-trip and match), the sink's first difference, or the error. */
final class JsonlOutcomes {
    private JsonlOutcomes() {
    }

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
        Stream out = new Stream(64);
        for (int i = 0; i < records.size(); i++) {
            try {
                c.encode(out, records.get(i));
            } catch (Exception x) {
                return "encode error: " + x;
            }
        }
        JsonlSink got = new JsonlSink();
        int off = 0, n = 0;
        while (off < out.len) {
            int used;
            try {
                used = c.decode(out.buf, off, out.len, got);
            } catch (Exception x) {
                return "decode error: " + x;
            }
            if (used <= 0 || used > out.len - off) {
                return "decode used " + used + " bytes at " + off + " of " + out.len;
            }
            off += used;
            n++;
        }
        return Workload.JSONL.compare.apply(want, got);
    }
}
