//! Every workload on its embedded default, the CSV path as a user takes it,
//! and the CSV reader's errors through the CLI.

use crate::common::*;
use serde_json::Value;

/// `run ARGS --export-json -` measuring once, which must succeed: its results.
fn run_json(args: &[&str]) -> Value {
    let output = quick_run().args(args).args(["--export-json", "-"]).output().unwrap();
    serde_json::from_str(&stdout_of(output)).unwrap()
}

#[test]
fn every_workload_runs_on_its_default_and_every_format_validates_or_says_why_not() {
    let formats = shootout().args(["formats", "--json"]).output().unwrap();
    let registered =
        serde_json::from_slice::<Value>(&formats.stdout).unwrap().as_array().unwrap().len();
    for workload in FIELD_WORKLOADS {
        let results = run_json(&["--workload", workload, "--records", "500"]);
        assert_eq!(results["workload"]["name"], workload);
        assert_eq!(results["workload"]["records"], 500);
        let ran = results["formats"].as_array().unwrap();
        let not_run = results["not_run"].as_array().unwrap();
        assert!(!ran.is_empty(), "{workload}: nothing ran");
        assert_eq!(results["failed"], serde_json::json!([]), "{workload}: every format validated");
        assert!(not_run.iter().all(|n| !n["reason"].as_str().unwrap().is_empty()));
        assert_eq!(
            ran.len() + not_run.len(),
            registered + 1,
            "{workload}: every registered format ran (with the baseline) or says why not"
        );
    }
}

#[test]
fn gen_csv_then_run_on_it_reports_sizes_against_the_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("mixed.csv");
    shootout()
        .args([
            "gen-csv",
            "--workload",
            "mixed",
            "--records",
            "800",
            "--seed",
            "5",
            "--presence",
            "0.3",
            "--out",
        ])
        .arg(&csv)
        .assert()
        .success();
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with("f1,f2,f3,"));
    assert_eq!(text.lines().count(), 801);

    let json = dir.path().join("mixed.json");
    let output = quick_run()
        .args(["-w", "mixed", "--input"])
        .arg(&csv)
        .arg("--export-json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(stdout_of(output).contains("Size against the source CSV"));
    let results: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(results["workload"]["records"], 800);
    assert_eq!(results["workload"]["csv"]["bytes"], text.len());
    let present = text.lines().skip(1).flat_map(|l| l.split(',')).filter(|c| !c.is_empty()).count();
    assert_eq!(results["workload"]["csv"]["values"], present);
}

#[test]
fn csv_errors_are_one_line_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let header = csv_header();
    let cases = [
        (
            "bad-number.csv",
            format!("{header}\n{}\n", ["1"; 20].join(",").replacen('1', "one", 1)),
            "line 2, column 1 (f1): 'one' is not a 64-bit integer",
        ),
        ("short-row.csv", format!("{header}\n1,2\n"), "line 2: expected 20 cells, found 2"),
        (
            "no-header.csv",
            format!("{}\n", ["1"; 20].join(",")),
            "line 1: expected the header f1,f2,",
        ),
    ];
    for (name, text, expected) in cases {
        let path = temp_file(&dir, name, text.as_bytes());
        let output =
            shootout().args(["run", "--workload", "longs", "--input"]).arg(&path).output().unwrap();
        assert!(!output.status.success());
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(name) && stderr.contains(expected), "{stderr}");
    }
}

#[test]
fn generated_workloads_refuse_an_input_file() {
    let output =
        shootout().args(["run", "--workload", "user", "--input", "x.csv"]).output().unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("takes no --input"));
}

#[test]
fn workloads_lists_every_workload() {
    let output = shootout().arg("workloads").output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    for name in ["iex"].into_iter().chain(FIELD_WORKLOADS) {
        assert!(text.lines().any(|l| l.starts_with(name)), "{name} missing: {text}");
    }
}

#[test]
fn a_value_some_formats_cannot_carry_fails_those_formats_only() {
    let dir = tempfile::tempdir().unwrap();
    // f2 is a float: NaN has no JSON form; UBJSON's spec writes it as null; borsh refuses it.
    let csv = temp_file(&dir, "nan.csv", mixed_csv(&["1.5", "NaN"]).as_bytes());
    let output = quick_run()
        .args(["--workload", "mixed", "--export-json", "-", "--input"])
        .arg(&csv)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("FAILED, numbers withheld: json-serde_json"), "{stderr}");
    let results: Value = serde_json::from_slice(&output.stdout).unwrap();
    let failed: Vec<&str> =
        results["failed"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    let mut failed = failed;
    failed.sort_unstable();
    assert_eq!(
        failed,
        [
            "borsh",
            "json-serde_json",
            "json-simd-json",
            "json-simd-json-serde",
            "json-sonic-rs",
            "ubjson"
        ]
    );
    let measured = results["formats"].as_array().unwrap();
    assert!(
        measured.iter().any(|f| f["name"] == "cbor-ciborium")
            && measured.iter().any(|f| f["name"] == "protobuf-prost")
    );
    for failure in results["failed"].as_array().unwrap() {
        assert!(!failure["reason"].as_str().unwrap().is_empty());
    }
}
