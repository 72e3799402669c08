package shootout.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import shootout.codec.Info;
import shootout.codec.Labels;

/** Turns measurements into the formats, failed and noisy sections of shootout-results/2. */
public final class Results {
    private Results() {
    }

    public record Built(List<Map<String, Object>> formats, List<Map<String, Object>> failed, List<String> noisy) {
    }

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

    private static double[] ns(List<RunStats> runs) {
        return runs.stream().mapToDouble(RunStats::nsPerOp).toArray();
    }

    private static Map<String, Object> summarise(List<RunStats> runs) {
        Map<String, Object> out = new LinkedHashMap<>();
        List<Map<String, Double>> numbers = new ArrayList<>();
        for (RunStats r : runs) {
            numbers.add(r.numbers());
        }
        for (String key : numbers.get(0).keySet()) {
            if (numbers.get(0).get(key) == null) {
                out.put(key, null);
                continue;
            }
            double[] xs = numbers.stream().mapToDouble(m -> m.get(key)).toArray();
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("median", Stats.median(xs));
            s.put("min", Stats.min(xs));
            s.put("max", Stats.max(xs));
            out.put(key, s);
        }
        double[] ci = Stats.bootstrapMedian(ns(runs));
        out.put("ns_per_op_ci", Map.of("low", ci[0], "high", ci[1]));
        long low = 0, high = 0;
        for (RunStats r : runs) {
            low += r.outliersLow();
            high += r.outliersHigh();
        }
        out.put("outliers", Map.of("low", low, "high", high));
        return out;
    }

    /** versions maps a library (Maven group:artifact, or "jdk") to the version on the class path. */
    public static Built build(Harness.Measured m, Function<String, String> versions) {
        List<Map<String, Object>> failed = new ArrayList<>();
        List<String> noisy = new ArrayList<>();
        List<Harness.FormatRuns> measured = new ArrayList<>();
        for (Harness.FormatRuns f : m.formats()) {
            if (f.failure != null) {
                Map<String, Object> x = identity(f.info, versions);
                x.put("reason", f.failure.reason());
                x.put("run", f.failure.run());
                x.put("operation", f.failure.operation());
                x.put("position", f.failure.position());
                failed.add(x);
            } else {
                measured.add(f);
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (Harness.FormatRuns f : measured) {
            Info i = f.info;
            Map<String, Object> x = identity(i, versions);
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
            out.add(x);
        }
        for (String dir : List.of("encode", "decode")) {
            Function<Harness.Measurement, RunStats> get = dir.equals("encode") ? Harness.Measurement::encode : Harness.Measurement::decode;
            int fastest = -1;
            double best = Double.NaN;
            for (int i = 0; i < measured.size(); i++) {
                if (measured.get(i).info.name().equals(Baseline.NAME)) {
                    continue;
                }
                double med = Stats.median(ns(measured.get(i).runs.stream().map(get).toList()));
                if (fastest < 0 || med < best) {
                    fastest = i;
                    best = med;
                }
            }
            for (int i = 0; i < measured.size(); i++) {
                Harness.FormatRuns f = measured.get(i);
                List<RunStats> runs = f.runs.stream().map(get).toList();
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("summary", summarise(runs));
                double[] xs = ns(runs);
                if (fastest >= 0) {
                    double[] bs = ns(measured.get(fastest).runs.stream().map(get).toList());
                    double[] a = Stats.bootstrapMedian(xs), b = Stats.bootstrapMedian(bs), r = Stats.bootstrapRatio(xs, bs);
                    Map<String, Object> rel = new LinkedHashMap<>();
                    rel.put("fastest", i == fastest);
                    rel.put("ratio", Stats.median(xs) / Stats.median(bs));
                    rel.put("interval", Map.of("low", r[0], "high", r[1]));
                    rel.put("indistinguishable_from_fastest", a[0] <= b[1] && b[0] <= a[1]);
                    d.put("relative", rel);
                } else {
                    d.put("relative", null);
                }
                List<Map<String, Object>> rs = new ArrayList<>();
                for (int j = 0; j < runs.size(); j++) {
                    Map<String, Object> e = runs.get(j).toJson();
                    e.put("order_position", f.runs.get(j).orderPosition());
                    rs.add(e);
                }
                d.put("runs", rs);
                out.get(i).put(dir, d);
                double spread = (Stats.max(xs) - Stats.min(xs)) / Stats.median(xs);
                if (xs.length > 1 && spread > 0.05) {
                    noisy.add(String.format("%s %s: ns/op varies by %.1f %% across runs (> 5 %%)", i == 0 ? f.info.name() : f.info.name(), dir,
                            spread * 100));
                }
            }
        }
        return new Built(out, failed, noisy);
    }
}
