package shootout.codec;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A growable byte array that one window's encoded records are appended to and
 * that is reused window after window (the Go runner's []byte stream). It is
 * also an OutputStream, so streaming encoders write straight into it.
 */
public final class Stream extends OutputStream {
    public byte[] buf;
    public int len;

    public Stream(int capacity) {
        buf = new byte[Math.max(capacity, 64)];
    }

    public Stream() {
        this(1 << 16);
    }

    public void reset() {
        len = 0;
    }

    /** Makes room for n more bytes. */
    public void ensure(int n) {
        if (buf.length - len < n) {
            long want = Math.max((long) buf.length * 2, (long) len + n);
            if (want > Integer.MAX_VALUE - 8) {
                if ((long) len + n > Integer.MAX_VALUE - 8) {
                    throw new IllegalStateException("stream over 2 GiB");
                }
                want = Integer.MAX_VALUE - 8;
            }
            buf = java.util.Arrays.copyOf(buf, (int) want);
        }
    }

    @Override
    public void write(int b) {
        ensure(1);
        buf[len++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int n) {
        ensure(n);
        System.arraycopy(b, off, buf, len, n);
        len += n;
    }

    public void write(ByteBuffer b) {
        int n = b.remaining();
        ensure(n);
        b.get(buf, len, n);
        len += n;
    }

    /** Appends a placeholder 4-byte length prefix and returns its position, for {@link #seal}. */
    public int reserve() {
        ensure(4);
        int at = len;
        len += 4;
        return at;
    }

    /** Writes the length of the body written since {@link #reserve} returned at. */
    public void seal(int at) {
        putIntLE(buf, at, len - at - 4);
    }

    public void putIntLE(int v) {
        ensure(4);
        putIntLE(buf, len, v);
        len += 4;
    }

    public static void putIntLE(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
        b[at + 2] = (byte) (v >>> 16);
        b[at + 3] = (byte) (v >>> 24);
    }

    public static int getIntLE(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

    /**
     * The body length of the length-prefixed record at buf[off], checked
     * against the stream's end; the body starts at off + 4.
     */
    public static int frame(byte[] buf, int off, int end) throws java.io.IOException {
        if (end - off < 4) {
            throw new java.io.EOFException("truncated length prefix: " + (end - off) + " bytes left");
        }
        long n = getIntLE(buf, off) & 0xffffffffL;
        if (n > end - off - 4) {
            throw new java.io.EOFException("length prefix says " + n + " bytes, " + (end - off - 4) + " left");
        }
        return (int) n;
    }

    /** A little-endian ByteBuffer view of buf[off, off+n). */
    public static ByteBuffer view(byte[] buf, int off, int n) {
        return ByteBuffer.wrap(buf, off, n).slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * An OutputStream that forwards to whichever Stream it is pointed at: a
     * library writer made once (msgpack's packer, UBJSON's writer) keeps it
     * while the codec points it at each call's stream.
     */
    public static final class Holder extends OutputStream {
        public Stream stream;

        @Override
        public void write(int b) {
            stream.write(b);
        }

        @Override
        public void write(byte[] b, int off, int n) {
            stream.write(b, off, n);
        }
    }
}
