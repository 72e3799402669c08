package shootout;

import java.util.List;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Mapping;
import shootout.registry.Registry;
import shootout.workload.Workload;

/** Registry rows for the tests: a real format's by name, and rows of the tests' own codecs (one that loses a value, throws, stalls). */
public final class TestRegistry {
    private TestRegistry() {}

    /** The registry's row of the format named. */
    public static Registry.Format row(String name) {
        return Registry.FORMATS.stream()
                .filter(f -> f.info().name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** A test codec's row, on one workload: library "jdk", family "test", labels of a validating codec of its own. */
    public static <R, S> Registry.Format testRow(
            String name, Framing framing, Workload<R, S> w, Mapping.Make<R, S> make) {
        Info info =
                new Info(name, "test", "jdk", Labels.of(false, "owned", "validated", "reflection"), framing, null, "");
        return new Registry.Format(info, List.of(new Mapping<>(w, make)));
    }
}
