package shootout.formats.protobuf;

import shootout.generated.protobuf.records.Records;
import shootout.workload.FieldSink;

/** The tabular rows to and from their Protocol Buffers messages: a cell is set only when present (proto3 `optional`). */
final class Tabular {
    private Tabular() {
    }

    static Records.MixedRow pb(shootout.workload.MixedRow r) {
        Records.MixedRow.Builder b = Records.MixedRow.newBuilder();
        if (r.f1 != null) {
            b.setF1(r.f1);
        }
        if (r.f2 != null) {
            b.setF2(r.f2);
        }
        if (r.f3 != null) {
            b.setF3(r.f3);
        }
        if (r.f4 != null) {
            b.setF4(r.f4);
        }
        if (r.f5 != null) {
            b.setF5(r.f5);
        }
        if (r.f6 != null) {
            b.setF6(r.f6);
        }
        if (r.f7 != null) {
            b.setF7(r.f7);
        }
        if (r.f8 != null) {
            b.setF8(r.f8);
        }
        if (r.f9 != null) {
            b.setF9(r.f9);
        }
        if (r.f10 != null) {
            b.setF10(r.f10);
        }
        if (r.f11 != null) {
            b.setF11(r.f11);
        }
        if (r.f12 != null) {
            b.setF12(r.f12);
        }
        if (r.f13 != null) {
            b.setF13(r.f13);
        }
        if (r.f14 != null) {
            b.setF14(r.f14);
        }
        if (r.f15 != null) {
            b.setF15(r.f15);
        }
        if (r.f16 != null) {
            b.setF16(r.f16);
        }
        if (r.f17 != null) {
            b.setF17(r.f17);
        }
        if (r.f18 != null) {
            b.setF18(r.f18);
        }
        if (r.f19 != null) {
            b.setF19(r.f19);
        }
        if (r.f20 != null) {
            b.setF20(r.f20);
        }
        return b.build();
    }

    static void feed(Records.MixedRow m, FieldSink s) {
        s.record();
        if (m.hasF1()) {
            s.text(0, m.getF1());
        }
        if (m.hasF2()) {
            s.f(1, m.getF2());
        }
        if (m.hasF3()) {
            s.i(2, m.getF3());
        }
        if (m.hasF4()) {
            s.i(3, m.getF4());
        }
        if (m.hasF5()) {
            s.text(4, m.getF5());
        }
        if (m.hasF6()) {
            s.f(5, m.getF6());
        }
        if (m.hasF7()) {
            s.i(6, m.getF7());
        }
        if (m.hasF8()) {
            s.i(7, m.getF8());
        }
        if (m.hasF9()) {
            s.i(8, m.getF9());
        }
        if (m.hasF10()) {
            s.i(9, m.getF10());
        }
        if (m.hasF11()) {
            s.f(10, (double) m.getF11());
        }
        if (m.hasF12()) {
            s.f(11, m.getF12());
        }
        if (m.hasF13()) {
            s.text(12, m.getF13());
        }
        if (m.hasF14()) {
            s.text(13, m.getF14());
        }
        if (m.hasF15()) {
            s.i(14, m.getF15());
        }
        if (m.hasF16()) {
            s.i(15, m.getF16());
        }
        if (m.hasF17()) {
            s.i(16, m.getF17());
        }
        if (m.hasF18()) {
            s.text(17, m.getF18());
        }
        if (m.hasF19()) {
            s.text(18, m.getF19());
        }
        if (m.hasF20()) {
            s.text(19, m.getF20());
        }
    }

    static Records.StringsRow pb(shootout.workload.StringsRow r) {
        Records.StringsRow.Builder b = Records.StringsRow.newBuilder();
        if (r.f1 != null) {
            b.setF1(r.f1);
        }
        if (r.f2 != null) {
            b.setF2(r.f2);
        }
        if (r.f3 != null) {
            b.setF3(r.f3);
        }
        if (r.f4 != null) {
            b.setF4(r.f4);
        }
        if (r.f5 != null) {
            b.setF5(r.f5);
        }
        if (r.f6 != null) {
            b.setF6(r.f6);
        }
        if (r.f7 != null) {
            b.setF7(r.f7);
        }
        if (r.f8 != null) {
            b.setF8(r.f8);
        }
        if (r.f9 != null) {
            b.setF9(r.f9);
        }
        if (r.f10 != null) {
            b.setF10(r.f10);
        }
        if (r.f11 != null) {
            b.setF11(r.f11);
        }
        if (r.f12 != null) {
            b.setF12(r.f12);
        }
        if (r.f13 != null) {
            b.setF13(r.f13);
        }
        if (r.f14 != null) {
            b.setF14(r.f14);
        }
        if (r.f15 != null) {
            b.setF15(r.f15);
        }
        if (r.f16 != null) {
            b.setF16(r.f16);
        }
        if (r.f17 != null) {
            b.setF17(r.f17);
        }
        if (r.f18 != null) {
            b.setF18(r.f18);
        }
        if (r.f19 != null) {
            b.setF19(r.f19);
        }
        if (r.f20 != null) {
            b.setF20(r.f20);
        }
        return b.build();
    }

    static void feed(Records.StringsRow m, FieldSink s) {
        s.record();
        if (m.hasF1()) {
            s.text(0, m.getF1());
        }
        if (m.hasF2()) {
            s.text(1, m.getF2());
        }
        if (m.hasF3()) {
            s.text(2, m.getF3());
        }
        if (m.hasF4()) {
            s.text(3, m.getF4());
        }
        if (m.hasF5()) {
            s.text(4, m.getF5());
        }
        if (m.hasF6()) {
            s.text(5, m.getF6());
        }
        if (m.hasF7()) {
            s.text(6, m.getF7());
        }
        if (m.hasF8()) {
            s.text(7, m.getF8());
        }
        if (m.hasF9()) {
            s.text(8, m.getF9());
        }
        if (m.hasF10()) {
            s.text(9, m.getF10());
        }
        if (m.hasF11()) {
            s.text(10, m.getF11());
        }
        if (m.hasF12()) {
            s.text(11, m.getF12());
        }
        if (m.hasF13()) {
            s.text(12, m.getF13());
        }
        if (m.hasF14()) {
            s.text(13, m.getF14());
        }
        if (m.hasF15()) {
            s.text(14, m.getF15());
        }
        if (m.hasF16()) {
            s.text(15, m.getF16());
        }
        if (m.hasF17()) {
            s.text(16, m.getF17());
        }
        if (m.hasF18()) {
            s.text(17, m.getF18());
        }
        if (m.hasF19()) {
            s.text(18, m.getF19());
        }
        if (m.hasF20()) {
            s.text(19, m.getF20());
        }
    }

    static Records.LongsRow pb(shootout.workload.LongsRow r) {
        Records.LongsRow.Builder b = Records.LongsRow.newBuilder();
        if (r.f1 != null) {
            b.setF1(r.f1);
        }
        if (r.f2 != null) {
            b.setF2(r.f2);
        }
        if (r.f3 != null) {
            b.setF3(r.f3);
        }
        if (r.f4 != null) {
            b.setF4(r.f4);
        }
        if (r.f5 != null) {
            b.setF5(r.f5);
        }
        if (r.f6 != null) {
            b.setF6(r.f6);
        }
        if (r.f7 != null) {
            b.setF7(r.f7);
        }
        if (r.f8 != null) {
            b.setF8(r.f8);
        }
        if (r.f9 != null) {
            b.setF9(r.f9);
        }
        if (r.f10 != null) {
            b.setF10(r.f10);
        }
        if (r.f11 != null) {
            b.setF11(r.f11);
        }
        if (r.f12 != null) {
            b.setF12(r.f12);
        }
        if (r.f13 != null) {
            b.setF13(r.f13);
        }
        if (r.f14 != null) {
            b.setF14(r.f14);
        }
        if (r.f15 != null) {
            b.setF15(r.f15);
        }
        if (r.f16 != null) {
            b.setF16(r.f16);
        }
        if (r.f17 != null) {
            b.setF17(r.f17);
        }
        if (r.f18 != null) {
            b.setF18(r.f18);
        }
        if (r.f19 != null) {
            b.setF19(r.f19);
        }
        if (r.f20 != null) {
            b.setF20(r.f20);
        }
        return b.build();
    }

    static void feed(Records.LongsRow m, FieldSink s) {
        s.record();
        if (m.hasF1()) {
            s.i(0, m.getF1());
        }
        if (m.hasF2()) {
            s.i(1, m.getF2());
        }
        if (m.hasF3()) {
            s.i(2, m.getF3());
        }
        if (m.hasF4()) {
            s.i(3, m.getF4());
        }
        if (m.hasF5()) {
            s.i(4, m.getF5());
        }
        if (m.hasF6()) {
            s.i(5, m.getF6());
        }
        if (m.hasF7()) {
            s.i(6, m.getF7());
        }
        if (m.hasF8()) {
            s.i(7, m.getF8());
        }
        if (m.hasF9()) {
            s.i(8, m.getF9());
        }
        if (m.hasF10()) {
            s.i(9, m.getF10());
        }
        if (m.hasF11()) {
            s.i(10, m.getF11());
        }
        if (m.hasF12()) {
            s.i(11, m.getF12());
        }
        if (m.hasF13()) {
            s.i(12, m.getF13());
        }
        if (m.hasF14()) {
            s.i(13, m.getF14());
        }
        if (m.hasF15()) {
            s.i(14, m.getF15());
        }
        if (m.hasF16()) {
            s.i(15, m.getF16());
        }
        if (m.hasF17()) {
            s.i(16, m.getF17());
        }
        if (m.hasF18()) {
            s.i(17, m.getF18());
        }
        if (m.hasF19()) {
            s.i(18, m.getF19());
        }
        if (m.hasF20()) {
            s.i(19, m.getF20());
        }
    }
}
