package shootout.workload;

import java.nio.ByteBuffer;

/**
 * docs/dataset-format.md's word-wise FNV-1a: h starts at 0xcbf29ce484222325;
 * each 8-byte little-endian chunk of the UTF-8 bytes (the last zero-padded)
 * is folded in as h = (h ^ chunk) * 0x100000001b3, then the byte length the
 * same way. Multiplication wraps as u64 multiplication does.
 */
public final class TextHash {
    static final long OFFSET = 0xcbf29ce484222325L;
    static final long PRIME = 0x100000001b3L;

    private TextHash() {}

    public static long of(byte[] v, int off, int len) {
        long h = OFFSET;
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            int p = off + i;
            long w = (v[p] & 0xffL)
                    | (v[p + 1] & 0xffL) << 8
                    | (v[p + 2] & 0xffL) << 16
                    | (v[p + 3] & 0xffL) << 24
                    | (v[p + 4] & 0xffL) << 32
                    | (v[p + 5] & 0xffL) << 40
                    | (v[p + 6] & 0xffL) << 48
                    | (v[p + 7] & 0xffL) << 56;
            h = (h ^ w) * PRIME;
        }
        if (i < len) {
            long w = 0;
            for (int j = len - 1; j >= i; j--) {
                w = w << 8 | (v[off + j] & 0xffL);
            }
            h = (h ^ w) * PRIME;
        }
        return (h ^ len) * PRIME;
    }

    /** The hash of a String whose chars are all below 0x80 (so chars are its UTF-8 bytes). */
    static long ofAscii(String v) {
        int len = v.length();
        long h = OFFSET;
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            long w = 0;
            for (int j = 7; j >= 0; j--) {
                w = w << 8 | v.charAt(i + j);
            }
            h = (h ^ w) * PRIME;
        }
        if (i < len) {
            long w = 0;
            for (int j = len - 1; j >= i; j--) {
                w = w << 8 | v.charAt(j);
            }
            h = (h ^ w) * PRIME;
        }
        return (h ^ len) * PRIME;
    }

    public static long of(ByteBuffer b) {
        int len = b.remaining(), off = b.position();
        long h = OFFSET;
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            long w = 0;
            for (int j = 7; j >= 0; j--) {
                w = w << 8 | (b.get(off + i + j) & 0xffL);
            }
            h = (h ^ w) * PRIME;
        }
        if (i < len) {
            long w = 0;
            for (int j = len - 1; j >= i; j--) {
                w = w << 8 | (b.get(off + j) & 0xffL);
            }
            h = (h ^ w) * PRIME;
        }
        return (h ^ len) * PRIME;
    }
}
