package shootout.workload;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one dataset line of the jsonl workload into its canonical value
 * (docs/dataset-format.md, "`jsonl`: any JSON value") with Jackson's streaming
 * parser, losslessly: a number's kind is its token's (VALUE_NUMBER_INT for a
 * text with no '.', 'e' or 'E'; VALUE_NUMBER_FLOAT otherwise), integers keep
 * their value at any size (BigInteger beyond a long), floats are parsed as
 * doubles (Double.parseDouble's correctly rounded nearest), and objects keep
 * every member in order, duplicate keys included (the streaming parser does
 * not look at them). It refuses what the spec refuses: a float beyond the
 * double range, a \uD800-style escape with no partner, nesting deeper than 512,
 * and anything but one JSON value on the line. The Dataset reader prefixes its
 * errors with the line.
 */
public final class JsonlReader {
    private JsonlReader() {}

    /** The spec's limit on nested arrays and objects. */
    public static final int MAX_DEPTH = 512;

    /**
     * No limit on a number's digits or a string's length (integers are exact at
     * any size), nesting beyond ours so that ours is the one that refuses.
     */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNestingDepth(MAX_DEPTH + 8)
                    .build())
            .build();

    public static JsonlRecord read(String line) throws IOException {
        return new JsonlRecord(value(line));
    }

    /** The canonical value of one JSON text. */
    public static JsonValue value(String text) throws IOException {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw new IOException("no JSON value on the line");
            }
            JsonValue v = read(p, t, 0);
            if (p.nextToken() != null) {
                throw new IOException("more than one JSON value on the line (at column "
                        + p.currentLocation().getColumnNr() + ")");
            }
            return v;
        }
    }

    /** The value whose first token is t, at depth containers down. */
    private static JsonValue read(JsonParser p, JsonToken t, int depth) throws IOException {
        switch (t) {
            case VALUE_NULL:
                return JsonValue.NULL;
            case VALUE_TRUE:
                return JsonValue.TRUE;
            case VALUE_FALSE:
                return JsonValue.FALSE;
            case VALUE_NUMBER_INT:
                return switch (p.getNumberType()) {
                    case INT, LONG -> JsonValue.integer(p.getLongValue());
                    default -> JsonValue.integer(p.getBigIntegerValue());
                };
            case VALUE_NUMBER_FLOAT: {
                double d = p.getDoubleValue();
                if (Double.isInfinite(d) || Double.isNaN(d)) {
                    throw new IOException("the float " + shorten(p.getText()) + " is beyond the double range");
                }
                return JsonValue.floating(d);
            }
            case VALUE_STRING:
                return JsonValue.string(checked(p.getText(), "a string"));
            case START_ARRAY: {
                deeper(depth);
                List<JsonValue> items = new ArrayList<>();
                for (JsonToken e; (e = p.nextToken()) != JsonToken.END_ARRAY; ) {
                    items.add(read(p, e, depth + 1));
                }
                return JsonValue.array(items.toArray(new JsonValue[0]));
            }
            case START_OBJECT: {
                deeper(depth);
                List<String> keys = new ArrayList<>();
                List<JsonValue> values = new ArrayList<>();
                for (JsonToken e; (e = p.nextToken()) != JsonToken.END_OBJECT; ) {
                    keys.add(checked(p.currentName(), "a key"));
                    values.add(read(p, p.nextToken(), depth + 1));
                }
                return JsonValue.object(keys.toArray(new String[0]), values.toArray(new JsonValue[0]));
            }
            default:
                throw new IOException("unexpected " + t);
        }
    }

    private static void deeper(int depth) throws IOException {
        if (depth >= MAX_DEPTH) {
            throw new IOException("nesting deeper than " + MAX_DEPTH + " arrays and objects");
        }
    }

    /** s, refused when it holds a surrogate with no partner (a \uD800 escape alone: no Unicode text). */
    private static String checked(String s, String what) throws IOException {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IOException(what + " holds the surrogate \\u"
                        + Integer.toHexString(c).toUpperCase() + " with no partner (char " + i + "): not Unicode text");
            }
        }
        return s;
    }

    private static String shorten(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
