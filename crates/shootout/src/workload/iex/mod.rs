//! The classic IEX market-data shootout: packets from a DEEP or TOPS capture,
//! aggregated per symbol.

pub mod aggregate;
pub mod ingest;
pub mod record;
pub mod view;

pub use aggregate::{Aggregate, Aggregator, SymbolStats};
pub use record::{Body, Message, MultiMessage, Side};

use super::{SerdeWorkload, Workload};

pub struct Iex;

impl Workload for Iex {
    const NAME: &'static str = "iex";
    type Record = MultiMessage;
    type Sink = Aggregator;
    type Aggregate = Aggregate;

    fn new_sink(reference: &Aggregate) -> Aggregator {
        Aggregator::with_capacity(reference.symbols.len())
    }

    fn finish(sink: Aggregator) -> Aggregate {
        sink.finish()
    }

    fn first_difference(expected: &Aggregate, actual: &Aggregate) -> Option<String> {
        aggregate::first_difference(expected, actual)
    }
}

/// Serde codecs read the borrowed view: symbols point into the input.
impl SerdeWorkload for Iex {
    type View<'a> = view::MultiMessageView<'a>;

    fn aggregate(view: &view::MultiMessageView<'_>, sink: &mut Aggregator) {
        view.aggregate_into(sink);
    }
}

/// Hand-made records covering the edges a codec can get wrong: both bodies and
/// sides, zero sizes, extreme values, 1- and 8-byte symbols, an empty packet.
#[cfg(test)]
pub fn sample_dataset() -> super::Dataset<Iex> {
    let message = |ts, symbol: &str, body| Message { ts, symbol: symbol.to_owned(), body };
    let records = vec![
        MultiMessage {
            seq_no: 1,
            messages: vec![
                message(1_500_000_000_000_000_000, "MSFT", Body::Trade { price: 650_100, size: 100 }),
                message(1_500_000_000_000_000_001, "MSFT", Body::LevelUpdate { price: 650_000, size: 0, flags: 1, side: Side::Buy }),
            ],
        },
        MultiMessage { seq_no: 2, messages: vec![] },
        MultiMessage {
            seq_no: u64::MAX,
            messages: vec![
                message(i64::MIN, "A", Body::LevelUpdate { price: u64::MAX >> 1, size: u32::MAX, flags: 0xff, side: Side::Sell }),
                message(i64::MAX, "ZZZZZZZZ", Body::Trade { price: 0, size: u32::MAX }),
                message(0, "A", Body::LevelUpdate { price: 1, size: 7, flags: 0, side: Side::Sell }),
                message(-1, "MSFT", Body::LevelUpdate { price: 700_000, size: 3, flags: 0, side: Side::Buy }),
            ],
        },
    ];
    let mut reference = Aggregator::default();
    for record in &records {
        record.aggregate_into(&mut reference);
    }
    super::Dataset::in_order(records, reference.finish(), "hand-made sample".into())
}
