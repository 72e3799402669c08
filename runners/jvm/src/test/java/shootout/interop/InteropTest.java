package shootout.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import shootout.Spec;
import shootout.cli.Ran;
import shootout.registry.Registry;
import shootout.workload.Dataset;
import shootout.workload.Workload;

/** Both interop modes through the command line, on every workload's fixture. */
class InteropTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static Stream<String> workloads() {
        return Workload.ALL.stream().map(w -> w.name);
    }

    static List<JsonNode> answers(Ran r) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String l : r.out().split("\n")) {
            if (!l.isBlank()) {
                out.add(JSON.readTree(l));
            }
        }
        return out;
    }

    static Path encode(Path dir, String workload, String... formats) throws Exception {
        List<String> args = new ArrayList<>(List.of("--dataset", Spec.fixture(workload).toString(), "--interop-encode", dir.toString()));
        if (formats.length > 0) {
            args.add("--formats");
            args.add(String.join(",", formats));
        }
        Ran r = Ran.run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return dir;
    }

    static Ran decode(Path dir, String workload, List<String> lines) throws Exception {
        Path list = dir.resolve("requests.tsv");
        Files.write(list, lines);
        return Ran.run("--dataset", Spec.fixture(workload).toString(), "--interop-decode", list.toString());
    }

    /** Every format's stream: its manifest describes it, its ends cut it, and the runner decodes it back "ok". */
    @ParameterizedTest
    @MethodSource("workloads")
    void everyFormatsStreamRoundTripsThroughBothModes(String workload, @TempDir Path dir) throws Exception {
        encode(dir, workload);
        long records = Dataset.readHeader(Spec.fixture(workload)).records();
        List<String> lines = new ArrayList<>();
        for (Registry.Format f : Registry.FORMATS) {
            if (!f.runs(workload)) {
                continue;
            }
            String base = "java-" + f.info().name();
            JsonNode m = JSON.readTree(dir.resolve(base + ".json").toFile());
            assertEquals("shootout-interop/1", m.get("schema").asText());
            assertEquals("java", m.get("language").asText());
            assertEquals(f.info().name(), m.get("format").asText());
            assertEquals(workload, m.get("workload").asText());
            assertEquals(f.info().framing().spelling, m.get("framing").asText());
            assertTrue(m.get("error").isNull(), m.toString());
            assertEquals(records, m.get("records").asLong());
            byte[] stream = Files.readAllBytes(dir.resolve(m.get("stream").asText()));
            assertEquals(stream.length, m.get("bytes").asLong());
            assertEquals(Interop.sha256(stream, stream.length), m.get("sha256").asText());
            ByteBuffer ends = ByteBuffer.wrap(Files.readAllBytes(dir.resolve(base + ".ends"))).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(records * 8, ends.remaining());
            long last = 0;
            for (long i = 0; i < records; i++) {
                long e = ends.getLong();
                assertTrue(e > last, base + ": record " + i + " ends at " + e + ", after " + last);
                last = e;
            }
            assertEquals(stream.length, last);
            lines.add(f.info().name() + "\t" + dir.resolve(base + ".bin").toAbsolutePath());
        }
        Ran r = decode(dir, workload, lines);
        assertEquals(0, r.code(), r.err());
        List<JsonNode> got = answers(r);
        assertEquals(lines.size(), got.size());
        for (JsonNode a : got) {
            assertEquals("ok", a.get("status").asText(), a.toString());
            assertEquals(records, a.get("records").asLong(), a.toString());
            assertTrue(a.get("detail").isNull(), a.toString());
        }
    }

    /** The framing each manifest declares is what the stream holds: a u32le prefix or varint length is followed by that many bytes. */
    @Test
    void theDeclaredFramingCutsTheStreamAtItsRecordEnds(@TempDir Path dir) throws Exception {
        encode(dir, "user");
        for (Registry.Format f : Registry.FORMATS) {
            String base = "java-" + f.info().name();
            byte[] s = Files.readAllBytes(dir.resolve(base + ".bin"));
            ByteBuffer ends = ByteBuffer.wrap(Files.readAllBytes(dir.resolve(base + ".ends"))).order(ByteOrder.LITTLE_ENDIAN);
            int start = 0;
            while (ends.hasRemaining()) {
                int end = (int) ends.getLong();
                switch (f.info().framing()) {
                    case U32LE -> assertEquals(end - start - 4, shootout.codec.Stream.getIntLE(s, start), base);
                    case VARINT -> {
                        long n = 0;
                        int at = start, shift = 0;
                        for (byte b; ((b = s[at++]) & 0x80) != 0; shift += 7) {
                            n |= (long) (b & 0x7f) << shift;
                        }
                        n |= (long) (s[at - 1] & 0x7f) << shift;
                        assertEquals(end - at, n, base);
                    }
                    case NONE -> {
                        // Self-delimiting: nothing to check beyond the ends, which decode already follows.
                    }
                }
                start = end;
            }
        }
    }

    @Test
    void aCorruptedStreamIsAnErrorNamingTheRecordAndTheNextLineStillRuns(@TempDir Path dir) throws Exception {
        encode(dir, "user", "protobuf", "json-jackson");
        Path good = dir.resolve("java-json-jackson.bin");
        byte[] s = Files.readAllBytes(good);
        ByteBuffer ends = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("java-json-jackson.ends"))).order(ByteOrder.LITTLE_ENDIAN);
        int third = (int) ends.getLong(8);
        byte[] bad = s.clone();
        bad[third + 4] = '#'; // the third record's first JSON byte
        Path corrupt = dir.resolve("corrupt.bin");
        Files.write(corrupt, bad);
        Path truncated = dir.resolve("truncated.bin");
        Files.write(truncated, java.util.Arrays.copyOf(s, third));
        Path longer = dir.resolve("longer.bin");
        Files.write(longer, java.util.Arrays.copyOf(s, s.length + 1));
        Ran r = decode(dir, "user", List.of("json-jackson\t" + corrupt, "json-jackson\t" + truncated, "json-jackson\t" + longer,
                "protobuf\t" + good, "no-such\t" + good, "json-jackson\t" + dir.resolve("missing.bin"), "json-jackson\t" + good));
        assertEquals(0, r.code(), r.err());
        List<JsonNode> a = answers(r);
        assertEquals(7, a.size(), r.out());
        for (int i = 0; i < 6; i++) {
            assertEquals("error", a.get(i).get("status").asText(), a.get(i).toString());
        }
        assertTrue(a.get(0).get("detail").asText().startsWith("record 2, byte offset " + third + ": "), a.get(0).toString());
        assertEquals(2, a.get(0).get("records").asLong());
        assertTrue(a.get(1).get("detail").asText().contains("the stream ends after 2 records"), a.get(1).toString());
        assertTrue(a.get(2).get("detail").asText().contains("1 bytes left over"), a.get(2).toString());
        assertTrue(a.get(3).get("detail").asText().startsWith("record 0, byte offset 0: "), a.get(3).toString());
        assertEquals("no format no-such in the jvm runner", a.get(4).get("detail").asText());
        assertTrue(a.get(5).get("detail").asText().startsWith("cannot read the stream"), a.get(5).toString());
        assertEquals("ok", a.get(6).get("status").asText(), a.get(6).toString());
    }

    /** Another dataset's records in a well-formed stream: a mismatch naming the first record that differs. */
    @Test
    void aStreamOfOtherRecordsIsAMismatchNamingTheRecord(@TempDir Path dir) throws Exception {
        List<String> lines = Files.readAllLines(Spec.fixture("user"));
        // Record 3 (line 5) gets another uid; the header stays, so that record no longer adds up.
        lines.set(4, lines.get(4).replaceFirst("\"uid\":(-?\\d+)", "\"uid\":12345"));
        assertTrue(!lines.get(4).equals(Files.readAllLines(Spec.fixture("user")).get(4)), "the fixture's record 3 has a uid");
        // Encoded by the codecs directly (--interop-encode would refuse records that do not add up to the header):
        // the streams hold the altered record, the dataset decoded against is the original.
        Path streams = dir.resolve("streams");
        Files.createDirectories(streams);
        Workload<shootout.workload.User, shootout.workload.FieldSink> w = Workload.USER;
        List<shootout.workload.User> records = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            shootout.workload.User u = w.readLine.read(l);
            records.add(u);
        }
        for (String format : List.of("protobuf", "json-jackson", "sbe")) {
            Registry.Format f = Registry.FORMATS.stream().filter(x -> x.info().name().equals(format)).findFirst().orElseThrow();
            shootout.codec.Stream s = new shootout.codec.Stream();
            var c = f.codec(w);
            for (shootout.workload.User u : records) {
                c.encode(s, u);
            }
            Files.write(streams.resolve(format + ".bin"), java.util.Arrays.copyOf(s.buf, s.len));
        }
        Ran r = decode(dir, "user", List.of("protobuf\t" + streams.resolve("protobuf.bin"), "json-jackson\t" + streams.resolve("json-jackson.bin"),
                "sbe\t" + streams.resolve("sbe.bin")));
        assertEquals(0, r.code(), r.err());
        for (JsonNode a : answers(r)) {
            assertEquals("mismatch", a.get("status").asText(), a.toString());
            assertEquals(records.size(), a.get("records").asLong());
            assertTrue(a.get("detail").asText().startsWith("record 3: field uid: expected "), a.toString());
        }
    }

    @Test
    void theIexWorkloadNamesTheFirstDifferingRecordToo(@TempDir Path dir) throws Exception {
        Workload<shootout.workload.MultiMessage, shootout.workload.IexSink> w = Workload.IEX;
        List<shootout.workload.MultiMessage> records = Spec.read(w).records();
        records.get(7).messages[0].ts += 1;
        Registry.Format f = Registry.FORMATS.stream().filter(x -> x.info().name().equals("flatbuffers")).findFirst().orElseThrow();
        shootout.codec.Stream s = new shootout.codec.Stream();
        var c = f.codec(w);
        for (shootout.workload.MultiMessage m : records) {
            c.encode(s, m);
        }
        Path stream = dir.resolve("iex.bin");
        Files.write(stream, java.util.Arrays.copyOf(s.buf, s.len));
        JsonNode a = answers(decode(dir, "iex", List.of("flatbuffers\t" + stream))).get(0);
        assertEquals("mismatch", a.get("status").asText(), a.toString());
        assertTrue(a.get("detail").asText().startsWith("record 7: symbol "), a.toString());
        assertTrue(a.get("detail").asText().contains("ts_sum"), a.toString());
    }

    @Test
    void usageAndInputErrors(@TempDir Path dir) throws Exception {
        String ds = Spec.fixture("user").toString();
        assertEquals(2, Ran.run("--dataset", ds, "--interop-encode", dir.toString(), "--formats", "nope").code());
        assertEquals(2, Ran.run("--interop-encode", dir.toString()).code());
        assertEquals(2, Ran.run("--dataset", ds, "--interop-encode", dir.toString(), "--interop-decode", "x").code());
        assertEquals(1, Ran.run("--dataset", ds, "--interop-decode", dir.resolve("missing.tsv").toString()).code());
        assertEquals(1, Ran.run("--dataset", dir.resolve("missing.jsonl").toString(), "--interop-encode", dir.toString()).code());
        assertNull(Registry.FORMATS.stream().filter(f -> f.info().framing() == null).findFirst().orElse(null), "every format states its framing");
    }
}
