package shootout.formats.jackson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Map;
import shootout.codec.Stream;
import shootout.formats.jsonl.JsonlCodec;
import shootout.workload.JsonValue;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;

/**
 * The jsonl workload through Jackson 2's tree model (JsonNode) on any of its
 * backends, with the row's mapper: each record's tree made once from its
 * canonical value (LongNode, BigIntegerNode beyond a long, DoubleNode,
 * TextNode, ArrayNode, ObjectNode, whose set keeps one value per key, the
 * later one, in the earlier one's place), written by the mapper's
 * ObjectWriter straight into the stream after a 4-byte length prefix, read
 * back by its ObjectReader into a tree (readTree's defaults: integers as
 * IntNode, LongNode or BigIntegerNode by size, floats as DoubleNode, a
 * duplicate key's later value kept) and walked into the sink.
 */
public final class JacksonJsonl extends JsonlCodec<JsonNode> {
    /** Jackson 2's tree of a record, shared by every Jackson 2 codec. */
    public static final JsonlRecord.Model<JsonNode> TREE =
            new JsonlRecord.Model<>("Jackson 2 JsonNode", JacksonJsonl::tree);

    public static final String NOTES =
            "on jsonl: Jackson 2's tree model, not the record-class databind: each record a JsonNode made once "
                    + "from the canonical value (ObjectNode keeps one value per key: a duplicate key's later value), written by the row's mapper "
                    + "(ObjectWriter for JsonNode) after a 4-byte little-endian length prefix, read back by its ObjectReader (readTree's "
                    + "defaults: BigIntegerNode beyond a long, DoubleNode for floats) and walked into the aggregate";

    private final ObjectWriter writer;
    private final ObjectReader reader;

    public JacksonJsonl(ObjectMapper mapper) {
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
            case STRING -> f.textNode(v.stringValue());
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
    protected void write(Stream out, JsonNode tree) throws IOException {
        int at = out.reserve();
        writer.writeValue(out, tree);
        out.seal(at);
    }

    @Override
    public int decode(byte[] buf, int off, int end, JsonlSink sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        JsonNode tree = reader.readValue(buf, off + 4, n);
        if (tree == null) {
            throw new IOException("jackson: no value");
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
                switch (n.numberType()) {
                    case INT, LONG -> s.i64(n.longValue());
                    case BIG_INTEGER -> s.bigInteger(n.bigIntegerValue());
                    case FLOAT, DOUBLE -> s.f64(n.doubleValue());
                    case BIG_DECIMAL -> s.decimal(n.decimalValue());
                }
            }
            case STRING -> s.text(n.textValue());
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
            default -> throw new IOException("jackson: a " + n.getNodeType() + " node is not a JSON value");
        }
    }
}
