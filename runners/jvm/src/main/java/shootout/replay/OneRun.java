package shootout.replay;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import shootout.codec.Codec;
import shootout.codec.Stream;
import shootout.harness.Harness;
import shootout.harness.RunFigures;
import shootout.workload.IexSink;
import shootout.workload.MultiMessage;
import shootout.workload.Workload;

/**
 * One run of docs/replay.md's "Replaying one run": a producer thread releases
 * records [first, end) at their scheduled times and hands each one, encoded,
 * over the link; a consumer thread decodes each into the run's sink and times
 * it from its scheduled release to the end of its decode. Every figure is
 * kept by the thread that makes it, in its own locals, and read by the caller
 * after both threads have ended (Thread.join orders it).
 */
final class OneRun {
    /** 1 ns to 3,600 s, 3 significant figures (docs/replay.md, "Histograms"). */
    static final long HIGHEST_NS = 3_600_000_000_000L;
    /** The payload size classes' upper bounds; the last class, larger than 4,095 bytes, has none. */
    static final int[] SIZE_CLASSES = {63, 127, 255, 511, 1023, 2047, 4095};
    /** The producer's wait for the consumer, after reading start. */
    static final long LEAD_NS = 1_000_000L;
    /** UDP: the consumer stops this long after the producer has sent everything with nothing more arriving. */
    static final long QUIET_NS = 200_000_000L;

    /** The whole input of a run; speed 0 is "max". */
    record Input(
            List<MultiMessage> records, long[] sendTimeNs, Plan.Span span, double speed, Plan.Span busiestSecond) {}

    /** What a run gives back; error is null when the run was valid. */
    record Outcome(
            long sent,
            long received,
            long durationNs,
            long maxBacklog,
            Histogram latency,
            Histogram busiest,
            Histogram[] sizes,
            List<Allocation> allocations,
            GcWatch.Figures gc,
            String error) {}

    static Histogram histogram() {
        return new Histogram(1, HIGHEST_NS, 3);
    }

    static int sizeClass(int payload) {
        for (int c = 0; c < SIZE_CLASSES.length; c++) {
            if (payload <= SIZE_CLASSES[c]) {
                return c;
            }
        }
        return SIZE_CLASSES.length;
    }

    private final Input in;
    private final Codec<MultiMessage, IexSink> encoder, decoder;
    private final IexSink sink = new IexSink();
    private final Link link;

    // Shared by both threads.
    private final AtomicLong released = new AtomicLong();
    /** Records the consumer has decoded, so the ring holds at most {@link #IN_FLIGHT} (as Rust's and Go's rings do). */
    private final AtomicLong decodedShared = new AtomicLong();
    /** Records released and not yet decoded that a ring run allows, as docs/replay.md says for every language. */
    static final long IN_FLIGHT = 1024;

    private final AtomicReference<String> failure = new AtomicReference<>();
    private volatile boolean consumerReady, producerDone;
    private volatile long start = Long.MIN_VALUE, producerDoneAt;

    // The producer's figures, kept in its locals while it runs (no field the consumer's thread touches shares their
    // cache line).
    private long sent, firstRelease, producerAllocBytes, producerAllocRecords;

    // The consumer's figures, kept in its locals while it runs.
    private long received, decoded, lastDone, maxBacklog, consumerAllocBytes, consumerAllocRecords;
    private final boolean[] got;
    private final Histogram latency = histogram(), busiest = histogram();
    private final Histogram[] sizes = new Histogram[SIZE_CLASSES.length + 1];

    private OneRun(Input in, Codec<MultiMessage, IexSink> encoder, Codec<MultiMessage, IexSink> decoder, Link link) {
        this.in = in;
        this.encoder = encoder;
        this.decoder = decoder;
        this.link = link;
        this.got = new boolean[in.span().records()];
        for (int c = 0; c < sizes.length; c++) {
            sizes[c] = histogram();
        }
    }

    /** Makes the run: both threads started, both joined, then the validation. The caller drains or opens the link beforehand. */
    static Outcome run(
            Input in, Codec<MultiMessage, IexSink> encoder, Codec<MultiMessage, IexSink> decoder, Link link, GcWatch gc)
            throws InterruptedException {
        OneRun r = new OneRun(in, encoder, decoder, link);
        Thread consumer = new Thread(r::consume, "replay-consumer"),
                producer = new Thread(r::produce, "replay-producer");
        consumer.setDaemon(true);
        producer.setDaemon(true);
        long[] gc0 = gc.counts();
        consumer.start();
        producer.start();
        producer.join();
        consumer.join();
        long[] gc1 = gc.counts();
        return r.outcome(gc.between(gc0, gc1));
    }

    private void fail(String why) {
        failure.compareAndSet(null, why);
    }

    private void produce() {
        Pinning.pin(Pinning.PRODUCER);
        try {
            Stream s = new Stream(1 << 16);
            Link.Tx tx = link.tx();
            while (!consumerReady) {
                if (failure.get() != null) {
                    return;
                }
                Thread.onSpinWait();
            }
            int first = in.span().first(), end = in.span().end(), mid = first + (end - first) / 2;
            long[] t = in.sendTimeNs();
            double speed = in.speed();
            boolean max = speed == 0;
            long start = System.nanoTime();
            this.start = start;
            long base = start + LEAD_NS, count = 0, sent = 0, sentAtMid = 0, alloc0 = 0;
            boolean counting = false;
            while (System.nanoTime() < base) {
                Thread.onSpinWait();
            }
            records:
            for (int i = first; i < end; i++) {
                if (failure.get() != null) {
                    break;
                }
                if (i == mid) {
                    counting = true;
                    sentAtMid = sent;
                    alloc0 = Harness.THREADS.getCurrentThreadAllocatedBytes();
                }
                long release;
                if (max) {
                    release = System.nanoTime();
                } else {
                    release = base + (long) ((t[i] - t[first]) / speed);
                    while (System.nanoTime() < release) {
                        Thread.onSpinWait();
                    }
                }
                // One writer: an ordered store, no locked add.
                released.lazySet(++count);
                s.reset();
                s.ensure(Link.HEADER);
                s.len = Link.HEADER;
                try {
                    encoder.encode(s, in.records().get(i));
                } catch (Throwable e) {
                    fail("record " + i + ": encoding failed: " + e);
                    break;
                }
                String large = tx.tooLarge(s.len - Link.HEADER);
                if (large != null) {
                    fail("record " + i + ": " + large);
                    break;
                }
                Link.putHeader(s.buf, i, release - start);
                while (!link.lossy() && sent - decodedShared.get() >= IN_FLIGHT) {
                    if (failure.get() != null) {
                        break records;
                    }
                    Thread.onSpinWait();
                }
                while (!tx.send(s.buf, s.len)) {
                    if (failure.get() != null) {
                        break records;
                    }
                    Thread.onSpinWait();
                }
                if (i == first) {
                    firstRelease = release;
                }
                sent++;
            }
            if (counting) {
                producerAllocBytes = Harness.THREADS.getCurrentThreadAllocatedBytes() - alloc0;
                producerAllocRecords = sent - sentAtMid;
            }
            this.sent = sent;
        } catch (Throwable e) {
            fail("producer: " + e);
        } finally {
            producerDoneAt = System.nanoTime();
            producerDone = true;
        }
    }

    private void consume() {
        Pinning.pin(Pinning.CONSUMER);
        try {
            Link.Rx rx = link.rx();
            int first = in.span().first(), end = in.span().end(), mid = first + (end - first) / 2;
            long need = end - first;
            boolean lossy = link.lossy(), counting = false;
            Plan.Span busiestSecond = in.busiestSecond();
            long decoded = 0,
                    received = 0,
                    lastDone = 0,
                    maxBacklog = 0,
                    allocRecords = 0,
                    alloc0 = 0,
                    start = Long.MIN_VALUE;
            consumerReady = true;
            for (; ; ) {
                int n = rx.receive();
                if (n < 0) {
                    if (failure.get() != null) {
                        break;
                    }
                    if (lossy && producerDone && System.nanoTime() - Math.max(producerDoneAt, lastDone) >= QUIET_NS) {
                        break;
                    }
                    Thread.onSpinWait();
                    continue;
                }
                byte[] msg = rx.bytes();
                if (n < Link.HEADER) {
                    fail("a message of " + n + " bytes, shorter than the 12-byte header");
                    break;
                }
                long index = Link.index(msg);
                if (index < first || index >= end || got[(int) index - first]) {
                    fail("a message for record " + index + ", which is not a record of the run [" + first + ", " + end
                            + ") still to come");
                    break;
                }
                int i = (int) index;
                received++;
                got[i - first] = true;
                while (start == Long.MIN_VALUE) {
                    // Set before the producer's first message; UDP gives no happens-before, so wait for the write to
                    // show.
                    start = this.start;
                    Thread.onSpinWait();
                }
                if (!counting && i >= mid) {
                    counting = true;
                    alloc0 = Harness.THREADS.getCurrentThreadAllocatedBytes();
                }
                int used;
                try {
                    used = decoder.decode(msg, Link.HEADER, n, sink);
                } catch (Throwable e) {
                    fail("record " + i + ": decoding failed: " + e);
                    break;
                }
                long done = System.nanoTime();
                if (used != n - Link.HEADER) {
                    fail("record " + i + ": decode used " + used + " of the record's " + (n - Link.HEADER)
                            + " payload bytes");
                    break;
                }
                long ns = Math.min(Math.max(done - (start + Link.releaseSinceStart(msg)), 0), HIGHEST_NS);
                latency.recordValue(ns);
                if (busiestSecond.holds(i)) {
                    busiest.recordValue(ns);
                }
                sizes[sizeClass(n - Link.HEADER)].recordValue(ns);
                decoded++;
                decodedShared.lazySet(decoded);
                maxBacklog = Math.max(maxBacklog, released.get() - decoded);
                lastDone = done;
                if (counting) {
                    allocRecords++;
                }
                if (decoded == need || (lossy && i == end - 1)) {
                    break;
                }
            }
            if (counting) {
                consumerAllocBytes = Harness.THREADS.getCurrentThreadAllocatedBytes() - alloc0;
                consumerAllocRecords = allocRecords;
            }
            this.received = received;
            this.decoded = decoded;
            this.lastDone = lastDone;
            this.maxBacklog = maxBacklog;
        } catch (Throwable e) {
            fail("consumer: " + e);
        }
    }

    /** One entry of a run's allocations, as the results write it; count is null: the JVM counts a thread's bytes, not its objects. */
    record Allocation(String who, long records, Long count, long bytes) {
        Allocation(String who, long records, long bytes) {
            this(who, records, null, bytes);
        }
    }

    private Outcome outcome(GcWatch.Figures gc) {
        String error = failure.get();
        int first = in.span().first();
        if (error == null && !link.lossy() && received != got.length) {
            error = "the ring delivered " + received + " of the run's " + got.length + " records";
        }
        if (error == null) {
            // The reference of exactly the records received, fed from the dataset's records as the baseline feeds them.
            IexSink want = new IexSink();
            for (int k = 0; k < got.length; k++) {
                if (got[k]) {
                    in.records().get(first + k).feed(want);
                }
            }
            String diff = Workload.IEX.compare.apply(want, sink);
            if (diff != null) {
                error = "decoded data does not match the reference aggregate of the " + received + " records received: "
                        + diff;
            }
        }
        List<Allocation> allocations = List.of(
                new Allocation("producer", producerAllocRecords, producerAllocBytes),
                new Allocation("consumer", consumerAllocRecords, consumerAllocBytes));
        // From the first record's release to the last decoded record's done; nothing decoded, no duration.
        long duration = decoded == 0 || sent == 0 ? 0 : lastDone - firstRelease;
        return new Outcome(
                sent,
                received,
                duration,
                maxBacklog,
                latency,
                busiest.getTotalCount() == 0 ? null : busiest,
                sizes,
                allocations,
                gc,
                error);
    }

    /** The outcome's sizes as the results list them: non-empty classes only. */
    static List<Map<String, Object>> sizes(Histogram[] sizes) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (int c = 0; c < sizes.length; c++) {
            if (sizes[c].getTotalCount() > 0) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("max_bytes", c < SIZE_CLASSES.length ? SIZE_CLASSES[c] : null);
                m.put("histogram", RunFigures.base64(sizes[c]));
                out.add(m);
            }
        }
        return out;
    }
}
