//! Müsli (`musli`), through its own derives (`Encode` on the record, `Decode`
//! on the borrowed mirror), with the options of the mode its documentation
//! calls the fastest ("Going very fast", docs.rs/musli): the `storage`
//! encoding with fixed-width integers and floats in native byte order, and the
//! default context with error handling disabled (a failure is only a marker).
//!
//! `#[musli(packed)]` (fields one after another, no identifiers) is on the iex
//! record and its mirror only. Inside a packed struct musli encodes fields
//! with the packed encoder, which writes nothing for `None` and decodes an
//! `Option` as `Some` whenever input remains (musli::packed: "it only supports
//! optional fields *at the end* of the stream"): the tabular rows (20 optional
//! cells) then decode into the next record. So the record-shaped workloads'
//! types are not packed: storage writes each field behind its index and each
//! `Option` behind a 1-byte tag. For the same reason the `musli::packed`
//! encoding is not used at all.
//!
//! The encoding is self-delimiting, so records are written back to back with
//! no length prefix; decoding reads from musli's `SliceReader`, whose remaining
//! length after the record gives the bytes it took. Each symbol is borrowed
//! from the stream; the mirror's message list is a `Vec` built per record.

use anyhow::{Result, anyhow};
use musli::alloc::Global;
use musli::context;
use musli::mode::Binary;
use musli::options::{self, Options};
use musli::reader::SliceReader;
use musli::storage::Encoding;
use musli::{Decode, Encode};

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::view::BorrowedMultiMessage;
use crate::workload::iex::{Aggregator, Iex, MultiMessage};

/// The options of musli's "Going very fast" section: fixed-width integers and
/// floats, native byte order (little-endian on the machines this runs on).
pub(crate) const OPTIONS: Options = options::new().fixed().native_byte_order().build();
pub(crate) const ENCODING: Encoding<OPTIONS> = Encoding::new().with_options();

pub struct Musli;

/// Appends `value` to `stream` through musli's `Vec<u8>` writer; a failed
/// write's partial prefix is cut off.
fn append<T: Encode<Binary>>(value: &T, stream: &mut Vec<u8>) -> Result<()> {
    let start = stream.len();
    let cx = context::new();
    ENCODING.encode_with(&cx, &mut *stream, value).map_err(|_| {
        stream.truncate(start);
        anyhow!("musli: encode failed")
    })
}

/// Reads one `T` from the start of `stream`; returns it and the bytes it took.
fn read<'de, T: Decode<'de, Binary, Global>>(stream: &'de [u8]) -> Result<(T, usize)> {
    let cx = context::new();
    let mut reader = SliceReader::new(stream);
    let value =
        ENCODING.decode_with(&cx, &mut reader).map_err(|_| anyhow!("musli: decode failed"))?;
    Ok((value, stream.len() - reader.remaining()))
}

impl Format for Musli {
    const INFO: FormatInfo = FormatInfo {
        name: "musli",
        family: Family::Format(&features::MUSLI),
        library: "musli",
        labels: Labels::OWNED_NATIVE,
        notes: "Müsli native derives (Encode; Decode on a mirror whose symbol is a borrowed \
                &str), the options of musli's fastest documented mode (\"Going very fast\"): \
                the storage encoding with fixed-width integers and floats in native byte \
                order, the default context without error capture. iex: the record and mirror \
                #[musli(packed)] (fields one after another, no identifiers). Record-shaped \
                workloads: not packed, since inside a packed struct musli writes nothing for \
                None and reads Some while input remains (optional fields mid-record would \
                swallow the next record; musli::packed is not used for the same reason): \
                each field behind its index, each Option behind a 1-byte tag; decode builds \
                the owned record (one allocation per String/Vec) and visits it. Encode \
                appends with encode_with to the stream (musli's Vec writer). The encoding is \
                self-delimiting, so records are back to back with no prefix; decode reads one \
                record from a SliceReader (the bytes read are what it consumed), checks UTF-8 \
                and allocates the iex message Vec once per non-empty record.",
        wire: Some("musli-storage"),
        framing: Framing::None,
    };
}

impl Codec<Iex> for Musli {
    fn new() -> Self {
        Musli
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        append(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let (record, used) = read::<BorrowedMultiMessage<'_>>(stream)?;
        record.aggregate_into(sink);
        Ok(used)
    }
}

/// The record-shaped workloads: the record's own derives, decoded owned
/// (strings copied) with the same encoding, then visited.
impl<R> Codec<Fields<R>> for Musli
where
    R: FieldRecord + Encode<Binary> + for<'de> Decode<'de, Binary, Global>,
{
    fn new() -> Self {
        Musli
    }

    fn encode(&mut self, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        append(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        let (record, used) = read::<R>(stream)?;
        record.visit(sink);
        Ok(used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::codec_tests::{decode_one, sample_stream};
    use crate::workload::iex::sample_dataset;

    crate::format::codec_tests::iex_codec_tests!(Musli);

    /// iex's packed bytes: fixed-width native-endian integers, struct fields
    /// in order with no identifiers, lengths as native-width integers (8 bytes
    /// here).
    #[test]
    fn bytes_are_fixed_width_fields_in_order() {
        let stream = sample_stream::<Musli>();
        let first = &sample_dataset().records[0];
        // seq_no as a fixed 8-byte integer, then the message count.
        assert_eq!(&stream[..8], &first.seq_no.to_ne_bytes());
        assert_eq!(&stream[8..16], &(first.messages.len() as u64).to_ne_bytes());
        // ts, then the symbol's length and bytes.
        let message = &first.messages[0];
        assert_eq!(&stream[16..24], &message.ts.to_ne_bytes());
        assert_eq!(&stream[24..32], &(message.symbol.len() as u64).to_ne_bytes());
        assert_eq!(&stream[32..32 + message.symbol.len()], message.symbol.as_bytes());
    }

    /// A tabular row of optional cells, all but the first `None`, round-trips
    /// back to back: the case packed structs get wrong.
    #[test]
    fn optional_fields_mid_record_round_trip() {
        use crate::format::assert_round_trip;
        use crate::workload::tabular::{StringsRow, sample};
        assert_round_trip::<Fields<StringsRow>, Musli>(&sample::<StringsRow>());
    }

    #[test]
    fn a_huge_message_count_is_an_error() {
        // seq_no, then a message count of 2^40.
        let mut stream = vec![0; 8];
        stream.extend_from_slice(&(1u64 << 40).to_ne_bytes());
        assert!(decode_one::<Musli>(&stream).is_err());
    }
}
