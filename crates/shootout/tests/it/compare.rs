//! `shootout compare`, as a user (or CI) runs it on saved results.

use crate::common::*;
use serde_json::Value;

fn compare_json(old: &std::path::Path, new: &std::path::Path) -> Value {
    let output = shootout().args(["compare", "--json"]).args([old, new]).output().unwrap();
    serde_json::from_str(&stdout_of(output)).unwrap()
}

fn ns_per_op_verdicts<'a>(comparison: &'a Value, format: &str) -> Vec<&'a str> {
    comparison["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["format"] == format)
        .map(|c| c["ns_per_op"]["verdict"].as_str().unwrap())
        .collect()
}

/// A run's times multiplied by `factor`: its rounds, and their total.
fn scale_run(run: &mut Value, factor: f64) {
    let rounds: Vec<u64> = run["round_ns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|ns| (ns.as_u64().unwrap() as f64 * factor) as u64)
        .collect();
    run["total_ns"] = rounds.iter().sum::<u64>().into();
    run["round_ns"] = rounds.into();
}

#[test]
fn two_runs_of_the_same_command_mostly_do_not_differ() {
    let dir = tempfile::tempdir().unwrap();
    // Another process loading the shared machine between the two runs slows
    // every format of the second, truly: a few attempts find a quiet moment.
    let mut attempts = Vec::new();
    for attempt in 0..3 {
        let old = sql_results(&dir, &format!("old{attempt}.json"), SOME_FORMATS);
        let new = sql_results(&dir, &format!("new{attempt}.json"), SOME_FORMATS);
        let comparison = compare_json(&old, &new);
        assert_eq!(comparison["schema"], "shootout-compare/1");
        let changes = comparison["changes"].as_array().unwrap();
        assert_eq!(changes.len(), 2 * SOME_FORMATS.split(',').count());
        for change in changes {
            assert_eq!(change["bytes_per_record"]["change_pct"], 0.0);
        }
        let significant =
            changes.iter().filter(|c| c["ns_per_op"]["verdict"] != "not-significant").count();
        if significant * 2 <= changes.len() {
            return;
        }
        attempts.push(comparison);
    }
    panic!("most formats differed in every attempt: {attempts:#?}");
}

#[test]
fn a_slowed_codec_is_a_significant_regression_and_fails_above_10_percent() {
    let dir = tempfile::tempdir().unwrap();
    let measured = sql_results(&dir, "measured.json", SOME_FORMATS);
    // What this tests is compare's arithmetic, not the machine: every run's
    // loops are set to the format's median run within ±0.4 %, so a run slowed
    // by another process on a shared machine cannot hide the change.
    let old = edited(&dir, &measured, "old.json", |results| {
        for format in results["formats"].as_array_mut().unwrap() {
            for direction in ["encode", "decode"] {
                let runs = format[direction]["runs"].as_array_mut().unwrap();
                let mut totals: Vec<u64> =
                    runs.iter().map(|r| r["total_ns"].as_u64().unwrap()).collect();
                totals.sort_unstable();
                let median = totals[totals.len() / 2] as f64;
                for (k, run) in runs.iter_mut().enumerate() {
                    let jitter = 1.0 + 0.002 * (k as f64 - 2.0);
                    let factor = median * jitter / run["total_ns"].as_u64().unwrap() as f64;
                    scale_run(run, factor);
                }
            }
        }
    });
    // Stands in for a slowed codec: the same results with cbor-minicbor's
    // decode loops three times as long in every run (ns/op is derived from them).
    let new = edited(&dir, &old, "slowed.json", |results| {
        for format in results["formats"].as_array_mut().unwrap() {
            if format["name"] != "cbor-minicbor" {
                continue;
            }
            for run in format["decode"]["runs"].as_array_mut().unwrap() {
                scale_run(run, 3.0);
            }
        }
    });
    let comparison = compare_json(&old, &new);
    assert_eq!(ns_per_op_verdicts(&comparison, "cbor-minicbor"), ["not-significant", "slower"]);
    assert_eq!(ns_per_op_verdicts(&comparison, "borsh"), ["not-significant", "not-significant"]);

    let output =
        shootout().args(["compare", "--fail-above", "10"]).args([&old, &new]).output().unwrap();
    assert_eq!(output.status.code(), Some(4), "{}", String::from_utf8_lossy(&output.stderr));
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(
        table.contains("Welch") && table.contains("Benjamini-Hochberg") && table.contains("slower"),
        "{table}"
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("rust cbor-minicbor decode ns/op +200"), "{stderr}");

    // Unchanged figures pass the same check.
    stdout_of(
        shootout().args(["compare", "--fail-above", "10"]).args([&old, &old]).output().unwrap(),
    );
}

#[test]
fn few_runs_environment_and_format_differences_are_said() {
    let dir = tempfile::tempdir().unwrap();
    let old = sql_results(&dir, "old.json", SOME_FORMATS);
    let new = edited(&dir, &old, "new.json", |results| {
        results["environment"]["cpu"] = "Another CPU".into();
        let formats = results["formats"].as_array_mut().unwrap();
        formats.retain(|f| f["name"] != "postcard");
        for format in formats {
            format["library_version"] = "9.9.9".into();
            for direction in ["encode", "decode"] {
                format[direction]["runs"].as_array_mut().unwrap().truncate(1);
            }
        }
    });
    let comparison = compare_json(&old, &new);
    assert_eq!(ns_per_op_verdicts(&comparison, "borsh"), ["too-few-runs", "too-few-runs"]);
    assert_eq!(comparison["removed"][0]["format"], "postcard");
    let environment = comparison["environment"].as_array().unwrap();
    assert!(environment.iter().any(|l| l.as_str().unwrap().contains("cpu")), "{environment:?}");
    assert!(environment.iter().any(|l| l.as_str().unwrap().contains("9.9.9")), "{environment:?}");

    let output = shootout().arg("compare").args([&old, &new]).output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("warning: rust environment differs: cpu"), "{stderr}");
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(table.contains("too few runs") && table.contains("removed (only in"), "{table}");

    let output = shootout().args(["compare", "--markdown"]).args([&old, &new]).output().unwrap();
    assert!(String::from_utf8(output.stdout).unwrap().contains("| format"));
}
