package shootout.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class FieldSinkTest {
    @Test
    void theAsciiTheUtf8AndTheByteBufferPathsAgree() {
        FieldSink a = new FieldSink(1), b = new FieldSink(1), c = new FieldSink(1);
        for (String s : List.of("", "a", "1234567", "12345678", "123456789", "héllo wörld", "The quick brown fox", "日本語テキスト")) {
            a.text(0, s);
            byte[] u = s.getBytes(StandardCharsets.UTF_8);
            byte[] padded = new byte[u.length + 6];
            System.arraycopy(u, 0, padded, 3, u.length);
            b.utf8(0, padded, 3, u.length);
            c.utf8(0, ByteBuffer.wrap(padded, 3, u.length));
        }
        assertArrayEquals(a.textHash, b.textHash);
        assertArrayEquals(a.textHash, c.textHash);
        assertArrayEquals(a.textBytes, b.textBytes);
        assertEquals(Long.toUnsignedString(0x2f1117863ae73cabL),
                Long.toUnsignedString(TextHash.ofAscii("The quick brown fox")));
    }

    @Test
    void sumsWrapAndFloatsAddTheirBitPatterns() {
        FieldSink s = new FieldSink(2);
        s.i(0, Long.MAX_VALUE);
        s.i(0, 1);
        assertEquals(Long.MIN_VALUE, s.intSum[0]);
        s.f(1, -0.0);
        s.f(1, Float.MAX_VALUE);
        assertEquals(Double.doubleToRawLongBits(-0.0) + Double.doubleToRawLongBits((double) Float.MAX_VALUE), s.floatBits[1]);
    }
}
