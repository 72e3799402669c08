package shootout.interop;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A stream read a window of records at a time, cut by the record ends beside
 * it (the stream's path with the extension .ends: one u64 LE end offset per
 * record), so a decode holds one window whatever the stream's size (the Go
 * runner's records). The current record is buf[start, end).
 */
final class Records implements Closeable {
    /** What a window may hold before it reaches Interop.WINDOW records; only a single larger record grows it. */
    static final int WINDOW_BYTES = 1 << 20;

    private final InputStream stream;
    private final FileChannel ends;
    private final ByteBuffer endsIn =
            ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN).flip();
    private final Path path, endsPath;
    /** The stream's bytes. */
    final long size;
    /** The record ends the file holds, and those read into windows. */
    private final long count;

    private long read;
    /** The stream offset of buf[0]. */
    private long at;
    /** The window's record ends, relative to buf; how many, and the next to hand out. */
    private final int[] win = new int[Interop.WINDOW];

    private int n, next;
    private int length;
    /** The window: whole records, reused. */
    byte[] buf = new byte[WINDOW_BYTES];

    int start, end;

    /** Where the record ends of the stream at path are. */
    static Path endsPath(Path path) {
        String name = path.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return path.resolveSibling((dot < 0 ? name : name.substring(0, dot)) + ".ends");
    }

    /**
     * Opens a stream and its record ends, checking that the ends file is whole
     * u64s and that its last end is the stream's length. The message of what it
     * throws is the request's answer.
     */
    static Records open(Path path) throws IOException {
        InputStream stream;
        long size;
        try {
            stream = Files.newInputStream(path);
            size = Files.size(path);
        } catch (IOException e) {
            throw new IOException("cannot read the stream: " + e, e);
        }
        Path endsPath = endsPath(path);
        FileChannel ends = null;
        try {
            try {
                ends = FileChannel.open(endsPath, StandardOpenOption.READ);
            } catch (IOException e) {
                throw new IOException("cannot read the stream's record ends: " + e, e);
            }
            long bytes = ends.size();
            if (bytes % 8 != 0) {
                throw new IOException(endsPath + ": " + bytes + " bytes, not a whole number of u64 record ends");
            }
            long last = 0;
            if (bytes > 0) {
                ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
                while (b.hasRemaining()) {
                    if (ends.read(b, bytes - 8 + b.position()) < 0) {
                        throw new EOFException(endsPath + ": shorter than its size");
                    }
                }
                last = b.getLong(0);
            }
            if (last < 0 || last > size) {
                throw new IOException(endsPath + ": the last record ends at byte " + Long.toUnsignedString(last)
                        + ", beyond the stream's " + size + " bytes");
            }
            if (last < size) {
                throw new IOException(endsPath + ": the stream has " + (size - last)
                        + " bytes after its last record's end (byte offset " + last + ")");
            }
            return new Records(path, stream, size, endsPath, ends, bytes / 8);
        } catch (IOException e) {
            stream.close();
            if (ends != null) {
                ends.close();
            }
            throw e;
        }
    }

    private Records(Path path, InputStream stream, long size, Path endsPath, FileChannel ends, long count) {
        this.path = path;
        this.stream = stream;
        this.size = size;
        this.endsPath = endsPath;
        this.ends = ends;
        this.count = count;
    }

    /** Moves to the next record; false after the last. */
    boolean next() throws IOException {
        if (next == n) {
            if (read == count) {
                return false;
            }
            fill();
        }
        start = next == 0 ? 0 : win[next - 1];
        end = win[next++];
        return true;
    }

    /** The current record's stream offset. */
    long offset() {
        return at + start;
    }

    /** The stream offset after the current record. */
    long endOffset() {
        return at + end;
    }

    /** Reads the next window: up to Interop.WINDOW records, as many as fit in buf, but at least one, buf grown for it if need be. */
    private void fill() throws IOException {
        at += length;
        n = 0;
        next = 0;
        long from = at;
        while (n < Interop.WINDOW && read < count) {
            if (endsIn.remaining() < 8) {
                endsIn.compact();
                while (endsIn.position() < 8) {
                    if (ends.read(endsIn) < 0) {
                        throw new EOFException(endsPath + ": shorter than its size");
                    }
                }
                endsIn.flip();
            }
            long e = endsIn.getLong(endsIn.position());
            if (e < 0 || e > size) {
                throw new IOException(endsPath + ": record " + read + " ends at byte " + Long.toUnsignedString(e)
                        + ", beyond the stream's " + size + " bytes");
            }
            if (e <= from) {
                throw new IOException(
                        endsPath + ": record " + read + " ends at byte " + e + ", not after its start at " + from);
            }
            if (n > 0 && e - at > buf.length) {
                break;
            }
            if (e - at > Integer.MAX_VALUE - 8) {
                throw new IOException(
                        endsPath + ": record " + read + " is " + (e - from) + " bytes, more than a JVM array holds");
            }
            endsIn.position(endsIn.position() + 8);
            win[n++] = (int) (e - at);
            read++;
            from = e;
        }
        length = win[n - 1];
        if (length > buf.length) {
            buf = new byte[length];
        }
        if (stream.readNBytes(buf, 0, length) != length) {
            throw new EOFException(path + ": shorter than its size");
        }
    }

    @Override
    public void close() throws IOException {
        try (stream;
                ends) {
            // Both closed, the second even when the first throws.
        }
    }
}
