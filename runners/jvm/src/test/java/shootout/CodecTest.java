package shootout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import shootout.codec.Codec;
import shootout.harness.Entry;
import shootout.registry.Registry;
import shootout.workload.Workload;

/**
 * Every registered codec on every fixture it runs (each workload's, and the
 * jsonl records projected by a schema, which the schema formats run with the
 * schema in their header): the fixture's records round-trip through one stream
 * and add up to the header's reference (or, for a known loss, differ exactly as
 * recorded), and so do the edge cases the fixtures lack; truncated and garbage
 * streams give an exception, never an Error or a byte count outside the stream.
 */
class CodecTest {
    /** Known library losses on the fixtures (KnownLosses, which InteropTest holds the streams to as well). */
    static final Map<String, Map<String, String>> KNOWN_LOSSES = KnownLosses.FIXTURES;

    /** Known library losses on the edge cases (each format's labels.lossy says which), as KNOWN_LOSSES lists the fixtures'. */
    static final Map<String, Map<String, String>> KNOWN_EDGE_CASE_LOSSES = Map.of(
            "json-dsljson", Map.of("primitives", "field doubles", "object", "field score", "mixed", "field f2"),
            "chronicle-wire", Map.of("primitives", "field doubles", "object", "field score", "mixed", "field f2"));

    /** The first difference of a round trip is null, or the known loss of that format and workload (which must still show). */
    static void assertKnown(Map<String, Map<String, String>> losses, String format, String workload, String diff) {
        String loss = losses.getOrDefault(format, Map.of()).get(workload);
        if (loss == null) {
            assertNull(diff, format + " on " + workload);
        } else {
            assertNotNull(
                    diff,
                    format + " on " + workload + " no longer loses " + loss
                            + ": update the known losses and the README");
            assertTrue(diff.contains(loss), diff);
        }
    }

    /**
     * Records at the edges the shared fixtures do not reach, as dataset lines:
     * empty texts and arrays, multi-byte UTF-8, a length past one byte, the
     * integer extremes, -0.0, the smallest and largest doubles, u8 255,
     * present zeros (which FlatBuffers drops unless defaults are forced) and
     * rows with every cell absent.
     */
    static final Map<Workload<?, ?>, List<String>> EDGE_CASES = Map.of(
            Workload.SQL,
                    List.of(
                            "{\"query\":\"\",\"args\":[]}",
                            "{\"query\":\"" + "select 'é' from t where a in (?)".repeat(20)
                                    + "\",\"args\":[-9223372036854775808,0,9223372036854775807,-1]}"),
            Workload.PRIMITIVES,
                    List.of(
                            "{\"ints\":[-2147483648,2147483647,0],\"longs\":[-9223372036854775808,9223372036854775807,0],"
                                    + "\"doubles\":[-0.0,4.9E-324,1.7976931348623157E308],\"booleans\":[true,false],\"strings\":[\"ünï\",\"\",\"日本語\"]}",
                            "{\"ints\":[],\"longs\":[],\"doubles\":[],\"booleans\":[],\"strings\":[]}"),
            Workload.OBJECT,
                    List.of(
                            "{\"id\":-9223372036854775808,\"name\":\"\",\"email\":\"ünï@example.com\",\"age\":0,\"score\":-0.0,"
                                    + "\"ratio\":-0.0,\"active\":false,\"level\":255,\"created_at\":0,\"tags\":[]}"),
            Workload.MIXED,
                    List.of(
                            "{\"f1\":\"\",\"f2\":-0.0,\"f3\":0,\"f4\":0,\"f5\":\"ünï\",\"f10\":-9223372036854775808,\"f11\":0.0,\"f16\":-2147483648}",
                            "{}"),
            Workload.STRINGS, List.of("{\"f1\":\"\",\"f2\":\"ünï\",\"f20\":\"日本語\"}", "{}"),
            Workload.LONGS, List.of("{\"f1\":0,\"f2\":-9223372036854775808,\"f20\":9223372036854775807}", "{}"));

    /** A check of one entry on one workload. */
    interface EntryCheck {
        void run(Workload<?, ?> w, Entry<?, ?> e) throws Exception;
    }

    /** One test per runnable entry (the baseline's too) of each workload, on a dataset without record schemas. */
    static Stream<DynamicTest> everyEntry(List<Workload<?, ?>> workloads, EntryCheck check) {
        List<DynamicTest> tests = new ArrayList<>();
        for (Workload<?, ?> w : workloads) {
            for (Entry<?, ?> e : Registry.entries(w)) {
                tests.add(DynamicTest.dynamicTest(e.info().name() + " on " + w.name, () -> check.run(w, e)));
            }
        }
        return tests.stream();
    }

    /** A check of one entry on one fixture of its workload. */
    interface FixtureCheck {
        void run(Spec.Fixture<?, ?> f, Entry<?, ?> e) throws Exception;
    }

    /** One test per entry (the baseline's too) that runs a fixture, for every fixture of each workload. */
    static Stream<DynamicTest> everyEntryOnEveryFixture(List<Workload<?, ?>> workloads, FixtureCheck check)
            throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Workload<?, ?> w : workloads) {
            for (java.nio.file.Path path : Spec.fixtures(w.name)) {
                Spec.Fixture<?, ?> f = Spec.read(path, w);
                for (Entry<?, ?> e : Registry.entries(w, f.schemas(), Registry.FORMATS)) {
                    tests.add(DynamicTest.dynamicTest(
                            e.info().name() + " on " + path.getFileName(), () -> check.run(f, e)));
                }
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> everyCodecRoundTripsEveryFixture() throws Exception {
        return everyEntryOnEveryFixture(Workload.ALL, CodecTest::roundTripFixture);
    }

    @TestFactory
    Stream<DynamicTest> everyCodecRoundTripsTheEdgeCases() {
        return everyEntry(List.copyOf(EDGE_CASES.keySet()), CodecTest::roundTripEdgeCases);
    }

    private static <R, S> void roundTripFixture(Spec.Fixture<R, S> f, Entry<?, ?> e) throws Exception {
        Workload<R, S> w = f.workload();
        assertKnown(KNOWN_LOSSES, e.info().name(), w.name, roundTrip(w, e, f.records(), f.check()));
    }

    private static <R, S> void roundTripEdgeCases(Workload<R, S> w, Entry<?, ?> e) throws Exception {
        List<R> records = new ArrayList<>();
        for (String line : EDGE_CASES.get(w)) {
            records.add(w.readLine.read(line));
        }
        S want = w.newSink.get();
        for (R r : records) {
            w.feed.accept(r, want);
        }
        assertKnown(
                KNOWN_EDGE_CASE_LOSSES,
                e.info().name(),
                w.name,
                roundTrip(w, e, records, got -> w.compare.apply(want, got)));
    }

    /**
     * Round-trips records twice through the same codec and stream (reuse must not leak one pass into the next); the
     * check's verdict on the last pass, or what failed (RoundTrip's words), which a known loss may name.
     */
    @SuppressWarnings("unchecked")
    private static <R, S> String roundTrip(
            Workload<R, S> w, Entry<?, ?> raw, List<R> records, Function<S, String> check) throws Exception {
        Codec<R, S> c = ((Entry<R, S>) raw).factory().make();
        shootout.codec.Stream out = new shootout.codec.Stream(64);
        c.prepare(records);
        S sink = null;
        for (int pass = 0; pass < 2; pass++) {
            sink = w.newSink.get();
            String failed = RoundTrip.pass(c, records, out, sink);
            if (failed != null) {
                return failed;
            }
        }
        return check.apply(sink);
    }

    @TestFactory
    Stream<DynamicTest> truncatedAndGarbageBytesGiveAnException() throws Exception {
        return everyEntryOnEveryFixture(
                List.of(Workload.USER, Workload.IEX, Workload.MIXED, Workload.PRIMITIVES, Workload.JSONL),
                CodecTest::garbage);
    }

    @SuppressWarnings("unchecked")
    private static <R, S> void garbage(Spec.Fixture<R, S> s, Entry<?, ?> raw) throws Exception {
        Entry<R, S> e = (Entry<R, S>) raw;
        Workload<R, S> w = s.workload();
        Codec<R, S> c = e.factory().make();
        shootout.codec.Stream out = new shootout.codec.Stream(64);
        R longest = null;
        int most = -1;
        c.prepare(s.records());
        for (R r : s.records()) {
            out.reset();
            try {
                c.encode(out, r);
            } catch (Exception x) {
                // A record the format has no form for (a known loss, as BSON's of a top-level array on jsonl): not this
                // test's.
                assertNotNull(
                        KnownLosses.of(e.info().name(), w.name), e.info().name() + " cannot encode " + r + ": " + x);
                continue;
            }
            if (out.len > most) {
                most = out.len;
                longest = r;
            }
        }
        assertNotNull(longest, e.info().name() + " encodes none of the fixture's records");
        out.reset();
        c.encode(out, longest);
        byte[] good = Arrays.copyOf(out.buf, out.len);
        // Truncated: every proper prefix of a record (the empty one included) is an error.
        for (int cut = 0; cut < good.length; cut = cut < 8 ? cut + 1 : cut + Math.max(1, good.length / 16)) {
            int end = cut;
            assertThrows(
                    Exception.class,
                    () -> c.decode(good, 0, end, w.newSink.get()),
                    "decoding " + end + " of " + good.length + " bytes");
        }
        // Garbage: random bytes, the first four a length prefix that fits, must never escape as an Error or a bad
        // count.
        SplittableRandom rng = new SplittableRandom(42);
        int threw = 0, tries = 200;
        for (int t = 0; t < tries; t++) {
            byte[] junk = new byte[good.length];
            for (int i = 0; i < junk.length; i++) {
                junk[i] = (byte) rng.nextInt(256);
            }
            if (t % 2 == 0) {
                shootout.codec.Stream.putIntLE(junk, 0, junk.length - 4);
            }
            try {
                int used = c.decode(junk, 0, junk.length, w.newSink.get());
                assertTrue(
                        used > 0 && used <= junk.length,
                        "garbage decoded with " + used + " bytes used of " + junk.length);
            } catch (Exception x) {
                threw++;
            } catch (Error x) {
                fail("garbage made " + e.info().name() + " throw an Error rather than an Exception: " + x);
            }
        }
        // On jsonl any value is a record, and a MessagePack value delimits itself: msgpack-raw reads most random bytes
        // as some
        // value (a fixint, a nil, ...) and rightly so; the checks above (no Error, no count outside the stream) still
        // hold.
        boolean anyBytesAreAValue = w == Workload.JSONL && e.info().name().equals("msgpack-raw");
        if (!e.info().name().equals("baseline") && !anyBytesAreAValue) {
            assertTrue(
                    threw > tries / 2,
                    e.info().name() + " accepted " + (tries - threw) + " of " + tries + " garbage records");
        }
    }

    @Test
    void everyFormatIsRegisteredOnceAndRunsSomewhere() {
        List<String> names = new ArrayList<>();
        for (Registry.Format f : Registry.FORMATS) {
            assertTrue(!names.contains(f.info().name()), "duplicate " + f.info().name());
            names.add(f.info().name());
            assertTrue(!f.workloads().isEmpty(), f.info().name() + " maps no workload");
            assertEquals(f.mappings().size(), f.workloads().size(), f.info().name() + " maps a workload twice");
            assertTrue(
                    !Registry.version(f.info().library()).equals("unknown"),
                    f.info().library() + " has no version");
        }
    }
}
