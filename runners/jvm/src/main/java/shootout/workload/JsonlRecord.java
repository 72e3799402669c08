package shootout.workload;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One jsonl record: its canonical value, and the library models made from it.
 * A jsonl codec encodes its library's own dynamic value model (Jackson's
 * JsonNode, msgpack-core's Value, a BsonDocument, ...), which it makes from
 * the canonical value once per record, untimed, when the harness hands it the
 * window ({@code Codec.prepare}); the record keeps each model (codecs of one
 * library share theirs) for every pass over the window. A value the model
 * cannot hold is kept as that failure, which every encode of the record
 * throws: a per-record encode error naming it.
 */
public final class JsonlRecord {
    public final JsonValue value;
    private Object[] models = NONE;

    private static final Object[] NONE = {};
    /** A model that is Java's null (the java.util models' JSON null), told apart from a slot not made yet. */
    private static final Object NULL_MODEL = new Object();

    public JsonlRecord(JsonValue value) {
        this.value = value;
    }

    /** The workload's feed: the canonical value into the sink. */
    public static void feed(JsonlRecord r, JsonlSink s) {
        r.value.feed(s);
    }

    /** How a library's model of a record is made from its canonical value. */
    @FunctionalInterface
    public interface Convert<M> {
        M from(JsonValue v) throws Exception;
    }

    /** One library model: its slot in every record, and how it is made. */
    public static final class Model<M> {
        private static final AtomicInteger SLOTS = new AtomicInteger();
        final int slot = SLOTS.getAndIncrement();
        final String name;
        final Convert<M> convert;

        public Model(String name, Convert<M> convert) {
            this.name = name;
            this.convert = convert;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** What a failed conversion leaves in the slot. */
    private record Failed(Exception cause) {}

    /** Makes the model m of this record unless it is made already; a failure is kept for encode to throw. */
    public void prepare(Model<?> m) {
        if (m.slot >= models.length) {
            models = Arrays.copyOf(models, Math.max(m.slot + 1, 4));
        }
        if (models[m.slot] == null) {
            try {
                Object made = m.convert.from(value);
                models[m.slot] = made == null ? NULL_MODEL : made;
            } catch (Exception e) {
                models[m.slot] = new Failed(e);
            }
        }
    }

    /** The model m of this record (made now if no prepare made it); throws what its conversion threw. */
    @SuppressWarnings("unchecked")
    public <M> M model(Model<M> m) throws Exception {
        prepare(m);
        Object o = models[m.slot];
        if (o instanceof Failed f) {
            throw f.cause;
        }
        return o == NULL_MODEL ? null : (M) o; // slot m.slot holds only m's models
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
