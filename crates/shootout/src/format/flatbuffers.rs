//! FlatBuffers (the official `flatbuffers` crate) with flatc-generated code.
//!
//! Each record is one size-prefixed FlatBuffer (`finish_size_prefixed`), the
//! format's documented framing for a stream of buffers. Decoding verifies the
//! buffer with `size_prefixed_root` (the safe default) and then reads it in place.

use ::flatbuffers::{FlatBufferBuilder, WIPOffset};
use anyhow::{Context, Result, bail};

use super::{Access, Api, Codec, DecodeStyle, Format, FormatInfo, Labels};
use crate::workload::iex::{Aggregator, Body, Iex, MultiMessage, Side};

#[allow(
    clippy::all,
    clippy::pedantic,
    dead_code,
    deprecated,
    missing_docs,
    non_camel_case_types,
    non_snake_case,
    unused_imports,
    unsafe_op_in_unsafe_fn
)]
#[rustfmt::skip]
#[path = "../workload/iex/generated/iex_generated.rs"]
mod iex_generated;

use iex_generated::shootout::iex as fb;

/// Starting capacity of the builder's buffer; it doubles when a packet needs more.
const INITIAL_CAPACITY: usize = 1024;

pub struct Flatbuffers {
    builder: FlatBufferBuilder<'static>,
    /// Offsets of the current record's messages, kept between records for reuse.
    messages: Vec<WIPOffset<fb::Message<'static>>>,
}

impl Format for Flatbuffers {
    const INFO: FormatInfo = FormatInfo {
        name: "flatbuffers",
        family: "FlatBuffers",
        library: "flatbuffers",
        labels: Labels {
            buffer_reuse: true,
            decode: DecodeStyle::ZeroCopy,
            access: Access::Validated,
            api: Api::Native,
            lossy: None,
        },
        notes: "One size-prefixed buffer per record (finish_size_prefixed), the documented \
                framing for a stream of FlatBuffers. Reads are verified: size_prefixed_root \
                runs the Verifier over every record before it is read in place. Body is a union \
                of two tables, each holding one struct with all of its scalars. Symbols are \
                plain strings (create_string, no deduplication).",
    };
}

impl Codec<Iex> for Flatbuffers {
    fn new() -> Self {
        Flatbuffers {
            builder: FlatBufferBuilder::with_capacity(INITIAL_CAPACITY),
            messages: Vec::new(),
        }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        let fbb = &mut self.builder;
        fbb.reset();
        self.messages.clear();
        for message in &record.messages {
            let (body_type, body) = match message.body {
                Body::Trade { price, size } => {
                    let data = fb::TradeData::new(price, size);
                    let trade = fb::Trade::create(fbb, &fb::TradeArgs { data: Some(&data) });
                    (fb::Body::Trade, trade.as_union_value())
                }
                Body::LevelUpdate {
                    price,
                    size,
                    flags,
                    side,
                } => {
                    let side = match side {
                        Side::Buy => fb::Side::Buy,
                        Side::Sell => fb::Side::Sell,
                    };
                    let data = fb::LevelUpdateData::new(price, size, flags, side);
                    let update =
                        fb::LevelUpdate::create(fbb, &fb::LevelUpdateArgs { data: Some(&data) });
                    (fb::Body::LevelUpdate, update.as_union_value())
                }
            };
            let symbol = fbb.create_string(&message.symbol);
            let message = fb::Message::create(
                fbb,
                &fb::MessageArgs {
                    ts: message.ts,
                    symbol: Some(symbol),
                    body_type,
                    body: Some(body),
                },
            );
            self.messages.push(message);
        }
        let messages = fbb.create_vector(&self.messages);
        let root = fb::MultiMessage::create(
            fbb,
            &fb::MultiMessageArgs {
                seq_no: record.seq_no,
                messages: Some(messages),
            },
        );
        fbb.finish_size_prefixed(root, None);
        stream.extend_from_slice(fbb.finished_data());
        Ok(())
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let buffer = framed(stream)?;
        let record = ::flatbuffers::size_prefixed_root::<fb::MultiMessage>(buffer)
            .context("flatbuffers: invalid buffer")?;
        aggregate(record, sink)?;
        Ok(buffer.len())
    }
}

/// The size-prefixed buffer at the start of `stream`, prefix included.
fn framed(stream: &[u8]) -> Result<&[u8]> {
    let Some(prefix) = stream.first_chunk::<4>() else {
        bail!("flatbuffers: truncated size prefix ({} bytes left)", stream.len());
    };
    let len = 4 + u32::from_le_bytes(*prefix) as usize;
    stream
        .get(..len)
        .with_context(|| format!("flatbuffers: buffer of {len} bytes but only {} left", stream.len()))
}

fn aggregate(record: fb::MultiMessage<'_>, sink: &mut Aggregator) -> Result<()> {
    let _seq_no = record.seq_no();
    let messages = record.messages().context("flatbuffers: missing messages")?;
    for message in messages {
        let _ts = message.ts();
        let symbol = message.symbol().context("flatbuffers: missing symbol")?.as_bytes();
        match message.body_type() {
            fb::Body::Trade => {
                let trade = message
                    .body_as_trade()
                    .context("flatbuffers: missing trade")?
                    .data()
                    .context("flatbuffers: missing body data")?;
                sink.trade(symbol, trade.price(), trade.size());
            }
            fb::Body::LevelUpdate => {
                let update = message
                    .body_as_level_update()
                    .context("flatbuffers: missing level update")?
                    .data()
                    .context("flatbuffers: missing body data")?;
                let side = match update.side() {
                    fb::Side::Buy => Side::Buy,
                    fb::Side::Sell => Side::Sell,
                    other => bail!("flatbuffers: unknown side {}", other.0),
                };
                let _flags = update.flags();
                sink.level_update(symbol, side, update.price(), update.size());
            }
            other => bail!("flatbuffers: unknown body type {}", other.0),
        }
    }
    Ok(())
}

/// The same buffers read without the Verifier: what the 2019 harness measured
/// (the crate had no verifier then), and what a user does only with trusted bytes.
pub struct FlatbuffersUnchecked(Flatbuffers);

impl Format for FlatbuffersUnchecked {
    const INFO: FormatInfo = FormatInfo {
        name: "flatbuffers-unchecked",
        family: "FlatBuffers",
        library: "flatbuffers",
        labels: Labels {
            buffer_reuse: true,
            decode: DecodeStyle::ZeroCopy,
            access: Access::Unchecked,
            api: Api::Native,
            lossy: None,
        },
        notes: "Encoding identical to `flatbuffers`. Decoding skips the Verifier \
                (unsafe size_prefixed_root_unchecked): sound only for bytes known to be \
                well-formed, such as a stream this process just encoded. Not what a default \
                user should do with untrusted input; shown for comparison with verifier-less \
                FlatBuffers benchmarks.",
    };
}

impl Codec<Iex> for FlatbuffersUnchecked {
    fn new() -> Self {
        FlatbuffersUnchecked(Flatbuffers::new())
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        self.0.encode(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let buffer = framed(stream)?;
        // SAFETY: the harness decodes only the stream `encode` wrote in this
        // process, so every buffer is a complete, well-formed MultiMessage.
        let record = unsafe { ::flatbuffers::size_prefixed_root_unchecked::<fb::MultiMessage>(buffer) };
        aggregate(record, sink)?;
        Ok(buffer.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::workload::Workload;
    use crate::workload::iex::sample_dataset;

    fn encoded() -> Vec<u8> {
        let mut codec = Flatbuffers::new();
        let mut stream = Vec::new();
        for record in &sample_dataset().records {
            codec.encode(record, &mut stream).unwrap();
        }
        stream
    }

    fn decode_all(stream: &[u8]) -> Result<usize> {
        let dataset = sample_dataset();
        let mut codec = Flatbuffers::new();
        let mut sink = Iex::new_sink(&dataset.reference);
        let mut offset = 0;
        let mut records = 0;
        while offset < stream.len() {
            offset += codec.decode(&stream[offset..], &mut sink)?;
            records += 1;
        }
        Ok(records)
    }

    #[test]
    fn round_trip() {
        assert_round_trip::<Iex, Flatbuffers>(&sample_dataset());
        assert_round_trip::<Iex, FlatbuffersUnchecked>(&sample_dataset());
    }

    #[test]
    fn records_are_size_prefixed_buffers() {
        let stream = encoded();
        let len = u32::from_le_bytes(stream[..4].try_into().unwrap()) as usize;
        let first =
            ::flatbuffers::size_prefixed_root::<fb::MultiMessage>(&stream[..4 + len]).unwrap();
        assert_eq!(first.seq_no(), 1);
        assert_eq!(first.messages().unwrap().len(), 2);
        assert_eq!(first.messages().unwrap().get(0).symbol().unwrap(), "MSFT");
        assert_eq!(decode_all(&stream).unwrap(), 3);
    }

    #[test]
    fn truncated_input_is_an_error() {
        let stream = encoded();
        let len = 4 + u32::from_le_bytes(stream[..4].try_into().unwrap()) as usize;
        let mut codec = Flatbuffers::new();
        let mut sink = Iex::new_sink(&sample_dataset().reference);
        for cut in 0..len {
            assert!(
                codec.decode(&stream[..cut], &mut sink).is_err(),
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn understated_size_prefix_is_an_error() {
        let stream = encoded();
        let len = u32::from_le_bytes(stream[..4].try_into().unwrap());
        let mut codec = Flatbuffers::new();
        let mut sink = Iex::new_sink(&sample_dataset().reference);
        for claimed in 0..len {
            let mut bad = stream.clone();
            bad[..4].copy_from_slice(&claimed.to_le_bytes());
            assert!(
                codec.decode(&bad, &mut sink).is_err(),
                "prefix {claimed} of {len}"
            );
        }
    }

    #[test]
    fn missing_messages_is_an_error() {
        let mut fbb = FlatBufferBuilder::new();
        let root = fb::MultiMessage::create(
            &mut fbb,
            &fb::MultiMessageArgs {
                seq_no: 1,
                messages: None,
            },
        );
        fbb.finish_size_prefixed(root, None);
        let mut codec = Flatbuffers::new();
        let mut sink = Iex::new_sink(&sample_dataset().reference);
        assert!(codec.decode(fbb.finished_data(), &mut sink).is_err());
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        let stream = encoded();
        let mut codec = Flatbuffers::new();
        let mut sink = Iex::new_sink(&sample_dataset().reference);
        // A prefix longer than the input.
        assert!(
            codec
                .decode(&[0xff, 0xff, 0xff, 0x7f, 0, 0], &mut sink)
                .is_err()
        );
        // A well-framed buffer of junk.
        let mut junk = vec![0xa5u8; 64];
        junk[..4].copy_from_slice(&60u32.to_le_bytes());
        assert!(codec.decode(&junk, &mut sink).is_err());
        // Random bytes behind a valid size prefix (xorshift, fixed seed).
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            let mut buf = vec![0u8; 4 + 8 * (1 + (state % 32) as usize)];
            let claimed = (buf.len() - 4) as u32;
            buf[..4].copy_from_slice(&claimed.to_le_bytes());
            for byte in &mut buf[4..] {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *byte = state as u8;
            }
            let _ = codec.decode(&buf, &mut sink);
        }
        // Every single-byte corruption of the first record either decodes or errors.
        let len = 4 + u32::from_le_bytes(stream[..4].try_into().unwrap()) as usize;
        for i in 4..len {
            for value in [0x00, 0x01, 0x7f, 0x80, 0xff] {
                let mut bad = stream[..len].to_vec();
                bad[i] = value;
                let _ = codec.decode(&bad, &mut sink);
            }
        }
    }

    #[test]
    fn unknown_side_is_an_error() {
        let mut fbb = FlatBufferBuilder::new();
        let data = fb::LevelUpdateData::new(1, 1, 0, fb::Side(7));
        let update = fb::LevelUpdate::create(&mut fbb, &fb::LevelUpdateArgs { data: Some(&data) });
        let symbol = fbb.create_string("X");
        let message = fb::Message::create(
            &mut fbb,
            &fb::MessageArgs {
                ts: 0,
                symbol: Some(symbol),
                body_type: fb::Body::LevelUpdate,
                body: Some(update.as_union_value()),
            },
        );
        let messages = fbb.create_vector(&[message]);
        let root = fb::MultiMessage::create(
            &mut fbb,
            &fb::MultiMessageArgs {
                seq_no: 0,
                messages: Some(messages),
            },
        );
        fbb.finish_size_prefixed(root, None);
        let mut codec = Flatbuffers::new();
        let mut sink = Iex::new_sink(&sample_dataset().reference);
        let err = codec.decode(fbb.finished_data(), &mut sink).unwrap_err();
        assert!(err.to_string().contains("unknown side"), "{err}");
    }
}
