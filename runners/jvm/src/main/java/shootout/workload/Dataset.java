package shootout.workload;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a shootout-dataset/1 file (docs/dataset-format.md) window by window,
 * so memory is bounded by the window, not the file.
 */
public final class Dataset<R> implements Closeable {
    public static final String SCHEMA = "shootout-dataset/1";

    /** A dataset's first line; recordSchemas is RecordSchemas.NONE when it has no record_schemas. */
    public record Header(
            String workload,
            long records,
            String source,
            JsonNode input,
            List<String> fields,
            RecordSchemas recordSchemas,
            JsonNode reference) {}

    private final BufferedReader in;
    private final Workload<R, ?> workload;
    public final Header header;
    private long line, read;
    private final List<R> window = new ArrayList<>();

    private Dataset(Path path, Workload<R, ?> workload) throws IOException {
        this.workload = workload;
        this.in = Files.newBufferedReader(path, StandardCharsets.UTF_8);
        try {
            header = parseHeader(path, nextLine());
            String err = null;
            if (!header.workload.equals(workload.name)) {
                err = "workload \"" + header.workload + "\", expected \"" + workload.name + "\"";
            } else if (!header.fields.equals(workload.fields)) {
                err = "fields " + header.fields + ", this runner's " + workload.name + " records have "
                        + workload.fields;
            }
            if (err != null) {
                throw new IOException(path + ": " + err);
            }
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    public static <R> Dataset<R> open(Path path, Workload<R, ?> workload) throws IOException {
        return new Dataset<>(path, workload);
    }

    private String nextLine() throws IOException {
        String l = in.readLine();
        if (l != null) {
            line++;
        }
        return l;
    }

    private static Header parseHeader(Path path, String line) throws IOException {
        if (line == null) {
            throw new IOException(path + ": reading the header: empty file");
        }
        JsonNode h;
        try {
            // A float_sum of exactly -0.0 written as Go writes it ("-0") would read as the integer 0.
            h = Json.MAPPER.readTree(line.replaceAll("\"float_sum\":-0([,}])", "\"float_sum\":-0.0$1"));
        } catch (IOException e) {
            throw new IOException(path + " line 1: not a dataset header: " + e.getMessage());
        }
        if (!h.isObject()) {
            throw new IOException(path + " line 1: not a dataset header");
        }
        String schema = h.path("schema").asText(null);
        if (!SCHEMA.equals(schema)) {
            throw new IOException(path + ": schema \"" + schema + "\", this runner reads \"" + SCHEMA + "\"");
        }
        List<String> fields = new ArrayList<>();
        h.path("fields").forEach(f -> fields.add(f.asText()));
        try {
            return new Header(
                    h.path("workload").asText(""),
                    Json.u64(h.get("records"), "records"),
                    h.path("source").asText(""),
                    h.get("input"),
                    fields,
                    RecordSchemas.parse(h.get("record_schemas")),
                    h.get("reference"));
        } catch (IllegalArgumentException e) {
            throw new IOException(path + " line 1: " + e.getMessage());
        }
    }

    /** Reads only a dataset's header, to learn its workload. */
    public static Header readHeader(Path path) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            return parseHeader(path, r.readLine());
        }
    }

    /** Up to n records, in a list reused from window to window; an empty list means the end. */
    public List<R> next(int n) throws IOException {
        window.clear();
        while (window.size() < n) {
            String l = nextLine();
            if (l == null) {
                if (read != header.records) {
                    throw new IOException("line " + line + ": the header announces " + header.records
                            + " records, the file holds " + read);
                }
                break;
            }
            try {
                window.add(workload.readLine.read(l));
            } catch (Exception e) {
                throw new IOException("line " + line + ": " + e.getMessage(), e);
            }
            read++;
        }
        return window;
    }

    /** Where operation op (0-based) came from. */
    public static String position(long op) {
        return "record " + op + " (line " + (op + 2) + ")";
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
