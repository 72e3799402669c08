//! rkyv 0.8 with its derives on the record: archives read in place, validated
//! (`rkyv::access` with bytecheck) or not (`access_unchecked`, a separate,
//! labelled variant).
//!
//! Encode serializes with the high-level API into an [`AlignedVec`] and an
//! [`Arena`](rkyv::ser::allocator::Arena) that both live in the codec (`to_bytes_in_with_alloc`), so steady
//! state allocates nothing, then appends the archive to the stream in a frame:
//!
//! ```text
//! [u32 LE archive length][4 zero bytes][archive][zero padding to a multiple of 8]
//! ```
//!
//! rkyv needs the archive at an address aligned for its root (8 bytes here: the
//! `u64` fields; checked at compile time below). Every frame is a multiple of 8
//! bytes, so each archive sits 8-aligned relative to the start of the stream, and
//! an 8-aligned stream (any heap `Vec` from the system allocator) is read in
//! place. Decode checks the address all the same: a misaligned archive is copied
//! into a reused `AlignedVec` first, and counted.

use anyhow::{Context, Result, bail, ensure};
use rkyv::rancor;
use rkyv::ser::allocator::Arena;
use rkyv::util::AlignedVec;

use super::{Access, Api, Codec, DecodeStyle, Format, FormatInfo, Labels};
use crate::workload::iex::record::{ArchivedBody, ArchivedMultiMessage, ArchivedSide};
use crate::workload::iex::{Aggregator, Iex, MultiMessage, Side};

/// Alignment every archive is placed at (relative to the stream start).
const ALIGN: usize = 8;
/// The length prefix, padded so the archive after it stays aligned.
const HEADER: usize = 8;
const _: () = assert!(align_of::<ArchivedMultiMessage>() <= ALIGN && HEADER.is_multiple_of(ALIGN));
const ROOT: usize = size_of::<ArchivedMultiMessage>();

/// Serializes records into reused scratch space and frames them.
struct Encoder {
    archive: AlignedVec,
    arena: Arena,
}

impl Encoder {
    fn new() -> Self {
        Encoder {
            archive: AlignedVec::new(),
            arena: Arena::new(),
        }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        self.archive.clear();
        rkyv::api::high::to_bytes_in_with_alloc::<_, _, rancor::Error>(
            record,
            &mut self.archive,
            self.arena.acquire(),
        )
        .context("rkyv: serialize")?;
        let len = u32::try_from(self.archive.len()).context("rkyv: archive over 4 GiB")?;
        let padded = self.archive.len().next_multiple_of(ALIGN);
        stream.reserve(HEADER + padded);
        stream.extend_from_slice(&len.to_le_bytes());
        stream.extend_from_slice(&[0; HEADER - 4]);
        stream.extend_from_slice(&self.archive);
        stream.resize(stream.len() + padded - self.archive.len(), 0);
        Ok(())
    }
}

/// Finds the archive at the start of `stream`; returns it and the frame length.
fn framed(stream: &[u8]) -> Result<(&[u8], usize)> {
    let Some(prefix) = stream.first_chunk::<4>() else {
        bail!(
            "rkyv: truncated length prefix ({} bytes left)",
            stream.len()
        );
    };
    let len = u32::from_le_bytes(*prefix) as usize;
    let frame = HEADER + len.next_multiple_of(ALIGN);
    ensure!(
        frame <= stream.len(),
        "rkyv: frame of {frame} bytes but only {} left",
        stream.len()
    );
    ensure!(
        len >= ROOT,
        "rkyv: archive of {len} bytes is smaller than its root"
    );
    Ok((&stream[HEADER..HEADER + len], frame))
}

/// Aligned bytes of `archive`: itself, or (when misaligned) a copy in `scratch`.
fn aligned<'a>(archive: &'a [u8], scratch: &'a mut AlignedVec, copies: &mut u64) -> &'a [u8] {
    if archive.as_ptr().addr().is_multiple_of(ALIGN) {
        archive
    } else {
        *copies += 1;
        scratch.clear();
        scratch.extend_from_slice(archive);
        scratch
    }
}

fn aggregate(record: &ArchivedMultiMessage, sink: &mut Aggregator) {
    let _seq_no = record.seq_no.to_native();
    for message in record.messages.iter() {
        let _ts = message.ts.to_native();
        let symbol = message.symbol.as_str().as_bytes();
        match &message.body {
            ArchivedBody::Trade { price, size } => {
                sink.trade(symbol, price.to_native(), size.to_native());
            }
            ArchivedBody::LevelUpdate {
                price, size, side, ..
            } => {
                let side = match side {
                    ArchivedSide::Buy => Side::Buy,
                    ArchivedSide::Sell => Side::Sell,
                };
                sink.level_update(symbol, side, price.to_native(), size.to_native());
            }
        }
    }
}

// --- rkyv (validated) ---------------------------------------------------------

pub struct Rkyv {
    encoder: Encoder,
    misaligned: AlignedVec,
    /// Records that had to be copied to an aligned buffer before reading.
    misaligned_copies: u64,
}

impl Format for Rkyv {
    const INFO: FormatInfo = FormatInfo {
        name: "rkyv",
        family: "rkyv",
        library: "rkyv",
        labels: Labels {
            buffer_reuse: true,
            decode: DecodeStyle::ZeroCopy,
            access: Access::Validated,
            api: Api::Native,
            lossy: None,
        },
        notes: "rkyv 0.8 derives on the record; encode with the high-level API \
                (to_bytes_in_with_alloc) into a reused AlignedVec and Arena, then copy into the \
                stream. Framing (rkyv has none): u32 LE archive length + 4 zero bytes, the \
                archive, zero padding to a multiple of 8, so every archive stays 8-aligned \
                relative to the stream start (8 = the archived root's alignment; 16 would only \
                add padding). Decode validates each archive with rkyv::access (bytecheck) and \
                reads it in place; a misaligned archive would be copied into a reused \
                AlignedVec first (never happens on a heap-allocated stream).",
    };
}

impl Codec<Iex> for Rkyv {
    fn new() -> Self {
        Rkyv {
            encoder: Encoder::new(),
            misaligned: AlignedVec::new(),
            misaligned_copies: 0,
        }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        self.encoder.encode(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let (archive, frame) = framed(stream)?;
        let bytes = aligned(archive, &mut self.misaligned, &mut self.misaligned_copies);
        let record = rkyv::access::<ArchivedMultiMessage, rancor::Error>(bytes)
            .context("rkyv: invalid archive")?;
        aggregate(record, sink);
        Ok(frame)
    }
}

// --- rkyv-unchecked -------------------------------------------------------------

/// The same stream, read without validation. Only for trusted bytes: a corrupt
/// archive is undefined behaviour, not an error.
pub struct RkyvUnchecked {
    encoder: Encoder,
    misaligned: AlignedVec,
    misaligned_copies: u64,
}

impl Format for RkyvUnchecked {
    const INFO: FormatInfo = FormatInfo {
        name: "rkyv-unchecked",
        family: "rkyv",
        library: "rkyv",
        labels: Labels {
            buffer_reuse: true,
            decode: DecodeStyle::ZeroCopy,
            access: Access::Unchecked,
            api: Api::Native,
            lossy: None,
        },
        notes: "UNSAFE: rkyv::access_unchecked, no validation; only sound for trusted bytes \
                (corrupt input is undefined behaviour, not an error), so not what a default user \
                should do. Same encoder and framing as `rkyv`; only the frame (length prefix, \
                bounds, alignment) is checked before the unchecked access.",
    };
}

impl Codec<Iex> for RkyvUnchecked {
    fn new() -> Self {
        RkyvUnchecked {
            encoder: Encoder::new(),
            misaligned: AlignedVec::new(),
            misaligned_copies: 0,
        }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        self.encoder.encode(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let (archive, frame) = framed(stream)?;
        let bytes = aligned(archive, &mut self.misaligned, &mut self.misaligned_copies);
        // SAFETY: this variant is only for streams this codec wrote (trusted bytes);
        // `framed` checked the archive is in bounds and holds at least a root, and
        // `aligned` that it is aligned. A corrupt stream is undefined behaviour.
        let record = unsafe { rkyv::access_unchecked::<ArchivedMultiMessage>(bytes) };
        aggregate(record, sink);
        Ok(frame)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::format::codec_tests::{sample_with_big_record, 
        assert_garbage_is_an_error, assert_round_trips_with_a_big_record, decode_all, encode_all,
    };
    use crate::workload::Workload;
    use crate::workload::iex::sample_dataset;

    #[test]
    fn round_trips() {
        assert_round_trip::<Iex, Rkyv>(&sample_dataset());
        assert_round_trips_with_a_big_record::<Rkyv>();
    }

    #[test]
    fn unchecked_round_trips() {
        assert_round_trip::<Iex, RkyvUnchecked>(&sample_dataset());
        assert_round_trips_with_a_big_record::<RkyvUnchecked>();
    }

    #[test]
    fn garbage_is_an_error() {
        assert_garbage_is_an_error::<Rkyv>(&sample_with_big_record());
    }

    #[test]
    fn unchecked_rejects_bad_frames() {
        let stream = encode_all::<RkyvUnchecked>(&sample_dataset().records);
        let mut codec = RkyvUnchecked::new();
        let mut sink = Iex::new_sink(&Default::default());
        let first = codec.decode(&stream, &mut sink).unwrap();
        for cut in 0..first {
            assert!(
                codec.decode(&stream[..cut], &mut sink).is_err(),
                "cut {cut}"
            );
        }
        assert!(
            codec.decode(&[0; 8], &mut sink).is_err(),
            "archive smaller than its root"
        );
    }

    #[test]
    fn frames_keep_archives_aligned_and_the_library_reads_them() {
        let records = sample_dataset().records;
        let stream = encode_all::<Rkyv>(&records);
        assert_eq!(stream.len() % ALIGN, 0);
        let mut offset = 0;
        for record in &records {
            let (archive, frame) = framed(&stream[offset..]).unwrap();
            assert_eq!((offset + HEADER) % ALIGN, 0);
            let back: MultiMessage = rkyv::from_bytes::<MultiMessage, rancor::Error>(archive)
                .unwrap_or_else(|_| panic!("record at {offset}"));
            assert_eq!(&back, record);
            offset += frame;
        }
        assert_eq!(offset, stream.len());
        // An aligned stream is read in place.
        let mut codec = Rkyv::new();
        assert_eq!(decode_all(&mut codec, &stream).unwrap(), records.len());
        assert_eq!(codec.misaligned_copies, 0);
    }

    #[test]
    fn a_misaligned_stream_is_copied_then_read() {
        let records = sample_dataset().records;
        let stream = encode_all::<Rkyv>(&records);
        let mut shifted = AlignedVec::<16>::with_capacity(stream.len() + 1);
        shifted.push(0);
        shifted.extend_from_slice(&stream);
        let misaligned = &shifted[1..];
        let mut codec = Rkyv::new();
        assert_eq!(decode_all(&mut codec, misaligned).unwrap(), records.len());
        assert_eq!(codec.misaligned_copies, records.len() as u64);
        let mut codec = RkyvUnchecked::new();
        assert_eq!(decode_all(&mut codec, misaligned).unwrap(), records.len());
        assert_eq!(codec.misaligned_copies, records.len() as u64);
    }
}
