//! `shootout evolution` as a user runs it: the outcome of every cell is
//! compared with the committed tests/expected/evolution.txt, so a cell that
//! changes (an `ok` turning `silent` after a library upgrade, say) fails here
//! until that file is updated in the same commit.

use std::path::PathBuf;

use crate::common::{shootout, stdout_of};
use predicates::prelude::*;
use serde_json::Value;

fn expected_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/expected/evolution.txt")
}

fn matrix_json(args: &[&str]) -> Value {
    let output = shootout().args(["evolution", "--export-json", "-"]).args(args).output().unwrap();
    serde_json::from_str(&stdout_of(output)).expect("the export is JSON")
}

/// One line per format: its name, then each cell's outcome in the export's order.
fn outcomes(matrix: &Value) -> String {
    let mut text = String::from(
        "# Outcome of every cell of `shootout evolution` (change:direction); see docs/evolution-schema.md.\n",
    );
    let columns: Vec<String> = matrix["formats"][0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| format!("{}:{}", c["change"].as_str().unwrap(), c["direction"].as_str().unwrap()))
        .collect();
    text.push_str(&format!("{:<16} {}\n", "format", columns.join(" ")));
    for format in matrix["formats"].as_array().unwrap() {
        let cells: Vec<String> = format["cells"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&columns)
            .map(|(cell, column)| {
                format!("{:<width$}", cell["outcome"].as_str().unwrap(), width = column.len())
            })
            .collect();
        text.push_str(
            format!("{:<16} {}", format["name"].as_str().unwrap(), cells.join(" ")).trim_end(),
        );
        text.push('\n');
    }
    text
}

#[test]
fn the_matrix_matches_the_committed_expectation() {
    let actual = outcomes(&matrix_json(&[]));
    let path = expected_path();
    if std::env::var_os("SHOOTOUT_UPDATE_EXPECTED").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "the evolution matrix is not the one in {path}.\n\
         If the change is intended, update the file with\n  \
         SHOOTOUT_UPDATE_EXPECTED=1 cargo test -p shootout --test it -- evolution::\n\
         and commit it with the change (and say why in the message).\n\n\
         expected:\n{expected}\nactual:\n{actual}",
        path = path.display()
    );
}

#[test]
fn every_cell_accounts_for_every_record() {
    let matrix = matrix_json(&[]);
    assert_eq!(matrix["schema"], "shootout-evolution/1");
    let records = matrix["records"].as_u64().unwrap();
    assert!(records >= 24, "a few dozen records, got {records}");
    for format in matrix["formats"].as_array().unwrap() {
        assert!(!format["rules"].as_str().unwrap().is_empty());
        let cells = format["cells"].as_array().unwrap();
        assert_eq!(cells.len(), 10, "{}", format["name"]);
        for cell in cells {
            let counts = &cell["records"];
            let sum: u64 = ["ok", "error", "silent", "panic"]
                .iter()
                .map(|class| counts[class].as_u64().unwrap())
                .sum();
            assert_eq!(sum, records, "{cell}");
            let outcome = cell["outcome"].as_str().unwrap();
            assert!(counts[outcome].as_u64().unwrap() > 0 || outcome == "ok", "{cell}");
            match outcome {
                "ok" => assert_eq!(counts["ok"], records, "{cell}"),
                "error" | "panic" => assert!(!cell["message"].as_str().unwrap().is_empty()),
                "silent" => assert!(cell["field"].is_string() && cell["record"].is_u64()),
                other => panic!("unknown outcome {other}"),
            }
        }
    }
}

#[test]
fn the_terminal_table_shows_every_finding() {
    let output =
        shootout().args(["evolution", "--formats", "rkyv,json-serde_json"]).output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("rkyv") && text.contains("json-serde_json"), "{text}");
    assert!(!text.contains("bincode"), "only the chosen formats: {text}");
    assert!(text.contains("Outcomes: ok:"), "the legend: {text}");
    // Every non-ok cell carries a number that a finding below explains.
    let findings =
        text.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).count();
    let flagged = ["error ", "silent ", "panic "]
        .iter()
        .map(|class| {
            text.lines()
                .take_while(|l| !l.starts_with("Changes:"))
                .map(|l| l.matches(class).count())
                .sum::<usize>()
        })
        .sum::<usize>();
    assert!(flagged > 0, "rkyv's v2s are not all readable: {text}");
    assert_eq!(findings, flagged, "{text}");
}

#[test]
fn an_unknown_format_is_one_clear_error() {
    shootout().args(["evolution", "--formats", "bincode,nope"]).assert().code(1).stdout("").stderr(
        predicate::str::starts_with("error: unknown format 'nope'")
            .and(predicate::str::contains("msgpack-map")),
    );
}

#[test]
fn the_export_keeps_an_existing_file_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("evolution.json");
    std::fs::write(&path, "keep").unwrap();
    shootout()
        .args(["evolution", "-f", "borsh", "--export-json"])
        .arg(&path)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("already exists; pass --force"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "keep");
    shootout()
        .args(["evolution", "-f", "borsh", "--force", "--export-json"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("borsh"));
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(written["formats"][0]["name"], "borsh");
}

#[test]
fn help_explains_the_changes_and_the_outcomes() {
    shootout().args(["evolution", "--help"]).assert().success().stdout(
        predicate::str::contains("widen")
            .and(predicate::str::contains("silent: read without complaint"))
            .and(predicate::str::contains("old→new")),
    );
}
