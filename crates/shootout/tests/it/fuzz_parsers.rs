//! A bounded, deterministic fuzz run of the project's own parsers inside
//! `cargo test`: structure-aware mutations (bit flips, truncations, length
//! fields set to boundary values, splices, repeated ranges) of small captures
//! and CSV files, read through the same entry points as the libFuzzer targets
//! of scripts/fuzz.sh. No input may panic or hang, and every error must be one
//! line naming the file and where in it. The seeds are committed in
//! fuzz/seeds/, where the longer libFuzzer run starts from; crashes it found
//! are kept below as regression tests.

use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shootout::input::csv::render;
use shootout::input::fuzz::{
    capture_error_broken, capture_records, csv_error_broken, csv_rows, read_capture, read_csv,
};
use shootout::input::generate::{Options, big_endian_nanosecond, generate, pcapng, records};
use shootout::input::net::{Udp, udp_payload};
use shootout::workload::tabular::{LongsRow, MixedRow, StringsRow, generate_rows};

/// Mutants per seed: a few seconds for the whole run in a debug build.
const CAPTURE_MUTANTS: usize = 150;
const CSV_MUTANTS: usize = 150;
/// Far beyond any small input's reading time, even in a debug build on a busy machine.
const HANG: Duration = Duration::from_secs(5);

fn seeds_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds").join(target)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// The capture with each IEX-TP payload rewritten by `rewrite`, and the IP,
/// UDP and record lengths made to match.
fn rewrite_payloads(pcap: &[u8], rewrite: impl Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    let mut out = pcap[..24].to_vec();
    for (_, header, frame) in records(pcap) {
        let mut frame = frame.to_vec();
        if let Udp::Payload(range) = udp_payload(&frame) {
            let payload = rewrite(&frame[range.clone()]);
            frame.splice(range.clone(), payload.iter().copied());
            let ip_len = (20 + 8 + payload.len()) as u16;
            frame[16..18].copy_from_slice(&ip_len.to_be_bytes());
            frame[range.start - 4..range.start - 2]
                .copy_from_slice(&((8 + payload.len()) as u16).to_be_bytes());
        }
        out.extend_from_slice(&header[..8]);
        out.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        out.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        out.extend_from_slice(&frame);
    }
    out
}

/// An IEX-TP payload as TOPS `protocol`, each DEEP price level update turned
/// into a TOPS quote update (bid for a buy, ask for a sell).
fn as_tops(payload: &[u8], protocol: u16) -> Vec<u8> {
    if payload.len() < 40 || payload[0] != 1 {
        return payload.to_vec();
    }
    let mut out = payload[..40].to_vec();
    out[2..4].copy_from_slice(&protocol.to_le_bytes());
    let mut at = 40;
    while at + 2 <= payload.len() {
        let len = usize::from(u16::from_le_bytes([payload[at], payload[at + 1]]));
        let body = &payload[at + 2..at + 2 + len];
        at += 2 + len;
        let message = match body[0] {
            kind @ (b'8' | b'5') => {
                let mut quote = vec![b'Q'];
                quote.extend_from_slice(&body[1..18]);
                let (size, price) = (&body[18..22], &body[22..30]);
                let zero_size = [0; 4];
                let (bid_size, ask_size) =
                    if kind == b'8' { (size, &zero_size[..]) } else { (&zero_size[..], size) };
                quote.extend_from_slice(bid_size);
                quote.extend_from_slice(price);
                quote.extend_from_slice(price);
                quote.extend_from_slice(ask_size);
                quote
            }
            _ => body.to_vec(),
        };
        out.extend_from_slice(&(message.len() as u16).to_le_bytes());
        out.extend_from_slice(&message);
    }
    let body_len = (out.len() - 40) as u16;
    out[12..14].copy_from_slice(&body_len.to_le_bytes());
    out
}

/// The capture seeds: every layout the reader takes, every protocol.
fn capture_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let pcap = generate(Options { packets: 24, seed: 11 });
    vec![
        ("deep.pcap", pcap.clone()),
        ("deep-be-ns.pcap", big_endian_nanosecond(&pcap)),
        ("deep-vlan.pcapng", pcapng(&pcap, Some(0x2a))),
        ("deep.pcap.gz", gzip(&pcap)),
        ("tops16.pcap", rewrite_payloads(&pcap, |p| as_tops(p, 0x8003))),
        ("tops15.pcapng.gz", gzip(&pcapng(&rewrite_payloads(&pcap, |p| as_tops(p, 0x8002)), None))),
    ]
}

fn csv_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let header = (1..=20).map(|i| format!("f{i}")).collect::<Vec<_>>();
    let quoted = format!(
        "{}\n\"a,b\",\"line\nbreak\",\"say \"\"hi\"\"\",{}\r\n",
        header.join(","),
        ["x"; 17].join(",")
    );
    vec![
        ("mixed.csv", render(&generate_rows::<MixedRow>(6, 1, 0.5)).into_bytes()),
        ("strings.csv", render(&generate_rows::<StringsRow>(4, 2, 0.7)).into_bytes()),
        ("longs.csv", render(&generate_rows::<LongsRow>(6, 3, 0.9)).into_bytes()),
        ("quoted.csv", quoted.into_bytes()),
    ]
}

/// The committed seeds are these generated ones; `SHOOTOUT_WRITE_SEEDS=1` rewrites them.
#[test]
fn committed_seeds_are_the_generated_ones_and_read_cleanly() {
    for (target, seeds) in [("capture", capture_seeds()), ("csv", csv_seeds())] {
        let dir = seeds_dir(target);
        for (name, bytes) in seeds {
            let path = dir.join(name);
            if std::env::var_os("SHOOTOUT_WRITE_SEEDS").is_some() {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &bytes).unwrap();
            }
            let committed = std::fs::read(&path).unwrap_or_else(|e| {
                panic!("{}: {e} (SHOOTOUT_WRITE_SEEDS=1 writes it)", path.display())
            });
            assert!(committed == bytes, "{} differs from its generator", path.display());
        }
    }
    for (name, bytes) in capture_seeds() {
        let records = capture_records(&bytes).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert!(records > 10, "{name}: {records} records");
    }
    for (name, bytes) in csv_seeds() {
        let rows = match name {
            "mixed.csv" => csv_rows::<MixedRow>(&bytes),
            "longs.csv" => csv_rows::<LongsRow>(&bytes),
            _ => csv_rows::<StringsRow>(&bytes),
        };
        assert!(rows.unwrap_or_else(|e| panic!("{name}: {e:#}")) > 0, "{name}");
    }
}

/// Offsets of the length fields of a little-endian classic pcap or pcapng,
/// with their widths: where a wrong value tests the framing checks.
fn length_fields(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut fields = Vec::new();
    let mut frames = Vec::new();
    if bytes.starts_with(&0xa1b2_c3d4u32.to_le_bytes()) {
        fields.push((16, 4)); // snap length
        for (at, _, frame) in records(bytes) {
            fields.extend([(at + 8, 4), (at + 12, 4)]);
            frames.push((at + 16, frame));
        }
    } else if bytes.starts_with(&[0x0a, 0x0d, 0x0d, 0x0a]) {
        let mut at = 0;
        while at + 12 <= bytes.len() {
            let len = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
            if len < 12 || at + len > bytes.len() {
                break;
            }
            fields.extend([(at + 4, 4), (at + len - 4, 4)]);
            if bytes[at] == 6 {
                fields.extend([(at + 8, 4), (at + 20, 4), (at + 24, 4)]);
                frames.push((at + 28, &bytes[at + 28..at + len - 4]));
            }
            at += len;
        }
    }
    for (start, frame) in frames {
        let Udp::Payload(range) = udp_payload(frame) else {
            continue;
        };
        let ip = range.start - 28;
        fields.extend([(start + ip + 2, 2), (start + range.start - 4, 2)]);
        let payload = start + range.start;
        fields.extend([(payload + 12, 2), (payload + 14, 2)]);
        let mut at = 40;
        while at + 2 <= range.len() {
            fields.push((payload + at, 2));
            at += 2 + usize::from(u16::from_le_bytes([
                frame[range.start + at],
                frame[range.start + at + 1],
            ]));
        }
    }
    fields
}

fn mutate_bytes(
    rng: &mut ChaCha8Rng,
    seed: &[u8],
    other: &[u8],
    fields: &[(usize, usize)],
) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    match rng.random_range(0..6) {
        0 => {
            for _ in 0..rng.random_range(1..=4) {
                let at = rng.random_range(0..bytes.len());
                bytes[at] ^= 1 << rng.random_range(0..8);
            }
        }
        1 => bytes.truncate(rng.random_range(0..bytes.len())),
        2 if !fields.is_empty() => {
            let (at, width) = fields[rng.random_range(0..fields.len())];
            let old = bytes[at..at + width].iter().rev().fold(0u64, |v, &b| v << 8 | u64::from(b));
            let max = if width == 2 { 0xffff } else { 0xffff_ffff };
            let value = match rng.random_range(0..6) {
                0 => 0,
                1 => max,
                2 => old.wrapping_add(rng.random_range(1..64)) & max,
                3 => old.wrapping_sub(rng.random_range(1..64)) & max,
                4 => max / 2 + 1,
                _ => rng.random::<u64>() & max,
            };
            bytes[at..at + width].copy_from_slice(&value.to_le_bytes()[..width]);
        }
        3 => {
            let cut = rng.random_range(0..bytes.len());
            let from = rng.random_range(0..other.len());
            bytes.truncate(cut);
            bytes.extend_from_slice(&other[from..]);
        }
        4 => {
            let start = rng.random_range(0..bytes.len());
            let end = rng.random_range(start..=bytes.len().min(start + 200));
            let copy = bytes[start..end].to_vec();
            let at = rng.random_range(0..=bytes.len());
            bytes.splice(at..at, copy);
        }
        _ => {
            let start = rng.random_range(0..bytes.len());
            let end = rng.random_range(start..=bytes.len().min(start + 64));
            bytes.drain(start..end);
        }
    }
    bytes
}

/// Reads `input` with `read`, failing the test on a panic or a hang with the
/// input written out to reproduce it.
fn survives(target: &str, case: usize, input: &[u8], read: fn(&[u8])) {
    let started = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| read(input)));
    let elapsed = started.elapsed();
    if outcome.is_err() || elapsed > HANG {
        let path = std::env::temp_dir().join(format!("shootout-fuzz-{target}-{case}"));
        std::fs::write(&path, input).unwrap();
        panic!(
            "{target} case {case}: {} after {elapsed:?}; input written to {}",
            if outcome.is_err() { "panic" } else { "hang" },
            path.display()
        );
    }
}

#[test]
fn mutated_captures_never_panic_and_errors_name_file_and_offset() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let seeds = capture_seeds();
    let mut case = 0;
    for (index, (_, seed)) in seeds.iter().enumerate() {
        let (_, other) = &seeds[(index + 1) % seeds.len()];
        let fields = length_fields(seed);
        for _ in 0..CAPTURE_MUTANTS {
            let mutant = mutate_bytes(&mut rng, seed, other, &fields);
            survives("capture", case, &mutant, read_capture);
            case += 1;
        }
    }
    // Mutated inside, then compressed: the same checks behind gzip.
    let (_, pcap) = &seeds[0];
    let fields = length_fields(pcap);
    for _ in 0..CAPTURE_MUTANTS {
        let mutant = gzip(&mutate_bytes(&mut rng, pcap, &seeds[2].1, &fields));
        survives("capture", case, &mutant, read_capture);
        case += 1;
    }
}

/// CSV-specific edits: the characters that change how a line splits.
fn mutate_csv(rng: &mut ChaCha8Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    const SPECIAL: [&[u8]; 9] =
        [b"\"", b",", b"\n", b"\r", b"\r\n", b"\xff", b"\xc3", b"-", b"99999999999999999999"];
    if rng.random_bool(0.5) {
        return mutate_bytes(rng, seed, other, &[]);
    }
    let mut bytes = seed.to_vec();
    for _ in 0..rng.random_range(1..=3) {
        let at = rng.random_range(0..=bytes.len());
        let special = SPECIAL[rng.random_range(0..SPECIAL.len())];
        if rng.random_bool(0.5) && at < bytes.len() {
            bytes[at] = special[0];
        } else {
            bytes.splice(at..at, special.iter().copied());
        }
    }
    bytes
}

#[test]
fn mutated_csv_files_never_panic_and_errors_name_file_and_line() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let seeds = csv_seeds();
    let mut case = 0;
    for (index, (_, seed)) in seeds.iter().enumerate() {
        let (_, other) = &seeds[(index + 1) % seeds.len()];
        for _ in 0..CSV_MUTANTS {
            let mutant = mutate_csv(&mut rng, seed, other);
            survives("csv", case, &mutant, read_csv);
            case += 1;
        }
    }
}

/// The check itself: a message that breaks the promise is caught.
#[test]
fn the_promise_check_catches_a_broken_message() {
    let input = [0u8; 100];
    assert_eq!(capture_error_broken("fuzz.pcap: byte 40: malformed record", &input), None);
    assert!(capture_error_broken("fuzz.pcap: malformed record", &input).is_some());
    assert!(capture_error_broken("fuzz.pcap: byte 400: malformed", &input).is_some());
    assert!(capture_error_broken("fuzz.pcap: byte 4:\nsecond line", &input).is_some());
    assert!(capture_error_broken("byte 4: no file", &input).is_some());
    let csv = b"a\nb\n";
    assert_eq!(csv_error_broken("fuzz.csv: line 2: bad", csv), None);
    assert!(csv_error_broken("fuzz.csv: line 9: bad", csv).is_some());
    assert!(csv_error_broken("fuzz.csv: bad", csv).is_some());
}

/// Seen as the bounded run's slowest cases: a length near the 64 MiB limit in
/// a capture of a few KiB made the reader zero a buffer of that size before it
/// found the end of the input. It now grows its buffer by doubling, as the
/// input shows up; the error is unchanged.
#[test]
fn a_huge_block_length_in_a_small_capture_is_an_error_at_the_block() {
    let (_, ng) = capture_seeds().into_iter().find(|(name, _)| name.ends_with(".pcapng")).unwrap();
    let first_packet = 28 + 20;
    let mut bytes = ng.clone();
    bytes[first_packet + 4..first_packet + 8].copy_from_slice(&((64u32 << 20) - 4).to_le_bytes());
    let message = format!("{:#}", capture_records(&bytes).unwrap_err());
    assert!(
        message.starts_with(&format!(
            "fuzz.pcap: byte {first_packet}: enhanced packet block length 67108860 runs past the end of the file ({} bytes left)",
            ng.len() - first_packet
        )),
        "{message}"
    );
}
