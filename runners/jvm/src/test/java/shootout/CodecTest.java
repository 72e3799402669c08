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
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import shootout.codec.Codec;
import shootout.harness.Entry;
import shootout.registry.Registry;
import shootout.workload.Workload;

/**
 * Every registered codec on every workload it runs: the sample dataset's
 * records round-trip through one stream and add up to the header's reference
 * (or, for a known loss, differ exactly as recorded); truncated and garbage
 * streams give an exception, never an Error or a byte count outside the stream.
 */
class CodecTest {
    /**
     * Known library losses, as the Go runner's README lists its own: format ->
     * workload -> a part of the first difference the harness must report.
     */
    static final Map<String, Map<String, String>> KNOWN_LOSSES = Map.of();

    static String knownLoss(String format, String workload) {
        return KNOWN_LOSSES.getOrDefault(format, Map.of()).get(workload);
    }

    @TestFactory
    Stream<DynamicTest> everyCodecRoundTripsEverySample() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Workload<?, ?> w : Workload.ALL) {
            for (Entry<?, ?> e : Registry.entries(w)) {
                tests.add(DynamicTest.dynamicTest(e.info().name() + " on " + w.name, () -> roundTrip(w, e)));
            }
        }
        return tests.stream();
    }

    @SuppressWarnings("unchecked")
    private static <R, S> void roundTrip(Workload<R, S> w, Entry<?, ?> raw) throws Exception {
        Entry<R, S> e = (Entry<R, S>) raw;
        Samples.Sample<R, S> s = Samples.read(w);
        Codec<R, S> c = e.factory().get();
        shootout.codec.Stream out = new shootout.codec.Stream(64);
        S sink = w.newSink.get();
        // Twice through the same codec and stream: reuse must not leak one pass into the next.
        for (int pass = 0; pass < 2; pass++) {
            out.reset();
            sink = w.newSink.get();
            for (R r : s.records()) {
                c.encode(out, r);
            }
            int off = 0, n = 0;
            while (off < out.len) {
                int used = c.decode(out.buf, off, out.len, sink);
                assertTrue(used > 0 && used <= out.len - off, "bytes used " + used);
                off += used;
                n++;
            }
            assertEquals(s.records().size(), n, "records decoded");
        }
        String diff = s.check().apply(sink), loss = knownLoss(e.info().name(), w.name);
        if (loss == null) {
            assertNull(diff, e.info().name() + " on " + w.name);
        } else {
            assertNotNull(diff, e.info().name() + " on " + w.name + " no longer loses " + loss + ": update KNOWN_LOSSES and the README");
            assertTrue(diff.contains(loss), diff);
        }
    }

    @TestFactory
    Stream<DynamicTest> truncatedAndGarbageBytesGiveAnException() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Workload<?, ?> w : List.of(Workload.USER, Workload.IEX, Workload.MIXED, Workload.PRIMITIVES)) {
            for (Entry<?, ?> e : Registry.entries(w)) {
                tests.add(DynamicTest.dynamicTest(e.info().name() + " on " + w.name, () -> garbage(w, e)));
            }
        }
        return tests.stream();
    }

    @SuppressWarnings("unchecked")
    private static <R, S> void garbage(Workload<R, S> w, Entry<?, ?> raw) throws Exception {
        Entry<R, S> e = (Entry<R, S>) raw;
        Samples.Sample<R, S> s = Samples.read(w);
        Codec<R, S> c = e.factory().get();
        shootout.codec.Stream out = new shootout.codec.Stream(64);
        R longest = s.records().get(0);
        int most = 0;
        for (R r : s.records()) {
            out.reset();
            c.encode(out, r);
            if (out.len > most) {
                most = out.len;
                longest = r;
            }
        }
        out.reset();
        c.encode(out, longest);
        byte[] good = Arrays.copyOf(out.buf, out.len);
        // Truncated: every proper prefix of a record (the empty one included) is an error.
        for (int cut = 0; cut < good.length; cut = cut < 8 ? cut + 1 : cut + Math.max(1, good.length / 16)) {
            int end = cut;
            assertThrows(Exception.class, () -> c.decode(good, 0, end, w.newSink.get()), "decoding " + end + " of " + good.length + " bytes");
        }
        // Garbage: random bytes, the first four a length prefix that fits, must never escape as an Error or a bad count.
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
                assertTrue(used > 0 && used <= junk.length, "garbage decoded with " + used + " bytes used of " + junk.length);
            } catch (Exception x) {
                threw++;
            } catch (Error x) {
                fail("garbage made " + e.info().name() + " throw an Error rather than an Exception: " + x);
            }
        }
        if (!e.info().name().equals("baseline")) {
            assertTrue(threw > tries / 2, e.info().name() + " accepted " + (tries - threw) + " of " + tries + " garbage records");
        }
    }

    @Test
    void everyFormatIsRegisteredOnceAndRunsSomewhereOrSaysWhy() {
        List<String> names = new ArrayList<>();
        for (Registry.Format f : Registry.FORMATS) {
            assertTrue(!names.contains(f.info().name()), "duplicate " + f.info().name());
            names.add(f.info().name());
            for (Workload<?, ?> w : Workload.ALL) {
                if (!f.runs(w.name)) {
                    assertNotNull(f.notRun().get(w.name), f.info().name() + " on " + w.name + " has no reason");
                }
            }
            assertTrue(!Registry.version(f.info().library()).equals("unknown"), f.info().library() + " has no version");
        }
    }
}
