//! DBN (Databento Binary Encoding) through Databento's `dbn` crate: a packet's
//! messages as DBN version 3 records, the fixed-size C-layout structs the
//! crate defines, read in place. iex only: DBN is a market-data encoding.
//!
//! One record is one frame: a u32 LE length, then DBN records back to back.
//! DBN's own lengths delimit each record but nothing marks where a packet
//! ends, hence the prefix. A trade is a `TradeMsg` (rtype 0x00, action 'T',
//! side 'N': IEX's trade report names no aggressor), a price level update an
//! `Mbp1Msg` (rtype 0x01, side 'B'/'A', action 'C' when the size is 0 (IEX
//! removes the level) and 'M' otherwise, depth 0, the `levels` bid/ask pair
//! left undefined: shootout keeps no book to fill them from). Prices are
//! DBN's 1e-9 fixed point, IEX's 1e-4 × 100,000; `ts` is both `ts_event` and
//! `ts_recv`; message i's `sequence` is `seq_no + i`; IEX's flags byte goes
//! into `flags` as its raw bits.
//!
//! Symbols live outside the records, as in DBN: each record carries a u32
//! `instrument_id`, and the stream maps ids to symbols once. A DBN file does
//! that in its metadata header, written before any record; a live DBN stream
//! with a `SymbolMappingMsg` record (rtype 0x16) sent before an instrument's
//! first record. The harness streams windows record by record and never says
//! when a stream ends, so the live form fits: the encoder sends a symbol's
//! mapping in the frame of the first record that uses it in the stream, and
//! the decoder builds its table from the mappings it reads. The encoder and
//! the decoder are separate instances in `interop` and `robustness`, so
//! nothing but the bytes passes between them. A stream starts when `encode`
//! is handed an empty buffer (the harness clears its stream per window), so
//! every window's stream carries the mappings it uses, and a fresh decoder
//! reads any stream from its start; ids themselves stay fixed for the
//! codec's life, as a publisher's instrument ids do.
//!
//! A packet with no messages is one `Mbp1Msg` of action 'N' (DBN's "no effect
//! on the book, but may carry other information"), carrying `seq_no` as its
//! sequence, instrument 0, no price and no timestamps.
//!
//! Decode copies the frame into the decoder's aligned buffer (`DbnFsm`, the
//! crate's sans-I/O decoder: DBN records are aligned structs, and a slice of
//! the stream has no alignment to offer) and reads each record in place
//! through a `RecordRef`, checked: its header length must be its type's size
//! and fit the frame (`DbnFsm` and `RecordRef::try_get`, plus the exact size
//! here), its rtype one written here, its values in range.

use std::ffi::c_char;
use std::mem::size_of;

use ::dbn::decode::dbn::fsm::{DbnFsm, ProcessResult};
use ::dbn::{
    Action, BidAskPair, FIXED_PRICE_SCALE, FlagSet, HasRType, Mbp1Msg, Publisher, RecordHeader,
    RecordRef, SType, SYMBOL_CSTR_LEN, Side as DbnSide, SymbolMappingMsg, TradeMsg,
    UNDEF_TIMESTAMP, VersionUpgradePolicy, rtype,
};
use anyhow::{Context, Result, anyhow, bail, ensure};
use rustc_hash::FxHashMap;

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::iex::{Aggregator, Body, Iex, MultiMessage, Side};

/// IEX prices have 4 implied decimals, DBN's 9.
const PRICE_SCALE: i64 = FIXED_PRICE_SCALE / 10_000;
/// Databento's publisher id for IEX (IEXG.TOPS.IEXG): the venue is right for
/// DEEP captures too, for which Databento has no dataset of its own.
const PUBLISHER: u16 = Publisher::IexgTopsIexg as u16;
/// The instrument of the empty-packet record, which has none; the encoder's
/// ids start at 1.
const NO_INSTRUMENT: u32 = 0;
/// The DBN version written and read: the crate's current one (`DBN_VERSION`).
const VERSION: u8 = ::dbn::DBN_VERSION;

/// The codec: the encoder's symbol ids, the decoder's DBN state machine and
/// its id table. Nothing passes from one side to the other but the bytes.
pub struct Dbn {
    symbols: SymbolIds,
    fsm: DbnFsm,
    /// The decoder's table: instrument id to symbol, from the mapping records read.
    names: FxHashMap<u32, String>,
}

impl Format for Dbn {
    const INFO: FormatInfo = FormatInfo {
        name: "dbn",
        family: Family::Format(&features::DBN),
        library: "dbn",
        labels: Labels::ZERO_COPY_NATIVE.lossy(
            "DBN's integers: a seq_no + message index over u32 (DBN's sequence), a negative ts \
             (u64 nanoseconds), or a price whose 1e-9 form is over i64 fails to encode rather \
             than change; so does a symbol over 70 UTF-8 bytes or holding a NUL",
        ),
        notes: "Databento's dbn crate, DBN version 3 records, iex only. One frame per packet: \
                a u32 LE length, then the packet's records back to back (DBN's record lengths \
                do not mark packet boundaries). Trade: TradeMsg (48 bytes; action T, side N, \
                flags 0). Level update: Mbp1Msg (80 bytes; side B/A, action C for size 0, \
                else M, depth 0, the levels bid/ask pair undefined (UNDEF_PRICE, sizes 0): no \
                book is kept). Price: IEX's 1e-4 × 100,000 in DBN's 1e-9 fixed point, divided \
                back on decode (a remainder is an error). ts: ts_event and ts_recv. \
                sequence: seq_no + the message's index, u32. flags: IEX's byte as raw bits \
                (DEEP's event flag and TOPS's quote flags mean other things than DBN's). \
                publisher_id 38 (IEXG.TOPS.IEXG). Symbols: a u32 instrument_id per record, \
                assigned as the encoder first sees each symbol; its SymbolMappingMsg (176 \
                bytes, raw symbol in and out), as a live DBN stream sends it, goes once per \
                stream before the first record that uses it (a stream starts at an empty \
                buffer: once per window here), and the decoder maps ids back through the \
                mappings it read. A packet with no messages: one Mbp1Msg of action N carrying \
                seq_no. Encode builds each record struct and appends its bytes (AsRef<[u8]>); \
                the symbol table allocates only for a symbol never seen before. Decode: the \
                frame is copied once into DbnFsm's aligned buffer (DBN records are aligned \
                C structs; the stream's slice is not aligned, and the crate has no safe \
                in-place cast), then each record is read in place through RecordRef::try_get: \
                header length equal to the type's size, rtype, action, side, sequences \
                consecutive, price divisible, ts within i64, ids mapped; every failure an \
                error.",
        wire: Some("dbn"),
        framing: Framing::U32le,
    };
}

impl Codec<Iex> for Dbn {
    fn new() -> Self {
        let fsm = DbnFsm::builder()
            .skip_metadata(true)
            .input_dbn_version(Some(VERSION))
            .and_then(|builder| builder.upgrade_policy(VersionUpgradePolicy::AsIs).build())
            .expect("DBN version 3 read as is is a valid decoder configuration");
        Dbn { symbols: SymbolIds::default(), fsm, names: FxHashMap::default() }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        if stream.is_empty() {
            self.symbols.new_stream();
        }
        let start = stream.len();
        stream.extend_from_slice(&[0; 4]);
        let written = write_packet(&mut self.symbols, record, stream).and_then(|()| {
            u32::try_from(stream.len() - start - 4).context("dbn: packet over 4 GiB")
        });
        match written {
            Ok(length) => {
                stream[start..start + 4].copy_from_slice(&length.to_le_bytes());
                self.symbols.sent_now.clear();
                Ok(())
            }
            Err(e) => {
                stream.truncate(start);
                self.symbols.unsend();
                Err(e)
            }
        }
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let prefix = stream.first_chunk::<4>().context("dbn: no length prefix")?;
        let end = 4 + u32::from_le_bytes(*prefix) as usize;
        ensure!(end <= stream.len(), "dbn: packet of {} bytes cut short", end - 4);
        let Dbn { fsm, names, .. } = self;
        // Whatever an earlier, failed decode left unread.
        let stale = fsm.data().len();
        fsm.skip(stale);
        fsm.write_all(&stream[4..end]);
        let mut packet = Packet::default();
        loop {
            match fsm.process() {
                ProcessResult::Record(()) => {}
                ProcessResult::ReadMore(_) => break,
                ProcessResult::Err(e) => bail!("dbn: record {}: {e}", packet.records),
                ProcessResult::Metadata(_) => bail!("dbn: metadata inside a packet"),
            }
            let record = fsm.last_record().context("dbn: a decoded record is not readable")?;
            let index = packet.records;
            packet.read(record, names, sink).with_context(|| format!("dbn: record {index}"))?;
        }
        ensure!(fsm.data().is_empty(), "dbn: the packet's last record is cut short");
        let seq_no = packet.seq_no()?;
        sink.packet(seq_no, packet.messages as usize);
        Ok(end)
    }
}

/// The encoder's side of the symbol table: ids for life, and which ids this
/// stream has sent the mapping of.
#[derive(Default)]
struct SymbolIds {
    ids: FxHashMap<String, u32>,
    /// Per id (index id - 1), the stream that last sent its mapping.
    sent_in: Vec<u32>,
    /// The current stream: a number no id's `sent_in` holds until it is sent.
    stream: u32,
    /// The ids this record sent, to take back if the record fails.
    sent_now: Vec<u32>,
}

impl SymbolIds {
    fn new_stream(&mut self) {
        self.stream = self.stream.wrapping_add(1);
        if self.stream == 0 {
            // After 2^32 streams, start the count again with nothing sent.
            self.sent_in.fill(0);
            self.stream = 1;
        }
    }

    /// `symbol`'s instrument id; its mapping is appended to `stream` first
    /// when this stream has not sent it yet.
    fn id(&mut self, symbol: &str, ts: u64, stream: &mut Vec<u8>) -> Result<u32> {
        let id = match self.ids.get(symbol) {
            Some(&id) => id,
            None => {
                let id = u32::try_from(self.ids.len() + 1)
                    .context("over u32::MAX symbols: DBN's instrument ids are u32")?;
                self.ids.insert(symbol.to_owned(), id);
                self.sent_in.push(0);
                id
            }
        };
        let sent = &mut self.sent_in[id as usize - 1];
        if *sent != self.stream {
            let mapping = SymbolMappingMsg::new(
                id,
                ts,
                SType::RawSymbol,
                symbol,
                SType::RawSymbol,
                symbol,
                ts,
                UNDEF_TIMESTAMP,
            )?;
            stream.extend_from_slice(mapping.as_ref());
            *sent = self.stream;
            self.sent_now.push(id);
        }
        Ok(id)
    }

    /// Forgets the mappings a failed record sent: its bytes are gone.
    fn unsend(&mut self) {
        for id in self.sent_now.drain(..) {
            self.sent_in[id as usize - 1] = 0;
        }
    }
}

/// Appends `record`'s DBN records; on an error, `stream` may hold part of them.
fn write_packet(
    symbols: &mut SymbolIds,
    record: &MultiMessage,
    stream: &mut Vec<u8>,
) -> Result<()> {
    if record.messages.is_empty() {
        let sequence = sequence(record.seq_no, 0)?;
        let marker = Mbp1Msg {
            hd: RecordHeader::new::<Mbp1Msg>(
                rtype::MBP_1,
                PUBLISHER,
                NO_INSTRUMENT,
                UNDEF_TIMESTAMP,
            ),
            action: Action::None as c_char,
            side: DbnSide::None as c_char,
            sequence,
            ..Mbp1Msg::default()
        };
        stream.extend_from_slice(marker.as_ref());
        return Ok(());
    }
    for (index, message) in record.messages.iter().enumerate() {
        let context = || format!("dbn: message {index}");
        let ts = u64::try_from(message.ts)
            .map_err(|_| anyhow!("ts {} is negative: DBN timestamps are u64 ns", message.ts))
            .with_context(context)?;
        let sequence = sequence(record.seq_no, index).with_context(context)?;
        let symbol = &message.symbol;
        ensure!(
            symbol.len() < SYMBOL_CSTR_LEN && !symbol.contains('\0'),
            "dbn: message {index}: symbol {symbol:?} is not a DBN symbol (at most {} UTF-8 bytes, no NUL)",
            SYMBOL_CSTR_LEN - 1
        );
        let id = symbols.id(symbol, ts, stream).with_context(context)?;
        match message.body {
            Body::Trade { price, size } => {
                let trade = TradeMsg {
                    hd: RecordHeader::new::<TradeMsg>(rtype::MBP_0, PUBLISHER, id, ts),
                    price: dbn_price(price).with_context(context)?,
                    size,
                    action: Action::Trade as c_char,
                    side: DbnSide::None as c_char,
                    flags: FlagSet::empty(),
                    depth: 0,
                    ts_recv: ts,
                    ts_in_delta: 0,
                    sequence,
                };
                stream.extend_from_slice(trade.as_ref());
            }
            Body::LevelUpdate { price, size, flags, side } => {
                let update = Mbp1Msg {
                    hd: RecordHeader::new::<Mbp1Msg>(rtype::MBP_1, PUBLISHER, id, ts),
                    price: dbn_price(price).with_context(context)?,
                    size,
                    action: if size == 0 { Action::Cancel } else { Action::Modify } as c_char,
                    side: match side {
                        Side::Buy => DbnSide::Bid,
                        Side::Sell => DbnSide::Ask,
                    } as c_char,
                    flags: FlagSet::new(flags),
                    depth: 0,
                    ts_recv: ts,
                    ts_in_delta: 0,
                    sequence,
                    levels: [BidAskPair::default()],
                };
                stream.extend_from_slice(update.as_ref());
            }
        }
    }
    Ok(())
}

/// Message `index`'s DBN sequence number: `seq_no + index`, which must fit DBN's u32.
fn sequence(seq_no: u64, index: usize) -> Result<u32> {
    seq_no
        .checked_add(index as u64)
        .and_then(|sequence| u32::try_from(sequence).ok())
        .with_context(|| format!("sequence {seq_no} + {index} is over DBN's u32 sequence"))
}

/// An IEX price (the wire's i64, held as its bits in a u64) in DBN's 1e-9 fixed point.
fn dbn_price(price: u64) -> Result<i64> {
    (price as i64)
        .checked_mul(PRICE_SCALE)
        .with_context(|| format!("price {} is over DBN's i64 at 1e-9", price as i64))
}

/// A DBN price back in IEX's units, as the record holds them.
fn iex_price(price: i64) -> Result<u64> {
    ensure!(price % PRICE_SCALE == 0, "price {price} is not a whole number of 1e-4");
    Ok((price / PRICE_SCALE) as u64)
}

/// What one packet's records add up to while they are read.
#[derive(Default)]
struct Packet {
    records: u32,
    messages: u32,
    /// The first message's sequence number (or the empty packet's).
    first: Option<u32>,
    empty_marker: bool,
}

impl Packet {
    /// Reads one record: a mapping goes into `names`, a message to `sink`.
    fn read(
        &mut self,
        record: RecordRef<'_>,
        names: &mut FxHashMap<u32, String>,
        sink: &mut Aggregator,
    ) -> Result<()> {
        self.records += 1;
        ensure!(!self.empty_marker, "a record after the empty packet's marker");
        match record.header().rtype {
            rtype::SYMBOL_MAPPING => {
                let mapping = exactly::<SymbolMappingMsg>(record)?;
                ensure!(
                    mapping.stype_out == SType::RawSymbol as u8,
                    "a symbol mapping to stype {}, not a raw symbol",
                    mapping.stype_out
                );
                let symbol = mapping.stype_out_symbol()?;
                let id = mapping.hd.instrument_id;
                match names.get_mut(&id) {
                    Some(name) if name == symbol => {}
                    Some(name) => {
                        name.clear();
                        name.push_str(symbol);
                    }
                    None => {
                        names.insert(id, symbol.to_owned());
                    }
                }
            }
            rtype::MBP_0 => {
                let trade = exactly::<TradeMsg>(record)?;
                ensure!(
                    trade.action().context("its action")? == Action::Trade,
                    "a TradeMsg whose action is not T"
                );
                trade.side().context("its side")?;
                self.sequence(trade.sequence)?;
                let symbol = symbol(names, trade.hd.instrument_id)?;
                let ts = ts(trade.hd.ts_event)?;
                sink.trade(ts, symbol, iex_price(trade.price)?, trade.size);
            }
            rtype::MBP_1 => {
                let update = exactly::<Mbp1Msg>(record)?;
                let action = update.action().context("its action")?;
                if action == Action::None {
                    ensure!(self.records == 1, "the empty packet's marker after other records");
                    self.empty_marker = true;
                    self.first = Some(update.sequence);
                    return Ok(());
                }
                ensure!(
                    matches!(action, Action::Add | Action::Cancel | Action::Modify),
                    "an Mbp1Msg whose action is not a price level's (A, C or M)"
                );
                let side = match update.side().context("its side")? {
                    DbnSide::Bid => Side::Buy,
                    DbnSide::Ask => Side::Sell,
                    DbnSide::None => bail!("a price level update with no side"),
                };
                self.sequence(update.sequence)?;
                let symbol = symbol(names, update.hd.instrument_id)?;
                let (ts, price) = (ts(update.hd.ts_event)?, iex_price(update.price)?);
                sink.level_update(ts, symbol, side, update.flags.raw(), price, update.size);
            }
            other => bail!("rtype {other:#04x} is not a record of this mapping"),
        }
        Ok(())
    }

    /// Checks that a message's sequence follows the packet's.
    fn sequence(&mut self, sequence: u32) -> Result<()> {
        let first = *self.first.get_or_insert(sequence);
        ensure!(
            first.checked_add(self.messages) == Some(sequence),
            "message {}'s sequence {sequence} does not follow {first}",
            self.messages
        );
        self.messages += 1;
        Ok(())
    }

    fn seq_no(&self) -> Result<u64> {
        self.first.map(u64::from).context("dbn: a packet with no message and no empty marker")
    }
}

/// `record` as a `T`, whose size its header length must be exactly.
fn exactly<'a, T: HasRType<Header = RecordHeader>>(record: RecordRef<'a>) -> Result<&'a T> {
    let size = record.header().record_size();
    ensure!(
        size == size_of::<T>(),
        "rtype {:#04x} is {} bytes, its header says {size}",
        record.header().rtype,
        size_of::<T>()
    );
    Ok(record.try_get::<T>()?)
}

fn symbol(names: &FxHashMap<u32, String>, id: u32) -> Result<&[u8]> {
    names
        .get(&id)
        .map(String::as_bytes)
        .with_context(|| format!("instrument {id} has no symbol mapping"))
}

fn ts(ts_event: u64) -> Result<i64> {
    i64::try_from(ts_event).map_err(|_| anyhow!("ts_event {ts_event} is over i64"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::format::codec_tests::{
        assert_garbage_is_an_error, assert_steady_state_allocations, big_record, decode_all,
        encode_all,
    };
    use crate::workload::Workload;
    use crate::workload::iex::{Message, sample_dataset};
    use ::dbn::UNDEF_PRICE;

    /// The sample without its one record DBN cannot carry (seq_no u64::MAX,
    /// a negative ts, a price past i64 at 1e-9), plus a big record.
    fn carried() -> Vec<MultiMessage> {
        let mut records: Vec<_> =
            sample_dataset().records.into_iter().filter(|r| r.seq_no != u64::MAX).collect();
        records.push(big_record());
        records
    }

    fn dataset(records: Vec<MultiMessage>) -> crate::workload::Dataset<Iex> {
        let mut reference = Aggregator::default();
        records.iter().for_each(|record| record.aggregate_into(&mut reference));
        crate::workload::Dataset::in_order(records, reference.finish(), "dbn test".into())
    }

    fn one(seq_no: u64, ts: i64, symbol: &str, body: Body) -> MultiMessage {
        MultiMessage { seq_no, messages: vec![Message { ts, symbol: symbol.into(), body }] }
    }

    fn encode_error(record: &MultiMessage) -> String {
        let mut stream = vec![7];
        let error = Dbn::new().encode(record, &mut stream).unwrap_err();
        assert_eq!(stream, [7], "a failed record leaves the stream as it was");
        format!("{error:#}")
    }

    #[test]
    fn round_trips() {
        assert_round_trip::<Iex, Dbn>(&dataset(carried()));
    }

    #[test]
    fn only_the_record_past_dbns_integers_fails_to_encode() {
        let mut codec = Dbn::new();
        let mut stream = Vec::new();
        for record in sample_dataset().records {
            let outcome = codec.encode(&record, &mut stream);
            assert_eq!(outcome.is_err(), record.seq_no == u64::MAX, "{outcome:?}");
        }
    }

    #[test]
    fn garbage_is_an_error() {
        assert_garbage_is_an_error::<Dbn>(&carried());
    }

    #[test]
    fn encoding_allocates_only_for_new_symbols_and_decoding_never() {
        assert_steady_state_allocations::<Dbn>(&carried(), (0, 0));
    }

    #[test]
    fn edge_values_round_trip() {
        let level = |price, flags| Body::LevelUpdate { price, size: 1, flags, side: Side::Sell };
        let records = vec![
            MultiMessage { seq_no: u64::from(u32::MAX), messages: vec![] },
            one(u64::from(u32::MAX), i64::MAX, "A", Body::Trade { price: 1, size: u32::MAX }),
            one(0, 0, "", level((i64::MAX / PRICE_SCALE) as u64, 0xff)),
            // A negative wire price, held as its bits.
            one(1, 1, "B", level((-5i64) as u64, 0)),
            one(2, 2, "C", level((i64::MIN / PRICE_SCALE) as u64, 1)),
            one(3, 3, &"S".repeat(SYMBOL_CSTR_LEN - 1), Body::Trade { price: 0, size: 0 }),
            one(4, 4, "\u{e9}T\u{ff}", Body::Trade { price: 2, size: 2 }),
        ];
        assert_round_trip::<Iex, Dbn>(&dataset(records));
    }

    #[test]
    fn what_dbn_cannot_carry_is_an_encode_error_naming_it() {
        let trade = Body::Trade { price: 1, size: 1 };
        for (record, says) in [
            (one(u64::from(u32::MAX) + 1, 0, "A", trade), "over DBN's u32 sequence"),
            (MultiMessage { seq_no: u64::MAX, messages: vec![] }, "over DBN's u32 sequence"),
            (one(0, -1, "A", trade), "ts -1 is negative"),
            (one(0, 0, "A", Body::Trade { price: (i64::MAX / 10) as u64, size: 1 }), "price"),
            (one(0, 0, &"S".repeat(SYMBOL_CSTR_LEN), trade), "not a DBN symbol"),
            (one(0, 0, "A\0B", trade), "not a DBN symbol"),
        ] {
            let error = encode_error(&record);
            assert!(error.contains(says), "{error}");
        }
        // Message 1 of a packet at u32::MAX is past it.
        let mut record = one(u64::from(u32::MAX), 0, "A", trade);
        record.messages.push(record.messages[0].clone());
        assert!(encode_error(&record).contains("message 1"));
    }

    /// A record that failed after sending a new symbol's mapping takes the
    /// mapping back with its bytes: the next record sends it again.
    #[test]
    fn a_failed_record_takes_back_the_mappings_it_sent() {
        let mut record = one(1, 0, "NEW", Body::Trade { price: 1, size: 1 });
        record.messages.push(Message { ts: -1, ..record.messages[0].clone() });
        let mut codec = Dbn::new();
        let mut stream = Vec::new();
        codec.encode(&one(0, 0, "OLD", Body::Trade { price: 1, size: 1 }), &mut stream).unwrap();
        assert!(codec.encode(&record, &mut stream).is_err());
        codec.encode(&one(2, 0, "NEW", Body::Trade { price: 1, size: 1 }), &mut stream).unwrap();
        assert_eq!(decode_all(&mut Dbn::new(), &stream).unwrap(), 2);
    }

    /// Each stream (a buffer encoded from empty) sends the mappings it uses
    /// again, so a fresh decoder reads it alone; ids stay the same.
    #[test]
    fn every_stream_carries_its_own_symbol_mappings() {
        let records = carried();
        let mut codec = Dbn::new();
        let mut first = Vec::new();
        for record in &records {
            codec.encode(record, &mut first).unwrap();
        }
        let mut second = Vec::new();
        for record in &records {
            codec.encode(record, &mut second).unwrap();
        }
        assert_eq!(first, second);
        assert_eq!(decode_all(&mut Dbn::new(), &second).unwrap(), records.len());
        // Within one stream a symbol's mapping is sent once.
        let twice = vec![one(1, 1, "A", Body::Trade { price: 1, size: 1 }); 2];
        let stream = encode_all::<Dbn>(&twice);
        let frame = 4 + size_of::<SymbolMappingMsg>() + size_of::<TradeMsg>();
        assert_eq!(stream.len(), frame + 4 + size_of::<TradeMsg>());
    }

    /// The frames hold the dbn crate's own records: a mapping, then a
    /// TradeMsg and an Mbp1Msg with DBN's values for IEX's.
    #[test]
    fn frames_are_dbn_records() {
        let stream = encode_all::<Dbn>(&sample_dataset().records[..1]);
        let mapping = size_of::<SymbolMappingMsg>();
        let (trade_at, update_at) = (4 + mapping, 4 + mapping + size_of::<TradeMsg>());
        assert_eq!(stream.len(), update_at + size_of::<Mbp1Msg>());
        assert_eq!(u32::from_le_bytes(stream[..4].try_into().unwrap()) as usize, stream.len() - 4);
        let mut fsm = Dbn::new().fsm;
        fsm.write_all(&stream[4..]);
        let mut next = || {
            assert!(matches!(fsm.process(), ProcessResult::Record(())));
            fsm.last_record().unwrap().to_owned()
        };
        let (mapping, trade, update) = (next(), next(), next());
        let mapping = mapping.get::<SymbolMappingMsg>().unwrap();
        assert_eq!(mapping.hd.instrument_id, 1);
        assert_eq!(mapping.stype_in_symbol().unwrap(), "MSFT");
        assert_eq!(mapping.stype_out_symbol().unwrap(), "MSFT");
        let trade = trade.get::<TradeMsg>().unwrap();
        assert_eq!((trade.hd.instrument_id, trade.hd.publisher_id), (1, 38));
        assert_eq!(trade.price, 65_010_000_000);
        assert_eq!(
            (trade.hd.ts_event, trade.ts_recv),
            (1_500_000_000_000_000_000, 1_500_000_000_000_000_000)
        );
        assert_eq!(
            (trade.action().unwrap(), trade.side().unwrap()),
            (Action::Trade, DbnSide::None)
        );
        assert_eq!((trade.size, trade.sequence), (100, 1));
        let update = update.get::<Mbp1Msg>().unwrap();
        assert_eq!((update.price, update.size, update.sequence), (65_000_000_000, 0, 2));
        assert_eq!(
            (update.action().unwrap(), update.side().unwrap()),
            (Action::Cancel, DbnSide::Bid)
        );
        assert_eq!((update.flags.raw(), update.depth), (1, 0));
        assert_eq!(update.levels[0], BidAskPair::default());
        assert_eq!(update.levels[0].bid_px, UNDEF_PRICE);
        assert_eq!((trade_at, update_at), (180, 228));
    }

    /// Bytes a DBN reader would take but this mapping never writes, or
    /// whose values the record cannot hold, are errors naming the fault.
    #[test]
    fn malformed_records_are_errors() {
        let stream = encode_all::<Dbn>(&sample_dataset().records[..1]);
        let trade_at = 4 + size_of::<SymbolMappingMsg>();
        let update_at = trade_at + size_of::<TradeMsg>();
        let decode = |bytes: &[u8]| {
            let mut sink = Iex::new_sink(&Default::default());
            format!("{:#}", Dbn::new().decode(bytes, &mut sink).unwrap_err())
        };
        let patched = |at: usize, bytes: &[u8]| {
            let mut bad = stream.clone();
            bad[at..at + bytes.len()].copy_from_slice(bytes);
            bad
        };
        let price = trade_at + 16;
        let sequence = trade_at + 44;
        let instrument = trade_at + 4;
        for (bad, says) in [
            // The trade's header length: one word more than a TradeMsg.
            (patched(trade_at, &[13]), "its header says 52"),
            (patched(trade_at, &[3]), "impossible length"),
            (patched(trade_at + 1, &[0x15]), "not a record of this mapping"),
            (patched(price, &1i64.to_le_bytes()), "not a whole number"),
            (patched(sequence, &7u32.to_le_bytes()), "does not follow"),
            (patched(instrument, &9u32.to_le_bytes()), "instrument 9 has no symbol"),
            (patched(trade_at + 8, &u64::MAX.to_le_bytes()), "over i64"),
            (patched(trade_at + 28, b"X"), "action"),
            (patched(update_at + 29, b"N"), "no side"),
            (patched(update_at + 28, b"T"), "not a price level's"),
            (stream[..stream.len() - 8].to_vec(), "cut short"),
        ] {
            let error = decode(&bad);
            assert!(error.contains(says), "{says}: {error}");
        }
        // A frame holding the mapping alone: no message, no empty marker.
        let mut alone = stream[..trade_at].to_vec();
        alone[..4].copy_from_slice(&((trade_at - 4) as u32).to_le_bytes());
        assert!(decode(&alone).contains("no message"));
    }

    #[test]
    fn the_empty_packet_is_a_marker_carrying_its_seq_no() {
        let stream = encode_all::<Dbn>(&[MultiMessage { seq_no: 77, messages: vec![] }]);
        assert_eq!(stream.len(), 4 + size_of::<Mbp1Msg>());
        let mut sink = Iex::new_sink(&Default::default());
        Dbn::new().decode(&stream, &mut sink).unwrap();
        let aggregate = Iex::finish(sink);
        assert_eq!((aggregate.records, aggregate.messages, aggregate.seq_no_sum), (1, 0, 77));
        // The marker among messages is an error.
        let mut both = encode_all::<Dbn>(&[one(1, 1, "A", Body::Trade { price: 1, size: 1 })]);
        both.extend_from_slice(&stream[4..]);
        let length = (both.len() - 4) as u32;
        both[..4].copy_from_slice(&length.to_le_bytes());
        let mut sink = Iex::new_sink(&Default::default());
        let error = format!("{:#}", Dbn::new().decode(&both, &mut sink).unwrap_err());
        assert!(error.contains("marker"), "{error}");
    }
}
