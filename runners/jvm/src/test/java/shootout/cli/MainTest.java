package shootout.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import shootout.Spec;
import shootout.TestRegistry;
import shootout.codec.Framing;
import shootout.registry.Registry;
import shootout.workload.Workload;

/** The exit statuses of cmd/shootout-go, and a results file that follows docs/results-schema.md. */
class MainTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aRunWritesAResultsFileWithEveryFormatMeasuredOrNotRun(@TempDir Path dir) throws Exception {
        JsonNode j = JSON.readTree(Ran.results(
                dir,
                Registry.FORMATS,
                0,
                "user",
                "--runs",
                "2",
                "--warmup",
                "0",
                "--window",
                "128",
                "--jit-warmup-ms",
                "0"));
        assertEquals("shootout-results/3", j.get("schema").asText());
        assertFalse(j.has("noisy"));
        assertEquals("java", j.at("/runner/language").asText());
        assertTrue(j.at("/environment/java_version")
                .asText()
                .startsWith(String.valueOf(Runtime.version().feature())));
        assertTrue(j.at("/environment/jvm_flags").isArray());
        assertEquals(Registry.entries(Workload.USER).size(), j.get("formats").size());
        long records = Spec.header("user").records();
        for (JsonNode f : j.get("formats")) {
            String name = f.get("name").asText();
            assertFalse(f.get("library_version").asText().isEmpty(), name);
            assertTrue(f.get("encoded_bytes").asLong() > 0, name);
            for (String direction : List.of("encode", "decode")) {
                JsonNode d = f.get(direction);
                assertEquals(List.of("runs"), fieldNames(d), name + " " + direction);
                assertEquals(2, d.get("runs").size(), name + " " + direction);
                for (JsonNode run : d.get("runs")) {
                    assertEquals(RAW, fieldNames(run), name + " " + direction);
                    assertTrue(
                            run.get("total_ns").isIntegralNumber()
                                    && run.get("total_ns").asLong() > 0,
                            name);
                    assertEquals(records, run.get("ops").asLong(), name);
                    assertEquals(1, run.get("round_ns").size(), name + ": one round, the default");
                    assertEquals(
                            run.get("total_ns").asLong(),
                            run.get("round_ns").get(0).asLong(),
                            name);
                    assertFalse(run.get("histogram").asText().isEmpty(), name);
                    assertTrue(run.get("allocations_per_op").isNull(), name);
                    assertTrue(run.get("allocated_bytes_per_op").isNumber(), name);
                    assertTrue(run.get("order_position").isNumber(), name);
                    assertTrue(
                            run.get("gc_count").isIntegralNumber()
                                    && run.get("gc_pause_ms").isIntegralNumber(),
                            name);
                }
            }
        }
        assertEquals(2, j.get("runs").size(), "no warm-up run, 2 measured");
        assertEquals(SETTINGS, fieldNames(j.get("settings")));
        assertEquals(2, j.at("/settings/runs").asInt());
        assertEquals(1, j.at("/settings/throughput_rounds").asInt(), "one round unless asked");
        assertEquals(0, j.get("failed").size());
        assertEquals(Registry.notRun("user").size(), j.get("not_run").size());
        assertTrue(j.get("warnings").size() > 0, "--warmup 0 must warn");
        assertEquals(records, j.at("/workload/records").asLong());
    }

    /** A run's keys: its raw figures only, the JVM's GC counts among them. */
    static final List<String> RAW = List.of(
            "total_ns",
            "round_ns",
            "ops",
            "histogram",
            "allocations_per_op",
            "allocated_bytes_per_op",
            "gc_count",
            "gc_pause_ms",
            "order_position");

    /** The settings: the run count is exactly warmup_runs then runs, nothing adaptive. */
    static final List<String> SETTINGS =
            List.of("warmup_runs", "runs", "throughput_rounds", "window", "order_seed", "jit_warmup_ms");

    static List<String> fieldNames(JsonNode n) {
        List<String> names = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The results of json-jackson and the baseline on the sql fixture: 2 measured runs, no JIT warm-up, and settings. */
    static JsonNode jacksonOnSql(Path dir, String... settings) throws Exception {
        List<String> args =
                new java.util.ArrayList<>(List.of("--runs", "2", "--formats", "json-jackson", "--jit-warmup-ms", "0"));
        args.addAll(List.of(settings));
        return JSON.readTree(Ran.results(dir, Registry.FORMATS, 0, "sql", args.toArray(String[]::new)));
    }

    @Test
    void theRunnerMakesExactlyTheMeasuredRunsAskedAfterTheWarmUp(@TempDir Path dir) throws Exception {
        JsonNode j = jacksonOnSql(dir, "--warmup", "1");
        assertEquals(2, j.at("/settings/runs").asInt());
        assertEquals(1, j.at("/settings/warmup_runs").asInt());
        JsonNode runs = j.get("runs");
        assertEquals(3, runs.size(), "one warm-up run, then the 2 measured ones");
        for (int i = 0; i < runs.size(); i++) {
            assertEquals(i, runs.get(i).get("index").asInt());
            assertEquals(i == 0, runs.get(i).get("warmup").asBoolean(), "run " + i);
        }
        assertEquals(2, j.get("formats").size(), "baseline and json-jackson");
        for (JsonNode f : j.get("formats")) {
            assertEquals(2, f.at("/encode/runs").size(), f.get("name").asText());
            assertEquals(2, f.at("/decode/runs").size(), f.get("name").asText());
        }
    }

    /** Each measured run's throughput figures cover every round; the encoded sizes and the latency pass, round 1 only. */
    @Test
    void throughputRoundsMultiplyTheMeasuredRunsThroughputOps(@TempDir Path dir) throws Exception {
        JsonNode j = jacksonOnSql(dir, "--warmup", "0", "--throughput-rounds", "2");
        assertEquals(2, j.at("/settings/throughput_rounds").asInt());
        assertEquals(2, j.at("/invocation/options/throughput_rounds").asInt());
        assertEquals(2, j.get("runs").size(), "rounds are within a run");
        long records = Spec.header("sql").records();
        assertEquals(2, j.get("formats").size(), "baseline and json-jackson");
        for (JsonNode f : j.get("formats")) {
            String name = f.get("name").asText();
            for (String direction : List.of("encode", "decode")) {
                JsonNode runs = f.at("/" + direction + "/runs");
                assertEquals(2, runs.size(), name + " " + direction);
                for (JsonNode run : runs) {
                    assertEquals(2 * records, run.get("ops").asLong(), name + " " + direction);
                    byte[] h = java.util.Base64.getDecoder()
                            .decode(run.get("histogram").asText());
                    long latencySamples = org.HdrHistogram.Histogram.decodeFromCompressedByteBuffer(
                                    java.nio.ByteBuffer.wrap(h), 0)
                            .getTotalCount();
                    assertEquals(records, latencySamples, name + " " + direction + ": one latency pass");
                }
            }
        }
        JsonNode baseline = j.get("formats").get(0);
        assertEquals("baseline", baseline.get("name").asText());
        assertEquals(
                4 * records,
                baseline.get("encoded_bytes").asLong(),
                "4 bytes a record, from the first run's round 1 only");
    }

    /** An out-of-range count is one line, as the Rust CLI shows it, and nothing is measured or written. */
    @Test
    void noMeasuredRunANegativeCountOrAnEmptyWindowIsAOneLineUsageError(@TempDir Path dir) throws Exception {
        String ds = Spec.fixture("sql").toString(), out = dir.resolve("r.json").toString();
        Ran r = Ran.run("--dataset", ds, "--runs", "0", "--out", out);
        assertEquals(2, r.code(), r.err());
        assertEquals("shootout-jvm: --runs 0: at least 1 measured run", r.err().strip());
        for (List<String> bad : List.of(
                List.of("--runs", "-1"),
                List.of("--warmup", "-1"),
                List.of("--window", "0"),
                List.of("--jit-warmup-ms", "-1"),
                List.of("--throughput-rounds", "0"),
                List.of("--throughput-rounds", "101"))) {
            Ran b = Ran.run("--dataset", ds, bad.get(0), bad.get(1), "--out", out);
            assertEquals(2, b.code(), bad + ": " + b.err());
            assertEquals(1, b.err().strip().lines().count(), bad + ": " + b.err());
            assertTrue(
                    b.err().startsWith("shootout-jvm: " + bad.get(0) + " " + bad.get(1) + ":"), bad + ": " + b.err());
        }
        assertFalse(Files.exists(dir.resolve("r.json")));
    }

    @Test
    void theAdaptiveRunCountOptionsAreGone() throws Exception {
        String ds = Spec.fixture("sql").toString();
        for (String gone : List.of("--max-runs", "--time-budget-ms")) {
            Ran r = Ran.run("--dataset", ds, gone, "1", "--out", "x.json");
            assertEquals(2, r.code(), gone);
            assertTrue(
                    r.err().startsWith("shootout-jvm: flag provided but not defined: -" + gone.substring(2)), r.err());
        }
        assertFalse(Main.USAGE.contains("--max-runs") || Main.USAGE.contains("--time-budget-ms"), Main.USAGE);
    }

    @Test
    void usageErrorsExitWith2() throws Exception {
        String ds = Spec.fixture("user").toString();
        assertEquals(
                2,
                Ran.run("--dataset", ds, "--formats", "nope", "--out", "x.json").code());
        assertEquals(2, Ran.run("--dataset", ds).code());
        assertEquals(2, Ran.run("--bogus").code());
        assertEquals(2, Ran.run("--runs", "many").code());
    }

    @Test
    void aBadInputExitsWith1(@TempDir Path dir) throws Exception {
        assertEquals(
                1,
                Ran.run(
                                "--dataset",
                                dir.resolve("missing.jsonl").toString(),
                                "--out",
                                dir.resolve("r.json").toString())
                        .code());
        // A record that does not add up to the header's reference is the input's error, before any format runs.
        List<String> lines = Spec.lines("sql");
        lines.set(1, lines.get(1).replace("2005", "2006"));
        Path bad = Spec.writeDataset(dir, "bad.jsonl", lines);
        Ran r = Ran.run(
                "--dataset", bad.toString(), "--out", dir.resolve("r.json").toString(), "--jit-warmup-ms", "0");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("do not add up"), r.err());
    }

    /** A codec that loses a value: it writes every user record with its uid zeroed. */
    static final class LosesUid implements shootout.codec.Codec<shootout.workload.User, shootout.workload.FieldSink> {
        final shootout.codec.Codec<shootout.workload.User, shootout.workload.FieldSink> json =
                new shootout.formats.jackson.JacksonCodec<>(
                        shootout.formats.jackson.JacksonCodec.json(), Workload.USER);

        @Override
        public void encode(shootout.codec.Stream out, shootout.workload.User r) throws Exception {
            long uid = r.uid;
            r.uid = 0;
            try {
                json.encode(out, r);
            } finally {
                r.uid = uid;
            }
        }

        @Override
        public int decode(byte[] buf, int off, int end, shootout.workload.FieldSink sink) throws Exception {
            return json.decode(buf, off, end, sink);
        }
    }

    /** A codec that throws an Error: the harness must fail that format only. */
    static final class Crashes implements shootout.codec.Codec<shootout.workload.User, shootout.workload.FieldSink> {
        final shootout.harness.Baseline<shootout.workload.User, shootout.workload.FieldSink> floor =
                new shootout.harness.Baseline<>(Workload.USER.feed);

        @Override
        public void encode(shootout.codec.Stream out, shootout.workload.User r) {
            floor.encode(out, r);
        }

        @Override
        public int decode(byte[] buf, int off, int end, shootout.workload.FieldSink sink) {
            throw new StackOverflowError("test");
        }
    }

    @Test
    void aFormatThatLosesAValueIsListedAsFailedAndTheExitIs3(@TempDir Path dir) throws Exception {
        List<Registry.Format> formats = new java.util.ArrayList<>(Registry.FORMATS);
        formats.add(TestRegistry.testRow("loses-uid", Framing.U32LE, Workload.USER, LosesUid::new));
        formats.add(TestRegistry.testRow("crashes", Framing.U32LE, Workload.USER, Crashes::new));
        JsonNode j = JSON.readTree(
                Ran.quick(dir, formats, 3, Spec.fixture("user"), "--formats", "loses-uid,crashes,json-jackson"));
        assertEquals(2, j.get("failed").size());
        assertEquals(2, j.get("formats").size(), "baseline and json-jackson measured");
        for (JsonNode f : j.get("failed")) {
            String reason = f.get("reason").asText();
            if (f.get("name").asText().equals("loses-uid")) {
                assertTrue(reason.contains("field uid"), reason);
            } else {
                assertTrue(reason.contains("StackOverflowError"), reason);
            }
        }
    }

    @Test
    void listNamesEveryFormatAndWhatCannotRun() throws Exception {
        Ran r = Ran.run("--list");
        assertEquals(0, r.code());
        for (Registry.Format f : Registry.FORMATS) {
            assertTrue(r.out().contains(f.info().name()), f.info().name());
        }
        assertTrue(r.out().contains("not run:"), r.out());
    }

    /** `--list --json` (what `shootout formats --lang jvm` reads) gives each format's wire and framing, as spec/formats.json has them. */
    @Test
    void listJsonGivesEachFormatsWireAndFraming() throws Exception {
        Ran r = Ran.run("--list", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode listed = JSON.readTree(r.out());
        for (Registry.Format f : Registry.FORMATS) {
            JsonNode x = listed.get(Registry.FORMATS.indexOf(f));
            assertEquals(f.info().name(), x.get("name").asText());
            assertEquals(f.info().wire(), x.get("wire").asText());
            assertEquals(f.info().framing().spelling, x.get("framing").asText());
            assertEquals(f.workloads(), JSON.convertValue(x.get("workloads"), List.class));
        }
    }
}
