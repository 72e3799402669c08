package shootout.formats.fory;

import shootout.codec.Stream;
import shootout.formats.jsonl.JavaValues;
import shootout.formats.jsonl.JsonlCodec;
import shootout.workload.JsonlSink;

/**
 * The jsonl workload in Fory's xlang mode through its dynamic types: a value
 * of unknown type is written with its type tag (xlang's map, list, int64,
 * float64, string, bool, null, and decimal for a BigInteger), so each record's
 * java.util model (LinkedHashMap, ArrayList, Long, BigInteger, Double, String,
 * Boolean, null; one value per key, a duplicate key's later one), made once,
 * is serialized as it is, with the row's settings (schema-consistent, no
 * reference tracking, registration required: none is needed for these
 * types), into one reused MemoryBuffer copied into the stream after a 4-byte
 * length prefix; deserialized back (a HashMap, ArrayList, Long, BigDecimal for
 * a BigInteger, read by its text's kind; Fory's default read depth of 50)
 * and walked into the sink.
 */
public final class ForyJsonl extends JsonlCodec<Object> {
    public static final String NOTES =
            "on jsonl: xlang's dynamic types, not registered classes: each record a java.util model made once "
                    + "(LinkedHashMap: a duplicate key's later value; Long, BigInteger, Double), serialized with its type tags by the row's "
                    + "xlang Fory (schema-consistent, no reference tracking) into a reused MemoryBuffer copied into the stream after a 4-byte "
                    + "little-endian length prefix, deserialized (HashMap, ArrayList, Long, Double, BigDecimal for a BigInteger, read back as "
                    + "an integer; Fory's default maximum read depth, 50) and walked into the aggregate";

    private final ForyFrames frames = new ForyFrames(ForyCodec.builder(true).build());

    public ForyJsonl() {
        super(JavaValues.MODEL);
    }

    @Override
    protected void write(Stream s, Object values) {
        frames.write(s, values);
    }

    @Override
    public int decode(byte[] buf, int off, int end, JsonlSink sink) throws Exception {
        JavaValues.walk(frames.read(buf, off, end), sink, "fory");
        return frames.used();
    }
}
