//! Every bad input named in the core issue: one clear line naming the file
//! (and the byte offset where there is one), a non-zero exit, no panic.

mod common;

use std::io::Write;

use common::*;

/// Runs `inspect` and `run` on `path`; both must fail with the same single line.
fn assert_one_line_error(path: &std::path::Path, expected: &[&str]) {
    for args in [vec!["inspect"], vec!["run", "--runs", "1", "--warmup", "0", "--input"]] {
        let output = shootout().args(&args).arg(path).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} succeeded on {}", path.display());
        assert!(!stderr.contains("panicked"), "panic: {stderr}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 1, "expected one line, got: {stderr}");
        assert!(lines[0].starts_with("error: "), "{stderr}");
        assert!(lines[0].contains(&path.display().to_string()), "file not named: {stderr}");
        for needle in expected {
            assert!(lines[0].contains(needle), "missing {needle:?} in: {stderr}");
        }
    }
}

#[test]
fn missing_file() {
    let dir = tempfile::tempdir().unwrap();
    assert_one_line_error(&dir.path().join("nope.pcap"), &["cannot open", "No such file"]);
}

#[test]
fn empty_file() {
    let dir = tempfile::tempdir().unwrap();
    assert_one_line_error(&temp_file(&dir, "empty.pcap", b""), &["empty file (0 bytes)"]);
}

#[test]
fn not_a_capture() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "notes.txt", b"these are my notes, not a packet capture\n");
    assert_one_line_error(&path, &["byte 0", "not a pcap or pcapng capture", "74686573"]);
}

#[test]
fn corrupt_gzip() {
    let dir = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&generated_capture(2_000)).unwrap();
    let mut bytes = gz.finish().unwrap();
    let middle = bytes.len() / 2;
    for b in &mut bytes[middle..middle + 64] {
        *b ^= 0x5a;
    }
    assert_one_line_error(&temp_file(&dir, "corrupt.pcap.gz", &bytes), &["compressed byte", "corrupt gzip stream"]);
}

#[test]
fn truncated_capture_header() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "short.pcap", &generated_capture(10)[..20]);
    assert_one_line_error(&path, &["byte 0", "truncated capture header"]);
}

#[test]
fn truncated_record_header() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = generated_capture(10);
    let end = bytes.len();
    bytes.extend_from_slice(&[0; 10]);
    let path = temp_file(&dir, "cut.pcap", &bytes);
    assert_one_line_error(&path, &[&format!("byte {end}"), "truncated record header: expected 16 bytes, found 10"]);
}

#[test]
fn record_length_past_end_of_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = generated_capture(10);
    let end = bytes.len();
    bytes.extend_from_slice(&[0; 8]);
    bytes.extend_from_slice(&0x0100_0000u32.to_le_bytes());
    bytes.extend_from_slice(&0x0100_0000u32.to_le_bytes());
    bytes.extend_from_slice(&[0xaa; 100]);
    let path = temp_file(&dir, "long.pcap", &bytes);
    assert_one_line_error(&path, &[&format!("byte {end}"), "record length 16777216 runs past the end of the file"]);
}

#[test]
fn final_record_cut_short_within_snap_length_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = generated_capture(10);
    let path = temp_file(&dir, "cut-short.pcap", &bytes[..bytes.len() - 7]);
    let output = shootout().arg("inspect").arg(&path).arg("--json").output().unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("warning:") && stderr.contains("final record cut short"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["packets"], 10); // 10 IEX packets + 1 ARP frame, minus the cut one
}

#[test]
fn packet_too_short_for_iex_tp_header() {
    let dir = tempfile::tempdir().unwrap();
    let header = iex_packet(0, 0, &[]);
    let bytes = pcap(&[udp_frame(&header[..30])]);
    // Global header 24 + record header 16 + Ethernet/IP/UDP 42.
    assert_one_line_error(&temp_file(&dir, "short.pcap", &bytes), &["byte 82", "packet too short for the IEX-TP header"]);
}

#[test]
fn message_length_past_end_of_packet() {
    let dir = tempfile::tempdir().unwrap();
    let mut body = 500u16.to_le_bytes().to_vec();
    body.extend_from_slice(b"T short");
    let bytes = pcap(&[udp_frame(&iex_packet(body.len() as u16, 1, &body))]);
    // The message block starts right after the 40-byte IEX-TP header.
    assert_one_line_error(&temp_file(&dir, "msg.pcap", &bytes), &["byte 122", "length 500 runs past the end of its packet"]);
}

#[test]
fn no_iex_packets() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = pcap(&[udp_frame(b"\x12\x34\x01\x00\x00\x01 a DNS query, say"), vec![0xff; 60]]);
    assert_one_line_error(&temp_file(&dir, "dns.pcap", &bytes), &["no IEX-TP packets in", "is this an IEX HIST capture?"]);
}
