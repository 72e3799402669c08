//! The checks every measured cell of the registry passes (run by
//! `registry::tests::every_measured_cell_conforms`): what holds for any format
//! on any workload. Facts about one format stay in that format's tests.

use std::io::Write;

use super::codec_tests::assert_record_garbage_is_an_error;
use super::{Access, Codec};
use crate::workload::{Dataset, Workload};

/// `C` on `dataset`: a round trip (twice through one codec, so reused buffers
/// are exercised), then bad input, which must be an error or a clean decode.
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
        assert_eq!(
            decode_count::<W, C>(&dataset),
            dataset.order.len(),
            "{}",
            C::INFO.name
        );
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
        assert_record_garbage_is_an_error::<W, C>(&dataset);
    }
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
    assert!(
        !records.is_empty(),
        "{} encodes none of the sample",
        C::INFO.name
    );
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
