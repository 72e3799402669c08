//! `run`, its exports and `gen-capture`, as a user runs them.

mod common;

use common::*;
use serde_json::Value;

const QUICK: [&str; 7] = ["run", "--packets", "3000", "--runs", "2", "--warmup", "0"];

#[test]
fn run_on_the_embedded_default_exports_json_csv_and_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let (json, csv, md) = (dir.path().join("r.json"), dir.path().join("r.csv"), dir.path().join("r.md"));
    let output = shootout()
        .args(QUICK)
        .arg("--export-json")
        .arg(&json)
        .arg("--export-csv")
        .arg(&csv)
        .arg("--export-markdown")
        .arg(&md)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(table.contains("Encode (ns per op)") && table.contains("Decode + aggregate"), "{table}");

    let results: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(results["schema"], "shootout-results/1");
    assert!(results["workload"]["source"].as_str().unwrap().starts_with("generated DEEP 1.0 capture"));
    assert_ne!(results["environment"]["rustc"], "unknown");
    assert!(results["timer"]["empty_region_ns"].is_u64());
    let formats = results["formats"].as_array().unwrap();
    assert!(formats.len() >= 4);
    for format in formats {
        assert_ne!(format["library_version"], "unknown", "{}", format["name"]);
        for direction in ["encode", "decode"] {
            let runs = format[direction]["runs"].as_array().unwrap();
            assert_eq!(runs.len(), 2);
            let p50 = &format[direction]["summary"]["p50_ns"];
            assert!(p50["min"].as_f64() <= p50["median"].as_f64() && p50["median"].as_f64() <= p50["max"].as_f64());
            assert!(format[direction]["summary"]["total_ns"]["median"].as_f64().unwrap() > 0.0);
        }
    }

    let csv_text = std::fs::read_to_string(&csv).unwrap();
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    assert!(reader.headers().unwrap().iter().any(|h| h == "p999_ns_median"));
    assert_eq!(reader.records().count(), formats.len() * 2);

    let markdown = std::fs::read_to_string(&md).unwrap();
    assert!(markdown.contains("### Encode") && markdown.contains("| format"), "{markdown}");
}

#[test]
fn exports_never_overwrite_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let json = temp_file(&dir, "keep.json", b"precious");
    let output = shootout().args(QUICK).arg("--export-json").arg(&json).output().unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("already exists; pass --force"));
    assert_eq!(std::fs::read(&json).unwrap(), b"precious");

    let output = shootout().args(QUICK).arg("--export-json").arg(&json).arg("--force").output().unwrap();
    assert!(output.status.success());
    assert!(std::fs::read_to_string(&json).unwrap().contains("shootout-results/1"));
}

#[test]
fn json_to_stdout_moves_the_table_to_stderr() {
    let output = shootout().args(QUICK).args(["--formats", "sbe", "--export-json", "-"]).output().unwrap();
    assert!(output.status.success());
    let results: Value = serde_json::from_slice(&output.stdout).expect("stdout is pure JSON");
    assert_eq!(results["formats"].as_array().unwrap().len(), 1);
    assert!(String::from_utf8_lossy(&output.stderr).contains("Encode (ns per op)"));
}

#[test]
fn unknown_format_is_one_clear_line() {
    let output = shootout().args(["run", "--formats", "sbe,morse"]).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1);
    assert!(stderr.contains("unknown format 'morse'") && stderr.contains("sbe"), "{stderr}");
}

#[test]
fn gen_capture_is_deterministic_spec_shaped_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.pcap"), dir.path().join("b.pcap"));
    for path in [&a, &b] {
        shootout().args(["gen-capture", "--packets", "500", "--seed", "9", "--out"]).arg(path).assert().success();
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());

    let again = shootout().args(["gen-capture", "--out"]).arg(&a).output().unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));

    let output = shootout().arg("inspect").arg("--json").arg(&a).output().unwrap();
    assert!(output.status.success());
    assert!(output.stderr.is_empty(), "a generated capture is clean: {}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["iex_packets"], 500);
    assert_eq!(report["other_packets"], 1, "one ARP frame, counted and skipped");
    assert_eq!(report["protocols"]["DEEP 1.0"], 500);
    assert!(report["skipped_messages"]["unknown_type"].as_u64().unwrap() >= 1);
    for kind in ["S", "H", "O", "P", "E", "T", "8", "5", "Z"] {
        assert!(report["messages"][kind].as_u64().unwrap_or(0) > 0, "no {kind} messages");
    }
    assert_eq!(report["symbols"].as_object().unwrap().len(), 20);
}

#[test]
fn help_explains_the_commands() {
    let output = shootout().arg("--help").output().unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    for command in ["run", "inspect", "gen-capture"] {
        assert!(help.contains(command), "{help}");
    }
    let output = shootout().args(["run", "--help"]).output().unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    assert!(help.contains("--export-json") && help.contains("--runs"), "{help}");
}
