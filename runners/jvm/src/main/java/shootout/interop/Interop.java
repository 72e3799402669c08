package shootout.interop;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
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
import java.util.Optional;
import java.util.function.Function;
import shootout.codec.Codec;
import shootout.codec.Info;
import shootout.codec.Mapping;
import shootout.codec.Stream;
import shootout.registry.Registry;
import shootout.workload.Dataset;
import shootout.workload.RecordSchemas;
import shootout.workload.Workload;

/**
 * The runner side of `shootout interop` (protocol shootout-interop/1,
 * docs/interop.md): encode writes each format's stream of a dataset with its
 * record ends and a manifest; decode reads other languages' streams of the
 * same wire format (already re-framed for the codec) and validates them
 * against the dataset's reference exactly as the harness does.
 */
public final class Interop {
    private Interop() {}

    public static final String SCHEMA = "shootout-interop/1";
    /** The language as the results file and the Rust side's wire table name it. */
    public static final String LANGUAGE = "java";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A usage error: exit status 2. */
    public static final class UsageError extends Exception {
        private static final long serialVersionUID = 1L;

        public UsageError(String message) {
            super(message);
        }
    }

    /** The most records held at a time: datasets are read, and streams decoded, in windows of this many. */
    static final int WINDOW = 4096;

    /** One format's stream being written, window by window. */
    private static final class Encoding<R, S> {
        final Info info;
        final String base;
        final Path bin, ends;
        final MessageDigest sha = sha256();
        final Stream window = new Stream();
        final ByteBuffer end = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        Codec<R, S> codec;
        OutputStream binOut, endsOut;
        long bytes, records;
        /** The encoder's, with the record index. */
        String error;

        Encoding(Registry.Format f, Workload<R, S> w, RecordSchemas schemas, Path dir) throws IOException {
            info = f.info();
            base = LANGUAGE + "-" + info.name();
            bin = dir.resolve(base + ".bin");
            ends = dir.resolve(base + ".ends");
            try {
                codec = f.on(w, schemas).make().make();
            } catch (Throwable e) {
                error = "record 0: " + e;
                return;
            }
            binOut = new BufferedOutputStream(Files.newOutputStream(bin), 1 << 16);
            endsOut = new BufferedOutputStream(Files.newOutputStream(ends), 1 << 12);
        }

        /** Encodes one window of records; the window's stream starts empty, as in the harness, and is appended to the file. */
        void add(List<R> records) throws IOException {
            window.reset();
            try {
                codec.prepare(records);
            } catch (Throwable e) {
                error = "record " + this.records + ": preparing the window: " + e;
                discard();
                return;
            }
            for (R r : records) {
                try {
                    codec.encode(window, r);
                } catch (Throwable e) {
                    error = "record " + this.records + ": " + e;
                    discard();
                    return;
                }
                endsOut.write(end.putLong(0, bytes + window.len).array());
                this.records++;
            }
            sha.update(window.buf, 0, window.len);
            binOut.write(window.buf, 0, window.len);
            bytes += window.len;
        }

        /** Flushes and closes the files, once. */
        void close() throws IOException {
            if (binOut == null) {
                return;
            }
            try {
                binOut.close();
            } finally {
                binOut = null;
                endsOut.close();
            }
        }

        /** Closes and removes the files: no stream is left beside an error. */
        void discard() throws IOException {
            close();
            Files.deleteIfExists(bin);
            Files.deleteIfExists(ends);
        }
    }

    /**
     * One line per format to err; the manifests, streams and record ends into
     * dir. The dataset is read window by window and each window's records are
     * appended to every stream, so memory is bounded by the window, not the
     * dataset; the records are checked to add up to the header's reference as
     * they stream by. Returns the exit status.
     */
    public static <R, S> int encode(
            Path dataset, Workload<R, S> w, Path dir, String names, List<Registry.Format> registry, PrintStream err)
            throws UsageError, IOException {
        List<Encoding<R, S>> streams = new ArrayList<>();
        try (Dataset<R> d = Dataset.open(dataset, w)) {
            RecordSchemas schemas = d.header.recordSchemas();
            List<Registry.Format> chosen = choose(registry, w, schemas, names, err);
            Function<S, String> check = w.checker.apply(d.header.reference());
            Files.createDirectories(dir);
            for (Registry.Format f : chosen) {
                streams.add(new Encoding<>(f, w, schemas, dir));
            }
            S sink = w.newSink.get();
            for (List<R> window; !(window = d.next(WINDOW)).isEmpty(); ) {
                for (R r : window) {
                    w.feed.accept(r, sink);
                }
                for (Encoding<R, S> e : streams) {
                    if (e.error == null) {
                        e.add(window);
                    }
                }
            }
            String diff = check.apply(sink);
            if (diff != null) {
                throw new IOException(
                        dataset + ": the records as read do not add up to the header's reference aggregate: " + diff);
            }
            for (Encoding<R, S> e : streams) {
                e.close();
            }
        } catch (IOException | RuntimeException e) {
            for (Encoding<R, S> s : streams) {
                s.discard();
            }
            throw e;
        }
        for (Encoding<R, S> e : streams) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("schema", SCHEMA);
            m.put("language", LANGUAGE);
            m.put("format", e.info.name());
            m.put("family", e.info.family());
            m.put("library", e.info.library());
            m.put("version", Registry.version(e.info.library()));
            m.put("workload", w.name);
            m.put("records", e.records);
            m.put("framing", e.info.framing().spelling);
            if (e.error == null) {
                m.put("stream", e.base + ".bin");
                m.put("bytes", e.bytes);
                m.put("sha256", HexFormat.of().formatHex(e.sha.digest()));
                m.put("error", null);
                err.println("encoded " + e.base + ": " + e.records + " records, " + e.bytes + " bytes");
            } else {
                m.put("stream", null);
                m.put("bytes", 0);
                m.put("sha256", null);
                m.put("error", e.error);
                err.println("encoded " + e.base + ": failed at " + e.error);
            }
            Files.write(
                    dir.resolve(e.base + ".json"),
                    JSON.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(m));
        }
        return 0;
    }

    /** The formats named (all when none are) that run this dataset of w; a name the registry does not have is a usage error. */
    static List<Registry.Format> choose(
            List<Registry.Format> registry, Workload<?, ?> w, RecordSchemas schemas, String names, PrintStream err)
            throws UsageError {
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
            Mapping.OnDataset<?, ?> on = f.on(w, schemas);
            if (on.runs()) {
                out.add(f);
            } else if (!want.isEmpty()) {
                err.println("not encoded java-" + f.info().name() + ": " + on.notRun());
            }
        }
        return out;
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /**
     * One answer per line of list, in order, one JSON object a line on out.
     * The dataset is read once to check it adds up to its header's reference,
     * and again only to find a mismatch's first differing record; streams are
     * read window by window. Returns the exit status.
     */
    public static <R, S> int decode(
            Path dataset, Workload<R, S> w, Path list, List<Registry.Format> registry, PrintStream out)
            throws IOException {
        List<String> lines;
        try (BufferedReader r = Files.newBufferedReader(list, StandardCharsets.UTF_8)) {
            lines = r.lines().filter(l -> !l.isBlank()).toList();
        }
        Reference<R, S> in = reference(dataset, w);
        for (String line : lines) {
            int tab = line.indexOf('\t');
            String format = tab < 0 ? line : line.substring(0, tab), stream = tab < 0 ? "" : line.substring(tab + 1);
            Answer a = tab < 0
                    ? new Answer("error", 0, "not a request line (format, a tab, a stream path): " + line)
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

    /** What decoded streams are checked against: the dataset's record count and reference, and its header's record schemas. */
    record Reference<R, S>(
            Path dataset, Workload<R, S> workload, RecordSchemas schemas, long records, Function<S, String> check) {}

    /** The dataset's reference, its records checked to add up to it as they stream by (as the harness's first pass). */
    static <R, S> Reference<R, S> reference(Path dataset, Workload<R, S> w) throws IOException {
        try (Dataset<R> d = Dataset.open(dataset, w)) {
            Function<S, String> check = w.checker.apply(d.header.reference());
            S sink = w.newSink.get();
            for (List<R> window; !(window = d.next(WINDOW)).isEmpty(); ) {
                for (R r : window) {
                    w.feed.accept(r, sink);
                }
            }
            String diff = check.apply(sink);
            if (diff != null) {
                throw new IOException(
                        dataset + ": the records as read do not add up to the header's reference aggregate: " + diff);
            }
            return new Reference<>(dataset, w, d.header.recordSchemas(), d.header.records(), check);
        }
    }

    /** One request's verdict: "ok", "mismatch" or "error", the records decoded, and why when not ok. */
    record Answer(String status, long records, String detail) {}

    /** How many records a stream's decode got through, and why it stopped when it failed. */
    record Decoded(long records, String error) {}

    static <R, S> Answer answer(Reference<R, S> in, List<Registry.Format> registry, String name, Path path)
            throws IOException {
        Registry.Format f = registry.stream()
                .filter(x -> x.info().name().equals(name))
                .findFirst()
                .orElse(null);
        if (f == null) {
            return new Answer("error", 0, "no format " + name + " in the jvm runner");
        }
        Workload<R, S> w = in.workload;
        Mapping.OnDataset<R, S> on = f.on(w, in.schemas);
        if (!on.runs()) {
            return new Answer("error", 0, name + " does not run the " + w.name + " workload: " + on.notRun());
        }
        Codec<R, S> c;
        try {
            c = on.make().make();
        } catch (Throwable e) {
            return new Answer("error", 0, "cannot make the " + name + " codec: " + e);
        }
        S sink = w.newSink.get();
        Decoded d;
        try (Records stream = Records.open(path)) {
            d = decodeAll(c, stream, in.records, sink);
        } catch (IOException e) {
            return new Answer("error", 0, e.getMessage());
        }
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
        return new Answer(
                "mismatch", d.records, firstDifferingRecord(in, c, path).orElse(diff));
    }

    /**
     * Decodes up to n records the way the harness's decode pass does, but each
     * from its own bytes only: the call must use exactly the record's bytes.
     * Then requires the stream to end there. Anything the codec throws, Errors
     * included, is the answer's error, so the next request still runs; so is
     * a stream or record ends that cannot be read.
     */
    static <R, S> Decoded decodeAll(Codec<R, S> c, Records in, long n, S sink) {
        long i = 0;
        try {
            for (; i < n; i++) {
                if (!in.next()) {
                    return new Decoded(i, "the stream ends after " + i + " records, the dataset has " + n);
                }
                int used;
                try {
                    used = c.decode(in.buf, in.start, in.end, sink);
                } catch (Throwable e) {
                    return new Decoded(i, "record " + i + ", byte offset " + in.offset() + ": " + e);
                }
                if (used != in.end - in.start) {
                    return new Decoded(
                            i,
                            "record " + i + ", byte offset " + in.offset() + ": decode used " + used
                                    + " of the record's " + (in.end - in.start) + " bytes");
                }
            }
        } catch (IOException e) {
            return new Decoded(i, e.getMessage());
        }
        long off = in.endOffset();
        if (off != in.size) {
            return new Decoded(
                    i, (in.size - off) + " bytes left over after record " + (n - 1) + " (byte offset " + off + ")");
        }
        return new Decoded(i, null);
    }

    /**
     * "record i: difference" for the first record whose decoded aggregate
     * differs from the source record's, if one does, reading the dataset and
     * the stream again in step. Only the dataset's I/O throws.
     */
    static <R, S> Optional<String> firstDifferingRecord(Reference<R, S> in, Codec<R, S> c, Path path)
            throws IOException {
        Workload<R, S> w = in.workload;
        Records again;
        try {
            again = Records.open(path);
        } catch (IOException e) {
            return Optional.of("reading the stream again: " + e.getMessage());
        }
        try (Records stream = again;
                Dataset<R> d = Dataset.open(in.dataset, w)) {
            long i = 0;
            for (List<R> window; !(window = d.next(WINDOW)).isEmpty(); ) {
                for (R r : window) {
                    S want = w.newSink.get(), got = w.newSink.get();
                    w.feed.accept(r, want);
                    String diff;
                    try {
                        if (!stream.next()) {
                            throw new EOFException("the stream ends");
                        }
                        c.decode(stream.buf, stream.start, stream.end, got);
                        diff = w.compare.apply(want, got);
                    } catch (Throwable e) {
                        diff = "decoding it again: " + e;
                    }
                    if (diff != null) {
                        return Optional.of("record " + i + ": " + diff);
                    }
                    i++;
                }
            }
        }
        return Optional.empty();
    }
}
