//! Test helpers shared by the codecs of the derive- and serde-based libraries:
//! whole-stream encode/decode and the "bad bytes are an error, never a panic" check.

use anyhow::Result;

use super::Codec;
use crate::workload::Workload;
use crate::workload::iex::{Body, Iex, Message, MultiMessage, Side, sample_dataset};

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

/// A record far bigger than a typical packet, to exercise buffer growth.
pub fn big_record() -> MultiMessage {
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

/// Sample records plus a big one, encoded then decoded in one stream.
pub fn assert_round_trips_with_a_big_record<C: Codec<Iex>>() {
    let mut records = sample_dataset().records;
    records.insert(1, big_record());
    records.push(big_record());
    let stream = encode_all::<C>(&records);
    assert_eq!(
        decode_all(&mut C::new(), &stream).unwrap(),
        records.len(),
        "{}",
        C::INFO.name
    );
}

/// Truncated records, an empty input and random bytes are errors (or, for random
/// bytes and bit flips, possibly wrong values), never a panic.
pub fn assert_garbage_is_an_error<C: Codec<Iex>>() {
    let mut records = sample_dataset().records;
    records.push(big_record());
    let stream = encode_all::<C>(&records);
    let mut codec = C::new();
    let mut sink = Iex::new_sink(&Default::default());
    let first = codec.decode(&stream, &mut sink).unwrap();
    for cut in 0..first {
        assert!(
            codec.decode(&stream[..cut], &mut sink).is_err(),
            "{}: cut {cut}",
            C::INFO.name
        );
    }
    // The big last record, cut at a spread of points.
    let mut offset = 0;
    let mut last = 0;
    while offset < stream.len() {
        last = offset;
        offset += codec.decode(&stream[offset..], &mut sink).unwrap();
    }
    for cut in (last..stream.len()).step_by(97) {
        assert!(
            codec.decode(&stream[last..cut], &mut sink).is_err(),
            "{}: cut {cut}",
            C::INFO.name
        );
    }
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for len in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 64, 1000] {
        for _ in 0..50 {
            let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            let _ = codec.decode(&bytes, &mut sink);
        }
    }
    for _ in 0..3000 {
        let mut flipped = stream[..first].to_vec();
        let bit = (next() as usize) % (flipped.len() * 8);
        flipped[bit / 8] ^= 1 << (bit % 8);
        let _ = codec.decode(&flipped, &mut sink);
    }
    assert!(
        codec.decode(&[], &mut sink).is_err(),
        "{}: empty input",
        C::INFO.name
    );
}
