//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use assert_cmd::Command;

pub fn shootout() -> Command {
    Command::cargo_bin("shootout").expect("binary built")
}

/// A capture from `../shared/data/iex/`, or `None` (with the reason printed) when
/// that folder is absent, so only the tests that need it are skipped.
pub fn shared_capture(name: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/iex").join(name);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("skipping: {} not found (real captures live in ../shared/data/iex)", path.display());
        None
    }
}

/// A classic little-endian µs pcap holding the given Ethernet frames.
pub fn pcap(frames: &[Vec<u8>]) -> Vec<u8> {
    let mut p = Vec::new();
    p.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes());
    p.extend_from_slice(&2u16.to_le_bytes());
    p.extend_from_slice(&4u16.to_le_bytes());
    p.extend_from_slice(&[0; 8]);
    p.extend_from_slice(&65_535u32.to_le_bytes());
    p.extend_from_slice(&1u32.to_le_bytes());
    for frame in frames {
        p.extend_from_slice(&[0; 8]);
        p.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        p.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        p.extend_from_slice(frame);
    }
    p
}

/// Ethernet → IPv4 → UDP around `payload`.
pub fn udp_frame(payload: &[u8]) -> Vec<u8> {
    let mut f = vec![0x01, 0x00, 0x5e, 0x57, 0x15, 0x04, 0, 0x1e, 0x67, 0x9f, 0xc8, 0xef, 0x08, 0x00];
    f.extend_from_slice(&[0x45, 0]);
    f.extend_from_slice(&((28 + payload.len()) as u16).to_be_bytes());
    f.extend_from_slice(&[0, 0, 0x40, 0, 64, 17, 0, 0, 23, 226, 155, 132, 233, 215, 21, 4]);
    f.extend_from_slice(&[0x28, 0x8a, 0x28, 0x8a]);
    f.extend_from_slice(&((8 + payload.len()) as u16).to_be_bytes());
    f.extend_from_slice(&[0, 0]);
    f.extend_from_slice(payload);
    f
}

/// An IEX-TP DEEP 1.0 packet; `payload_len` and `count` as given, so tests can lie.
pub fn iex_packet(payload_len: u16, count: u16, body: &[u8]) -> Vec<u8> {
    let mut p = vec![1, 0, 0x04, 0x80];
    p.extend_from_slice(&1u32.to_le_bytes());
    p.extend_from_slice(&1u32.to_le_bytes());
    p.extend_from_slice(&payload_len.to_le_bytes());
    p.extend_from_slice(&count.to_le_bytes());
    p.extend_from_slice(&[0; 24]);
    p.extend_from_slice(body);
    p
}

pub fn temp_file(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

pub fn generated_capture(packets: u64) -> Vec<u8> {
    shootout::capture::generate::generate(shootout::capture::generate::Options { packets, seed: 3 })
}
