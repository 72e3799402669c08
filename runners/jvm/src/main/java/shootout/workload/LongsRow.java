package shootout.workload;

import java.io.Serializable;

/**
 * A row of the longs tabular workload (crates/shootout/src/workload/tabular/mod.rs):
 * 20 optional cells f1..f20, null = absent; a present cell is one value of its field.
 */
public final class LongsRow implements Serializable {
    private static final long serialVersionUID = 1L;

    public Long f1;
    public Long f2;
    public Long f3;
    public Long f4;
    public Long f5;
    public Long f6;
    public Long f7;
    public Long f8;
    public Long f9;
    public Long f10;
    public Long f11;
    public Long f12;
    public Long f13;
    public Long f14;
    public Long f15;
    public Long f16;
    public Long f17;
    public Long f18;
    public Long f19;
    public Long f20;

    public void visit(FieldSink s) {
        s.record();
        s.i(0, f1);
        s.i(1, f2);
        s.i(2, f3);
        s.i(3, f4);
        s.i(4, f5);
        s.i(5, f6);
        s.i(6, f7);
        s.i(7, f8);
        s.i(8, f9);
        s.i(9, f10);
        s.i(10, f11);
        s.i(11, f12);
        s.i(12, f13);
        s.i(13, f14);
        s.i(14, f15);
        s.i(15, f16);
        s.i(16, f17);
        s.i(17, f18);
        s.i(18, f19);
        s.i(19, f20);
    }
}
