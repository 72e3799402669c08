package shootout.codec;

/**
 * One registry line's metadata: library is the Maven artifact
 * (group:artifact) whose version the runner reports; framing is how the codec
 * delimits a record in its stream.
 */
public record Info(String name, String family, String library, Labels labels, Framing framing, String notes) {
}
