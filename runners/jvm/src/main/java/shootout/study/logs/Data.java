package shootout.study.logs;

import java.io.Serial;

/**
 * The study's three case classes (its `sealed trait Data`), field for field,
 * so that Java serialization writes what it wrote: twenty Option fields each,
 * no superclass. The other formats reach the fields by position ({@link DataSet#get}).
 */
interface Data extends java.io.Serializable {

    /** MixedData: strings, doubles, longs, ints and one float. */
    final class MixedData implements Data {
        @Serial
        private static final long serialVersionUID = 1L;

        Option<String> f1;
        Option<Double> f2;
        Option<Long> f3;
        Option<Integer> f4;
        Option<String> f5;
        Option<Double> f6;
        Option<Long> f7;
        Option<Integer> f8;
        Option<Integer> f9;
        Option<Long> f10;
        Option<Float> f11;
        Option<Double> f12;
        Option<String> f13;
        Option<String> f14;
        Option<Long> f15;
        Option<Integer> f16;
        Option<Integer> f17;
        Option<String> f18;
        Option<String> f19;
        Option<String> f20;
    }

    /** OnlyStrings: twenty UUID strings. */
    final class OnlyStrings implements Data {
        @Serial
        private static final long serialVersionUID = 1L;

        Option<String> f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20;
    }

    /** OnlyLongs: twenty longs. */
    final class OnlyLongs implements Data {
        @Serial
        private static final long serialVersionUID = 1L;

        Option<Long> f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20;
    }
}
