//! FlexBuffers (the `flexbuffers` crate, FlatBuffers' schemaless sibling) through
//! serde for encoding and its zero-copy `Reader` for decoding.
//!
//! Encode serializes each record with one `FlexbufferSerializer` that lives in
//! the codec and is reset between records, so its buffers are reused. serde maps
//! the record to FlexBuffers maps keyed by field name; `Body` is externally
//! tagged (a one-entry map `{"Trade": {...}}`) and `Side` a string ("Buy"/"Sell").
//! A FlexBuffer's root is found from its last bytes, so it is not self-delimiting:
//! each record is preceded by its length as a little-endian u32.
//!
//! Decode walks the buffer in place with `flexbuffers::Reader` (map lookups by
//! key, typed getters that check each value's type and bounds), reading symbols
//! as `&str` straight from the stream.

use std::panic::{self, AssertUnwindSafe};

use ::flexbuffers::{FlexBufferType, FlexbufferSerializer, MapReader, Reader};
use anyhow::{Context, Result, bail, ensure};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::{Aggregator, Iex, MultiMessage, Side};
use crate::workload::jsonl::{JsonValues, Origin, Value, ValueSink};

const PREFIX: usize = 4;

pub struct Flexbuffers {
    serializer: FlexbufferSerializer,
}

impl Format for Flexbuffers {
    const INFO: FormatInfo = FormatInfo {
        name: "flexbuffers",
        family: Family::Format(&features::FLEXBUFFERS),
        library: "flexbuffers",
        labels: Labels::ZERO_COPY_SERDE,
        notes: "Encode: serde into one reused FlexbufferSerializer (reset per record); structs \
                are maps keyed by field name, Body an externally tagged one-entry map, Side a \
                string. Framing: u32 LE length prefix (a FlexBuffer's root is at its end). \
                Decode: the zero-copy flexbuffers::Reader walks each buffer in place with \
                checked getters (type and bounds per value), symbols as &str from the stream; \
                measured faster than flexbuffers::from_slice into the serde view, which also \
                allocates the message Vec. Record-shaped workloads: the same framing and reused \
                serializer; decode is flexbuffers::from_slice (serde over the Reader) into the \
                OWNED record, then visited: one generic path for every shape instead of a \
                hand-written Reader walk per shape, so it copies strings; f32 is a 32-bit float, \
                None null. \
                jsonl: the record serialized through serde into the reused serializer (a \
                key twice in an object makes the builder panic, reported as its encode \
                error; an integer beyond 64 bits fails); read in place with the crate's \
                Reader, then walked into the sink.",
        wire: Some("flexbuffers"),
        framing: Framing::U32le,
    };
}

impl Codec<Iex> for Flexbuffers {
    fn new() -> Self {
        Flexbuffers { serializer: FlexbufferSerializer::new() }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        self.encode_framed(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let (buffer, used) = framed(stream)?;
        // The crate's Reader indexes some offsets unchecked and panics on corrupt
        // buffers (google/flatbuffers#8923); turn that into an error. Free when
        // nothing panics.
        match panic::catch_unwind(AssertUnwindSafe(|| read(buffer, sink))) {
            Ok(result) => result.context("flexbuffers: invalid buffer")?,
            Err(_) => bail!("flexbuffers: corrupt buffer (the reader panicked)"),
        }
        Ok(used)
    }
}

impl Flexbuffers {
    /// Serializes `record` into the reused serializer and appends it to `stream`
    /// behind its length.
    fn encode_framed<T: Serialize + ?Sized>(
        &mut self,
        record: &T,
        stream: &mut Vec<u8>,
    ) -> Result<()> {
        self.serializer.reset();
        record.serialize(&mut self.serializer).context("flexbuffers: serialize")?;
        let bytes = self.serializer.view();
        let len = u32::try_from(bytes.len()).context("flexbuffers: record over 4 GiB")?;
        stream.reserve(PREFIX + bytes.len());
        stream.extend_from_slice(&len.to_le_bytes());
        stream.extend_from_slice(bytes);
        Ok(())
    }
}

/// The record-shaped workloads: the same framing and reused serializer; decode
/// is `flexbuffers::from_slice` (the crate's serde deserializer over its Reader)
/// into the owned record, then visited. It is simpler than a hand-written
/// Reader walk per shape and correct for every one (Option as null / value,
/// f32 stored as a 32-bit float); strings are copied into the record.
impl<R: FieldRecord + Serialize + DeserializeOwned> Codec<Fields<R>> for Flexbuffers {
    /// These shapes decode into owned records, not through the in-place Reader.
    const LABELS: Labels = Labels::OWNED_SERDE;

    fn new() -> Self {
        <Flexbuffers as Codec<Iex>>::new()
    }

    fn encode(&mut self, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        self.encode_framed(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        let (buffer, used) = framed(stream)?;
        // The Reader under from_slice can panic on corrupt buffers (see the iex decode).
        let record: R = match panic::catch_unwind(|| ::flexbuffers::from_slice::<R>(buffer)) {
            Ok(result) => result.context("flexbuffers: decode")?,
            Err(_) => bail!("flexbuffers: corrupt buffer (the reader panicked)"),
        };
        record.visit(sink);
        Ok(used)
    }
}

/// The buffer at the start of `stream` and the bytes its frame takes.
fn framed(stream: &[u8]) -> Result<(&[u8], usize)> {
    let Some(prefix) = stream.first_chunk::<PREFIX>() else {
        bail!("flexbuffers: truncated length prefix ({} bytes left)", stream.len());
    };
    let end = PREFIX + u32::from_le_bytes(*prefix) as usize;
    let buffer = stream.get(PREFIX..end).with_context(|| {
        format!("flexbuffers: buffer of {end} bytes but only {} left", stream.len())
    })?;
    Ok((buffer, end))
}

fn read(buffer: &[u8], sink: &mut Aggregator) -> Result<()> {
    let root = Reader::get_root(buffer)?.get_map()?;
    let messages = root.index("messages")?.get_vector()?;
    sink.packet(unsigned(root.index("seq_no")?)?, messages.len());
    for message in messages.iter() {
        let message = message.get_map()?;
        let ts = message.index("ts")?.get_i64()?;
        let symbol = message.index("symbol")?.get_str()?.as_bytes();
        let body = message.index("body")?.get_map()?;
        ensure!(body.len() == 1, "body is a map of {} entries, not one", body.len());
        let fields = body.index(0)?.get_map()?;
        match body.keys_vector().index(0)?.get_key()? {
            "Trade" => sink.trade(ts, symbol, unsigned(fields.index("price")?)?, size(&fields)?),
            "LevelUpdate" => {
                let side = match fields.index("side")?.get_str()? {
                    "Buy" => Side::Buy,
                    "Sell" => Side::Sell,
                    other => bail!("unknown side {other:?}"),
                };
                let price = unsigned(fields.index("price")?)?;
                let flags = u8::try_from(unsigned(fields.index("flags")?)?)?;
                sink.level_update(ts, symbol, side, flags, price, size(&fields)?);
            }
            other => bail!("unknown body {other:?}"),
        }
    }
    Ok(())
}

fn size(fields: &MapReader<&[u8]>) -> Result<u32> {
    Ok(u32::try_from(unsigned(fields.index("size")?)?)?)
}

/// An unsigned field as the crate's serde deserializer takes one: a UInt, or
/// an Int of zero or more. FlexBuffers is typed per value, and a writer with
/// no keyed unsigned put (flatbuffers-java's builder) writes an Int;
/// `get_u64` alone would refuse it, and `as_u64` would read a negative as 0.
fn unsigned(value: Reader<&[u8]>) -> Result<u64> {
    match value.flexbuffer_type() {
        FlexBufferType::Int => {
            let signed = value.get_i64()?;
            u64::try_from(signed).with_context(|| format!("{signed} for an unsigned field"))
        }
        _ => Ok(value.get_u64()?),
    }
}

/// jsonl and csv: the record serialized as it is into the reused serializer; read with
/// the crate's `Reader`, its in-place dynamic model, walked into the sink.
impl<K: Origin> Codec<JsonValues<K>> for Flexbuffers {
    fn new() -> Self {
        <Flexbuffers as Codec<Iex>>::new()
    }

    fn encode(&mut self, record: &Value, stream: &mut Vec<u8>) -> Result<()> {
        // The builder panics on a key twice in a map (flexbuffers 25.12.19,
        // builder/map.rs): that is the library's answer to such a record.
        crate::caught::quietly(|| self.encode_framed(record, stream))
            .unwrap_or_else(|panic| bail!("flexbuffers: serialize: the builder panicked: {panic}"))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut ValueSink) -> Result<usize> {
        let (buffer, used) = framed(stream)?;
        // The Reader can panic on corrupt buffers (see the iex decode).
        match panic::catch_unwind(AssertUnwindSafe(|| {
            Reader::get_root(buffer).map_err(anyhow::Error::from).and_then(|root| walk(&root, sink))
        })) {
            Ok(result) => result.context("flexbuffers: invalid buffer")?,
            Err(_) => bail!("flexbuffers: corrupt buffer (the reader panicked)"),
        }
        Ok(used)
    }
}

fn walk(value: &Reader<&[u8]>, sink: &mut ValueSink) -> Result<()> {
    use FlexBufferType as T;
    match value.flexbuffer_type() {
        T::Null => sink.null(),
        T::Bool => sink.bool(value.get_bool()?),
        T::Int | T::IndirectInt => sink.int(value.get_i64()?),
        T::UInt | T::IndirectUInt => sink.uint(value.get_u64()?),
        T::Float | T::IndirectFloat => sink.float(value.get_f64()?),
        T::String | T::Key => sink.string(value.get_str()?.as_bytes()),
        T::Map => {
            let map = value.get_map()?;
            sink.begin_object();
            for (key, member) in map.iter_keys().zip(map.iter_values()) {
                sink.key(key.as_bytes());
                walk(&member, sink)?;
            }
            sink.end_object();
        }
        t if t.is_vector() => {
            sink.begin_array();
            for element in value.get_vector()?.iter() {
                walk(&element, sink)?;
            }
            sink.end_array();
        }
        other => bail!("decoded a FlexBuffers {other:?}, which JSON has no kind for"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::workload::iex::Aggregator;
    use crate::workload::iex::sample_dataset;
    use crate::workload::iex::view::MultiMessageSeed;
    use serde::de::DeserializeSeed;

    crate::format::codec_tests::iex_codec_tests!(Flexbuffers);

    /// The serde mapping of `Body` (an enum with struct variants) survives a round
    /// trip through the library's own deserializer, into the record and through
    /// the serde codecs' streaming seed.
    #[test]
    fn serde_round_trips_the_record_and_streams_through_the_seed() {
        let mut codec = <Flexbuffers as Codec<Iex>>::new();
        for record in &sample_dataset().records {
            let mut stream = Vec::new();
            Codec::<Iex>::encode(&mut codec, record, &mut stream).unwrap();
            let (buffer, _) = framed(&stream).unwrap();
            let back: MultiMessage = ::flexbuffers::from_slice(buffer).unwrap();
            assert_eq!(&back, record);
            let (mut streamed, mut expected) = (Aggregator::default(), Aggregator::default());
            let root = ::flexbuffers::Reader::get_root(buffer).unwrap();
            MultiMessageSeed(&mut streamed).deserialize(root).unwrap();
            record.aggregate_into(&mut expected);
            assert_eq!(streamed.finish(), expected.finish());
        }
    }

    /// f32 stays a 32-bit float and f64 a 64-bit one, both read back bit-exactly.
    #[test]
    fn record_values_round_trip_bit_exactly() {
        use crate::workload::tabular::MixedRow;
        let mut codec = <Flexbuffers as Codec<crate::workload::tabular::Mixed>>::new();
        for (f11, f2) in [
            (0.1f32, 0.1f64),
            (f32::MIN_POSITIVE / 3.0, 5e-324),
            (-f32::MAX, f64::MAX),
            (1.0 / 3.0, -1.0 / 3.0),
        ] {
            let row = MixedRow {
                f2: Some(f2),
                f11: Some(f11),
                f3: Some(i64::MIN),
                ..MixedRow::default()
            };
            let mut stream = Vec::new();
            Codec::<crate::workload::tabular::Mixed>::encode(&mut codec, &row, &mut stream)
                .unwrap();
            let (buffer, _) = framed(&stream).unwrap();
            let back: MixedRow = ::flexbuffers::from_slice(buffer).unwrap();
            assert_eq!(
                (back.f11.map(f32::to_bits), back.f2.map(f64::to_bits)),
                (Some(f11.to_bits()), Some(f2.to_bits()))
            );
            assert_eq!(back, row);
        }
    }

    /// A record whose unsigned fields are Ints, as flatbuffers-java writes
    /// them, reads as the same record; a negative Int in one is an error.
    #[test]
    fn unsigned_fields_read_from_ints_of_zero_or_more() {
        let record = |seq_no: i64| {
            let mut builder = ::flexbuffers::Builder::default();
            let mut root = builder.start_map();
            root.push("seq_no", seq_no);
            let mut messages = root.start_vector("messages");
            let mut message = messages.start_map();
            message.push("ts", 7i64);
            message.push("symbol", "MSFT");
            let mut body = message.start_map("body");
            let mut fields = body.start_map("LevelUpdate");
            fields.push("price", 650_000i64);
            fields.push("size", 100i64);
            fields.push("flags", 1i64);
            fields.push("side", "Buy");
            fields.end_map();
            body.end_map();
            message.end_map();
            messages.end_vector();
            root.end_map();
            builder.view().to_vec()
        };
        let mut read_back = Aggregator::default();
        read(&record(3), &mut read_back).unwrap();
        let mut expected = Aggregator::default();
        let message = crate::workload::iex::Message {
            ts: 7,
            symbol: "MSFT".to_owned(),
            body: crate::workload::iex::Body::LevelUpdate {
                price: 650_000,
                size: 100,
                flags: 1,
                side: Side::Buy,
            },
        };
        MultiMessage { seq_no: 3, messages: vec![message] }.aggregate_into(&mut expected);
        assert_eq!(read_back.finish(), expected.finish());
        let error = read(&record(-1), &mut Aggregator::default()).unwrap_err();
        assert_eq!(error.to_string(), "-1 for an unsigned field");
    }
}
