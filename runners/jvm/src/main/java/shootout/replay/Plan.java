package shootout.replay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A replay plan, shootout-replay-plan/1 (docs/replay.md, "The hand-off to other
 * runners"), checked against the dataset it indexes. send_time_ns is read with
 * Jackson's streaming parser into a long[] (a plan may hold a million of
 * them), the small rest as a tree.
 */
public record Plan(long[] sendTimeNs, Span busiestSecond, List<String> transports, int warmupRecords, List<Run> runs) {
    public static final String SCHEMA = "shootout-replay-plan/1";
    public static final List<String> TRANSPORTS = List.of("ring", "udp");

    /** Records [first, end) of the dataset. */
    public record Span(int first, int end) {
        public int records() {
            return end - first;
        }

        public boolean holds(int i) {
            return i >= first && i < end;
        }
    }

    /**
     * One run of the plan: speed is the factor applied to the send times, or 0 for "max"; speedJson is the plan's own value,
     * written back as it came.
     */
    public record Run(double speed, JsonNode speedJson, Span span) {
        public boolean max() {
            return speed == 0;
        }
    }

    /** The input's error: one line, naming the plan file and what was expected. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(Path plan, String what) {
            super(plan + ": " + what);
        }

        private Refused(String message) {
            super(message);
        }
    }

    private static final ObjectMapper TREE = new ObjectMapper();

    /** The plan at path, over a dataset of the given number of records. */
    public static Plan read(Path path, int records) throws Refused {
        long[] times = null;
        String timesWrong = null;
        JsonNode schema = null, busiest = null, transports = null, warmup = null, runs = null;
        try (JsonParser p = new JsonFactory().createParser(path.toFile())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new Refused(path, "not a JSON object, expected a " + SCHEMA + " plan");
            }
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String key = p.currentName();
                p.nextToken();
                switch (key) {
                    case "send_time_ns" -> {
                        try {
                            times = sendTimes(path, p, records);
                        } catch (Refused e) {
                            // Said after the schema's check: a plan of another schema is refused as that.
                            timesWrong = e.getMessage();
                        }
                    }
                    case "schema" -> schema = TREE.readTree(p);
                    case "busiest_second" -> busiest = TREE.readTree(p);
                    case "transports" -> transports = TREE.readTree(p);
                    case "warmup_records" -> warmup = TREE.readTree(p);
                    case "runs" -> runs = TREE.readTree(p);
                    default -> p.skipChildren();
                }
            }
        } catch (JsonProcessingException e) {
            throw new Refused(path, "not a " + SCHEMA + " plan: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new Refused(path, "cannot be read: " + e);
        }
        if (schema == null || !schema.isTextual() || !schema.asText().equals(SCHEMA)) {
            throw new Refused(
                    path,
                    "schema " + (schema == null ? "missing" : schema.toString()) + ", expected \"" + SCHEMA + "\"");
        }
        if (timesWrong != null) {
            throw new Refused(timesWrong);
        }
        if (times == null) {
            throw new Refused(path, "no send_time_ns, expected one send time per dataset record (" + records + ")");
        }
        Span bs = span(path, "busiest_second", busiest, records, true);
        return new Plan(
                times,
                bs,
                transports(path, transports),
                count(path, "warmup_records", warmup, Integer.MAX_VALUE),
                runs(path, runs, records));
    }

    /**
     * The send times: integers (i64), exactly one per record, non-decreasing. The whole array is read even when it is refused, so
     * the rest of the plan (its schema) is still read.
     */
    private static long[] sendTimes(Path path, JsonParser p, int records) throws IOException, Refused {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            throw new Refused(path, "send_time_ns is not an array, expected one send time (ns) per dataset record");
        }
        long[] t = new long[records];
        int n = 0;
        String wrong = null;
        for (JsonToken tok = p.nextToken(); tok != JsonToken.END_ARRAY; tok = p.nextToken(), n++) {
            if (wrong != null) {
                p.skipChildren();
            } else if (tok != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                wrong = "send_time_ns[" + n + "] is " + (tok.isStructStart() ? "not a number" : p.getText())
                        + ", expected an i64 (ns since the epoch)";
                p.skipChildren();
            } else if (n < records) {
                long v = p.getLongValue();
                if (n > 0 && v < t[n - 1]) {
                    wrong = "send_time_ns[" + n + "] = " + v + " is before send_time_ns[" + (n - 1) + "] = " + t[n - 1]
                            + ", expected non-decreasing send times";
                }
                t[n] = v;
            }
        }
        if (n != records) {
            throw new Refused(
                    path, "send_time_ns has " + n + " entries, expected one per dataset record (" + records + ")");
        }
        if (wrong != null) {
            throw new Refused(path, wrong);
        }
        return t;
    }

    private static int count(Path path, String what, JsonNode v, int most) throws Refused {
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0 || v.asLong() > most) {
            throw new Refused(path, what + " is " + v + ", expected an integer from 0 to " + most);
        }
        return (int) v.asLong();
    }

    /** A span of records [first, end) within the dataset's; a run's must hold at least one record. */
    private static Span span(Path path, String what, JsonNode v, int records, boolean mayBeEmpty) throws Refused {
        if (v == null || !v.isObject()) {
            throw new Refused(path, what + " is " + v + ", expected {\"first\": index, \"end\": index}");
        }
        int first = count(path, what + ".first", v.get("first"), records),
                end = count(path, what + ".end", v.get("end"), records);
        if (end < first || (!mayBeEmpty && end == first)) {
            throw new Refused(
                    path,
                    what + " is [" + first + ", " + end + "), expected first " + (mayBeEmpty ? "<=" : "<")
                            + " end within the dataset's " + records + " records");
        }
        return new Span(first, end);
    }

    private static List<String> transports(Path path, JsonNode v) throws Refused {
        if (v == null || !v.isArray() || v.isEmpty()) {
            throw new Refused(path, "transports is " + v + ", expected a non-empty list of " + TRANSPORTS);
        }
        List<String> out = new ArrayList<>();
        for (JsonNode t : v) {
            if (!t.isTextual() || !TRANSPORTS.contains(t.asText()) || out.contains(t.asText())) {
                throw new Refused(path, "transports holds " + t + ", expected each of " + TRANSPORTS + " at most once");
            }
            out.add(t.asText());
        }
        return List.copyOf(out);
    }

    private static List<Run> runs(Path path, JsonNode v, int records) throws Refused {
        if (v == null || !v.isArray() || v.isEmpty()) {
            throw new Refused(path, "runs is " + v + ", expected a non-empty list of {\"speed\", \"first\", \"end\"}");
        }
        List<Run> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            JsonNode r = v.get(i);
            Span span = span(path, "runs[" + i + "]", r, records, false);
            JsonNode s = r.get("speed");
            double speed;
            if (s != null && s.isTextual() && s.asText().equals("max")) {
                speed = 0;
            } else if (s != null && s.isNumber() && Double.isFinite(s.asDouble()) && s.asDouble() > 0) {
                speed = s.asDouble();
            } else {
                throw new Refused(path, "runs[" + i + "].speed is " + s + ", expected a positive number or \"max\"");
            }
            out.add(new Run(speed, s, span));
        }
        return List.copyOf(out);
    }

    /** The largest span of the plan's runs (the first on a tie): where every warm-up takes its records. */
    public Span largest() {
        Span best = runs.get(0).span();
        for (Run r : runs) {
            if (r.span().records() > best.records()) {
                best = r.span();
            }
        }
        return best;
    }
}
