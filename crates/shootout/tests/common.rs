//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;

use assert_cmd::Command;

pub fn shootout() -> Command {
    Command::cargo_bin("shootout").expect("binary built")
}

/// What `command` writes to stdout; the test fails with its stderr unless it succeeds.
pub fn stdout_of(command: &mut Command) -> Vec<u8> {
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// A capture from `../shared/data/iex/`, or `None` (with the reason printed) when
/// that folder is absent, so only the tests that need it are skipped. The
/// reason is written to the stderr handle itself: the test harness captures
/// only the print macros, so the skip shows in `cargo test`'s output.
pub fn shared_capture(name: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/iex")
        .join(name);
    if path.exists() {
        Some(path)
    } else {
        let _ = writeln!(
            std::io::stderr().lock(),
            "skipping: {} not found (real captures live in ../shared/data/iex)",
            path.display()
        );
        None
    }
}

/// A classic little-endian µs pcap holding the given Ethernet frames.
pub fn pcap(frames: &[Vec<u8>]) -> Vec<u8> {
    pcap_of_link_type(1, frames)
}

/// A classic little-endian µs pcap of the given link type.
pub fn pcap_of_link_type(linktype: u32, frames: &[Vec<u8>]) -> Vec<u8> {
    let mut p = Vec::new();
    p.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes());
    p.extend_from_slice(&2u16.to_le_bytes());
    p.extend_from_slice(&4u16.to_le_bytes());
    p.extend_from_slice(&[0; 8]);
    p.extend_from_slice(&65_535u32.to_le_bytes());
    p.extend_from_slice(&linktype.to_le_bytes());
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
    let mut f = vec![
        0x01, 0x00, 0x5e, 0x57, 0x15, 0x04, 0, 0x1e, 0x67, 0x9f, 0xc8, 0xef, 0x08, 0x00,
    ];
    f.extend_from_slice(&[0x45, 0]);
    f.extend_from_slice(&((28 + payload.len()) as u16).to_be_bytes());
    f.extend_from_slice(&[
        0, 0, 0x40, 0, 64, 17, 0, 0, 23, 226, 155, 132, 233, 215, 21, 4,
    ]);
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

/// Start offsets of the packet records of a capture `generate` wrote.
pub fn pcap_records(pcap: &[u8]) -> Vec<usize> {
    shootout::capture::generate::records(pcap)
        .map(|(at, _, _)| at)
        .collect()
}

/// A capture `generate` wrote, as pcapng.
pub fn pcapng_of(pcap: &[u8]) -> Vec<u8> {
    shootout::capture::generate::pcapng(pcap, None)
}

/// Start offsets of the blocks of a little-endian pcapng.
pub fn pcapng_blocks(pcapng: &[u8]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 0;
    while at + 12 <= pcapng.len() {
        starts.push(at);
        at += u32::from_le_bytes(pcapng[at + 4..at + 8].try_into().unwrap()) as usize;
    }
    starts
}

/// How `shootout inspect` is handed its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    File,
    /// `--input -`, from a pipe.
    Stdin,
    /// `/dev/stdin` fed by `cat … |`.
    Pipe,
    /// A named pipe (FIFO) a writer fills as the reader reads.
    Fifo,
    /// `<(cat …)`, as bash passes it: a /dev/fd path.
    ProcessSubstitution,
}

pub const EVERY_WAY: [Via; 5] = [
    Via::File,
    Via::Stdin,
    Via::Pipe,
    Via::Fifo,
    Via::ProcessSubstitution,
];

/// Runs `shootout inspect <args> <input>` with `path`'s bytes handed over `via`;
/// a hang fails the test rather than stalling it.
pub fn inspect_via(via: Via, path: &std::path::Path, args: &[&str]) -> std::process::Output {
    let timeout = std::time::Duration::from_secs(120);
    let binary = assert_cmd::cargo::cargo_bin("shootout");
    let bash = |script: &str| {
        let mut command = Command::new("bash");
        command
            .arg("-c")
            .arg(script)
            .arg(&binary)
            .arg(path)
            .args(args)
            .timeout(timeout);
        command
    };
    match via {
        Via::File => shootout()
            .arg("inspect")
            .args(args)
            .arg(path)
            .timeout(timeout)
            .output()
            .unwrap(),
        Via::Stdin => shootout()
            .arg("inspect")
            .args(args)
            .arg("-")
            .write_stdin(std::fs::read(path).unwrap())
            .timeout(timeout)
            .output()
            .unwrap(),
        Via::Pipe => bash(r#"cat "$1" | "$0" inspect "${@:2}" /dev/stdin"#)
            .output()
            .unwrap(),
        Via::ProcessSubstitution => bash(r#""$0" inspect "${@:2}" <(cat "$1")"#)
            .output()
            .unwrap(),
        Via::Fifo => {
            let dir = tempfile::tempdir().unwrap();
            let fifo = dir.path().join("capture.fifo");
            assert!(
                std::process::Command::new("mkfifo")
                    .arg(&fifo)
                    .status()
                    .unwrap()
                    .success()
            );
            let bytes = std::fs::read(path).unwrap();
            let writer_end = fifo.clone();
            // The reader may stop early on an error, so the writer's own result is not checked.
            std::thread::spawn(move || std::fs::write(writer_end, bytes));
            shootout()
                .arg("inspect")
                .args(args)
                .arg(&fifo)
                .timeout(timeout)
                .output()
                .unwrap()
        }
    }
}
