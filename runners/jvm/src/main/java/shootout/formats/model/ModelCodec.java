package shootout.formats.model;

import java.util.function.BiConsumer;
import shootout.codec.Codec;
import shootout.workload.Workload;

/**
 * A codec that drives a schemaless library's writer and reader value by value
 * over the workload's record class (its {@link ClassModel}), and feeds each
 * record it reads back to the workload's aggregate.
 */
public abstract class ModelCodec<R, S> implements Codec<R, S> {
    protected final ClassModel model;
    private final BiConsumer<R, S> feed;

    protected ModelCodec(Workload<R, S> w) {
        model = ClassModel.of(w.type);
        feed = w.feed;
    }

    /** Feeds a record read back (an instance of the model's class, as every read of the model makes) to sink. */
    @SuppressWarnings("unchecked")
    protected final void feed(Object record, S sink) {
        feed.accept((R) record, sink);
    }
}
