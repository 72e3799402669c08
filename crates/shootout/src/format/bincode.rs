//! bincode 2 through its native derives (`Encode` on the record, `BorrowDecode`
//! on a borrowed mirror), standard configuration.
//!
//! bincode's encoding is self-delimiting, so records are written back to back
//! with no length prefix: `borrow_decode_from_slice` reports the bytes it read.
//! Decoding borrows each symbol from the stream, but the mirror's message list is
//! a `Vec` built per record: one allocation per non-empty record.

use anyhow::{Context, Result};
use bincode::config::{self, Configuration, Limit};
use bincode::error::EncodeError;

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, SliceRoom, features};
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::view::BorrowedMultiMessage;
use crate::workload::iex::{Aggregator, Iex, MultiMessage};

/// Upper bound on the bytes one record may claim while decoding: bincode's
/// documented guard against hostile lengths (without it a corrupt length makes
/// `Vec::with_capacity` abort). Far above any IEX-TP packet.
const DECODE_LIMIT: usize = 16 << 20;

fn encode_config() -> Configuration {
    config::standard()
}

fn decode_config() -> Configuration<config::LittleEndian, config::Varint, Limit<DECODE_LIMIT>> {
    config::standard().with_limit::<DECODE_LIMIT>()
}

pub struct Bincode {
    room: SliceRoom,
}

impl Bincode {
    /// Appends `value` with `encode_into_slice` into room reserved at the end
    /// of the stream: bincode's slice writer copies bytes straight in, where
    /// `encode_into_std_write` goes through `io::Write`.
    fn append<E: bincode::Encode>(&mut self, value: &E, stream: &mut Vec<u8>) -> Result<()> {
        self.room
            .append(
                stream,
                |room| bincode::encode_into_slice(value, room, encode_config()),
                |error| matches!(error, EncodeError::UnexpectedEnd),
            )
            .context("bincode: encode")?;
        Ok(())
    }
}

impl Format for Bincode {
    const INFO: FormatInfo = FormatInfo {
        name: "bincode",
        family: Family::Format(&features::BINCODE),
        library: "bincode",
        labels: Labels::OWNED_NATIVE.unmaintained(
            "RUSTSEC-2025-0141 (2025-12-16): its team ceased development for good; \
             rust_serialization_benchmark dropped bincode 1 and 2 as unmaintained (PR #156, \
             2026-08-21)",
        ),
        notes: "bincode 2 native derives (Encode; BorrowDecode on a mirror whose symbol is a \
                borrowed &str), config::standard() (little endian, varint integers). Encode \
                writes with encode_into_slice into space reserved at the stream's end (128 \
                bytes, doubled and retried when a record does not fit), then truncates to the \
                bytes written. The encoding is \
                self-delimiting, so records are back to back with no prefix; \
                borrow_decode_from_slice returns the bytes read. Decode checks UTF-8 and \
                allocates the message Vec once per non-empty record; it runs with \
                with_limit::<16 MiB>(), bincode's guard against hostile lengths. Record-shaped \
                workloads: Encode/Decode derived on the record types themselves, same config, \
                framing and limit; decode builds the owned record (one allocation per String/Vec) \
                and visits it.",
        wire: Some("bincode"),
        framing: Framing::None,
    };
}

impl Codec<Iex> for Bincode {
    fn new() -> Self {
        Bincode { room: SliceRoom::default() }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        self.append(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let (record, used): (BorrowedMultiMessage<'_>, usize) =
            bincode::borrow_decode_from_slice(stream, decode_config())
                .context("bincode: decode")?;
        record.aggregate_into(sink);
        Ok(used)
    }
}

/// The record-shaped workloads: the record's own `Encode`/`Decode` derives,
/// decoded owned (strings copied) with the same configuration and limit, then
/// visited.
impl<R> Codec<Fields<R>> for Bincode
where
    R: FieldRecord + bincode::Encode + bincode::Decode<()>,
{
    fn new() -> Self {
        Bincode { room: SliceRoom::default() }
    }

    fn encode(&mut self, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        self.append(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        let (record, used): (R, usize) =
            bincode::decode_from_slice(stream, decode_config()).context("bincode: decode")?;
        record.visit(sink);
        Ok(used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::iex::sample_dataset;

    crate::format::codec_tests::iex_codec_tests!(Bincode);

    #[test]
    fn encoding_is_the_standard_one() {
        let record = &sample_dataset().records[0];
        let mut stream = Vec::new();
        Codec::<Iex>::encode(&mut <Bincode as Codec<Iex>>::new(), record, &mut stream).unwrap();
        assert_eq!(stream, bincode::encode_to_vec(record, config::standard()).unwrap());
        // seq_no 1 as a one-byte varint, then the message count.
        assert_eq!(&stream[..2], &[1, 2]);
    }
}
