//! Cap'n Proto via the `capnp` crate, in the standard stream framing (segment
//! table, then the segments), unpacked and packed.
//!
//! Encode builds each record in a [`ScratchSpaceHeapAllocator`] that lives as long
//! as the codec, so the first segment's memory is reused (and only its used part
//! re-zeroed) record after record. Decode reads validated and in place: unpacked
//! straight from the stream, packed from a reusable buffer the record is unpacked
//! into.
//!
//! One heap allocation per encoded record is the library's: `message::Builder`
//! keeps its segment list in a `Vec` it allocates on first use (capnp 0.27,
//! `private::arena::BuilderArenaImplInner::allocate_segment`), and a builder cannot
//! be reset for the next message. Decode allocates nothing.

crate::format::generated_code! {
    /// The code the pinned compiler generates from schemas/iex/iex.capnp and
    /// schemas/records/records.capnp (scripts/regenerate.sh); never edited by hand.
    mod generated {
        pub mod iex_capnp;
        pub mod records_capnp;
    }
}

use generated::{iex_capnp, records_capnp};

use anyhow::{Context, Result, bail};
use capnp::Word;
use capnp::message::{self, ReaderOptions, ReaderSegments, ScratchSpaceHeapAllocator};
use self_cell::{MutBorrow, self_cell};

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::Workload;
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::{Aggregator, Body, Iex, MultiMessage, Side};
use crate::workload::object::SmallObject;
use crate::workload::primitives::Primitives;
use crate::workload::sql::SqlRequest;
use crate::workload::tabular::{Cell, LongsRow, MixedRow, StringsRow};
use crate::workload::user::UserResponse;
use iex_capnp::{message::body, multi_message};

/// First-segment size: a full IEX-TP packet (about 1.5 KB of messages) needs well
/// under this; a bigger record makes the codec grow it for the next one.
const SCRATCH_WORDS: usize = 1024;
/// Initial unpack buffer for `capnp-packed`; grown when a record needs more.
const UNPACK_WORDS: usize = 1024;

// --- encode -----------------------------------------------------------------

type ScratchAllocator<'a> = ScratchSpaceHeapAllocator<'a>;
/// A message builder over the codec's scratch allocator.
type ScratchBuilder<'a, 'b> = message::Builder<&'a mut ScratchAllocator<'b>>;
/// Appends a built message to the stream: unpacked or packed standard framing.
type Write = fn(&mut Vec<u8>, &ScratchBuilder<'_, '_>) -> capnp::Result<()>;
/// A message read in place from a byte slice (the stream, or a reused buffer).
type SliceReader<'a> = message::Reader<capnp::serialize::NoAllocBufferSegments<&'a [u8]>>;

self_cell!(
    /// An 8-byte aligned scratch buffer and the allocator that lends it out as the
    /// first segment of each message; kept together so the allocator outlives a
    /// single record without borrowing from the codec.
    struct Scratch {
        owner: MutBorrow<Box<[Word]>>,
        #[covariant]
        dependent: ScratchAllocator,
    }
);

impl Scratch {
    fn with_words(words: usize) -> Self {
        let buffer = Word::allocate_zeroed_vec(words).into_boxed_slice();
        Scratch::new(MutBorrow::new(buffer), |buffer| {
            ScratchSpaceHeapAllocator::new(Word::words_to_bytes_mut(buffer.borrow_mut()))
        })
    }
}

/// Builds records and writes them to the stream; shared by both variants.
struct Encoder {
    scratch: Scratch,
    scratch_words: usize,
}

impl Encoder {
    fn new() -> Self {
        Encoder { scratch: Scratch::with_words(SCRATCH_WORDS), scratch_words: SCRATCH_WORDS }
    }

    /// Builds one record with `build` and appends it to `stream` with `write`.
    fn encode(
        &mut self,
        stream: &mut Vec<u8>,
        write: Write,
        build: impl FnOnce(&mut ScratchBuilder<'_, '_>) -> Result<()>,
    ) -> Result<()> {
        let (segments, words) = self.scratch.with_dependent_mut(|_, allocator| {
            // Dropping the builder hands the first segment back, re-zeroed, for the next record.
            let mut builder = message::Builder::new(allocator);
            build(&mut builder)?;
            write(stream, &builder)?;
            anyhow::Ok((builder.get_segments_for_output().len(), builder.size_in_words()))
        })?;
        if segments > 1 {
            // This record overflowed into heap segments; make the next one of its size fit.
            self.scratch_words = (words * 2).max(self.scratch_words * 2);
            self.scratch = Scratch::with_words(self.scratch_words);
        }
        Ok(())
    }
}

/// A workload mapped to Cap'n Proto structs: how to build a record, and how to
/// read one back, in place, into the sink.
pub trait CapnpWorkload: Workload {
    fn build(record: &Self::Record, builder: &mut ScratchBuilder<'_, '_>) -> Result<()>;
    fn read(message: &SliceReader<'_>, sink: &mut Self::Sink) -> Result<()>;
}

impl CapnpWorkload for Iex {
    fn build(record: &MultiMessage, builder: &mut ScratchBuilder<'_, '_>) -> Result<()> {
        build(builder, record)
    }

    fn read(message: &SliceReader<'_>, sink: &mut Aggregator) -> Result<()> {
        aggregate(message, sink)
    }
}

fn build(builder: &mut ScratchBuilder<'_, '_>, record: &MultiMessage) -> Result<()> {
    let mut root = builder.init_root::<multi_message::Builder>();
    root.set_seq_no(record.seq_no);
    let count =
        u32::try_from(record.messages.len()).context("too many messages for a capnp list")?;
    let mut list = root.init_messages(count);
    for (i, message) in (0..count).zip(&record.messages) {
        let mut out = list.reborrow().get(i);
        out.set_ts(message.ts);
        out.set_symbol(message.symbol.as_str());
        match message.body {
            Body::Trade { price, size } => {
                let mut trade = out.get_body().init_trade();
                trade.set_price(price);
                trade.set_size(size);
            }
            Body::LevelUpdate { price, size, flags, side } => {
                let mut update = out.get_body().init_level_update();
                update.set_price(price);
                update.set_size(size);
                update.set_flags(flags);
                update.set_side(match side {
                    Side::Buy => iex_capnp::Side::Buy,
                    Side::Sell => iex_capnp::Side::Sell,
                });
            }
        }
    }
    Ok(())
}

// --- decode -----------------------------------------------------------------

/// Feeds one message's records to the sink, reading symbols in place.
fn aggregate<S: ReaderSegments>(message: &message::Reader<S>, sink: &mut Aggregator) -> Result<()> {
    let root = message.get_root::<multi_message::Reader>()?;
    let messages = root.get_messages()?;
    sink.packet(root.get_seq_no(), messages.len() as usize);
    for message in messages {
        let ts = message.get_ts();
        let symbol = message.get_symbol()?.as_bytes();
        match message.get_body().which()? {
            body::Trade(trade) => {
                let trade = trade?;
                sink.trade(ts, symbol, trade.get_price(), trade.get_size());
            }
            body::LevelUpdate(update) => {
                let update = update?;
                let side = match update.get_side()? {
                    iex_capnp::Side::Buy => Side::Buy,
                    iex_capnp::Side::Sell => Side::Sell,
                };
                sink.level_update(
                    ts,
                    symbol,
                    side,
                    update.get_flags(),
                    update.get_price(),
                    update.get_size(),
                );
            }
        }
    }
    Ok(())
}

/// An 8-byte aligned buffer a record is read into (unpacked, or copied when the
/// stream itself is misaligned), grown as needed and reused.
struct ReadBuffer {
    words: Vec<Word>,
}

impl ReadBuffer {
    fn new(words: usize) -> Self {
        ReadBuffer { words: Word::allocate_zeroed_vec(words) }
    }

    /// Reads one record from the start of `stream` with `read` (which fills the
    /// buffer from the input slice it advances) and hands it to `visit`; returns
    /// the input bytes consumed. `max_bytes` bounds what the record can need, so a
    /// truncated or hostile length cannot make the buffer grow without end.
    fn read_into<R, V>(
        &mut self,
        stream: &[u8],
        max_bytes: usize,
        read: R,
        visit: V,
    ) -> Result<usize>
    where
        R: for<'b> Fn(&mut &[u8], &'b mut [u8]) -> capnp::Result<SliceReader<'b>>,
        V: FnOnce(&SliceReader<'_>) -> Result<()>,
    {
        let mut visit = Some(visit);
        loop {
            let mut input = stream;
            match read(&mut input, Word::words_to_bytes_mut(&mut self.words)) {
                Ok(message) => {
                    visit.take().expect("visited once")(&message)?;
                    return Ok(stream.len() - input.len());
                }
                Err(e) if e.kind == capnp::ErrorKind::BufferNotLargeEnough => {
                    let max_words = max_bytes.div_ceil(8);
                    let grown = (self.words.len() * 2).max(UNPACK_WORDS).min(max_words);
                    if grown <= self.words.len() {
                        bail!(
                            "capnp: record is truncated ({} bytes left in the stream)",
                            stream.len()
                        );
                    }
                    self.words = Word::allocate_zeroed_vec(grown);
                }
                Err(e) => return Err(e.into()),
            }
        }
    }
}

// --- capnp-unpacked -----------------------------------------------------------

/// The standard framing, read zero-copy from the stream.
pub struct CapnpUnpacked {
    encoder: Encoder,
    /// Only for a stream that is not 8-byte aligned, which capnp cannot read in place.
    misaligned: ReadBuffer,
}

impl Format for CapnpUnpacked {
    const INFO: FormatInfo = FormatInfo {
        name: "capnp-unpacked",
        family: Family::Format(&features::CAPNP),
        library: "capnp",
        labels: Labels::ZERO_COPY_NATIVE,
        notes: "Cap'n Proto standard stream framing (segment table + segments, \
                serialize::write_message); the builder's first segment is a reused \
                ScratchSpaceHeapAllocator buffer, but each new message::Builder allocates \
                its segment list once. Decode reads in place from the stream \
                (read_message_from_flat_slice_no_alloc, default ReaderOptions); records \
                are whole words, so an 8-byte aligned stream stays aligned (a misaligned \
                one would be copied into a reused aligned buffer first). Record-shaped workloads: \
                one struct per record type (schemas/records/records.capnp); a tabular row's \
                optional scalar cells are flagged in a `present :UInt32` bitmask (bit i = cell \
                f(i+1), absent cells left 0), absent text cells are null pointers; text is read \
                in place as bytes.",
        wire: Some("capnp-unpacked"),
        framing: Framing::None,
    };
}

impl<W: CapnpWorkload> Codec<W> for CapnpUnpacked {
    fn new() -> Self {
        CapnpUnpacked { encoder: Encoder::new(), misaligned: ReadBuffer::new(0) }
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        self.encoder.encode(stream, write_unpacked, |builder| W::build(record, builder))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        self.read(stream, |message| W::read(message, sink))
    }
}

fn write_unpacked(stream: &mut Vec<u8>, builder: &ScratchBuilder<'_, '_>) -> capnp::Result<()> {
    capnp::serialize::write_message(stream, builder)
}

fn write_packed(stream: &mut Vec<u8>, builder: &ScratchBuilder<'_, '_>) -> capnp::Result<()> {
    capnp::serialize_packed::write_message(stream, builder)
}

impl CapnpUnpacked {
    /// Reads the record at the start of `stream` in place and hands it to `visit`.
    fn read(
        &mut self,
        stream: &[u8],
        visit: impl FnOnce(&SliceReader<'_>) -> Result<()>,
    ) -> Result<usize> {
        if stream.as_ptr().align_offset(8) == 0 {
            let mut input = stream;
            let message = capnp::serialize::read_message_from_flat_slice_no_alloc(
                &mut input,
                ReaderOptions::new(),
            )?;
            visit(&message)?;
            Ok(stream.len() - input.len())
        } else {
            self.misaligned.read_into(
                stream,
                stream.len(),
                |input, buffer| {
                    capnp::serialize::read_message_no_alloc(input, buffer, ReaderOptions::new())
                },
                visit,
            )
        }
    }
}

// --- capnp-packed ---------------------------------------------------------------

/// The standard framing, packed; decode unpacks into a reused buffer and reads it in place.
pub struct CapnpPacked {
    encoder: Encoder,
    unpacked: ReadBuffer,
}

impl Format for CapnpPacked {
    const INFO: FormatInfo = FormatInfo {
        name: "capnp-packed",
        family: Family::Format(&features::CAPNP),
        library: "capnp",
        labels: Labels::ZERO_COPY_NATIVE,
        notes: "Cap'n Proto standard stream framing, packed (serialize_packed::write_message); \
                the builder's first segment is a reused ScratchSpaceHeapAllocator buffer, but \
                each new message::Builder allocates its segment list once. Decode unpacks \
                each record into a reused aligned buffer \
                (serialize_packed::read_message_no_alloc, default ReaderOptions) and reads \
                it in place from there. Record-shaped workloads: one struct per record type \
                (schemas/records/records.capnp); a tabular row's optional scalar cells are \
                flagged in a `present :UInt32` bitmask, absent text cells are null pointers.",
        wire: Some("capnp-packed"),
        framing: Framing::None,
    };
}

impl<W: CapnpWorkload> Codec<W> for CapnpPacked {
    fn new() -> Self {
        CapnpPacked { encoder: Encoder::new(), unpacked: ReadBuffer::new(UNPACK_WORDS) }
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        self.encoder.encode(stream, write_packed, |builder| W::build(record, builder))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        self.read(stream, |message| W::read(message, sink))
    }
}

impl CapnpPacked {
    /// Unpacks the record at the start of `stream` into the reused buffer and
    /// hands it to `visit`.
    fn read(
        &mut self,
        stream: &[u8],
        visit: impl FnOnce(&SliceReader<'_>) -> Result<()>,
    ) -> Result<usize> {
        // Packing turns at most 256 zero words into 2 bytes, so a record unpacks to
        // at most 1024 times its packed size.
        let max_bytes = stream.len().saturating_mul(1024);
        self.unpacked.read_into(
            stream,
            max_bytes,
            |input, buffer| {
                capnp::serialize_packed::read_message_no_alloc(input, buffer, ReaderOptions::new())
            },
            visit,
        )
    }
}

// --- as the 2019 shootout read ---------------------------------------------------

/// Reads the IEX packet at the start of `stream` as the 2019 "Binary Format
/// Shootout" harness read it, allocating for each message as its document
/// says: packed, `serialize_packed::read_message` unpacks into segments it
/// allocates; unpacked, `read_message_from_flat_slice` reads in place but
/// allocates the Vec of its segment table. The codecs above read the same
/// bytes with no allocation; `shootout study iex-2019` times both. Returns
/// the bytes consumed.
pub fn read_iex_allocating(stream: &[u8], packed: bool, sink: &mut Aggregator) -> Result<usize> {
    let mut input = stream;
    if packed {
        aggregate(&capnp::serialize_packed::read_message(&mut input, ReaderOptions::new())?, sink)?;
    } else {
        let message =
            capnp::serialize::read_message_from_flat_slice(&mut input, ReaderOptions::new())?;
        aggregate(&message, sink)?;
    }
    Ok(stream.len() - input.len())
}

// --- record-shaped workloads ----------------------------------------------------

/// A record type with a struct in schemas/records/records.capnp: how to build
/// it, and how to read it back (in place) into the sink.
pub trait CapnpRecord: FieldRecord {
    fn build(&self, builder: &mut ScratchBuilder<'_, '_>) -> Result<()>;
    fn read(message: &SliceReader<'_>, sink: &mut FieldSink) -> Result<()>;
}

impl<R: CapnpRecord> CapnpWorkload for Fields<R> {
    fn build(record: &R, builder: &mut ScratchBuilder<'_, '_>) -> Result<()> {
        record.build(builder)
    }

    fn read(message: &SliceReader<'_>, sink: &mut FieldSink) -> Result<()> {
        R::read(message, sink)
    }
}

/// A list length as Cap'n Proto's u32 element count.
fn list_len<T>(values: &[T]) -> Result<u32> {
    u32::try_from(values.len()).context("capnp: list longer than u32::MAX elements")
}

/// Builds a text list of `values` in `list`.
fn set_texts(mut list: capnp::text_list::Builder<'_>, values: &[String]) {
    for (i, value) in (0..).zip(values) {
        list.set(i, value.as_str());
    }
}

impl CapnpRecord for UserResponse {
    fn build(&self, builder: &mut ScratchBuilder<'_, '_>) -> Result<()> {
        let mut root = builder.init_root::<records_capnp::user_response::Builder>();
        root.set_uid(self.uid);
        root.set_muid(self.muid.as_str());
        root.set_status(self.status.as_str());
        root.set_tutorial(self.tutorial);
        root.set_nickname(self.nickname.as_str());
        root.set_total_login_num(self.total_login_num);
        root.set_opened_at(self.opened_at.as_str());
        root.set_created_at(self.created_at.as_str());
        root.set_updated_at(self.updated_at.as_str());
        Ok(())
    }

    fn read(message: &SliceReader<'_>, sink: &mut FieldSink) -> Result<()> {
        let root = message.get_root::<records_capnp::user_response::Reader>()?;
        sink.record();
        sink.int(0, root.get_uid());
        sink.text(1, root.get_muid()?.as_bytes());
        sink.text(2, root.get_status()?.as_bytes());
        sink.int(3, root.get_tutorial());
        sink.text(4, root.get_nickname()?.as_bytes());
        sink.int(5, root.get_total_login_num());
        sink.text(6, root.get_opened_at()?.as_bytes());
        sink.text(7, root.get_created_at()?.as_bytes());
        sink.text(8, root.get_updated_at()?.as_bytes());
        Ok(())
    }
}

impl CapnpRecord for SqlRequest {
    fn build(&self, builder: &mut ScratchBuilder<'_, '_>) -> Result<()> {
        let mut root = builder.init_root::<records_capnp::sql_request::Builder>();
        root.set_query(self.query.as_str());
        let mut args = root.init_args(list_len(&self.args)?);
        for (i, &arg) in (0..).zip(&self.args) {
            args.set(i, arg);
        }
        Ok(())
    }

    fn read(message: &SliceReader<'_>, sink: &mut FieldSink) -> Result<()> {
        let root = message.get_root::<records_capnp::sql_request::Reader>()?;
        sink.record();
        sink.text(0, root.get_query()?.as_bytes());
        root.get_args()?.iter().for_each(|arg| sink.int(1, arg));
        Ok(())
    }
}

impl CapnpRecord for Primitives {
    fn build(&self, builder: &mut ScratchBuilder<'_, '_>) -> Result<()> {
        let mut root = builder.init_root::<records_capnp::primitives::Builder>();
        let mut ints = root.reborrow().init_ints(list_len(&self.ints)?);
        for (i, &v) in (0..).zip(&self.ints) {
            ints.set(i, v);
        }
        let mut longs = root.reborrow().init_longs(list_len(&self.longs)?);
        for (i, &v) in (0..).zip(&self.longs) {
            longs.set(i, v);
        }
        let mut doubles = root.reborrow().init_doubles(list_len(&self.doubles)?);
        for (i, &v) in (0..).zip(&self.doubles) {
            doubles.set(i, v);
        }
        let mut booleans = root.reborrow().init_booleans(list_len(&self.booleans)?);
        for (i, &v) in (0..).zip(&self.booleans) {
            booleans.set(i, v);
        }
        set_texts(root.init_strings(list_len(&self.strings)?), &self.strings);
        Ok(())
    }

    fn read(message: &SliceReader<'_>, sink: &mut FieldSink) -> Result<()> {
        let root = message.get_root::<records_capnp::primitives::Reader>()?;
        sink.record();
        root.get_ints()?.iter().for_each(|v| sink.int(0, i64::from(v)));
        root.get_longs()?.iter().for_each(|v| sink.int(1, v));
        root.get_doubles()?.iter().for_each(|v| sink.float(2, v));
        root.get_booleans()?.iter().for_each(|v| sink.bool(3, v));
        for v in root.get_strings()?.iter() {
            sink.text(4, v?.as_bytes());
        }
        Ok(())
    }
}

impl CapnpRecord for SmallObject {
    fn build(&self, builder: &mut ScratchBuilder<'_, '_>) -> Result<()> {
        let mut root = builder.init_root::<records_capnp::small_object::Builder>();
        root.set_id(self.id);
        root.set_name(self.name.as_str());
        root.set_email(self.email.as_str());
        root.set_age(self.age);
        root.set_score(self.score);
        root.set_ratio(self.ratio);
        root.set_active(self.active);
        root.set_level(self.level);
        root.set_created_at(self.created_at);
        set_texts(root.init_tags(list_len(&self.tags)?), &self.tags);
        Ok(())
    }

    fn read(message: &SliceReader<'_>, sink: &mut FieldSink) -> Result<()> {
        let root = message.get_root::<records_capnp::small_object::Reader>()?;
        sink.record();
        sink.int(0, root.get_id());
        sink.text(1, root.get_name()?.as_bytes());
        sink.text(2, root.get_email()?.as_bytes());
        sink.int(3, i64::from(root.get_age()));
        sink.float(4, root.get_score());
        sink.float(5, f64::from(root.get_ratio()));
        sink.bool(6, root.get_active());
        sink.int(7, i64::from(root.get_level()));
        sink.int(8, root.get_created_at());
        for tag in root.get_tags()?.iter() {
            sink.text(9, tag?.as_bytes());
        }
        Ok(())
    }
}

/// One optional cell of a tabular row: a text cell is absent when its pointer is
/// null; a scalar cell is absent when its bit in `present` is clear.
macro_rules! capnp_cell {
    (build text, $root:ident, $present:ident, $field:expr, $value:expr, $set:ident, $get:ident, $has:ident) => {
        if let Some(value) = &$value {
            $root.$set(value.as_str());
        }
    };
    (build num, $root:ident, $present:ident, $field:expr, $value:expr, $set:ident, $get:ident) => {
        if let Some(value) = $value {
            $present |= 1 << $field;
            $root.$set(value);
        }
    };
    (read text, $root:ident, $present:ident, $field:expr, $sink:ident, $set:ident, $get:ident, $has:ident) => {
        if $root.$has() {
            $sink.text($field, $root.$get()?.as_bytes());
        }
    };
    (read num, $root:ident, $present:ident, $field:expr, $sink:ident, $set:ident, $get:ident) => {
        if $present & (1 << $field) != 0 {
            Cell::visit(&$root.$get(), $field, $sink);
        }
    };
}

/// `CapnpRecord` for a tabular row: cells f1..f20 in order (field index = cell
/// position = bit in the `present` mask, for rows with scalar cells).
macro_rules! capnp_row {
    ($record:ty, $module:ident, $(present($set_present:ident, $get_present:ident))? {
        $($field:ident: $kind:ident($($name:ident),+)),+ $(,)?
    }) => {
        impl CapnpRecord for $record {
            #[allow(unused_assignments, unused_mut, unused_variables)]
            fn build(&self, builder: &mut ScratchBuilder<'_, '_>) -> Result<()> {
                let mut root = builder.init_root::<records_capnp::$module::Builder>();
                let mut present = 0u32;
                let mut field = 0usize;
                $(
                    capnp_cell!(build $kind, root, present, field, self.$field, $($name),+);
                    field += 1;
                )+
                $(root.$set_present(present);)?
                let _ = present;
                Ok(())
            }

            #[allow(unused_assignments)]
            fn read(message: &SliceReader<'_>, sink: &mut FieldSink) -> Result<()> {
                let root = message.get_root::<records_capnp::$module::Reader>()?;
                let present = 0u32 $(| root.$get_present())?;
                sink.record();
                let mut field = 0usize;
                $(
                    capnp_cell!(read $kind, root, present, field, sink, $($name),+);
                    field += 1;
                )+
                let _ = present;
                Ok(())
            }
        }
    };
}

capnp_row!(MixedRow, mixed_row, present(set_present, get_present) {
        f1: text(set_f1, get_f1, has_f1), f2: num(set_f2, get_f2), f3: num(set_f3, get_f3),
        f4: num(set_f4, get_f4), f5: text(set_f5, get_f5, has_f5), f6: num(set_f6, get_f6),
        f7: num(set_f7, get_f7), f8: num(set_f8, get_f8), f9: num(set_f9, get_f9), f10: num(set_f10, get_f10),
        f11: num(set_f11, get_f11), f12: num(set_f12, get_f12), f13: text(set_f13, get_f13, has_f13),
        f14: text(set_f14, get_f14, has_f14), f15: num(set_f15, get_f15), f16: num(set_f16, get_f16),
        f17: num(set_f17, get_f17), f18: text(set_f18, get_f18, has_f18),
        f19: text(set_f19, get_f19, has_f19), f20: text(set_f20, get_f20, has_f20),
});
capnp_row!(StringsRow, strings_row, {
        f1: text(set_f1, get_f1, has_f1), f2: text(set_f2, get_f2, has_f2), f3: text(set_f3, get_f3, has_f3),
        f4: text(set_f4, get_f4, has_f4), f5: text(set_f5, get_f5, has_f5), f6: text(set_f6, get_f6, has_f6),
        f7: text(set_f7, get_f7, has_f7), f8: text(set_f8, get_f8, has_f8), f9: text(set_f9, get_f9, has_f9),
        f10: text(set_f10, get_f10, has_f10), f11: text(set_f11, get_f11, has_f11),
        f12: text(set_f12, get_f12, has_f12), f13: text(set_f13, get_f13, has_f13),
        f14: text(set_f14, get_f14, has_f14), f15: text(set_f15, get_f15, has_f15),
        f16: text(set_f16, get_f16, has_f16), f17: text(set_f17, get_f17, has_f17),
        f18: text(set_f18, get_f18, has_f18), f19: text(set_f19, get_f19, has_f19),
        f20: text(set_f20, get_f20, has_f20),
});
capnp_row!(LongsRow, longs_row, present(set_present, get_present) {
        f1: num(set_f1, get_f1), f2: num(set_f2, get_f2), f3: num(set_f3, get_f3), f4: num(set_f4, get_f4),
        f5: num(set_f5, get_f5), f6: num(set_f6, get_f6), f7: num(set_f7, get_f7), f8: num(set_f8, get_f8),
        f9: num(set_f9, get_f9), f10: num(set_f10, get_f10), f11: num(set_f11, get_f11),
        f12: num(set_f12, get_f12), f13: num(set_f13, get_f13), f14: num(set_f14, get_f14),
        f15: num(set_f15, get_f15), f16: num(set_f16, get_f16), f17: num(set_f17, get_f17),
        f18: num(set_f18, get_f18), f19: num(set_f19, get_f19), f20: num(set_f20, get_f20),
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::format::codec_tests::{big_record, decode_all, encode_all, encoded_sparse_row};
    use crate::workload::Workload;
    use crate::workload::iex::sample_dataset;

    /// Truncations and bit flips of a tabular record: errors or wrong values, never a panic.

    #[test]
    fn absent_scalars_are_absent_and_text_cells_null() {
        let stream = encoded_sparse_row::<CapnpUnpacked>();
        let mut input = stream.as_slice();
        let message =
            capnp::serialize::read_message_from_flat_slice(&mut input, ReaderOptions::new())
                .unwrap();
        let root = message.get_root::<records_capnp::mixed_row::Reader>().unwrap();
        assert_eq!(root.get_present(), 1 << 2);
        assert!(root.has_f1() && !root.has_f5());
    }

    #[test]
    fn unpacked_round_trips() {
        assert_round_trip::<Iex, CapnpUnpacked>(&sample_dataset());
    }

    #[test]
    fn packed_round_trips() {
        assert_round_trip::<Iex, CapnpPacked>(&sample_dataset());
    }

    #[test]
    fn packed_is_smaller_and_framing_is_standard() {
        let records = sample_dataset().records;
        let unpacked = encode_all::<CapnpUnpacked>(&records);
        let packed = encode_all::<CapnpPacked>(&records);
        assert!(packed.len() < unpacked.len());
        // The library's own allocating readers agree on the framing.
        let mut input = unpacked.as_slice();
        for record in &records {
            let message =
                capnp::serialize::read_message_from_flat_slice(&mut input, ReaderOptions::new())
                    .unwrap();
            let root = message.get_root::<multi_message::Reader>().unwrap();
            assert_eq!(root.get_seq_no(), record.seq_no);
            assert_eq!(root.get_messages().unwrap().len() as usize, record.messages.len());
        }
        assert!(input.is_empty());
        let mut input = packed.as_slice();
        for record in &records {
            let message =
                capnp::serialize_packed::read_message(&mut input, ReaderOptions::new()).unwrap();
            let root = message.get_root::<multi_message::Reader>().unwrap();
            assert_eq!(root.get_seq_no(), record.seq_no);
        }
        assert!(input.is_empty());
    }

    /// The 2019 harness's reads give the codecs' aggregate, and allocate for
    /// every packet, where the codecs' reads of the same bytes allocate none.
    #[test]
    fn the_2019_reads_agree_and_allocate_for_every_packet() {
        let dataset = sample_dataset();
        let streams = [
            (false, encode_all::<CapnpUnpacked>(&dataset.records)),
            (true, encode_all::<CapnpPacked>(&dataset.records)),
        ];
        for (packed, stream) in streams {
            let read_all = |sink: &mut Aggregator| {
                let mut offset = 0;
                while offset < stream.len() {
                    offset += read_iex_allocating(&stream[offset..], packed, sink).unwrap();
                }
            };
            let mut sink = Iex::new_sink(&dataset.reference);
            read_all(&mut sink);
            assert_eq!(Iex::first_difference(&dataset.reference, &Iex::finish(sink)), None);
            // A sink that has seen every symbol allocates nothing itself.
            let mut warm = Iex::new_sink(&dataset.reference);
            read_all(&mut warm);
            let counting = crate::alloc::Counting::start();
            let before = crate::alloc::snapshot();
            read_all(&mut warm);
            let allocations = (crate::alloc::snapshot() - before).count;
            drop(counting);
            assert!(
                allocations >= dataset.records.len() as u64,
                "packed {packed}: {allocations} allocations for {} packets",
                dataset.records.len()
            );
        }
    }

    #[test]
    fn records_larger_than_the_scratch_and_unpack_buffers() {
        let mut records = sample_dataset().records;
        records.insert(1, big_record());
        records.push(big_record());
        let unpacked = encode_all::<CapnpUnpacked>(&records);
        assert_eq!(
            decode_all(&mut <CapnpUnpacked as Codec<Iex>>::new(), &unpacked).unwrap(),
            records.len()
        );
        let packed = encode_all::<CapnpPacked>(&records);
        assert_eq!(
            decode_all(&mut <CapnpPacked as Codec<Iex>>::new(), &packed).unwrap(),
            records.len()
        );
        // After growing, the big record is a single segment.
        let mut codec = <CapnpUnpacked as Codec<Iex>>::new();
        let mut stream = Vec::new();
        Codec::<Iex>::encode(&mut codec, &big_record(), &mut stream).unwrap();
        stream.clear();
        Codec::<Iex>::encode(&mut codec, &big_record(), &mut stream).unwrap();
        assert_eq!(&stream[..4], &[0, 0, 0, 0], "segment count - 1");
    }

    #[test]
    fn unpacked_decodes_a_misaligned_stream() {
        let records = sample_dataset().records;
        let stream = encode_all::<CapnpUnpacked>(&records);
        let mut shifted = vec![0u8; stream.len() + 1];
        let start = if shifted.as_ptr().align_offset(8) == 0 { 1 } else { 0 };
        shifted[start..start + stream.len()].copy_from_slice(&stream);
        let misaligned = &shifted[start..start + stream.len()];
        assert_ne!(misaligned.as_ptr().align_offset(8), 0);
        assert_eq!(
            decode_all(&mut <CapnpUnpacked as Codec<Iex>>::new(), misaligned).unwrap(),
            records.len()
        );
    }

    fn assert_garbage_is_an_error<C: Codec<Iex>>() {
        let mut records = sample_dataset().records;
        records.push(big_record());
        let stream = encode_all::<C>(&records);
        let mut codec = C::new();
        let mut sink = Iex::new_sink(&Default::default());
        // Truncations of a valid stream: the first record (or all) cut short.
        let first = codec.decode(&stream, &mut sink).unwrap();
        for cut in 0..first {
            assert!(
                codec.decode(&stream[..cut], &mut sink).is_err(),
                "{}: cut {cut}",
                C::INFO.name
            );
        }
        let last_start = stream.len() - {
            let mut offset = 0;
            let mut last = 0;
            while offset < stream.len() {
                last = codec.decode(&stream[offset..], &mut sink).unwrap();
                offset += last;
            }
            last
        };
        for cut in (last_start..stream.len()).step_by(211) {
            assert!(
                codec.decode(&stream[last_start..cut], &mut sink).is_err(),
                "{}: cut {cut}",
                C::INFO.name
            );
        }
        // Noise, and bit flips of a valid stream: errors or wrong values, never a panic.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || crate::format::codec_tests::xorshift(&mut state);
        for len in [1, 7, 8, 9, 16, 64, 1000] {
            let words: Vec<Word> = Word::allocate_zeroed_vec(len / 8 + 1);
            let mut bytes = Word::words_to_bytes(&words).to_vec();
            bytes.iter_mut().for_each(|b| *b = next() as u8);
            let _ = codec.decode(&bytes[..len], &mut sink);
        }
        for _ in 0..2000 {
            let mut flipped = stream[..first].to_vec();
            let bit = (next() as usize) % (flipped.len() * 8);
            flipped[bit / 8] ^= 1 << (bit % 8);
            let _ = codec.decode(&flipped, &mut sink);
        }
        assert!(codec.decode(&[0xff; 8], &mut sink).is_err());
        assert!(codec.decode(&[], &mut sink).is_err());
    }

    #[test]
    fn unpacked_garbage_is_an_error() {
        assert_garbage_is_an_error::<CapnpUnpacked>();
    }

    #[test]
    fn packed_garbage_is_an_error() {
        assert_garbage_is_an_error::<CapnpPacked>();
    }
}
