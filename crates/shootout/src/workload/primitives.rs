//! `primitives`: runs of bare values (ints, longs, doubles, booleans, short
//! strings): shootout's own, where the thin-client study's (IEP-75) JMH
//! primitives wrote one int (42) and one string ("Hello world")
//! (`shootout study ignite-iep75` runs those as it did).

use rand::RngExt;

use super::Dataset;
use super::fields::{FieldRecord, FieldSink, Fields, field_record};

field_record! {
    /// Fory: the number and bool runs are dense arrays (`#[fory(array)]`, as
    /// Java's `int[]`, `long[]`, `double[]`, `boolean[]`), not lists.
    pub struct Primitives {
        #[n(0)]
        #[fory(array)]
        pub ints: Vec<i32>,
        #[n(1)]
        #[fory(array)]
        pub longs: Vec<i64>,
        #[n(2)]
        #[fory(array)]
        pub doubles: Vec<f64>,
        #[n(3)]
        #[fory(array)]
        pub booleans: Vec<bool>,
        #[n(4)]
        pub strings: Vec<String>,
    }
}

impl FieldRecord for Primitives {
    const WORKLOAD: &'static str = "primitives";
    const FIELDS: &'static [&'static str] = &["ints", "longs", "doubles", "booleans", "strings"];

    fn visit(&self, sink: &mut FieldSink) {
        sink.record();
        self.ints.iter().for_each(|&v| sink.int(0, i64::from(v)));
        self.longs.iter().for_each(|&v| sink.int(1, v));
        self.doubles.iter().for_each(|&v| sink.float(2, v));
        self.booleans.iter().for_each(|&v| sink.bool(3, v));
        self.strings.iter().for_each(|v| sink.text(4, v.as_bytes()));
    }
}

pub type PrimitivesWorkload = Fields<Primitives>;

pub const POOL: usize = 1_000;
/// Values of each type per record.
pub const RUN: usize = 8;

pub fn generate(operations: usize, seed: u64) -> Dataset<PrimitivesWorkload> {
    let source = format!(
        "generated: {POOL} records of {RUN} values per type, {operations} random picks, seed {seed}"
    );
    Dataset::from_pool(seed, POOL, operations, source, |r| Primitives {
        ints: (0..RUN).map(|_| r.rng().random()).collect(),
        longs: (0..RUN).map(|_| r.rng().random()).collect(),
        doubles: (0..RUN).map(|_| r.rng().random_range(-1e9..1e9)).collect(),
        booleans: (0..RUN).map(|_| r.rng().random()).collect(),
        strings: (0..RUN)
            .map(|_| {
                let len = r.rng().random_range(1..=12);
                r.alnum(len)
            })
            .collect(),
    })
}

/// Generated records plus empty runs and extreme values.
#[cfg(test)]
pub fn sample() -> Dataset<PrimitivesWorkload> {
    let empty = Primitives {
        ints: vec![],
        longs: vec![],
        doubles: vec![],
        booleans: vec![],
        strings: vec![],
    };
    let extreme = Primitives {
        ints: vec![i32::MIN, i32::MAX, 0, -1],
        longs: vec![i64::MIN, i64::MAX],
        doubles: vec![f64::MAX, f64::MIN_POSITIVE, -0.0, 5e-324, 1.0 / 3.0],
        booleans: vec![true, false],
        strings: vec![String::new(), "ü".into(), "x".repeat(70)],
    };
    generate(40, 3).with_edges([empty, extreme], [POOL as u32, POOL as u32 + 1, 7])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregate_counts_every_value_and_the_true_booleans() {
        let dataset = generate(300, 2);
        let picked = || dataset.order.iter().map(|&i| &dataset.records[i as usize]);
        let agg = &dataset.reference;
        for field in Primitives::FIELDS {
            assert_eq!(agg.fields[field].present, 300 * RUN as u64, "{field}");
        }
        let trues = picked().flat_map(|p| &p.booleans).filter(|b| **b).count() as i64;
        assert_eq!(agg.fields["booleans"].int_sum, trues);
        let longs = picked().flat_map(|p| &p.longs).fold(0i64, |a, b| a.wrapping_add(*b));
        assert_eq!(agg.fields["longs"].int_sum, longs);
    }
}
