package shootout.workload;

import java.io.Serializable;

/**
 * A row of the strings tabular workload (crates/shootout/src/workload/tabular/mod.rs):
 * 20 optional cells f1..f20, null = absent; a present cell is one value of its field.
 */
public final class StringsRow implements Serializable {
    private static final long serialVersionUID = 1L;

    public String f1;
    public String f2;
    public String f3;
    public String f4;
    public String f5;
    public String f6;
    public String f7;
    public String f8;
    public String f9;
    public String f10;
    public String f11;
    public String f12;
    public String f13;
    public String f14;
    public String f15;
    public String f16;
    public String f17;
    public String f18;
    public String f19;
    public String f20;

    public void visit(FieldSink s) {
        s.record();
        s.text(0, f1, true);
        s.text(1, f2, true);
        s.text(2, f3, true);
        s.text(3, f4, true);
        s.text(4, f5, true);
        s.text(5, f6, true);
        s.text(6, f7, true);
        s.text(7, f8, true);
        s.text(8, f9, true);
        s.text(9, f10, true);
        s.text(10, f11, true);
        s.text(11, f12, true);
        s.text(12, f13, true);
        s.text(13, f14, true);
        s.text(14, f15, true);
        s.text(15, f16, true);
        s.text(16, f17, true);
        s.text(17, f18, true);
        s.text(18, f19, true);
        s.text(19, f20, true);
    }
}
