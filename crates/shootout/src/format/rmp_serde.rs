//! MessagePack through serde with `rmp-serde`, in its two struct layouts:
//! `msgpack-array` (the crate's default: a struct is an array of its fields) and
//! `msgpack-map` (`Serializer::with_struct_map`: a struct is a map keyed by
//! field name). Both use serde derive's data model of the shared `MultiMessage`
//! (the enum `Body` externally tagged: a one-entry map from the variant name to
//! the variant's struct; `Side` as its variant name).
//!
//! Framing: a little-endian u32 length before each record. MessagePack values
//! are self-delimiting, but rmp-serde 1.3 only reports how far it read through
//! its copying reader (`Deserializer::new`, which cannot lend `&str` from the
//! input); its borrowing slice reader (`from_slice` / `Deserializer::from_read_ref`)
//! keeps the read position private. The prefix keeps decode borrowed.
//!
//! Encode serializes straight into the stream (no temporary buffer) and
//! allocates nothing. Decode reads the frame with the borrowing reader behind `rmp_serde::from_slice`
//! (`Deserializer::from_read_ref`) through the iex `DeserializeSeed`, which feeds
//! each message to the aggregator as it is read: symbols are borrowed from the
//! stream and no message list is built.

use anyhow::{Context, Result, bail, ensure};
use serde::Serialize;

use super::serde_decode::SerdeDecode;
use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::jsonl::{JsonValues, Origin, Value, ValueSink};

/// Bytes of the little-endian length prefix before each record.
pub(super) const PREFIX: usize = 4;

/// Appends `record` as serialized by `write`, preceded by its length; on error the
/// stream is left as it was.
fn encode_framed(
    stream: &mut Vec<u8>,
    write: impl FnOnce(&mut Vec<u8>) -> Result<(), rmp_serde::encode::Error>,
) -> Result<()> {
    let start = stream.len();
    stream.extend_from_slice(&[0; PREFIX]);
    let len = write(stream)
        .context("msgpack: encode")
        .and_then(|()| {
            u32::try_from(stream.len() - start - PREFIX)
                .context("msgpack: record longer than the u32 length prefix")
        })
        .inspect_err(|_| stream.truncate(start))?;
    stream[start..start + PREFIX].copy_from_slice(&len.to_le_bytes());
    Ok(())
}

/// The length-prefixed record at the start of `stream` and the bytes its frame
/// takes (msgpack-zerompk frames its records the same way).
pub(super) fn framed(stream: &[u8]) -> Result<(&[u8], usize)> {
    let prefix =
        stream.first_chunk::<PREFIX>().context("msgpack: stream ends inside a length prefix")?;
    let len = u32::from_le_bytes(*prefix) as usize;
    let body = &stream[PREFIX..];
    ensure!(len <= body.len(), "msgpack: record of {len} bytes is truncated to {}", body.len());
    Ok((&body[..len], PREFIX + len))
}

/// The record at the start of `stream`: its frame deserialized as the workload's view.
fn decode_framed<W: SerdeDecode>(stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
    let (body, used) = framed(stream)?;
    let mut deserializer = rmp_serde::Deserializer::from_read_ref(body);
    W::deserialize_into(&mut deserializer, sink).context("msgpack: decode")?;
    Ok(used)
}

/// A variant's notes: its layout, then what both variants share.
macro_rules! notes {
    ($layout:literal) => {
        concat!(
            $layout,
            " Serde derive's data model of MultiMessage (Body externally tagged: a one-entry \
             map from variant name to its fields; Side as its variant name). Framing: a u32 \
             little-endian length before each record: MessagePack values are self-delimiting, \
             but rmp-serde 1.3.1 reports the bytes it read only through its copying reader \
             (Deserializer::new), which cannot lend &str; its borrowing reader (from_slice) \
             keeps the position private. Encode serializes straight into the stream: no \
             temporary buffer, no allocation. Decode: the borrowing reader behind \
             rmp_serde::from_slice (Deserializer::from_read_ref) feeds the record through a \
             DeserializeSeed straight into the aggregator, one message at a time, with no \
             message Vec (symbols borrowed from the stream); rmp-serde does not check for trailing bytes \
             inside the frame. Record-shaped workloads: the same framing and layout, decoded \
             into the owned record (strings copied), then visited; f32 stays float 32, None is nil."
        )
    };
}

/// Structs as arrays: rmp-serde's default (`to_vec` / `Serializer::new`).
pub struct MsgpackArray;

impl Format for MsgpackArray {
    const INFO: FormatInfo = FormatInfo {
        name: "msgpack-array",
        family: Family::Format(&features::MESSAGEPACK),
        library: "rmp-serde",
        labels: Labels::OWNED_SERDE,
        notes: notes!(
            "rmp-serde's default layout (Serializer::new, as to_vec): structs as arrays of their \
             fields, no field names; enum variants still by name."
        ),
        wire: Some("msgpack-array"),
        framing: Framing::U32le,
    };
}

impl<W: SerdeDecode> Codec<W> for MsgpackArray {
    fn new() -> Self {
        MsgpackArray
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        encode_framed(stream, |out| rmp_serde::encode::write(out, record))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        decode_framed::<W>(stream, sink)
    }
}

/// Structs as maps keyed by field name (`Serializer::with_struct_map`).
pub struct MsgpackMap;

impl Format for MsgpackMap {
    const INFO: FormatInfo = FormatInfo {
        name: "msgpack-map",
        family: Family::Format(&features::MESSAGEPACK),
        library: "rmp-serde",
        labels: Labels::OWNED_SERDE,
        notes: notes!(
            "Serializer::new(..).with_struct_map() (as to_vec_named): structs as maps keyed by \
             field name, self-describing like JSON. jsonl: the record serialized through serde \
             (an integer beyond 64 bits as rmp-serde's 16-byte bin), in the same u32 frame; \
             decoded with rmpv 1.3.1 (pinned), the MessagePack crates' dynamic model, as a \
             ValueRef borrowing from the stream, then walked into the sink."
        ),
        wire: Some("msgpack-map"),
        framing: Framing::U32le,
    };
}

impl<W: SerdeDecode> Codec<W> for MsgpackMap {
    fn new() -> Self {
        MsgpackMap
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        encode_framed(stream, |out| {
            record.serialize(&mut rmp_serde::Serializer::new(out).with_struct_map())
        })
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        decode_framed::<W>(stream, sink)
    }
}

/// jsonl and csv: the record serialized as it is (a map is a map in either struct
/// layout, so only msgpack-map runs it); decoded with `rmpv`, the
/// MessagePack crates' dynamic model, as a `ValueRef` borrowing from the
/// stream, then walked into the sink.
impl<K: Origin> Codec<JsonValues<K>> for MsgpackMap {
    fn new() -> Self {
        MsgpackMap
    }

    fn encode(&mut self, record: &Value, stream: &mut Vec<u8>) -> Result<()> {
        encode_framed(stream, |stream| {
            record.serialize(&mut rmp_serde::Serializer::new(stream).with_struct_map())
        })
    }

    fn decode(&mut self, stream: &[u8], sink: &mut ValueSink) -> Result<usize> {
        let (mut body, used) = framed(stream)?;
        let value = rmpv::decode::read_value_ref(&mut body).context("msgpack: decode")?;
        ensure!(body.is_empty(), "msgpack: {} bytes after the value in its frame", body.len());
        walk(&value, sink)?;
        Ok(used)
    }
}

fn walk(value: &rmpv::ValueRef<'_>, sink: &mut ValueSink) -> Result<()> {
    use rmpv::ValueRef as V;
    match value {
        V::Nil => sink.null(),
        V::Boolean(b) => sink.bool(*b),
        V::Integer(n) => match n.as_i64() {
            Some(v) => sink.int(v),
            None => sink.uint(n.as_u64().expect("a MessagePack integer is i64 or u64")),
        },
        V::F32(v) => sink.float(f64::from(*v)),
        V::F64(v) => sink.float(*v),
        V::String(s) => sink.string(s.as_bytes()),
        V::Array(elements) => {
            sink.begin_array();
            for element in elements {
                walk(element, sink)?;
            }
            sink.end_array();
        }
        V::Map(members) => {
            sink.begin_object();
            for (key, value) in members {
                let V::String(key) = key else {
                    bail!("msgpack: decoded a map key that is not a string: {key}")
                };
                sink.key(key.as_bytes());
                walk(value, sink)?;
            }
            sink.end_object();
        }
        V::Binary(_) => bail!("msgpack: decoded binary data, which JSON has no kind for"),
        V::Ext(tag, _) => {
            bail!("msgpack: decoded extension type {tag}, which JSON has no kind for")
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::format::codec_tests::{assert_garbage_is_an_error, assert_steady_state_allocations};
    use crate::workload::iex::Iex;
    use crate::workload::iex::MultiMessage;
    use crate::workload::iex::sample_dataset;

    #[test]
    fn array_round_trips() {
        assert_round_trip::<Iex, MsgpackArray>(&sample_dataset());
    }

    #[test]
    fn map_round_trips() {
        assert_round_trip::<Iex, MsgpackMap>(&sample_dataset());
    }

    /// Each frame holds exactly what rmp-serde's own `to_vec` / `to_vec_named` produce.
    #[test]
    fn frames_hold_the_standard_layouts() {
        for record in sample_dataset().records {
            for (named, expected) in [
                (false, rmp_serde::to_vec(&record).unwrap()),
                (true, rmp_serde::to_vec_named(&record).unwrap()),
            ] {
                let mut stream = Vec::new();
                if named {
                    Codec::<Iex>::encode(&mut MsgpackMap, &record, &mut stream).unwrap();
                } else {
                    Codec::<Iex>::encode(&mut MsgpackArray, &record, &mut stream).unwrap();
                }
                assert_eq!(stream[..PREFIX], (expected.len() as u32).to_le_bytes());
                assert_eq!(stream[PREFIX..], expected[..]);
                let back: MultiMessage = rmp_serde::from_slice(&stream[PREFIX..]).unwrap();
                assert_eq!(back, record);
            }
        }
        let record = &sample_dataset().records[0];
        assert!(
            rmp_serde::to_vec_named(record).unwrap().len()
                > rmp_serde::to_vec(record).unwrap().len()
        );
    }

    #[test]
    fn garbage_is_an_error() {
        assert_garbage_is_an_error::<MsgpackArray>(&sample_dataset().records);
        assert_garbage_is_an_error::<MsgpackMap>(&sample_dataset().records);
    }

    /// Steady state: neither direction allocates (messages stream into the sink).
    #[test]
    fn allocations_per_record() {
        let records = sample_dataset().records;
        assert_steady_state_allocations::<MsgpackArray>(&records, (0, 0));
        assert_steady_state_allocations::<MsgpackMap>(&records, (0, 0));
    }
}
