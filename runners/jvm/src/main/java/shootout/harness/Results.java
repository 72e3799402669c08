package shootout.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import shootout.codec.Info;
import shootout.codec.Labels;

/**
 * Turns measurements into the formats and failed sections of
 * shootout-results/3: each direction's runs with their raw figures, no
 * statistics (the Rust CLI computes those).
 */
public final class Results {
    private Results() {}

    public record Built(List<Map<String, Object>> formats, List<Map<String, Object>> failed) {}

    /** A format's name, family and library with its version: the first keys of every entry that names a format. */
    public static Map<String, Object> identity(Info i, Function<String, String> versions) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", i.name());
        m.put("family", i.family());
        m.put("library", i.library());
        m.put("library_version", versions.apply(i.library()));
        return m;
    }

    public static Map<String, Object> labels(Labels l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("buffer_reuse", l.bufferReuse());
        m.put("decode", l.decode());
        m.put("access", l.access());
        m.put("api", l.api());
        m.put("lossy", l.lossy());
        return m;
    }

    /** One direction: its measured runs' raw figures, in run order. */
    private static Map<String, Object> direction(Harness.FormatRuns f, Function<Harness.Measurement, RunFigures> get) {
        List<Map<String, Object>> runs = new ArrayList<>();
        for (Harness.Measurement r : f.runs) {
            runs.add(get.apply(r).toJson(r.orderPosition()));
        }
        return Map.of("runs", runs);
    }

    /** versions maps a library (Maven group:artifact, or "jdk") to the version on the class path. */
    public static Built build(Harness.Measured m, Function<String, String> versions) {
        List<Map<String, Object>> out = new ArrayList<>(), failed = new ArrayList<>();
        for (Harness.FormatRuns f : m.formats()) {
            Info i = f.info;
            Map<String, Object> x = identity(i, versions);
            if (f.failure != null) {
                x.put("reason", f.failure.reason());
                x.put("run", f.failure.run());
                x.put("operation", f.failure.operation());
                x.put("position", f.failure.position());
                failed.add(x);
                continue;
            }
            x.put("baseline", i.name().equals(Baseline.NAME));
            x.put("labels", labels(i.labels()));
            x.put("tags", i.labels().tags());
            x.put("notes", i.notes());
            x.put("encoded_bytes", f.encodedBytes);
            x.put("bytes_per_record", (double) f.encodedBytes / Math.max(m.operations(), 1));
            x.put("zstd_bytes", null);
            x.put("zstd_level", null);
            x.put("zstd_ratio", null);
            x.put("features", null);
            x.put("jit_warmup", Map.of("ms", f.jitWarmupMs, "windows", f.jitWarmupWindows));
            x.put("encode", direction(f, Harness.Measurement::encode));
            x.put("decode", direction(f, Harness.Measurement::decode));
            out.add(x);
        }
        return new Built(out, failed);
    }
}
