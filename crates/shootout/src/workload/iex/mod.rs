//! The classic IEX market-data shootout: packets from a DEEP or TOPS capture,
//! aggregated per symbol.

pub mod aggregate;
pub mod record;
pub mod view;
pub mod wire;

pub use aggregate::{Aggregate, Aggregator, SymbolStats};
pub use record::{Body, Message, MultiMessage, Side};

use super::Workload;

pub struct Iex;

impl Workload for Iex {
    const NAME: &'static str = "iex";
    type Record = MultiMessage;
    type Sink = Aggregator;
    type Aggregate = Aggregate;

    fn new_sink(reference: &Aggregate) -> Aggregator {
        Aggregator::with_capacity(reference.symbols.len())
    }

    fn feed(record: &MultiMessage, sink: &mut Aggregator) {
        record.aggregate_into(sink);
    }

    fn finish(sink: Aggregator) -> Aggregate {
        sink.finish()
    }

    fn first_difference(expected: &Aggregate, actual: &Aggregate) -> Option<String> {
        aggregate::first_difference(expected, actual)
    }
}

/// Hand-made records covering the edges a codec can get wrong: both bodies and
/// sides, zero sizes, extreme values, 1- and 8-byte symbols, an empty packet,
/// and symbols any of the wire's 256 byte values may produce (read as Latin-1):
/// JSON's quote and backslash, a control byte, chars U+0080-U+00FF.
#[cfg(test)]
pub fn sample_dataset() -> super::Dataset<Iex> {
    let message = |ts, symbol: &str, body| Message { ts, symbol: symbol.to_owned(), body };
    let records = vec![
        MultiMessage {
            seq_no: 1,
            messages: vec![
                message(
                    1_500_000_000_000_000_000,
                    "MSFT",
                    Body::Trade { price: 650_100, size: 100 },
                ),
                message(
                    1_500_000_000_000_000_001,
                    "MSFT",
                    Body::LevelUpdate { price: 650_000, size: 0, flags: 1, side: Side::Buy },
                ),
            ],
        },
        MultiMessage { seq_no: 2, messages: vec![] },
        MultiMessage {
            seq_no: u64::MAX,
            messages: vec![
                message(
                    i64::MIN,
                    "A",
                    Body::LevelUpdate {
                        price: u64::MAX >> 1,
                        size: u32::MAX,
                        flags: 0xff,
                        side: Side::Sell,
                    },
                ),
                message(i64::MAX, "ZZZZZZZZ", Body::Trade { price: 0, size: u32::MAX }),
                message(
                    0,
                    "A",
                    Body::LevelUpdate { price: 1, size: 7, flags: 0, side: Side::Sell },
                ),
                message(
                    -1,
                    "MSFT",
                    Body::LevelUpdate { price: 700_000, size: 3, flags: 0, side: Side::Buy },
                ),
            ],
        },
        MultiMessage {
            seq_no: 3,
            messages: vec![
                message(5, "A\"B", Body::Trade { price: 10, size: 1 }),
                message(
                    6,
                    "C\\D",
                    Body::LevelUpdate { price: 20, size: 2, flags: 0x40, side: Side::Buy },
                ),
                message(7, "E\u{1}\u{7f}F", Body::Trade { price: 30, size: 3 }),
                message(
                    8,
                    "\u{e9}T\u{e9}\u{80}",
                    Body::LevelUpdate { price: 40, size: 4, flags: 0x80, side: Side::Sell },
                ),
                message(
                    9,
                    "\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}",
                    Body::Trade { price: 50, size: 5 },
                ),
            ],
        },
    ];
    let mut reference = Aggregator::default();
    for record in &records {
        record.aggregate_into(&mut reference);
    }
    super::Dataset::in_order(records, reference.finish(), "hand-made sample".into())
}
