//! Test helpers shared by the codecs' unit tests (beside
//! [`super::assert_round_trip`]): whole-stream encode/decode, a big record, bad
//! input must be an error (never a panic), and steady-state allocations per record.

use std::time::{Duration, Instant};

use anyhow::Result;

use super::{Codec, Coding};
use crate::alloc::{Counting, snapshot};
use crate::workload::Workload;
use crate::workload::iex::{Body, Iex, Message, MultiMessage, Side, sample_dataset};
use crate::workload::tabular::{self, Mixed, MixedRow};

pub fn encode_all<C: Codec<Iex>>(records: &[MultiMessage]) -> Vec<u8> {
    let mut codec = C::new();
    let mut stream = Vec::new();
    for record in records {
        codec.encode(record, &mut stream).expect("encode");
    }
    stream
}

/// Decodes every record of `stream`; returns how many there were.
pub fn decode_all<C: Codec<Iex>>(codec: &mut C, stream: &[u8]) -> Result<usize> {
    let mut sink = Iex::new_sink(&Default::default());
    let mut offset = 0;
    let mut records = 0;
    while offset < stream.len() {
        offset += codec.decode(&stream[offset..], &mut sink)?;
        records += 1;
    }
    Ok(records)
}

/// The sample records, encoded into one stream.
pub fn sample_stream<C: Codec<Iex>>() -> Vec<u8> {
    encode_all::<C>(&sample_dataset().records)
}

/// Decodes the record at the start of `stream` with a fresh codec; returns its length.
pub fn decode_one<C: Codec<Iex>>(stream: &[u8]) -> Result<usize> {
    C::new().decode(stream, &mut Iex::new_sink(&Default::default()))
}

/// The length of the first record of a stream framed by 4-byte little-endian
/// lengths, its prefix included.
pub fn first_u32le_len(stream: &[u8]) -> usize {
    4 + u32::from_le_bytes(stream[..4].try_into().unwrap()) as usize
}

/// For a codec whose record is a u32le length and a buffer that must fill it
/// exactly (flatbuffers, planus): the first record cut short, or behind any
/// smaller length, is an error, and so are a length beyond the input and a
/// well-framed buffer of junk; random buffers behind a fitting length, and
/// every byte of the first record past its length set to an edge value,
/// decode or fail but never panic.
pub fn assert_u32le_buffer_garbage_is_an_error<C: Codec<Iex>>() {
    let name = C::INFO.name;
    let stream = sample_stream::<C>();
    let len = first_u32le_len(&stream);
    let mut codec = C::new();
    let mut sink = Iex::new_sink(&Default::default());
    for cut in 0..len {
        assert!(codec.decode(&stream[..cut], &mut sink).is_err(), "{name}: cut at {cut}");
    }
    for claimed in 0..(len - 4) as u32 {
        let mut bad = stream.clone();
        bad[..4].copy_from_slice(&claimed.to_le_bytes());
        assert!(codec.decode(&bad, &mut sink).is_err(), "{name}: length {claimed} of {len}");
    }
    assert!(codec.decode(&[0xff, 0xff, 0xff, 0x7f, 0, 0], &mut sink).is_err(), "{name}");
    let mut junk = vec![0xa5u8; 64];
    junk[..4].copy_from_slice(&60u32.to_le_bytes());
    assert!(codec.decode(&junk, &mut sink).is_err(), "{name}");
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..2000 {
        let mut buf = vec![0u8; 4 + 8 * (1 + (state % 32) as usize)];
        let claimed = (buf.len() - 4) as u32;
        buf[..4].copy_from_slice(&claimed.to_le_bytes());
        for byte in &mut buf[4..] {
            *byte = xorshift(&mut state) as u8;
        }
        let _ = codec.decode(&buf, &mut sink);
    }
    for i in 4..len {
        for value in [0x00, 0x01, 0x7f, 0x80, 0xff] {
            let mut bad = stream[..len].to_vec();
            bad[i] = value;
            let _ = codec.decode(&bad, &mut sink);
        }
    }
}

/// For the tables of a u32le-framed codec: the last mixed row (the sample keeps
/// its edge cases there) decodes whole, every cut of it is an error, and any
/// byte past the length prefix overwritten with an edge value never panics.
pub fn assert_mixed_row_garbage_is_an_error<C: Codec<Mixed>>() {
    let dataset = tabular::sample::<MixedRow>();
    let mut codec = C::new();
    let mut stream = Vec::new();
    codec.encode(dataset.records.last().unwrap(), &mut stream).unwrap();
    let mut sink = Mixed::new_sink(&dataset.reference);
    assert_eq!(codec.decode(&stream, &mut sink).unwrap(), stream.len());
    for cut in 0..stream.len() {
        assert!(codec.decode(&stream[..cut], &mut sink).is_err(), "cut {cut}");
    }
    for i in 4..stream.len() {
        for value in [0x00, 0x01, 0x7f, 0x80, 0xff] {
            let mut bad = stream.clone();
            bad[i] = value;
            let _ = codec.decode(&bad, &mut sink);
        }
    }
}

/// A mixed row whose only cells are an empty text (f1) and a zero (f3),
/// encoded: the tests of absent cells read it back with the library.
pub fn encoded_sparse_row<C: Codec<Mixed>>() -> Vec<u8> {
    let row = MixedRow { f1: Some(String::new()), f3: Some(0), ..MixedRow::default() };
    let mut stream = Vec::new();
    C::new().encode(&row, &mut stream).unwrap();
    stream
}

/// A record far bigger than a typical packet, to exercise buffer growth.
pub fn big_record() -> MultiMessage {
    let messages = (0..2000)
        .map(|i| Message {
            ts: i,
            symbol: format!("S{}", i % 37),
            body: if i % 3 == 0 {
                Body::Trade { price: i as u64, size: 1 }
            } else {
                Body::LevelUpdate { price: 10 * i as u64, size: 2, flags: 1, side: Side::Sell }
            },
        })
        .collect();
    MultiMessage { seq_no: 9, messages }
}

/// The tests every iex codec whose stream is just its library's bytes shares:
/// the sample round trips (also beside big records, to exercise buffer growth)
/// and bad input is an error. The file invoking it keeps its format's own facts.
macro_rules! iex_codec_tests {
    ($codec:ty) => {
        #[test]
        fn round_trips() {
            crate::format::assert_round_trip::<crate::workload::iex::Iex, $codec>(
                &crate::workload::iex::sample_dataset(),
            );
            crate::format::codec_tests::assert_round_trips_with_a_big_record::<$codec>();
        }

        #[test]
        fn garbage_is_an_error() {
            crate::format::codec_tests::assert_garbage_is_an_error::<$codec>(
                &crate::format::codec_tests::sample_with_big_record(),
            );
        }
    };
}
pub(crate) use iex_codec_tests;

/// The bad-input tests every JSON Lines codec shares, run for each codec named:
/// garbage is an error, and so is every malformed line.
macro_rules! json_lines_codec_tests {
    ($($codec:ty),+) => {
        #[test]
        fn garbage_is_an_error() {
            $(crate::format::codec_tests::assert_garbage_is_an_error::<$codec>(
                &crate::workload::iex::sample_dataset().records,
            );)+
        }

        #[test]
        fn malformed_lines_are_errors() {
            $(crate::format::codec_tests::assert_malformed_json_lines_are_errors::<$codec>();)+
        }
    };
}
pub(crate) use json_lines_codec_tests;

/// One step of xorshift64 on `state`: from a fixed seed, the noise and bit
/// positions of the bad-input tests are the same on every run.
pub fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Sample records plus a big one, encoded then decoded in one stream.
pub fn assert_round_trips_with_a_big_record<C: Codec<Iex>>() {
    let mut records = sample_dataset().records;
    records.insert(1, big_record());
    records.push(big_record());
    let stream = encode_all::<C>(&records);
    assert_eq!(decode_all(&mut C::new(), &stream).unwrap(), records.len(), "{}", C::INFO.name);
}

/// The sample records plus a big one, for the bad-input checks.
pub fn sample_with_big_record() -> Vec<MultiMessage> {
    let mut records = sample_dataset().records;
    records.push(big_record());
    records
}

/// About how many bytes of bit-flipped records each codec decodes.
const FLIPPED_BYTES: usize = 4 << 20;

/// Every record of `records`, encoded and then cut short at every length (at
/// some 200 lengths spread over a record over 4 KiB), must fail to decode;
/// random bytes and bit flips of the last record must not panic (they may
/// decode to wrong values); empty input and `[0xff; 8]` must fail. A big
/// record gets fewer flips, so every codec decodes about as many bytes: the
/// test's time stays that of a small record's.
pub fn assert_garbage_is_an_error<C: Codec<Iex>>(records: &[MultiMessage]) {
    let mut codec = C::new();
    let mut stream = Vec::new();
    let mut bounds = vec![0];
    for record in records {
        codec.encode(record, &mut stream).expect("encode");
        bounds.push(stream.len());
    }
    let mut sink = Iex::new_sink(&Default::default());
    for w in bounds.windows(2) {
        let step = if w[1] - w[0] > 4096 { (w[1] - w[0]) / 200 } else { 1 };
        for cut in (w[0]..w[1]).step_by(step) {
            assert!(
                codec.decode(&stream[w[0]..cut], &mut sink).is_err(),
                "{}: record at {} cut to {} bytes",
                C::INFO.name,
                w[0],
                cut - w[0]
            );
        }
    }
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || xorshift(&mut state);
    decode_noise::<Iex, C>(&mut codec, &mut sink, &mut next);
    let last = &stream[bounds[bounds.len() - 2]..];
    for _ in 0..(FLIPPED_BYTES / last.len()).clamp(100, 2000) {
        let mut flipped = last.to_vec();
        let bit = (next() as usize) % (flipped.len() * 8);
        flipped[bit / 8] ^= 1 << (bit % 8);
        let _ = codec.decode(&flipped, &mut sink);
    }
    assert!(codec.decode(&[], &mut sink).is_err(), "{}", C::INFO.name);
    assert!(codec.decode(&[0xff; 8], &mut sink).is_err(), "{}", C::INFO.name);
    // The codec still works after all that.
    assert_eq!(codec.decode(&stream, &mut sink).expect("decode"), bounds[1], "{}", C::INFO.name);
}

/// Random bytes of a few lengths from `next`, decoded: an error or wrong
/// values, never a panic.
fn decode_noise<W: Workload, C: Coding<W>>(
    codec: &mut C,
    sink: &mut W::Sink,
    next: &mut impl FnMut() -> u64,
) {
    for len in [1, 2, 4, 5, 8, 9, 16, 64, 1000] {
        let noise: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        let _ = codec.decode(&noise, sink);
    }
}

/// Asserts the heap allocations made by encoding all of `records` and by
/// decoding them back, in the steady state (after a warm-up pass).
///
/// The allocation counter is process-wide and other test threads add to it, so
/// each measurement keeps the fewest seen over several passes, and measurements
/// are retried for a while until one matches: a quiet moment proves the
/// expected count, while a codec that allocates more fails after the deadline.
pub fn assert_steady_state_allocations<C: Codec<Iex>>(
    records: &[MultiMessage],
    expected: (u64, u64),
) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let measured = steady_state_allocations::<C>(records);
        if measured == expected || Instant::now() > deadline {
            assert_eq!(
                measured,
                expected,
                "{}: (encode, decode) allocations for {} records",
                C::INFO.name,
                records.len()
            );
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn steady_state_allocations<C: Codec<Iex>>(records: &[MultiMessage]) -> (u64, u64) {
    fewest_allocations::<Iex, C>(records, Iex::new_sink(&Default::default()), 1 << 16)
}

/// The fewest (encode, decode) allocations over several passes over `records`,
/// into a stream reserved `capacity` bytes up front.
fn fewest_allocations<W: Workload, C: Codec<W>>(
    records: &[W::Record],
    mut sink: W::Sink,
    capacity: usize,
) -> (u64, u64) {
    let mut codec = C::new();
    let mut stream = Vec::with_capacity(capacity);
    let mut fewest = (u64::MAX, u64::MAX);
    let _counting = Counting::start();
    for _ in 0..10 {
        stream.clear();
        let before = snapshot().count;
        for record in records {
            codec.encode(record, &mut stream).expect("encode");
        }
        let encode = snapshot().count - before;
        let before = snapshot().count;
        let mut offset = 0;
        while offset < stream.len() {
            offset += codec.decode(&stream[offset..], &mut sink).expect("decode");
        }
        let decode = snapshot().count - before;
        fewest = (fewest.0.min(encode), fewest.1.min(decode));
    }
    fewest
}

/// [`assert_garbage_is_an_error`] for any workload: every truncated prefix of
/// the dataset's first 20 and last 5 records, noise and bit flips must be an error or a
/// clean decode, never a panic (truncations must be errors).
pub fn assert_record_garbage_is_an_error<W: Workload, C: Coding<W>>(
    mut codec: C,
    dataset: &crate::workload::Dataset<W>,
) {
    let mut stream = Vec::new();
    let mut bounds = vec![0];
    for record in &dataset.records {
        codec.encode(record, &mut stream).expect("encode");
        bounds.push(stream.len());
    }
    let mut sink = W::new_sink(&dataset.reference);
    // The first records and the last few (where the samples keep their edge cases).
    let records = bounds.len() - 1;
    let tested = |i: usize| i < 20 || i + 5 >= records;
    for (_, w) in bounds.windows(2).enumerate().filter(|(i, _)| tested(*i)) {
        for cut in w[0]..w[1] {
            assert!(
                codec.decode(&stream[w[0]..cut], &mut sink).is_err(),
                "{}: {} record at {} cut to {} bytes",
                C::INFO.name,
                W::NAME,
                w[0],
                cut - w[0]
            );
        }
    }
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || xorshift(&mut state);
    decode_noise::<W, C>(&mut codec, &mut sink, &mut next);
    for (_, w) in bounds.windows(2).enumerate().filter(|(i, _)| tested(*i)) {
        for _ in 0..100 {
            let mut flipped = stream[w[0]..w[1]].to_vec();
            let bit = (next() as usize) % (flipped.len() * 8);
            flipped[bit / 8] ^= 1 << (bit % 8);
            let _ = codec.decode(&flipped, &mut sink);
        }
    }
    assert!(codec.decode(&[], &mut sink).is_err(), "{}", C::INFO.name);
    assert_eq!(codec.decode(&stream, &mut sink).expect("decode"), bounds[1], "{}", C::INFO.name);
}

/// Steady-state (encode, decode) allocations for all of `dataset`'s records
/// (the fewest over several passes; see [`assert_steady_state_allocations`]).
pub fn record_steady_state_allocations<W: Workload, C: Codec<W>>(
    dataset: &crate::workload::Dataset<W>,
) -> (u64, u64) {
    fewest_allocations::<W, C>(&dataset.records, W::new_sink(&dataset.reference), 1 << 20)
}

/// JSON Lines codecs: an empty line, a wrong shape, trailing garbage and a
/// missing newline are all errors.
pub fn assert_malformed_json_lines_are_errors<C: Codec<Iex>>() {
    let mut sink = Iex::new_sink(&Default::default());
    let mut codec = C::new();
    for line in [
        &b"\n"[..],
        b"{}\n",
        b"{\"seq_no\":1,\"messages\":[]} x\n",
        b"{\"seq_no\":1,\"messages\":[]}",
    ] {
        assert!(
            codec.decode(line, &mut sink).is_err(),
            "{}: {:?}",
            C::INFO.name,
            String::from_utf8_lossy(line)
        );
    }
}

/// Finite f64s and f32s from random bit patterns (every exponent, subnormals
/// included) and uniform in ±1e9 (17 significant digits), as the workloads draw.
pub fn random_floats() -> (Vec<f64>, Vec<f32>) {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || xorshift(&mut state);
    let mut f64s = Vec::new();
    let mut f32s = Vec::new();
    while f64s.len() < 200_000 {
        let bits = next();
        let x = f64::from_bits(bits);
        if x.is_finite() {
            f64s.push(x);
        }
        f64s.push((bits >> 11) as f64 / (1u64 << 53) as f64 * 2e9 - 1e9);
        let y = f32::from_bits(bits as u32);
        if y.is_finite() {
            f32s.push(y);
        }
        f32s.push((bits >> 40) as f32 / (1u32 << 24) as f32 * 2e3 - 1e3);
    }
    (f64s, f32s)
}

/// How many of `values` do not come back bit-exactly.
pub fn inexact<T: PartialEq + Copy + std::fmt::Debug>(
    values: &[T],
    back: &[T],
    bits: impl Fn(T) -> u64,
) -> usize {
    assert_eq!(values.len(), back.len());
    let bad: Vec<(T, T)> = values
        .iter()
        .zip(back)
        .filter(|(a, b)| bits(**a) != bits(**b))
        .map(|(a, b)| (*a, *b))
        .take(3)
        .collect();
    if !bad.is_empty() {
        eprintln!("first inexact: {bad:?}");
    }
    values.iter().zip(back).filter(|(a, b)| bits(**a) != bits(**b)).count()
}

/// What decoding `records` through `C` adds up to.
fn decoded_aggregate<C: Codec<Iex>>(records: &[MultiMessage]) -> crate::workload::iex::Aggregate {
    let stream = encode_all::<C>(records);
    let mut codec = C::new();
    let mut sink = Iex::new_sink(&Default::default());
    let mut offset = 0;
    while offset < stream.len() {
        offset += codec.decode(&stream[offset..], &mut sink).expect("decode");
    }
    Iex::finish(sink)
}

/// A field a buggy integration forgets to read: it reaches the sink as 0.
trait Forgets: 'static {
    fn forget(message: &mut Message);
}

struct ForgetsTs;

impl Forgets for ForgetsTs {
    fn forget(message: &mut Message) {
        message.ts = 0;
    }
}

struct ForgetsTradePrice;

impl Forgets for ForgetsTradePrice {
    fn forget(message: &mut Message) {
        if let Body::Trade { price, .. } = &mut message.body {
            *price = 0;
        }
    }
}

/// Reads a real codec's stream (postcard's) correctly, then forgets one field
/// of every message, as an integration that never reads it would.
struct Forgetful<F>(std::marker::PhantomData<F>);

impl<F> super::Format for Forgetful<F> {
    const INFO: super::FormatInfo = super::FormatInfo {
        name: "forgetful",
        family: super::Family::NotAFormat("test"),
        library: "postcard",
        labels: <super::postcard::Postcard as super::Format>::INFO.labels,
        notes: "",
        wire: None,
        framing: <super::postcard::Postcard as super::Format>::INFO.framing,
    };
}

impl<F: Forgets> Codec<Iex> for Forgetful<F> {
    fn new() -> Self {
        Forgetful(std::marker::PhantomData)
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        Codec::<Iex>::encode(&mut super::postcard::Postcard, record, stream)
    }

    fn decode(
        &mut self,
        stream: &[u8],
        sink: &mut crate::workload::iex::Aggregator,
    ) -> Result<usize> {
        let (mut record, rest) = postcard::take_from_bytes::<MultiMessage>(stream)?;
        record.messages.iter_mut().for_each(F::forget);
        record.aggregate_into(sink);
        Ok(stream.len() - rest.len())
    }
}

/// The validation error decoding the sample through `Forgetful<F>` gives.
fn forgetful_difference<F: Forgets>() -> String {
    let dataset = sample_dataset();
    let decoded = decoded_aggregate::<Forgetful<F>>(&dataset.records);
    Iex::first_difference(&dataset.reference, &decoded).expect("a difference")
}

#[test]
fn a_codec_that_forgets_a_field_fails_validation_naming_it() {
    for (difference, field) in [
        (forgetful_difference::<ForgetsTs>(), "ts_sum"),
        (forgetful_difference::<ForgetsTradePrice>(), "trade_price_sum"),
    ] {
        assert!(difference.contains(&format!(": {field} expected ")), "{difference}");
    }
}
