//! Ingest throughput: capture bytes (uncompressed, in memory) → Ethernet/IPv4/
//! UDP → IEX-TP → every message decoded. Run with `cargo bench --bench ingest`;
//! uses ../shared/data/iex/DEEP10.pcap.gz when present, else a generated capture.

use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use shootout::capture::generate::{Options, generate};
use shootout::capture::iex::{Decoded, decode_message};
use shootout::capture::{Source, read_iex};
use shootout::workload::iex::ingest;

const RUNS: usize = 9;

fn capture() -> (String, Vec<u8>) {
    let deep10 = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/iex/DEEP10.pcap.gz");
    match std::fs::File::open(&deep10) {
        Ok(file) => {
            let mut bytes = Vec::new();
            flate2::read::GzDecoder::new(file).read_to_end(&mut bytes).expect("DEEP10 decompresses");
            ("DEEP10 (decompressed)".into(), bytes)
        }
        Err(_) => ("generated DEEP 1.0, 200000 packets".into(), generate(Options { packets: 200_000, seed: 1 })),
    }
}

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
    let (name, bytes) = capture();
    let size = bytes.len() as f64;
    let source = Source::Memory { name: name.clone(), bytes: Arc::from(bytes) };

    let mut messages = 0u64;
    let parse = median_seconds(|| {
        messages = 0;
        read_iex(&source, |packet| {
            let protocol = packet.header.protocol;
            for body in packet {
                if let Decoded::Known { .. } = decode_message(protocol, body) {
                    messages += 1;
                }
            }
        })
        .expect("capture parses");
    });
    let full = median_seconds(|| {
        ingest::load(&source).expect("capture loads");
    });

    println!("ingest benchmark on {name}: {:.1} MB, {messages} known messages, median of {RUNS} runs", size / 1e6);
    println!("  parse only (pcap → IEX messages):         {:>7.2} ms  {:>6.2} GB/s", parse * 1e3, size / parse / 1e9);
    println!("  full ingest (records + reference aggregate): {:>5.2} ms  {:>6.2} GB/s", full * 1e3, size / full / 1e9);
}
