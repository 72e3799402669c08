package shootout.formats.sbe;

import org.agrona.concurrent.UnsafeBuffer;
import shootout.generated.sbe.LongsRowDecoder;
import shootout.generated.sbe.LongsRowEncoder;
import shootout.generated.sbe.MixedRowDecoder;
import shootout.generated.sbe.MixedRowEncoder;
import shootout.generated.sbe.Presence20Decoder;
import shootout.generated.sbe.Presence20Encoder;
import shootout.generated.sbe.StringsRowDecoder;
import shootout.generated.sbe.StringsRowEncoder;
import shootout.workload.FieldSink;

/**
 * The tabular rows to and from SBE (iex-sbe.xml's MixedRow, StringsRow,
 * LongsRow): presence in the Presence20 bitset, every numeric cell in its slot
 * (0 when absent), every string cell as var data (empty when absent), in the
 * schema's order: fixed fields, then var data.
 */
final class Tabular {
    private Tabular() {
    }

    static void mixed(MixedRowEncoder e, shootout.workload.MixedRow r) {
        Presence20Encoder p = e.present().clear();
        p.f1(r.f1 != null);
        p.f2(r.f2 != null);
        p.f3(r.f3 != null);
        p.f4(r.f4 != null);
        p.f5(r.f5 != null);
        p.f6(r.f6 != null);
        p.f7(r.f7 != null);
        p.f8(r.f8 != null);
        p.f9(r.f9 != null);
        p.f10(r.f10 != null);
        p.f11(r.f11 != null);
        p.f12(r.f12 != null);
        p.f13(r.f13 != null);
        p.f14(r.f14 != null);
        p.f15(r.f15 != null);
        p.f16(r.f16 != null);
        p.f17(r.f17 != null);
        p.f18(r.f18 != null);
        p.f19(r.f19 != null);
        p.f20(r.f20 != null);
        e.f2(r.f2 == null ? 0.0 : r.f2);
        e.f3(r.f3 == null ? 0L : r.f3);
        e.f4(r.f4 == null ? 0 : r.f4);
        e.f6(r.f6 == null ? 0.0 : r.f6);
        e.f7(r.f7 == null ? 0L : r.f7);
        e.f8(r.f8 == null ? 0 : r.f8);
        e.f9(r.f9 == null ? 0 : r.f9);
        e.f10(r.f10 == null ? 0L : r.f10);
        e.f11(r.f11 == null ? 0f : r.f11);
        e.f12(r.f12 == null ? 0.0 : r.f12);
        e.f15(r.f15 == null ? 0L : r.f15);
        e.f16(r.f16 == null ? 0 : r.f16);
        e.f17(r.f17 == null ? 0 : r.f17);
        e.f1(r.f1 == null ? "" : r.f1);
        e.f5(r.f5 == null ? "" : r.f5);
        e.f13(r.f13 == null ? "" : r.f13);
        e.f14(r.f14 == null ? "" : r.f14);
        e.f18(r.f18 == null ? "" : r.f18);
        e.f19(r.f19 == null ? "" : r.f19);
        e.f20(r.f20 == null ? "" : r.f20);
    }

    static void feed(MixedRowDecoder d, FieldSink s, UnsafeBuffer view) {
        s.record();
        Presence20Decoder p = d.present();
        if (p.f2()) {
            s.f(1, d.f2());
        }
        if (p.f3()) {
            s.i(2, d.f3());
        }
        if (p.f4()) {
            s.i(3, d.f4());
        }
        if (p.f6()) {
            s.f(5, d.f6());
        }
        if (p.f7()) {
            s.i(6, d.f7());
        }
        if (p.f8()) {
            s.i(7, d.f8());
        }
        if (p.f9()) {
            s.i(8, d.f9());
        }
        if (p.f10()) {
            s.i(9, d.f10());
        }
        if (p.f11()) {
            s.f(10, (double) d.f11());
        }
        if (p.f12()) {
            s.f(11, d.f12());
        }
        if (p.f15()) {
            s.i(14, d.f15());
        }
        if (p.f16()) {
            s.i(15, d.f16());
        }
        if (p.f17()) {
            s.i(16, d.f17());
        }
        d.wrapF1(view);
        if (p.f1()) {
            SbeCodec.text(s, 0, view);
        }
        d.wrapF5(view);
        if (p.f5()) {
            SbeCodec.text(s, 4, view);
        }
        d.wrapF13(view);
        if (p.f13()) {
            SbeCodec.text(s, 12, view);
        }
        d.wrapF14(view);
        if (p.f14()) {
            SbeCodec.text(s, 13, view);
        }
        d.wrapF18(view);
        if (p.f18()) {
            SbeCodec.text(s, 17, view);
        }
        d.wrapF19(view);
        if (p.f19()) {
            SbeCodec.text(s, 18, view);
        }
        d.wrapF20(view);
        if (p.f20()) {
            SbeCodec.text(s, 19, view);
        }
    }

    static void strings(StringsRowEncoder e, shootout.workload.StringsRow r) {
        Presence20Encoder p = e.present().clear();
        p.f1(r.f1 != null);
        p.f2(r.f2 != null);
        p.f3(r.f3 != null);
        p.f4(r.f4 != null);
        p.f5(r.f5 != null);
        p.f6(r.f6 != null);
        p.f7(r.f7 != null);
        p.f8(r.f8 != null);
        p.f9(r.f9 != null);
        p.f10(r.f10 != null);
        p.f11(r.f11 != null);
        p.f12(r.f12 != null);
        p.f13(r.f13 != null);
        p.f14(r.f14 != null);
        p.f15(r.f15 != null);
        p.f16(r.f16 != null);
        p.f17(r.f17 != null);
        p.f18(r.f18 != null);
        p.f19(r.f19 != null);
        p.f20(r.f20 != null);
        e.f1(r.f1 == null ? "" : r.f1);
        e.f2(r.f2 == null ? "" : r.f2);
        e.f3(r.f3 == null ? "" : r.f3);
        e.f4(r.f4 == null ? "" : r.f4);
        e.f5(r.f5 == null ? "" : r.f5);
        e.f6(r.f6 == null ? "" : r.f6);
        e.f7(r.f7 == null ? "" : r.f7);
        e.f8(r.f8 == null ? "" : r.f8);
        e.f9(r.f9 == null ? "" : r.f9);
        e.f10(r.f10 == null ? "" : r.f10);
        e.f11(r.f11 == null ? "" : r.f11);
        e.f12(r.f12 == null ? "" : r.f12);
        e.f13(r.f13 == null ? "" : r.f13);
        e.f14(r.f14 == null ? "" : r.f14);
        e.f15(r.f15 == null ? "" : r.f15);
        e.f16(r.f16 == null ? "" : r.f16);
        e.f17(r.f17 == null ? "" : r.f17);
        e.f18(r.f18 == null ? "" : r.f18);
        e.f19(r.f19 == null ? "" : r.f19);
        e.f20(r.f20 == null ? "" : r.f20);
    }

    static void feed(StringsRowDecoder d, FieldSink s, UnsafeBuffer view) {
        s.record();
        Presence20Decoder p = d.present();
        d.wrapF1(view);
        if (p.f1()) {
            SbeCodec.text(s, 0, view);
        }
        d.wrapF2(view);
        if (p.f2()) {
            SbeCodec.text(s, 1, view);
        }
        d.wrapF3(view);
        if (p.f3()) {
            SbeCodec.text(s, 2, view);
        }
        d.wrapF4(view);
        if (p.f4()) {
            SbeCodec.text(s, 3, view);
        }
        d.wrapF5(view);
        if (p.f5()) {
            SbeCodec.text(s, 4, view);
        }
        d.wrapF6(view);
        if (p.f6()) {
            SbeCodec.text(s, 5, view);
        }
        d.wrapF7(view);
        if (p.f7()) {
            SbeCodec.text(s, 6, view);
        }
        d.wrapF8(view);
        if (p.f8()) {
            SbeCodec.text(s, 7, view);
        }
        d.wrapF9(view);
        if (p.f9()) {
            SbeCodec.text(s, 8, view);
        }
        d.wrapF10(view);
        if (p.f10()) {
            SbeCodec.text(s, 9, view);
        }
        d.wrapF11(view);
        if (p.f11()) {
            SbeCodec.text(s, 10, view);
        }
        d.wrapF12(view);
        if (p.f12()) {
            SbeCodec.text(s, 11, view);
        }
        d.wrapF13(view);
        if (p.f13()) {
            SbeCodec.text(s, 12, view);
        }
        d.wrapF14(view);
        if (p.f14()) {
            SbeCodec.text(s, 13, view);
        }
        d.wrapF15(view);
        if (p.f15()) {
            SbeCodec.text(s, 14, view);
        }
        d.wrapF16(view);
        if (p.f16()) {
            SbeCodec.text(s, 15, view);
        }
        d.wrapF17(view);
        if (p.f17()) {
            SbeCodec.text(s, 16, view);
        }
        d.wrapF18(view);
        if (p.f18()) {
            SbeCodec.text(s, 17, view);
        }
        d.wrapF19(view);
        if (p.f19()) {
            SbeCodec.text(s, 18, view);
        }
        d.wrapF20(view);
        if (p.f20()) {
            SbeCodec.text(s, 19, view);
        }
    }

    static void longs(LongsRowEncoder e, shootout.workload.LongsRow r) {
        Presence20Encoder p = e.present().clear();
        p.f1(r.f1 != null);
        p.f2(r.f2 != null);
        p.f3(r.f3 != null);
        p.f4(r.f4 != null);
        p.f5(r.f5 != null);
        p.f6(r.f6 != null);
        p.f7(r.f7 != null);
        p.f8(r.f8 != null);
        p.f9(r.f9 != null);
        p.f10(r.f10 != null);
        p.f11(r.f11 != null);
        p.f12(r.f12 != null);
        p.f13(r.f13 != null);
        p.f14(r.f14 != null);
        p.f15(r.f15 != null);
        p.f16(r.f16 != null);
        p.f17(r.f17 != null);
        p.f18(r.f18 != null);
        p.f19(r.f19 != null);
        p.f20(r.f20 != null);
        e.f1(r.f1 == null ? 0L : r.f1);
        e.f2(r.f2 == null ? 0L : r.f2);
        e.f3(r.f3 == null ? 0L : r.f3);
        e.f4(r.f4 == null ? 0L : r.f4);
        e.f5(r.f5 == null ? 0L : r.f5);
        e.f6(r.f6 == null ? 0L : r.f6);
        e.f7(r.f7 == null ? 0L : r.f7);
        e.f8(r.f8 == null ? 0L : r.f8);
        e.f9(r.f9 == null ? 0L : r.f9);
        e.f10(r.f10 == null ? 0L : r.f10);
        e.f11(r.f11 == null ? 0L : r.f11);
        e.f12(r.f12 == null ? 0L : r.f12);
        e.f13(r.f13 == null ? 0L : r.f13);
        e.f14(r.f14 == null ? 0L : r.f14);
        e.f15(r.f15 == null ? 0L : r.f15);
        e.f16(r.f16 == null ? 0L : r.f16);
        e.f17(r.f17 == null ? 0L : r.f17);
        e.f18(r.f18 == null ? 0L : r.f18);
        e.f19(r.f19 == null ? 0L : r.f19);
        e.f20(r.f20 == null ? 0L : r.f20);
    }

    static void feed(LongsRowDecoder d, FieldSink s, UnsafeBuffer view) {
        s.record();
        Presence20Decoder p = d.present();
        if (p.f1()) {
            s.i(0, d.f1());
        }
        if (p.f2()) {
            s.i(1, d.f2());
        }
        if (p.f3()) {
            s.i(2, d.f3());
        }
        if (p.f4()) {
            s.i(3, d.f4());
        }
        if (p.f5()) {
            s.i(4, d.f5());
        }
        if (p.f6()) {
            s.i(5, d.f6());
        }
        if (p.f7()) {
            s.i(6, d.f7());
        }
        if (p.f8()) {
            s.i(7, d.f8());
        }
        if (p.f9()) {
            s.i(8, d.f9());
        }
        if (p.f10()) {
            s.i(9, d.f10());
        }
        if (p.f11()) {
            s.i(10, d.f11());
        }
        if (p.f12()) {
            s.i(11, d.f12());
        }
        if (p.f13()) {
            s.i(12, d.f13());
        }
        if (p.f14()) {
            s.i(13, d.f14());
        }
        if (p.f15()) {
            s.i(14, d.f15());
        }
        if (p.f16()) {
            s.i(15, d.f16());
        }
        if (p.f17()) {
            s.i(16, d.f17());
        }
        if (p.f18()) {
            s.i(17, d.f18());
        }
        if (p.f19()) {
            s.i(18, d.f19());
        }
        if (p.f20()) {
            s.i(19, d.f20());
        }
    }
}
