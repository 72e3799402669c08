package shootout.codec;

/**
 * One registry line's metadata: library is the Maven artifact
 * (group:artifact) whose version the runner reports.
 */
public record Info(String name, String family, String library, Labels labels, String notes) {
}
