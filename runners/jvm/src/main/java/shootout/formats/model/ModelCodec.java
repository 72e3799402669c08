package shootout.formats.model;

import java.util.function.BiConsumer;
import java.util.function.Function;
import shootout.codec.Codec;
import shootout.workload.MultiMessage;
import shootout.workload.SerdeIex;
import shootout.workload.Workload;

/**
 * A codec that drives a schemaless library's writer and reader value by value
 * over the workload's record class (its {@link ClassModel}), and feeds each
 * record it reads back to the workload's aggregate.
 */
public abstract class ModelCodec<R, S> implements Codec<R, S> {
    /** Which classes the model walks. */
    protected enum Shape {
        /** The workload's record class as Java declares it (a language-specific format's own mapping). */
        JAVA,
        /**
         * Rust serde's shape of the records (docs/interop.md), for the formats
         * other languages write too: the record class itself, but for iex
         * {@link SerdeIex}'s classes, whose message body is a union as Rust's
         * is. Each record is converted on the way in and out, as the Jackson
         * and Avro codecs convert it.
         */
        SERDE
    }

    protected final ClassModel model;
    private final Function<R, Object> toModel;
    private final Function<Object, R> fromModel;
    private final BiConsumer<R, S> feed;

    protected ModelCodec(Workload<R, S> w) {
        this(w, Shape.JAVA);
    }

    @SuppressWarnings("unchecked")
    protected ModelCodec(Workload<R, S> w, Shape shape) {
        if (shape == Shape.SERDE && w.type == MultiMessage.class) {
            model = ClassModel.of(SerdeIex.Packet.class);
            toModel = r -> SerdeIex.toSerde((MultiMessage) r);
            fromModel = o -> (R) SerdeIex.fromSerde((SerdeIex.Packet) o);
        } else {
            model = ClassModel.of(w.type);
            toModel = r -> r;
            fromModel = o -> (R) o;
        }
        feed = w.feed;
    }

    /** What the model walks to write record r. */
    protected final Object modelled(R r) {
        return toModel.apply(r);
    }

    /** Feeds a record read back (an instance of the model's class, as every read of the model makes) to sink. */
    protected final void feed(Object modelled, S sink) {
        feed.accept(fromModel.apply(modelled), sink);
    }
}
