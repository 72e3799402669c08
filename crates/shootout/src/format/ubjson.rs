//! UBJSON through the workspace's own serde implementation (crates/ubjson).
//!
//! Each record is serialized as one UBJSON object and read back through the
//! workload's `DeserializeSeed`, straight into its sink. A UBJSON value is
//! self-delimiting, so records follow one another with no prefix.

use ::ubjson::Deserializer;
use anyhow::{Context, Result};

use super::serde_decode::SerdeDecode;
use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use serde::de::DeserializeSeed;

use crate::workload::jsonl::{IntoSink, JsonValues, Origin, Value, ValueSink};

pub struct Ubjson;

impl Format for Ubjson {
    const INFO: FormatInfo = FormatInfo {
        name: "ubjson",
        family: Family::Format(&features::UBJSON),
        library: "shootout",
        labels: Labels::OWNED_SERDE,
        notes: "Our own UBJSON Draft 12 implementation (no maintained crate exists): a serde \
                Serializer/Deserializer in crates/ubjson, spec-complete (all value types, no-op, \
                optimized $type/#count containers). Each record is one object, field names as \
                keys, smallest integer type per value (big-endian), containers in the #count \
                form, Body externally tagged ({\"Trade\": {...}}), Side a string. u64 above \
                i64::MAX (no UBJSON type) is a high-precision H decimal, read back exactly. \
                Self-delimiting: records back to back, no prefix. Encode appends straight to the \
                stream; decode feeds the record through a DeserializeSeed straight into the \
                aggregator, one message at a time, with no message Vec (symbols borrowed, UTF-8 \
                checked). \
                Record-shaped workloads: one object per record, decoded into the owned record, \
                then visited; f32 is float32 d, f64 float64 D (bit-exact), None null Z. \
                jsonl: the record serialized as it is (an integer beyond 64 bits as a \
                high-precision H number); decoded through serde's deserialize_any \
                straight into the sink (this crate has no value type); containers nested \
                deeper than 128 are refused.",
        wire: Some("ubjson"),
        framing: Framing::None,
    };
}

impl<W: SerdeDecode> Codec<W> for Ubjson {
    fn new() -> Self {
        Ubjson
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        ::ubjson::to_writer(stream, record).context("ubjson: encode")
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        let mut de = Deserializer::from_slice(stream);
        W::deserialize_into(&mut de, sink).context("ubjson: decode")?;
        Ok(de.position())
    }
}

/// jsonl and csv: the record serialized as it is; decoded through serde's dynamic
/// model (`deserialize_any`) straight into the sink, as this crate has no
/// value type of its own.
impl<K: Origin> Codec<JsonValues<K>> for Ubjson {
    fn new() -> Self {
        Ubjson
    }

    fn encode(&mut self, record: &Value, stream: &mut Vec<u8>) -> Result<()> {
        ::ubjson::to_writer(stream, record).context("ubjson: encode")
    }

    fn decode(&mut self, stream: &[u8], sink: &mut ValueSink) -> Result<usize> {
        let mut de = Deserializer::from_slice(stream);
        IntoSink(sink).deserialize(&mut de).context("ubjson: decode")?;
        Ok(de.position())
    }
}

#[cfg(test)]
mod tests {
    use ::ubjson::{Serializer, from_slice, to_vec};
    use serde::Serialize;

    use super::*;
    use crate::workload::iex::{MultiMessage, sample_dataset};
    use crate::workload::tabular::MixedRow;

    crate::format::codec_tests::iex_codec_tests!(Ubjson);

    #[test]
    fn iex_records_are_plain_ubjson_objects() {
        for record in sample_dataset().records {
            let bytes = to_vec(&record).unwrap();
            assert_eq!(&bytes[..4], b"{#i\x02");
            let back: MultiMessage = from_slice(&bytes).unwrap();
            assert_eq!(back, record);
            // The streaming form (end markers, no counts) reads into the same record.
            let mut streaming = Vec::new();
            record.serialize(&mut Serializer::streaming(&mut streaming)).unwrap();
            let back: MultiMessage = from_slice(&streaming).unwrap();
            assert_eq!(back, record);
        }
    }

    /// A short key as UBJSON writes it: an int8 length, then the bytes.
    fn key(s: &str) -> Vec<u8> {
        [&[b'i', s.len() as u8][..], s.as_bytes()].concat()
    }

    /// f32 is written as float32 `d`, f64 as float64 `D`, `None` as null `Z`, and
    /// all read back bit-exactly.
    #[test]
    fn record_floats_keep_their_width_and_absent_values_are_null() {
        let row = MixedRow { f2: Some(-0.1), f11: Some(f32::MIN_POSITIVE), ..MixedRow::default() };
        let bytes = to_vec(&row).unwrap();
        let float64 = [&key("f2")[..], b"D", &(-0.1f64).to_be_bytes()].concat();
        let float32 = [&key("f11")[..], b"d", &f32::MIN_POSITIVE.to_be_bytes()].concat();
        let null = [&key("f1")[..], b"Z"].concat();
        for part in [float64, float32, null] {
            assert!(bytes.windows(part.len()).any(|w| w == part), "{part:?} in {bytes:?}");
        }
        let back: MixedRow = from_slice(&bytes).unwrap();
        assert_eq!(back.f2.map(f64::to_bits), Some((-0.1f64).to_bits()));
        assert_eq!(back.f11.map(f32::to_bits), Some(f32::MIN_POSITIVE.to_bits()));
        assert_eq!(back, row);
    }
}
