package shootout.formats.avro;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;
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
 * Avro binary through Avro's generic records, on the jsonl and csv workloads with a schema (docs/dataset-format.md, "With a
 * schema"): the header's schema text parsed at run time. Each record line (the record's projection) becomes a
 * GenericData.Record by the spec's table read backwards once, untimed (Codec.prepare): integers as Integer or Long, floats
 * as Float or Double, strings as Utf8 (what the reader yields), bytes from base64 as a ByteBuffer, fixed as GenericData.Fixed,
 * enums as GenericData.EnumSymbol, arrays as GenericData.Array, maps as a LinkedHashMap of Utf8 keys, and an absent member of
 * a field that takes null as null. A reused GenericDatumWriter writes it through a reused direct BinaryEncoder after a 4-byte
 * length prefix (as avro-reflect); a reused GenericDatumReader reads it back through a reused BinaryDecoder into one reused
 * record, walked into the sink as the spec's projection.
 */
public final class AvroGeneric extends JsonlCodec<GenericData.Record> {
    public static final String NO_SCHEMA =
            "no Avro schema: run with --schema FILE.avsc (a csv run builds one from its columns)";

    public static final Info INFO = new Info(
            "avro-generic",
            "Avro",
            "org.apache.avro:avro",
            Labels.of(true, "owned", "validated", "dynamic"),
            Framing.U32LE,
            "avro",
            "on jsonl and csv with a schema: the header's schema parsed at run time, each record a GenericData.Record made from "
                    + "its projection, untimed; GenericDatumWriter through a reused direct BinaryEncoder, 4-byte length prefix; "
                    + "GenericDatumReader through a reused BinaryDecoder into a reused record, walked into the aggregate as its "
                    + "projection (the fields whose value is not null)");

    private static final Base64.Encoder BASE64 = Base64.getEncoder();

    private final GenericDatumWriter<GenericData.Record> writer;
    private final GenericDatumReader<GenericData.Record> reader;
    private BinaryEncoder encoder;
    private BinaryDecoder decoder;
    private GenericData.Record reused;

    /** The row on a dataset: a codec of its Avro schema, or why it has none (no --schema, or the run could not build one). */
    public static Mapping.OnDataset<JsonlRecord, JsonlSink> on(RecordSchemas schemas) {
        if (schemas.avro() instanceof RecordSchemas.Avro schema) {
            return Mapping.OnDataset.runs(() -> new AvroGeneric(recordSchema(schema)));
        }
        if (schemas.avro() instanceof RecordSchemas.Unbuilt unbuilt) {
            return Mapping.OnDataset.notRun(unbuilt.reason());
        }
        return Mapping.OnDataset.notRun(NO_SCHEMA);
    }

    /** A codec of records of the record schema; its records' generic records are its own model (they are made of its schema). */
    public AvroGeneric(Schema record) {
        super(new JsonlRecord.Model<>(
                "Avro GenericData.Record of " + record.getFullName(), v -> (GenericData.Record) datum(record, v, "")));
        writer = new GenericDatumWriter<>(record);
        reader = new GenericDatumReader<>(record);
    }

    /** The header's Avro schema, whose top-level type must be a record. */
    public static Schema recordSchema(RecordSchemas.Avro schema) {
        Schema s = new Schema.Parser().parse(schema.schema());
        if (s.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException(
                    schema.file() + ": the top-level type is " + s.getType().getName() + ", not a record");
        }
        return s;
    }

    /** The datum of type t that the projection v (at path, for errors) came from: the projection's table read backwards. */
    static Object datum(Schema t, JsonValue v, String path) {
        return switch (t.getType()) {
            case RECORD -> {
                expect(v, JsonValue.Kind.OBJECT, t, path);
                GenericData.Record r = new GenericData.Record(t);
                boolean[] set = new boolean[t.getFields().size()];
                for (int i = 0; i < v.size(); i++) {
                    Schema.Field f = t.getField(v.key(i));
                    String at = member(path, v.key(i));
                    if (f == null) {
                        throw new IllegalArgumentException(at + ": " + t.getFullName() + " has no such field");
                    }
                    if (set[f.pos()]) {
                        throw new IllegalArgumentException(at + ": the field appears twice");
                    }
                    set[f.pos()] = true;
                    r.put(f.pos(), datum(f.schema(), v.get(i), at));
                }
                // A projection leaves out exactly the fields whose value is null.
                for (Schema.Field f : t.getFields()) {
                    if (!set[f.pos()] && !f.schema().isNullable()) {
                        throw new IllegalArgumentException(
                                member(path, f.name()) + ": missing, and its " + f.schema() + " is never null");
                    }
                }
                yield r;
            }
            case UNION -> {
                if (v.kind == JsonValue.Kind.NULL && t.isNullable()) {
                    yield null;
                }
                yield datum(otherThanNull(t, path), v, path);
            }
            case ARRAY -> {
                expect(v, JsonValue.Kind.ARRAY, t, path);
                GenericData.Array<Object> a = new GenericData.Array<>(v.size(), t);
                for (int i = 0; i < v.size(); i++) {
                    a.add(datum(t.getElementType(), v.get(i), path + "[" + i + "]"));
                }
                yield a;
            }
            case MAP -> {
                expect(v, JsonValue.Kind.OBJECT, t, path);
                Map<Utf8, Object> m = new LinkedHashMap<>();
                for (int i = 0; i < v.size(); i++) {
                    if (m.put(new Utf8(v.key(i)), datum(t.getValueType(), v.get(i), member(path, v.key(i)))) != null) {
                        throw new IllegalArgumentException(member(path, v.key(i)) + ": the key appears twice");
                    }
                }
                yield m;
            }
            case STRING -> {
                expect(v, JsonValue.Kind.STRING, t, path);
                yield new Utf8(v.stringValue());
            }
            case BYTES -> ByteBuffer.wrap(bytes(v, t, path));
            case FIXED -> {
                byte[] b = bytes(v, t, path);
                if (b.length != t.getFixedSize()) {
                    throw new IllegalArgumentException(where(path) + ": " + b.length + " bytes, the fixed "
                            + t.getFullName() + " holds " + t.getFixedSize());
                }
                yield new GenericData.Fixed(t, b);
            }
            case ENUM -> {
                expect(v, JsonValue.Kind.STRING, t, path);
                if (!t.hasEnumSymbol(v.stringValue())) {
                    throw new IllegalArgumentException(
                            where(path) + ": " + v + " is no symbol of the enum " + t.getFullName());
                }
                yield new GenericData.EnumSymbol(t, v.stringValue());
            }
            case INT -> {
                expect(v, JsonValue.Kind.INT, t, path);
                long i = v.longValue();
                if (i != (int) i) {
                    throw new IllegalArgumentException(where(path) + ": " + i + " is beyond an int");
                }
                yield (int) i;
            }
            case LONG -> {
                expect(v, JsonValue.Kind.INT, t, path);
                yield v.longValue();
            }
            case FLOAT -> {
                expect(v, JsonValue.Kind.FLOAT, t, path);
                yield (float) v.doubleValue(); // the projection holds the float widened: exact back
            }
            case DOUBLE -> {
                expect(v, JsonValue.Kind.FLOAT, t, path);
                yield v.doubleValue();
            }
            case BOOLEAN -> {
                if (v.kind != JsonValue.Kind.TRUE && v.kind != JsonValue.Kind.FALSE) {
                    throw new IllegalArgumentException(where(path) + ": " + v + " is not a boolean");
                }
                yield v.kind == JsonValue.Kind.TRUE;
            }
            case NULL -> {
                expect(v, JsonValue.Kind.NULL, t, path);
                yield null;
            }
        };
    }

    /** A value's path as errors name it. */
    private static String where(String path) {
        return path.isEmpty() ? "the record" : path;
    }

    /** A member's path, for errors: its key after its object's path (the record's own is empty). */
    private static String member(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** The one branch of a ["null", T] union that is not null; any other union is not one the spec maps. */
    private static Schema otherThanNull(Schema union, String path) {
        Schema other = null;
        for (Schema branch : union.getTypes()) {
            if (branch.getType() != Schema.Type.NULL) {
                if (other != null) {
                    throw new IllegalArgumentException(
                            where(path) + ": the union " + union + " is not null and one other type");
                }
                other = branch;
            }
        }
        if (other == null) {
            throw new IllegalArgumentException(where(path) + ": the union " + union + " holds only null");
        }
        return other;
    }

    private static byte[] bytes(JsonValue v, Schema t, String path) {
        expect(v, JsonValue.Kind.STRING, t, path);
        try {
            return Base64.getDecoder().decode(v.stringValue());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where(path) + ": not standard base64: " + e.getMessage());
        }
    }

    private static void expect(JsonValue v, JsonValue.Kind kind, Schema t, String path) {
        if (v.kind != kind) {
            throw new IllegalArgumentException(where(path) + ": " + v + " does not fit a " + t);
        }
    }

    @Override
    protected void write(Stream out, GenericData.Record r) throws IOException {
        int at = out.reserve();
        encoder = EncoderFactory.get().directBinaryEncoder(out, encoder);
        writer.write(r, encoder);
        encoder.flush();
        out.seal(at);
    }

    @Override
    public int decode(byte[] buf, int off, int end, JsonlSink sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        decoder = DecoderFactory.get().binaryDecoder(buf, off + 4, n, decoder);
        reused = reader.read(reused, decoder);
        if (!decoder.isEnd()) {
            throw new IOException("avro: bytes left after the record");
        }
        record(reused, sink);
        return n + 4;
    }

    /** A record as its projection: an object with a member for each field whose value is not null. */
    static void record(IndexedRecord r, JsonlSink s) {
        s.beginObject();
        for (Schema.Field f : r.getSchema().getFields()) {
            Object v = r.get(f.pos());
            if (v != null) {
                s.key(f.name());
                value(f.schema(), v, s);
            }
        }
        s.endObject();
    }

    /** One datum of type t (an array element, a map value) as the projection has it: a union's its branch's, null as null. */
    private static void value(Schema t, Object v, JsonlSink s) {
        switch (t.getType()) {
            case NULL -> s.nullValue();
            case UNION -> {
                if (v == null) {
                    s.nullValue();
                } else {
                    value(t.getTypes().get(GenericData.get().resolveUnion(t, v)), v, s);
                }
            }
            case RECORD -> record((IndexedRecord) v, s);
            case ARRAY -> {
                s.beginArray();
                for (Object e : (Collection<?>) v) {
                    value(t.getElementType(), e, s);
                }
                s.endArray();
            }
            case MAP -> {
                s.beginObject();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    // The reader yields Utf8, or String where the schema says "avro.java.string": "String".
                    if (e.getKey() instanceof Utf8 k) {
                        s.keyUtf8(k.getBytes(), 0, k.getByteLength());
                    } else {
                        s.key(e.getKey().toString());
                    }
                    value(t.getValueType(), e.getValue(), s);
                }
                s.endObject();
            }
            case STRING -> {
                if (v instanceof Utf8 u) { // or a String, as for map keys
                    s.utf8(u.getBytes(), 0, u.getByteLength());
                } else {
                    s.text(v.toString());
                }
            }
            case BYTES -> s.utf8(BASE64.encode(((ByteBuffer) v).duplicate()));
            case FIXED -> {
                byte[] text = BASE64.encode(((GenericFixed) v).bytes());
                s.utf8(text, 0, text.length);
            }
            case ENUM -> s.text(v.toString());
            case INT, LONG -> s.i64(((Number) v).longValue());
            case FLOAT -> s.f64((Float) v); // the 32-bit value widened, exactly
            case DOUBLE -> s.f64((Double) v);
            case BOOLEAN -> s.bool((Boolean) v);
        }
    }
}
