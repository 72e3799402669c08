//! Borsh through its derives (`BorshSerialize` / `BorshDeserialize` on the record).
//!
//! Borsh is self-delimiting, so records are written back to back; decode reads
//! from a slice it advances and returns how far it moved. Borsh has no borrowed
//! deserialization: every record is rebuilt as an owned `MultiMessage` (one
//! `Vec` per record plus one `String` per message).

use anyhow::{Context, Result};
use borsh::BorshDeserialize;

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::{Aggregator, Iex, MultiMessage};

pub struct Borsh;

impl Format for Borsh {
    const INFO: FormatInfo = FormatInfo {
        name: "borsh",
        family: Family::Format(&features::BORSH),
        library: "borsh",
        labels: Labels::OWNED_NATIVE,
        notes: "borsh derives; fixed-width little-endian integers, u32 lengths, u8 enum tags. \
                Encode appends straight to the stream (borsh::to_writer). Self-delimiting: \
                records are back to back with no prefix; decode is \
                BorshDeserialize::deserialize(&mut slice) and the slice's advance gives the \
                bytes consumed. Borsh cannot borrow, so decode builds an owned MultiMessage: \
                per record one Vec allocation plus one String per message. Record-shaped \
                workloads: the same derives on the record types, decoded owned (one allocation \
                per String/Vec) then visited; borsh refuses to encode NaN floats (encode error).",
        wire: Some("borsh"),
        framing: Framing::None,
    };
}

impl Codec<Iex> for Borsh {
    fn new() -> Self {
        Borsh
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        borsh::to_writer(stream, record).context("borsh: encode")
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let mut input = stream;
        let record = MultiMessage::deserialize(&mut input).context("borsh: decode")?;
        record.aggregate_into(sink);
        Ok(stream.len() - input.len())
    }
}

/// The record-shaped workloads: the record's own derives, decoded owned
/// (borsh cannot borrow), then visited. Borsh refuses to encode a NaN float
/// (an encode error, not corruption).
impl<R> Codec<Fields<R>> for Borsh
where
    R: FieldRecord + borsh::BorshSerialize + BorshDeserialize,
{
    fn new() -> Self {
        Borsh
    }

    fn encode(&mut self, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        borsh::to_writer(stream, record).context("borsh: encode")
    }

    fn decode(&mut self, stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        let mut input = stream;
        let record = R::deserialize(&mut input).context("borsh: decode")?;
        record.visit(sink);
        Ok(stream.len() - input.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::iex::sample_dataset;

    crate::format::codec_tests::iex_codec_tests!(Borsh);

    #[test]
    fn encoding_is_borshs_own() {
        let record = &sample_dataset().records[0];
        let mut stream = Vec::new();
        Codec::<Iex>::encode(&mut Borsh, record, &mut stream).unwrap();
        assert_eq!(stream, borsh::to_vec(record).unwrap());
        assert_eq!(&stream[..12], &[1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0], "u64 seq_no, u32 count");
    }
}
