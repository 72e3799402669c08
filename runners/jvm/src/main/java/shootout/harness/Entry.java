package shootout.harness;

import java.util.function.Supplier;
import shootout.codec.Codec;
import shootout.codec.Info;

/** One registry line for a workload: a codec constructor (null when it does not run) or the reason it does not run. */
public record Entry<R, S>(Info info, Supplier<Codec<R, S>> factory, String notRun) {
}
