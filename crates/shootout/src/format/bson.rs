//! BSON through serde with the `bson` crate (3.x, `serde` feature).
//!
//! Serde derive's data model of the shared `MultiMessage`: a record is a BSON
//! document; `messages` a BSON array (a document keyed "0", "1", ..); `Body`
//! externally tagged (`{Trade: {price, size}}`); `Side` as its variant name.
//! BSON has no unsigned integers: bson's serializer writes u8 as int32, u32 as
//! int64, and u64 as int64 when it fits and otherwise fails with
//! `TooLargeUnsignedInteger`, so a `seq_no` or `price` above `i64::MAX` is an
//! encode error, never a silently wrapped value (IEX prices are the wire's i64,
//! so a negative one is carried as a u64 above `i64::MAX` and is rejected too).
//!
//! Framing: BSON's own; a document starts with its int32 total length.
//! Encode: `bson::serialize_to_buffer` appends straight to the stream (a failed
//! record is truncated away) and allocates nothing. Decode: the length is read
//! and bounds-checked, then bson's raw (in-place) deserializer, `bson::RawDeserializer`, the
//! one `bson::deserialize_from_slice` uses, feeds the record through the iex
//! `DeserializeSeed` straight into the aggregator, one message at a time: no
//! message list is built, and symbols are borrowed from the stream.

use anyhow::{Context, Result, bail, ensure};

use super::serde_decode::SerdeDecode;
use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::jsonl::{JsonValues, Origin, Value, ValueSink};

/// The smallest BSON document: its int32 length and the terminating NUL.
const MIN_DOCUMENT: usize = 5;

pub struct Bson;

impl Format for Bson {
    const INFO: FormatInfo = FormatInfo {
        name: "bson",
        family: Family::Format(&features::BSON),
        library: "bson",
        labels: Labels::OWNED_SERDE.lossy(
            "no unsigned ints: u64 stored as int64, encode fails above i64::MAX \
                 (u32 as int64, u8 as int32)",
        ),
        notes: "Serde derive's data model of MultiMessage as a BSON document: messages an array \
                (a document keyed \"0\", \"1\", ..), Body externally tagged ({Trade: {..}}), \
                Side as its variant name. BSON has no unsigned types: bson 3 writes u8 as int32, \
                u32 as int64, and u64 as int64 when it fits, else the record fails to encode \
                (TooLargeUnsignedInteger) rather than wrap; seq_no or price above i64::MAX, such \
                as a negative wire price, cannot be carried. Framing: BSON's own int32 document \
                length. Encode: bson::serialize_to_buffer appends straight to the stream, no \
                allocation. Decode: bson::RawDeserializer (the raw, in-place deserializer behind \
                bson::deserialize_from_slice) feeds the record through a DeserializeSeed straight \
                into the aggregator, one message at a time, with no message Vec; symbols are \
                borrowed from the stream. Record-shaped workloads: one document per record, decoded \
                into the owned record, then visited; every value has a BSON type (i32 and u8 as \
                int32, i64 int64, f64 double, f32 widened to double and narrowed back exactly, \
                None null), so nothing is lost. \
                jsonl: the record serialized through serde as a document (a record that \
                is not an object, an integer above i64::MAX and a key holding NUL fail \
                to encode); decoded as a bson::RawDocument, read in place, then walked \
                into the sink.",
        wire: Some("bson"),
        framing: Framing::None,
    };
}

impl<W: SerdeDecode> Codec<W> for Bson {
    fn new() -> Self {
        Bson
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        let start = stream.len();
        bson::serialize_to_buffer(record, stream)
            .inspect_err(|_| stream.truncate(start))
            .context("bson: encode")
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        let document = document(stream)?;
        let deserializer = bson::RawDeserializer::new(document).context("bson: decode")?;
        W::deserialize_into(deserializer, sink).context("bson: decode")?;
        Ok(document.len())
    }
}

/// The document at the start of `stream`, its length read and bounds-checked.
fn document(stream: &[u8]) -> Result<&[u8]> {
    let prefix = stream.first_chunk::<4>().context("bson: stream ends inside a document length")?;
    let len = i32::from_le_bytes(*prefix);
    let len = usize::try_from(len)
        .ok()
        .filter(|&len| len >= MIN_DOCUMENT)
        .with_context(|| format!("bson: invalid document length {len}"))?;
    ensure!(len <= stream.len(), "bson: document of {len} bytes is truncated to {}", stream.len());
    Ok(&stream[..len])
}

/// jsonl and csv: the record serialized as it is (a record that is not an object has
/// no BSON form: its encode fails, by name); decoded as a `bson::RawDocument`,
/// the library's in-place dynamic model, walked into the sink.
impl<K: Origin> Codec<JsonValues<K>> for Bson {
    fn new() -> Self {
        Bson
    }

    fn encode(&mut self, record: &Value, stream: &mut Vec<u8>) -> Result<()> {
        let start = stream.len();
        bson::serialize_to_buffer(record, stream)
            .inspect_err(|_| stream.truncate(start))
            .context("bson: encode")
    }

    fn decode(&mut self, stream: &[u8], sink: &mut ValueSink) -> Result<usize> {
        let document = document(stream)?;
        let raw = bson::RawDocument::from_bytes(document).context("bson: decode")?;
        walk_document(raw, sink).context("bson: decode")?;
        Ok(document.len())
    }
}

fn walk_document(document: &bson::RawDocument, sink: &mut ValueSink) -> Result<()> {
    sink.begin_object();
    for member in document.iter() {
        let (key, value) = member?;
        sink.key(key.as_str().as_bytes());
        walk(value, sink)?;
    }
    sink.end_object();
    Ok(())
}

fn walk(value: bson::RawBsonRef<'_>, sink: &mut ValueSink) -> Result<()> {
    use bson::RawBsonRef as V;
    match value {
        V::Null => sink.null(),
        V::Boolean(b) => sink.bool(b),
        V::Int32(v) => sink.int(i64::from(v)),
        V::Int64(v) => sink.int(v),
        V::Double(v) => sink.float(v),
        V::String(s) => sink.string(s.as_bytes()),
        V::Document(document) => walk_document(document, sink)?,
        V::Array(elements) => {
            sink.begin_array();
            for element in elements {
                walk(element?, sink)?;
            }
            sink.end_array();
        }
        other => bail!("decoded a BSON {:?}, which JSON has no kind for", other.element_type()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::workload::iex::Aggregator;
    use crate::workload::iex::Iex;
    use crate::workload::iex::MultiMessage;

    use crate::format::codec_tests::{assert_garbage_is_an_error, assert_steady_state_allocations};
    use crate::workload::Dataset;
    use crate::workload::Workload;
    use crate::workload::iex::{Body, sample_dataset};

    /// The sample without the records BSON cannot carry (`seq_no` above `i64::MAX`),
    /// plus a record holding the largest values it can.
    fn representable_dataset() -> Dataset<Iex> {
        let mut dataset = sample_dataset();
        let mut extreme = dataset
            .records
            .iter()
            .find(|r| r.seq_no > i64::MAX as u64)
            .expect("the sample has a seq_no above i64::MAX")
            .clone();
        dataset.records.retain(|r| r.seq_no <= i64::MAX as u64);
        extreme.seq_no = i64::MAX as u64;
        dataset.records.push(extreme);
        assert!(dataset.records.iter().all(|r| r.seq_no <= i64::MAX as u64
            && r.messages.iter().all(|m| match m.body {
                Body::Trade { price, .. } | Body::LevelUpdate { price, .. } =>
                    price <= i64::MAX as u64,
            })));
        let mut reference = Aggregator::default();
        for record in &dataset.records {
            record.aggregate_into(&mut reference);
        }
        Dataset::in_order(dataset.records, reference.finish(), dataset.source)
    }

    #[test]
    fn round_trips_what_bson_can_carry() {
        assert_round_trip::<Iex, Bson>(&representable_dataset());
    }

    #[test]
    fn u64_above_i64_max_is_an_encode_error_and_leaves_the_stream_intact() {
        let sample = sample_dataset();
        let too_big = sample.records.iter().find(|r| r.seq_no == u64::MAX).unwrap();
        let mut stream = vec![1, 2, 3];
        assert!(Codec::<Iex>::encode(&mut Bson, too_big, &mut stream).is_err());
        assert_eq!(stream, [1, 2, 3]);
        let mut price_too_big = sample.records[0].clone();
        price_too_big.messages[0].body = Body::Trade { price: i64::MAX as u64 + 1, size: 1 };
        assert!(Codec::<Iex>::encode(&mut Bson, &price_too_big, &mut stream).is_err());
        assert_eq!(stream, [1, 2, 3]);
    }

    /// Each record is a standard BSON document the crate reads back as the record.
    #[test]
    fn records_are_bson_documents() {
        let records = representable_dataset().records;
        let mut stream = Vec::new();
        for record in &records {
            Codec::<Iex>::encode(&mut Bson, record, &mut stream).unwrap();
        }
        let mut rest = stream.as_slice();
        for record in &records {
            let len = i32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
            let doc = bson::RawDocument::from_bytes(&rest[..len]).unwrap();
            assert_eq!(doc.get_i64("seq_no").unwrap() as u64, record.seq_no);
            let back: MultiMessage = bson::deserialize_from_slice(&rest[..len]).unwrap();
            assert_eq!(&back, record);
            rest = &rest[len..];
        }
        assert!(rest.is_empty());
    }

    #[test]
    fn garbage_is_an_error() {
        assert_garbage_is_an_error::<Bson>(&representable_dataset().records);
    }

    #[test]
    fn malformed_documents_are_errors() {
        let mut sink = Iex::new_sink(&Default::default());
        for bad in [&[5u8, 0, 0, 0, 0][..], &[4, 0, 0, 0, 0], &[0xff, 0xff, 0xff, 0x7f, 0]] {
            assert!(Codec::<Iex>::decode(&mut Bson, bad, &mut sink).is_err(), "{bad:?}");
        }
    }

    /// Steady state: neither direction allocates (messages stream into the sink).
    #[test]
    fn allocations_per_record() {
        let records = representable_dataset().records;
        assert_steady_state_allocations::<Bson>(&records, (0, 0));
    }

    /// f32 goes to a BSON double and back bit-exactly; f64, i32, u8 too.
    #[test]
    fn record_values_round_trip_bit_exactly() {
        use crate::workload::object::SmallObject;
        let mut object = crate::workload::object::sample().records.pop().unwrap();
        for (ratio, score) in [
            (0.1f32, 0.1f64),
            (f32::MIN_POSITIVE / 3.0, 5e-324),
            (-f32::MAX, f64::MAX),
            (1.0 / 3.0, -1.0 / 3.0),
        ] {
            object.ratio = ratio;
            object.score = score;
            let back: SmallObject =
                bson::deserialize_from_slice(&bson::serialize_to_vec(&object).unwrap()).unwrap();
            assert_eq!(
                (back.ratio.to_bits(), back.score.to_bits()),
                (ratio.to_bits(), score.to_bits())
            );
            assert_eq!(back, object);
        }
    }
}
