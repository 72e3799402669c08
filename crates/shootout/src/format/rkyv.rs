//! rkyv 0.8 with its derives on the record: archives read in place, validated
//! (`rkyv::access` with bytecheck) or not (`access_unchecked`, a separate,
//! labelled variant).
//!
//! Encode serializes with the high-level API into an [`AlignedVec`] and an
//! [`Arena`] that both live in the codec (`to_bytes_in_with_alloc`), so steady
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
use rkyv::api::high::{HighSerializer, HighValidator};
use rkyv::bytecheck::CheckBytes;
use rkyv::rancor;
use rkyv::ser::allocator::{Arena, ArenaHandle};
use rkyv::util::AlignedVec;

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::record::{ArchivedBody, ArchivedMultiMessage, ArchivedSide};
use crate::workload::iex::{Aggregator, Iex, MultiMessage, Side};
use crate::workload::object::SmallObject;
use crate::workload::primitives::Primitives;
use crate::workload::sql::SqlRequest;
use crate::workload::tabular::{LongsRow, MixedRow, StringsRow};
use crate::workload::user::UserResponse;

/// Alignment every archive is placed at (relative to the stream start).
const ALIGN: usize = 8;
/// The length prefix, padded so the archive after it stays aligned.
const HEADER: usize = 8;
const _: () = assert!(align_of::<ArchivedMultiMessage>() <= ALIGN && HEADER.is_multiple_of(ALIGN));

/// What `to_bytes_in_with_alloc` needs of a record to serialize it into the
/// encoder's scratch space.
trait Archivable:
    for<'a, 'b> rkyv::Serialize<HighSerializer<&'b mut AlignedVec, ArenaHandle<'a>, rancor::Error>>
{
}

impl<T> Archivable for T where
    T: for<'a, 'b> rkyv::Serialize<
            HighSerializer<&'b mut AlignedVec, ArenaHandle<'a>, rancor::Error>,
        >
{
}

/// Serializes records into reused scratch space and frames them.
struct Encoder {
    archive: AlignedVec,
    arena: Arena,
}

impl Encoder {
    fn new() -> Self {
        Encoder { archive: AlignedVec::new(), arena: Arena::new() }
    }

    fn encode<T: Archivable>(&mut self, record: &T, stream: &mut Vec<u8>) -> Result<()> {
        const { assert!(align_of::<T::Archived>() <= ALIGN) };
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

/// Finds the archive (whose root is `root` bytes) at the start of `stream`;
/// returns it and the frame length.
fn framed(stream: &[u8], root: usize) -> Result<(&[u8], usize)> {
    let Some(prefix) = stream.first_chunk::<4>() else {
        bail!("rkyv: truncated length prefix ({} bytes left)", stream.len());
    };
    let len = u32::from_le_bytes(*prefix) as usize;
    let frame = HEADER + len.next_multiple_of(ALIGN);
    ensure!(frame <= stream.len(), "rkyv: frame of {frame} bytes but only {} left", stream.len());
    ensure!(len >= root, "rkyv: archive of {len} bytes is smaller than its root");
    Ok((&stream[HEADER..HEADER + len], frame))
}

/// `bytes` validated as an archived `A`. Validation runs with `rancor::Failure`,
/// which records nothing; only an archive that fails is checked again with
/// `rancor::Error`, whose message says what is wrong.
fn checked<A>(bytes: &[u8]) -> Result<&A>
where
    A: rkyv::Portable
        + for<'a> CheckBytes<HighValidator<'a, rancor::Failure>>
        + for<'a> CheckBytes<HighValidator<'a, rancor::Error>>,
{
    match rkyv::access::<A, rancor::Failure>(bytes) {
        Ok(archived) => Ok(archived),
        Err(_) => rkyv::access::<A, rancor::Error>(bytes).context("rkyv: invalid archive"),
    }
}

/// Finds each archive in the stream and hands it out aligned: in place, or
/// (misaligned) copied into reused scratch space first.
struct Decoder {
    misaligned: AlignedVec,
    /// Archives that had to be copied to an aligned buffer before reading.
    misaligned_copies: u64,
}

impl Decoder {
    fn new() -> Self {
        Decoder { misaligned: AlignedVec::new(), misaligned_copies: 0 }
    }

    /// The aligned bytes of the archive (whose root is an `A`) at the start of
    /// `stream`, and the frame length.
    #[inline]
    fn archive<'a, A>(&'a mut self, stream: &'a [u8]) -> Result<(&'a [u8], usize)> {
        let (archive, frame) = framed(stream, size_of::<A>())?;
        if archive.as_ptr().addr().is_multiple_of(ALIGN) {
            return Ok((archive, frame));
        }
        self.misaligned_copies += 1;
        self.misaligned.clear();
        self.misaligned.extend_from_slice(archive);
        Ok((&self.misaligned, frame))
    }
}

fn aggregate(record: &ArchivedMultiMessage, sink: &mut Aggregator) {
    sink.packet(record.seq_no.to_native(), record.messages.len());
    for message in record.messages.iter() {
        let ts = message.ts.to_native();
        let symbol = message.symbol.as_str().as_bytes();
        match &message.body {
            ArchivedBody::Trade { price, size } => {
                sink.trade(ts, symbol, price.to_native(), size.to_native());
            }
            ArchivedBody::LevelUpdate { price, size, flags, side } => {
                let side = match side {
                    ArchivedSide::Buy => Side::Buy,
                    ArchivedSide::Sell => Side::Sell,
                };
                sink.level_update(ts, symbol, side, *flags, price.to_native(), size.to_native());
            }
        }
    }
}

/// A record-shaped workload's record whose archive is fed to the sink in place,
/// like `FieldRecord::visit` on the owned record.
pub trait ArchivedRecord: FieldRecord + rkyv::Archive {
    fn feed(archived: &Self::Archived, sink: &mut FieldSink);
}

impl ArchivedRecord for UserResponse {
    fn feed(a: &Self::Archived, sink: &mut FieldSink) {
        sink.record();
        sink.int(0, a.uid.to_native());
        sink.text(1, a.muid.as_bytes());
        sink.text(2, a.status.as_bytes());
        sink.int(3, a.tutorial.to_native());
        sink.text(4, a.nickname.as_bytes());
        sink.int(5, a.total_login_num.to_native());
        sink.text(6, a.opened_at.as_bytes());
        sink.text(7, a.created_at.as_bytes());
        sink.text(8, a.updated_at.as_bytes());
    }
}

impl ArchivedRecord for SqlRequest {
    fn feed(a: &Self::Archived, sink: &mut FieldSink) {
        sink.record();
        sink.text(0, a.query.as_bytes());
        a.args.iter().for_each(|v| sink.int(1, v.to_native()));
    }
}

impl ArchivedRecord for Primitives {
    fn feed(a: &Self::Archived, sink: &mut FieldSink) {
        sink.record();
        a.ints.iter().for_each(|v| sink.int(0, i64::from(v.to_native())));
        a.longs.iter().for_each(|v| sink.int(1, v.to_native()));
        a.doubles.iter().for_each(|v| sink.float(2, v.to_native()));
        a.booleans.iter().for_each(|&v| sink.bool(3, v));
        a.strings.iter().for_each(|v| sink.text(4, v.as_bytes()));
    }
}

impl ArchivedRecord for SmallObject {
    fn feed(a: &Self::Archived, sink: &mut FieldSink) {
        sink.record();
        sink.int(0, a.id.to_native());
        sink.text(1, a.name.as_bytes());
        sink.text(2, a.email.as_bytes());
        sink.int(3, i64::from(a.age.to_native()));
        sink.float(4, a.score.to_native());
        sink.float(5, f64::from(a.ratio.to_native()));
        sink.bool(6, a.active);
        sink.int(7, i64::from(a.level));
        sink.int(8, a.created_at.to_native());
        a.tags.iter().for_each(|t| sink.text(9, t.as_bytes()));
    }
}

/// The tabular rows: the `tabular!` macro generates their archived visit.
macro_rules! archived_rows {
    ($($row:ty),+) => {
        $(impl ArchivedRecord for $row {
            fn feed(archived: &Self::Archived, sink: &mut FieldSink) {
                <$row>::visit_archived(archived, sink);
            }
        })+
    };
}

archived_rows!(MixedRow, StringsRow, LongsRow);

// --- rkyv (validated) ---------------------------------------------------------

pub struct Rkyv {
    encoder: Encoder,
    decoder: Decoder,
}

impl Format for Rkyv {
    const INFO: FormatInfo = FormatInfo {
        name: "rkyv",
        family: Family::Format(&features::RKYV),
        library: "rkyv",
        labels: Labels::ZERO_COPY_NATIVE,
        notes: "rkyv 0.8 derives on the record; encode with the high-level API \
                (to_bytes_in_with_alloc) into a reused AlignedVec and Arena, then copy into the \
                stream. Framing (rkyv has none): u32 LE archive length + 4 zero bytes, the \
                archive, zero padding to a multiple of 8, so every archive stays 8-aligned \
                relative to the stream start (8 = the archived root's alignment; 16 would only \
                add padding). Decode validates each archive with rkyv::access (bytecheck) and \
                reads it in place; validation uses rancor::Failure (no error value built), and \
                only a failed archive is checked again with rancor::Error for the message; a misaligned archive would be copied into a reused \
                AlignedVec first (never happens on a heap-allocated stream). Record-shaped \
                workloads: the same derives, encoder and framing; the sink is fed from the \
                archived fields in place (ArchivedOption for absent values); no allocation in \
                either direction.",
        // Its u32 length is followed by alignment padding, so the whole record
        // counts as the body: only Rust reads it.
        wire: Some("rkyv"),
        framing: Framing::None,
    };
}

impl Codec<Iex> for Rkyv {
    fn new() -> Self {
        Rkyv { encoder: Encoder::new(), decoder: Decoder::new() }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        self.encoder.encode(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let (bytes, frame) = self.decoder.archive::<ArchivedMultiMessage>(stream)?;
        let record = checked::<ArchivedMultiMessage>(bytes)?;
        aggregate(record, sink);
        Ok(frame)
    }
}

/// The record-shaped workloads: the same encoder and framing; decode validates
/// the archive and feeds the sink from it in place.
impl<R> Codec<Fields<R>> for Rkyv
where
    R: ArchivedRecord + Archivable,
    R::Archived: for<'a> CheckBytes<HighValidator<'a, rancor::Failure>>
        + for<'a> CheckBytes<HighValidator<'a, rancor::Error>>,
{
    fn new() -> Self {
        <Rkyv as Codec<Iex>>::new()
    }

    fn encode(&mut self, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        self.encoder.encode(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        let (bytes, frame) = self.decoder.archive::<R::Archived>(stream)?;
        let record = checked::<R::Archived>(bytes)?;
        R::feed(record, sink);
        Ok(frame)
    }
}

// --- rkyv-unchecked -------------------------------------------------------------

/// The same stream, read without validation. Only for trusted bytes: a corrupt
/// archive is undefined behaviour, not an error.
pub struct RkyvUnchecked {
    encoder: Encoder,
    decoder: Decoder,
}

impl Format for RkyvUnchecked {
    const INFO: FormatInfo = FormatInfo {
        name: "rkyv-unchecked",
        family: Family::Format(&features::RKYV),
        library: "rkyv",
        labels: Labels::ZERO_COPY_UNCHECKED,
        notes: "UNSAFE: rkyv::access_unchecked, no validation; only sound for trusted bytes \
                (corrupt input is undefined behaviour, not an error), so not what a default user \
                should do. Same encoder and framing as `rkyv`; only the frame (length prefix, \
                bounds, alignment) is checked before the unchecked access. Record-shaped \
                workloads: likewise, archived fields fed to the sink in place.",
        wire: Some("rkyv"),
        framing: Framing::None,
    };
}

impl Codec<Iex> for RkyvUnchecked {
    fn new() -> Self {
        RkyvUnchecked { encoder: Encoder::new(), decoder: Decoder::new() }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        self.encoder.encode(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let (bytes, frame) = self.decoder.archive::<ArchivedMultiMessage>(stream)?;
        // SAFETY: this variant is only for streams this codec wrote (trusted bytes);
        // `archive` checked the archive is in bounds and holds at least a root, and
        // aligned it. A corrupt stream is undefined behaviour.
        let record = unsafe { rkyv::access_unchecked::<ArchivedMultiMessage>(bytes) };
        aggregate(record, sink);
        Ok(frame)
    }
}

/// The record-shaped workloads, read without validation (trusted bytes only).
impl<R> Codec<Fields<R>> for RkyvUnchecked
where
    R: ArchivedRecord + Archivable,
{
    fn new() -> Self {
        <RkyvUnchecked as Codec<Iex>>::new()
    }

    fn encode(&mut self, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        self.encoder.encode(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        let (bytes, frame) = self.decoder.archive::<R::Archived>(stream)?;
        // SAFETY: as for the IEX record: trusted bytes this codec wrote, in bounds,
        // at least a root long and aligned. A corrupt stream is undefined behaviour.
        let record = unsafe { rkyv::access_unchecked::<R::Archived>(bytes) };
        R::feed(record, sink);
        Ok(frame)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::format::codec_tests::{
        assert_round_trips_with_a_big_record, decode_all, encode_all,
    };
    use crate::workload::Workload;
    use crate::workload::iex::sample_dataset;

    crate::format::codec_tests::iex_codec_tests!(Rkyv);

    #[test]
    fn unchecked_round_trips() {
        assert_round_trip::<Iex, RkyvUnchecked>(&sample_dataset());
        assert_round_trips_with_a_big_record::<RkyvUnchecked>();
    }

    /// Steady state: no record shape allocates in either direction, checked or not.
    #[test]
    fn record_shapes_allocate_nothing() {
        use crate::format::codec_tests::record_steady_state_allocations;
        use crate::workload::tabular::{self, LongsRow, MixedRow, StringsRow};
        use crate::workload::{object, primitives, sql, user};
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let measured = [
                record_steady_state_allocations::<_, Rkyv>(&user::sample()),
                record_steady_state_allocations::<_, Rkyv>(&sql::sample()),
                record_steady_state_allocations::<_, Rkyv>(&primitives::sample()),
                record_steady_state_allocations::<_, Rkyv>(&object::sample()),
                record_steady_state_allocations::<_, Rkyv>(&tabular::sample::<MixedRow>()),
                record_steady_state_allocations::<_, Rkyv>(&tabular::sample::<StringsRow>()),
                record_steady_state_allocations::<_, RkyvUnchecked>(&tabular::sample::<LongsRow>()),
            ];
            if measured == [(0, 0); 7] || std::time::Instant::now() > deadline {
                assert_eq!(measured, [(0, 0); 7], "(encode, decode) allocations per shape");
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    #[test]
    fn unchecked_rejects_bad_frames() {
        let stream = encode_all::<RkyvUnchecked>(&sample_dataset().records);
        let mut codec = <RkyvUnchecked as Codec<Iex>>::new();
        let mut sink = Iex::new_sink(&Default::default());
        let first = Codec::<Iex>::decode(&mut codec, &stream, &mut sink).unwrap();
        for cut in 0..first {
            assert!(
                Codec::<Iex>::decode(&mut codec, &stream[..cut], &mut sink).is_err(),
                "cut {cut}"
            );
        }
        assert!(
            Codec::<Iex>::decode(&mut codec, &[0; 8], &mut sink).is_err(),
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
            let (archive, frame) =
                framed(&stream[offset..], size_of::<ArchivedMultiMessage>()).unwrap();
            assert_eq!((offset + HEADER) % ALIGN, 0);
            let back: MultiMessage = rkyv::from_bytes::<MultiMessage, rancor::Error>(archive)
                .unwrap_or_else(|_| panic!("record at {offset}"));
            assert_eq!(&back, record);
            offset += frame;
        }
        assert_eq!(offset, stream.len());
        // An aligned stream is read in place.
        let mut codec = <Rkyv as Codec<Iex>>::new();
        assert_eq!(decode_all(&mut codec, &stream).unwrap(), records.len());
        assert_eq!(codec.decoder.misaligned_copies, 0);
    }

    #[test]
    fn a_misaligned_stream_is_copied_then_read() {
        let records = sample_dataset().records;
        let stream = encode_all::<Rkyv>(&records);
        let mut shifted = AlignedVec::<16>::with_capacity(stream.len() + 1);
        shifted.push(0);
        shifted.extend_from_slice(&stream);
        let misaligned = &shifted[1..];
        let mut codec = <Rkyv as Codec<Iex>>::new();
        assert_eq!(decode_all(&mut codec, misaligned).unwrap(), records.len());
        assert_eq!(codec.decoder.misaligned_copies, records.len() as u64);
        let mut codec = <RkyvUnchecked as Codec<Iex>>::new();
        assert_eq!(decode_all(&mut codec, misaligned).unwrap(), records.len());
        assert_eq!(codec.decoder.misaligned_copies, records.len() as u64);
    }
}
