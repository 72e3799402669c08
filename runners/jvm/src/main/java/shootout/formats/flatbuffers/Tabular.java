package shootout.formats.flatbuffers;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteBuffer;
import shootout.generated.flatbuffers.shootout.records.LongsRow;
import shootout.generated.flatbuffers.shootout.records.MixedRow;
import shootout.generated.flatbuffers.shootout.records.StringsRow;
import shootout.workload.FieldSink;

/**
 * The tabular rows to and from their FlatBuffers tables: a cell is written
 * only when present (optional scalars `= null`, absent strings); read in
 * place, texts as views of the buffer.
 */
final class Tabular {
    private Tabular() {
    }

    static int mixed(FlatBufferBuilder b, shootout.workload.MixedRow r) {
        int s1 = r.f1 == null ? 0 : b.createString(r.f1);
        int s5 = r.f5 == null ? 0 : b.createString(r.f5);
        int s13 = r.f13 == null ? 0 : b.createString(r.f13);
        int s14 = r.f14 == null ? 0 : b.createString(r.f14);
        int s18 = r.f18 == null ? 0 : b.createString(r.f18);
        int s19 = r.f19 == null ? 0 : b.createString(r.f19);
        int s20 = r.f20 == null ? 0 : b.createString(r.f20);
        MixedRow.startMixedRow(b);
        if (s1 != 0) {
            MixedRow.addF1(b, s1);
        }
        if (r.f2 != null) {
            MixedRow.addF2(b, r.f2);
        }
        if (r.f3 != null) {
            MixedRow.addF3(b, r.f3);
        }
        if (r.f4 != null) {
            MixedRow.addF4(b, r.f4);
        }
        if (s5 != 0) {
            MixedRow.addF5(b, s5);
        }
        if (r.f6 != null) {
            MixedRow.addF6(b, r.f6);
        }
        if (r.f7 != null) {
            MixedRow.addF7(b, r.f7);
        }
        if (r.f8 != null) {
            MixedRow.addF8(b, r.f8);
        }
        if (r.f9 != null) {
            MixedRow.addF9(b, r.f9);
        }
        if (r.f10 != null) {
            MixedRow.addF10(b, r.f10);
        }
        if (r.f11 != null) {
            MixedRow.addF11(b, r.f11);
        }
        if (r.f12 != null) {
            MixedRow.addF12(b, r.f12);
        }
        if (s13 != 0) {
            MixedRow.addF13(b, s13);
        }
        if (s14 != 0) {
            MixedRow.addF14(b, s14);
        }
        if (r.f15 != null) {
            MixedRow.addF15(b, r.f15);
        }
        if (r.f16 != null) {
            MixedRow.addF16(b, r.f16);
        }
        if (r.f17 != null) {
            MixedRow.addF17(b, r.f17);
        }
        if (s18 != 0) {
            MixedRow.addF18(b, s18);
        }
        if (s19 != 0) {
            MixedRow.addF19(b, s19);
        }
        if (s20 != 0) {
            MixedRow.addF20(b, s20);
        }
        return MixedRow.endMixedRow(b);
    }

    static void feed(MixedRow m, FieldSink s) {
        s.record();
        ByteBuffer v1 = m.f1AsByteBuffer();
        if (v1 != null) {
            s.utf8(0, v1);
        }
        if (m.hasF2()) {
            s.f(1, m.f2());
        }
        if (m.hasF3()) {
            s.i(2, m.f3());
        }
        if (m.hasF4()) {
            s.i(3, m.f4());
        }
        ByteBuffer v5 = m.f5AsByteBuffer();
        if (v5 != null) {
            s.utf8(4, v5);
        }
        if (m.hasF6()) {
            s.f(5, m.f6());
        }
        if (m.hasF7()) {
            s.i(6, m.f7());
        }
        if (m.hasF8()) {
            s.i(7, m.f8());
        }
        if (m.hasF9()) {
            s.i(8, m.f9());
        }
        if (m.hasF10()) {
            s.i(9, m.f10());
        }
        if (m.hasF11()) {
            s.f(10, (double) m.f11());
        }
        if (m.hasF12()) {
            s.f(11, m.f12());
        }
        ByteBuffer v13 = m.f13AsByteBuffer();
        if (v13 != null) {
            s.utf8(12, v13);
        }
        ByteBuffer v14 = m.f14AsByteBuffer();
        if (v14 != null) {
            s.utf8(13, v14);
        }
        if (m.hasF15()) {
            s.i(14, m.f15());
        }
        if (m.hasF16()) {
            s.i(15, m.f16());
        }
        if (m.hasF17()) {
            s.i(16, m.f17());
        }
        ByteBuffer v18 = m.f18AsByteBuffer();
        if (v18 != null) {
            s.utf8(17, v18);
        }
        ByteBuffer v19 = m.f19AsByteBuffer();
        if (v19 != null) {
            s.utf8(18, v19);
        }
        ByteBuffer v20 = m.f20AsByteBuffer();
        if (v20 != null) {
            s.utf8(19, v20);
        }
    }

    static int strings(FlatBufferBuilder b, shootout.workload.StringsRow r) {
        int s1 = r.f1 == null ? 0 : b.createString(r.f1);
        int s2 = r.f2 == null ? 0 : b.createString(r.f2);
        int s3 = r.f3 == null ? 0 : b.createString(r.f3);
        int s4 = r.f4 == null ? 0 : b.createString(r.f4);
        int s5 = r.f5 == null ? 0 : b.createString(r.f5);
        int s6 = r.f6 == null ? 0 : b.createString(r.f6);
        int s7 = r.f7 == null ? 0 : b.createString(r.f7);
        int s8 = r.f8 == null ? 0 : b.createString(r.f8);
        int s9 = r.f9 == null ? 0 : b.createString(r.f9);
        int s10 = r.f10 == null ? 0 : b.createString(r.f10);
        int s11 = r.f11 == null ? 0 : b.createString(r.f11);
        int s12 = r.f12 == null ? 0 : b.createString(r.f12);
        int s13 = r.f13 == null ? 0 : b.createString(r.f13);
        int s14 = r.f14 == null ? 0 : b.createString(r.f14);
        int s15 = r.f15 == null ? 0 : b.createString(r.f15);
        int s16 = r.f16 == null ? 0 : b.createString(r.f16);
        int s17 = r.f17 == null ? 0 : b.createString(r.f17);
        int s18 = r.f18 == null ? 0 : b.createString(r.f18);
        int s19 = r.f19 == null ? 0 : b.createString(r.f19);
        int s20 = r.f20 == null ? 0 : b.createString(r.f20);
        StringsRow.startStringsRow(b);
        if (s1 != 0) {
            StringsRow.addF1(b, s1);
        }
        if (s2 != 0) {
            StringsRow.addF2(b, s2);
        }
        if (s3 != 0) {
            StringsRow.addF3(b, s3);
        }
        if (s4 != 0) {
            StringsRow.addF4(b, s4);
        }
        if (s5 != 0) {
            StringsRow.addF5(b, s5);
        }
        if (s6 != 0) {
            StringsRow.addF6(b, s6);
        }
        if (s7 != 0) {
            StringsRow.addF7(b, s7);
        }
        if (s8 != 0) {
            StringsRow.addF8(b, s8);
        }
        if (s9 != 0) {
            StringsRow.addF9(b, s9);
        }
        if (s10 != 0) {
            StringsRow.addF10(b, s10);
        }
        if (s11 != 0) {
            StringsRow.addF11(b, s11);
        }
        if (s12 != 0) {
            StringsRow.addF12(b, s12);
        }
        if (s13 != 0) {
            StringsRow.addF13(b, s13);
        }
        if (s14 != 0) {
            StringsRow.addF14(b, s14);
        }
        if (s15 != 0) {
            StringsRow.addF15(b, s15);
        }
        if (s16 != 0) {
            StringsRow.addF16(b, s16);
        }
        if (s17 != 0) {
            StringsRow.addF17(b, s17);
        }
        if (s18 != 0) {
            StringsRow.addF18(b, s18);
        }
        if (s19 != 0) {
            StringsRow.addF19(b, s19);
        }
        if (s20 != 0) {
            StringsRow.addF20(b, s20);
        }
        return StringsRow.endStringsRow(b);
    }

    static void feed(StringsRow m, FieldSink s) {
        s.record();
        ByteBuffer v1 = m.f1AsByteBuffer();
        if (v1 != null) {
            s.utf8(0, v1);
        }
        ByteBuffer v2 = m.f2AsByteBuffer();
        if (v2 != null) {
            s.utf8(1, v2);
        }
        ByteBuffer v3 = m.f3AsByteBuffer();
        if (v3 != null) {
            s.utf8(2, v3);
        }
        ByteBuffer v4 = m.f4AsByteBuffer();
        if (v4 != null) {
            s.utf8(3, v4);
        }
        ByteBuffer v5 = m.f5AsByteBuffer();
        if (v5 != null) {
            s.utf8(4, v5);
        }
        ByteBuffer v6 = m.f6AsByteBuffer();
        if (v6 != null) {
            s.utf8(5, v6);
        }
        ByteBuffer v7 = m.f7AsByteBuffer();
        if (v7 != null) {
            s.utf8(6, v7);
        }
        ByteBuffer v8 = m.f8AsByteBuffer();
        if (v8 != null) {
            s.utf8(7, v8);
        }
        ByteBuffer v9 = m.f9AsByteBuffer();
        if (v9 != null) {
            s.utf8(8, v9);
        }
        ByteBuffer v10 = m.f10AsByteBuffer();
        if (v10 != null) {
            s.utf8(9, v10);
        }
        ByteBuffer v11 = m.f11AsByteBuffer();
        if (v11 != null) {
            s.utf8(10, v11);
        }
        ByteBuffer v12 = m.f12AsByteBuffer();
        if (v12 != null) {
            s.utf8(11, v12);
        }
        ByteBuffer v13 = m.f13AsByteBuffer();
        if (v13 != null) {
            s.utf8(12, v13);
        }
        ByteBuffer v14 = m.f14AsByteBuffer();
        if (v14 != null) {
            s.utf8(13, v14);
        }
        ByteBuffer v15 = m.f15AsByteBuffer();
        if (v15 != null) {
            s.utf8(14, v15);
        }
        ByteBuffer v16 = m.f16AsByteBuffer();
        if (v16 != null) {
            s.utf8(15, v16);
        }
        ByteBuffer v17 = m.f17AsByteBuffer();
        if (v17 != null) {
            s.utf8(16, v17);
        }
        ByteBuffer v18 = m.f18AsByteBuffer();
        if (v18 != null) {
            s.utf8(17, v18);
        }
        ByteBuffer v19 = m.f19AsByteBuffer();
        if (v19 != null) {
            s.utf8(18, v19);
        }
        ByteBuffer v20 = m.f20AsByteBuffer();
        if (v20 != null) {
            s.utf8(19, v20);
        }
    }

    static int longs(FlatBufferBuilder b, shootout.workload.LongsRow r) {
        LongsRow.startLongsRow(b);
        if (r.f1 != null) {
            LongsRow.addF1(b, r.f1);
        }
        if (r.f2 != null) {
            LongsRow.addF2(b, r.f2);
        }
        if (r.f3 != null) {
            LongsRow.addF3(b, r.f3);
        }
        if (r.f4 != null) {
            LongsRow.addF4(b, r.f4);
        }
        if (r.f5 != null) {
            LongsRow.addF5(b, r.f5);
        }
        if (r.f6 != null) {
            LongsRow.addF6(b, r.f6);
        }
        if (r.f7 != null) {
            LongsRow.addF7(b, r.f7);
        }
        if (r.f8 != null) {
            LongsRow.addF8(b, r.f8);
        }
        if (r.f9 != null) {
            LongsRow.addF9(b, r.f9);
        }
        if (r.f10 != null) {
            LongsRow.addF10(b, r.f10);
        }
        if (r.f11 != null) {
            LongsRow.addF11(b, r.f11);
        }
        if (r.f12 != null) {
            LongsRow.addF12(b, r.f12);
        }
        if (r.f13 != null) {
            LongsRow.addF13(b, r.f13);
        }
        if (r.f14 != null) {
            LongsRow.addF14(b, r.f14);
        }
        if (r.f15 != null) {
            LongsRow.addF15(b, r.f15);
        }
        if (r.f16 != null) {
            LongsRow.addF16(b, r.f16);
        }
        if (r.f17 != null) {
            LongsRow.addF17(b, r.f17);
        }
        if (r.f18 != null) {
            LongsRow.addF18(b, r.f18);
        }
        if (r.f19 != null) {
            LongsRow.addF19(b, r.f19);
        }
        if (r.f20 != null) {
            LongsRow.addF20(b, r.f20);
        }
        return LongsRow.endLongsRow(b);
    }

    static void feed(LongsRow m, FieldSink s) {
        s.record();
        if (m.hasF1()) {
            s.i(0, m.f1());
        }
        if (m.hasF2()) {
            s.i(1, m.f2());
        }
        if (m.hasF3()) {
            s.i(2, m.f3());
        }
        if (m.hasF4()) {
            s.i(3, m.f4());
        }
        if (m.hasF5()) {
            s.i(4, m.f5());
        }
        if (m.hasF6()) {
            s.i(5, m.f6());
        }
        if (m.hasF7()) {
            s.i(6, m.f7());
        }
        if (m.hasF8()) {
            s.i(7, m.f8());
        }
        if (m.hasF9()) {
            s.i(8, m.f9());
        }
        if (m.hasF10()) {
            s.i(9, m.f10());
        }
        if (m.hasF11()) {
            s.i(10, m.f11());
        }
        if (m.hasF12()) {
            s.i(11, m.f12());
        }
        if (m.hasF13()) {
            s.i(12, m.f13());
        }
        if (m.hasF14()) {
            s.i(13, m.f14());
        }
        if (m.hasF15()) {
            s.i(14, m.f15());
        }
        if (m.hasF16()) {
            s.i(15, m.f16());
        }
        if (m.hasF17()) {
            s.i(16, m.f17());
        }
        if (m.hasF18()) {
            s.i(17, m.f18());
        }
        if (m.hasF19()) {
            s.i(18, m.f19());
        }
        if (m.hasF20()) {
            s.i(19, m.f20());
        }
    }
}
