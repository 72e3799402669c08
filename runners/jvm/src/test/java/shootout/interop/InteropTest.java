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
import shootout.TestRegistry;
import shootout.cli.Ran;
import shootout.registry.Registry;
import shootout.workload.Dataset;
import shootout.workload.Workload;

/** Both interop modes through the command line, on every workload's fixture. */
class InteropTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static Path encode(Path dir, String fixture, String... formats) throws Exception {
        return Ran.interopEncode(dir, Spec.fixture(fixture), formats);
    }

    static Ran decode(Path dir, String fixture, List<String> lines) throws Exception {
        return Ran.interopDecode(dir, Spec.fixture(fixture), lines);
    }

    static long[] readEnds(Path ends) throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(ends)).order(ByteOrder.LITTLE_ENDIAN);
        long[] out = new long[b.remaining() / 8];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.getLong();
        }
        return out;
    }

    /** Writes a stream and its record ends beside it, as the lead hands a stream to a runner. */
    static Path writeStream(Path bin, byte[] stream, long... ends) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(ends.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long e : ends) {
            b.putLong(e);
        }
        Files.write(bin, stream);
        Files.write(Records.endsPath(bin), b.array());
        return bin;
    }

    /** Records encoded by a format's codec directly, into a stream with its ends at bin. */
    static <R, S> Path encodeDirectly(Path bin, String format, Workload<R, S> w, List<R> records) throws Exception {
        shootout.codec.Stream s = new shootout.codec.Stream();
        var c = TestRegistry.row(format).codec(w);
        long[] ends = new long[records.size()];
        for (int i = 0; i < ends.length; i++) {
            c.encode(s, records.get(i));
            ends[i] = s.len;
        }
        return writeStream(bin, java.util.Arrays.copyOf(s.buf, s.len), ends);
    }

    /**
     * The user fixture's records k times over, a dataset of several windows;
     * the fixture has no floats, so its reference is the fixture's figures
     * times k (wrapping, as the sums do).
     */
    static Path repeatedUsers(Path dir, int k) throws Exception {
        List<String> lines = Spec.lines("user");
        com.fasterxml.jackson.databind.node.ObjectNode header =
                (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(lines.get(0));
        com.fasterxml.jackson.databind.node.ObjectNode ref =
                (com.fasterxml.jackson.databind.node.ObjectNode) header.get("reference");
        java.math.BigInteger times = java.math.BigInteger.valueOf(k), u64 = java.math.BigInteger.ONE.shiftLeft(64);
        header.put("records", header.get("records").asLong() * k);
        ref.put("records", ref.get("records").asLong() * k);
        ref.get("fields").forEach(field -> {
            com.fasterxml.jackson.databind.node.ObjectNode f = (com.fasterxml.jackson.databind.node.ObjectNode) field;
            assertEquals(0.0, f.get("float_sum").asDouble());
            f.put("int_sum", f.get("int_sum").asLong() * k);
            for (String u : List.of("present", "text_bytes", "text_hash")) {
                f.put(u, f.get(u).bigIntegerValue().multiply(times).mod(u64));
            }
        });
        List<String> out = new ArrayList<>(List.of(JSON.writeValueAsString(header)));
        for (int i = 0; i < k; i++) {
            out.addAll(lines.subList(1, lines.size()));
        }
        return Spec.writeDataset(dir, "users.jsonl", out);
    }

    static Stream<String> framingFixtures() {
        return Stream.of("user", "jsonl-protobuf", "jsonl-avro");
    }

    /** The formats that run a fixture (the schema formats, only one whose header carries their schema). */
    static List<Registry.Format> running(String fixture) throws java.io.IOException {
        Dataset.Header h = Spec.header(fixture);
        Workload<?, ?> w = Workload.named(h.workload());
        return Registry.FORMATS.stream()
                .filter(f -> f.on(w, h.recordSchemas()).runs())
                .toList();
    }

    /**
     * Every format's stream: its manifest describes it, its ends cut it, and
     * the runner decodes it back "ok"; a format with a known loss on the
     * fixture (KnownLosses) shows it instead, in its manifest's error or its
     * answer's detail. A format that does not run the fixture has no manifest.
     */
    @ParameterizedTest
    @MethodSource("shootout.Spec#fixtureNames")
    void everyFormatsStreamRoundTripsThroughBothModes(String fixture, @TempDir Path dir) throws Exception {
        encode(dir, fixture);
        Dataset.Header header = Spec.header(fixture);
        String workload = header.workload();
        long records = header.records();
        List<String> lines = new ArrayList<>();
        java.util.Map<String, String> losses = new java.util.HashMap<>();
        List<Registry.Format> running = running(fixture);
        for (Registry.Format f : Registry.FORMATS) {
            if (!running.contains(f)) {
                assertTrue(
                        Files.notExists(dir.resolve("java-" + f.info().name() + ".json")),
                        f.info().name());
                continue;
            }
            String base = "java-" + f.info().name();
            JsonNode m = JSON.readTree(dir.resolve(base + ".json").toFile());
            assertEquals("shootout-interop/1", m.get("schema").asText());
            assertEquals("java", m.get("language").asText());
            assertEquals(f.info().name(), m.get("format").asText());
            assertEquals(workload, m.get("workload").asText());
            assertEquals(f.info().framing().spelling, m.get("framing").asText());
            String loss = shootout.KnownLosses.of(f.info().name(), workload);
            if (loss != null && !m.get("error").isNull()) {
                assertTrue(m.get("error").asText().contains(loss), m.toString());
                continue;
            }
            if (loss != null) {
                losses.put(f.info().name(), loss);
            }
            assertTrue(m.get("error").isNull(), m.toString());
            assertEquals(records, m.get("records").asLong());
            byte[] stream = Files.readAllBytes(dir.resolve(m.get("stream").asText()));
            assertEquals(stream.length, m.get("bytes").asLong());
            assertEquals(
                    java.util.HexFormat.of().formatHex(Interop.sha256().digest(stream)),
                    m.get("sha256").asText());
            long[] ends = readEnds(dir.resolve(base + ".ends"));
            assertEquals(records, ends.length);
            long last = 0;
            for (int i = 0; i < records; i++) {
                assertTrue(ends[i] > last, base + ": record " + i + " ends at " + ends[i] + ", after " + last);
                last = ends[i];
            }
            assertEquals(stream.length, last);
            lines.add(f.info().name() + "\t" + dir.resolve(base + ".bin").toAbsolutePath());
        }
        Ran r = decode(dir, fixture, lines);
        assertEquals(0, r.code(), r.err());
        List<JsonNode> got = r.jsonLines();
        assertEquals(lines.size(), got.size());
        for (JsonNode a : got) {
            String loss = losses.get(a.get("format").asText());
            if (loss != null) {
                assertTrue(
                        !a.get("status").asText().equals("ok")
                                && a.get("detail").asText().contains(loss),
                        a.toString());
                continue;
            }
            assertEquals("ok", a.get("status").asText(), a.toString());
            assertEquals(records, a.get("records").asLong(), a.toString());
            assertTrue(a.get("detail").isNull(), a.toString());
        }
    }

    /**
     * The framing each manifest declares is what the stream holds: a u32le prefix or varint length is followed by that many
     * bytes; on the user fixture (every format but the schema formats) and the schema fixtures (the schema formats).
     */
    @ParameterizedTest
    @MethodSource("framingFixtures")
    void theDeclaredFramingCutsTheStreamAtItsRecordEnds(String fixture, @TempDir Path dir) throws Exception {
        encode(dir, fixture);
        for (Registry.Format f : running(fixture)) {
            String base = "java-" + f.info().name();
            byte[] s = Files.readAllBytes(dir.resolve(base + ".bin"));
            int start = 0;
            for (long recordEnd : readEnds(dir.resolve(base + ".ends"))) {
                int end = (int) recordEnd;
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
        long[] all = readEnds(dir.resolve("java-json-jackson.ends"));
        int third = (int) all[1];
        byte[] bad = s.clone();
        bad[third + 4] = '#'; // the third record's first JSON byte
        Path corrupt = writeStream(dir.resolve("corrupt.bin"), bad, all);
        Path truncated = writeStream(dir.resolve("truncated.bin"), java.util.Arrays.copyOf(s, third), all[0], all[1]);
        long[] longerEnds = java.util.Arrays.copyOf(all, all.length + 1);
        longerEnds[all.length] = s.length + 1;
        Path longer = writeStream(dir.resolve("longer.bin"), java.util.Arrays.copyOf(s, s.length + 1), longerEnds);
        Ran r = decode(
                dir,
                "user",
                List.of(
                        "json-jackson\t" + corrupt,
                        "json-jackson\t" + truncated,
                        "json-jackson\t" + longer,
                        "protobuf\t" + good,
                        "no-such\t" + good,
                        "json-jackson\t" + dir.resolve("missing.bin"),
                        "json-jackson\t" + good));
        assertEquals(0, r.code(), r.err());
        List<JsonNode> a = r.jsonLines();
        assertEquals(7, a.size(), r.out());
        for (int i = 0; i < 6; i++) {
            assertEquals("error", a.get(i).get("status").asText(), a.get(i).toString());
        }
        assertTrue(
                a.get(0).get("detail").asText().startsWith("record 2, byte offset " + third + ": "),
                a.get(0).toString());
        assertEquals(2, a.get(0).get("records").asLong());
        assertTrue(
                a.get(1).get("detail").asText().contains("the stream ends after 2 records"),
                a.get(1).toString());
        assertTrue(
                a.get(2).get("detail").asText().contains("1 bytes left over"),
                a.get(2).toString());
        assertTrue(
                a.get(3).get("detail").asText().startsWith("record 0, byte offset 0: "),
                a.get(3).toString());
        assertEquals(
                "no format no-such in the jvm runner", a.get(4).get("detail").asText());
        assertTrue(
                a.get(5).get("detail").asText().startsWith("cannot read the stream"),
                a.get(5).toString());
        assertEquals("ok", a.get(6).get("status").asText(), a.get(6).toString());
    }

    /** Another dataset's records in a well-formed stream: a mismatch naming the first record that differs. */
    @Test
    void aStreamOfOtherRecordsIsAMismatchNamingTheRecord(@TempDir Path dir) throws Exception {
        List<String> lines = Spec.lines("user");
        // Record 3 (line 5) gets another uid; the header stays, so that record no longer adds up.
        lines.set(4, lines.get(4).replaceFirst("\"uid\":(-?\\d+)", "\"uid\":12345"));
        assertTrue(!lines.get(4).equals(Spec.lines("user").get(4)), "the fixture's record 3 has a uid");
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
            encodeDirectly(streams.resolve(format + ".bin"), format, w, records);
        }
        Ran r = decode(
                dir,
                "user",
                List.of(
                        "protobuf\t" + streams.resolve("protobuf.bin"),
                        "json-jackson\t" + streams.resolve("json-jackson.bin"),
                        "sbe\t" + streams.resolve("sbe.bin")));
        assertEquals(0, r.code(), r.err());
        for (JsonNode a : r.jsonLines()) {
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
        Path stream = encodeDirectly(dir.resolve("iex.bin"), "flatbuffers", w, records);
        JsonNode a = decode(dir, "iex", List.of("flatbuffers\t" + stream))
                .jsonLines()
                .get(0);
        assertEquals("mismatch", a.get("status").asText(), a.toString());
        assertTrue(a.get("detail").asText().startsWith("record 7: symbol "), a.toString());
        assertTrue(a.get("detail").asText().contains("ts_sum"), a.toString());
    }

    /** Every format encodes a dataset of several windows, and decodes its stream back "ok" window by window. */
    @Test
    void aDatasetOfSeveralWindowsRoundTrips(@TempDir Path dir) throws Exception {
        Path dataset = repeatedUsers(dir, 30);
        long records = Dataset.readHeader(dataset).records();
        assertTrue(records > 2 * Interop.WINDOW, "records " + records);
        Ran e = Ran.run("--dataset", dataset.toString(), "--interop-encode", dir.toString());
        assertEquals(0, e.code(), e.err());
        List<String> lines = new ArrayList<>();
        for (Registry.Format f : Registry.FORMATS) {
            if (f.runs("user")) {
                lines.add(
                        f.info().name() + "\t" + dir.resolve("java-" + f.info().name() + ".bin"));
            }
        }
        Ran r = Ran.interopDecode(dir, dataset, lines);
        assertEquals(0, r.code(), r.err());
        for (JsonNode a : r.jsonLines()) {
            assertEquals("ok", a.get("status").asText(), a.toString());
            assertEquals(records, a.get("records").asLong(), a.toString());
        }
    }

    /** The mismatch search reads the dataset and the stream again in step, past their first windows. */
    @Test
    void aMismatchInALaterWindowNamesItsRecord(@TempDir Path dir) throws Exception {
        Path dataset = repeatedUsers(dir, 30);
        Workload<shootout.workload.User, shootout.workload.FieldSink> w = Workload.USER;
        List<shootout.workload.User> records = Spec.read(dataset, w).records();
        int k = 2 * Interop.WINDOW + 42;
        records.get(k).uid += 1;
        Path stream = encodeDirectly(dir.resolve("protobuf.bin"), "protobuf", w, records);
        JsonNode a = Ran.interopDecode(dir, dataset, List.of("protobuf\t" + stream))
                .jsonLines()
                .get(0);
        assertEquals("mismatch", a.get("status").asText(), a.toString());
        assertTrue(a.get("detail").asText().startsWith("record " + k + ": field uid: expected "), a.toString());
    }

    /** A decode must use exactly its record's bytes: one that stops short is an error naming the record, even when the codec is content. */
    @Test
    void aDecodeUsingFewerBytesThanItsRecordIsAnError(@TempDir Path dir) throws Exception {
        encode(dir, "user", "protobuf");
        byte[] s = Files.readAllBytes(dir.resolve("java-protobuf.bin"));
        long[] ends = readEnds(dir.resolve("java-protobuf.ends"));
        long[] merged = new long[ends.length - 1];
        merged[0] = ends[0];
        System.arraycopy(ends, 2, merged, 1, merged.length - 1);
        Path stream = writeStream(dir.resolve("merged.bin"), s, merged);
        JsonNode a =
                decode(dir, "user", List.of("protobuf\t" + stream)).jsonLines().get(0);
        assertEquals("error", a.get("status").asText(), a.toString());
        assertEquals(1, a.get("records").asLong());
        assertEquals(
                "record 1, byte offset " + ends[0] + ": decode used " + (ends[1] - ends[0]) + " of the record's "
                        + (ends[2] - ends[0]) + " bytes",
                a.get("detail").asText());
    }

    /** The record ends beside a stream must describe it: each problem is the request's error, on one line. */
    @Test
    void recordEndsThatDoNotFitTheStreamAreErrors(@TempDir Path dir) throws Exception {
        encode(dir, "user", "protobuf");
        byte[] s = Files.readAllBytes(dir.resolve("java-protobuf.bin"));
        long[] ends = readEnds(dir.resolve("java-protobuf.ends"));
        Path missing = writeStream(dir.resolve("missing.bin"), s, ends);
        Files.delete(dir.resolve("missing.ends"));
        Path shortEnds = writeStream(dir.resolve("short.bin"), s, ends);
        Files.write(
                dir.resolve("short.ends"),
                java.util.Arrays.copyOf(Files.readAllBytes(dir.resolve("short.ends")), ends.length * 8 - 3));
        long[] swapped = ends.clone();
        swapped[2] = ends[3];
        swapped[3] = ends[2];
        Path beyond = writeStream(dir.resolve("beyond.bin"), java.util.Arrays.copyOf(s, s.length - 1), ends);
        Path after = writeStream(dir.resolve("after.bin"), java.util.Arrays.copyOf(s, s.length + 1), ends);
        Path unordered = writeStream(dir.resolve("swapped.bin"), s, swapped);
        Ran r = decode(
                dir,
                "user",
                List.of(
                        "protobuf\t" + missing,
                        "protobuf\t" + shortEnds,
                        "protobuf\t" + beyond,
                        "protobuf\t" + after,
                        "protobuf\t" + unordered));
        assertEquals(0, r.code(), r.err());
        List<String> want = List.of(
                "cannot read the stream's record ends: java.nio.file.NoSuchFileException: "
                        + dir.resolve("missing.ends"),
                dir.resolve("short.ends") + ": " + (ends.length * 8 - 3)
                        + " bytes, not a whole number of u64 record ends",
                dir.resolve("beyond.ends") + ": the last record ends at byte " + s.length + ", beyond the stream's "
                        + (s.length - 1) + " bytes",
                dir.resolve("after.ends") + ": the stream has 1 bytes after its last record's end (byte offset "
                        + s.length + ")",
                dir.resolve("swapped.ends") + ": record 3 ends at byte " + ends[2] + ", not after its start at "
                        + ends[3]);
        List<JsonNode> a = r.jsonLines();
        for (int i = 0; i < want.size(); i++) {
            assertEquals("error", a.get(i).get("status").asText(), a.get(i).toString());
            assertEquals(want.get(i), a.get(i).get("detail").asText());
        }
    }

    /** A stream cut into windows hands out every record's bytes, one record larger than a window's bytes among them. */
    @Test
    void recordsAreReadWindowByWindow(@TempDir Path dir) throws Exception {
        int[] sizes = new int[3 * Interop.WINDOW + 5];
        java.util.Arrays.fill(sizes, 100);
        sizes[5000] = Records.WINDOW_BYTES + 10;
        long[] ends = new long[sizes.length];
        java.io.ByteArrayOutputStream stream = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < sizes.length; i++) {
            byte[] record = new byte[sizes[i]];
            java.util.Arrays.fill(record, (byte) i);
            stream.write(record);
            ends[i] = stream.size();
        }
        Path bin = writeStream(dir.resolve("s.bin"), stream.toByteArray(), ends);
        try (Records r = Records.open(bin)) {
            for (int i = 0; i < sizes.length; i++) {
                assertTrue(r.next(), "record " + i);
                assertEquals(i == 0 ? 0 : ends[i - 1], r.offset());
                assertEquals(sizes[i], r.end - r.start, "record " + i);
                assertEquals((byte) i, r.buf[r.start]);
                assertEquals((byte) i, r.buf[r.end - 1]);
            }
            assertTrue(!r.next());
            assertEquals(r.size, r.endOffset());
        }
    }

    /** An encoder error in a later window: the manifest says which record, and no stream or ends are left. */
    @Test
    void anEncoderErrorLeavesNoStream(@TempDir Path dir) throws Exception {
        Path dataset = repeatedUsers(dir, 30);
        Workload<shootout.workload.User, shootout.workload.FieldSink> w = Workload.USER;
        List<Registry.Format> formats =
                List.of(TestRegistry.testRow("fails-late", shootout.codec.Framing.U32LE, w, FailsLate::new));
        Path out = dir.resolve("streams");
        assertEquals(
                0,
                Interop.encode(
                        dataset,
                        w,
                        out,
                        "",
                        formats,
                        new java.io.PrintStream(java.io.OutputStream.nullOutputStream())));
        JsonNode m = JSON.readTree(out.resolve("java-fails-late.json").toFile());
        assertEquals(
                "record 5000: java.lang.IllegalStateException: the 5001st record",
                m.get("error").asText());
        assertEquals(5000, m.get("records").asLong());
        assertTrue(m.get("stream").isNull());
        assertTrue(!Files.exists(out.resolve("java-fails-late.bin"))
                && !Files.exists(out.resolve("java-fails-late.ends")));
    }

    /** json-jackson that refuses its 5001st record. */
    static final class FailsLate implements shootout.codec.Codec<shootout.workload.User, shootout.workload.FieldSink> {
        final shootout.codec.Codec<shootout.workload.User, shootout.workload.FieldSink> json =
                new shootout.formats.jackson.JacksonCodec<>(
                        shootout.formats.jackson.JacksonCodec.json(), Workload.USER);
        int encoded;

        @Override
        public void encode(shootout.codec.Stream out, shootout.workload.User r) throws Exception {
            if (encoded++ == 5000) {
                throw new IllegalStateException("the 5001st record");
            }
            json.encode(out, r);
        }

        @Override
        public int decode(byte[] buf, int off, int end, shootout.workload.FieldSink sink) throws Exception {
            return json.decode(buf, off, end, sink);
        }
    }

    @Test
    void usageAndInputErrors(@TempDir Path dir) throws Exception {
        String ds = Spec.fixture("user").toString();
        assertEquals(
                2,
                Ran.run("--dataset", ds, "--interop-encode", dir.toString(), "--formats", "nope")
                        .code());
        assertEquals(2, Ran.run("--interop-encode", dir.toString()).code());
        assertEquals(
                2,
                Ran.run("--dataset", ds, "--interop-encode", dir.toString(), "--interop-decode", "x")
                        .code());
        assertEquals(
                1,
                Ran.run(
                                "--dataset",
                                ds,
                                "--interop-decode",
                                dir.resolve("missing.tsv").toString())
                        .code());
        assertEquals(
                1,
                Ran.run("--dataset", dir.resolve("missing.jsonl").toString(), "--interop-encode", dir.toString())
                        .code());
        assertNull(
                Registry.FORMATS.stream()
                        .filter(f -> f.info().framing() == null)
                        .findFirst()
                        .orElse(null),
                "every format states its framing");
    }
}
