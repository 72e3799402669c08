//! A reader that stops early (`shootout formats --json | head -1`) ends the
//! output, not in an error.

use std::process::{Command, Output, Stdio};

use crate::common::*;

/// Runs shootout with its standard output a pipe whose reader has already
/// gone. Closing before reading anything, rather than after a line, makes
/// every write fail: a reader that took a line might leave the whole output
/// fitting in the pipe's buffer, and the test would pass without a broken pipe.
fn with_stdout_closed(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shootout"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("shootout starts");
    drop(child.stdout.take());
    child.wait_with_output().expect("shootout finishes")
}

fn assert_quiet_success(args: &[&str]) {
    let output = with_stdout_closed(args);
    assert!(
        output.status.success(),
        "{args:?}: {:?}, stderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn listings_end_quietly() {
    for args in
        [&["formats", "--json"][..], &["formats"], &["formats", "--markdown"], &["workloads"]]
    {
        assert_quiet_success(args);
    }
}

#[test]
fn inspect_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("small.pcap");
    let generated = shootout()
        .args(["gen-capture", "--packets", "50", "--out"])
        .arg(&capture)
        .output()
        .unwrap();
    assert!(generated.status.success(), "{}", String::from_utf8_lossy(&generated.stderr));
    let capture = capture.to_str().unwrap();
    assert_quiet_success(&["inspect", capture, "--json"]);
    assert_quiet_success(&["inspect", capture]);
}

/// Every format, so the CSV export outgrows the csv writer's buffer and the
/// broken pipe reaches it inside a row rather than at the final flush.
const QUICK_RUN: [&str; 9] =
    ["run", "--packets", "200", "--runs", "1", "--warmup", "0", "--throughput-rounds", "1"];

#[test]
fn run_tables_end_quietly() {
    assert_quiet_success(&QUICK_RUN);
}

/// With an export on standard output the tables go to standard error, so only
/// the absence of an error is asserted there.
#[test]
fn run_exports_to_stdout_end_without_error() {
    for export in ["--export-json", "--export-csv", "--export-markdown"] {
        let output = with_stdout_closed(&[&QUICK_RUN[..], &[export, "-"]].concat());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{export}: {:?}, stderr: {stderr}", output.status);
        assert!(!stderr.contains("error:"), "{export}: {stderr}");
    }
}
