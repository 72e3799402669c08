package shootout.workload;

import java.io.Serializable;

/**
 * A row of the mixed tabular workload (crates/shootout/src/workload/tabular/mod.rs):
 * 20 optional cells f1..f20, null = absent; a present cell is one value of its field.
 */
public final class MixedRow implements Serializable {
    private static final long serialVersionUID = 1L;

    public String f1;
    public Double f2;
    public Long f3;
    public Integer f4;
    public String f5;
    public Double f6;
    public Long f7;
    public Integer f8;
    public Integer f9;
    public Long f10;
    public Float f11;
    public Double f12;
    public String f13;
    public String f14;
    public Long f15;
    public Integer f16;
    public Integer f17;
    public String f18;
    public String f19;
    public String f20;

    public void visit(FieldSink s) {
        s.record();
        s.text(0, f1, true);
        s.f(1, f2);
        s.i(2, f3);
        s.i(3, f4);
        s.text(4, f5, true);
        s.f(5, f6);
        s.i(6, f7);
        s.i(7, f8);
        s.i(8, f9);
        s.i(9, f10);
        s.f(10, f11);
        s.f(11, f12);
        s.text(12, f13, true);
        s.text(13, f14, true);
        s.i(14, f15);
        s.i(15, f16);
        s.i(16, f17);
        s.text(17, f18, true);
        s.text(18, f19, true);
        s.text(19, f20, true);
    }
}
