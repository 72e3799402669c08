package shootout.formats.protobuf;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Mapping;
import shootout.codec.Stream;
import shootout.formats.jsonl.JsonlCodec;
import shootout.workload.JsonValue;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;
import shootout.workload.RecordSchemas;

/**
 * Protocol Buffers through protobuf-java's runtime descriptors, on the jsonl and csv workloads with a schema
 * (docs/dataset-format.md, "With a schema"): the header's FileDescriptorSet built into descriptors with
 * FileDescriptor.buildFrom, each file after its imports, and the record message found by its full name. Each record line
 * (the record's projection) is read into a DynamicMessage by protobuf-java-util's JsonFormat parser once, untimed
 * (Codec.prepare), each double the line holds as -0.0 set back to -0.0 (the parser reads it as 0.0); encode writes the
 * message after its varint length (writeDelimitedTo's framing, as the protobuf row); decode parses a DynamicMessage of the
 * record message and walks it into the sink as the spec's projection.
 */
public final class ProtobufDynamic extends JsonlCodec<DynamicMessage> {
    public static final String NO_SCHEMA =
            "no protobuf schema: run with --schema FILE.proto (a csv run builds one from its columns)";

    public static final Info INFO = new Info(
            "protobuf-dynamic",
            "Protocol Buffers",
            "com.google.protobuf:protobuf-java",
            Labels.of(true, "owned", "validated", "dynamic"),
            Framing.VARINT,
            "protobuf",
            "on jsonl and csv with a schema: the header's descriptor set built at run time (FileDescriptor.buildFrom), each record "
                    + "a DynamicMessage read from its projection by JsonFormat's parser (a double's -0.0, which the parser reads as "
                    + "0.0, set back), untimed; varint length prefix (writeDelimitedTo's framing), CodedOutputStream into the "
                    + "stream's array; decode parses a DynamicMessage in place and walks it into the aggregate as its projection "
                    + "(the fields it has, by their .proto names)");

    /** Reads a projection as the message it came from: proto names or JSON names, every field known (an unknown one is an error). */
    private static final JsonFormat.Parser JSON = JsonFormat.parser();

    private static final Base64.Encoder BASE64 = Base64.getEncoder();

    private final Parser<DynamicMessage> parser;

    /** The row on a dataset: a codec of its protobuf schema, or why it has none (no --schema, or the run could not build one). */
    public static Mapping.OnDataset<JsonlRecord, JsonlSink> on(RecordSchemas schemas) {
        if (schemas.protobuf() instanceof RecordSchemas.Protobuf schema) {
            return Mapping.OnDataset.runs(() -> new ProtobufDynamic(recordMessage(schema)));
        }
        if (schemas.protobuf() instanceof RecordSchemas.Unbuilt unbuilt) {
            return Mapping.OnDataset.notRun(unbuilt.reason());
        }
        return Mapping.OnDataset.notRun(NO_SCHEMA);
    }

    /** A codec of records of the message type; its records' messages are its own model (they are made of its descriptors). */
    public ProtobufDynamic(Descriptor type) {
        super(new JsonlRecord.Model<>("protobuf-java DynamicMessage of " + type.getFullName(), v -> message(type, v)));
        parser = DynamicMessage.getDefaultInstance(type).getParserForType();
    }

    /** The record message of a header's protobuf schema: the descriptor set's files built, each after its imports. */
    public static Descriptor recordMessage(RecordSchemas.Protobuf schema)
            throws InvalidProtocolBufferException, DescriptorValidationException {
        FileDescriptorSet set = FileDescriptorSet.parseFrom(schema.descriptorSet());
        Map<String, FileDescriptorProto> files = new HashMap<>();
        for (FileDescriptorProto f : set.getFileList()) {
            files.put(f.getName(), f);
        }
        Map<String, FileDescriptor> built = new HashMap<>();
        for (FileDescriptorProto f : set.getFileList()) {
            Descriptor found =
                    find(build(f.getName(), files, built, new HashSet<>()).getMessageTypes(), schema.message());
            if (found != null) {
                return found;
            }
        }
        throw new IllegalArgumentException(
                schema.file() + ": no message " + schema.message() + " in the header's descriptor set");
    }

    /** The file named, built after the files it imports (each once). */
    private static FileDescriptor build(
            String name,
            Map<String, FileDescriptorProto> files,
            Map<String, FileDescriptor> built,
            Set<String> building)
            throws DescriptorValidationException {
        FileDescriptor done = built.get(name);
        if (done != null) {
            return done;
        }
        FileDescriptorProto proto = files.get(name);
        if (proto == null) {
            throw new IllegalArgumentException(
                    "the header's descriptor set lacks " + name + ", which one of its files imports");
        }
        if (!building.add(name)) {
            throw new IllegalArgumentException(
                    "the header's descriptor set's imports go round in a circle through " + name);
        }
        FileDescriptor[] imports = new FileDescriptor[proto.getDependencyCount()];
        for (int i = 0; i < imports.length; i++) {
            imports[i] = build(proto.getDependency(i), files, built, building);
        }
        FileDescriptor file = FileDescriptor.buildFrom(proto, imports);
        built.put(name, file);
        return file;
    }

    /** The message of that full name among these and the messages nested in them, or null. */
    private static Descriptor find(List<Descriptor> messages, String fullName) {
        for (Descriptor d : messages) {
            Descriptor found = d.getFullName().equals(fullName) ? d : find(d.getNestedTypes(), fullName);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** The message a projection came from, read by JsonFormat's parser from its canonical text (its -0.0 doubles restored). */
    static DynamicMessage message(Descriptor type, JsonValue projection) throws InvalidProtocolBufferException {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
        JSON.merge(projection.toString(), b);
        DynamicMessage m = b.build();
        return holdsNegativeZero(projection) ? (DynamicMessage) withNegativeZeros(m, projection) : m;
    }

    private static final long NEGATIVE_ZERO = Double.doubleToRawLongBits(-0.0);

    private static boolean holdsNegativeZero(JsonValue v) {
        return switch (v.kind) {
            case FLOAT -> Double.doubleToRawLongBits(v.doubleValue()) == NEGATIVE_ZERO;
            case ARRAY, OBJECT -> {
                for (int i = 0; i < v.size(); i++) {
                    if (holdsNegativeZero(v.get(i))) {
                        yield true;
                    }
                }
                yield false;
            }
            default -> false;
        };
    }

    /**
     * JsonFormat's parser reads a double through BigDecimal, which has no negative zero, so it reads -0.0 as 0.0 (a float
     * keeps its sign): m with each double its projection holds as -0.0 set back to -0.0, at any depth. A repeated field's
     * elements are the projection's array's in order, and a map's entries its object's members in order (as the parser adds
     * them).
     */
    private static Message withNegativeZeros(Message m, JsonValue projection) {
        Message.Builder b = m.toBuilder();
        Descriptor type = m.getDescriptorForType();
        for (int i = 0; i < projection.size(); i++) {
            JsonValue v = projection.get(i);
            if (!holdsNegativeZero(v)) {
                continue;
            }
            FieldDescriptor f = field(type, projection.key(i));
            if (f.isMapField()) {
                FieldDescriptor value = f.getMessageType().findFieldByNumber(2);
                for (int k = 0; k < v.size(); k++) {
                    Message entry = (Message) m.getRepeatedField(f, k);
                    b.setRepeatedField(
                            f,
                            k,
                            entry.toBuilder()
                                    .setField(value, restored(value, entry.getField(value), v.get(k)))
                                    .build());
                }
            } else if (f.isRepeated()) {
                for (int k = 0; k < v.size(); k++) {
                    b.setRepeatedField(f, k, restored(f, m.getRepeatedField(f, k), v.get(k)));
                }
            } else {
                b.setField(f, restored(f, m.getField(f), v));
            }
        }
        return b.build();
    }

    /** A value of field f (an element of a repeated one) as its projection v has it: a double exactly, a message's -0.0s restored. */
    private static Object restored(FieldDescriptor f, Object value, JsonValue v) {
        return switch (f.getJavaType()) {
            case DOUBLE -> v.doubleValue();
            case MESSAGE -> withNegativeZeros((Message) value, v);
            default -> value;
        };
    }

    /** The field a projection's member names: by its .proto name or its JSON name, as JsonFormat's parser takes either. */
    private static FieldDescriptor field(Descriptor type, String name) {
        FieldDescriptor f = type.findFieldByName(name);
        if (f != null) {
            return f;
        }
        for (FieldDescriptor candidate : type.getFields()) {
            if (candidate.getJsonName().equals(name)) {
                return candidate;
            }
        }
        throw new IllegalStateException(
                "protobuf: " + type.getFullName() + " has no field " + name + ", which JsonFormat read");
    }

    @Override
    protected void write(Stream out, DynamicMessage m) throws IOException {
        ProtobufCodec.writeDelimited(out, m);
    }

    @Override
    public int decode(byte[] buf, int off, int end, JsonlSink sink) throws Exception {
        ProtobufCodec.Frame f = ProtobufCodec.frame(buf, off, end);
        // The message type's parser (what DynamicMessage.parseFrom(type, ...) runs), which also refuses a stray
        // end-group tag.
        walk(parser.parseFrom(buf, f.body(), f.length()), sink);
        return f.used(off);
    }

    /**
     * A message as its projection: an object with a member for each field it has (hasField for a singular field, which for a
     * field without presence means not its default; a repeated or map field when not empty), keyed by the field's .proto name.
     */
    static void walk(Message m, JsonlSink s) {
        s.beginObject();
        List<FieldDescriptor> fields = m.getDescriptorForType().getFields();
        for (int i = 0, n = fields.size(); i < n; i++) {
            FieldDescriptor f = fields.get(i);
            if (f.isRepeated() ? m.getRepeatedFieldCount(f) == 0 : !m.hasField(f)) {
                continue;
            }
            s.key(f.getName());
            if (f.isMapField()) {
                map(m, f, s);
            } else if (f.isRepeated()) {
                s.beginArray();
                for (int k = 0, count = m.getRepeatedFieldCount(f); k < count; k++) {
                    value(f, m.getRepeatedField(f, k), s);
                }
                s.endArray();
            } else {
                value(f, m.getField(f), s);
            }
        }
        s.endObject();
    }

    /** A map field as an object: a member per entry, its key as text (an entry without a key or value has the field's default). */
    private static void map(Message m, FieldDescriptor f, JsonlSink s) {
        Descriptor entry = f.getMessageType();
        FieldDescriptor key = entry.findFieldByNumber(1), value = entry.findFieldByNumber(2);
        s.beginObject();
        for (int k = 0, count = m.getRepeatedFieldCount(f); k < count; k++) {
            Message e = (Message) m.getRepeatedField(f, k);
            s.key(keyText(key, e.getField(key)));
            value(value, e.getField(value), s);
        }
        s.endObject();
    }

    /** A map key as text: an integer in decimal (the unsigned types unsigned), true or false, or the string itself. */
    private static String keyText(FieldDescriptor key, Object k) {
        return switch (key.getType()) {
            case UINT32, FIXED32 -> Integer.toUnsignedString((Integer) k);
            case UINT64, FIXED64 -> Long.toUnsignedString((Long) k);
            default -> k.toString();
        };
    }

    /** One value of field f (an element of a repeated field) as the projection has it. */
    private static void value(FieldDescriptor f, Object v, JsonlSink s) {
        switch (f.getType()) {
            case INT32, SINT32, SFIXED32, INT64, SINT64, SFIXED64 -> s.i64(((Number) v).longValue());
            // protobuf-java holds the unsigned types in the signed ones' bits.
            case UINT32, FIXED32 -> s.i64(Integer.toUnsignedLong((Integer) v));
            case UINT64, FIXED64 -> s.u64((Long) v);
            case DOUBLE -> s.f64((Double) v);
            case FLOAT -> s.f64((Float) v); // the 32-bit value widened, exactly
            case BOOL -> s.bool((Boolean) v);
            case STRING -> s.text((String) v);
            case BYTES -> {
                byte[] text = BASE64.encode(((ByteString) v).toByteArray());
                s.utf8(text, 0, text.length);
            }
            case ENUM -> {
                // A number the enum does not declare (an open enum keeps it) is the number; a declared one is its name.
                EnumValueDescriptor e = (EnumValueDescriptor) v;
                if (e.getType().findValueByNumber(e.getNumber()) == null) {
                    s.i64(e.getNumber());
                } else {
                    s.text(e.getName());
                }
            }
            case MESSAGE, GROUP -> walk((Message) v, s);
        }
    }
}
