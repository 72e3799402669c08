package shootout.replay;

import java.util.BitSet;
import net.openhft.affinity.Affinity;

/**
 * Where the replay's two threads run: the producer on the first CPU the
 * process may use and the consumer on the second, as Rust and Go pin theirs,
 * through OpenHFT's Java-Thread-Affinity (sched_setaffinity through JNA).
 * Unpinned, the two busy threads can land on one CPU and take turns in
 * scheduler slices of milliseconds, which the latencies would show.
 */
final class Pinning {
    private Pinning() {}

    /** The CPUs the process may use, as the main thread's affinity says before any pinning. */
    private static final BitSet ALLOWED = allowed();

    static final int PRODUCER = ALLOWED.nextSetBit(0);
    static final int CONSUMER = PRODUCER < 0 ? -1 : ALLOWED.nextSetBit(PRODUCER + 1);
    /** Why a thread could not be pinned, the first time one could not; null while every pin held. */
    private static volatile String failed;

    private static BitSet allowed() {
        try {
            return Affinity.isJNAAvailable() ? Affinity.getAffinity() : new BitSet();
        } catch (RuntimeException | LinkageError e) {
            return new BitSet();
        }
    }

    static boolean possible() {
        return CONSUMER >= 0;
    }

    /** Pins the calling thread to `cpu`, and checks that it holds. */
    static void pin(int cpu) {
        if (!possible()) {
            return;
        }
        try {
            Affinity.setAffinity(cpu);
            BitSet now = Affinity.getAffinity();
            if (now.cardinality() != 1 || !now.get(cpu)) {
                failed = "asked for CPU " + cpu + ", the thread's affinity is " + now;
            }
        } catch (RuntimeException | LinkageError e) {
            failed = "pinning to CPU " + cpu + " failed: " + e;
        }
    }

    static String describe() {
        if (!possible()) {
            return "threads not pinned: "
                    + (Affinity.isJNAAvailable()
                            ? "the process may use one CPU (" + ALLOWED + ")"
                            : "JNA, which Java-Thread-Affinity sets affinity through, is not available");
        }
        String pinned = "producer pinned to CPU " + PRODUCER + ", consumer to CPU " + CONSUMER
                + " (OpenHFT Java-Thread-Affinity, sched_setaffinity through JNA)";
        String why = failed;
        return why == null ? pinned : pinned + ", but not every pin held: " + why;
    }
}
