package shootout.formats.fory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.fory.config.Config;
import org.junit.jupiter.api.Test;
import shootout.codec.Info;

/**
 * Each Fory row runs in the mode its notes name, set in the code rather than left to Fory's defaults (since 1.0 xlang and
 * compatible mode, which would change the bytes, the speed and the wire Rust's fory row reads).
 */
class ForyModeTest {
    /** The row's Fory is xlang or native as said, schema-consistent, without reference tracking; its notes open with mode. */
    private static void assertMode(Info row, boolean xlang, String mode) {
        Config c = ForyCodec.builder(xlang).build().getConfig();
        assertEquals(xlang, c.isXlang(), row.name());
        assertFalse(c.isCompatible(), row.name());
        assertFalse(c.trackingRef(), row.name());
        assertTrue(row.notes().startsWith(mode), row.notes());
    }

    @Test
    void eachRowIsInTheModeItsNotesName() {
        assertMode(ForyCodec.XLANG, true, ForyCodec.XLANG_MODE);
        assertMode(ForyCodec.JAVA, false, ForyCodec.JAVA_MODE);
        assertTrue(ForyJsonl.NOTES.contains("xlang Fory (schema-consistent"), ForyJsonl.NOTES);
    }
}
