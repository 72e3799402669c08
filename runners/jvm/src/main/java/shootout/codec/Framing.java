package shootout.codec;

/**
 * How a codec delimits one record inside its stream (the interop manifest's
 * "framing", docs/interop.md), so another language's stream of the same wire
 * format can be cut into bodies and re-framed for this codec.
 */
public enum Framing {
    /** A 4-byte little-endian length, then the body ({@link Stream#reserve}/{@link Stream#seal}). */
    U32LE("u32le"),
    /** A protobuf base-128 varint length, then the body (writeDelimitedTo's framing). */
    VARINT("varint"),
    /** No prefix: the body is the format's self-delimiting message as is. */
    NONE("none");

    /** As the interop manifest and spec/formats.json spell it. */
    public final String spelling;

    Framing(String spelling) {
        this.spelling = spelling;
    }
}
