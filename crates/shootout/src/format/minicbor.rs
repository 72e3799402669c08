//! CBOR through `minicbor`'s own (non-serde) `Encode`/`Decode` derives.
//!
//! The derives need `#[n(..)]` indices on the types, and the shared record types
//! carry none, so this module derives them on mirror types: [`MessageCbor`]
//! borrows the symbol (`&str`) and is used both ways, built on the stack from a
//! `Message` for encode (no string is copied) and decoded zero-copy from the
//! input (`#[b(..)]`). Structs use minicbor's default array layout (fields by
//! position, no names); `Body` is `#[cbor(flat)]` (`[variant, fields..]`) and
//! `Side` `#[cbor(index_only)]` (just the variant index).
//!
//! The record envelope is written and read by hand with the `Encoder`/`Decoder`
//! API, in exactly the layout a derived `{ #[n(0)] seq_no: u64, #[n(1)]
//! messages: Vec<MessageCbor> }` has (a test checks this), so that decode can
//! walk the message array with `Decoder::array_iter` and feed each message to
//! the sink without collecting a `Vec`. A CBOR item is self-delimiting: records
//! are back to back and the decoder's position is the bytes consumed. Neither
//! direction allocates.

use anyhow::{Context, Result, ensure};
use minicbor::{Decode, Decoder, Encode, Encoder};

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::{Aggregator, Body, Iex, Message, MultiMessage, Side};

/// A `Message` with minicbor's derives; the symbol is borrowed both ways.
#[derive(Debug, PartialEq, Encode, Decode)]
struct MessageCbor<'a> {
    #[n(0)]
    ts: i64,
    #[b(1)]
    symbol: &'a str,
    #[n(2)]
    body: BodyCbor,
}

#[derive(Debug, Clone, Copy, PartialEq, Encode, Decode)]
#[cbor(flat)]
enum BodyCbor {
    #[n(0)]
    Trade {
        #[n(0)]
        price: u64,
        #[n(1)]
        size: u32,
    },
    #[n(1)]
    LevelUpdate {
        #[n(0)]
        price: u64,
        #[n(1)]
        size: u32,
        #[n(2)]
        flags: u8,
        #[n(3)]
        side: SideCbor,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Encode, Decode)]
#[cbor(index_only)]
enum SideCbor {
    #[n(0)]
    Buy,
    #[n(1)]
    Sell,
}

impl<'a> From<&'a Message> for MessageCbor<'a> {
    #[inline]
    fn from(m: &'a Message) -> Self {
        let body = match m.body {
            Body::Trade { price, size } => BodyCbor::Trade { price, size },
            Body::LevelUpdate { price, size, flags, side } => BodyCbor::LevelUpdate {
                price,
                size,
                flags,
                side: match side {
                    Side::Buy => SideCbor::Buy,
                    Side::Sell => SideCbor::Sell,
                },
            },
        };
        MessageCbor { ts: m.ts, symbol: &m.symbol, body }
    }
}

/// Fields in the envelope array: `seq_no`, `messages`.
const ENVELOPE_LEN: u64 = 2;

pub struct CborMinicbor;

impl Format for CborMinicbor {
    const INFO: FormatInfo = FormatInfo {
        name: "cbor-minicbor",
        family: Family::Format(&features::CBOR),
        library: "minicbor",
        labels: Labels::OWNED_NATIVE,
        notes: "minicbor's own Encode/Decode derives (no serde) on mirror types in the codec \
                module, since the shared record types carry no #[n] indices: a message is \
                MessageCbor {ts, symbol: &str, body}, built on the stack from the record for \
                encode (no string copied) and decoded borrowing the symbol from the input (#[b]). \
                minicbor's default layout: structs as arrays of fields by index, no names; Body \
                #[cbor(flat)] ([variant, fields..]), Side #[cbor(index_only)]. The envelope \
                [seq_no, [messages..]] is written and read by hand with Encoder/Decoder, \
                byte-identical to a derived {#[n(0)] seq_no, #[n(1)] messages: Vec<..>}, so \
                decode reads the messages' array length, then decodes and feeds each to the sink \
                without collecting a Vec. No framing: CBOR items are self-delimiting and the \
                decoder's position is the bytes consumed. Encode writes straight into the \
                stream. Neither direction allocates; each message is decoded into a stack \
                value (hence 'owned' by the label's rule, though nothing is heap-allocated). \
                Record-shaped workloads: the derives with #[n] indices on the record types \
                themselves (arrays of fields by position; absent Option = null), decoded owned \
                (one allocation per String, Vecs grow as they are read) then visited.",
        wire: Some("cbor-array"),
        framing: Framing::None,
    };
}

impl Codec<Iex> for CborMinicbor {
    fn new() -> Self {
        CborMinicbor
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        let start = stream.len();
        let mut e = Encoder::new(&mut *stream);
        let written = (|| {
            e.array(ENVELOPE_LEN)?.u64(record.seq_no)?.array(record.messages.len() as u64)?;
            for m in &record.messages {
                e.encode(MessageCbor::from(m))?;
            }
            Ok::<_, minicbor::encode::Error<_>>(())
        })();
        written.inspect_err(|_| stream.truncate(start)).context("cbor: encode")
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let mut d = Decoder::new(stream);
        let fields = d.array().context("cbor: record")?;
        ensure!(
            fields == Some(ENVELOPE_LEN),
            "cbor: a record is an array of {ENVELOPE_LEN}, found {fields:?}"
        );
        let seq_no = d.u64().context("cbor: seq_no")?;
        // The encoder writes a definite length; the sink takes the count up front.
        let count =
            d.array().context("cbor: messages")?.context("cbor: messages of indefinite length")?;
        sink.packet(seq_no, count as usize);
        for _ in 0..count {
            let m: MessageCbor<'_> = d.decode().context("cbor: message")?;
            let (ts, symbol) = (m.ts, m.symbol.as_bytes());
            match m.body {
                BodyCbor::Trade { price, size } => sink.trade(ts, symbol, price, size),
                BodyCbor::LevelUpdate { price, size, flags, side } => {
                    let side = match side {
                        SideCbor::Buy => Side::Buy,
                        SideCbor::Sell => Side::Sell,
                    };
                    sink.level_update(ts, symbol, side, flags, price, size);
                }
            }
        }
        Ok(d.position())
    }
}

/// The record-shaped workloads: minicbor's derives on the record types
/// themselves (`#[n(..)]` indices: arrays of fields by position, an absent
/// `Option` as null), encoded straight into the stream and decoded owned
/// (strings copied), then visited.
impl<R> Codec<Fields<R>> for CborMinicbor
where
    R: FieldRecord + Encode<()> + for<'b> Decode<'b, ()>,
{
    fn new() -> Self {
        CborMinicbor
    }

    fn encode(&mut self, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        let start = stream.len();
        let written = Encoder::new(&mut *stream).encode(record).map(|_| ());
        written.inspect_err(|_| stream.truncate(start)).context("cbor: encode")
    }

    fn decode(&mut self, stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        let mut d = Decoder::new(stream);
        let record: R = d.decode().context("cbor: decode")?;
        record.visit(sink);
        Ok(d.position())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::format::codec_tests::{assert_garbage_is_an_error, assert_steady_state_allocations};
    use crate::workload::iex::sample_dataset;

    #[test]
    fn round_trips() {
        assert_round_trip::<Iex, CborMinicbor>(&sample_dataset());
    }

    /// What deriving the whole record would give; the hand-written envelope must match it.
    #[derive(Debug, PartialEq, Encode, Decode)]
    struct MultiMessageCbor<'a> {
        #[n(0)]
        seq_no: u64,
        #[b(1)]
        messages: Vec<MessageCbor<'a>>,
    }

    #[test]
    fn envelope_matches_the_derived_layout() {
        for record in sample_dataset().records {
            let mut stream = Vec::new();
            Codec::<Iex>::encode(&mut CborMinicbor, &record, &mut stream).unwrap();
            let derived = MultiMessageCbor {
                seq_no: record.seq_no,
                messages: record.messages.iter().map(MessageCbor::from).collect(),
            };
            assert_eq!(stream, minicbor::to_vec(&derived).unwrap());
            let back: MultiMessageCbor<'_> = minicbor::decode(&stream).unwrap();
            assert_eq!(back, derived);
        }
    }

    #[test]
    fn garbage_is_an_error() {
        assert_garbage_is_an_error::<CborMinicbor>(&sample_dataset().records);
    }

    /// Steady state: neither direction allocates.
    #[test]
    fn allocations_per_record() {
        let records = sample_dataset().records;
        assert_steady_state_allocations::<CborMinicbor>(&records, (0, 0));
    }
}
