//! Workloads: the records a benchmark serializes and the aggregate that proves a
//! format decoded them correctly. One workload = one module here.

pub mod fields;
pub mod iex;
pub mod jsonl;
pub mod object;
pub mod primitives;
mod random;
pub mod sql;
pub mod tabular;
pub mod user;

use serde::{Deserialize, Serialize};

/// Derives on each item serde's traits and the writer of every derive-based
/// format library (bitcode, borsh, rkyv, speedy, wincode, musli, zerompk), then the
/// derives listed in brackets: the readers a type can derive, more libraries'
/// for the types that run on them, and bincode's, which must be written where
/// the type is (its derive binds an enum's fields with the derive attribute's
/// span, which a macro's hygiene would part from the fields'). A new derive
/// library is one line here, for every record type at once.
macro_rules! derive_libraries {
    // Items as token trees, not `item` fragments: derives such as bincode's
    // name fields with the spans they are given, which an `item` fragment hides.
    (@one [$($more:path),* $(,)?] $($item:tt)*) => {
        #[derive(
            Debug,
            ::serde::Serialize,
            ::serde::Deserialize,
            ::bitcode::Encode,
            ::borsh::BorshSerialize,
            ::borsh::BorshDeserialize,
            ::rkyv::Archive,
            ::rkyv::Serialize,
            ::rkyv::Deserialize,
            ::speedy::Writable,
            ::wincode::SchemaWrite,
            ::musli::Encode,
            ::zerompk::ToMessagePack,
            $($more),*
        )]
        $($item)*
    };
    ($more:tt $($(#[$($attr:tt)*])* $vis:vis $kind:ident $name:ident $body:tt)*) => {
        $($crate::workload::derive_libraries!(@one $more $(#[$($attr)*])* $vis $kind $name $body);)*
    };
}
pub(crate) use derive_libraries;

/// A data set shape. The harness is generic over it; formats implement
/// [`crate::format::Codec`] for each workload they can express.
pub trait Workload: 'static {
    const NAME: &'static str;
    /// The aggregate's field names, in order (none for workloads folded otherwise).
    const FIELDS: &'static [&'static str] = &[];
    /// Why its records' types are known only at run time, for a workload
    /// whose are (`None`: they are Rust types, known when shootout is built).
    /// It decides which formats can run it (`catalog::registry`).
    const TYPED_AT_RUN_TIME: Option<&'static str> = None;
    /// One unit of encoding work (one timing sample).
    /// `Sync`: an input held in memory is read from several threads at once.
    type Record: Sync;
    /// Receives decoded values during the decode pass; formats call its methods.
    type Sink;
    /// What the sink adds up to; every format must produce the reference one.
    /// `Sync`: the validation pass's threads check against one reference.
    type Aggregate: PartialEq + Serialize + Default + Clone + Sync;

    fn new_sink(reference: &Self::Aggregate) -> Self::Sink;
    /// Feeds one record's values to the sink straight from the record, with no
    /// format in between: the baseline's decode, and the reference of generated data.
    fn feed(record: &Self::Record, sink: &mut Self::Sink);
    fn finish(sink: Self::Sink) -> Self::Aggregate;
    /// A one-line description of the first difference, or `None` when equal.
    fn first_difference(expected: &Self::Aggregate, actual: &Self::Aggregate) -> Option<String>;
    /// The first field of `record` holding a NaN or infinite float, which JSON cannot carry.
    fn non_finite_field(_record: &Self::Record) -> Option<&'static str> {
        None
    }
    /// Appends the record's line of the dataset hand-off (docs/dataset-format.md):
    /// its serde JSON, unless the workload writes its records otherwise.
    fn handoff_line(record: &Self::Record, out: &mut Vec<u8>)
    where
        Self::Record: Serialize,
    {
        serde_json::to_writer(out, record).expect("a record serializes to JSON");
    }
}

/// A workload whose records go through serde: encoders serialize `Record`;
/// decoders deserialize a `View` (borrowing from the input where the type
/// allows) and hand it to `aggregate`. One serde codec impl then serves every
/// such workload.
pub trait SerdeWorkload: Workload<Record: Serialize> {
    type View<'a>: Deserialize<'a>;
    fn aggregate(view: &Self::View<'_>, sink: &mut Self::Sink);
}

/// Records plus the aggregate computed straight from the source, not via any format.
pub struct Dataset<W: Workload> {
    pub records: Vec<W::Record>,
    /// The operations: indices into `records`, each one record encoded (and later
    /// decoded). Captures and CSV files run in file order; generated workloads pick
    /// pseudo-randomly from a pool, so no cache is flattered by sequential access.
    pub order: Vec<u32>,
    pub reference: W::Aggregate,
    /// Where the records came from, for the results ("DEEP10.pcap.gz", "generated: seed 1, 20000 packets").
    pub source: String,
}

impl<W: Workload> Dataset<W> {
    /// Every record once, in order.
    pub fn in_order(records: Vec<W::Record>, reference: W::Aggregate, source: String) -> Self {
        let order = (0..records.len() as u32).collect();
        Dataset { records, order, reference, source }
    }

    /// The records in operation order.
    pub fn operations(&self) -> impl Iterator<Item = &W::Record> {
        self.order.iter().map(|&i| &self.records[i as usize])
    }
}
