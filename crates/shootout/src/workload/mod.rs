//! Workloads: the records a benchmark serializes and the aggregate that proves a
//! format decoded them correctly. One workload = one module here.

pub mod iex;

use serde::Serialize;

/// A data set shape. The harness is generic over it; formats implement
/// [`crate::format::Codec`] for each workload they can express.
pub trait Workload: 'static {
    const NAME: &'static str;
    /// One unit of encoding work (one timing sample).
    type Record;
    /// Receives decoded values during the decode pass; formats call its methods.
    type Sink;
    /// What the sink adds up to; every format must produce the reference one.
    type Aggregate: PartialEq + Serialize;

    fn new_sink(reference: &Self::Aggregate) -> Self::Sink;
    fn finish(sink: Self::Sink) -> Self::Aggregate;
    /// A one-line description of the first difference, or `None` when equal.
    fn first_difference(expected: &Self::Aggregate, actual: &Self::Aggregate) -> Option<String>;
}

/// Records plus the aggregate computed straight from the source, not via any format.
pub struct Dataset<W: Workload> {
    pub records: Vec<W::Record>,
    pub reference: W::Aggregate,
    /// Where the records came from, for the results ("DEEP10.pcap.gz", "generated: seed 1, 20000 packets").
    pub source: String,
}
