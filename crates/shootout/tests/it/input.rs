//! Every way of handing over input (a file, `-`, a pipe, a FIFO, process
//! substitution) reads the same bytes, and fails the same way on bad ones.

use crate::common::*;
use serde_json::Value;

/// The report of `inspect --json`, without the input's name (which differs by way).
fn report(output: &std::process::Output) -> Value {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let mut report: Value = serde_json::from_slice(&output.stdout).unwrap();
    report.as_object_mut().unwrap().remove("file");
    report
}

#[test]
fn every_way_reads_the_same_capture() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "g.pcap", &generated_capture(2_000));
    let expected = report(&inspect_via(Via::File, &path, &["--json"]));
    assert_eq!(expected["packets"], 2_001);
    for via in &EVERY_WAY[1..] {
        assert_eq!(report(&inspect_via(*via, &path, &["--json"])), expected, "{via:?}");
    }
}

/// The one error line of `inspect` handed `path` via `via`.
fn error_line(via: Via, path: &std::path::Path) -> String {
    let output = inspect_via(via, path, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "{via:?} succeeded: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{via:?}: {stderr}");
    stderr
}

#[test]
fn corruption_mid_file_fails_every_way() {
    let dir = tempfile::tempdir().unwrap();
    let mut pcap = generated_capture(3_000);
    let bad = pcap_records(&pcap)[2_950];
    for field in [bad + 8, bad + 12] {
        let length = u32::from_le_bytes(pcap[field..field + 4].try_into().unwrap()) + 3;
        pcap[field..field + 4].copy_from_slice(&length.to_le_bytes());
    }
    let pcap_path = temp_file(&dir, "mid.pcap", &pcap);

    let mut pcapng = pcapng_of(&generated_capture(3_000));
    let bad_block = pcapng_blocks(&pcapng)[2_950];
    pcapng[bad_block + 4] += 1;
    let pcapng_path = temp_file(&dir, "mid.pcapng", &pcapng);

    for via in EVERY_WAY {
        let stderr = error_line(via, &pcap_path);
        assert!(stderr.contains(&format!(": byte {bad}: record length")), "{via:?}: {stderr}");
        let stderr = error_line(via, &pcapng_path);
        assert!(
            stderr.contains(&format!(": byte {bad_block}: enhanced packet block length")),
            "{via:?}: {stderr}"
        );
    }
}

#[test]
fn standard_input_runs_the_benchmark() {
    let stdout = stdout_of(
        quick_run()
            .args(["--formats", "sbe,json-serde_json", "--input", "-"])
            .write_stdin(generated_capture(500))
            .output()
            .unwrap(),
    );
    assert!(stdout.contains("records from standard input"), "{stdout}");
}

#[test]
fn deep10_through_a_fifo_ends_with_its_usual_warning() {
    let Some(path) = shared_capture("DEEP10.pcap.gz") else {
        return;
    };
    let output = inspect_via(Via::Fifo, &path, &["--json"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("final record cut short"), "{stderr}");
    assert_eq!(report(&output)["packets"], 121_314);
}

#[test]
fn tops16_through_process_substitution_matches_the_file() {
    let Some(path) = shared_capture("TOPS16.pcapng.gz") else {
        return;
    };
    let expected = report(&inspect_via(Via::File, &path, &["--json"]));
    assert_eq!(report(&inspect_via(Via::ProcessSubstitution, &path, &["--json"])), expected);
}

#[test]
fn symbols_with_quotes_backslashes_and_latin1_bytes_survive_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let mut body = Vec::new();
    let symbols: [&[u8; 8]; 3] = [b"\xc9CLAIR  ", b"A\"B     ", b"C\\D\x01\xff   "];
    for symbol in symbols {
        let mut trade = vec![b'T', 0];
        trade.extend_from_slice(&1_700_000_000_000_000_000i64.to_le_bytes());
        trade.extend_from_slice(symbol);
        trade.extend_from_slice(&100u32.to_le_bytes());
        trade.extend_from_slice(&1_234_500i64.to_le_bytes());
        trade.extend_from_slice(&7i64.to_le_bytes());
        body.extend_from_slice(&(trade.len() as u16).to_le_bytes());
        body.extend_from_slice(&trade);
    }
    let bytes = pcap(&[udp_frame(&iex_packet(body.len() as u16, 3, &body))]);
    let path = temp_file(&dir, "latin1.pcap", &bytes);

    let inspected = report(&inspect_via(Via::File, &path, &["--json"]));
    for symbol in ["\u{c9}CLAIR", "A\"B", "C\\D\u{1}\u{ff}"] {
        assert_eq!(inspected["symbols"][symbol]["trade_volume"], 100, "{symbol}: {inspected}");
    }
    let output = quick_run().args(["--export-json", "-", "--input"]).arg(&path).output().unwrap();
    let results: Value = serde_json::from_str(&stdout_of(output)).unwrap();
    assert_eq!(results["failed"], serde_json::json!([]), "every format carries every symbol");
}
