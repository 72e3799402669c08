package shootout.formats.jsonl;

import java.util.List;
import shootout.codec.Codec;
import shootout.codec.Mapping;
import shootout.codec.Stream;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;
import shootout.workload.Workload;

/**
 * A codec of the jsonl workload through its library's own dynamic value
 * model M: prepare makes each record's M from its canonical value once,
 * untimed (codecs of one library share the record's M); encode writes the M
 * only, so the timed encode is the library's; decode reads the bytes into an
 * M with the library and walks it into the sink, so whatever M loses
 * (duplicate keys, an integer's size or kind, -0.0) shows as a difference
 * the sink names, and what M cannot hold is a per-record encode error.
 */
public abstract class JsonlCodec<M> implements Codec<JsonlRecord, JsonlSink> {
    private final JsonlRecord.Model<M> model;

    protected JsonlCodec(JsonlRecord.Model<M> model) {
        this.model = model;
    }

    /** The jsonl row of a format: make makes its codec, notes say how it uses its library on jsonl. */
    public static Mapping<JsonlRecord, JsonlSink> mapping(Mapping.Make<JsonlRecord, JsonlSink> make, String notes) {
        return new Mapping<>(Workload.JSONL, make, notes);
    }

    @Override
    public final void prepare(List<JsonlRecord> window) {
        for (JsonlRecord r : window) {
            r.prepare(model);
        }
    }

    @Override
    public final void encode(Stream out, JsonlRecord r) throws Exception {
        write(out, r.model(model));
    }

    /** Appends the model of one record to out, in the format's framing. */
    protected abstract void write(Stream out, M m) throws Exception;
}
