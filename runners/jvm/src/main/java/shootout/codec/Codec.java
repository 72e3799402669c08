package shootout.codec;

/**
 * The one interface every format implements, per workload (the Go runner's
 * codec.Codec): encode appends one record to a stream, decode reads the record
 * at a stream position into the workload's sink and returns the bytes it used.
 * Garbage or truncated bytes must throw an {@link Exception}, never loop or
 * return a count outside the stream.
 *
 * @param <R> the workload's record type
 * @param <S> the workload's sink (aggregate)
 */
public interface Codec<R, S> {
    /**
     * Called with each window of records before any pass over it, untimed: a
     * codec that encodes a model of its library's own made from each record
     * (the jsonl codecs) makes it here, once per record. Most codecs encode
     * the record itself and have nothing to do.
     */
    default void prepare(java.util.List<R> window) throws Exception {}

    /** Appends r to out, framed by the format's own framing or a 4-byte little-endian length prefix. */
    void encode(Stream out, R r) throws Exception;

    /** Decodes the record starting at buf[off] (the stream ends at buf[end]) into sink; returns the bytes used. */
    int decode(byte[] buf, int off, int end, S sink) throws Exception;
}
