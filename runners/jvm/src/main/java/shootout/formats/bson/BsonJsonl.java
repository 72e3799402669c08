package shootout.formats.bson;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Map;
import org.bson.BsonArray;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinaryWriter;
import org.bson.BsonBoolean;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;
import org.bson.types.Decimal128;
import shootout.codec.Stream;
import shootout.formats.jsonl.JsonlCodec;
import shootout.workload.JsonValue;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;

/**
 * The jsonl workload through the BSON library's own document model
 * (BsonDocument, BsonValue): each record's BsonDocument made once from its
 * canonical value: integers as BsonInt32 or BsonInt64 by size and, beyond
 * int64 (BSON has no larger integer), as BsonDecimal128, exact up to 34
 * digits (a longer integer has no BSON form: a per-record encode error);
 * floats as BsonDouble; a BsonDocument keeps one value per key (the later
 * one). A BSON document is an object: a record that is not one has no BSON
 * form (a per-record encode error). Written and read back by
 * BsonDocumentCodec through BsonBinaryWriter and BsonBinaryReader, then
 * walked into the sink, a Decimal128 by its text's kind. The document's own
 * length frames it.
 */
public final class BsonJsonl extends JsonlCodec<BsonDocument> {
    /** The BsonDocument of a record. */
    public static final JsonlRecord.Model<BsonDocument> DOCUMENT =
            new JsonlRecord.Model<>("BsonDocument", BsonJsonl::document);

    public static final String NOTES =
            "on jsonl: the library's own BsonDocument model, not the record class's fields: each record a "
                    + "BsonDocument made once (one value per key: a duplicate key's later value; integers as int32 or int64 by size, beyond "
                    + "int64 as Decimal128, exact to 34 digits, read back as integers; floats as double), written and read by "
                    + "BsonDocumentCodec, then walked into the aggregate; a record that is not an object, an integer of more than 34 digits or "
                    + "a key holding U+0000 has no BSON form: a per-record encode error; the document's own length frames it";

    private static final BsonDocumentCodec CODEC = new BsonDocumentCodec();
    private static final EncoderContext ENCODING = EncoderContext.builder().build();
    private static final DecoderContext DECODING = DecoderContext.builder().build();

    private final BasicOutputBuffer buffer = new BasicOutputBuffer(1 << 12);

    public BsonJsonl() {
        super(DOCUMENT);
    }

    static BsonDocument document(JsonValue v) {
        if (v.kind != JsonValue.Kind.OBJECT) {
            throw new IllegalArgumentException("bson: the record is " + kindName(v)
                    + ", not an object: a BSON document is an object, so it " + "has no BSON form");
        }
        return (BsonDocument) value(v);
    }

    private static String kindName(JsonValue v) {
        return switch (v.kind) {
            case NULL -> "null";
            case FALSE, TRUE -> "a boolean";
            case INT, U64, BIG -> "an integer";
            case FLOAT -> "a float";
            case STRING -> "a string";
            case ARRAY -> "an array";
            case OBJECT -> "an object";
        };
    }

    static BsonValue value(JsonValue v) {
        return switch (v.kind) {
            case NULL -> BsonNull.VALUE;
            case FALSE -> BsonBoolean.FALSE;
            case TRUE -> BsonBoolean.TRUE;
            case INT -> {
                long l = v.longValue();
                yield l == (int) l ? new BsonInt32((int) l) : new BsonInt64(l);
            }
            case U64, BIG -> new BsonDecimal128(new Decimal128(new BigDecimal(v.bigIntegerValue())));
            case FLOAT -> new BsonDouble(v.doubleValue());
            case STRING -> new BsonString(v.stringValue());
            case ARRAY -> {
                BsonArray a = new BsonArray(v.size());
                for (int i = 0; i < v.size(); i++) {
                    a.add(value(v.get(i)));
                }
                yield a;
            }
            case OBJECT -> {
                BsonDocument d = new BsonDocument(v.size());
                for (int i = 0; i < v.size(); i++) {
                    d.put(v.key(i), value(v.get(i)));
                }
                yield d;
            }
        };
    }

    @Override
    protected void write(Stream out, BsonDocument d) {
        buffer.truncateToPosition(0);
        try (BsonBinaryWriter w = new BsonBinaryWriter(buffer)) {
            CODEC.encode(w, d, ENCODING);
        }
        out.write(buffer.getInternalBuffer(), 0, buffer.getPosition());
    }

    @Override
    public int decode(byte[] buf, int off, int end, JsonlSink sink) throws Exception {
        if (end - off < 5) {
            throw new IOException("bson: " + (end - off) + " bytes left, a document takes 5 at least");
        }
        int n = Stream.getIntLE(buf, off);
        if (n < 5 || n > end - off) {
            throw new IOException("bson: document length " + n + " with " + (end - off) + " bytes left");
        }
        BsonDocument d;
        try (BsonBinaryReader r =
                new BsonBinaryReader(ByteBuffer.wrap(buf, off, n).slice())) {
            d = CODEC.decode(r, DECODING);
        }
        walk(d, sink);
        return n;
    }

    /** Walks a BsonValue into the sink, depth first; a BSON type JSON has no value of is an error. */
    static void walk(BsonValue v, JsonlSink s) throws IOException {
        switch (v.getBsonType()) {
            case NULL -> s.nullValue();
            case BOOLEAN -> s.bool(v.asBoolean().getValue());
            case INT32 -> s.i64(v.asInt32().getValue());
            case INT64 -> s.i64(v.asInt64().getValue());
            case DOUBLE -> s.f64(v.asDouble().getValue());
            case DECIMAL128 -> {
                Decimal128 d = v.asDecimal128().getValue();
                if (d.isNaN() || d.isInfinite()) {
                    throw new IOException("bson: the Decimal128 " + d + " is no JSON number");
                }
                try {
                    s.decimal(d.bigDecimalValue());
                } catch (ArithmeticException e) {
                    throw new IOException("bson: the Decimal128 " + d + " is no JSON number: " + e.getMessage(), e);
                }
            }
            case STRING -> s.text(v.asString().getValue());
            case ARRAY -> {
                s.beginArray();
                for (BsonValue e : v.asArray()) {
                    walk(e, s);
                }
                s.endArray();
            }
            case DOCUMENT -> {
                s.beginObject();
                for (Map.Entry<String, BsonValue> e : v.asDocument().entrySet()) {
                    s.key(e.getKey());
                    walk(e.getValue(), s);
                }
                s.endObject();
            }
            default -> throw new IOException("bson: a " + v.getBsonType() + " is not a JSON value");
        }
    }
}
