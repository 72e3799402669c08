//! CBOR through serde with `ciborium`.
//!
//! Serde derive's data model of the shared `MultiMessage`: structs as CBOR maps
//! keyed by field name (ciborium's only struct layout), `Body` externally tagged
//! (a one-entry map from the variant name to its fields), `Side` as its variant
//! name. A CBOR item is self-delimiting, so records follow each other with no
//! framing: decode reads from a `&[u8]` that advances as ciborium pulls bytes,
//! and the distance it moved is the record's length.
//!
//! ciborium reads through `io::Read` into a scratch buffer, so it cannot lend
//! `&str` from the input: decode builds the owned `MultiMessage`, allocating its
//! message list and one `String` per message. Encode writes straight into the
//! stream and allocates nothing.

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::{Aggregator, Iex, MultiMessage};
use crate::workload::jsonl::{JsonValues, Origin, Value, ValueSink};

/// The scratch ciborium reads strings and bytes into, kept across records:
/// `ciborium::from_reader` builds (and zeroes) a fresh 4 KiB one on every call.
pub struct CborCiborium {
    scratch: Box<[u8; SCRATCH]>,
}

/// The size `from_reader` uses; longer strings are read in chunks of it.
const SCRATCH: usize = 4096;

impl CborCiborium {
    fn read<T: DeserializeOwned>(&mut self, stream: &[u8]) -> Result<(T, usize)> {
        let mut input = stream;
        let value = ciborium::de::from_reader_with_buffer(&mut input, &mut self.scratch[..])
            .context("cbor: decode")?;
        Ok((value, stream.len() - input.len()))
    }
}

impl Format for CborCiborium {
    const INFO: FormatInfo = FormatInfo {
        name: "cbor-ciborium",
        family: Family::Format(&features::CBOR),
        library: "ciborium",
        labels: Labels::OWNED_SERDE,
        notes: "Serde derive's data model of MultiMessage: structs as CBOR maps keyed by field \
                name (ciborium's layout), Body externally tagged (a one-entry map from variant \
                name to its fields), Side as its variant name. No framing: CBOR items are \
                self-delimiting, so records are back to back and decode measures what \
                ciborium consumed from an advancing &[u8] reader. Encode: ciborium::into_writer \
                straight into the stream, no allocation. Decode: ciborium::de::from_reader_with_buffer \
                with a 4 KiB scratch kept in the codec (from_reader would zero a fresh one per \
                record) into the OWNED MultiMessage (its Deserializer is private, so no \
                DeserializeSeed can stream the messages into the aggregator): ciborium reads through io::Read and \
                cannot lend &str from the input, so every record allocates its message Vec and \
                one String per message. Record-shaped workloads: the same CBOR sequence, \
                decoded into the owned record, then visited; ciborium writes each float in the \
                shortest width that holds it exactly (f16/f32/f64), None is null. \
                jsonl: the record serialized through serde (an integer beyond 64 bits as \
                a bignum, tag 2 or 3); decoded into ciborium::Value, then walked into \
                the sink, bignums read back as integers.",
        wire: Some("cbor-map"),
        framing: Framing::None,
    };
}

impl Codec<Iex> for CborCiborium {
    fn new() -> Self {
        CborCiborium { scratch: Box::new([0; SCRATCH]) }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        let start = stream.len();
        ciborium::into_writer(record, &mut *stream)
            .inspect_err(|_| stream.truncate(start))
            .context("cbor: encode")
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let (record, used): (MultiMessage, _) = self.read(stream)?;
        record.aggregate_into(sink);
        Ok(used)
    }
}

/// The record-shaped workloads: the same back-to-back CBOR items, decoded into
/// the owned record (as the iex codec does), then visited.
impl<R: FieldRecord + Serialize + DeserializeOwned> Codec<Fields<R>> for CborCiborium {
    fn new() -> Self {
        CborCiborium { scratch: Box::new([0; SCRATCH]) }
    }

    fn encode(&mut self, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        let start = stream.len();
        ciborium::into_writer(record, &mut *stream)
            .inspect_err(|_| stream.truncate(start))
            .context("cbor: encode")
    }

    fn decode(&mut self, stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        let (record, used): (R, _) = self.read(stream)?;
        record.visit(sink);
        Ok(used)
    }
}

/// jsonl and csv: the record serialized as it is; decoded into `ciborium::Value`,
/// the library's dynamic model, then walked into the sink.
impl<K: Origin> Codec<JsonValues<K>> for CborCiborium {
    fn new() -> Self {
        CborCiborium { scratch: Box::new([0; SCRATCH]) }
    }

    fn encode(&mut self, record: &Value, stream: &mut Vec<u8>) -> Result<()> {
        let start = stream.len();
        ciborium::into_writer(record, &mut *stream)
            .inspect_err(|_| stream.truncate(start))
            .context("cbor: encode")
    }

    fn decode(&mut self, stream: &[u8], sink: &mut ValueSink) -> Result<usize> {
        let (value, used): (ciborium::Value, _) = self.read(stream)?;
        walk(&value, sink)?;
        Ok(used)
    }
}

fn walk(value: &ciborium::Value, sink: &mut ValueSink) -> Result<()> {
    use ciborium::Value as V;
    match value {
        V::Null => sink.null(),
        V::Bool(b) => sink.bool(*b),
        V::Integer(v) => sink.int128(i128::from(*v)),
        V::Float(v) => sink.float(*v),
        V::Text(s) => sink.string(s.as_bytes()),
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
                let V::Text(key) = key else {
                    bail!("cbor: decoded a map key that is not text: {key:?}")
                };
                sink.key(key.as_bytes());
                walk(value, sink)?;
            }
            sink.end_object();
        }
        V::Bytes(_) => bail!("cbor: decoded a byte string, which JSON has no kind for"),
        // A bignum (RFC 8949 3.4.3): how CBOR carries an integer beyond 64 bits.
        V::Tag(tag @ (2 | 3), content) => {
            let V::Bytes(magnitude) = content.as_ref() else {
                bail!("cbor: decoded bignum tag {tag} around a {content:?}, not a byte string")
            };
            let n = num_bigint::BigInt::from_bytes_be(num_bigint::Sign::Plus, magnitude);
            sink.big(&if *tag == 2 { n } else { -n - 1 }.to_string());
        }
        V::Tag(tag, _) => bail!("cbor: decoded tag {tag}, which JSON has no kind for"),
        other => bail!("cbor: decoded {other:?}, which JSON has no kind for"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;

    use crate::format::codec_tests::{assert_garbage_is_an_error, assert_steady_state_allocations};
    use crate::workload::iex::sample_dataset;

    #[test]
    fn round_trips() {
        assert_round_trip::<Iex, CborCiborium>(&sample_dataset());
    }

    /// Records are plain back-to-back CBOR items, one `MultiMessage` each.
    #[test]
    fn stream_is_a_cbor_sequence() {
        let records = sample_dataset().records;
        let mut codec = <CborCiborium as Codec<Iex>>::new();
        let mut stream = Vec::new();
        for record in &records {
            Codec::<Iex>::encode(&mut codec, record, &mut stream).unwrap();
        }
        let mut input = stream.as_slice();
        for record in &records {
            let back: MultiMessage = ciborium::from_reader(&mut input).unwrap();
            assert_eq!(&back, record);
        }
        assert!(input.is_empty());
    }

    #[test]
    fn garbage_is_an_error() {
        assert_garbage_is_an_error::<CborCiborium>(&sample_dataset().records);
    }

    /// Steady state: encode allocates nothing; decode the message Vec of each of the 3 non-empty
    /// records and a String for each of their 11 messages.
    #[test]
    fn allocations_per_record() {
        let records = sample_dataset().records;
        assert_steady_state_allocations::<CborCiborium>(&records, (0, 14));
    }
}
