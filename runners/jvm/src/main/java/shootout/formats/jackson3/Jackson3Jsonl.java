package shootout.formats.jackson3;

import java.io.IOException;
import java.util.Map;
import shootout.codec.Stream;
import shootout.formats.jsonl.JsonlCodec;
import shootout.workload.JsonValue;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.NumericNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The jsonl workload through Jackson 3's tree model (tools.jackson's
 * JsonNode), as {@code JacksonJsonl} uses Jackson 2's: each record's tree
 * made once from its canonical value (ObjectNode keeps one value per key, the
 * later one), written by the row's mapper after a 4-byte length prefix, read
 * back by its ObjectReader into a tree (Jackson 3's defaults) and walked into
 * the sink.
 */
public final class Jackson3Jsonl extends JsonlCodec<JsonNode> {
    /** Jackson 3's tree of a record, shared by every Jackson 3 codec. */
    public static final JsonlRecord.Model<JsonNode> TREE =
            new JsonlRecord.Model<>("Jackson 3 JsonNode", Jackson3Jsonl::tree);

    public static final String NOTES =
            "on jsonl: Jackson 3's tree model, not the record-class databind: each record a JsonNode made once "
                    + "from the canonical value (ObjectNode keeps one value per key: a duplicate key's later value), written by the row's mapper "
                    + "(ObjectWriter for JsonNode) after a 4-byte little-endian length prefix, read back by its ObjectReader (Jackson 3's "
                    + "defaults: BigIntegerNode beyond a long, DoubleNode for floats, at most 500 levels of nesting) and walked into the aggregate";

    private final ObjectWriter writer;
    private final ObjectReader reader;

    public Jackson3Jsonl(ObjectMapper mapper) {
        super(TREE);
        writer = mapper.writerFor(JsonNode.class);
        reader = mapper.readerFor(JsonNode.class);
    }

    static JsonNode tree(JsonValue v) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return switch (v.kind) {
            case NULL -> f.nullNode();
            case FALSE -> f.booleanNode(false);
            case TRUE -> f.booleanNode(true);
            case INT -> f.numberNode(v.longValue());
            case U64, BIG -> f.numberNode(v.bigIntegerValue());
            case FLOAT -> f.numberNode(v.doubleValue());
            case STRING -> f.stringNode(v.stringValue());
            case ARRAY -> {
                ArrayNode a = f.arrayNode(v.size());
                for (int i = 0; i < v.size(); i++) {
                    a.add(tree(v.get(i)));
                }
                yield a;
            }
            case OBJECT -> {
                ObjectNode o = f.objectNode();
                for (int i = 0; i < v.size(); i++) {
                    o.set(v.key(i), tree(v.get(i)));
                }
                yield o;
            }
        };
    }

    @Override
    protected void write(Stream out, JsonNode tree) {
        int at = out.reserve();
        writer.writeValue(out, tree);
        out.seal(at);
    }

    @Override
    public int decode(byte[] buf, int off, int end, JsonlSink sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        JsonNode tree = reader.readValue(buf, off + 4, n);
        if (tree == null) {
            throw new IOException("jackson 3: no value");
        }
        walk(tree, sink);
        return n + 4;
    }

    /** Walks a tree into the sink, depth first. */
    static void walk(JsonNode n, JsonlSink s) throws IOException {
        switch (n.getNodeType()) {
            case NULL -> s.nullValue();
            case BOOLEAN -> s.bool(n.booleanValue());
            case NUMBER -> {
                switch (((NumericNode) n).numberType()) {
                    case INT, LONG -> s.i64(n.longValue());
                    case BIG_INTEGER -> s.bigInteger(n.bigIntegerValue());
                    case FLOAT, DOUBLE -> s.f64(n.doubleValue());
                    case BIG_DECIMAL -> s.decimal(n.decimalValue());
                }
            }
            case STRING -> s.text(n.stringValue());
            case ARRAY -> {
                s.beginArray();
                for (JsonNode e : n) {
                    walk(e, s);
                }
                s.endArray();
            }
            case OBJECT -> {
                s.beginObject();
                for (Map.Entry<String, JsonNode> e : n.properties()) {
                    s.key(e.getKey());
                    walk(e.getValue(), s);
                }
                s.endObject();
            }
            default -> throw new IOException("jackson 3: a " + n.getNodeType() + " node is not a JSON value");
        }
    }
}
