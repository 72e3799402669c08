package shootout.formats.flexbuffers;

import com.google.flatbuffers.ArrayReadWriteBuf;
import com.google.flatbuffers.ByteBufferReadWriteBuf;
import com.google.flatbuffers.FlexBuffers;
import com.google.flatbuffers.FlexBuffersBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import shootout.codec.Stream;
import shootout.formats.jsonl.JsonlCodec;
import shootout.workload.JsonValue;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;

/**
 * The jsonl workload in FlexBuffers, whose values are dynamic by design but
 * whose Java library has no tree to build: the builder is its API for
 * writing them, so encode drives the reused FlexBuffersBuilder (shared keys)
 * over the canonical value itself: null, Bool, Int, Float (64-bit), String,
 * untyped vectors and maps (which keep duplicate keys; their keys sorted as
 * FlexBuffers requires). An unsigned integer above int64 is a UInt where the
 * builder has a public put for one (the top level and vector elements, by
 * putUInt64; its putUInt(long) writes 2^63 and above as one byte) but has no
 * form as a map member (the builder's keyed unsigned puts are private), and
 * an integer beyond 64 bits has none at all: checked once
 * per record, untimed, each a per-record encode error. A key is written as
 * FlexBuffers' NUL-terminated key, so a key holding U+0000 reads back cut at
 * it (the sink sees the changed value). Read back in place through
 * FlexBuffers.getRoot's References (the library's dynamic read API) on a view
 * of the stream, after a 4-byte length prefix, and walked into the sink.
 */
public final class FlexJsonl extends JsonlCodec<JsonValue> {
    /** The builder writes from the canonical value itself, once checked to have a FlexBuffers form. */
    public static final JsonlRecord.Model<JsonValue> CHECKED =
            new JsonlRecord.Model<>("canonical value, checked for FlexBuffers", FlexJsonl::checked);

    public static final String NOTES =
            "on jsonl: FlexBuffers' dynamic values, not the record class's fields: FlexBuffersBuilder (shared "
                    + "keys, reused) driven over each record's canonical value (the Java library has no tree to build): Int, UInt where the "
                    + "builder has a public put for one (top level, vector elements: putUInt64, as putUInt(long) cuts 2^63 and above to a "
                    + "byte), Float (64-bit), untyped vectors, maps (duplicate keys "
                    + "kept; keys NUL-terminated, so a key holding U+0000 is cut at it); an integer beyond int64 as a map member (no public "
                    + "keyed unsigned put) or beyond 64 bits (no FlexBuffers type) is a per-record encode error; read back through "
                    + "getRoot's References on a view of the stream (no verifier: at most one value per byte and 512 levels are walked) "
                    + "and walked into the aggregate; 4-byte length prefix";

    private final FlexBuffersBuilder builder =
            new FlexBuffersBuilder(new ArrayReadWriteBuf(1 << 12), FlexBuffersBuilder.BUILDER_FLAG_SHARE_KEYS);

    public FlexJsonl() {
        super(CHECKED);
    }

    /** v, once checked to have a FlexBuffers form here. */
    static JsonValue checked(JsonValue v) {
        check(v, false);
        return v;
    }

    private static void check(JsonValue v, boolean member) {
        switch (v.kind) {
            case U64 -> {
                if (member) {
                    throw new IllegalArgumentException(
                            "flexbuffers: the integer " + v.bigIntegerValue() + " is above int64 and an object "
                                    + "member's value: a UInt, which FlexBuffersBuilder has no public keyed put for (putUInt with a key is private)");
                }
            }
            case BIG ->
                throw new IllegalArgumentException("flexbuffers: the integer " + v.bigIntegerValue()
                        + " is beyond 64 bits, which " + "no FlexBuffers type holds");
            case ARRAY -> {
                for (int i = 0; i < v.size(); i++) {
                    check(v.get(i), false);
                }
            }
            case OBJECT -> {
                for (int i = 0; i < v.size(); i++) {
                    check(v.get(i), true);
                }
            }
            default -> {}
        }
    }

    @Override
    protected void write(Stream out, JsonValue v) {
        builder.clear();
        put(builder, null, v);
        ByteBuffer b = builder.finish();
        out.putIntLE(b.remaining());
        out.write(b);
    }

    /** Puts v into the open vector (key null) or map, or as the root. */
    private static void put(FlexBuffersBuilder b, String key, JsonValue v) {
        switch (v.kind) {
            case NULL -> {
                if (key == null) {
                    b.putNull();
                } else {
                    b.putNull(key);
                }
            }
            case FALSE, TRUE -> {
                if (key == null) {
                    b.putBoolean(v.kind == JsonValue.Kind.TRUE);
                } else {
                    b.putBoolean(key, v.kind == JsonValue.Kind.TRUE);
                }
            }
            case INT -> {
                if (key == null) {
                    b.putInt(v.longValue());
                } else {
                    b.putInt(key, v.longValue());
                }
            }
            case U64 -> {
                if (key != null) {
                    throw new IllegalStateException("flexbuffers: an unchecked record");
                }
                // putUInt64, not putUInt(long): putUInt sizes its long as signed, and writes 2^63 and above as one byte
                // (255 for
                // 2^64 - 1), a silent loss; putUInt64 takes the value as a BigInteger and writes all 64 bits.
                b.putUInt64(v.bigIntegerValue());
            }
            case BIG -> throw new IllegalStateException("flexbuffers: an unchecked record");
            case FLOAT -> {
                if (key == null) {
                    b.putFloat(v.doubleValue());
                } else {
                    b.putFloat(key, v.doubleValue());
                }
            }
            case STRING -> {
                if (key == null) {
                    b.putString(v.stringValue());
                } else {
                    b.putString(key, v.stringValue());
                }
            }
            case ARRAY -> {
                int start = b.startVector();
                for (int i = 0; i < v.size(); i++) {
                    put(b, null, v.get(i));
                }
                b.endVector(key, start, false, false);
            }
            case OBJECT -> {
                int start = b.startMap();
                for (int i = 0; i < v.size(); i++) {
                    put(b, v.key(i), v.get(i));
                }
                b.endMap(key, start);
            }
        }
    }

    @Override
    public int decode(byte[] buf, int off, int end, JsonlSink sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        if (n < 3) {
            throw new IOException("flexbuffers: " + n + " bytes is no buffer");
        }
        FlexBuffers.Reference root = FlexBuffers.getRoot(
                new ByteBufferReadWriteBuf(ByteBuffer.wrap(buf, off + 4, n).slice()));
        new Walk(n).value(root, sink, 0);
        return n + 4;
    }

    /**
     * One record's walk. The reader has no verifier, and a corrupt buffer's
     * offsets can point back into a value already being read: the walk stops
     * past 512 levels or more values than the buffer has bytes (each value
     * takes one at least).
     */
    private static final class Walk {
        private long left;

        Walk(int bytes) {
            left = bytes;
        }

        void value(FlexBuffers.Reference r, JsonlSink s, int depth) throws IOException {
            if (--left < 0) {
                throw new IOException("flexbuffers: more values than the buffer has bytes: a corrupt buffer");
            }
            if (r.isNull()) {
                s.nullValue();
            } else if (r.isBoolean()) {
                s.bool(r.asBoolean());
            } else if (r.isInt()) {
                s.i64(r.asLong());
            } else if (r.isUInt()) {
                s.u64(r.asUInt());
            } else if (r.isFloat()) {
                s.f64(r.asFloat());
            } else if (r.isString()) {
                s.text(r.asString());
            } else if (r.isMap()) {
                deeper(depth);
                FlexBuffers.Map m = r.asMap();
                FlexBuffers.KeyVector keys = m.keys();
                int size = m.size();
                if (keys.size() != size) {
                    throw new IOException("flexbuffers: a map of " + keys.size() + " keys and " + size + " values");
                }
                s.beginObject();
                for (int i = 0; i < size; i++) {
                    s.key(keys.get(i).toString());
                    value(m.get(i), s, depth + 1);
                }
                s.endObject();
            } else if (r.isVector() || r.isTypedVector()) {
                deeper(depth);
                FlexBuffers.Vector a = r.asVector();
                int size = a.size();
                s.beginArray();
                for (int i = 0; i < size; i++) {
                    value(a.get(i), s, depth + 1);
                }
                s.endArray();
            } else {
                throw new IOException("flexbuffers: a value of type " + r.getType() + " is not a JSON value");
            }
        }

        private static void deeper(int depth) throws IOException {
            if (depth >= 512) {
                throw new IOException("flexbuffers: nesting deeper than 512: a corrupt buffer");
            }
        }
    }
}
