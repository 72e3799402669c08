package shootout.formats.dsljson;

import com.dslplatform.json.DslJson;
import com.dslplatform.json.ObjectConverter;
import com.dslplatform.json.runtime.Settings;
import java.io.IOException;
import shootout.codec.Stream;
import shootout.formats.jsonl.JavaValues;
import shootout.formats.jsonl.JsonlCodec;
import shootout.workload.JsonlSink;

/**
 * The jsonl workload through DSL-JSON's untyped values (ObjectConverter, its
 * reader and writer of Object, with Settings.basicSetup(), DSL-JSON's
 * documented setup for collections): each record's java.util model (LinkedHashMap,
 * ArrayList, Long, BigInteger, Double, String, Boolean, null; a duplicate
 * key's later value kept) made once, written by ObjectConverter.serializeObject
 * into a reused JsonWriter whose bytes are copied into the stream after a
 * 4-byte length prefix; read by ObjectConverter.deserializeObject with
 * DSL-JSON's defaults (integers as Long, numbers with a fraction or an
 * exponent and integers beyond a long as BigDecimal) from a scratch copy (the
 * reader reads from offset 0 only) and walked into the sink, a BigDecimal by
 * its text's kind.
 */
public final class DslJsonJsonl extends JsonlCodec<Object> {
    public static final String NOTES =
            "on jsonl: DSL-JSON's untyped Object values (ObjectConverter), not compiled converters, with "
                    + "Settings.basicSetup() (DSL-JSON's documented setup for collections: without it a nested ArrayList has no writer): each "
                    + "record a java.util model made once (LinkedHashMap: a duplicate key keeps its later value; Long, BigInteger, Double), written by "
                    + "ObjectConverter.serializeObject into a reused JsonWriter (its bytes copied into the stream after a 4-byte little-endian "
                    + "length prefix; its double writer writes -0.0 as 0.0), read by ObjectConverter.deserializeObject with DSL-JSON's defaults "
                    + "(LONG_AND_BIGDECIMAL: integers as Long, fractions, exponents and integers beyond a long as BigDecimal, a BigDecimal of "
                    + "scale 0 read as an integer, any other as the double nearest it) from a scratch copy, then walked into the aggregate";

    private final FramedJson json;

    public DslJsonJsonl() {
        super(JavaValues.MODEL);
        // Settings.basicSetup(): DSL-JSON's documented setup for collections (its analyzers of List and Map; no
        // reflection);
        // without it, DslJson has no writer for an ArrayList inside another value.
        json = new FramedJson(new DslJson<>(Settings.basicSetup()));
    }

    @Override
    protected void write(Stream out, Object values) throws IOException {
        ObjectConverter.serializeObject(values, json.startRecord());
        json.endRecord(out);
    }

    @Override
    public int decode(byte[] buf, int off, int end, JsonlSink sink) throws Exception {
        Object values = ObjectConverter.deserializeObject(json.openRecord(buf, off, end));
        int used = json.closeRecord();
        JavaValues.walk(values, sink, "dsl-json");
        return used;
    }
}
