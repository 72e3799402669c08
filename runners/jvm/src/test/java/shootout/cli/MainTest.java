package shootout.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import shootout.Samples;
import shootout.registry.Registry;
import shootout.workload.Workload;

/** The exit statuses of cmd/shootout-go, and a results file that follows docs/results-schema.md. */
class MainTest {
    record Ran(int code, String out, String err) {
    }

    static Ran run(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Ran(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aRunWritesAResultsFileWithEveryFormatMeasuredOrNotRun(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("results.json");
        Ran r = run("--dataset", Samples.path("user").toString(), "--runs", "2", "--warmup", "0", "--window", "128",
                "--jit-warmup-ms", "0", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode j = new ObjectMapper().readTree(out.toFile());
        assertEquals("shootout-results/2", j.get("schema").asText());
        assertEquals("java", j.at("/runner/language").asText());
        assertTrue(j.at("/environment/java_version").asText().startsWith(String.valueOf(Runtime.version().feature())));
        assertTrue(j.at("/environment/jvm_flags").isArray());
        assertEquals(Registry.entries(Workload.USER).size(), j.get("formats").size());
        for (JsonNode f : j.get("formats")) {
            String name = f.get("name").asText();
            assertEquals(2, f.at("/decode/runs").size(), name);
            assertFalse(f.get("library_version").asText().isEmpty(), name);
            assertTrue(f.at("/encode/summary/ns_per_op/median").asDouble() > 0, name);
            assertTrue(f.at("/decode/runs/0/histogram").asText().length() > 0, name);
            assertTrue(f.at("/decode/runs/0/allocations_per_op").isNull(), name);
            assertTrue(f.at("/decode/summary/allocated_bytes_per_op/median").isNumber(), name);
            assertTrue(f.get("encoded_bytes").asLong() > 0, name);
        }
        assertEquals(0, j.get("failed").size());
        assertEquals(Registry.notRun("user").size(), j.get("not_run").size());
        assertTrue(j.get("warnings").size() > 0, "--warmup 0 must warn");
        assertEquals(shootout.workload.Dataset.readHeader(Samples.path("user")).records(), j.at("/workload/records").asLong());
        assertTrue(r.err().contains("baseline"), r.err());
    }

    @Test
    void usageErrorsExitWith2() throws Exception {
        String ds = Samples.path("user").toString();
        assertEquals(2, run("--dataset", ds, "--formats", "nope", "--out", "x.json").code());
        assertEquals(2, run("--dataset", ds).code());
        assertEquals(2, run("--bogus").code());
        assertEquals(2, run("--runs", "many").code());
    }

    @Test
    void aBadInputExitsWith1(@TempDir Path dir) throws Exception {
        assertEquals(1, run("--dataset", dir.resolve("missing.jsonl").toString(), "--out", dir.resolve("r.json").toString()).code());
        // A record that does not add up to the header's reference is the input's error, before any format runs.
        List<String> lines = Files.readAllLines(Samples.path("sql"));
        lines.set(1, lines.get(1).replace("2005", "2006"));
        Path bad = dir.resolve("bad.jsonl");
        Files.write(bad, lines);
        Ran r = run("--dataset", bad.toString(), "--out", dir.resolve("r.json").toString(), "--jit-warmup-ms", "0");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("do not add up"), r.err());
    }

    /** A codec that loses a value: it writes every user record with its uid zeroed. */
    static final class LosesUid implements shootout.codec.Codec<shootout.workload.User, shootout.workload.FieldSink> {
        final shootout.codec.Codec<shootout.workload.User, shootout.workload.FieldSink> json = new shootout.formats.jackson.JacksonCodec<>(
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
        final shootout.harness.Baseline<shootout.workload.User, shootout.workload.FieldSink> floor = new shootout.harness.Baseline<>(
                Workload.USER.feed);

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
        shootout.codec.Labels l = shootout.codec.Labels.of(false, "owned", "validated", "reflection");
        List<Registry.Format> formats = new java.util.ArrayList<>(Registry.FORMATS);
        formats.add(new Registry.Format(new shootout.codec.Info("loses-uid", "test", "jdk", l, shootout.codec.Framing.U32LE, ""), w -> new LosesUid(),
                java.util.Map.of("iex", "t", "sql", "t", "primitives", "t", "object", "t", "mixed", "t", "strings", "t", "longs", "t")));
        formats.add(new Registry.Format(new shootout.codec.Info("crashes", "test", "jdk", l, shootout.codec.Framing.U32LE, ""), w -> new Crashes(),
                java.util.Map.of("iex", "t", "sql", "t", "primitives", "t", "object", "t", "mixed", "t", "strings", "t", "longs", "t")));
        Path out = dir.resolve("r.json");
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int code = Main.run(new String[] {"--dataset", Samples.path("user").toString(), "--runs", "1", "--warmup", "0", "--jit-warmup-ms", "0",
                "--formats", "loses-uid,crashes,json-jackson", "--out", out.toString()}, new PrintStream(o), new PrintStream(e), formats);
        assertEquals(3, code, e.toString());
        JsonNode j = new ObjectMapper().readTree(out.toFile());
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
        Ran r = run("--list");
        assertEquals(0, r.code());
        for (Registry.Format f : Registry.FORMATS) {
            assertTrue(r.out().contains(f.info().name()), f.info().name());
        }
        assertTrue(r.out().contains("not run:"), r.out());
    }
}
