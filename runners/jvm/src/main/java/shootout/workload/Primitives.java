package shootout.workload;

import java.io.Serializable;

/** Runs of each primitive type (workload/primitives.rs). */
public final class Primitives implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final java.util.List<String> FIELDS =
            java.util.List.of("ints", "longs", "doubles", "booleans", "strings");

    public int[] ints;
    public long[] longs;
    public double[] doubles;
    public boolean[] booleans;
    public String[] strings;

    public void visit(FieldSink s) {
        s.record();
        for (int v : ints) {
            s.i(0, v);
        }
        for (long v : longs) {
            s.i(1, v);
        }
        for (double v : doubles) {
            s.f(2, v);
        }
        for (boolean v : booleans) {
            s.bool(3, v);
        }
        for (String v : strings) {
            s.text(4, v);
        }
    }
}
