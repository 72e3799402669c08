//! Apache Thrift via the `thrift` crate and thrift-compiler-generated types, in
//! the binary and the compact protocol.
//!
//! Each record is one `MultiMessage` struct written straight into the stream by
//! the generated `write_to_out_protocol`. Thrift structs are self-delimiting in
//! both protocols (fields end with a stop marker), so there is no length prefix:
//! decode runs the generated `read_from_in_protocol` over the rest of the stream
//! and reports how many bytes it consumed.
//!
//! Thrift has no unsigned integers: `seq_no` and prices are bit-cast u64 -> i64,
//! sizes u32 -> i32 and flags u8 -> i8, and back on decode (lossless).
//!
//! Allocations are the library's and its generated code's:
//! - encode: the generated writer builds a `TStructIdentifier` and a
//!   `TFieldIdentifier` with an owned `String` name for every struct and field it
//!   writes (names the binary and compact protocols then ignore): 3 for the
//!   record, plus 9 per trade and 11 per level update. The compact protocol also
//!   allocates its field-id stack once per record. The generated record itself is
//!   kept in the codec and refilled in place (symbol Strings reused).
//! - decode: the generated types own their data, so every record allocates its
//!   message Vec and every message its symbol String (`read_string` returns an
//!   owned String); the compact protocol allocates its field-id stack per record.
//!
//! The generated reader trusts the sizes it reads: a negative or huge list or
//! string length makes it panic or abort inside `Vec::with_capacity`/`vec!`, and a
//! large compact field id overflows an `i16` (a panic in debug builds). Decode
//! therefore runs it through [`Guarded`], a pass-through `TInputProtocol` that
//! rejects lengths larger than the bytes left and field ids that could overflow,
//! so bad bytes give an error instead. It also rejects an unknown field inside the
//! `Body` union, on which the generated union reader panics.

use std::cell::Cell;
use std::marker::PhantomData;

use ::thrift::protocol::{
    TBinaryInputProtocol, TBinaryOutputProtocol, TCompactInputProtocol, TCompactOutputProtocol,
    TInputProtocol, TOutputProtocol, TSerializable,
};
use anyhow::{Result, anyhow, bail};

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::Workload;
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::{Aggregator, Body, Iex, MultiMessage, Side};
use crate::workload::object::SmallObject;
use crate::workload::primitives::Primitives;
use crate::workload::sql::SqlRequest;
use crate::workload::tabular::{LongsRow, MixedRow, StringsRow, tabular_columns};
use crate::workload::user::UserResponse;

crate::format::generated_code! {
    /// The code the pinned compiler generates from schemas/iex/iex.thrift and
    /// schemas/records/records.thrift (scripts/regenerate.sh); never edited by hand.
    mod generated {
        pub mod iex_thrift;
        pub mod records_thrift;
    }
}

use generated::{iex_thrift, records_thrift};

mod guarded;

use guarded::{Guarded, Transport};

use iex_thrift as th;

/// Which Thrift protocol a variant speaks.
pub trait Protocol {
    const NAME: &'static str;
    /// Whether field ids are delta-encoded (the compact protocol).
    const COMPACT: bool;
    fn output(stream: &mut Vec<u8>) -> impl TOutputProtocol + '_;
    fn input<'a>(transport: Transport<'a>) -> impl TInputProtocol + 'a;
    /// The length prefix of a string at the start of `bytes`: (length, prefix size),
    /// or `None` when it cannot be read (the protocol itself then reports why).
    fn peek_len(bytes: &[u8]) -> Option<(i64, usize)>;
}

pub enum Binary {}
pub enum Compact {}

impl Protocol for Binary {
    const NAME: &'static str = "thrift-binary";
    const COMPACT: bool = false;

    fn output(stream: &mut Vec<u8>) -> impl TOutputProtocol + '_ {
        TBinaryOutputProtocol::new(stream, true)
    }

    fn input<'a>(transport: Transport<'a>) -> impl TInputProtocol + 'a {
        TBinaryInputProtocol::new(transport, true)
    }

    fn peek_len(bytes: &[u8]) -> Option<(i64, usize)> {
        let prefix = bytes.first_chunk::<4>()?;
        Some((i64::from(i32::from_be_bytes(*prefix)), 4))
    }
}

impl Protocol for Compact {
    const NAME: &'static str = "thrift-compact";
    const COMPACT: bool = true;

    fn output(stream: &mut Vec<u8>) -> impl TOutputProtocol + '_ {
        TCompactOutputProtocol::new(stream)
    }

    fn input<'a>(transport: Transport<'a>) -> impl TInputProtocol + 'a {
        TCompactInputProtocol::new(transport)
    }

    fn peek_len(bytes: &[u8]) -> Option<(i64, usize)> {
        // An unsigned varint of at most 5 bytes (u32), as the protocol reads it.
        let mut value = 0u64;
        for (i, &byte) in bytes.iter().take(5).enumerate() {
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                return Some((i64::from(value as u32), i + 1));
            }
        }
        None
    }
}

/// One Thrift variant, speaking protocol `P`. `K` is what the codec keeps
/// between records on one workload (its generated struct, refilled):
/// [`ThriftWorkload::Kept`].
pub struct Thrift<P, K = ()> {
    kept: K,
    protocol: PhantomData<P>,
}

pub type ThriftBinary<K = ()> = Thrift<Binary, K>;
pub type ThriftCompact<K = ()> = Thrift<Compact, K>;

/// A workload mapped to generated Thrift structs: what the codec keeps between
/// records, how a record is written through it, and how a read one is fed to the sink.
pub trait ThriftWorkload: Workload {
    type Kept;
    fn kept() -> Self::Kept;
    /// Refills `kept` with `record` (reusing its Strings) and writes it to `out`.
    fn write(
        kept: &mut Self::Kept,
        record: &Self::Record,
        out: &mut dyn TOutputProtocol,
    ) -> ::thrift::Result<()>;
    /// Reads one record from `input` into `sink`; `name` is the variant's, for errors.
    fn read(input: &mut dyn TInputProtocol, sink: &mut Self::Sink, name: &str) -> Result<()>;
}

/// One record per struct with no length prefix: Thrift structs are
/// self-delimiting, so decode reports what the generated reader consumed, read
/// through [`Guarded`].
impl<P: Protocol, W: ThriftWorkload> Codec<W> for Thrift<P, W::Kept>
where
    Thrift<P, W::Kept>: Format,
{
    fn new() -> Self {
        Thrift { kept: W::kept(), protocol: PhantomData }
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        let mut output = P::output(stream);
        W::write(&mut self.kept, record, &mut output)
            .map_err(|err| describe(err).context(format!("{}: encode", P::NAME)))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        let pos = Cell::new(0);
        let mut input = Guarded::<_, P>::new(P::input(Transport::new(stream, &pos)), stream, &pos);
        W::read(&mut input, sink, P::NAME)?;
        Ok(pos.get())
    }
}

/// Notes shared by both variants (a macro so `concat!` can extend it).
macro_rules! common_notes {
    () => {
        "Types generated by the Apache Thrift compiler. One MultiMessage struct per record \
         with no length prefix: Thrift structs are self-delimiting (a stop field ends each), \
         and decode reports the bytes the generated reader consumed. Body is a union of two \
         structs; all other fields are required. Thrift has no unsigned integers, so seq_no \
         and prices are bit-cast u64 -> i64, sizes u32 -> i32 and flags u8 -> i8 (lossless). \
         Encode refills a generated record kept in the codec (symbol Strings reused), but the \
         generated writer allocates an owned String name for every struct and field \
         identifier it writes (about 10 per message). Decode materializes the generated types \
         (a Vec per record, an owned String per message). Reads go through a thin \
         pass-through protocol that rejects list and string lengths beyond the bytes left, \
         which the crate would otherwise try to allocate, and unknown fields in the Body \
         union, on which the generated reader panics. Record-shaped workloads: one struct per \
         shape (schemas/records/records.thrift; tabular cells `optional`, others `required`; u8 level \
         bit-cast to i8; f32 carried as a double, exact, and decode rejects a double that is \
         not an f32); encode refills a kept struct, decode materializes an owned one (every \
         String and list allocated)."
    };
}

impl<K> Format for ThriftBinary<K> {
    const INFO: FormatInfo = FormatInfo {
        name: Binary::NAME,
        family: Family::Format(&features::THRIFT),
        library: "thrift",
        labels: LABELS,
        wire: Some(Binary::NAME),
        // One struct per record: a Thrift struct ends with its stop field.
        framing: Framing::None,
        notes: concat!("Binary protocol (fixed-width big-endian integers). ", common_notes!()),
    };
}

impl<K> Format for ThriftCompact<K> {
    const INFO: FormatInfo = FormatInfo {
        name: Compact::NAME,
        family: Family::Format(&features::THRIFT),
        library: "thrift",
        labels: LABELS,
        wire: Some(Compact::NAME),
        // One struct per record: a Thrift struct ends with its stop field.
        framing: Framing::None,
        notes: concat!(
            "Compact protocol (zigzag varints, delta-encoded field ids). Its output and input \
             protocols each allocate a small field-id stack per record (a protocol cannot \
             outlive the borrowed stream), and reads also reject field ids that would overflow \
             the compact reader's delta arithmetic. ",
            common_notes!()
        ),
    };
}

const LABELS: Labels = Labels::OWNED_NATIVE;

fn blank_message() -> th::Message {
    th::Message::new(0, String::new(), th::Body::Trade(th::Trade::new(0, 0)))
}

/// The iex record the codec keeps for encoding, plus spare messages.
pub struct IexKept {
    record: th::MultiMessage,
    /// Messages (with their String capacity) not needed by the current record.
    spare: Vec<th::Message>,
}

impl IexKept {
    /// Makes `self.record` hold `record`, reusing its messages' Strings.
    fn fill(&mut self, record: &MultiMessage) {
        let out = &mut self.record;
        out.seq_no = record.seq_no as i64;
        super::resize_from_spare(
            &mut out.messages,
            &mut self.spare,
            record.messages.len(),
            blank_message,
        );
        for (out, message) in out.messages.iter_mut().zip(&record.messages) {
            out.ts = message.ts;
            out.symbol.clear();
            out.symbol.push_str(&message.symbol);
            out.body = match message.body {
                Body::Trade { price, size } => {
                    th::Body::Trade(th::Trade::new(price as i64, size as i32))
                }
                Body::LevelUpdate { price, size, flags, side } => {
                    th::Body::LevelUpdate(th::LevelUpdate::new(
                        price as i64,
                        size as i32,
                        flags as i8,
                        match side {
                            Side::Buy => th::Side::BUY,
                            Side::Sell => th::Side::SELL,
                        },
                    ))
                }
            };
        }
    }
}

impl ThriftWorkload for Iex {
    type Kept = IexKept;

    fn kept() -> IexKept {
        IexKept { record: th::MultiMessage::new(0, Vec::new()), spare: Vec::new() }
    }

    fn write(
        kept: &mut IexKept,
        record: &MultiMessage,
        out: &mut dyn TOutputProtocol,
    ) -> ::thrift::Result<()> {
        kept.fill(record);
        kept.record.write_to_out_protocol(out)
    }

    fn read(input: &mut dyn TInputProtocol, sink: &mut Aggregator, name: &str) -> Result<()> {
        let record = th::MultiMessage::read_from_in_protocol(input)
            .map_err(|err| describe(err).context(format!("{name}: invalid record")))?;
        sink.packet(record.seq_no as u64, record.messages.len());
        for message in &record.messages {
            let (ts, symbol) = (message.ts, message.symbol.as_bytes());
            match &message.body {
                th::Body::Trade(trade) => {
                    sink.trade(ts, symbol, trade.price as u64, trade.size as u32)
                }
                th::Body::LevelUpdate(update) => {
                    let side = match update.side {
                        th::Side::BUY => Side::Buy,
                        th::Side::SELL => Side::Sell,
                        other => bail!("{name}: unknown side {}", other.0),
                    };
                    let flags = update.flags as u8;
                    sink.level_update(
                        ts,
                        symbol,
                        side,
                        flags,
                        update.price as u64,
                        update.size as u32,
                    );
                }
            }
        }
        Ok(())
    }
}

/// A thrift error with its detail: `ProtocolError`'s Display shows only the kind.
fn describe(err: ::thrift::Error) -> anyhow::Error {
    match err {
        ::thrift::Error::Protocol(ref protocol) => anyhow!("{err}: {}", protocol.message),
        other => anyhow::Error::new(other),
    }
}

// --- record-shaped workloads ------------------------------------------------------

use ::thrift::OrderedFloat;

/// An f32 carried as a Thrift double (f32 -> f64 is exact); a double that is not
/// exactly an f32 is not one this codec wrote.
fn exact_f32(value: f64, name: &str) -> Result<f32> {
    let narrow = value as f32;
    if f64::from(narrow).to_bits() == value.to_bits() || value.is_nan() {
        Ok(narrow)
    } else {
        bail!("thrift: {name} {value} is not a 32-bit float")
    }
}

/// Copies a String into a generated field, reusing its buffer.
fn refill(out: &mut String, from: &str) {
    out.clear();
    out.push_str(from);
}

/// Copies a list of Strings into a generated field, reusing what it can.
fn refill_all(out: &mut Vec<String>, from: &[String]) {
    out.truncate(from.len());
    for (out, value) in out.iter_mut().zip(from) {
        refill(out, value);
    }
    for value in &from[out.len()..] {
        out.push(value.clone());
    }
}

/// A record-shaped workload's record and its generated Thrift struct
/// (schemas/records/records.thrift).
pub trait ThriftRecord: FieldRecord {
    type Th: TSerializable;
    fn blank() -> Self::Th;
    /// Makes `out` hold `self`, reusing `out`'s Strings and Vecs.
    fn fill(&self, out: &mut Self::Th);
    /// Feeds a decoded struct's values to the sink, as `FieldRecord::visit` does.
    fn visit_th(th: &Self::Th, sink: &mut FieldSink) -> Result<()>;
}

impl ThriftRecord for UserResponse {
    type Th = records_thrift::UserResponse;
    fn blank() -> Self::Th {
        let s = String::new;
        records_thrift::UserResponse::new(0, s(), s(), 0, s(), 0, s(), s(), s())
    }
    fn fill(&self, out: &mut Self::Th) {
        out.uid = self.uid;
        refill(&mut out.muid, &self.muid);
        refill(&mut out.status, &self.status);
        out.tutorial = self.tutorial;
        refill(&mut out.nickname, &self.nickname);
        out.total_login_num = self.total_login_num;
        refill(&mut out.opened_at, &self.opened_at);
        refill(&mut out.created_at, &self.created_at);
        refill(&mut out.updated_at, &self.updated_at);
    }
    fn visit_th(th: &Self::Th, sink: &mut FieldSink) -> Result<()> {
        crate::workload::user::visit_user_fields!(th, sink);
        Ok(())
    }
}

impl ThriftRecord for SqlRequest {
    type Th = records_thrift::SqlRequest;
    fn blank() -> Self::Th {
        records_thrift::SqlRequest::new(String::new(), Vec::new())
    }
    fn fill(&self, out: &mut Self::Th) {
        refill(&mut out.query, &self.query);
        out.arguments.clear();
        out.arguments.extend_from_slice(&self.args);
    }
    fn visit_th(th: &Self::Th, sink: &mut FieldSink) -> Result<()> {
        sink.record();
        sink.text(0, th.query.as_bytes());
        th.arguments.iter().for_each(|&v| sink.int(1, v));
        Ok(())
    }
}

impl ThriftRecord for Primitives {
    type Th = records_thrift::Primitives;
    fn blank() -> Self::Th {
        records_thrift::Primitives::new(Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new())
    }
    fn fill(&self, out: &mut Self::Th) {
        out.ints.clear();
        out.ints.extend_from_slice(&self.ints);
        out.longs.clear();
        out.longs.extend_from_slice(&self.longs);
        out.doubles.clear();
        out.doubles.extend(self.doubles.iter().map(|&v| OrderedFloat(v)));
        out.booleans.clear();
        out.booleans.extend_from_slice(&self.booleans);
        refill_all(&mut out.strings, &self.strings);
    }
    fn visit_th(th: &Self::Th, sink: &mut FieldSink) -> Result<()> {
        sink.record();
        th.ints.iter().for_each(|&v| sink.int(0, i64::from(v)));
        th.longs.iter().for_each(|&v| sink.int(1, v));
        th.doubles.iter().for_each(|v| sink.float(2, v.0));
        th.booleans.iter().for_each(|&v| sink.bool(3, v));
        th.strings.iter().for_each(|v| sink.text(4, v.as_bytes()));
        Ok(())
    }
}

impl ThriftRecord for SmallObject {
    type Th = records_thrift::SmallObject;
    fn blank() -> Self::Th {
        let s = String::new;
        let zero = OrderedFloat(0.0);
        records_thrift::SmallObject::new(0, s(), s(), 0, zero, zero, false, 0, 0, Vec::new())
    }
    fn fill(&self, out: &mut Self::Th) {
        out.id = self.id;
        refill(&mut out.name, &self.name);
        refill(&mut out.email, &self.email);
        out.age = self.age;
        out.score = OrderedFloat(self.score);
        out.ratio = OrderedFloat(f64::from(self.ratio));
        out.active = self.active;
        out.level = self.level as i8;
        out.created_at = self.created_at;
        refill_all(&mut out.tags, &self.tags);
    }
    fn visit_th(th: &Self::Th, sink: &mut FieldSink) -> Result<()> {
        let ratio = exact_f32(th.ratio.0, "ratio")?;
        sink.record();
        sink.int(0, th.id);
        sink.text(1, th.name.as_bytes());
        sink.text(2, th.email.as_bytes());
        sink.int(3, i64::from(th.age));
        sink.float(4, th.score.0);
        sink.float(5, f64::from(ratio));
        sink.bool(6, th.active);
        sink.int(7, i64::from(th.level as u8));
        sink.int(8, th.created_at);
        th.tags.iter().for_each(|t| sink.text(9, t.as_bytes()));
        Ok(())
    }
}

/// A tabular cell type and how its generated optional field holds it.
trait ThriftCell: Sized {
    type Wire;
    fn fill(from: &Option<Self>, out: &mut Option<Self::Wire>);
    fn visit_wire(wire: &Self::Wire, field: usize, sink: &mut FieldSink) -> Result<()>;
}

impl ThriftCell for String {
    type Wire = String;
    fn fill(from: &Option<Self>, out: &mut Option<String>) {
        match (out.as_mut(), from) {
            (Some(out), Some(value)) => refill(out, value),
            (None, Some(value)) => *out = Some(value.clone()),
            (_, None) => *out = None,
        }
    }
    fn visit_wire(wire: &String, field: usize, sink: &mut FieldSink) -> Result<()> {
        sink.text(field, wire.as_bytes());
        Ok(())
    }
}

macro_rules! thrift_int_cell {
    ($($t:ty),+) => {$(
        impl ThriftCell for $t {
            type Wire = $t;
            fn fill(from: &Option<Self>, out: &mut Option<$t>) {
                *out = *from;
            }
            fn visit_wire(wire: &$t, field: usize, sink: &mut FieldSink) -> Result<()> {
                sink.int(field, i64::from(*wire));
                Ok(())
            }
        }
    )+};
}
thrift_int_cell!(i32, i64);

impl ThriftCell for f64 {
    type Wire = OrderedFloat<f64>;
    fn fill(from: &Option<Self>, out: &mut Option<OrderedFloat<f64>>) {
        *out = from.map(OrderedFloat);
    }
    fn visit_wire(wire: &OrderedFloat<f64>, field: usize, sink: &mut FieldSink) -> Result<()> {
        sink.float(field, wire.0);
        Ok(())
    }
}

impl ThriftCell for f32 {
    type Wire = OrderedFloat<f64>;
    fn fill(from: &Option<Self>, out: &mut Option<OrderedFloat<f64>>) {
        *out = from.map(|v| OrderedFloat(f64::from(v)));
    }
    fn visit_wire(wire: &OrderedFloat<f64>, field: usize, sink: &mut FieldSink) -> Result<()> {
        sink.float(field, f64::from(exact_f32(wire.0, "cell")?));
        Ok(())
    }
}

/// `ThriftRecord` for a tabular row, from its columns (`tabular_columns!`).
macro_rules! thrift_tabular {
    ($row:ident { $($f:ident = $n:tt: $t:ty),+ $(,)? }) => {
        impl ThriftRecord for $row {
            type Th = records_thrift::$row;
            fn blank() -> Self::Th {
                records_thrift::$row::default()
            }
            fn fill(&self, out: &mut Self::Th) {
                $(<$t as ThriftCell>::fill(&self.$f, &mut out.$f);)+
            }
            fn visit_th(th: &Self::Th, sink: &mut FieldSink) -> Result<()> {
                sink.record();
                $(
                    if let Some(wire) = &th.$f {
                        <$t as ThriftCell>::visit_wire(wire, $n, sink)?;
                    }
                )+
                Ok(())
            }
        }
    };
}

tabular_columns!(MixedRow => thrift_tabular!(MixedRow));
tabular_columns!(StringsRow => thrift_tabular!(StringsRow));
tabular_columns!(LongsRow => thrift_tabular!(LongsRow));

/// Encode refills a kept struct (Strings reused); decode materializes an
/// owned struct (every String and list allocated).
impl<R: ThriftRecord> ThriftWorkload for Fields<R> {
    type Kept = R::Th;

    fn kept() -> R::Th {
        R::blank()
    }

    fn write(kept: &mut R::Th, record: &R, out: &mut dyn TOutputProtocol) -> ::thrift::Result<()> {
        record.fill(kept);
        kept.write_to_out_protocol(out)
    }

    fn read(input: &mut dyn TInputProtocol, sink: &mut FieldSink, name: &str) -> Result<()> {
        let record = R::Th::read_from_in_protocol(input)
            .map_err(|err| describe(err).context(format!("{name}: invalid record")))?;
        R::visit_th(&record, sink)
    }
}

#[cfg(test)]
mod tests {
    use ::thrift::protocol::{TFieldIdentifier, TListIdentifier, TStructIdentifier, TType};

    use super::*;
    use crate::format::assert_round_trip;
    use crate::workload::Workload;
    use crate::workload::iex::sample_dataset;

    fn encoded<P: Protocol>() -> Vec<u8>
    where
        Thrift<P, IexKept>: Format,
    {
        let mut codec = <Thrift<P, IexKept> as Codec<Iex>>::new();
        let mut stream = Vec::new();
        for record in &sample_dataset().records {
            Codec::<Iex>::encode(&mut codec, record, &mut stream).unwrap();
        }
        stream
    }

    fn decode_one<P: Protocol>(stream: &[u8]) -> Result<usize>
    where
        Thrift<P, IexKept>: Format,
    {
        let mut codec = <Thrift<P, IexKept> as Codec<Iex>>::new();
        let mut sink = Iex::new_sink(&sample_dataset().reference);
        Codec::<Iex>::decode(&mut codec, stream, &mut sink)
    }

    fn first_len<P: Protocol>(stream: &[u8]) -> usize
    where
        Thrift<P, IexKept>: Format,
    {
        decode_one::<P>(stream).unwrap()
    }

    #[test]
    fn round_trip() {
        assert_round_trip::<Iex, ThriftBinary<_>>(&sample_dataset());
        assert_round_trip::<Iex, ThriftCompact<_>>(&sample_dataset());
    }

    #[test]
    fn a_double_that_is_not_an_f32_is_an_error() {
        let mut bad = SmallObject::blank();
        bad.ratio = OrderedFloat(0.1);
        let mut stream = Vec::new();
        bad.write_to_out_protocol(&mut Compact::output(&mut stream)).unwrap();
        let mut codec = <ThriftCompact<_> as Codec<Fields<SmallObject>>>::new();
        let mut sink = FieldSink::new(SmallObject::FIELDS.len());
        let err = Codec::<Fields<SmallObject>>::decode(&mut codec, &stream, &mut sink).unwrap_err();
        assert!(err.to_string().contains("not a 32-bit float"), "{err}");
    }

    fn read_all<P: Protocol>(stream: &[u8]) -> Vec<th::MultiMessage> {
        let pos = Cell::new(0);
        let mut input = P::input(Transport::new(stream, &pos));
        let mut records = Vec::new();
        while pos.get() < stream.len() {
            records.push(th::MultiMessage::read_from_in_protocol(&mut input).unwrap());
        }
        records
    }

    fn unsigned_values_survive_the_bit_casts<P: Protocol>()
    where
        Thrift<P, IexKept>: Format,
    {
        let records = read_all::<P>(&encoded::<P>());
        assert_eq!(records.len(), sample_dataset().records.len());
        assert_eq!(records[0].messages[0].symbol, "MSFT");
        let last = &records[2];
        assert_eq!(last.seq_no as u64, u64::MAX);
        let th::Body::LevelUpdate(update) = &last.messages[0].body else {
            panic!("expected a level update");
        };
        assert_eq!(update.price as u64, u64::MAX >> 1);
        assert_eq!(update.size as u32, u32::MAX);
        assert_eq!(update.flags as u8, 0xff);
        assert_eq!(update.side, th::Side::SELL);
        assert_eq!(last.messages[0].ts, i64::MIN);
    }

    #[test]
    fn unsigned_values_survive_the_bit_casts_binary() {
        unsigned_values_survive_the_bit_casts::<Binary>();
    }

    #[test]
    fn unsigned_values_survive_the_bit_casts_compact() {
        unsigned_values_survive_the_bit_casts::<Compact>();
    }

    #[test]
    fn reused_codec_reencodes_identically() {
        let dataset = sample_dataset();
        let mut codec = <ThriftCompact<_> as Codec<Iex>>::new();
        let mut twice = Vec::new();
        for record in dataset.records.iter().rev().chain(&dataset.records) {
            Codec::<Iex>::encode(&mut codec, record, &mut twice).unwrap();
        }
        assert!(twice.ends_with(&encoded::<Compact>()));
    }

    fn truncated_input_is_an_error<P: Protocol>()
    where
        Thrift<P, IexKept>: Format,
    {
        let stream = encoded::<P>();
        let len = first_len::<P>(&stream);
        for cut in 0..len {
            assert!(decode_one::<P>(&stream[..cut]).is_err(), "{} cut at {cut}", P::NAME);
        }
    }

    #[test]
    fn truncated_input_is_an_error_binary() {
        truncated_input_is_an_error::<Binary>();
    }

    #[test]
    fn truncated_input_is_an_error_compact() {
        truncated_input_is_an_error::<Compact>();
    }

    fn unknown_side_is_an_error<P: Protocol>()
    where
        Thrift<P, IexKept>: Format,
    {
        let record = th::MultiMessage::new(
            0,
            vec![th::Message::new(
                0,
                "X".into(),
                th::Body::LevelUpdate(th::LevelUpdate::new(1, 1, 0, th::Side(7))),
            )],
        );
        let mut bytes = Vec::new();
        record.write_to_out_protocol(&mut P::output(&mut bytes)).unwrap();
        let err = decode_one::<P>(&bytes).unwrap_err();
        assert!(err.to_string().contains("unknown side"), "{err}");
    }

    #[test]
    fn unknown_side_is_an_error_both() {
        unknown_side_is_an_error::<Binary>();
        unknown_side_is_an_error::<Compact>();
    }

    fn garbage_is_an_error_not_a_panic<P: Protocol>()
    where
        Thrift<P, IexKept>: Format,
    {
        let stream = encoded::<P>();
        let len = first_len::<P>(&stream);
        // Random bytes (fixed seed).
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..5000 {
            let mut buf = vec![0u8; 1 + (state % 128) as usize];
            for byte in &mut buf {
                *byte = crate::format::codec_tests::xorshift(&mut state) as u8;
            }
            let _ = decode_one::<P>(&buf);
            // The same bytes behind a valid record start, to get past the first field.
            let mut prefixed = stream[..len / 2].to_vec();
            prefixed.extend_from_slice(&buf);
            let _ = decode_one::<P>(&prefixed);
        }
        // Every single-byte corruption of the first record either decodes or errors.
        for i in 0..len {
            for value in [0x00, 0x01, 0x0f, 0x7f, 0x80, 0xf0, 0xff] {
                let mut bad = stream[..len].to_vec();
                bad[i] = value;
                let _ = decode_one::<P>(&bad);
            }
        }
    }

    fn union_with_only_an_unknown_field_is_an_error<P: Protocol>()
    where
        Thrift<P, IexKept>: Format,
    {
        let mut bytes = Vec::new();
        let mut out = P::output(&mut bytes);
        let o = &mut out;
        let field = |name: &str, ty, id| TFieldIdentifier::new(name, ty, id);
        o.write_struct_begin(&TStructIdentifier::new("MultiMessage")).unwrap();
        o.write_field_begin(&field("seq_no", TType::I64, 1)).unwrap();
        o.write_i64(0).unwrap();
        o.write_field_end().unwrap();
        o.write_field_begin(&field("messages", TType::List, 2)).unwrap();
        o.write_list_begin(&TListIdentifier::new(TType::Struct, 1)).unwrap();
        o.write_struct_begin(&TStructIdentifier::new("Message")).unwrap();
        o.write_field_begin(&field("ts", TType::I64, 1)).unwrap();
        o.write_i64(0).unwrap();
        o.write_field_end().unwrap();
        o.write_field_begin(&field("symbol", TType::String, 2)).unwrap();
        o.write_string("X").unwrap();
        o.write_field_end().unwrap();
        o.write_field_begin(&field("body", TType::Struct, 3)).unwrap();
        o.write_struct_begin(&TStructIdentifier::new("Body")).unwrap();
        o.write_field_begin(&field("future", TType::I32, 9)).unwrap();
        o.write_i32(1).unwrap();
        o.write_field_end().unwrap();
        o.write_field_stop().unwrap();
        o.write_struct_end().unwrap();
        o.write_field_end().unwrap();
        o.write_field_stop().unwrap();
        o.write_struct_end().unwrap();
        o.write_list_end().unwrap();
        o.write_field_end().unwrap();
        o.write_field_stop().unwrap();
        o.write_struct_end().unwrap();
        drop(out);
        let err = decode_one::<P>(&bytes).unwrap_err();
        assert!(format!("{err:#}").contains("unknown field in union"), "{err:#}");
    }

    #[test]
    fn union_with_only_an_unknown_field_is_an_error_both() {
        union_with_only_an_unknown_field_is_an_error::<Binary>();
        union_with_only_an_unknown_field_is_an_error::<Compact>();
    }

    #[test]
    fn unknown_fields_outside_the_union_are_skipped() {
        // A record with an extra (future) struct field is still read.
        let mut bytes = Vec::new();
        let mut out = Compact::output(&mut bytes);
        let o = &mut out;
        o.write_struct_begin(&TStructIdentifier::new("MultiMessage")).unwrap();
        o.write_field_begin(&TFieldIdentifier::new("extra", TType::String, 7)).unwrap();
        o.write_string("ignored").unwrap();
        o.write_field_end().unwrap();
        o.write_field_begin(&TFieldIdentifier::new("seq_no", TType::I64, 1)).unwrap();
        o.write_i64(5).unwrap();
        o.write_field_end().unwrap();
        o.write_field_begin(&TFieldIdentifier::new("messages", TType::List, 2)).unwrap();
        o.write_list_begin(&TListIdentifier::new(TType::Struct, 0)).unwrap();
        o.write_list_end().unwrap();
        o.write_field_end().unwrap();
        o.write_field_stop().unwrap();
        o.write_struct_end().unwrap();
        drop(out);
        assert_eq!(decode_one::<Compact>(&bytes).unwrap(), bytes.len());
    }

    #[test]
    fn garbage_is_an_error_not_a_panic_binary() {
        garbage_is_an_error_not_a_panic::<Binary>();
        // A list claiming i32::MIN and i32::MAX elements.
        let mut bytes = vec![0x0f, 0x00, 0x02, 0x0c];
        for size in [i32::MIN, i32::MAX] {
            bytes.truncate(4);
            bytes.extend_from_slice(&size.to_be_bytes());
            assert!(decode_one::<Binary>(&bytes).is_err());
        }
    }

    #[test]
    fn garbage_is_an_error_not_a_panic_compact() {
        garbage_is_an_error_not_a_panic::<Compact>();
        // An unknown field with a large explicit id, then a delta that would overflow it.
        let bytes = [0x05, 0xfc, 0xff, 0x03, 0x00, 0xf5, 0x00, 0x00];
        assert!(decode_one::<Compact>(&bytes).is_err());
    }
}
