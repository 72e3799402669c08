//! The aggregate shared by the record-shaped workloads (user, sql, primitives,
//! object, mixed, strings, longs): per field, how many values were present,
//! the sum of its numbers, and a hash of its text. Every format must reproduce
//! it exactly, so a dropped field, a rounded float or a mangled string shows.

use std::collections::BTreeMap;
use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::random::Random;
use super::{Dataset, SerdeWorkload, Workload};

/// What one field added up to. Integers and booleans go to `int_sum`
/// (wrapping); floats to `float_sum` and `float_bits`, a wrapping sum of their
/// bit patterns, because a one-ulp error vanishes in a float sum but not there;
/// text to `text_bytes` and `text_hash` (a wrapping sum of per-value hashes).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct FieldStats {
    pub present: u64,
    pub int_sum: i64,
    pub float_sum: f64,
    pub float_bits: u64,
    pub text_bytes: u64,
    pub text_hash: u64,
}

/// Floats compare by bit pattern, so a NaN sum equals the same NaN: a derived
/// `PartialEq` would report identical figures as a difference.
impl PartialEq for FieldStats {
    fn eq(&self, other: &Self) -> bool {
        let key = |s: &Self| {
            (s.present, s.int_sum, s.float_sum.to_bits(), s.float_bits, s.text_bytes, s.text_hash)
        };
        key(self) == key(other)
    }
}

impl Eq for FieldStats {}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FieldAggregate {
    pub records: u64,
    pub fields: BTreeMap<&'static str, FieldStats>,
}

/// Receives decoded values by field position (an index into `FieldRecord::FIELDS`).
#[derive(Debug)]
pub struct FieldSink {
    records: u64,
    fields: Vec<FieldStats>,
}

impl FieldSink {
    pub fn new(fields: usize) -> Self {
        FieldSink { records: 0, fields: vec![FieldStats::default(); fields] }
    }

    #[inline]
    pub fn record(&mut self) {
        self.records += 1;
    }

    #[inline]
    pub fn int(&mut self, field: usize, value: i64) {
        let f = &mut self.fields[field];
        f.present += 1;
        f.int_sum = f.int_sum.wrapping_add(value);
    }

    #[inline]
    pub fn bool(&mut self, field: usize, value: bool) {
        self.int(field, i64::from(value));
    }

    #[inline]
    pub fn float(&mut self, field: usize, value: f64) {
        let f = &mut self.fields[field];
        f.present += 1;
        f.float_sum += value;
        f.float_bits = f.float_bits.wrapping_add(value.to_bits());
    }

    #[inline]
    pub fn text(&mut self, field: usize, value: &[u8]) {
        let f = &mut self.fields[field];
        f.present += 1;
        f.text_bytes += value.len() as u64;
        f.text_hash = f.text_hash.wrapping_add(text_hash(value));
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a over 64-bit little-endian words (the last one zero-padded), then the
/// length: a hash any language computes the same in a few lines
/// (docs/dataset-format.md), eight bytes a step.
pub fn text_hash(value: &[u8]) -> u64 {
    let mut chunks = value.chunks_exact(8);
    let mut hash = FNV_OFFSET;
    for chunk in &mut chunks {
        hash =
            (hash ^ u64::from_le_bytes(chunk.try_into().expect("8 bytes"))).wrapping_mul(FNV_PRIME);
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        let mut word = [0u8; 8];
        word[..tail.len()].copy_from_slice(tail);
        hash = (hash ^ u64::from_le_bytes(word)).wrapping_mul(FNV_PRIME);
    }
    (hash ^ value.len() as u64).wrapping_mul(FNV_PRIME)
}

/// Declares a record type of a field-aggregated workload with every derive the
/// serde- and derive-based formats need: adding such a format means adding its
/// derive here, once, for all record types.
macro_rules! field_record {
    ($($item:tt)*) => {
        $crate::workload::derive_libraries! {
            [
                Clone,
                PartialEq,
                ::bincode::Encode,
                ::bincode::Decode,
                ::bitcode::Decode,
                ::minicbor::Encode,
                ::minicbor::Decode,
                ::speedy::Readable,
                ::simd_json_derive::Serialize,
                ::simd_json_derive::Deserialize,
                ::wincode::SchemaRead,
                ::musli::Decode,
                ::fory::ForyStruct,
                ::zerompk::FromMessagePack,
            ]
            $($item)*
        }
    };
}
pub(crate) use field_record;

/// A record type of a field-aggregated workload.
pub trait FieldRecord: Sync + 'static {
    const WORKLOAD: &'static str;
    /// Field names, in the positions `visit` reports them at.
    const FIELDS: &'static [&'static str];
    /// Feeds every present value to the sink (and calls `sink.record()` once).
    fn visit(&self, sink: &mut FieldSink);
}

/// The workload of records of type `R`.
pub struct Fields<R>(PhantomData<R>);

impl<R: FieldRecord> Workload for Fields<R> {
    const NAME: &'static str = R::WORKLOAD;
    const FIELDS: &'static [&'static str] = R::FIELDS;
    type Record = R;
    type Sink = FieldSink;
    type Aggregate = FieldAggregate;

    fn new_sink(_reference: &FieldAggregate) -> FieldSink {
        FieldSink::new(R::FIELDS.len())
    }

    fn feed(record: &R, sink: &mut FieldSink) {
        record.visit(sink);
    }

    fn finish(sink: FieldSink) -> FieldAggregate {
        FieldAggregate {
            records: sink.records,
            fields: R::FIELDS.iter().copied().zip(sink.fields).collect(),
        }
    }

    fn non_finite_field(record: &R) -> Option<&'static str> {
        let mut sink = FieldSink::new(R::FIELDS.len());
        record.visit(&mut sink);
        R::FIELDS
            .iter()
            .zip(&sink.fields)
            .find(|(_, f)| f.present > 0 && !f.float_sum.is_finite())
            .map(|(name, _)| *name)
    }

    fn first_difference(expected: &FieldAggregate, actual: &FieldAggregate) -> Option<String> {
        if expected.records != actual.records {
            return Some(format!(
                "expected {} records, decoded {}",
                expected.records, actual.records
            ));
        }
        expected.fields.iter().find_map(|(name, want)| match actual.fields.get(name) {
            Some(got) if got == want => None,
            got => Some(format!("field {name}: expected {want:?}, decoded {got:?}")),
        })
    }
}

/// Serde codecs decode the owned record (strings copied), as a default serde user does.
impl<R: FieldRecord + Serialize + DeserializeOwned> SerdeWorkload for Fields<R> {
    type View<'a> = R;

    fn aggregate(record: &R, sink: &mut FieldSink) {
        record.visit(sink);
    }
}

/// The reference aggregate of `records` taken in `order`, straight from the values.
pub fn reference<R: FieldRecord>(records: &[R], order: &[u32]) -> FieldAggregate {
    let mut sink = FieldSink::new(R::FIELDS.len());
    for &i in order {
        records[i as usize].visit(&mut sink);
    }
    <Fields<R> as Workload>::finish(sink)
}

impl<R: FieldRecord> Dataset<Fields<R>> {
    /// `records` taken in `order`, with their reference aggregate.
    pub fn of_records(records: Vec<R>, order: Vec<u32>, source: String) -> Self {
        let reference = reference(&records, &order);
        Dataset { records, order, reference, source }
    }

    /// A generated workload: a pool of `pool` records made by `record` from
    /// `seed`'s random values, then `operations` picks from it uniformly at
    /// random, so no cache is flattered by sequential access.
    pub(super) fn from_pool(
        seed: u64,
        pool: usize,
        operations: usize,
        source: String,
        mut record: impl FnMut(&mut Random) -> R,
    ) -> Self {
        let mut random = Random::new(seed);
        let records = (0..pool).map(|_| record(&mut random)).collect();
        let order = random.picks(pool, operations);
        Self::of_records(records, order, source)
    }

    /// A workload's test sample: this dataset with `edges` after its records
    /// and `operations` (indices into all of them) after its own.
    #[cfg(test)]
    pub(super) fn with_edges(
        mut self,
        edges: impl IntoIterator<Item = R>,
        operations: impl IntoIterator<Item = u32>,
    ) -> Self {
        self.records.extend(edges);
        self.order.extend(operations);
        self.reference = reference(&self.records, &self.order);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Pair {
        n: Option<i64>,
        s: String,
    }

    impl FieldRecord for Pair {
        const WORKLOAD: &'static str = "pair";
        const FIELDS: &'static [&'static str] = &["n", "s"];
        fn visit(&self, sink: &mut FieldSink) {
            sink.record();
            if let Some(n) = self.n {
                sink.int(0, n);
            }
            sink.text(1, self.s.as_bytes());
        }
    }

    struct Float(f64);

    impl FieldRecord for Float {
        const WORKLOAD: &'static str = "float";
        const FIELDS: &'static [&'static str] = &["x"];
        fn visit(&self, sink: &mut FieldSink) {
            sink.record();
            sink.float(0, self.0);
        }
    }

    /// spec/vectors.json's `text_hash`: texts every language's hash must agree on.
    #[derive(serde::Deserialize)]
    struct Spec {
        text_hash: TextHashVectors,
    }

    #[derive(serde::Deserialize)]
    struct TextHashVectors {
        vectors: Vec<TextHashVector>,
    }

    #[derive(serde::Deserialize)]
    struct TextHashVector {
        text: String,
        utf8_bytes: usize,
        /// A decimal string: a u64 does not survive every language's JSON numbers.
        hash: String,
    }

    #[test]
    fn text_hash_gives_every_vector_of_the_spec() {
        let spec: Spec = serde_json::from_str(include_str!("../../../../spec/vectors.json"))
            .expect("spec/vectors.json has text_hash vectors");
        assert!(!spec.text_hash.vectors.is_empty());
        for vector in spec.text_hash.vectors {
            let bytes = vector.text.as_bytes();
            assert_eq!(bytes.len(), vector.utf8_bytes, "{:?}", vector.text);
            assert_eq!(text_hash(bytes).to_string(), vector.hash, "{:?}", vector.text);
        }
    }

    #[test]
    fn a_one_ulp_error_shows_even_where_the_sum_hides_it() {
        let exact = [Float(1e10), Float(1e8 + 0.5)];
        let off = [Float(1e10), Float(f64::from_bits((1e8 + 0.5f64).to_bits() + 1))];
        let (a, b) = (reference(&exact, &[0, 1]), reference(&off, &[0, 1]));
        assert_eq!(a.fields["x"].float_sum, b.fields["x"].float_sum, "the sum alone hides it");
        assert!(<Fields<Float> as Workload>::first_difference(&a, &b).is_some());
    }

    #[test]
    fn identical_nan_sums_are_equal_and_differing_nans_are_not() {
        let nan = |bits| [Float(f64::from_bits(bits))];
        let (quiet, other) = (f64::NAN.to_bits(), f64::NAN.to_bits() | 1);
        let a = reference(&nan(quiet), &[0]);
        assert!(a.fields["x"].float_sum.is_nan());
        assert_eq!(
            <Fields<Float> as Workload>::first_difference(&a, &reference(&nan(quiet), &[0])),
            None
        );
        assert!(
            <Fields<Float> as Workload>::first_difference(&a, &reference(&nan(other), &[0]))
                .is_some()
        );
    }

    #[test]
    fn counts_sums_and_hashes_per_field_and_names_the_first_difference() {
        let records = [Pair { n: Some(5), s: "ab".into() }, Pair { n: None, s: "c".into() }];
        let expected = reference(&records, &[0, 1, 1]);
        assert_eq!(expected.records, 3);
        assert_eq!(expected.fields["n"].present, 1);
        assert_eq!(expected.fields["n"].int_sum, 5);
        assert_eq!(expected.fields["s"].text_bytes, 4);

        let swapped = [Pair { n: Some(5), s: "ab".into() }, Pair { n: None, s: "d".into() }];
        let actual = reference(&swapped, &[0, 1, 1]);
        let diff = <Fields<Pair> as Workload>::first_difference(&expected, &actual).unwrap();
        assert!(diff.starts_with("field s:"), "{diff}");
        assert_eq!(<Fields<Pair> as Workload>::first_difference(&expected, &expected), None);
    }
}
