//! bitcode through its native derives (`Encode` on the record, `Decode` on a
//! mirror whose symbol is a `&str` borrowed from the stream), with one
//! `bitcode::Buffer` reused for every encode and another for every decode, the
//! library's documented way to avoid allocations between calls.
//!
//! bitcode's output is not self-delimiting (decode requires the exact bytes), so
//! each record is preceded by its length as a little-endian u32.

use anyhow::{Context, Result, bail};

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::view::BorrowedMultiMessage;
use crate::workload::iex::{Aggregator, Iex, MultiMessage};

const PREFIX: usize = 4;

pub struct Bitcode {
    encoder: bitcode::Buffer,
    decoder: bitcode::Buffer,
}

impl Format for Bitcode {
    const INFO: FormatInfo = FormatInfo {
        name: "bitcode",
        family: Family::Format(&features::BITCODE),
        library: "bitcode",
        labels: Labels::OWNED_NATIVE,
        notes: "bitcode native derives (not serde), one bitcode::Buffer reused for encoding and \
                one for decoding. bitcode lays a value out column by column (all ts, then all \
                symbols, ...), packing integers. Its output is not self-delimiting, so each \
                record is framed by a u32 LE length prefix. Decode reads a mirror whose symbol \
                is a &str borrowed from the stream (UTF-8 checked); its message Vec is \
                allocated once per non-empty record. Record-shaped workloads: the same derives on \
                the record types, buffers and framing; decoded owned (one allocation per \
                String/Vec) then visited.",
        wire: Some("bitcode"),
        framing: Framing::U32le,
    };
}

/// Appends `bytes` behind its u32 LE length.
fn frame(bytes: &[u8], stream: &mut Vec<u8>) -> Result<()> {
    let len = u32::try_from(bytes.len()).context("bitcode: record over 4 GiB")?;
    stream.reserve(PREFIX + bytes.len());
    stream.extend_from_slice(&len.to_le_bytes());
    stream.extend_from_slice(bytes);
    Ok(())
}

/// The record bytes at the start of `stream` and the frame length.
fn unframe(stream: &[u8]) -> Result<(&[u8], usize)> {
    let Some(prefix) = stream.first_chunk::<PREFIX>() else {
        bail!("bitcode: truncated length prefix ({} bytes left)", stream.len());
    };
    let end = PREFIX + u32::from_le_bytes(*prefix) as usize;
    let bytes = stream.get(PREFIX..end).with_context(|| {
        format!("bitcode: record of {end} bytes but only {} left", stream.len())
    })?;
    Ok((bytes, end))
}

impl Codec<Iex> for Bitcode {
    fn new() -> Self {
        Bitcode { encoder: bitcode::Buffer::new(), decoder: bitcode::Buffer::new() }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        frame(self.encoder.encode(record), stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let (bytes, end) = unframe(stream)?;
        let record: BorrowedMultiMessage<'_> =
            self.decoder.decode(bytes).context("bitcode: decode")?;
        record.aggregate_into(sink);
        Ok(end)
    }
}

/// The record-shaped workloads: the record's own derives, the same reused
/// buffers and framing, decoded owned (strings copied), then visited.
impl<R> Codec<Fields<R>> for Bitcode
where
    R: FieldRecord + bitcode::Encode + bitcode::DecodeOwned,
{
    fn new() -> Self {
        Bitcode { encoder: bitcode::Buffer::new(), decoder: bitcode::Buffer::new() }
    }

    fn encode(&mut self, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        frame(self.encoder.encode(record), stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        let (bytes, end) = unframe(stream)?;
        let record: R = self.decoder.decode(bytes).context("bitcode: decode")?;
        record.visit(sink);
        Ok(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::iex::sample_dataset;

    crate::format::codec_tests::iex_codec_tests!(Bitcode);

    #[test]
    fn records_are_bitcodes_own_bytes_behind_a_length() {
        let record = &sample_dataset().records[2];
        let mut stream = Vec::new();
        Codec::<Iex>::encode(&mut <Bitcode as Codec<Iex>>::new(), record, &mut stream).unwrap();
        let expected = bitcode::encode(record);
        assert_eq!(&stream[..4], &(expected.len() as u32).to_le_bytes());
        assert_eq!(&stream[4..], expected);
    }
}
