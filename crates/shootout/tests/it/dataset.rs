//! `export-dataset`: the language-neutral hand-off other runners read.

use crate::common::*;
use serde_json::Value;

fn export(args: &[&str]) -> (Value, Vec<Value>) {
    let text = stdout_of(
        shootout().arg("export-dataset").args(args).args(["--out", "-"]).output().unwrap(),
    );
    let mut lines = text.lines().map(|line| serde_json::from_str::<Value>(line).unwrap());
    let header = lines.next().expect("a header line");
    (header, lines.collect())
}

#[test]
fn every_workload_exports_a_header_with_its_reference_and_one_line_per_operation() {
    for workload in FIELD_WORKLOADS {
        let (header, records) = export(&["--workload", workload, "--records", "40"]);
        assert_eq!(header["schema"], "shootout-dataset/1");
        assert_eq!(header["workload"], workload);
        assert_eq!(header["records"], 40);
        assert_eq!(records.len(), 40, "{workload}");
        assert_eq!(header["reference"]["records"], 40);
        let fields = header["fields"].as_array().unwrap();
        assert_eq!(
            fields.len(),
            header["reference"]["fields"].as_object().unwrap().len(),
            "{workload}"
        );
    }
}

#[test]
fn iex_records_carry_every_field_the_reference_folds() {
    let (header, records) = export(&["--packets", "300"]);
    assert_eq!(header["records"].as_u64().unwrap(), records.len() as u64);
    let messages: u64 =
        records.iter().map(|r| r["messages"].as_array().unwrap().len() as u64).sum();
    assert_eq!(header["reference"]["messages"], messages);
    let seq_no_sum =
        records.iter().fold(0u64, |sum, r| sum.wrapping_add(r["seq_no"].as_u64().unwrap()));
    assert_eq!(header["reference"]["seq_no_sum"], seq_no_sum);
    let trades = records
        .iter()
        .flat_map(|r| r["messages"].as_array().unwrap())
        .filter(|m| m["body"]["Trade"].is_object())
        .count();
    let folded: u64 = header["reference"]["symbols"]
        .as_object()
        .unwrap()
        .values()
        .map(|s| s["trades"].as_u64().unwrap())
        .sum();
    assert_eq!(folded, trades as u64);
}

#[test]
fn a_float_json_cannot_carry_is_refused_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let csv = temp_file(&dir, "inf.csv", mixed_csv(&["inf"]).as_bytes());
    let out = dir.path().join("out.jsonl");
    let output = shootout()
        .args(["export-dataset", "-w", "mixed", "--input"])
        .arg(&csv)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("row 1 after the header: field f2 holds a NaN or infinite float"),
        "{stderr}"
    );
    assert!(!out.exists());
}
