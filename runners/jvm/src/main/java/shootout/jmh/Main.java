package shootout.jmh;

/**
 * benchmarks.jar's entry point: prints the encoded sizes of IgniteStudy's
 * operations (shootout's practice), then runs JMH with the given arguments.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        System.out.println(
                "# Encoded sizes (bytes) of IgniteStudy's operations (shootout's practice; StudyAsPublished is the study's)");
        System.out.print(Study.sizes());
        System.out.println("# The study (MessagePack 54 B, Ignite 71 B for the SQL request)");
        org.openjdk.jmh.Main.main(args);
    }
}
