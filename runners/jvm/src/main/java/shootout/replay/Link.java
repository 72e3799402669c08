package shootout.replay;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * A transport between the producer and the consumer (docs/replay.md,
 * "Transports"). Every message is the same on both: a 12-byte header (the
 * record's index, u32 little-endian, and its release time as ns since the
 * run's start, u64 little-endian), then the payload, the record exactly as the
 * format's codec encodes it in `run` (its framing included). The producer's
 * end ({@link Tx}) and the consumer's ({@link Rx}) are separate objects, so
 * what one thread writes per record never shares an object with what the other
 * reads.
 */
abstract class Link implements AutoCloseable {
    static final int HEADER = 12;
    private static final VarHandle U32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle U64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static void putHeader(byte[] b, int index, long releaseSinceStart) {
        U32.set(b, 0, index);
        U64.set(b, 4, releaseSinceStart);
    }

    static long index(byte[] b) {
        return (int) U32.get(b, 0) & 0xffffffffL;
    }

    static long releaseSinceStart(byte[] b) {
        return (long) U64.get(b, 4);
    }

    /** The producer's end. */
    interface Tx {
        /** Why a record of this many payload bytes cannot be sent as one message, or null when it can. */
        String tooLarge(int payload);

        /** Hands buf[0, len) over; false when there is no room now (the producer spins and tries again). */
        boolean send(byte[] buf, int len) throws IOException;
    }

    /** The consumer's end. */
    interface Rx {
        /** The next message's length, copied into {@link #bytes()}; -1 when none has come (never blocks). */
        int receive() throws IOException;

        byte[] bytes();
    }

    abstract Tx tx();

    abstract Rx rx();

    /** Whether messages may be lost (UDP): the consumer then also stops on silence and validates what it got. */
    abstract boolean lossy();

    @Override
    public void close() throws IOException {}

    /** A consumer's copy of the messages, grown (only) for a larger one: the codecs decode from a byte[]. */
    static final class Inbox {
        byte[] bytes = new byte[1 << 16];

        byte[] room(int n) {
            if (bytes.length < n) {
                bytes = new byte[Math.max(n, bytes.length * 2)];
            }
            return bytes;
        }
    }

    /**
     * Agrona's OneToOneRingBuffer over 4 MiB of direct memory, one per replay
     * (drained before each run). msgTypeId is always 1 and means nothing: the
     * header is in the message. The producer encodes into its own byte[]
     * (the codec API appends to a growable byte[] Stream, so tryClaim/commit
     * cannot encode in place) and write() copies it into the ring. The consumer
     * polls read() for one message at a time and copies it out of the ring into
     * a byte[] (the codec API decodes from a byte[], not an Agrona buffer), so
     * its slot is freed before the decode. A full ring makes the producer spin.
     */
    static final class Ring extends Link {
        static final int DATA_BYTES = 4 << 20;
        static final int MSG_TYPE = 1;
        final OneToOneRingBuffer ring = new OneToOneRingBuffer(
                new UnsafeBuffer(ByteBuffer.allocateDirect(DATA_BYTES + RingBufferDescriptor.TRAILER_LENGTH)));

        static String describe() {
            return "Agrona OneToOneRingBuffer over " + DATA_BYTES
                    + " bytes of direct memory (an UnsafeBuffer), one message per record "
                    + "(the 12-byte header, then the payload), at most " + OneRun.IN_FLIGHT
                    + " records in flight; the producer encodes "
                    + "into its own byte[] and write() copies it in, spinning while the ring is full; the consumer busy-polls read() one message at a time and copies the message "
                    + "out into a byte[] for the codec (the JVM codecs decode from a byte[])";
        }

        /** Drops whatever a failed run left, before the next run. */
        void drain() {
            while (ring.read((type, buffer, index, length) -> {}, Integer.MAX_VALUE) > 0) {
                // Dropped.
            }
        }

        @Override
        Tx tx() {
            UnsafeBuffer src = new UnsafeBuffer(new byte[1]);
            return new Tx() {
                @Override
                public String tooLarge(int payload) {
                    return payload > ring.maxMsgLength() - HEADER
                            ? payload + " payload bytes, more than the ring's largest message ("
                                    + (ring.maxMsgLength() - HEADER) + " after the 12-byte header)"
                            : null;
                }

                @Override
                public boolean send(byte[] buf, int len) {
                    if (src.byteArray() != buf) {
                        src.wrap(buf);
                    }
                    return ring.write(MSG_TYPE, src, 0, len);
                }
            };
        }

        @Override
        Rx rx() {
            final class Reader implements Rx, MessageHandler {
                final Inbox in = new Inbox();
                int got;

                @Override
                public void onMessage(int type, org.agrona.MutableDirectBuffer buffer, int index, int length) {
                    buffer.getBytes(index, in.room(length), 0, length);
                    got = length;
                }

                @Override
                public int receive() {
                    got = -1;
                    ring.read(this, 1);
                    return got;
                }

                @Override
                public byte[] bytes() {
                    return in.bytes;
                }
            }
            return new Reader();
        }

        @Override
        boolean lossy() {
            return false;
        }
    }

    /**
     * Loopback UDP, a fresh pair of channels per run: the receiver bound to
     * 127.0.0.1:0, non-blocking, SO_RCVBUF asked 4 MiB (what the OS granted is
     * read back), connected to the sender so nothing else reaches it; the
     * sender bound to 127.0.0.1:0 and connected to the receiver, non-blocking
     * (a write that finds no room returns 0 and the producer spins). One
     * datagram per record. The consumer busy-polls receive() into a direct
     * ByteBuffer and copies the datagram into a byte[] for the codec.
     */
    static final class Udp extends Link {
        static final int ASKED_RCVBUF = 4 << 20;
        /** An IPv4 UDP datagram's largest payload (65,535 − 20 − 8), and a record's after the header: 65,495. */
        static final int DATAGRAM = 65_507, MAX_PAYLOAD = DATAGRAM - HEADER;

        final DatagramChannel receiver, sender;
        final int grantedRcvbuf;

        Udp() throws IOException {
            InetAddress loopback = InetAddress.getByName("127.0.0.1");
            receiver = DatagramChannel.open(StandardProtocolFamily.INET);
            try {
                receiver.setOption(StandardSocketOptions.SO_RCVBUF, ASKED_RCVBUF);
                receiver.bind(new InetSocketAddress(loopback, 0));
                grantedRcvbuf = receiver.getOption(StandardSocketOptions.SO_RCVBUF);
                sender = DatagramChannel.open(StandardProtocolFamily.INET);
            } catch (IOException | RuntimeException e) {
                receiver.close();
                throw e;
            }
            try {
                sender.bind(new InetSocketAddress(loopback, 0));
                sender.connect(receiver.getLocalAddress());
                receiver.connect(sender.getLocalAddress());
                sender.configureBlocking(false);
                receiver.configureBlocking(false);
            } catch (IOException | RuntimeException e) {
                close();
                throw e;
            }
        }

        static String describe(java.util.SortedSet<Integer> granted) {
            String g = granted.isEmpty()
                    ? "none opened"
                    : granted.size() == 1
                            ? granted.first() + " bytes"
                            : "from " + granted.first() + " to " + granted.last() + " bytes (runs differ)";
            return "loopback UDP (127.0.0.1), a DatagramChannel pair per run, one datagram per record (the 12-byte header, then the "
                    + "payload, at most " + MAX_PAYLOAD
                    + " bytes); non-blocking, the consumer busy-polls receive() into a direct "
                    + "ByteBuffer and copies the datagram into a byte[] for the codec; receive buffer (SO_RCVBUF) asked "
                    + ASKED_RCVBUF
                    + " bytes, granted " + g
                    + " as the JDK reads SO_RCVBUF back (on Linux the ask capped by net.core.rmem_max: "
                    + "the JDK halves the kernel's figure, which doubles it for bookkeeping)";
        }

        @Override
        Tx tx() {
            return new Tx() {
                ByteBuffer out = ByteBuffer.wrap(new byte[1]);

                @Override
                public String tooLarge(int payload) {
                    return payload > MAX_PAYLOAD
                            ? payload + " payload bytes, more than one datagram holds (" + MAX_PAYLOAD
                                    + " after the 12-byte header)"
                            : null;
                }

                @Override
                public boolean send(byte[] buf, int len) throws IOException {
                    if (out.array() != buf) {
                        out = ByteBuffer.wrap(buf);
                    }
                    out.limit(len).position(0);
                    return sender.write(out) > 0;
                }
            };
        }

        @Override
        Rx rx() {
            return new Rx() {
                final ByteBuffer datagram = ByteBuffer.allocateDirect(1 << 16);
                final Inbox in = new Inbox();

                @Override
                public int receive() throws IOException {
                    datagram.clear();
                    if (receiver.receive(datagram) == null) {
                        return -1;
                    }
                    datagram.flip();
                    int n = datagram.remaining();
                    datagram.get(in.room(n), 0, n);
                    return n;
                }

                @Override
                public byte[] bytes() {
                    return in.bytes;
                }
            };
        }

        @Override
        boolean lossy() {
            return true;
        }

        @Override
        public void close() throws IOException {
            // Both closed, the sender even when closing the receiver throws.
            try (sender) {
                receiver.close();
            }
        }
    }
}
