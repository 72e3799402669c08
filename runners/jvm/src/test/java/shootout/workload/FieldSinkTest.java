package shootout.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import shootout.Spec;

class FieldSinkTest {
    /** spec/vectors.json's text hashes, by each of the sink's three ways in: a Java String, UTF-8 bytes in an array, in a ByteBuffer. */
    @Test
    void everyWayInHashesTheSpecsTextVectors() throws Exception {
        JsonNode vectors = Spec.json("vectors.json").at("/text_hash/vectors");
        assertTrue(vectors.size() > 0, "spec/vectors.json has no text_hash vectors");
        for (JsonNode v : vectors) {
            String text = v.get("text").asText(), want = v.get("hash").asText();
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            assertEquals(v.get("utf8_bytes").asInt(), utf8.length, text);
            byte[] padded = new byte[utf8.length + 6];
            System.arraycopy(utf8, 0, padded, 3, utf8.length);
            FieldSink string = new FieldSink(1), array = new FieldSink(1), buffer = new FieldSink(1);
            string.text(0, text);
            array.utf8(0, padded, 3, utf8.length);
            buffer.utf8(0, ByteBuffer.wrap(padded, 3, utf8.length));
            for (FieldSink s : new FieldSink[] {string, array, buffer}) {
                assertEquals(want, Long.toUnsignedString(s.textHash[0]), text);
                assertEquals(utf8.length, s.textBytes[0], text);
            }
        }
    }

    @Test
    void sumsWrapAndFloatsAddTheirBitPatterns() {
        FieldSink s = new FieldSink(2);
        s.i(0, Long.MAX_VALUE);
        s.i(0, 1);
        assertEquals(Long.MIN_VALUE, s.intSum[0]);
        s.f(1, -0.0);
        s.f(1, Float.MAX_VALUE);
        assertEquals(
                Double.doubleToRawLongBits(-0.0) + Double.doubleToRawLongBits((double) Float.MAX_VALUE),
                s.floatBits[1]);
    }
}
