package shootout.interop;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import shootout.codec.Codec;
import shootout.codec.Info;
import shootout.codec.Stream;
import shootout.registry.Registry;
import shootout.workload.Dataset;
import shootout.workload.Workload;

/**
 * The runner side of `shootout interop` (protocol shootout-interop/1,
 * docs/interop.md): encode writes each format's stream of a dataset with its
 * record ends and a manifest; decode reads other languages' streams of the
 * same wire format (already re-framed for the codec) and validates them
 * against the dataset's reference exactly as the harness does.
 */
public final class Interop {
    private Interop() {
    }

    public static final String SCHEMA = "shootout-interop/1";
    /** The language as the results file and the Rust side's wire table name it. */
    public static final String LANGUAGE = "java";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A usage error: exit status 2. */
    public static final class UsageError extends Exception {
        public UsageError(String message) {
            super(message);
        }
    }

    /** The dataset's records, checked to add up to its header's reference (as the harness's first pass). */
    record Loaded<R, S>(Workload<R, S> workload, List<R> records, Function<S, String> check) {
    }

    static <R, S> Loaded<R, S> load(Path dataset, Workload<R, S> w) throws IOException {
        List<R> records = new ArrayList<>();
        Function<S, String> check;
        try (Dataset<R> d = Dataset.open(dataset, w)) {
            check = w.checker.apply(d.header.reference());
            for (List<R> window; !(window = d.next(4096)).isEmpty();) {
                records.addAll(window);
            }
        }
        S sink = w.newSink.get();
        for (R r : records) {
            w.feed.accept(r, sink);
        }
        String d = check.apply(sink);
        if (d != null) {
            throw new IOException(dataset + ": the records as read do not add up to the header's reference aggregate: " + d);
        }
        return new Loaded<>(w, records, check);
    }

    /** One line per format to err; the manifests, streams and record ends into dir. Returns the exit status. */
    public static <R, S> int encode(Path dataset, Workload<R, S> w, Path dir, String names, List<Registry.Format> registry, PrintStream err)
            throws UsageError, IOException {
        List<Registry.Format> chosen = choose(registry, w, names, err);
        Loaded<R, S> in = load(dataset, w);
        Files.createDirectories(dir);
        for (Registry.Format f : chosen) {
            Info info = f.info();
            String base = LANGUAGE + "-" + info.name();
            Stream s = new Stream();
            long[] ends = new long[in.records.size()];
            String error = null;
            int encoded = 0;
            try {
                Codec<R, S> c = f.codec(w);
                for (; encoded < ends.length; encoded++) {
                    c.encode(s, in.records.get(encoded));
                    ends[encoded] = s.len;
                }
            } catch (Throwable e) {
                error = "record " + encoded + ": " + e;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("schema", SCHEMA);
            m.put("language", LANGUAGE);
            m.put("format", info.name());
            m.put("family", info.family());
            m.put("library", info.library());
            m.put("version", Registry.version(info.library()));
            m.put("workload", w.name);
            m.put("records", encoded);
            m.put("framing", info.framing().spelling);
            if (error == null) {
                ByteBuffer b = ByteBuffer.allocate(ends.length * 8).order(ByteOrder.LITTLE_ENDIAN);
                for (long e : ends) {
                    b.putLong(e);
                }
                Files.write(dir.resolve(base + ".bin"), Arrays.copyOf(s.buf, s.len));
                Files.write(dir.resolve(base + ".ends"), b.array());
                m.put("stream", base + ".bin");
                m.put("bytes", s.len);
                m.put("sha256", sha256(s.buf, s.len));
                m.put("error", null);
                err.println("encoded " + base + ": " + encoded + " records, " + s.len + " bytes");
            } else {
                m.put("stream", null);
                m.put("bytes", 0);
                m.put("sha256", null);
                m.put("error", error);
                err.println("encoded " + base + ": failed at " + error);
            }
            Files.write(dir.resolve(base + ".json"), JSON.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(m));
        }
        return 0;
    }

    /** The formats named (all when none are) that run w; a name the registry does not have is a usage error. */
    static List<Registry.Format> choose(List<Registry.Format> registry, Workload<?, ?> w, String names, PrintStream err) throws UsageError {
        List<String> want = names.isEmpty() ? List.of() : Arrays.asList(names.split(","));
        for (String n : want) {
            if (registry.stream().noneMatch(f -> f.info().name().equals(n))) {
                throw new UsageError("--formats: no format " + n + " in the jvm runner");
            }
        }
        List<Registry.Format> out = new ArrayList<>();
        for (Registry.Format f : registry) {
            if (!want.isEmpty() && !want.contains(f.info().name())) {
                continue;
            }
            if (f.runs(w.name)) {
                out.add(f);
            } else if (!want.isEmpty()) {
                err.println("not encoded java-" + f.info().name() + ": " + Registry.NO_MAPPING);
            }
        }
        return out;
    }

    static String sha256(byte[] b, int n) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(b, 0, n);
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** One answer per line of list, in order, one JSON object a line on out. Returns the exit status. */
    public static <R, S> int decode(Path dataset, Workload<R, S> w, Path list, List<Registry.Format> registry, PrintStream out)
            throws IOException {
        List<String> lines;
        try (BufferedReader r = Files.newBufferedReader(list, StandardCharsets.UTF_8)) {
            lines = r.lines().filter(l -> !l.isBlank()).toList();
        }
        Loaded<R, S> in = load(dataset, w);
        for (String line : lines) {
            int tab = line.indexOf('\t');
            String format = tab < 0 ? line : line.substring(0, tab), stream = tab < 0 ? "" : line.substring(tab + 1);
            Answer a = tab < 0 ? new Answer("error", 0, "not a request line (format, a tab, a stream path): " + line)
                    : answer(in, registry, format, Path.of(stream));
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("format", format);
            m.put("stream", stream);
            m.put("status", a.status);
            m.put("records", a.records);
            m.put("detail", a.detail);
            out.println(JSON.writeValueAsString(m));
        }
        out.flush();
        return 0;
    }

    /** One request's verdict: "ok", "mismatch" or "error", the records decoded, and why when not ok. */
    record Answer(String status, long records, String detail) {
    }

    /** Where each record of a stream starts, and where the last one ended. */
    record Decoded(long[] starts, int records, String error) {
    }

    static <R, S> Answer answer(Loaded<R, S> in, List<Registry.Format> registry, String name, Path path) {
        Registry.Format f = registry.stream().filter(x -> x.info().name().equals(name)).findFirst().orElse(null);
        if (f == null) {
            return new Answer("error", 0, "no format " + name + " in the jvm runner");
        }
        Workload<R, S> w = in.workload;
        if (!f.runs(w.name)) {
            return new Answer("error", 0, name + " does not run the " + w.name + " workload: " + Registry.NO_MAPPING);
        }
        byte[] buf;
        try {
            buf = Files.readAllBytes(path);
        } catch (IOException | OutOfMemoryError e) {
            return new Answer("error", 0, "cannot read the stream: " + e);
        }
        Codec<R, S> c;
        try {
            c = f.codec(w);
        } catch (Throwable e) {
            return new Answer("error", 0, "cannot make the " + name + " codec: " + e);
        }
        S sink = w.newSink.get();
        Decoded d = decodeAll(c, buf, in.records.size(), sink);
        if (d.error != null) {
            return new Answer("error", d.records, d.error);
        }
        String diff;
        try {
            diff = in.check.apply(sink);
        } catch (RuntimeException e) {
            return new Answer("error", d.records, "comparing with the reference: " + e);
        }
        if (diff == null) {
            return new Answer("ok", d.records, null);
        }
        return new Answer("mismatch", d.records, firstDifferingRecord(in, c, buf, d.starts).orElse(diff));
    }

    /**
     * Decodes up to n records the way the harness's decode pass does (each
     * call must use more than 0 bytes and stay within the stream), then
     * requires the stream to end there. Anything the codec throws, Errors
     * included, is the answer's error, so the next request still runs.
     */
    static <R, S> Decoded decodeAll(Codec<R, S> c, byte[] buf, int n, S sink) {
        long[] starts = new long[n];
        int off = 0, i = 0;
        for (; i < n; i++) {
            if (off == buf.length) {
                return new Decoded(starts, i, "the stream ends after " + i + " records, the dataset has " + n);
            }
            int used;
            try {
                used = c.decode(buf, off, buf.length, sink);
            } catch (Throwable e) {
                return new Decoded(starts, i, "record " + i + ", byte offset " + off + ": " + e);
            }
            if (used <= 0 || used > buf.length - off) {
                return new Decoded(starts, i, "record " + i + ", byte offset " + off + ": decode reported " + used + " bytes used of "
                        + (buf.length - off) + " left");
            }
            starts[i] = off;
            off += used;
        }
        if (off != buf.length) {
            return new Decoded(starts, i, (buf.length - off) + " bytes left over after record " + (n - 1) + " (byte offset " + off + ")");
        }
        return new Decoded(starts, i, null);
    }

    /** "record i: difference" for the first record whose decoded aggregate differs from the source record's, if one does. */
    static <R, S> java.util.Optional<String> firstDifferingRecord(Loaded<R, S> in, Codec<R, S> c, byte[] buf, long[] starts) {
        Workload<R, S> w = in.workload;
        for (int i = 0; i < starts.length; i++) {
            S want = w.newSink.get(), got = w.newSink.get();
            w.feed.accept(in.records.get(i), want);
            String d;
            try {
                c.decode(buf, (int) starts[i], buf.length, got);
                d = w.compare.apply(want, got);
            } catch (Throwable e) {
                d = "decoding it again: " + e;
            }
            if (d != null) {
                return java.util.Optional.of("record " + i + ": " + d);
            }
        }
        return java.util.Optional.empty();
    }
}
