//! Test helpers shared by the iex codecs' unit tests (beside
//! [`super::assert_round_trip`]): bad input must be an error, never a panic, and
//! the steady state's allocations per record.

use std::time::{Duration, Instant};

use super::Codec;
use crate::benchmark::alloc::snapshot;
use crate::workload::Workload;
use crate::workload::iex::{Iex, MultiMessage};

/// Every record of `records`, encoded and then cut short at every length, must
/// fail to decode; random bytes and bit flips of the last record must not panic
/// (they may decode to wrong values); empty input and `[0xff; 8]` must fail.
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
        for cut in w[0]..w[1] {
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
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for len in [1, 2, 4, 5, 8, 9, 16, 64, 1000] {
        let noise: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        let _ = codec.decode(&noise, &mut sink);
    }
    let last = &stream[bounds[bounds.len() - 2]..];
    for _ in 0..2000 {
        let mut flipped = last.to_vec();
        let bit = (next() as usize) % (flipped.len() * 8);
        flipped[bit / 8] ^= 1 << (bit % 8);
        let _ = codec.decode(&flipped, &mut sink);
    }
    assert!(codec.decode(&[], &mut sink).is_err(), "{}", C::INFO.name);
    assert!(
        codec.decode(&[0xff; 8], &mut sink).is_err(),
        "{}",
        C::INFO.name
    );
    // The codec still works after all that.
    assert_eq!(
        codec.decode(&stream, &mut sink).expect("decode"),
        bounds[1],
        "{}",
        C::INFO.name
    );
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
    let mut codec = C::new();
    let mut stream = Vec::with_capacity(1 << 16);
    let mut sink = Iex::new_sink(&Default::default());
    let mut fewest = (u64::MAX, u64::MAX);
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
