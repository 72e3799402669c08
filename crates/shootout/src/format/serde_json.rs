//! JSON through serde with `serde_json`, as JSON Lines.
//!
//! Serde derive's data model of the shared `MultiMessage`: objects keyed by
//! field name, `Body` externally tagged (`{"Trade":{"price":..,"size":..}}`),
//! `Side` as its variant name; 64-bit integers as exact decimal numbers.
//!
//! Framing: each record is one line, ended by `\n` (compact `serde_json`
//! output never holds a raw newline). Encode writes with `serde_json::to_writer`
//! straight into the stream and allocates nothing. Decode parses with the
//! documented `StreamDeserializer`, which reports where the value ended
//! (`byte_offset`), so the record is read in one pass without searching for the
//! newline first; the newline is then checked. The value is the borrowed
//! `MultiMessageView`: symbols are `&str` into the stream (a symbol holding a
//! JSON escape could not be borrowed and would fail to decode; IEX symbols have
//! none), and the message list is the one allocation per non-empty record.

use anyhow::{Context, Result, ensure};

use super::{Access, Api, Codec, DecodeStyle, Format, FormatInfo, Labels};
use crate::workload::SerdeWorkload;

pub struct JsonSerdeJson;

impl Format for JsonSerdeJson {
    const INFO: FormatInfo = FormatInfo {
        name: "json-serde_json",
        family: "JSON",
        library: "serde_json",
        labels: Labels {
            buffer_reuse: true,
            decode: DecodeStyle::Owned,
            access: Access::Validated,
            api: Api::Serde,
            lossy: None,
        },
        notes: "Serde derive's data model of MultiMessage: objects with field names, Body \
                externally tagged ({\"Trade\":{...}}), Side as its variant name, u64/i64 as \
                exact integers. Framing: JSON Lines, each record one compact line ended by \\n. \
                Encode: serde_json::to_writer straight into the stream, no allocation. Decode: \
                one pass with serde_json's StreamDeserializer (its byte_offset gives the \
                record's end; the \\n is then checked) into the borrowed MultiMessageView: \
                symbols are &str into the stream, the message Vec is the one allocation per \
                non-empty record (a record of more than 4 messages reallocates it as it grows: \
                the array length is not known before its elements). A symbol needing a JSON \
                escape could not be borrowed (IEX symbols need none). Record-shaped workloads: \
                the same JSON Lines, decoded into the owned record, then visited; None is null. \
                serde_json is built with its float_roundtrip feature: with default features it \
                parses about 10% of f64s (uniform in ±1e9) one ulp off, so floats would not \
                round-trip; the feature makes parsing exact at some cost in float parsing \
                speed.",
    };
}

impl<W: SerdeWorkload> Codec<W> for JsonSerdeJson {
    fn new() -> Self {
        JsonSerdeJson
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        let start = stream.len();
        serde_json::to_writer(&mut *stream, record)
            .inspect_err(|_| stream.truncate(start))
            .context("json: encode")?;
        stream.push(b'\n');
        Ok(())
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        let mut values = serde_json::Deserializer::from_slice(stream).into_iter::<W::View<'_>>();
        let view = values
            .next()
            .context("json: no record left in the stream")?
            .context("json: decode")?;
        let end = values.byte_offset();
        ensure!(
            stream.get(end) == Some(&b'\n'),
            "json: record does not end its line"
        );
        W::aggregate(&view, sink);
        Ok(end + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{assert_round_trip, assert_round_trips_every_record_shape};
    use crate::workload::iex::Iex;
    use crate::workload::iex::MultiMessage;

    #[test]
    fn round_trips_every_record_shape() {
        assert_round_trips_every_record_shape::<JsonSerdeJson>();
    }
    use crate::format::codec_tests::{
        assert_garbage_is_an_error, assert_malformed_json_lines_are_errors,
        assert_steady_state_allocations, inexact, random_floats,
    };
    use crate::workload::iex::sample_dataset;

    #[test]
    fn round_trips() {
        assert_round_trip::<Iex, JsonSerdeJson>(&sample_dataset());
    }

    #[test]
    fn stream_is_json_lines_of_the_serde_model() {
        let records = sample_dataset().records;
        let mut stream = Vec::new();
        for record in &records {
            Codec::<Iex>::encode(&mut JsonSerdeJson, record, &mut stream).unwrap();
        }
        let text = std::str::from_utf8(&stream).unwrap();
        assert!(text.starts_with(
            r#"{"seq_no":1,"messages":[{"ts":1500000000000000000,"symbol":"MSFT","body":{"Trade":{"price":650100,"size":100}}},"#
        ));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), records.len());
        for (line, record) in lines.iter().zip(&records) {
            assert_eq!(&serde_json::from_str::<MultiMessage>(line).unwrap(), record);
        }
    }

    #[test]
    fn garbage_is_an_error() {
        assert_garbage_is_an_error::<JsonSerdeJson>(&sample_dataset().records);
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert_malformed_json_lines_are_errors::<JsonSerdeJson>();
    }

    /// Steady state: encode allocates nothing; decode only the message Vec of each of the 2 non-
    /// empty records.
    #[test]
    fn allocations_per_record() {
        let records = sample_dataset().records;
        assert_steady_state_allocations::<JsonSerdeJson>(&records, (0, 2));
    }

    /// serde_json (with its float_roundtrip feature) reads back every f64 and f32 bit-exactly.
    #[test]
    fn floats_round_trip_bit_exactly() {
        let (f64s, f32s) = random_floats();
        let back: Vec<f64> = serde_json::from_slice(&serde_json::to_vec(&f64s).unwrap()).unwrap();
        assert_eq!(inexact(&f64s, &back, f64::to_bits), 0);
        let back: Vec<f32> = serde_json::from_slice(&serde_json::to_vec(&f32s).unwrap()).unwrap();
        assert_eq!(inexact(&f32s, &back, |x| u64::from(x.to_bits())), 0);
    }
}
