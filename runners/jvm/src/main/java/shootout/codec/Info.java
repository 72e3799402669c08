package shootout.codec;

/**
 * One registry line's metadata: library is the Maven artifact
 * (group:artifact) whose version the runner reports; framing is how the codec
 * delimits a record in its stream; wire names the bytes it writes, shared with
 * the formats of other languages that read and write the same
 * (spec/formats.json, docs/interop.md), null for a row that is not a format.
 */
public record Info(
        String name, String family, String library, Labels labels, Framing framing, String wire, String notes) {}
