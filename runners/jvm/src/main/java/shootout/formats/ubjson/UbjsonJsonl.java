package shootout.formats.ubjson;

import com.devsmart.ubjson.UBArray;
import com.devsmart.ubjson.UBObject;
import com.devsmart.ubjson.UBReader;
import com.devsmart.ubjson.UBValue;
import com.devsmart.ubjson.UBValueFactory;
import com.devsmart.ubjson.UBWriter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;
import shootout.codec.Stream;
import shootout.formats.jsonl.JsonlCodec;
import shootout.workload.JsonValue;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;

/**
 * The jsonl workload through com.dev-smart:ubjson's own tree (UBValue): each
 * record's tree made once from its canonical value: integers by
 * UBValueFactory.createInt (the smallest of uint8, int8, int16, int32,
 * int64), floats as float64, arrays as generic UBArrays, objects as UBObjects
 * (a TreeMap: keys sorted, one value per key, the later one). The library has
 * no high-precision number (UBJSON's 'H'), so an integer beyond int64 has no
 * form here: a per-record encode error. Written by UBWriter after a 4-byte
 * length prefix, read back by UBReader into a tree and walked into the sink.
 */
public final class UbjsonJsonl extends JsonlCodec<UBValue> {
    /** The UBValue tree of a record. */
    public static final JsonlRecord.Model<UBValue> TREE = new JsonlRecord.Model<>("UBValue", UbjsonJsonl::tree);

    public static final String NOTES =
            "on jsonl: the library's own UBValue tree, not the record class's fields: each record a tree made "
                    + "once (integers in their smallest type, floats as float64, generic arrays, UBObject's TreeMap: keys sorted, one value "
                    + "per key, a duplicate key's later value), written by UBWriter after a 4-byte length prefix, read back by UBReader and "
                    + "walked into the aggregate; the library has no high-precision number ('H'), so a record holding an integer beyond "
                    + "int64 has no form here: a per-record encode error";

    private final Stream.Holder target = new Stream.Holder();
    private final UBWriter writer = new UBWriter(target);

    public UbjsonJsonl() {
        super(TREE);
    }

    static UBValue tree(JsonValue v) {
        return switch (v.kind) {
            case NULL -> UBValueFactory.createNull();
            case FALSE -> UBValueFactory.createBool(false);
            case TRUE -> UBValueFactory.createBool(true);
            case INT -> UBValueFactory.createInt(v.longValue());
            case U64, BIG ->
                throw new IllegalArgumentException(
                        "ubjson: the integer " + v.bigIntegerValue() + " is beyond int64, and "
                                + "com.dev-smart:ubjson has no high-precision number (UBJSON's 'H') to write it as");
            case FLOAT -> UBValueFactory.createFloat64(v.doubleValue());
            case STRING -> UBValueFactory.createString(v.stringValue());
            case ARRAY -> {
                UBValue[] a = new UBValue[v.size()];
                for (int i = 0; i < a.length; i++) {
                    a[i] = tree(v.get(i));
                }
                yield UBValueFactory.createArray(a);
            }
            case OBJECT -> {
                UBObject o = UBValueFactory.createObject();
                for (int i = 0; i < v.size(); i++) {
                    o.put(v.key(i), tree(v.get(i)));
                }
                yield o;
            }
        };
    }

    @Override
    protected void write(Stream out, UBValue tree) throws IOException {
        target.stream = out;
        int at = out.reserve();
        writer.write(tree);
        out.seal(at);
    }

    @Override
    public int decode(byte[] buf, int off, int end, JsonlSink sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        ByteArrayInputStream in = new ByteArrayInputStream(buf, off + 4, n);
        UBValue v = new UBReader(in).read();
        if (in.available() != 0) {
            throw new IOException("ubjson: " + in.available() + " bytes left after the record");
        }
        walk(v, sink);
        return n + 4;
    }

    /** Walks a tree into the sink, depth first (a char is a one-char string). */
    static void walk(UBValue v, JsonlSink s) throws IOException {
        if (v == null) {
            throw new IOException("ubjson: no value");
        }
        if (v.isNull()) {
            s.nullValue();
        } else if (v.isBool()) {
            s.bool(v.asBool());
        } else if (v.isInteger()) {
            s.i64(v.asLong());
        } else if (v.isNumber()) {
            s.f64(v.asFloat64());
        } else if (v.isString()) {
            s.text(v.asString());
        } else if (v.isChar()) {
            s.text(String.valueOf(v.asChar()));
        } else if (v.isArray()) {
            UBArray a = v.asArray();
            s.beginArray();
            for (int i = 0, n = a.size(); i < n; i++) {
                walk(a.get(i), s);
            }
            s.endArray();
        } else if (v.isObject()) {
            s.beginObject();
            for (Map.Entry<String, UBValue> e : v.asObject().entrySet()) {
                s.key(e.getKey());
                walk(e.getValue(), s);
            }
            s.endObject();
        } else {
            throw new IOException("ubjson: a " + v.getType() + " is not a JSON value");
        }
    }
}
