package shootout.workload;

import java.io.Serializable;

/** `select * from cars where year > ? and seats = ?` with its arguments (workload/sql.rs). */
public final class SqlRequest implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final java.util.List<String> FIELDS = java.util.List.of("query", "args");

    public String query;
    public long[] args;

    public void visit(FieldSink s) {
        s.record();
        s.text(0, query);
        for (long a : args) {
            s.i(1, a);
        }
    }
}
