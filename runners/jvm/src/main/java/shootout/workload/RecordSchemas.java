package shootout.workload;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Base64;
import java.util.function.Function;

/**
 * A dataset header's record_schemas (docs/dataset-format.md, "With a schema"): the schemas a jsonl or csv run checked its
 * records against and projected them by, which the schema formats (protobuf-dynamic, avro-generic) run on. Each kind is
 * absent (null) when the run had no such schema, its schema, or the reason the run could not build one (a csv column whose
 * name is not an identifier, ...), which is then the format's reason for not running.
 */
public record RecordSchemas(Entry protobuf, Entry avro) {
    /** A header without record_schemas. */
    public static final RecordSchemas NONE = new RecordSchemas(null, null);

    /** One kind's entry: its schema, or why the run has none. */
    public sealed interface Entry permits Protobuf, Avro, Unbuilt {}

    /**
     * The protobuf schema: file is the .proto's name, message the record message's full name, descriptorSet a serialized
     * FileDescriptorSet holding the file and its imports.
     */
    public record Protobuf(String file, String message, byte[] descriptorSet) implements Entry {}

    /** The Avro schema: file is the .avsc's name, schema its JSON text. */
    public record Avro(String file, String schema) implements Entry {}

    /** A kind the run could not build a schema of, and why (`{"reason": "text"}`). */
    public record Unbuilt(String reason) implements Entry {}

    /** Parses a header's record_schemas (null or absent: NONE); kinds other than protobuf and avro are left to other runners. */
    static RecordSchemas parse(JsonNode n) {
        if (n == null || n.isNull()) {
            return NONE;
        }
        if (!n.isObject()) {
            throw new IllegalArgumentException("record_schemas is not an object");
        }
        JsonNode protobuf = n.get("protobuf"), avro = n.get("avro");
        return new RecordSchemas(
                protobuf == null
                        ? null
                        : entry(
                                "protobuf",
                                protobuf,
                                p -> new Protobuf(
                                        text(p, "protobuf", "file"),
                                        text(p, "protobuf", "message"),
                                        base64(p, "protobuf", "descriptor_set"))),
                avro == null
                        ? null
                        : entry("avro", avro, a -> new Avro(text(a, "avro", "file"), text(a, "avro", "schema"))));
    }

    private static Entry entry(String kind, JsonNode n, Function<JsonNode, Entry> schema) {
        if (!n.isObject()) {
            throw new IllegalArgumentException("record_schemas." + kind + " is not an object");
        }
        return n.has("reason") ? new Unbuilt(text(n, kind, "reason")) : schema.apply(n);
    }

    private static String text(JsonNode n, String kind, String key) {
        JsonNode v = n.get(key);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("record_schemas." + kind + "." + key + " is not a string");
        }
        return v.asText();
    }

    private static byte[] base64(JsonNode n, String kind, String key) {
        try {
            return Base64.getDecoder().decode(text(n, kind, key));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "record_schemas." + kind + "." + key + " is not standard base64: " + e.getMessage());
        }
    }
}
