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

/// A copy of a results file whose times are all 8 % longer (the machine
/// slower, every format alike) and one format's 5 % longer again: that format
/// alone is called slower, in both directions, and the 8 % is reported as
/// the machine's.
#[test]
fn a_format_slowed_on_top_of_the_machines_drift_is_called_and_only_it() {
    let dir = tempfile::tempdir().unwrap();
    let measured = sql_results(&dir, "measured.json", SOME_FORMATS);
    // What this tests is compare's arithmetic, not the machine: every round's
    // loop is set to the format's median round within ±0.4 %, so a round
    // slowed by another process on a shared machine cannot hide the change.
    let old = edited(&dir, &measured, "old.json", |results| {
        for format in results["formats"].as_array_mut().unwrap() {
            for direction in ["encode", "decode"] {
                let runs = format[direction]["runs"].as_array_mut().unwrap();
                let mut rounds: Vec<u64> = runs
                    .iter()
                    .flat_map(|r| r["round_ns"].as_array().unwrap().iter())
                    .map(|ns| ns.as_u64().unwrap())
                    .collect();
                rounds.sort_unstable();
                let median = rounds[rounds.len() / 2] as f64;
                let mut k = 0.0;
                for run in runs.iter_mut() {
                    for round in run["round_ns"].as_array_mut().unwrap() {
                        *round = ((median * (1.0 + 0.002 * (k % 5.0 - 2.0))) as u64).into();
                        k += 1.0;
                    }
                    scale_run(run, 1.0);
                }
            }
        }
    });
    let new = edited(&dir, &old, "slowed.json", |results| {
        for format in results["formats"].as_array_mut().unwrap() {
            let factor = if format["name"] == "cbor-minicbor" { 1.08 * 1.05 } else { 1.08 };
            for direction in ["encode", "decode"] {
                for run in format[direction]["runs"].as_array_mut().unwrap() {
                    scale_run(run, factor);
                }
            }
        }
    });
    let comparison = compare_json(&old, &new);
    assert_eq!(ns_per_op_verdicts(&comparison, "cbor-minicbor"), ["slower", "slower"]);
    for format in SOME_FORMATS.split(',').filter(|f| *f != "cbor-minicbor") {
        assert_eq!(
            ns_per_op_verdicts(&comparison, format),
            ["not-significant", "not-significant"],
            "{format}"
        );
    }
    let shift = &comparison["shifts"][0]["ratio"];
    assert!((shift["value"].as_f64().unwrap() - 1.08).abs() < 0.002, "{shift}");

    let output =
        shootout().args(["compare", "--fail-above", "4"]).args([&old, &new]).output().unwrap();
    assert_eq!(output.status.code(), Some(4), "{}", String::from_utf8_lossy(&output.stderr));
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(
        table.contains("the machine ran 8.0% slower in the new file")
            && table.contains("Benjamini-Hochberg")
            && table.contains("slower"),
        "{table}"
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("rust cbor-minicbor decode ns/op +5.0%"), "{stderr}");

    // Unchanged figures pass the same check.
    stdout_of(
        shootout().args(["compare", "--fail-above", "4"]).args([&old, &old]).output().unwrap(),
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
                // One run of one round: one value, which gives no test.
                let runs = format[direction]["runs"].as_array_mut().unwrap();
                runs.truncate(1);
                runs[0]["round_ns"] = vec![runs[0]["total_ns"].clone()].into();
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
