//! Ingest throughput, end to end from a file: a generated DEEP 1.0 capture
//! (plain pcap) written to a temporary file, then read through the same path
//! `shootout run` and `inspect` take. Run with `cargo bench --bench ingest`
//! (`-- PACKETS` to change the capture's size).

use std::time::Instant;

use shootout::input::DEFAULT_WINDOW as WINDOW;
use shootout::input::generate::{Options, generate};
use shootout::input::ingest::Records;
use shootout::input::{IexPackets, Source};
use shootout::workload::iex::wire::{Decoded, decode_message};

const RUNS: usize = 7;

/// Median seconds of `RUNS` calls.
fn median_seconds(mut pass: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            pass();
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[RUNS / 2]
}

fn main() {
    let packets = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(1_000_000);
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("generated.pcap");
    std::fs::write(&path, generate(Options { packets, seed: 1 })).expect("capture written");
    let size = std::fs::metadata(&path).expect("capture written").len() as f64;
    let source = Source::File(path);

    let mut messages = 0u64;
    let parse = median_seconds(|| {
        messages = 0;
        let mut reader = IexPackets::open(&source).expect("capture opens");
        reader
            .next_packets(|packet| {
                let protocol = packet.header.protocol;
                for body in packet {
                    if let Decoded::Known { .. } = decode_message(protocol, body) {
                        messages += 1;
                    }
                }
                true
            })
            .expect("capture parses");
        reader.finish().expect("capture parses");
    });
    let mut records = 0;
    let full = median_seconds(|| {
        let mut reader = Records::open(&source).expect("capture opens");
        let mut window = Vec::new();
        while reader.next_window(&mut window, WINDOW).expect("capture parses") > 0 {}
        records = reader.finish().expect("capture parses").records;
    });

    println!(
        "ingest benchmark on a generated DEEP 1.0 pcap file: {packets} packets, {:.1} MB, {messages} known messages, {records} records, median of {RUNS} runs",
        size / 1e6
    );
    println!(
        "  parse (file → IEX messages):                       {:>8.2} ms  {:>5.2} GB/s",
        parse * 1e3,
        size / parse / 1e9
    );
    println!(
        "  records (file → windows of {WINDOW} records, aggregate, SHA-256): {:>8.2} ms  {:>5.2} GB/s",
        full * 1e3,
        size / full / 1e9
    );
}
