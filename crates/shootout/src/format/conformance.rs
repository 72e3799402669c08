//! The checks every measured cell of the registry passes (run by
//! `registry::conformance_on::<workload>`, a test per workload): what holds for any format
//! on any workload. Facts about one format stay in that format's tests.

use std::io::Write;

use super::codec_tests::{assert_record_garbage_is_an_error, record_steady_state_allocations};
use super::{Access, Codec, DecodeStyle};
use crate::workload::{Dataset, Workload};

/// `C` on `dataset`: a round trip (twice through one codec, so reused buffers
/// are exercised), then bad input, which must be an error or a clean decode,
/// then the steady-state allocations, which must stay within the budget.
///
/// A lossy format runs on the records it can encode, and its decoded values
/// are not compared (its own tests compare what it carries exactly); every
/// record must still decode. An unchecked decoder is not given bad input: it
/// promises nothing about it (that is what its `UNCHECKED` label says).
pub fn check<W: Workload, C: Codec<W>>(dataset: Dataset<W>)
where
    W::Aggregate: std::fmt::Debug,
{
    // Named in the output, so a failing or panicking cell is plain to see.
    eprintln!("conformance: {} on {}", C::INFO.name, W::NAME);
    let dataset = if C::LABELS.lossy.is_none() {
        super::assert_round_trip::<W, C>(&dataset);
        dataset
    } else {
        let dataset = encodable::<W, C>(dataset);
        assert_eq!(decode_count::<W, C>(&dataset), dataset.order.len(), "{}", C::INFO.name);
        dataset
    };
    if let Some((.., why)) = GARBAGE_GAPS
        .iter()
        .find(|(format, workload, _)| *format == C::INFO.name && *workload == W::NAME)
    {
        // Past the test harness's capture (it takes only the print macros): a skip must show.
        let _ = writeln!(
            std::io::stderr().lock(),
            "conformance: SKIPPED bad input for {} on {}: {why}",
            C::INFO.name,
            W::NAME
        );
    } else if matches!(C::LABELS.access, Access::Validated) {
        assert_record_garbage_is_an_error::<W, C>(C::new(), &dataset);
    }
    assert_within_allocation_budget::<W, C>(&dataset);
}

/// (format, workload, why): cells whose decoders are known to misbehave on bad
/// input, found by this check and not fixed yet. Each is a bug to fix, not a
/// property of the format: the test prints every one it skips.
const GARBAGE_GAPS: &[(&str, &str, &str)] = &[(
    "flexbuffers",
    "primitives",
    "a flipped bit can make flexbuffers::from_slice allocate 8 GiB (abort, not an error)",
)];

/// The records of `dataset` that `C` can encode, each once, with their reference.
fn encodable<W: Workload, C: Codec<W>>(dataset: Dataset<W>) -> Dataset<W> {
    let mut codec = C::new();
    let mut stream = Vec::new();
    let records: Vec<W::Record> = dataset
        .records
        .into_iter()
        .filter(|record| codec.encode(record, &mut stream).is_ok())
        .collect();
    assert!(!records.is_empty(), "{} encodes none of the sample", C::INFO.name);
    let mut sink = W::new_sink(&dataset.reference);
    records.iter().for_each(|record| W::feed(record, &mut sink));
    Dataset::in_order(records, W::finish(sink), dataset.source)
}

/// How many records decoding the encoded `dataset` through `C` yields.
fn decode_count<W: Workload, C: Codec<W>>(dataset: &Dataset<W>) -> usize {
    let mut codec = C::new();
    let mut stream = Vec::new();
    for record in dataset.operations() {
        codec.encode(record, &mut stream).expect("encode");
    }
    let mut sink = W::new_sink(&dataset.reference);
    let (mut offset, mut records) = (0, 0);
    while offset < stream.len() {
        offset += codec.decode(&stream[offset..], &mut sink).expect("decode");
        records += 1;
    }
    records
}

/// The steady-state allocation budget, per record averaged over a sample, after
/// a warm-up pass (as the harness counts them: this thread's allocations while
/// encoding, then decoding, the whole window). Encoders reuse their buffers and
/// builders, so they allocate nothing; a zero-copy decode reads in place, so it
/// allocates nothing; an owned decode builds the record's heap values, which is
/// at most [`OWNED_DECODE_BUDGET`] on the samples.
const ENCODE_BUDGET: f64 = 0.0;
const ZERO_COPY_DECODE_BUDGET: f64 = 0.0;
/// The primitives sample's records average 13 Strings and Vecs, the most of any
/// workload's, and a decoder told no sequence length up front (JSON, BSON) grows
/// those Vecs by reallocating: 17 on that sample.
const OWNED_DECODE_BUDGET: f64 = 17.0;

#[derive(PartialEq)]
enum Direction {
    Encode,
    Decode,
}

/// (format, direction, allocations per record allowed, why): where the library
/// itself allocates in the steady state, whatever the integration does.
const ALLOCATION_EXCEPTIONS: &[(&str, Direction, f64, &str)] = &[
    (
        "capnp-unpacked",
        Direction::Encode,
        1.0,
        "capnp's message::Builder allocates its segment list per message and cannot be reset",
    ),
    (
        "capnp-packed",
        Direction::Encode,
        1.0,
        "capnp's message::Builder allocates its segment list per message and cannot be reset",
    ),
    (
        "flatbuffers-planus",
        Direction::Encode,
        5.0,
        "planus allocates a temporary Vec for every non-empty vector it writes",
    ),
    (
        "protobuf-prost",
        Direction::Encode,
        5.0,
        "a kept message's String is allocated afresh when a list or optional string grows",
    ),
    (
        "protobuf-buffa",
        Direction::Encode,
        5.0,
        "a kept message's String is allocated afresh when a list or optional string grows \
         (the owned messages are refilled as protobuf-prost's are)",
    ),
    (
        "protobuf-upb",
        Direction::Encode,
        1.0,
        "the protobuf crate's serialize() returns a new Vec per message (no call writes into a \
         caller's buffer); upb's own arena blocks come from C malloc, which is not counted",
    ),
    (
        "fory",
        Direction::Decode,
        27.0,
        "fory-core 1.7.7's deserialize allocates 10 times per root object whatever it holds \
         (measured on a struct of one empty Vec), besides the record's Strings and Vecs",
    ),
    (
        "thrift-binary",
        Direction::Encode,
        32.0,
        "the generated writer builds an owned String name for every struct and field it writes",
    ),
    (
        "thrift-compact",
        Direction::Encode,
        32.0,
        "the generated writer builds an owned String name for every struct and field it \
         writes, and the compact protocol a field-id stack per record",
    ),
];

/// Decodes that build a library's dynamic value tree (`jsonl`, `csv`) allocate for
/// every string, array and object in it: the sample's events hold about 50.
const VALUE_TREE_DECODE_BUDGET: f64 = 64.0;

fn budget<C: Codec<W>, W: Workload>(direction: Direction) -> f64 {
    let exception = ALLOCATION_EXCEPTIONS
        .iter()
        .find(|(format, d, ..)| *format == C::INFO.name && *d == direction);
    match (exception, direction) {
        (Some((.., allowed, _)), _) => *allowed,
        (None, Direction::Decode)
            if [crate::workload::jsonl::Jsonl::NAME, crate::workload::jsonl::Csv::NAME]
                .contains(&W::NAME) =>
        {
            VALUE_TREE_DECODE_BUDGET
        }
        (None, Direction::Encode) => ENCODE_BUDGET,
        (None, Direction::Decode) => match C::LABELS.decode {
            DecodeStyle::ZeroCopy => ZERO_COPY_DECODE_BUDGET,
            DecodeStyle::Owned => OWNED_DECODE_BUDGET,
        },
    }
}

fn assert_within_allocation_budget<W: Workload, C: Codec<W>>(dataset: &Dataset<W>) {
    let (encode, decode) = record_steady_state_allocations::<W, C>(dataset);
    let records = dataset.records.len() as f64;
    for (direction, what, count) in
        [(Direction::Encode, "encode", encode), (Direction::Decode, "decode", decode)]
    {
        let per_record = count as f64 / records;
        let allowed = budget::<C, W>(direction);
        assert!(
            per_record <= allowed,
            "{} on {}: {what} allocates {per_record:.2} per record in the steady state, over \
             its budget of {allowed} (conformance.rs: ALLOCATION_EXCEPTIONS)",
            C::INFO.name,
            W::NAME
        );
    }
}
