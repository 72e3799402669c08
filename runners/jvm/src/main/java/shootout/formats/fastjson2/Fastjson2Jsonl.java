package shootout.formats.fastjson2;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONObject;
import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.fastjson2.reader.ObjectReaderProvider;
import com.alibaba.fastjson2.writer.ObjectWriterProvider;
import shootout.codec.Stream;
import shootout.formats.jsonl.JavaValues;
import shootout.formats.jsonl.JsonlCodec;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;

/**
 * The jsonl workload through fastjson2's own tree (JSONObject, JSONArray):
 * each record's tree made once from its canonical value (Long, BigInteger
 * beyond a long, Double, String, Boolean, null; JSONObject keeps one value per
 * key, the later one), written by JSON.writeTo straight into the stream after
 * a 4-byte length prefix with WriteNulls (without it, fastjson2 leaves a
 * member whose value is null out of the object), read back by JSONReader's
 * readAny (fastjson2's defaults: Integer, Long or BigInteger by size; a
 * number with a fraction as BigDecimal, with an exponent as Double) from the
 * stream's array in place and walked into the sink, a BigDecimal by its text's
 * kind.
 */
public final class Fastjson2Jsonl extends JsonlCodec<Object> {
    /** fastjson2's tree of a record. */
    public static final JsonlRecord.Model<Object> TREE =
            new JsonlRecord.Model<>("fastjson2 JSONObject", v -> JavaValues.of(v, JSONObject::new, JSONArray::new));

    public static final String NOTES =
            "on jsonl: fastjson2's own tree (JSONObject, JSONArray), not the record class: each record a tree "
                    + "made once (JSONObject keeps one value per key: a duplicate key's later value; Long, BigInteger, Double), written by "
                    + "JSON.writeTo into the stream after a 4-byte little-endian length prefix with WriteNulls (not the default: without it a "
                    + "member whose value is null is left out), read by JSONReader.readAny with fastjson2's defaults (BigDecimal for a number "
                    + "with a fraction, read back as a float; Double for one with an exponent; BigInteger beyond a long) and walked into the "
                    + "aggregate";

    private final JSONWriter.Context writing =
            new JSONWriter.Context(new ObjectWriterProvider(), JSONWriter.Feature.WriteNulls);
    private final JSONReader.Context reading = new JSONReader.Context(new ObjectReaderProvider());

    public Fastjson2Jsonl() {
        super(TREE);
    }

    @Override
    protected void write(Stream out, Object tree) {
        int at = out.reserve();
        JSON.writeTo(out, tree, writing);
        out.seal(at);
    }

    @Override
    public int decode(byte[] buf, int off, int end, JsonlSink sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        if (n == 0) {
            throw new JSONException("fastjson2: an empty record");
        }
        Object tree;
        try (JSONReader in = JSONReader.of(buf, off + 4, n, reading)) {
            tree = in.readAny();
            if (!in.isEnd()) {
                throw new JSONException(in.info("bytes after the record"));
            }
        }
        JavaValues.walk(tree, sink, "fastjson2");
        return n + 4;
    }
}
