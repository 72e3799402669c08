//! Apache Avro via `apache-avro`: one binary datum per record, the schema
//! (schemas/iex/iex.avsc) known to both sides.
//!
//! Encode and decode use the crate's schema-aware serde path: the datum writer's
//! `write_ser` serializes straight to the stream, and the datum reader's
//! `read_deser` deserializes straight from it, with no intermediate
//! `types::Value` tree (building and walking `Value`s would allocate a String per
//! field name and a node per value). The records go through small mirror types
//! because the serde mapping does not fit the record as it is: a `u64` maps to a
//! fixed(8), not a long, so `seq_no` and prices are bit-cast to i64 (lossless);
//! `Body`'s struct variants map to the union of the `Trade` and `LevelUpdate`
//! records, and `Side` to the Avro enum.
//!
//! A datum carries no length, so each is framed with a little-endian u32 length
//! prefix; decode checks that the datum used exactly its frame. Encode writes in
//! place and allocates nothing. Decode allocates: the reader only deserializes
//! owned values (`DeserializeOwned` from an `io::Read`), so each record allocates
//! its message Vec and each message its symbol String.
//!
//! The crate's container files (`Writer`/`Reader`: a header with the schema,
//! then blocks of many datums) are not offered as a variant: a record is not a
//! byte range in them, so they cannot be decoded one record per call from the
//! middle of the stream.

use std::sync::{Arc, LazyLock};

use ::apache_avro::Schema;
use ::apache_avro::reader::datum::GenericDatumReader;
use ::apache_avro::writer::datum::GenericDatumWriter;
use anyhow::{Context, Result, anyhow, bail};
use serde::de::DeserializeOwned;
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use super::{Codec, Coding, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::Workload;
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::{Aggregator, Body, Iex, Message, MultiMessage, Side};
use crate::workload::jsonl::schema::{AvroSchema, avro};
use crate::workload::jsonl::{JsonValues, Origin, Value, ValueSink};
use crate::workload::object::SmallObject;
use crate::workload::primitives::Primitives;
use crate::workload::sql::SqlRequest;
use crate::workload::tabular::{LongsRow, MixedRow, StringsRow};
use crate::workload::user::UserResponse;

const SCHEMA_JSON: &str = include_str!("../../../../schemas/iex/iex.avsc");

/// Parsed once per process; the datum writer and reader borrow it.
static SCHEMA: LazyLock<Schema> = LazyLock::new(|| {
    Schema::parse_str(SCHEMA_JSON).expect("schemas/iex/iex.avsc is a valid schema")
});

pub struct AvroDatum {
    writer: GenericDatumWriter<'static>,
    reader: GenericDatumReader<'static>,
}

impl Format for AvroDatum {
    const INFO: FormatInfo = FormatInfo {
        name: "avro-datum",
        family: Family::Format(&features::AVRO),
        library: "apache-avro",
        labels: Labels::OWNED_SERDE,
        notes: "One Avro binary datum per record (schema iex.avsc known to both sides), framed \
                with a little-endian u32 length prefix since a datum carries no length. Written \
                and read through the crate's schema-aware serde path (GenericDatumWriter:: \
                write_ser, GenericDatumReader::read_deser), no types::Value tree. Mirror types: \
                serde's u64 maps to an Avro fixed, so seq_no and prices are bit-cast u64 -> long \
                (lossless); sizes are longs, flags an int, Side an enum, Body a union of two \
                records. Encode allocates nothing; decode reads owned values only \
                (DeserializeOwned from io::Read), so each record allocates its message Vec and \
                each message its symbol String. No container-file variant: records are not \
                byte ranges in a container, so they cannot be decoded one per call. \
                Record-shaped workloads: one schema per shape (schemas/records/<shape>.avsc), the \
                records' own serde derives (Option<T> = union [null, T], f32 = float, u8 level = \
                int, range-checked), same framing; decode reads an owned record (each String and \
                Vec allocated).",
        wire: Some("avro"),
        framing: Framing::U32le,
    };
}

// --- mirror types ---------------------------------------------------------------

/// The record as the schema has it, borrowing the symbols.
#[derive(Serialize)]
#[serde(rename = "MultiMessage")]
pub struct MultiMessageOut<'a> {
    seq_no: i64,
    messages: MessagesOut<'a>,
}

/// Serializes the messages as an Avro array without collecting them first.
pub struct MessagesOut<'a>(&'a [Message]);

impl Serialize for MessagesOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for message in self.0 {
            seq.serialize_element(&MessageOut {
                ts: message.ts,
                symbol: &message.symbol,
                body: AvroBody::from(message.body),
            })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
#[serde(rename = "Message")]
struct MessageOut<'a> {
    ts: i64,
    symbol: &'a str,
    body: AvroBody,
}

/// The union of the `Trade` and `LevelUpdate` records; variant order = union order.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(rename = "Body")]
enum AvroBody {
    Trade { price: i64, size: u32 },
    LevelUpdate { price: i64, size: u32, flags: u8, side: Side },
}

impl From<Body> for AvroBody {
    fn from(body: Body) -> Self {
        match body {
            Body::Trade { price, size } => AvroBody::Trade { price: price as i64, size },
            Body::LevelUpdate { price, size, flags, side } => {
                AvroBody::LevelUpdate { price: price as i64, size, flags, side }
            }
        }
    }
}

/// What decode reads: owned, as the reader requires.
#[derive(Deserialize)]
#[serde(rename = "MultiMessage")]
pub struct MultiMessageIn {
    seq_no: i64,
    messages: Vec<MessageIn>,
}

#[derive(Deserialize)]
#[serde(rename = "Message")]
pub struct MessageIn {
    ts: i64,
    symbol: String,
    body: AvroBody,
}

// --- codec ------------------------------------------------------------------------

/// A workload mapped to an Avro schema: the datum a record is written as, and
/// the value a datum is read back as, which feeds the sink.
pub trait AvroWorkload: Workload {
    type Datum<'a>: Serialize;
    type Read: DeserializeOwned;
    fn schema() -> &'static Schema;
    fn datum(record: &Self::Record) -> Self::Datum<'_>;
    fn aggregate(read: &Self::Read, sink: &mut Self::Sink);
}

/// One datum per record behind a little-endian u32 length.
impl<W: AvroWorkload> Codec<W> for AvroDatum {
    fn new() -> Self {
        let writer = GenericDatumWriter::builder(W::schema())
            .human_readable(false)
            .build()
            .expect("avro-datum: writer for the workload's schema");
        let reader = GenericDatumReader::builder(W::schema())
            .human_readable(false)
            .build()
            .expect("avro-datum: reader for the workload's schema");
        AvroDatum { writer, reader }
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        write_framed("avro-datum", stream, |stream| {
            self.writer.write_ser(stream, &W::datum(record))
        })
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        let (record, used): (W::Read, _) =
            read_framed("avro-datum", stream, |datum| self.reader.read_deser(datum))?;
        W::aggregate(&record, sink);
        Ok(used)
    }
}

impl AvroWorkload for Iex {
    type Datum<'a> = MultiMessageOut<'a>;
    type Read = MultiMessageIn;

    fn schema() -> &'static Schema {
        &SCHEMA
    }

    fn datum(record: &MultiMessage) -> MultiMessageOut<'_> {
        MultiMessageOut { seq_no: record.seq_no as i64, messages: MessagesOut(&record.messages) }
    }

    fn aggregate(record: &MultiMessageIn, sink: &mut Aggregator) {
        sink.packet(record.seq_no as u64, record.messages.len());
        for message in &record.messages {
            let (ts, symbol) = (message.ts, message.symbol.as_bytes());
            match message.body {
                AvroBody::Trade { price, size } => sink.trade(ts, symbol, price as u64, size),
                AvroBody::LevelUpdate { price, size, flags, side } => {
                    sink.level_update(ts, symbol, side, flags, price as u64, size)
                }
            }
        }
    }
}

// --- record-shaped workloads ------------------------------------------------------

/// A record-shaped workload's record with its Avro schema (`schemas/records/<shape>.avsc`).
/// The record types serialize with their own serde derives: `Option<T>` is the
/// union `["null", T]`, `f32` an Avro float, `u8` an int (range-checked on decode).
pub trait AvroRecord: FieldRecord + Serialize + DeserializeOwned {
    fn schema() -> &'static Schema;
}

macro_rules! avro_records {
    ($($record:ty => $file:literal),+ $(,)?) => {$(
        impl AvroRecord for $record {
            fn schema() -> &'static Schema {
                static SCHEMA: LazyLock<Schema> = LazyLock::new(|| {
                    Schema::parse_str(include_str!(concat!("../../../../schemas/records/", $file)))
                        .expect(concat!("schemas/records/", $file, " is a valid schema"))
                });
                &SCHEMA
            }
        }
    )+};
}

avro_records!(
    UserResponse => "user.avsc",
    SqlRequest => "sql.avsc",
    Primitives => "primitives.avsc",
    SmallObject => "object.avsc",
    MixedRow => "mixed.avsc",
    StringsRow => "strings.avsc",
    LongsRow => "longs.avsc",
);

/// Decode reads owned records (the reader only deserializes `DeserializeOwned`
/// from an `io::Read`), so each String and Vec in a record is allocated.
impl<R: AvroRecord> AvroWorkload for Fields<R> {
    type Datum<'a> = &'a R;
    type Read = R;

    fn schema() -> &'static Schema {
        R::schema()
    }

    fn datum(record: &R) -> &R {
        record
    }

    fn aggregate(record: &R, sink: &mut FieldSink) {
        record.visit(sink);
    }
}

// --- avro-generic: a schema read at run time -----------------------------------

self_cell::self_cell!(
    /// A run's schema and the datum writer and reader that borrow it.
    struct GenericCodecs {
        owner: Arc<AvroSchema>,
        #[covariant]
        dependent: WriterAndReader,
    }
);

type WriterAndReader<'s> = (GenericDatumWriter<'s>, GenericDatumReader<'s>);

/// The `avro-generic` format: a user's `.avsc` (or a csv run's own) read at
/// run time, records as the crate's generic `types::Value`s.
pub struct AvroGeneric {
    codecs: GenericCodecs,
}

impl AvroGeneric {
    pub fn new(schema: Arc<AvroSchema>) -> AvroGeneric {
        let codecs = GenericCodecs::new(schema, |schema| {
            let writer = GenericDatumWriter::builder(&schema.schema)
                .human_readable(false)
                .build()
                .expect("avro-generic: a writer for a schema that parsed");
            let reader = GenericDatumReader::builder(&schema.schema)
                .human_readable(false)
                .build()
                .expect("avro-generic: a reader for a schema that parsed");
            (writer, reader)
        });
        AvroGeneric { codecs }
    }
}

impl Format for AvroGeneric {
    const INFO: FormatInfo = FormatInfo {
        name: "avro-generic",
        family: Family::Format(&features::AVRO),
        library: "apache-avro",
        labels: Labels::OWNED_DYNAMIC,
        notes: "The user's .avsc read at run time, or a csv run's own (a [null, T] field per \
                column); records are apache-avro generic types::Values (a Record of named \
                fields, unions as Union(index, value)). One binary datum per record behind a \
                little-endian u32 length, as avro-datum. Encode builds the record's generic \
                value from it and writes it with GenericDatumWriter::write_value_ref (which \
                validates it against the schema, the default); the Go and JVM runners build \
                theirs before the timed loop, so their encode times the encoding alone. Decode \
                reads a generic value (GenericDatumReader::read_value: a String per field name \
                and string, a node per value) and walks it into the value sink, leaving out \
                null fields (docs/dataset-format.md, the projection).",
        wire: Some("avro"),
        framing: Framing::U32le,
    };
}

impl<O: Origin> Coding<JsonValues<O>> for AvroGeneric {
    fn encode(&mut self, record: &Value, stream: &mut Vec<u8>) -> Result<()> {
        let datum = self.codecs.borrow_owner().build(record).map_err(|violations| {
            anyhow!("avro-generic: the record does not fit the schema: {}", violations[0])
        })?;
        let (writer, _) = self.codecs.borrow_dependent();
        write_framed("avro-generic", stream, |stream| writer.write_value_ref(stream, &datum))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut ValueSink) -> Result<usize> {
        let (_, reader) = self.codecs.borrow_dependent();
        let (value, used) = read_framed("avro-generic", stream, |datum| reader.read_value(datum))?;
        avro::walk(&value, sink);
        Ok(used)
    }
}

/// Appends one datum behind its little-endian u32 length; on error the
/// stream is left as it was.
fn write_framed(
    format: &str,
    stream: &mut Vec<u8>,
    write: impl FnOnce(&mut Vec<u8>) -> ::apache_avro::AvroResult<usize>,
) -> Result<()> {
    let start = stream.len();
    stream.extend_from_slice(&[0; 4]);
    if let Err(err) = write(stream) {
        stream.truncate(start);
        return Err(err).with_context(|| format!("{format}: encode"));
    }
    let Ok(len) = u32::try_from(stream.len() - start - 4) else {
        stream.truncate(start);
        bail!("{format}: datum over 4 GiB");
    };
    stream[start..start + 4].copy_from_slice(&len.to_le_bytes());
    Ok(())
}

/// Reads the datum framed at the start of `stream`, which must use its whole
/// frame: what `read` made of it and the bytes the frame took.
fn read_framed<T>(
    format: &str,
    stream: &[u8],
    read: impl FnOnce(&mut &[u8]) -> ::apache_avro::AvroResult<T>,
) -> Result<(T, usize)> {
    let Some(prefix) = stream.first_chunk::<4>() else {
        bail!("{format}: truncated length prefix ({} bytes left)", stream.len());
    };
    let end = 4 + u32::from_le_bytes(*prefix) as usize;
    let mut datum = stream.get(4..end).with_context(|| {
        format!("{format}: datum of {} bytes but only {} left", end - 4, stream.len() - 4)
    })?;
    let value = read(&mut datum).with_context(|| format!("{format}: invalid datum"))?;
    if !datum.is_empty() {
        bail!("{format}: {} bytes left over after the datum", datum.len());
    }
    Ok((value, end))
}

#[cfg(test)]
mod tests {
    use ::apache_avro::types::Value;

    use super::*;
    use crate::format::assert_round_trip;
    use crate::format::codec_tests::{decode_one, first_u32le_len, sample_stream};
    use crate::workload::iex::sample_dataset;

    #[test]
    fn round_trip() {
        assert_round_trip::<Iex, AvroDatum>(&sample_dataset());
    }

    /// Reads every datum as a generic `Value`, independently of the mirror types.
    fn values(stream: &[u8]) -> Vec<Value> {
        let reader = GenericDatumReader::builder(&SCHEMA).build().unwrap();
        let mut offset = 0;
        let mut values = Vec::new();
        while offset < stream.len() {
            let len = first_u32le_len(&stream[offset..]);
            let mut datum = &stream[offset + 4..offset + len];
            values.push(reader.read_value(&mut datum).unwrap());
            assert!(datum.is_empty());
            offset += len;
        }
        values
    }

    fn field<'v>(value: &'v Value, name: &str) -> &'v Value {
        let Value::Record(fields) = value else {
            panic!("not a record: {value:?}");
        };
        &fields.iter().find(|(n, _)| n == name).unwrap().1
    }

    #[test]
    fn datums_follow_the_schema_with_bit_cast_longs() {
        let values = values(&sample_stream::<AvroDatum>());
        assert_eq!(values.len(), sample_dataset().records.len());
        let last = &values[2];
        assert_eq!(field(last, "seq_no"), &Value::Long(u64::MAX as i64));
        let Value::Array(messages) = field(last, "messages") else {
            panic!("messages is not an array");
        };
        assert_eq!(messages.len(), 4);
        let first = &messages[0];
        assert_eq!(field(first, "ts"), &Value::Long(i64::MIN));
        assert_eq!(field(first, "symbol"), &Value::String("A".into()));
        let Value::Union(1, update) = field(first, "body") else {
            panic!("body is not the LevelUpdate branch");
        };
        assert_eq!(field(update, "price"), &Value::Long((u64::MAX >> 1) as i64));
        assert_eq!(field(update, "size"), &Value::Long(u32::MAX.into()));
        assert_eq!(field(update, "flags"), &Value::Int(0xff));
        assert_eq!(field(update, "side"), &Value::Enum(1, "Sell".into()));
        let Value::Union(0, _) = field(&messages[1], "body") else {
            panic!("body is not the Trade branch");
        };
    }

    #[test]
    fn truncated_input_is_an_error() {
        let stream = sample_stream::<AvroDatum>();
        let len = first_u32le_len(&stream);
        for cut in 0..len {
            assert!(decode_one::<AvroDatum>(&stream[..cut]).is_err(), "cut at {cut}");
        }
        // A frame shorter than its datum, and one longer.
        for delta in [-1i64, 1] {
            let mut bad = stream[..len].to_vec();
            bad.push(0);
            let claimed = (len as i64 - 4 + delta) as u32;
            bad[..4].copy_from_slice(&claimed.to_le_bytes());
            assert!(decode_one::<AvroDatum>(&bad).is_err(), "length off by {delta}");
        }
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        let stream = sample_stream::<AvroDatum>();
        assert!(decode_one::<AvroDatum>(&[0xff, 0xff, 0xff, 0x7f, 0, 0]).is_err());
        // Random bytes behind a valid length prefix (fixed seed).
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..5000 {
            let mut buf = vec![0u8; 4 + (state % 100) as usize];
            let claimed = (buf.len() - 4) as u32;
            buf[..4].copy_from_slice(&claimed.to_le_bytes());
            for byte in &mut buf[4..] {
                *byte = crate::format::codec_tests::xorshift(&mut state) as u8;
            }
            let _ = decode_one::<AvroDatum>(&buf);
        }
        // Every single-byte corruption of the first record either decodes or errors.
        let len = first_u32le_len(&stream);
        for i in 4..len {
            for value in [0x00, 0x01, 0x02, 0x7f, 0x80, 0xff] {
                let mut bad = stream[..len].to_vec();
                bad[i] = value;
                let _ = decode_one::<AvroDatum>(&bad);
            }
        }
    }
}
