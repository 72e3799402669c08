//! JSON with `simd-json`, as JSON Lines, in two variants: `json-simd-json`
//! through simd-json's derive crate (simd-json-derive: no serde in between),
//! and `json-simd-json-serde` through its serde support.
//!
//! Both write the same JSON as `json-serde_json` (serde derive's data model, one
//! compact record per line); the serde variant with simd-json's own serializer
//! (`simd_json::serde::to_writer`) straight into the stream.
//!
//! simd-json parses in place and needs `&mut [u8]` followed by SIMD padding,
//! while the stream is shared: decode finds the end of the line (`memchr`),
//! copies the record into a scratch buffer held by the codec with the padding
//! after it, and builds the tape with `simd_json::fill_tape_padded` (simd-json's
//! documented reuse path: caller-owned padded input, reused `Buffers`, and a
//! reused `Tape` recovered through `Deserializer::from_tape` / `into_tape`).
//! `from_slice_with_buffers` would allocate a fresh tape and copy the input once
//! more into its own padded buffer, every record. The record is read from the
//! tape through the iex `DeserializeSeed`, which feeds each message to the
//! aggregator as it is read (no message list); symbols are borrowed from the
//! scratch copy, where simd-json unescapes strings in place.

use std::io::Write as _;

use anyhow::{Context, Result, ensure};
use simd_json::{Buffers, Deserializer, INPUT_PADDING, Node, Tape};
use simd_json_derive::Deserialize as _;
use simd_json_derive::Serialize as _;
use simd_json_derive::de::{Error as DeriveError, Result as DeriveResult};

use super::serde_decode::SerdeDecode;
use super::serde_json::{append_json_line, json_line_len};
use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::{Aggregator, Body, Iex, Message, MultiMessage, Side};
use crate::workload::jsonl::{JsonValues, Origin, Value, ValueSink};

pub struct JsonSimdJsonSerde {
    /// The record being decoded, then `INPUT_PADDING` bytes; parsed in place.
    scratch: Vec<u8>,
    buffers: Buffers,
    /// Empty between records; only its allocation is kept. (`Tape::null()`
    /// allocates, so it is not the placeholder.)
    tape: Option<Tape<'static>>,
}

impl Format for JsonSimdJsonSerde {
    const INFO: FormatInfo = FormatInfo {
        name: "json-simd-json-serde",
        family: Family::Format(&features::JSON),
        library: "simd-json",
        labels: Labels::OWNED_SERDE,
        notes: "The same JSON Lines as json-serde_json (serde derive's data model, one compact \
                record per line ended by \\n). Encode: simd-json's own serializer, \
                simd_json::serde::to_writer, straight into the stream, no allocation. Decode: \
                memchr finds the line's end; simd-json parses in place and needs &mut input with \
                SIMD padding, so the record is copied into a reused scratch buffer with \
                INPUT_PADDING after it, the tape is built by simd_json::fill_tape_padded with \
                reused Buffers and a reused Tape (Deserializer::from_tape / into_tape), and \
                the record is fed from it through a DeserializeSeed straight into the \
                aggregator, one message at a time, with no message Vec (symbols are borrowed \
                from the scratch copy, escapes included: simd-json unescapes in place). \
                Record-shaped workloads: the same lines, scratch, Buffers and \
                Tape, decoded into the owned record, then visited; None is null; floats parse \
                back bit-exactly with default features (approx-number-parsing is off). \
                simd-json's serializer writes an f32 as its f64 widening (0.1f32 as \
                0.10000000149011612, where serde_json writes 0.1), so f32 fields take more bytes \
                than in json-serde_json; they still read back exactly. \
                jsonl: the record serialized through simd-json's serde serializer; the \
                line copied into the padded scratch and parsed into a simd_json \
                BorrowedValue (value::borrowed::to_value_with_buffers, reused Buffers; \
                strings borrowed from the scratch), then walked into the sink; simd-json \
                refuses an integer beyond 64 bits.",
        wire: Some("json"),
        framing: Framing::Newline,
    };
}

impl<W: SerdeDecode> Codec<W> for JsonSimdJsonSerde {
    fn new() -> Self {
        JsonSimdJsonSerde { scratch: Vec::new(), buffers: Buffers::default(), tape: None }
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        append_json_line(stream, |stream| simd_json::serde::to_writer(stream, record))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        self.decode_line(stream, |deserializer| W::deserialize_into(deserializer, sink))
    }
}

impl JsonSimdJsonSerde {
    /// Parses the line at the start of `stream` into the reused tape and lets
    /// `read` deserialize from it; returns the bytes the line took.
    fn decode_line(
        &mut self,
        stream: &[u8],
        read: impl FnOnce(&mut Deserializer<'_>) -> Result<(), simd_json::Error>,
    ) -> Result<usize> {
        let len = copy_line(stream, &mut self.scratch)?;
        let mut tape = self.tape.take().unwrap_or(Tape(Vec::new())).reset();
        if let Err(e) =
            simd_json::fill_tape_padded(&mut self.scratch, len, &mut self.buffers, &mut tape)
        {
            self.tape = Some(tape.reset());
            return Err(e).context("json: decode");
        }
        let mut deserializer = Deserializer::from_tape(tape);
        let result = read(&mut deserializer);
        self.tape = Some(deserializer.into_tape().reset());
        result.context("json: decode")?;
        Ok(len + 1)
    }
}

/// Copies the line at the start of `stream` into `scratch`, followed by the
/// padding simd-json's in-place parser needs; returns the line's length.
fn copy_line(stream: &[u8], scratch: &mut Vec<u8>) -> Result<usize> {
    let len = json_line_len(stream)?;
    scratch.clear();
    scratch.extend_from_slice(&stream[..len]);
    scratch.resize(len + INPUT_PADDING, 0);
    Ok(len)
}

/// jsonl and csv: the record serialized as it is (simd-json's serde serializer);
/// decoded into `simd_json::BorrowedValue`, the library's dynamic model
/// (strings borrowed from the padded scratch copy), then walked into the sink.
impl<K: Origin> Codec<JsonValues<K>> for JsonSimdJsonSerde {
    fn new() -> Self {
        <JsonSimdJsonSerde as Codec<Iex>>::new()
    }

    fn encode(&mut self, record: &Value, stream: &mut Vec<u8>) -> Result<()> {
        append_json_line(stream, |stream| simd_json::serde::to_writer(stream, record))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut ValueSink) -> Result<usize> {
        let len = copy_line(stream, &mut self.scratch)?;
        let value = simd_json::value::borrowed::to_value_with_buffers(
            &mut self.scratch[..len],
            &mut self.buffers,
        )
        .context("json: decode")?;
        walk(&value, sink);
        Ok(len + 1)
    }
}

fn walk(value: &simd_json::BorrowedValue<'_>, sink: &mut ValueSink) {
    use simd_json::{BorrowedValue as V, StaticNode};
    match value {
        V::Static(StaticNode::Null) => sink.null(),
        V::Static(StaticNode::Bool(b)) => sink.bool(*b),
        V::Static(StaticNode::I64(v)) => sink.int(*v),
        V::Static(StaticNode::U64(v)) => sink.uint(*v),
        V::Static(StaticNode::F64(v)) => sink.float(*v),
        V::String(s) => sink.string(s.as_bytes()),
        V::Array(elements) => {
            sink.begin_array();
            elements.iter().for_each(|e| walk(e, sink));
            sink.end_array();
        }
        V::Object(members) => {
            sink.begin_object();
            for (key, value) in members.iter() {
                sink.key(key.as_bytes());
                walk(value, sink);
            }
            sink.end_object();
        }
    }
}

// --- json-simd-json: simd-json-derive ------------------------------------------

/// Mirrors of the record's message for simd-json-derive, which has no enum
/// variants with named fields: `Body`'s variants hold a struct each, which
/// writes and reads the same JSON (`{"Trade":{"price":..,"size":..}}`) as serde
/// derive's externally tagged `Body`. Built on the stack for encode, borrowing
/// the symbol; decoded borrowing the symbol from the scratch copy.
#[derive(simd_json_derive::Serialize, simd_json_derive::Deserialize)]
struct MessageJson<'a> {
    ts: i64,
    symbol: &'a str,
    body: BodyJson,
}

#[derive(simd_json_derive::Serialize, simd_json_derive::Deserialize)]
enum BodyJson {
    Trade(TradeJson),
    LevelUpdate(LevelUpdateJson),
}

#[derive(simd_json_derive::Serialize, simd_json_derive::Deserialize)]
struct TradeJson {
    price: u64,
    size: u32,
}

#[derive(simd_json_derive::Serialize, simd_json_derive::Deserialize)]
struct LevelUpdateJson {
    price: u64,
    size: u32,
    flags: u8,
    side: SideJson,
}

#[derive(simd_json_derive::Serialize, simd_json_derive::Deserialize)]
enum SideJson {
    Buy,
    Sell,
}

impl<'a> From<&'a Message> for MessageJson<'a> {
    fn from(m: &'a Message) -> Self {
        let body = match m.body {
            Body::Trade { price, size } => BodyJson::Trade(TradeJson { price, size }),
            Body::LevelUpdate { price, size, flags, side } => {
                BodyJson::LevelUpdate(LevelUpdateJson {
                    price,
                    size,
                    flags,
                    side: match side {
                        Side::Buy => SideJson::Buy,
                        Side::Sell => SideJson::Sell,
                    },
                })
            }
        };
        MessageJson { ts: m.ts, symbol: &m.symbol, body }
    }
}

/// simd-json's derive API: `simd_json_derive::Serialize::json_write` and
/// `Deserialize::from_tape`, with no serde in between.
pub struct JsonSimdJson {
    line: Line,
}

impl Format for JsonSimdJson {
    const INFO: FormatInfo = FormatInfo {
        name: "json-simd-json",
        family: Family::Format(&features::JSON),
        library: "simd-json-derive",
        labels: Labels::OWNED_NATIVE,
        notes: "The same JSON Lines as json-serde_json, through simd-json's derive crate \
                (simd-json-derive: json_write / from_tape, no serde). simd-json-derive has no \
                enum variants with named fields, so the message is a mirror whose Body variants \
                each hold a struct: the same JSON as serde derive's externally tagged Body. \
                Encode: the envelope {\"seq_no\":..,\"messages\":[..]} is written by hand and \
                each message with its derived json_write, built on the stack from the record \
                (no copy of the symbol), straight into the stream. Decode: as json-simd-json-serde, \
                the line is copied into a reused padded scratch and parsed into a tape with \
                fill_tape_padded and reused Buffers; the envelope is walked by hand and each \
                message read with its derived from_tape (symbol borrowed from the scratch, \
                escapes resolved in place) and fed to the aggregator: no message Vec. The \
                derive API consumes the tape's node Vec (its Tape is an iterator over it), so \
                each record allocates a fresh one. Record-shaped workloads: the derives on the \
                record types, the same lines, decoded owned with from_tape, then visited.",
        wire: Some("json"),
        framing: Framing::Newline,
    };
}

impl Codec<Iex> for JsonSimdJson {
    fn new() -> Self {
        JsonSimdJson { line: Line::default() }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        append_json_line(stream, |stream| write_record(record, stream))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        self.line.decode(stream, |nodes| read_record(nodes, sink))
    }
}

/// Byte for byte what serde derive writes for `MultiMessage`.
fn write_record(record: &MultiMessage, out: &mut Vec<u8>) -> std::io::Result<()> {
    write!(out, "{{\"seq_no\":{},\"messages\":[", record.seq_no)?;
    for (i, m) in record.messages.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        MessageJson::from(m).json_write(out)?;
    }
    out.extend_from_slice(b"]}");
    Ok(())
}

/// Walks a record's envelope (an object with `seq_no` and `messages`, in any
/// order; other keys skipped) and feeds each message to the sink as it is read.
fn read_record(nodes: &mut simd_json_derive::Tape<'_>, sink: &mut Aggregator) -> DeriveResult<()> {
    let Some(Node::Object { len, .. }) = nodes.next() else {
        return Err(DeriveError::InvalidStructRepresentation);
    };
    let (mut seq_no, mut messages) = (None, None);
    for _ in 0..len {
        match nodes.next() {
            Some(Node::String("seq_no")) => seq_no = Some(u64::from_tape(nodes)?),
            Some(Node::String("messages")) => {
                let Some(Node::Array { len: count, .. }) = nodes.next() else {
                    return Err(DeriveError::expected_array());
                };
                for _ in 0..count {
                    let m = MessageJson::from_tape(nodes)?;
                    let (ts, symbol) = (m.ts, m.symbol.as_bytes());
                    match m.body {
                        BodyJson::Trade(t) => sink.trade(ts, symbol, t.price, t.size),
                        BodyJson::LevelUpdate(u) => {
                            let side = match u.side {
                                SideJson::Buy => Side::Buy,
                                SideJson::Sell => Side::Sell,
                            };
                            sink.level_update(ts, symbol, side, u.flags, u.price, u.size);
                        }
                    }
                }
                messages = Some(count);
            }
            Some(Node::String(_)) => simd_json_derive::__skip(1, nodes),
            _ => return Err(DeriveError::expected_string()),
        }
    }
    let seq_no = seq_no.ok_or(DeriveError::MissingField("seq_no"))?;
    let messages = messages.ok_or(DeriveError::MissingField("messages"))?;
    sink.packet(seq_no, messages);
    Ok(())
}

/// The record-shaped workloads: simd-json-derive's derives on the record types
/// (see `field_record!`), decoded owned, then visited.
impl<R> Codec<Fields<R>> for JsonSimdJson
where
    R: FieldRecord + simd_json_derive::Serialize + for<'a> simd_json_derive::Deserialize<'a>,
{
    fn new() -> Self {
        <JsonSimdJson as Codec<Iex>>::new()
    }

    fn encode(&mut self, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        append_json_line(stream, |stream| record.json_write(stream))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        self.line.decode(stream, |nodes| R::from_tape(nodes).map(|record| record.visit(sink)))
    }
}

/// The derive codec's reused parsing state: the padded scratch and Buffers.
#[derive(Default)]
struct Line {
    scratch: Vec<u8>,
    buffers: Buffers,
}

impl Line {
    /// Parses the line at the start of `stream` and lets `read` walk its nodes;
    /// returns the bytes the line took.
    fn decode(
        &mut self,
        stream: &[u8],
        read: impl FnOnce(&mut simd_json_derive::Tape<'_>) -> DeriveResult<()>,
    ) -> Result<usize> {
        let len = copy_line(stream, &mut self.scratch)?;
        // Empty: simd-json reserves the tape's exact size in one allocation.
        let mut tape = Tape(Vec::new());
        simd_json::fill_tape_padded(&mut self.scratch, len, &mut self.buffers, &mut tape)
            .context("json: decode")?;
        let mut nodes = tape.0.into_iter().peekable();
        read(&mut nodes).context("json: decode")?;
        ensure!(nodes.next().is_none(), "json: decode: trailing values on the line");
        Ok(len + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::format::codec_tests::*;
    use crate::workload::Dataset;
    use crate::workload::iex::sample_dataset;

    #[test]
    fn round_trips() {
        assert_round_trip::<Iex, JsonSimdJson>(&sample_dataset());
        assert_round_trip::<Iex, JsonSimdJsonSerde>(&sample_dataset());
    }

    /// Both variants write what serde_json writes.
    #[test]
    fn stream_matches_serde_json() {
        fn encoded<C: Codec<Iex>>(record: &MultiMessage) -> Vec<u8> {
            let mut stream = Vec::new();
            C::new().encode(record, &mut stream).unwrap();
            stream
        }
        for record in sample_dataset().records {
            let mut expected = serde_json::to_vec(&record).unwrap();
            expected.push(b'\n');
            assert_eq!(encoded::<JsonSimdJson>(&record), expected);
            assert_eq!(encoded::<JsonSimdJsonSerde>(&record), expected);
        }
    }

    /// A record longer than the buffers' first size, decoded between short ones;
    /// also a symbol with a JSON escape, which simd-json unescapes in place.
    #[test]
    fn long_records_and_escapes() {
        let mut dataset = sample_dataset();
        let mut big = crate::format::codec_tests::big_record();
        for m in &mut big.messages {
            m.symbol.insert(1, '"');
        }
        dataset.records.insert(1, big.clone());
        dataset.records.push(big);
        let mut reference = Aggregator::default();
        for record in &dataset.records {
            record.aggregate_into(&mut reference);
        }
        let dataset = Dataset::in_order(dataset.records, reference.finish(), dataset.source);
        assert_round_trip::<Iex, JsonSimdJson>(&dataset);
        assert_round_trip::<Iex, JsonSimdJsonSerde>(&dataset);
    }

    crate::format::codec_tests::json_lines_codec_tests!(JsonSimdJson, JsonSimdJsonSerde);

    /// Steady state: encode allocates nothing in either variant. Decode: the
    /// derive variant allocates each of the 4 records' tape (its API consumes
    /// it); the serde variant nothing (messages stream into the sink; scratch,
    /// Buffers and Tape are reused; escapes are resolved in place).
    #[test]
    fn allocations_per_record() {
        let records = sample_dataset().records;
        assert_steady_state_allocations::<JsonSimdJson>(&records, (0, 4));
        assert_steady_state_allocations::<JsonSimdJsonSerde>(&records, (0, 0));
    }

    /// simd-json reads back every f64 and f32 bit-exactly, through serde and
    /// through the derive API.
    #[test]
    fn floats_round_trip_bit_exactly() {
        let (f64s, f32s) = random_floats();
        let mut text = simd_json::serde::to_vec(&f64s).unwrap();
        let back: Vec<f64> = simd_json::serde::from_slice(&mut text).unwrap();
        assert_eq!(inexact(&f64s, &back, f64::to_bits), 0);
        let mut text = simd_json::serde::to_vec(&f32s).unwrap();
        let back: Vec<f32> = simd_json::serde::from_slice(&mut text).unwrap();
        assert_eq!(inexact(&f32s, &back, |x| u64::from(x.to_bits())), 0);
        let mut text = f64s.json_vec().unwrap();
        let back = Vec::<f64>::from_slice(&mut text).unwrap();
        assert_eq!(inexact(&f64s, &back, f64::to_bits), 0);
        let mut text = f32s.json_vec().unwrap();
        let back = Vec::<f32>::from_slice(&mut text).unwrap();
        assert_eq!(inexact(&f32s, &back, |x| u64::from(x.to_bits())), 0);
    }
}
