package shootout.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import shootout.Spec;
import shootout.TestRegistry;
import shootout.cli.Ran;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Mapping;
import shootout.codec.Stream;
import shootout.registry.Registry;
import shootout.workload.IexSink;
import shootout.workload.MultiMessage;
import shootout.workload.Workload;

/** `--replay` (docs/replay.md) on the iex fixture: the results file, coordinated omission, failed runs and refused inputs. */
class ReplayTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path IEX = Spec.fixture("iex");
    /** An arbitrary epoch start for the plans' send times. */
    static final long T0 = 1_700_000_000_000_000_000L;

    static int records() throws Exception {
        return (int) Spec.header("iex").records();
    }

    /** The fixture's records sent `step` ns apart. */
    static long[] evenly(long step) throws Exception {
        long[] t = new long[records()];
        for (int i = 0; i < t.length; i++) {
            t[i] = T0 + i * step;
        }
        return t;
    }

    static ObjectNode run(Object speed, int first, int end) {
        ObjectNode r = JSON.createObjectNode();
        r.putPOJO("speed", speed);
        r.put("first", first);
        r.put("end", end);
        return r;
    }

    static ObjectNode plan(
            long[] times, int busiestFirst, int busiestEnd, List<String> transports, int warmup, ObjectNode... runs) {
        ObjectNode p = JSON.createObjectNode();
        p.put("schema", Plan.SCHEMA);
        ArrayNode t = p.putArray("send_time_ns");
        for (long x : times) {
            t.add(x);
        }
        p.putObject("busiest_second").put("first", busiestFirst).put("end", busiestEnd);
        transports.forEach(p.putArray("transports")::add);
        p.put("warmup_records", warmup);
        ArrayNode rs = p.putArray("runs");
        for (ObjectNode r : runs) {
            rs.add(r);
        }
        return p;
    }

    static Path write(Path dir, String name, JsonNode plan) throws Exception {
        Path f = dir.resolve(name);
        JSON.writeValue(f.toFile(), plan);
        return f;
    }

    record Result(int code, String err, JsonNode json) {}

    /** A replay over the given registry rows, in this process; the results file parsed when one was written. */
    static Result replay(Path dir, Path plan, String formats, List<Registry.Format> registry) throws Exception {
        Path out = dir.resolve("replay.json");
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int code = Replay.run(
                IEX,
                plan,
                formats,
                out.toString(),
                registry,
                new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
        return new Result(
                code, e.toString(StandardCharsets.UTF_8), Files.exists(out) ? JSON.readTree(out.toFile()) : null);
    }

    static Histogram histogram(JsonNode base64) throws java.util.zip.DataFormatException {
        return Histogram.decodeFromCompressedByteBuffer(
                ByteBuffer.wrap(Base64.getDecoder().decode(base64.asText())), 0);
    }

    static List<String> keys(JsonNode n) {
        List<String> k = new ArrayList<>();
        n.fieldNames().forEachRemaining(k::add);
        return k;
    }

    static final List<String> TOP = List.of("schema", "language", "versions", "clock", "pinning", "transports", "runs");
    static final List<String> RUN = List.of(
            "format",
            "transport",
            "speed",
            "first",
            "end",
            "sent",
            "received",
            "duration_ns",
            "max_backlog",
            "latency",
            "busiest",
            "sizes",
            "allocations",
            "gc",
            "error");

    static void count(JsonNode n, String what) {
        assertTrue(n.isIntegralNumber() && n.asLong() >= 0, what + " is " + n);
    }

    /** spec/replay-runs.schema.json, which every language's replay output is held to. */
    static final Spec.JsonSchema RUNS_SCHEMA = Spec.JsonSchema.of("replay-runs.schema.json");

    /**
     * The results file as docs/replay.md's shootout-replay-runs/1 lays it out, key for key and type for type; returns its runs.
     */
    static JsonNode validate(JsonNode j, List<String> transports) {
        RUNS_SCHEMA.assertFollows(j.toString());
        assertEquals(TOP, keys(j));
        assertEquals(Replay.SCHEMA, j.get("schema").asText());
        assertEquals("java", j.get("language").asText());
        j.get("versions").properties().forEach(v -> assertTrue(v.getValue().isTextual(), v.getKey()));
        assertTrue(
                j.get("clock").asText().startsWith("System.nanoTime"),
                j.get("clock").toString());
        assertEquals(Pinning.describe(), j.get("pinning").asText());
        // Pinned wherever the process may use two CPUs (CI machines have two), and every pin held.
        if (Pinning.possible()) {
            assertTrue(
                    j.get("pinning").asText().startsWith("producer pinned to CPU ")
                            && !j.get("pinning").asText().contains("not every pin held"),
                    j.get("pinning").asText());
        }
        assertEquals(transports, keys(j.get("transports")));
        j.get("transports").forEach(t -> assertFalse(t.asText().isEmpty()));
        for (JsonNode r : j.get("runs")) {
            assertEquals(RUN, keys(r), r.toString());
            assertTrue(r.get("format").isTextual());
            assertTrue(transports.contains(r.get("transport").asText()), r.toString());
            JsonNode speed = r.get("speed");
            assertTrue(
                    speed.isNumber() && speed.asDouble() > 0 || speed.asText().equals("max"), speed.toString());
            for (String k : List.of("first", "end", "sent", "received", "duration_ns", "max_backlog")) {
                count(r.get(k), k);
            }
            assertTrue(r.get("latency").isTextual());
            assertTrue(r.get("busiest").isNull() || r.get("busiest").isTextual());
            for (JsonNode s : r.get("sizes")) {
                assertEquals(List.of("max_bytes", "histogram"), keys(s));
                assertTrue(s.get("max_bytes").isNull() || s.get("max_bytes").isIntegralNumber());
                assertTrue(s.get("histogram").isTextual());
            }
            for (JsonNode a : r.get("allocations")) {
                assertEquals(List.of("who", "records", "count", "bytes"), keys(a));
                assertTrue(List.of("producer", "consumer", "process")
                        .contains(a.get("who").asText()));
                count(a.get("records"), "records");
                assertTrue(a.get("count").isNull(), "the JVM counts bytes, not allocations");
                count(a.get("bytes"), "bytes");
            }
            JsonNode gc = r.get("gc");
            if (!gc.isNull()) {
                assertEquals(List.of("collections", "pause_total_ns", "pause_max_ns"), keys(gc));
                gc.forEach(x -> count(x, "gc"));
                assertTrue(gc.get("pause_max_ns").asLong()
                        <= gc.get("pause_total_ns").asLong());
            }
            assertTrue(r.get("error").isNull() || r.get("error").isTextual());
        }
        return j.get("runs");
    }

    @Test
    void aPlanOverTheFixtureReplaysEachFormatOverBothTransportsAndTheResultsAddUp(@TempDir Path dir) throws Exception {
        int n = records();
        // 50 µs apart: at speed 10 a record every 5 µs, the whole run in about a millisecond.
        int bsFirst = 40, bsEnd = 120;
        Path plan = write(
                dir,
                "plan.json",
                plan(evenly(50_000), bsFirst, bsEnd, List.of("ring", "udp"), 50, run(10, 0, n), run("max", 30, 150)));
        Path out = dir.resolve("replay.json");
        List<String> formats = List.of("json-jackson", "protobuf", "sbe");
        Ran ran = Ran.run(
                "--dataset",
                IEX.toString(),
                "--replay",
                plan.toString(),
                "--formats",
                String.join(",", formats),
                "--out",
                out.toString());
        assertEquals(0, ran.code(), ran.err());
        JsonNode j = JSON.readTree(out.toFile());
        JsonNode runs = validate(j, List.of("ring", "udp"));
        assertTrue(
                j.at("/transports/udp").asText().contains("granted"),
                j.at("/transports/udp").asText());
        for (String lib : List.of(
                "jdk", "org.agrona:agrona", "org.hdrhistogram:HdrHistogram", "com.google.protobuf:protobuf-java")) {
            assertNotEquals("unknown", j.at("/versions").path(lib).asText("unknown"), lib);
        }
        assertEquals(formats.size() * 2 * 2, runs.size(), "format × transport × run");
        int k = 0;
        for (String f : formats) {
            for (String transport : List.of("ring", "udp")) {
                for (int[] span : new int[][] {{0, n}, {30, 150}}) {
                    JsonNode r = runs.get(k++);
                    String what = f + " " + transport + " " + r.get("speed");
                    assertEquals(f, r.get("format").asText(), what);
                    assertEquals(transport, r.get("transport").asText(), what);
                    assertEquals(span[0], r.get("first").asInt(), what);
                    assertEquals(span[1], r.get("end").asInt(), what);
                    assertTrue(r.get("error").isNull(), what + ": " + r.get("error"));
                    long records = span[1] - span[0],
                            sent = r.get("sent").asLong(),
                            received = r.get("received").asLong();
                    assertEquals(records, sent, what);
                    if (transport.equals("ring")) {
                        assertEquals(sent, received, what + ": the ring loses nothing");
                    } else {
                        assertTrue(received > 0 && received <= sent, what + ": " + received + " of " + sent);
                    }
                    Histogram latency = histogram(r.get("latency"));
                    assertEquals(received, latency.getTotalCount(), what + ": one latency per record received");
                    assertTrue(latency.getMaxValue() < 60_000_000_000L, what + ": a latency under a minute");
                    long inBusiest = Math.min(span[1], bsEnd) - Math.max(span[0], bsFirst);
                    Histogram busiest = histogram(r.get("busiest"));
                    if (transport.equals("ring")) {
                        assertEquals(inBusiest, busiest.getTotalCount(), what + ": the busiest second's records");
                    } else {
                        assertTrue(busiest.getTotalCount() <= inBusiest, what);
                    }
                    long sized = 0, lastClass = -1;
                    for (JsonNode s : r.get("sizes")) {
                        long c = histogram(s.get("histogram")).getTotalCount();
                        assertTrue(c > 0, what + ": only non-empty size classes");
                        long bound = s.get("max_bytes").isNull()
                                ? Long.MAX_VALUE
                                : s.get("max_bytes").asLong();
                        assertTrue(bound > lastClass, what + ": size classes in order");
                        lastClass = bound;
                        sized += c;
                    }
                    assertEquals(received, sized, what + ": the size classes add up to the records received");
                    assertTrue(r.get("duration_ns").asLong() > 0, what);
                    assertTrue(r.get("max_backlog").asLong() <= records, what);
                    JsonNode alloc = r.get("allocations");
                    assertEquals(
                            List.of("producer", "consumer"),
                            List.of(
                                    alloc.get(0).get("who").asText(),
                                    alloc.get(1).get("who").asText()));
                    long secondHalf = span[1] - (span[0] + records / 2);
                    assertEquals(
                            secondHalf, alloc.get(0).get("records").asLong(), what + ": the producer's second half");
                    if (transport.equals("ring")) {
                        assertEquals(
                                secondHalf,
                                alloc.get(1).get("records").asLong(),
                                what + ": the consumer's second half");
                    }
                }
            }
        }
    }

    /** A fresh protobuf codec of the iex workload, from the registry. */
    static Codec<MultiMessage, IexSink> protobuf() throws Exception {
        return TestRegistry.row("protobuf").codec(Workload.IEX);
    }

    /** Protobuf's codec of the iex workload, as is: the test codecs below change one thing about it. */
    abstract static class Protobuf implements Codec<MultiMessage, IexSink> {
        final Codec<MultiMessage, IexSink> inner = protobuf();

        Protobuf() throws Exception {}

        @Override
        public void encode(Stream out, MultiMessage r) throws Exception {
            inner.encode(out, r);
        }

        @Override
        public int decode(byte[] buf, int off, int end, IexSink sink) throws Exception {
            return inner.decode(buf, off, end, sink);
        }
    }

    /** Decodes with protobuf, but one decode in a whole run (its `stallAt`-th) stalls 30 ms; every decode's own time is kept. */
    static final class StallsOnce extends Protobuf {
        static final ConcurrentLinkedQueue<Long> DECODE_NS = new ConcurrentLinkedQueue<>();
        final int stallAt;
        int decodes;

        StallsOnce(int stallAt) throws Exception {
            this.stallAt = stallAt;
        }

        @Override
        public int decode(byte[] buf, int off, int end, IexSink sink) throws Exception {
            long t = System.nanoTime();
            if (decodes++ == stallAt) {
                Thread.sleep(30);
            }
            int used = inner.decode(buf, off, end, sink);
            DECODE_NS.add(System.nanoTime() - t);
            return used;
        }
    }

    static Registry.Format testFormat(String name, Mapping.Make<MultiMessage, IexSink> make) {
        return TestRegistry.testRow(name, Framing.NONE, Workload.IEX, make);
    }

    /**
     * Coordinated omission: records are released every millisecond and one decode stalls 30 ms. Timed from their scheduled
     * release, the records that queued behind the stall carry what is left of it (about 29, 28, … ms): many are slow. Timed as a
     * closed loop times them (each decode alone), only the stalled one is.
     */
    @Test
    void aStalledDecodeIsSpreadOverTheRecordsQueuedBehindIt(@TempDir Path dir) throws Exception {
        int n = records(), stallAt = 40;
        StallsOnce.DECODE_NS.clear();
        Path plan = write(dir, "plan.json", plan(evenly(1_000_000), 0, n, List.of("ring"), 0, run(1, 0, n)));
        Result r = replay(dir, plan, "stalls-once", List.of(testFormat("stalls-once", () -> new StallsOnce(stallAt))));
        assertEquals(0, r.code(), r.err());
        JsonNode run = r.json().get("runs").get(0);
        assertTrue(run.get("error").isNull(), run.get("error").toString());
        Histogram latency = histogram(run.get("latency"));
        assertEquals(n, latency.getTotalCount());
        long tenMs = 10_000_000L;
        long slowReplayed = latency.getTotalCount() - latency.getCountBetweenValues(0, tenMs);
        long slowClosedLoop =
                StallsOnce.DECODE_NS.stream().filter(ns -> ns > tenMs).count();
        assertEquals(n, StallsOnce.DECODE_NS.size(), "one decode per record");
        assertTrue(slowClosedLoop >= 1, "the stall itself");
        assertTrue(
                latency.getMaxValue() >= 30_000_000L, "the stalled record waited its 30 ms: " + latency.getMaxValue());
        assertTrue(slowReplayed >= 10, slowReplayed + " records over 10 ms");
        assertTrue(
                slowReplayed >= slowClosedLoop + 9,
                "replayed, " + slowReplayed + " records over 10 ms; timed alone, " + slowClosedLoop);
        assertTrue(
                run.get("max_backlog").asLong() >= 10,
                "the records released during the stall queue up: " + run.get("max_backlog"));
    }

    /** Encodes every record with its seq_no one higher: a value lost on the way. */
    static final class WrongSeqNo extends Protobuf {
        WrongSeqNo() throws Exception {}

        @Override
        public void encode(Stream out, MultiMessage r) throws Exception {
            r.seq_no++;
            try {
                inner.encode(out, r);
            } finally {
                r.seq_no--;
            }
        }
    }

    /** Writes one byte more after every record, which its decode does not use. */
    static final class TrailingByte extends Protobuf {
        TrailingByte() throws Exception {}

        @Override
        public void encode(Stream out, MultiMessage r) throws Exception {
            inner.encode(out, r);
            out.write(0);
        }
    }

    /** A validation difference, a decode that leaves bytes and a codec that cannot be made each fail their runs, listed with the error. */
    @Test
    void failedRunsAreListedWithTheirErrorAndTheExitIs3(@TempDir Path dir) throws Exception {
        int n = records();
        Path plan = write(
                dir,
                "plan.json",
                plan(evenly(10_000), 0, n, List.of("ring", "udp"), 0, run("max", 0, n), run(5, 10, 100)));
        List<Registry.Format> registry = new ArrayList<>(Registry.FORMATS);
        registry.add(testFormat("wrong-seq-no", WrongSeqNo::new));
        registry.add(testFormat("trailing-byte", TrailingByte::new));
        registry.add(testFormat("cannot-start", () -> {
            throw new IllegalStateException("no codec here");
        }));
        Result r = replay(dir, plan, "wrong-seq-no,protobuf,trailing-byte,cannot-start", registry);
        assertEquals(3, r.code(), r.err());
        JsonNode runs = validate(r.json(), List.of("ring", "udp"));
        assertEquals(4 * 2 * 2, runs.size(), "failed runs included");
        Map<String, String> expected = Map.of(
                "wrong-seq-no",
                "does not match the reference aggregate of the ",
                "protobuf",
                "",
                "trailing-byte",
                "decode used ",
                "cannot-start",
                "the codec could not be set up: java.lang.IllegalStateException: no codec here");
        for (JsonNode run : runs) {
            String f = run.get("format").asText(), want = expected.get(f);
            if (want.isEmpty()) {
                assertTrue(run.get("error").isNull(), run.toString());
                continue;
            }
            String error = run.get("error").asText();
            assertTrue(error.contains(want), f + ": " + error);
            assertTrue(
                    r.err()
                            .contains("FAILED " + f + " over "
                                    + run.get("transport").asText()),
                    r.err());
        }
        String seq = runs.get(0).get("error").asText();
        assertTrue(seq.endsWith("seq_no_sum expected " + seqNoSum(0, n) + ", decoded " + (seqNoSum(0, n) + n)), seq);
        assertTrue(
                runs.get(8)
                        .get("error")
                        .asText()
                        .matches("record 0: decode used \\d+ of the record's \\d+ payload bytes"),
                runs.get(8).get("error").asText());
        assertEquals(0, runs.get(12).get("sent").asLong(), "a run not made sends nothing");
        assertEquals(0, histogram(runs.get(12).get("latency")).getTotalCount());
    }

    /**
     * Frames protobuf's bytes with a u32 length and pads the records whose seq_no it is given to a payload of the bytes given:
     * the test's way to a record as large as a datagram holds, and one byte larger.
     */
    static final class Padded extends Protobuf {
        final Map<Long, Integer> payloads;

        Padded(Map<Long, Integer> payloads) throws Exception {
            this.payloads = payloads;
        }

        @Override
        public void encode(Stream out, MultiMessage r) throws Exception {
            int start = out.len, at = out.reserve();
            inner.encode(out, r);
            Integer payload = payloads.get(r.seq_no);
            while (payload != null && out.len - start < payload) {
                out.write(0);
            }
            out.seal(at);
        }

        @Override
        public int decode(byte[] buf, int off, int end, IexSink sink) throws Exception {
            int n = Stream.frame(buf, off, end);
            inner.decode(buf, off + 4, off + 4 + n, sink);
            return 4 + n;
        }
    }

    /** A record of 65,496 payload bytes fails a UDP run, naming it; one of 65,495 goes in one datagram; the ring takes both. */
    @Test
    void aRecordLargerThanOneDatagramFailsTheUdpRunNamingIt(@TempDir Path dir) throws Exception {
        List<MultiMessage> records = Replay.load(IEX);
        Map<Long, Integer> payloads = Map.of(records.get(5).seq_no, 65_496, records.get(6).seq_no, 65_495);
        Path plan = write(
                dir,
                "plan.json",
                plan(evenly(10_000), 0, 20, List.of("ring", "udp"), 0, run("max", 0, 20), run("max", 6, 20)));
        Result r = replay(dir, plan, "padded", List.of(testFormat("padded", () -> new Padded(payloads))));
        assertEquals(3, r.code(), r.err());
        JsonNode runs = validate(r.json(), List.of("ring", "udp"));
        for (int k : new int[] {0, 1, 3}) {
            assertTrue(runs.get(k).get("error").isNull(), runs.get(k).toString());
        }
        assertEquals(
                "record 5: 65496 payload bytes, more than one datagram holds (65495 after the 12-byte header)",
                runs.get(2).get("error").asText());
        assertEquals(5, runs.get(2).get("sent").asLong(), "records 0 to 4 went out before it");
        JsonNode sizes = runs.get(3).get("sizes"), largest = sizes.get(sizes.size() - 1);
        assertTrue(largest.get("max_bytes").isNull(), sizes.toString());
        assertEquals(1, histogram(largest.get("histogram")).getTotalCount(), "record 6, in one datagram");
    }

    static long seqNoSum(int first, int end) throws Exception {
        long s = 0;
        for (MultiMessage m : Spec.read(Workload.IEX).records().subList(first, end)) {
            s += m.seq_no;
        }
        return s;
    }

    /** A refused input: exit 1, one line naming the file and what was expected, no stack trace, no results file. */
    static void refused(Path dir, Path dataset, Path plan, String... expected) throws Exception {
        Path out = dir.resolve("refused.json");
        Ran r = Ran.run(
                "--dataset",
                dataset.toString(),
                "--replay",
                plan.toString(),
                "--formats",
                "protobuf",
                "--out",
                out.toString());
        assertEquals(1, r.code(), r.err());
        String line = r.err().strip();
        assertEquals(1, line.lines().count(), line);
        assertFalse(line.contains("Exception") || line.contains("\tat "), line);
        assertTrue(line.startsWith("shootout-jvm: "), line);
        for (String e : expected) {
            assertTrue(line.contains(e), "expected \"" + e + "\" in: " + line);
        }
        assertFalse(Files.exists(out), "nothing written");
    }

    @Test
    void aDatasetOfAnotherWorkloadIsRefused(@TempDir Path dir) throws Exception {
        Path user = Spec.fixture("user");
        int n = (int) Spec.header("user").records();
        long[] t = new long[n];
        Path plan = write(dir, "plan.json", plan(t, 0, n, List.of("ring"), 0, run("max", 0, n)));
        refused(dir, user, plan, user + ": workload \"user\", expected \"iex\"");
    }

    @Test
    void aPlanOfAnotherSchemaIsRefused(@TempDir Path dir) throws Exception {
        int n = records();
        ObjectNode p = plan(evenly(1000), 0, n, List.of("ring"), 0, run("max", 0, n));
        p.put("schema", "shootout-replay-plan/2");
        refused(
                dir,
                IEX,
                write(dir, "plan.json", p),
                dir.resolve("plan.json") + ": schema \"shootout-replay-plan/2\", expected \"" + Plan.SCHEMA + "\"");
        // The schema is said first, even when the plan has other faults.
        p.putArray("send_time_ns").add(3).add(2);
        refused(dir, IEX, write(dir, "plan.json", p), "schema \"shootout-replay-plan/2\"");
        refused(
                dir,
                IEX,
                write(dir, "plan.json", JSON.createArrayNode()),
                "plan.json: not a JSON object, expected a " + Plan.SCHEMA);
    }

    @Test
    void indicesOutOfRangeAreRefused(@TempDir Path dir) throws Exception {
        int n = records();
        long[] t = evenly(1000);
        refused(
                dir,
                IEX,
                write(dir, "end.json", plan(t, 0, n, List.of("ring"), 0, run("max", 0, n + 1))),
                "end.json: runs[0].end is " + (n + 1) + ", expected an integer from 0 to " + n);
        refused(
                dir,
                IEX,
                write(dir, "neg.json", plan(t, 0, n, List.of("ring"), 0, run(2, 0, n), run("max", -1, 5))),
                "neg.json: runs[1].first is -1, expected an integer from 0 to " + n);
        refused(
                dir,
                IEX,
                write(dir, "empty.json", plan(t, 0, n, List.of("ring"), 0, run("max", 7, 7))),
                "empty.json: runs[0] is [7, 7), expected first < end within the dataset's " + n + " records");
        refused(
                dir,
                IEX,
                write(dir, "bs.json", plan(t, 0, n + 5, List.of("ring"), 0, run("max", 0, n))),
                "bs.json: busiest_second.end is " + (n + 5) + ", expected an integer from 0 to " + n);
        refused(
                dir,
                IEX,
                write(dir, "speed.json", plan(t, 0, n, List.of("ring"), 0, run(0, 0, n))),
                "speed.json: runs[0].speed is 0, expected a positive number or \"max\"");
        refused(
                dir,
                IEX,
                write(dir, "transport.json", plan(t, 0, n, List.of("ring", "tcp"), 0, run("max", 0, n))),
                "transport.json: transports holds \"tcp\", expected each of [ring, udp] at most once");
    }

    @Test
    void sendTimesThatDecreaseOrDoNotMatchTheRecordsAreRefused(@TempDir Path dir) throws Exception {
        int n = records();
        long[] t = evenly(1000);
        t[7] = t[6] - 1;
        refused(
                dir,
                IEX,
                write(dir, "down.json", plan(t, 0, n, List.of("ring"), 0, run("max", 0, n))),
                "down.json: send_time_ns[7] = " + t[7] + " is before send_time_ns[6] = " + t[6]
                        + ", expected non-decreasing send times");
        refused(
                dir,
                IEX,
                write(
                        dir,
                        "short.json",
                        plan(java.util.Arrays.copyOf(evenly(1000), n - 1), 0, n, List.of("ring"), 0, run("max", 0, n))),
                "short.json: send_time_ns has " + (n - 1) + " entries, expected one per dataset record (" + n + ")");
        ObjectNode p = plan(evenly(1000), 0, n, List.of("ring"), 0, run("max", 0, n));
        ((ArrayNode) p.get("send_time_ns")).set(3, JSON.getNodeFactory().textNode("soon"));
        refused(
                dir,
                IEX,
                write(dir, "text.json", p),
                "text.json: send_time_ns[3] is soon, expected an i64 (ns since the epoch)");
    }

    @Test
    void anUnknownFormatOrAMissingOutIsAUsageError(@TempDir Path dir) throws Exception {
        int n = records();
        Path plan = write(dir, "plan.json", plan(evenly(1000), 0, n, List.of("ring"), 0, run("max", 0, n)));
        Ran r = Ran.run(
                "--dataset",
                IEX.toString(),
                "--replay",
                plan.toString(),
                "--formats",
                "baseline",
                "--out",
                dir.resolve("o.json").toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(
                "shootout-jvm: --formats: no format baseline in the jvm runner",
                r.err().strip());
        Ran noOut = Ran.run("--dataset", IEX.toString(), "--replay", plan.toString());
        assertEquals(2, noOut.code(), noOut.err());
        assertEquals(
                "shootout-jvm: --replay needs --dataset and --out", noOut.err().strip());
    }

    @Test
    void theSizeClassesAreThePayloadBoundsOfTheDocument() {
        assertEquals(0, OneRun.sizeClass(1));
        assertEquals(0, OneRun.sizeClass(63));
        assertEquals(1, OneRun.sizeClass(64));
        assertEquals(6, OneRun.sizeClass(4095));
        assertEquals(7, OneRun.sizeClass(4096));
        assertEquals(7, OneRun.sizeClass(65_495));
    }
}
