package shootout;

import java.util.Map;

/**
 * Known library losses on the fixtures, as the Go runner's README lists its
 * own: format -> workload -> a part of the first difference (or of the error)
 * that the harness must report. CodecTest holds every codec's round trip of
 * every fixture to it, InteropTest every stream.
 */
public final class KnownLosses {
    private KnownLosses() {}

    /**
     * None: every codec carries every fixture (jsonl's: 300 API events).
     * The losses at the edges are
     * JsonlEdgeCaseTest's and CodecTest.KNOWN_EDGE_CASE_LOSSES'.
     */
    public static final Map<String, Map<String, String>> FIXTURES = Map.of();

    /** The known loss of format on workload's fixture, or null. */
    public static String of(String format, String workload) {
        return FIXTURES.getOrDefault(format, Map.of()).get(workload);
    }
}
