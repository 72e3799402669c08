package shootout.formats.thrift;

import org.apache.thrift.TException;
import shootout.generated.thrift.records.LongsRow;
import shootout.generated.thrift.records.MixedRow;
import shootout.generated.thrift.records.StringsRow;
import shootout.workload.FieldSink;

/** The tabular rows to and from their Thrift structs: a cell is set only when present (`optional`); f11 is an f32 in a double. */
final class Tabular {
    private Tabular() {
    }

    static MixedRow thrift(shootout.workload.MixedRow r) {
        MixedRow t = new MixedRow();
        if (r.f1 != null) {
            t.setF1(r.f1);
        }
        if (r.f2 != null) {
            t.setF2(r.f2);
        }
        if (r.f3 != null) {
            t.setF3(r.f3);
        }
        if (r.f4 != null) {
            t.setF4(r.f4);
        }
        if (r.f5 != null) {
            t.setF5(r.f5);
        }
        if (r.f6 != null) {
            t.setF6(r.f6);
        }
        if (r.f7 != null) {
            t.setF7(r.f7);
        }
        if (r.f8 != null) {
            t.setF8(r.f8);
        }
        if (r.f9 != null) {
            t.setF9(r.f9);
        }
        if (r.f10 != null) {
            t.setF10(r.f10);
        }
        if (r.f11 != null) {
            t.setF11((double) r.f11);
        }
        if (r.f12 != null) {
            t.setF12(r.f12);
        }
        if (r.f13 != null) {
            t.setF13(r.f13);
        }
        if (r.f14 != null) {
            t.setF14(r.f14);
        }
        if (r.f15 != null) {
            t.setF15(r.f15);
        }
        if (r.f16 != null) {
            t.setF16(r.f16);
        }
        if (r.f17 != null) {
            t.setF17(r.f17);
        }
        if (r.f18 != null) {
            t.setF18(r.f18);
        }
        if (r.f19 != null) {
            t.setF19(r.f19);
        }
        if (r.f20 != null) {
            t.setF20(r.f20);
        }
        return t;
    }

    static void feed(MixedRow m, FieldSink s) throws TException {
        s.record();
        if (m.isSetF1()) {
            s.text(0, m.getF1());
        }
        if (m.isSetF2()) {
            s.f(1, m.getF2());
        }
        if (m.isSetF3()) {
            s.i(2, m.getF3());
        }
        if (m.isSetF4()) {
            s.i(3, m.getF4());
        }
        if (m.isSetF5()) {
            s.text(4, m.getF5());
        }
        if (m.isSetF6()) {
            s.f(5, m.getF6());
        }
        if (m.isSetF7()) {
            s.i(6, m.getF7());
        }
        if (m.isSetF8()) {
            s.i(7, m.getF8());
        }
        if (m.isSetF9()) {
            s.i(8, m.getF9());
        }
        if (m.isSetF10()) {
            s.i(9, m.getF10());
        }
        if (m.isSetF11()) {
            s.f(10, (double) f32(m.getF11()));
        }
        if (m.isSetF12()) {
            s.f(11, m.getF12());
        }
        if (m.isSetF13()) {
            s.text(12, m.getF13());
        }
        if (m.isSetF14()) {
            s.text(13, m.getF14());
        }
        if (m.isSetF15()) {
            s.i(14, m.getF15());
        }
        if (m.isSetF16()) {
            s.i(15, m.getF16());
        }
        if (m.isSetF17()) {
            s.i(16, m.getF17());
        }
        if (m.isSetF18()) {
            s.text(17, m.getF18());
        }
        if (m.isSetF19()) {
            s.text(18, m.getF19());
        }
        if (m.isSetF20()) {
            s.text(19, m.getF20());
        }
    }

    static StringsRow thrift(shootout.workload.StringsRow r) {
        StringsRow t = new StringsRow();
        if (r.f1 != null) {
            t.setF1(r.f1);
        }
        if (r.f2 != null) {
            t.setF2(r.f2);
        }
        if (r.f3 != null) {
            t.setF3(r.f3);
        }
        if (r.f4 != null) {
            t.setF4(r.f4);
        }
        if (r.f5 != null) {
            t.setF5(r.f5);
        }
        if (r.f6 != null) {
            t.setF6(r.f6);
        }
        if (r.f7 != null) {
            t.setF7(r.f7);
        }
        if (r.f8 != null) {
            t.setF8(r.f8);
        }
        if (r.f9 != null) {
            t.setF9(r.f9);
        }
        if (r.f10 != null) {
            t.setF10(r.f10);
        }
        if (r.f11 != null) {
            t.setF11(r.f11);
        }
        if (r.f12 != null) {
            t.setF12(r.f12);
        }
        if (r.f13 != null) {
            t.setF13(r.f13);
        }
        if (r.f14 != null) {
            t.setF14(r.f14);
        }
        if (r.f15 != null) {
            t.setF15(r.f15);
        }
        if (r.f16 != null) {
            t.setF16(r.f16);
        }
        if (r.f17 != null) {
            t.setF17(r.f17);
        }
        if (r.f18 != null) {
            t.setF18(r.f18);
        }
        if (r.f19 != null) {
            t.setF19(r.f19);
        }
        if (r.f20 != null) {
            t.setF20(r.f20);
        }
        return t;
    }

    static void feed(StringsRow m, FieldSink s) throws TException {
        s.record();
        if (m.isSetF1()) {
            s.text(0, m.getF1());
        }
        if (m.isSetF2()) {
            s.text(1, m.getF2());
        }
        if (m.isSetF3()) {
            s.text(2, m.getF3());
        }
        if (m.isSetF4()) {
            s.text(3, m.getF4());
        }
        if (m.isSetF5()) {
            s.text(4, m.getF5());
        }
        if (m.isSetF6()) {
            s.text(5, m.getF6());
        }
        if (m.isSetF7()) {
            s.text(6, m.getF7());
        }
        if (m.isSetF8()) {
            s.text(7, m.getF8());
        }
        if (m.isSetF9()) {
            s.text(8, m.getF9());
        }
        if (m.isSetF10()) {
            s.text(9, m.getF10());
        }
        if (m.isSetF11()) {
            s.text(10, m.getF11());
        }
        if (m.isSetF12()) {
            s.text(11, m.getF12());
        }
        if (m.isSetF13()) {
            s.text(12, m.getF13());
        }
        if (m.isSetF14()) {
            s.text(13, m.getF14());
        }
        if (m.isSetF15()) {
            s.text(14, m.getF15());
        }
        if (m.isSetF16()) {
            s.text(15, m.getF16());
        }
        if (m.isSetF17()) {
            s.text(16, m.getF17());
        }
        if (m.isSetF18()) {
            s.text(17, m.getF18());
        }
        if (m.isSetF19()) {
            s.text(18, m.getF19());
        }
        if (m.isSetF20()) {
            s.text(19, m.getF20());
        }
    }

    static LongsRow thrift(shootout.workload.LongsRow r) {
        LongsRow t = new LongsRow();
        if (r.f1 != null) {
            t.setF1(r.f1);
        }
        if (r.f2 != null) {
            t.setF2(r.f2);
        }
        if (r.f3 != null) {
            t.setF3(r.f3);
        }
        if (r.f4 != null) {
            t.setF4(r.f4);
        }
        if (r.f5 != null) {
            t.setF5(r.f5);
        }
        if (r.f6 != null) {
            t.setF6(r.f6);
        }
        if (r.f7 != null) {
            t.setF7(r.f7);
        }
        if (r.f8 != null) {
            t.setF8(r.f8);
        }
        if (r.f9 != null) {
            t.setF9(r.f9);
        }
        if (r.f10 != null) {
            t.setF10(r.f10);
        }
        if (r.f11 != null) {
            t.setF11(r.f11);
        }
        if (r.f12 != null) {
            t.setF12(r.f12);
        }
        if (r.f13 != null) {
            t.setF13(r.f13);
        }
        if (r.f14 != null) {
            t.setF14(r.f14);
        }
        if (r.f15 != null) {
            t.setF15(r.f15);
        }
        if (r.f16 != null) {
            t.setF16(r.f16);
        }
        if (r.f17 != null) {
            t.setF17(r.f17);
        }
        if (r.f18 != null) {
            t.setF18(r.f18);
        }
        if (r.f19 != null) {
            t.setF19(r.f19);
        }
        if (r.f20 != null) {
            t.setF20(r.f20);
        }
        return t;
    }

    static void feed(LongsRow m, FieldSink s) throws TException {
        s.record();
        if (m.isSetF1()) {
            s.i(0, m.getF1());
        }
        if (m.isSetF2()) {
            s.i(1, m.getF2());
        }
        if (m.isSetF3()) {
            s.i(2, m.getF3());
        }
        if (m.isSetF4()) {
            s.i(3, m.getF4());
        }
        if (m.isSetF5()) {
            s.i(4, m.getF5());
        }
        if (m.isSetF6()) {
            s.i(5, m.getF6());
        }
        if (m.isSetF7()) {
            s.i(6, m.getF7());
        }
        if (m.isSetF8()) {
            s.i(7, m.getF8());
        }
        if (m.isSetF9()) {
            s.i(8, m.getF9());
        }
        if (m.isSetF10()) {
            s.i(9, m.getF10());
        }
        if (m.isSetF11()) {
            s.i(10, m.getF11());
        }
        if (m.isSetF12()) {
            s.i(11, m.getF12());
        }
        if (m.isSetF13()) {
            s.i(12, m.getF13());
        }
        if (m.isSetF14()) {
            s.i(13, m.getF14());
        }
        if (m.isSetF15()) {
            s.i(14, m.getF15());
        }
        if (m.isSetF16()) {
            s.i(15, m.getF16());
        }
        if (m.isSetF17()) {
            s.i(16, m.getF17());
        }
        if (m.isSetF18()) {
            s.i(17, m.getF18());
        }
        if (m.isSetF19()) {
            s.i(18, m.getF19());
        }
        if (m.isSetF20()) {
            s.i(19, m.getF20());
        }
    }

    static float f32(double d) throws TException {
        return ThriftCodec.f32(d);
    }
}
