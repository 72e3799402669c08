package shootout.formats.jsonl;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import shootout.workload.JsonValue;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;

/**
 * The dynamic value model of the libraries that have none of their own but
 * plain Java objects (DSL-JSON's, fastjson2's and Fory's): a Map of String
 * keys for an object (which keeps one value per key: a duplicate key's later
 * value replaces the earlier one in the earlier one's place), a List for an
 * array, Long for an integer in the i64 range and BigInteger beyond it,
 * Double for a float, String, Boolean, and null.
 */
public final class JavaValues {
    private JavaValues() {}

    /** The java.util model of a record (LinkedHashMap objects, ArrayList arrays), shared by the codecs that use it. */
    public static final JsonlRecord.Model<Object> MODEL = new JsonlRecord.Model<>("java.util values", JavaValues::of);

    /** The model of v, its objects made by newObject (a LinkedHashMap, or a library's own map). */
    public static Object of(
            JsonValue v, Supplier<? extends Map<String, Object>> newObject, Supplier<? extends List<Object>> newArray) {
        return switch (v.kind) {
            case NULL -> null;
            case FALSE -> Boolean.FALSE;
            case TRUE -> Boolean.TRUE;
            case INT -> v.longValue();
            case U64, BIG -> v.bigIntegerValue();
            case FLOAT -> v.doubleValue();
            case STRING -> v.stringValue();
            case ARRAY -> {
                List<Object> a = newArray.get();
                for (int i = 0; i < v.size(); i++) {
                    a.add(of(v.get(i), newObject, newArray));
                }
                yield a;
            }
            case OBJECT -> {
                Map<String, Object> m = newObject.get();
                for (int i = 0; i < v.size(); i++) {
                    m.put(v.key(i), of(v.get(i), newObject, newArray));
                }
                yield m;
            }
        };
    }

    /** The model of v with LinkedHashMap objects and ArrayList arrays. */
    public static Object of(JsonValue v) {
        return of(v, LinkedHashMap::new, ArrayList::new);
    }

    /**
     * Walks a value a library read back into the sink: Map (String keys) and
     * List, Long, Integer, Short and Byte as integers, BigInteger, BigDecimal
     * by its text's kind (JsonlSink.decimal), Double and Float as floats,
     * String, Boolean, null. Anything else is no JSON value: an IOException
     * naming the library.
     */
    public static void walk(Object o, JsonlSink s, String library) throws IOException {
        if (o == null) {
            s.nullValue();
        } else if (o instanceof String t) {
            s.text(t);
        } else if (o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte) {
            s.i64(((Number) o).longValue());
        } else if (o instanceof Double || o instanceof Float) {
            s.f64(((Number) o).doubleValue());
        } else if (o instanceof Boolean b) {
            s.bool(b);
        } else if (o instanceof Map<?, ?> m) {
            s.beginObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!(e.getKey() instanceof String k)) {
                    throw new IOException(library + ": an object key that is not a string: " + e.getKey());
                }
                s.key(k);
                walk(e.getValue(), s, library);
            }
            s.endObject();
        } else if (o instanceof List<?> a) {
            s.beginArray();
            for (Object e : a) {
                walk(e, s, library);
            }
            s.endArray();
        } else if (o instanceof BigInteger i) {
            s.bigInteger(i);
        } else if (o instanceof BigDecimal d) {
            s.decimal(d);
        } else {
            throw new IOException(library + ": a " + o.getClass().getName() + " is not a JSON value");
        }
    }
}
