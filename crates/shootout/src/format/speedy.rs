//! speedy through its derives: `Writable` on the record, `Readable` on a mirror
//! whose symbol is a `&str` borrowed from the stream.
//!
//! speedy's encoding is self-delimiting (u32 lengths for the message list and
//! strings) and `read_with_length_from_buffer` reports the bytes it read, so
//! records are written back to back with no prefix.

use anyhow::{Context, Result};
use speedy::{LittleEndian, Readable, Writable};

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::view::BorrowedMultiMessage;
use crate::workload::iex::{Aggregator, Iex, MultiMessage};

pub struct Speedy;

impl Format for Speedy {
    const INFO: FormatInfo = FormatInfo {
        name: "speedy",
        family: Family::Format(&features::SPEEDY),
        library: "speedy",
        labels: Labels::OWNED_NATIVE.unmaintained(
            "no release since 0.8.7 (2024-01-14); rust_serialization_benchmark dropped it as \
             unmaintained (PR #156, 2026-08-21)",
        ),
        notes: "speedy derives, default little-endian context: fixed-width integers, u32 \
                lengths, u32 enum tags. Encode sizes the record (bytes_needed), \
                grows the stream by that much and writes in place (write_to_buffer). Self-delimiting: records are back to back with no prefix; \
                read_with_length_from_buffer returns the bytes read. Decode reads a mirror \
                whose symbol is a &str borrowed from the stream (UTF-8 checked); its message \
                Vec is allocated once per non-empty record. Record-shaped workloads: the same \
                derives on the record types (Option as a u8 tag), decoded owned (one allocation \
                per String/Vec) then visited.",
        wire: Some("speedy"),
        framing: Framing::None,
    };
}

/// Appends `value` to `stream`: sized first (`bytes_needed`), then written with
/// `write_to_buffer` into that exact space. `write_to_stream` goes through
/// `io::Write` and speedy's buffered stream writer, which costs more per call.
fn append<T: Writable<LittleEndian>>(value: &T, stream: &mut Vec<u8>) -> Result<()> {
    let len = value.bytes_needed().context("speedy: encode")?;
    let start = stream.len();
    stream.resize(start + len, 0);
    value
        .write_to_buffer(&mut stream[start..])
        .inspect_err(|_| stream.truncate(start))
        .context("speedy: encode")
}

impl Codec<Iex> for Speedy {
    fn new() -> Self {
        Speedy
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        append(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let (record, used) = BorrowedMultiMessage::read_with_length_from_buffer(stream);
        let record = record.context("speedy: decode")?;
        record.aggregate_into(sink);
        Ok(used)
    }
}

/// The record-shaped workloads: the record's own derives in the same default
/// little-endian context, decoded owned (its `String`s cannot borrow), then
/// visited.
impl<R> Codec<Fields<R>> for Speedy
where
    R: FieldRecord + Writable<LittleEndian> + for<'a> Readable<'a, LittleEndian>,
{
    fn new() -> Self {
        Speedy
    }

    fn encode(&mut self, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        append(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        let (record, used) = R::read_with_length_from_buffer(stream);
        record.context("speedy: decode")?.visit(sink);
        Ok(used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::iex::sample_dataset;

    crate::format::codec_tests::iex_codec_tests!(Speedy);

    #[test]
    fn encoding_is_speedys_own() {
        let record = &sample_dataset().records[0];
        let mut stream = Vec::new();
        Codec::<Iex>::encode(&mut Speedy, record, &mut stream).unwrap();
        assert_eq!(stream, record.write_to_vec().unwrap());
    }
}
