package shootout.workload;

import java.io.Serializable;

/**
 * A small object of ten mixed fields (workload/object.rs); level is a u8
 * (0..255) held in an int, annotated so for Fory's xlang mode.
 */
public final class SmallObject implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final java.util.List<String> FIELDS =
            java.util.List.of("id", "name", "email", "age", "score", "ratio", "active", "level", "created_at", "tags");

    public long id;
    public String name;
    public String email;
    public int age;
    public double score;
    public float ratio;
    public boolean active;

    @org.apache.fory.annotation.UInt8Type
    public int level;

    public long created_at;
    public String[] tags;

    public void visit(FieldSink s) {
        s.record();
        s.i(0, id);
        s.text(1, name);
        s.text(2, email);
        s.i(3, age);
        s.f(4, score);
        s.f(5, (double) ratio);
        s.bool(6, active);
        s.i(7, level);
        s.i(8, created_at);
        for (String t : tags) {
            s.text(9, t);
        }
    }
}
