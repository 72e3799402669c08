package shootout;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import shootout.workload.Dataset;
import shootout.workload.Workload;

/** The Go runner's committed sample datasets (runners/go/testdata), one copy for both runners. */
public final class Samples {
    private Samples() {
    }

    public static Path path(String workload) {
        return Path.of("..", "go", "testdata", workload + ".jsonl");
    }

    public record Sample<R, S>(Workload<R, S> workload, List<R> records, Function<S, String> check) {
    }

    public static <R, S> Sample<R, S> read(Workload<R, S> w) throws Exception {
        try (Dataset<R> d = Dataset.open(path(w.name), w)) {
            List<R> all = new ArrayList<>();
            for (List<R> win; !(win = d.next(1000)).isEmpty();) {
                all.addAll(win);
            }
            return new Sample<>(w, all, w.checker.apply(d.header.reference()));
        }
    }
}
