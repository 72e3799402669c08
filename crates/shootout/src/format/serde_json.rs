//! JSON through serde with `serde_json`, as JSON Lines.
//!
//! Serde derive's data model of the shared `MultiMessage`: objects keyed by
//! field name, `Body` externally tagged (`{"Trade":{"price":..,"size":..}}`),
//! `Side` as its variant name; 64-bit integers as exact decimal numbers.
//!
//! Framing: each record is one line, ended by `\n` (compact `serde_json`
//! output never holds a raw newline). Encode writes with `serde_json::to_writer`
//! straight into the stream and allocates nothing. Decode finds the line's
//! end (`memchr`), then deserializes it with a `serde_json::Deserializer` through
//! the iex `DeserializeSeed`, which feeds each message to the aggregator as it
//! is read: no message list is built. (serde_json's `StreamDeserializer`, which
//! reports where a value ended, only yields `Deserialize` values, not seeds.)
//! Symbols are borrowed from the stream, and unescaped into an owned copy only
//! when they hold a JSON escape (`Cow`).

use anyhow::{Context, Result};

use super::serde_decode::SerdeDecode;
use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::jsonl::{JsonValues, Origin, Value, ValueSink};

pub struct JsonSerdeJson;

impl Format for JsonSerdeJson {
    const INFO: FormatInfo = FormatInfo {
        name: "json-serde_json",
        family: Family::Format(&features::JSON),
        library: "serde_json",
        labels: Labels::OWNED_SERDE,
        notes: "Serde derive's data model of MultiMessage: objects with field names, Body \
                externally tagged ({\"Trade\":{...}}), Side as its variant name, u64/i64 as \
                exact integers. Framing: JSON Lines, each record one compact line ended by \\n. \
                Encode: serde_json::to_writer straight into the stream, no allocation. Decode: \
                memchr finds the line's end, then a serde_json::Deserializer over the line feeds \
                the record through a DeserializeSeed straight into the aggregator, one message \
                at a time, with no message Vec (StreamDeserializer, which reports where a value \
                ended, takes no seed); trailing bytes are rejected (Deserializer::end). Symbols \
                are borrowed from the stream; a symbol holding a JSON \
                escape (\", \\, a control char) is unescaped into an owned copy (Cow), the \
                only case that allocates a String. Record-shaped workloads: \
                the same JSON Lines, decoded into the owned record, then visited; None is null. \
                serde_json is built with its float_roundtrip feature: with default features it \
                parses about 10% of f64s (uniform in ±1e9) one ulp off, so floats would not \
                round-trip; the feature makes parsing exact at some cost in float parsing \
                speed. \
                jsonl: the record serialized through serde as a whole value; decoded \
                into serde_json::Value (preserve_order: an IndexMap per object, one \
                value per key; numbers i64, u64 or f64, so an integer beyond 64 bits \
                reads as a float; recursion limit 128), then walked into the sink.",
        wire: Some("json"),
        framing: Framing::Newline,
    };
}

impl<W: SerdeDecode> Codec<W> for JsonSerdeJson {
    fn new() -> Self {
        JsonSerdeJson
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        append_json_line(stream, |stream| serde_json::to_writer(stream, record))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        let len = json_line_len(stream)?;
        let mut deserializer = serde_json::Deserializer::from_slice(&stream[..len]);
        W::deserialize_into(&mut deserializer, sink)
            .and_then(|()| deserializer.end())
            .context("json: decode")?;
        Ok(len + 1)
    }
}

/// jsonl and csv: the record serialized as it is; decoded into `serde_json::Value`,
/// the library's dynamic model, which is then walked into the sink.
impl<K: Origin> Codec<JsonValues<K>> for JsonSerdeJson {
    fn new() -> Self {
        JsonSerdeJson
    }

    fn encode(&mut self, record: &Value, stream: &mut Vec<u8>) -> Result<()> {
        append_json_line(stream, |stream| serde_json::to_writer(stream, record))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut ValueSink) -> Result<usize> {
        let len = json_line_len(stream)?;
        let value: serde_json::Value =
            serde_json::from_slice(&stream[..len]).context("json: decode")?;
        walk(&value, sink);
        Ok(len + 1)
    }
}

fn walk(value: &serde_json::Value, sink: &mut ValueSink) {
    use serde_json::Value as V;
    match value {
        V::Null => sink.null(),
        V::Bool(b) => sink.bool(*b),
        V::Number(n) => {
            if let Some(v) = n.as_i64() {
                sink.int(v)
            } else if let Some(v) = n.as_u64() {
                sink.uint(v)
            } else {
                sink.float(n.as_f64().expect("a serde_json number is i64, u64 or f64"))
            }
        }
        V::String(s) => sink.string(s.as_bytes()),
        V::Array(elements) => {
            sink.begin_array();
            elements.iter().for_each(|e| walk(e, sink));
            sink.end_array();
        }
        V::Object(members) => {
            sink.begin_object();
            for (key, value) in members {
                sink.key(key.as_bytes());
                walk(value, sink);
            }
            sink.end_object();
        }
    }
}

/// Appends one JSON Lines record, what `write` writes and then `\n`, for every
/// JSON codec; if `write` fails, the stream is cut back to where it was.
#[inline]
pub(super) fn append_json_line<E: std::error::Error + Send + Sync + 'static>(
    stream: &mut Vec<u8>,
    write: impl FnOnce(&mut Vec<u8>) -> Result<(), E>,
) -> Result<()> {
    let start = stream.len();
    write(stream).inspect_err(|_| stream.truncate(start)).context("json: encode")?;
    stream.push(b'\n');
    Ok(())
}

/// The length of the JSON Lines record at the start of `stream`, without its `\n`.
#[inline]
pub(super) fn json_line_len(stream: &[u8]) -> Result<usize> {
    memchr::memchr(b'\n', stream).context("json: record does not end its line")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::workload::iex::Iex;
    use crate::workload::iex::MultiMessage;

    use crate::format::codec_tests::*;
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

    crate::format::codec_tests::json_lines_codec_tests!(JsonSerdeJson);

    /// Steady state: encode allocates nothing; decode only for the 3 symbols
    /// holding a JSON escape (`A"B`, `C\D`, a control char), all in one record:
    /// their owned copies and the Deserializer's unescaping scratch. Messages
    /// stream into the sink.
    #[test]
    fn allocations_per_record() {
        let records = sample_dataset().records;
        assert_steady_state_allocations::<JsonSerdeJson>(&records, (0, 4));
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
