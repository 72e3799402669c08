//! `shootout replay` as a user runs it: a capture replayed at its own pace
//! over both transports, every run validated, the results file holding each
//! language's runs as spec/replay-runs.schema.json says.

use crate::common::{generated_capture, one_line_error, shared_capture, shootout, temp_file};
use serde_json::Value;

/// Every place where `runs` (one `shootout-replay-runs/1` object) departs from the schema.
fn replay_runs_errors(runs: &Value) -> Vec<String> {
    let schema: Value =
        serde_json::from_str(include_str!("../../../../spec/replay-runs.schema.json"))
            .expect("spec/replay-runs.schema.json is JSON");
    let validator = jsonschema::draft202012::new(&schema).expect("a draft 2020-12 schema");
    validator
        .iter_errors(runs)
        .map(|error| format!("at {:?}: {error}", error.instance_path().as_str()))
        .collect()
}

/// Runs `shootout replay ARGS --export-json -` on `input`, which must succeed.
fn replay(input: &std::path::Path, args: &[&str]) -> Value {
    let output = shootout()
        .arg("replay")
        .arg("--input")
        .arg(input)
        .args(args)
        .args(["--export-json", "-"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(document["schema"], "shootout-replay/1");
    for runs in document["languages"].as_array().unwrap() {
        let errors = replay_runs_errors(runs);
        assert!(errors.is_empty(), "{}: {}", runs["language"], errors.join("\n"));
    }
    document
}

fn rows<'a>(document: &'a Value, language: &str) -> Vec<&'a Value> {
    document["rows"].as_array().unwrap().iter().filter(|r| r["language"] == language).collect()
}

#[test]
fn a_generated_capture_is_replayed_at_each_speed_over_both_transports_and_validated() {
    let dir = tempfile::tempdir().unwrap();
    let capture = temp_file(&dir, "g.pcap", &generated_capture(3_000));
    let document = replay(
        &capture,
        // DBN carries symbol mappings through a window: each datagram must stand alone.
        &["--formats", "sbe,protobuf-prost,dbn", "--speed", "50,max", "--seconds", "0.2"],
    );
    let rows = rows(&document, "rust");
    // 3 formats × 2 transports × 2 speeds.
    assert_eq!(rows.len(), 12);
    for row in &rows {
        assert_eq!(row["error"], Value::Null, "{row}");
        assert!(row["received"].as_u64().unwrap() > 0, "{row}");
        assert_eq!(row["percentiles"].as_array().unwrap().len(), 5);
        if row["transport"] == "ring" {
            assert_eq!(row["drops"], 0, "{row}");
            assert_eq!(row["sent"], row["received"]);
        }
        let by_size: u64 =
            row["sizes"].as_array().unwrap().iter().map(|s| s["records"].as_u64().unwrap()).sum();
        assert_eq!(by_size, row["received"].as_u64().unwrap(), "{row}");
    }
    // The busiest second is inside every span, so every run holds its tail.
    assert!(rows.iter().all(|r| r["busiest"]["records"].as_u64().unwrap() > 0));
    assert!(document["capture"]["busiest_second_records"].as_u64().unwrap() > 0);
    assert_eq!(document["sustainable"].as_array().unwrap().len(), 6);
    assert!(document["input"]["sha256"].as_str().unwrap().len() == 64);
}

#[test]
fn the_terminal_shows_tails_sustainable_rates_and_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let capture = temp_file(&dir, "g.pcap", &generated_capture(1_000));
    let output = shootout()
        .args(["replay", "--formats", "bincode", "--speed", "100,max", "--seconds", "0.1"])
        .arg("--input")
        .arg(&capture)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).unwrap();
    for expected in
        ["p99.9", "open p99.9", "Sustainable rate", "Median latency by payload size", "bincode"]
    {
        assert!(stdout.contains(expected), "{expected} missing:\n{stdout}");
    }
}

#[test]
fn deep10_replays_around_its_busiest_second() {
    let Some(capture) = shared_capture("DEEP10.pcap.gz") else { return };
    let document = replay(
        &capture,
        &["--formats", "sbe", "--speed", "1000,max", "--seconds", "0.1", "--max-records", "20000"],
    );
    // Records are packets with a trade or a price update, as in `run`.
    assert_eq!(document["capture"]["busiest_second"], "2017-04-25T17:09:54.000000000Z");
    assert_eq!(document["capture"]["busiest_second_records"], 318);
    for row in rows(&document, "rust") {
        assert_eq!(row["error"], Value::Null, "{row}");
    }
    assert!(document["capture"]["replayed_records"].as_u64().unwrap() <= 20_000);
}

#[test]
fn replay_in_go_and_java_uses_the_same_plan_and_every_run_validates() {
    let dir = tempfile::tempdir().unwrap();
    let capture = temp_file(&dir, "g.pcap", &generated_capture(1_000));
    let document = replay(
        &capture,
        &["--lang", "all", "--formats", "sbe", "--speed", "200,max", "--seconds", "0.1"],
    );
    let languages: Vec<&str> = document["languages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["language"].as_str().unwrap())
        .collect();
    assert_eq!(languages, ["rust", "go", "java"]);
    for language in languages {
        let rows = rows(&document, language);
        assert_eq!(rows.len(), 4, "{language}");
        for row in rows {
            assert_eq!(row["error"], Value::Null, "{language}: {row}");
        }
    }
}

/// Without --formats, every format a runner has runs, each in a process of
/// its own; those it has only on other workloads are listed as not run.
#[test]
fn every_go_format_is_replayed_or_listed_as_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let capture = temp_file(&dir, "g.pcap", &generated_capture(300));
    let document = replay(
        &capture,
        &["--lang", "go", "--speed", "max", "--transport", "ring", "--max-records", "200"],
    );
    let listed = shootout().args(["formats", "--lang", "go", "--json"]).output().unwrap();
    assert!(listed.status.success());
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    let mut all: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["language"] == "go")
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    all.sort_unstable();
    let replayed = rows(&document, "go");
    let not_run = document["not_run"].as_array().unwrap();
    assert!(replayed.iter().all(|r| r["error"].is_null()), "{replayed:?}");
    assert!(!not_run.is_empty(), "Go has formats that do not run on iex");
    // Each with its reason: no library for it, or other workloads only.
    for entry in not_run {
        assert_eq!(entry["language"], "go");
        let format = listed
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["language"] == "go" && f["name"] == entry["format"]);
        let reason = entry["reason"].as_str().unwrap();
        match format.and_then(|f| f["not_run"].as_str()) {
            Some(why) => assert_eq!(reason, why),
            None => assert!(reason.ends_with("not on iex"), "{entry}"),
        }
    }
    let mut seen: Vec<&str> = replayed
        .iter()
        .map(|r| r["format"].as_str().unwrap())
        .chain(not_run.iter().map(|n| n["format"].as_str().unwrap()))
        .collect();
    seen.sort_unstable();
    assert_eq!(seen, all, "each Go format replayed once, or listed as not run");
}

#[test]
fn bad_arguments_and_inputs_get_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let output =
        shootout().args(["replay", "--input", "none.pcap", "--formats", "sbe"]).output().unwrap();
    let error = one_line_error(&output);
    assert!(error.contains("none.pcap"), "{error}");
    let output = shootout().args(["replay", "--input", "x.pcap", "--speed", "0"]).output().unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("expected a positive speed factor"));
    let empty = temp_file(&dir, "empty.pcap", &crate::common::pcap(&[]));
    let output = shootout()
        .arg("replay")
        .arg("--input")
        .arg(&empty)
        .args(["--formats", "sbe"])
        .output()
        .unwrap();
    let error = one_line_error(&output);
    assert!(error.contains("empty.pcap") && error.contains("no IEX-TP packets"), "{error}");
}
