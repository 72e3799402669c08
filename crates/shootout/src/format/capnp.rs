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

#[allow(
    dead_code,
    unused_imports,
    unused_parens,
    unsafe_op_in_unsafe_fn,
    clippy::all,
    clippy::pedantic
)]
#[rustfmt::skip]
#[path = "../workload/iex/generated/iex_capnp.rs"]
mod iex_capnp;

use anyhow::{Context, Result, bail};
use capnp::Word;
use capnp::message::{self, ReaderOptions, ReaderSegments, ScratchSpaceHeapAllocator};
use self_cell::{MutBorrow, self_cell};

use super::{Access, Api, Codec, DecodeStyle, Format, FormatInfo, Labels};
use crate::workload::iex::{Aggregator, Body, Iex, MultiMessage, Side};
use iex_capnp::{message::body, multi_message};

/// First-segment size: a full IEX-TP packet (about 1.5 KB of messages) needs well
/// under this; a bigger record makes the codec grow it for the next one.
const SCRATCH_WORDS: usize = 1024;
/// Initial unpack buffer for `capnp-packed`; grown when a record needs more.
const UNPACK_WORDS: usize = 1024;

// --- encode -----------------------------------------------------------------

type ScratchAllocator<'a> = ScratchSpaceHeapAllocator<'a>;

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
        Encoder {
            scratch: Scratch::with_words(SCRATCH_WORDS),
            scratch_words: SCRATCH_WORDS,
        }
    }

    fn encode(
        &mut self,
        record: &MultiMessage,
        stream: &mut Vec<u8>,
        write: fn(&mut Vec<u8>, &message::Builder<&mut ScratchAllocator<'_>>) -> capnp::Result<()>,
    ) -> Result<()> {
        let (segments, words) = self.scratch.with_dependent_mut(|_, allocator| {
            // Dropping the builder hands the first segment back, re-zeroed, for the next record.
            let mut builder = message::Builder::new(allocator);
            build(&mut builder, record)?;
            write(stream, &builder)?;
            anyhow::Ok((
                builder.get_segments_for_output().len(),
                builder.size_in_words(),
            ))
        })?;
        if segments > 1 {
            // This record overflowed into heap segments; make the next one of its size fit.
            self.scratch_words = (words * 2).max(self.scratch_words * 2);
            self.scratch = Scratch::with_words(self.scratch_words);
        }
        Ok(())
    }
}

fn build(
    builder: &mut message::Builder<&mut ScratchAllocator<'_>>,
    record: &MultiMessage,
) -> Result<()> {
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
            Body::LevelUpdate {
                price,
                size,
                flags,
                side,
            } => {
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
    for message in root.get_messages()? {
        let symbol = message.get_symbol()?.as_bytes();
        match message.get_body().which()? {
            body::Trade(trade) => {
                let trade = trade?;
                sink.trade(symbol, trade.get_price(), trade.get_size());
            }
            body::LevelUpdate(update) => {
                let update = update?;
                let side = match update.get_side()? {
                    iex_capnp::Side::Buy => Side::Buy,
                    iex_capnp::Side::Sell => Side::Sell,
                };
                sink.level_update(symbol, side, update.get_price(), update.get_size());
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
        ReadBuffer {
            words: Word::allocate_zeroed_vec(words),
        }
    }

    /// Reads one record from the start of `stream` with `read` (which fills the
    /// buffer from the input slice it advances) and aggregates it; returns the
    /// input bytes consumed. `max_bytes` bounds what the record can need, so a
    /// truncated or hostile length cannot make the buffer grow without end.
    fn read_into<R>(
        &mut self,
        stream: &[u8],
        max_bytes: usize,
        sink: &mut Aggregator,
        read: R,
    ) -> Result<usize>
    where
        R: for<'b> Fn(
            &mut &[u8],
            &'b mut [u8],
        ) -> capnp::Result<
            message::Reader<capnp::serialize::NoAllocBufferSegments<&'b [u8]>>,
        >,
    {
        loop {
            let mut input = stream;
            match read(&mut input, Word::words_to_bytes_mut(&mut self.words)) {
                Ok(message) => {
                    aggregate(&message, sink)?;
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
        family: "Cap'n Proto",
        library: "capnp",
        labels: Labels {
            buffer_reuse: true,
            decode: DecodeStyle::ZeroCopy,
            access: Access::Validated,
            api: Api::Native,
            lossy: None,
        },
        notes: "Cap'n Proto standard stream framing (segment table + segments, \
                serialize::write_message); the builder's first segment is a reused \
                ScratchSpaceHeapAllocator buffer, but each new message::Builder allocates \
                its segment list once. Decode reads in place from the stream \
                (read_message_from_flat_slice_no_alloc, default ReaderOptions); records \
                are whole words, so an 8-byte aligned stream stays aligned (a misaligned \
                one would be copied into a reused aligned buffer first).",
    };
}

impl Codec<Iex> for CapnpUnpacked {
    fn new() -> Self {
        CapnpUnpacked {
            encoder: Encoder::new(),
            misaligned: ReadBuffer::new(0),
        }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        self.encoder.encode(record, stream, |stream, builder| {
            capnp::serialize::write_message(stream, builder)
        })
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        if stream.as_ptr().align_offset(8) == 0 {
            let mut input = stream;
            let message = capnp::serialize::read_message_from_flat_slice_no_alloc(
                &mut input,
                ReaderOptions::new(),
            )?;
            aggregate(&message, sink)?;
            Ok(stream.len() - input.len())
        } else {
            self.misaligned
                .read_into(stream, stream.len(), sink, |input, buffer| {
                    capnp::serialize::read_message_no_alloc(input, buffer, ReaderOptions::new())
                })
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
        family: "Cap'n Proto",
        library: "capnp",
        labels: Labels {
            buffer_reuse: true,
            decode: DecodeStyle::ZeroCopy,
            access: Access::Validated,
            api: Api::Native,
            lossy: None,
        },
        notes: "Cap'n Proto standard stream framing, packed (serialize_packed::write_message); \
                the builder's first segment is a reused ScratchSpaceHeapAllocator buffer, but \
                each new message::Builder allocates its segment list once. Decode unpacks \
                each record into a reused aligned buffer \
                (serialize_packed::read_message_no_alloc, default ReaderOptions) and reads \
                it in place from there.",
    };
}

impl Codec<Iex> for CapnpPacked {
    fn new() -> Self {
        CapnpPacked {
            encoder: Encoder::new(),
            unpacked: ReadBuffer::new(UNPACK_WORDS),
        }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        self.encoder.encode(record, stream, |stream, builder| {
            capnp::serialize_packed::write_message(stream, builder)
        })
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        // Packing turns at most 256 zero words into 2 bytes, so a record unpacks to
        // at most 1024 times its packed size.
        let max_bytes = stream.len().saturating_mul(1024);
        self.unpacked
            .read_into(stream, max_bytes, sink, |input, buffer| {
                capnp::serialize_packed::read_message_no_alloc(input, buffer, ReaderOptions::new())
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::workload::Workload;
    use crate::workload::iex::{Message, sample_dataset};

    fn encode_all<C: Codec<Iex>>(records: &[MultiMessage]) -> Vec<u8> {
        let mut codec = C::new();
        let mut stream = Vec::new();
        for record in records {
            codec.encode(record, &mut stream).unwrap();
        }
        stream
    }

    fn decode_all<C: Codec<Iex>>(codec: &mut C, stream: &[u8]) -> Result<usize> {
        let mut sink = Iex::new_sink(&Default::default());
        let mut offset = 0;
        let mut records = 0;
        while offset < stream.len() {
            offset += codec.decode(&stream[offset..], &mut sink)?;
            records += 1;
        }
        Ok(records)
    }

    /// A record bigger than the scratch segment, to exercise the growth paths.
    fn big_record() -> MultiMessage {
        let messages = (0..2000)
            .map(|i| Message {
                ts: i,
                symbol: format!("S{}", i % 37),
                body: if i % 3 == 0 {
                    Body::Trade {
                        price: i as u64,
                        size: 1,
                    }
                } else {
                    Body::LevelUpdate {
                        price: 10 * i as u64,
                        size: 2,
                        flags: 1,
                        side: Side::Sell,
                    }
                },
            })
            .collect();
        MultiMessage {
            seq_no: 9,
            messages,
        }
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
            assert_eq!(
                root.get_messages().unwrap().len() as usize,
                record.messages.len()
            );
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

    #[test]
    fn records_larger_than_the_scratch_and_unpack_buffers() {
        let mut records = sample_dataset().records;
        records.insert(1, big_record());
        records.push(big_record());
        let unpacked = encode_all::<CapnpUnpacked>(&records);
        assert_eq!(
            decode_all(&mut CapnpUnpacked::new(), &unpacked).unwrap(),
            records.len()
        );
        let packed = encode_all::<CapnpPacked>(&records);
        assert_eq!(
            decode_all(&mut CapnpPacked::new(), &packed).unwrap(),
            records.len()
        );
        // After growing, the big record is a single segment.
        let mut codec = CapnpUnpacked::new();
        let mut stream = Vec::new();
        codec.encode(&big_record(), &mut stream).unwrap();
        stream.clear();
        codec.encode(&big_record(), &mut stream).unwrap();
        assert_eq!(&stream[..4], &[0, 0, 0, 0], "segment count - 1");
    }

    #[test]
    fn unpacked_decodes_a_misaligned_stream() {
        let records = sample_dataset().records;
        let stream = encode_all::<CapnpUnpacked>(&records);
        let mut shifted = vec![0u8; stream.len() + 1];
        let start = if shifted.as_ptr().align_offset(8) == 0 {
            1
        } else {
            0
        };
        shifted[start..start + stream.len()].copy_from_slice(&stream);
        let misaligned = &shifted[start..start + stream.len()];
        assert_ne!(misaligned.as_ptr().align_offset(8), 0);
        assert_eq!(
            decode_all(&mut CapnpUnpacked::new(), misaligned).unwrap(),
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
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
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
