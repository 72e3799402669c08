//! Every bad input named in the core issue: one clear line naming the file
//! (and the byte offset where there is one), a non-zero exit, no panic.

use std::io::Write;

use crate::common::*;

/// Runs `inspect` and `run` on `path`; both must fail with the same single line.
fn assert_one_line_error(path: &std::path::Path, expected: &[&str]) {
    for args in [vec!["inspect"], vec!["run", "--runs", "1", "--warmup", "0", "--input"]] {
        let output = shootout().args(&args).arg(path).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} succeeded on {}", path.display());
        assert!(!stderr.contains("panicked"), "panic: {stderr}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 1, "expected one line, got: {stderr}");
        assert!(
            lines[0].chars().count() <= 300,
            "{} characters: {stderr}",
            lines[0].chars().count()
        );
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
    assert_one_line_error(
        &temp_file(&dir, "corrupt.pcap.gz", &bytes),
        &["compressed byte", "corrupt gzip stream"],
    );
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
    assert_one_line_error(
        &path,
        &[&format!("byte {end}"), "truncated record header: expected 16 bytes, found 10"],
    );
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
    assert_one_line_error(
        &path,
        &[&format!("byte {end}"), "record length 16777216 runs past the end of the file"],
    );
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
    assert_one_line_error(
        &temp_file(&dir, "short.pcap", &bytes),
        &["byte 82", "packet too short for the IEX-TP header"],
    );
}

/// A capture of one IEX-TP packet holding one message that claims `length`
/// bytes and holds `message`. Its length field is at byte 122: after the pcap's
/// global and record headers, Ethernet, IP, UDP and the 40-byte IEX-TP header.
fn one_message_capture(length: u16, message: &[u8]) -> Vec<u8> {
    let mut block = length.to_le_bytes().to_vec();
    block.extend_from_slice(message);
    pcap(&[udp_frame(&iex_packet(block.len() as u16, 1, &block))])
}

#[test]
fn message_length_past_end_of_packet() {
    let dir = tempfile::tempdir().unwrap();
    assert_one_line_error(
        &temp_file(&dir, "msg.pcap", &one_message_capture(500, b"T short")),
        &["byte 122", "length 500 runs past the end of its packet"],
    );
}

#[test]
fn no_iex_packets() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = pcap(&[udp_frame(b"\x12\x34\x01\x00\x00\x01 a DNS query, say"), vec![0xff; 60]]);
    assert_one_line_error(
        &temp_file(&dir, "dns.pcap", &bytes),
        &["no IEX-TP packets in", "is this an IEX HIST capture?"],
    );
}

fn add(bytes: &mut [u8], at: usize, delta: u32) {
    let field = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    bytes[at..at + 4].copy_from_slice(&field.wrapping_add(delta).to_le_bytes());
}

/// A generated pcap and the start of a record mid-file, to corrupt.
fn pcap_and_a_record_mid_file() -> (Vec<u8>, usize) {
    let bytes = generated_capture(300);
    let records = pcap_records(&bytes);
    (bytes, records[records.len() - 50])
}

/// A generated pcapng and the start of a block mid-file, to corrupt.
fn pcapng_and_a_block_mid_file() -> (Vec<u8>, usize) {
    let bytes = pcapng_of(&generated_capture(300));
    let blocks = pcapng_blocks(&bytes);
    (bytes, blocks[blocks.len() - 50])
}

#[test]
fn pcap_record_length_wrong_mid_file_is_an_error_at_that_record() {
    let dir = tempfile::tempdir().unwrap();
    let (mut bytes, bad) = pcap_and_a_record_mid_file();
    add(&mut bytes, bad + 8, 3); // captured length
    add(&mut bytes, bad + 12, 3); // original length, so the record itself looks sound
    let path = temp_file(&dir, "mid.pcap", &bytes);
    assert_one_line_error(
        &path,
        &[&format!("{}: byte {bad}: record length", path.display()), "does not fit what follows"],
    );
}

#[test]
fn pcap_captured_length_above_original_length_mid_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let (mut bytes, bad) = pcap_and_a_record_mid_file();
    add(&mut bytes, bad + 8, 3);
    let path = temp_file(&dir, "caplen.pcap", &bytes);
    assert_one_line_error(
        &path,
        &[&format!("at byte {bad}"), "exceeds the packet's original length"],
    );
}

#[test]
fn pcapng_block_length_not_a_multiple_of_4_mid_file_is_an_error_at_that_block() {
    let dir = tempfile::tempdir().unwrap();
    let (mut bytes, bad) = pcapng_and_a_block_mid_file();
    add(&mut bytes, bad + 4, 1);
    let path = temp_file(&dir, "mid.pcapng", &bytes);
    assert_one_line_error(
        &path,
        &[
            &format!("{}: byte {bad}: enhanced packet block length", path.display()),
            "not a multiple of 4",
        ],
    );
}

#[test]
fn pcapng_block_length_not_matching_its_trailing_length_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let (mut bytes, bad) = pcapng_and_a_block_mid_file();
    add(&mut bytes, bad + 4, 8);
    let path = temp_file(&dir, "trailing.pcapng", &bytes);
    assert_one_line_error(&path, &[&format!("byte {bad}:"), "does not match its trailing length"]);
}

#[test]
fn pcapng_block_of_length_zero_is_one_short_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = pcapng_of(&generated_capture(3_000));
    let bad = pcapng_blocks(&bytes)[10];
    bytes[bad + 4..bad + 8].copy_from_slice(&0u32.to_le_bytes());
    let path = temp_file(&dir, "zero.pcapng", &bytes);
    assert_one_line_error(&path, &[&format!("byte {bad}:"), "length 0 is below the minimum of 32"]);
}

#[test]
fn pcapng_final_block_cut_short_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = pcapng_of(&generated_capture(10));
    let path = temp_file(&dir, "cut.pcapng", &bytes[..bytes.len() - 9]);
    let output = shootout().arg("inspect").arg(&path).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning:") && stderr.contains("final enhanced packet block cut short"),
        "{stderr}"
    );
}

#[test]
fn message_of_length_zero() {
    let dir = tempfile::tempdir().unwrap();
    assert_one_line_error(
        &temp_file(&dir, "zero.pcap", &one_message_capture(0, b"T and more")),
        &["byte 122", "length 0, but a message holds at least its type byte"],
    );
}

#[test]
fn capture_of_another_link_type_names_it() {
    let dir = tempfile::tempdir().unwrap();
    // Linux cooked capture, as `tcpdump -i any` writes: a 16-byte header where Ethernet has 14.
    let mut sll = vec![0, 0, 0, 1, 0, 6, 0, 0x1e, 0x67, 0x9f, 0xc8, 0xef, 0, 0, 0x08, 0x00];
    sll.extend_from_slice(&udp_frame(&iex_packet(0, 0, &[]))[14..]);
    let bytes = pcap_of_link_type(113, &[sll.clone(), sll]);
    assert_one_line_error(
        &temp_file(&dir, "any.pcap", &bytes),
        &[
            "no IEX-TP packets in",
            "2 of its packets are of link type LINUX_SLL (113)",
            "tcpdump -i any",
        ],
    );
}

/// `run --workload longs` on a CSV; its one error line.
fn csv_error(dir: &tempfile::TempDir, text: &str) -> String {
    let path = temp_file(dir, "bad.csv", text.as_bytes());
    let output = quick_run().args(["--workload", "longs", "--input"]).arg(&path).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success());
    assert_eq!(stderr.lines().count(), 1, "{}", &stderr[..stderr.len().min(500)]);
    assert!(stderr.len() < 300, "{} bytes of error", stderr.len());
    stderr
}

#[test]
fn huge_csv_cell_is_cut_in_the_error() {
    let dir = tempfile::tempdir().unwrap();
    // 10 MB: a record may hold up to 16 MiB.
    let stderr = csv_error(
        &dir,
        &format!("{}\n{}{}\n", csv_header(), "7".repeat(10_000_000), ",".repeat(19)),
    );
    assert!(
        stderr.contains("line 2, column 1 (f1)") && stderr.contains("(10000000 bytes)"),
        "{stderr}"
    );
}

#[test]
fn unterminated_csv_quote_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let rows = format!("{}\n", ["1"; 20].join(",")).repeat(5);
    let stderr = csv_error(&dir, &format!("{}\n{rows}1,\"2,3\n{rows}", csv_header()));
    assert!(stderr.contains("line 7, column 2 (f2): unterminated quote"), "{stderr}");
}

#[test]
fn a_csv_float_beyond_its_range_is_refused_like_an_overflowing_integer() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "overflow.csv", mixed_csv(&["1.5", "-1e400"]).as_bytes());
    let output = quick_run().args(["--workload", "mixed", "--input"]).arg(&path).output().unwrap();
    let stderr = one_line_error(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr.contains(
            "overflow.csv: line 3, column 2 (f2): '-1e400' is beyond the range of a 64-bit float"
        ),
        "{stderr}"
    );
}

/// A DEEP 1.0 trade of 38 bytes, or cut to `len`.
fn trade_message(len: usize) -> Vec<u8> {
    let mut message = vec![b'T', 0];
    message.extend_from_slice(&1_710_509_400_000_000_000i64.to_le_bytes());
    message.extend_from_slice(b"AAPL    ");
    message.extend_from_slice(&100u32.to_le_bytes());
    message.extend_from_slice(&1_725_000i64.to_le_bytes());
    message.extend_from_slice(&7i64.to_le_bytes());
    message.truncate(len);
    message
}

#[test]
fn messages_shorter_than_their_spec_are_counted_and_warned_of_by_run_as_by_inspect() {
    let dir = tempfile::tempdir().unwrap();
    let block = |messages: &[Vec<u8>]| {
        let mut block = Vec::new();
        for m in messages {
            block.extend_from_slice(&(m.len() as u16).to_le_bytes());
            block.extend_from_slice(m);
        }
        udp_frame(&iex_packet(block.len() as u16, messages.len() as u16, &block))
    };
    let bytes = pcap(&[
        block(&[trade_message(38)]),
        block(&[trade_message(38), trade_message(20)]),
        block(&[trade_message(30)]),
    ]);
    // The second packet's short trade: global header 24, two records of 16 + 42 + 40 + 2 + 38
    // before its length field, and the first record's 16 + 42 + 40 + 2 + 38 more.
    let first_short = 24 + (16 + 42 + 40 + 2 + 38) + (16 + 42 + 40) + 2 + 38;
    let path = temp_file(&dir, "short-messages.pcap", &bytes);
    let expected = format!(
        "warning: {}: byte {first_short}: IEX message shorter than its type's spec length, skipped (2 such in all",
        path.display()
    );

    let output = shootout().arg("inspect").arg(&path).output().unwrap();
    let stdout = stdout_of(output.clone());
    assert!(stdout.contains("2 shorter than spec"), "{stdout}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains(&expected), "{stderr}");

    let output = quick_run().args(["--formats", "bincode", "--input"]).arg(&path).output().unwrap();
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains(&expected), "{stderr}");
}

#[test]
fn numeric_options_are_bounded_so_no_sum_of_them_wraps() {
    let dir = tempfile::tempdir().unwrap();
    let max = u64::MAX.to_string();
    for args in [
        vec!["run", "--runs", &max],
        vec!["run", "--runs", "10001"],
        vec!["run", "--warmup", &max],
        vec!["run", "--window", "0"],
        vec!["run", "--window", "16777217"],
        vec!["run", "--records", "0"],
        vec!["run", "--workload", "sql", "--records", "1000000001"],
        vec!["run", "--packets", "100000001"],
        vec!["gen-csv", "--workload", "longs", "--out", "x.csv", "--records", &max],
        vec!["robustness", "--cases", &max],
        vec!["robustness", "--time-limit-ms", &max],
        vec!["compare", "a.json", "b.json", "--fail-above", "inf"],
        vec!["compare", "a.json", "b.json", "--min-change", "1e400"],
        vec!["recommend", "--max-p99-ns", "NaN"],
        vec!["recommend", "--max-bytes-per-record=-1"],
    ] {
        let output = shootout().current_dir(dir.path()).args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            stderr.contains("invalid value") || stderr.contains("is not"),
            "{args:?}: {stderr}"
        );
    }
}
