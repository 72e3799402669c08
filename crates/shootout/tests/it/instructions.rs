//! `run --instructions`: each Rust format's instructions per op, counted
//! under Valgrind, the same from one invocation to the next; `compare` on them.

use std::io::Write;

use crate::common::*;
use serde_json::Value;

/// Two formats and the baseline on 200 records of a small capture, measured
/// once: Valgrind runs some fifty times slower, and the count needs no more.
const COUNTED: [&str; 12] = [
    "run",
    "--packets",
    "400",
    "--max-records",
    "200",
    "--formats",
    "sbe,bincode",
    "--runs",
    "1",
    "--warmup",
    "0",
    "--instructions",
];

/// Valgrind can be started here; where it cannot, the test is skipped with
/// the reason printed, unless SHOOTOUT_REQUIRE_VALGRIND is set (CI sets it,
/// after installing Valgrind), which makes it fail.
fn valgrind_here() -> bool {
    let present = std::process::Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    if !present {
        assert!(
            std::env::var_os("SHOOTOUT_REQUIRE_VALGRIND").is_none(),
            "SHOOTOUT_REQUIRE_VALGRIND is set but valgrind cannot be started (Debian package valgrind)"
        );
        // The harness captures only the print macros: written to the handle, the skip shows.
        let _ = writeln!(
            std::io::stderr(),
            "skipped: valgrind is not installed (Debian package valgrind)"
        );
    }
    present
}

/// Every Rust row's instructions per op, by format and direction.
fn instructions_per_op(results: &Value) -> Vec<(String, &'static str, f64)> {
    let mut counts = Vec::new();
    for format in results["formats"].as_array().unwrap() {
        for direction in ["encode", "decode"] {
            let count = &format[direction]["summary"]["instructions_per_op"];
            let name = format["name"].as_str().unwrap().to_owned();
            let count = count.as_f64().unwrap_or_else(|| panic!("{name} {direction}: {count}"));
            counts.push((name, direction, count));
        }
    }
    counts
}

#[test]
fn two_invocations_count_the_same_instructions_per_op_and_compare_reads_them() {
    if !valgrind_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let [first, second] = ["first.json", "second.json"].map(|name| dir.path().join(name));
    let bmf = dir.path().join("first.bmf.json");
    let table = stdout_of(
        shootout()
            .args(COUNTED)
            .arg("--export-json")
            .arg(&first)
            .arg("--export-bmf")
            .arg(&bmf)
            .output()
            .unwrap(),
    );
    assert!(table.contains("instr/op") && table.contains("instructions are not time"), "{table}");
    let bmf: Value = serde_json::from_slice(&std::fs::read(&bmf).unwrap()).unwrap();
    let counted = &bmf["iex/rust/sbe/decode"]["instructions-per-op"]["value"];
    assert!(counted.as_f64().is_some_and(|n| n > 0.0), "BMF carries the count: {bmf}");
    stdout_of(shootout().args(COUNTED).arg("--export-json").arg(&second).output().unwrap());

    let read = |path: &std::path::Path| -> Value {
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    };
    let (a, b) = (read(&first), read(&second));
    assert_fits_results_schema(&a);
    let (a_counts, b_counts) = (instructions_per_op(&a), instructions_per_op(&b));
    assert_eq!(a_counts.len(), 6, "sbe, bincode and the baseline, both directions: {a_counts:?}");
    for ((format, direction, old), (_, _, new)) in a_counts.iter().zip(&b_counts) {
        assert!(*old > 0.0, "{format} {direction}: {old}");
        let difference = (new - old).abs() / old;
        assert!(difference <= 0.005, "{format} {direction}: {old} then {new}");
    }

    // compare: the same counts are not called; one format's 5 % more are, and only its.
    let comparison = |new: &std::path::Path| -> Value {
        let output = shootout().args(["compare", "--json"]).arg(&first).arg(new).output().unwrap();
        serde_json::from_str(&stdout_of(output)).unwrap()
    };
    let verdicts = |comparison: &Value| -> Vec<(String, String)> {
        comparison["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let verdict = c["instructions_per_op"]["verdict"].as_str().unwrap();
                (format!("{} {}", c["format"], c["direction"]), verdict.to_owned())
            })
            .collect()
    };
    assert!(verdicts(&comparison(&second)).iter().all(|(_, v)| v == "not-significant"));
    let more = edited(&dir, &second, "more.json", |results| {
        let sbe = results["formats"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|f| f["name"] == "sbe")
            .unwrap();
        let count = &mut sbe["encode"]["summary"]["instructions_per_op"];
        *count = (count.as_f64().unwrap() * 1.05).into();
    });
    for (cell, verdict) in verdicts(&comparison(&more)) {
        let expected = if cell == "\"sbe\" \"encode\"" { "more" } else { "not-significant" };
        assert_eq!(verdict, expected, "{cell}");
    }
}

#[test]
fn instructions_without_valgrind_is_one_error_line_naming_the_package() {
    let empty = tempfile::tempdir().unwrap();
    let output = shootout().args(COUNTED).env("PATH", empty.path()).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let error = one_line_error(&output);
    assert!(error.contains("Valgrind") && error.contains("`valgrind` package"), "{error}");
}
