//! JSON through serde with `simd-json`, as JSON Lines.
//!
//! The same JSON as `json-serde_json` (serde derive's data model, one compact
//! record per line), written by simd-json's own serializer
//! (`simd_json::serde::to_writer`) straight into the stream.
//!
//! simd-json parses in place and needs `&mut [u8]` followed by SIMD padding,
//! while the stream is shared: decode finds the end of the line (`memchr`),
//! copies the record into a scratch buffer held by the codec with the padding
//! after it, and builds the tape with `simd_json::fill_tape_padded` (simd-json's
//! documented reuse path: caller-owned padded input, reused `Buffers`, and a
//! reused `Tape` recovered through `Deserializer::from_tape` / `into_tape`).
//! `from_slice_with_buffers` would allocate a fresh tape and copy the input once
//! more into its own padded buffer, every record. The borrowed
//! `MultiMessageView` is read from the tape: symbols are `&str` into the scratch
//! copy, and the message list is the one allocation per non-empty record.

use anyhow::{Context, Result};
use serde::Deserialize;
use simd_json::{Buffers, Deserializer, INPUT_PADDING, Tape};

use super::{Access, Api, Codec, DecodeStyle, Format, FormatInfo, Labels};
use crate::workload::SerdeWorkload;

pub struct JsonSimdJson {
    /// The record being decoded, then `INPUT_PADDING` bytes; parsed in place.
    scratch: Vec<u8>,
    buffers: Buffers,
    /// Empty between records; only its allocation is kept. (`Tape::null()`
    /// allocates, so it is not the placeholder.)
    tape: Option<Tape<'static>>,
}

impl Format for JsonSimdJson {
    const INFO: FormatInfo = FormatInfo {
        name: "json-simd-json",
        family: "JSON",
        library: "simd-json",
        labels: Labels {
            buffer_reuse: true,
            decode: DecodeStyle::Owned,
            access: Access::Validated,
            api: Api::Serde,
            lossy: None,
        },
        notes: "The same JSON Lines as json-serde_json (serde derive's data model, one compact \
                record per line ended by \\n). Encode: simd-json's own serializer, \
                simd_json::serde::to_writer, straight into the stream, no allocation. Decode: \
                memchr finds the line's end; simd-json parses in place and needs &mut input with \
                SIMD padding, so the record is copied into a reused scratch buffer with \
                INPUT_PADDING after it, the tape is built by simd_json::fill_tape_padded with \
                reused Buffers and a reused Tape (Deserializer::from_tape / into_tape), and \
                the borrowed MultiMessageView is read from it (symbols are &str into the \
                scratch copy, escapes included). The message Vec is the one allocation per \
                non-empty record. Record-shaped workloads: the same lines, scratch, Buffers and \
                Tape, decoded into the owned record, then visited; None is null; floats parse \
                back bit-exactly with default features (approx-number-parsing is off). \
                simd-json's serializer writes an f32 as its f64 widening (0.1f32 as \
                0.10000000149011612, where serde_json writes 0.1), so f32 fields take more bytes \
                than in json-serde_json; they still read back exactly.",
    };
}

impl<W: SerdeWorkload> Codec<W> for JsonSimdJson {
    fn new() -> Self {
        JsonSimdJson {
            scratch: Vec::new(),
            buffers: Buffers::default(),
            tape: None,
        }
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        let start = stream.len();
        simd_json::serde::to_writer(&mut *stream, record)
            .inspect_err(|_| stream.truncate(start))
            .context("json: encode")?;
        stream.push(b'\n');
        Ok(())
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        self.decode_line(stream, |deserializer| {
            W::View::deserialize(deserializer).map(|view| W::aggregate(&view, sink))
        })
    }
}

impl JsonSimdJson {
    /// Parses the line at the start of `stream` into the reused tape and lets
    /// `read` deserialize from it; returns the bytes the line took.
    fn decode_line(
        &mut self,
        stream: &[u8],
        read: impl FnOnce(&mut Deserializer<'_>) -> Result<(), simd_json::Error>,
    ) -> Result<usize> {
        let len = memchr::memchr(b'\n', stream).context("json: record does not end its line")?;
        self.scratch.clear();
        self.scratch.extend_from_slice(&stream[..len]);
        self.scratch.resize(len + INPUT_PADDING, 0);
        let mut tape = self.tape.take().unwrap_or(Tape(Vec::new())).reset();
        if let Err(e) =
            simd_json::fill_tape_padded(&mut self.scratch, len, &mut self.buffers, &mut tape)
        {
            self.tape = Some(tape.reset());
            return Err(e).context("json: decode");
        }
        let mut deserializer = Deserializer::from_tape(tape);
        let result = read(&mut deserializer);
        self.tape = Some(deserializer.into_tape().reset());
        result.context("json: decode")?;
        Ok(len + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{assert_round_trip, assert_round_trips_every_record_shape};
    use crate::workload::iex::Aggregator;
    use crate::workload::iex::Iex;
    use crate::workload::iex::MultiMessage;

    #[test]
    fn round_trips_every_record_shape() {
        assert_round_trips_every_record_shape::<JsonSimdJson>();
    }
    use crate::format::codec_tests::{
        assert_garbage_is_an_error, assert_malformed_json_lines_are_errors,
        assert_steady_state_allocations, inexact, random_floats,
    };
    use crate::workload::Dataset;
    use crate::workload::iex::{Body, Message, Side, sample_dataset};

    #[test]
    fn round_trips() {
        assert_round_trip::<Iex, JsonSimdJson>(&sample_dataset());
    }

    /// simd-json writes what serde_json writes, and reads what it reads.
    #[test]
    fn stream_matches_serde_json() {
        for record in sample_dataset().records {
            let mut stream = Vec::new();
            Codec::<Iex>::encode(
                &mut <JsonSimdJson as Codec<Iex>>::new(),
                &record,
                &mut stream,
            )
            .unwrap();
            let mut expected = serde_json::to_vec(&record).unwrap();
            expected.push(b'\n');
            assert_eq!(stream, expected);
        }
    }

    /// A record longer than the buffers' first size, decoded between short ones;
    /// also a symbol with a JSON escape, which simd-json unescapes in place.
    #[test]
    fn long_records_and_escapes() {
        let mut dataset = sample_dataset();
        let big = MultiMessage {
            seq_no: 7,
            messages: (0..2000)
                .map(|i| Message {
                    ts: i,
                    symbol: format!("S\"{}", i % 37),
                    body: Body::LevelUpdate {
                        price: 10 * i as u64,
                        size: 2,
                        flags: 1,
                        side: Side::Sell,
                    },
                })
                .collect(),
        };
        dataset.records.insert(1, big.clone());
        dataset.records.push(big);
        let mut reference = Aggregator::default();
        for record in &dataset.records {
            record.aggregate_into(&mut reference);
        }
        let dataset = Dataset::in_order(dataset.records, reference.finish(), dataset.source);
        assert_round_trip::<Iex, JsonSimdJson>(&dataset);
    }

    #[test]
    fn garbage_is_an_error() {
        assert_garbage_is_an_error::<JsonSimdJson>(&sample_dataset().records);
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert_malformed_json_lines_are_errors::<JsonSimdJson>();
    }

    /// Steady state: encode allocates nothing; decode only the message Vec of each of the 2 non-
    /// empty records (scratch, Buffers and Tape are reused).
    #[test]
    fn allocations_per_record() {
        let records = sample_dataset().records;
        assert_steady_state_allocations::<JsonSimdJson>(&records, (0, 2));
    }

    /// simd-json reads back every f64 and f32 bit-exactly.
    #[test]
    fn floats_round_trip_bit_exactly() {
        let (f64s, f32s) = random_floats();
        let mut text = simd_json::serde::to_vec(&f64s).unwrap();
        let back: Vec<f64> = simd_json::serde::from_slice(&mut text).unwrap();
        assert_eq!(inexact(&f64s, &back, f64::to_bits), 0);
        let mut text = simd_json::serde::to_vec(&f32s).unwrap();
        let back: Vec<f32> = simd_json::serde::from_slice(&mut text).unwrap();
        assert_eq!(inexact(&f32s, &back, |x| u64::from(x.to_bits())), 0);
    }
}
