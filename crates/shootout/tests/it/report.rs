//! `shootout report`: saved results files shown as one set of tables, as a user runs it.

use crate::common::*;

#[test]
fn two_runs_of_one_command_merge_with_rows_labelled_by_file() {
    let dir = tempfile::tempdir().unwrap();
    let before = sql_results(&dir, "before.json", SOME_FORMATS);
    let after = sql_results(&dir, "after.json", SOME_FORMATS);
    let markdown = dir.path().join("report.md");
    let set = dir.path().join("set.json");
    let tables = stdout_of(
        shootout()
            .arg("report")
            .args([&before, &after])
            .arg("--export-markdown")
            .arg(&markdown)
            .arg("--export-json")
            .arg(&set)
            .output()
            .unwrap(),
    );
    assert!(tables.contains("Encode (ns per op)"), "{tables}");
    for label in ["rust@before", "rust@after"] {
        assert!(tables.contains(label), "{label} missing from\n{tables}");
    }
    assert!(std::fs::read_to_string(&markdown).unwrap().contains("rust@after"));

    // The merged export is a results set, which report reads back.
    let tables = stdout_of(shootout().arg("report").arg(&set).output().unwrap());
    assert!(tables.contains("rust@before"), "{tables}");
}

#[test]
fn different_record_counts_are_refused_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let first = sql_results(&dir, "first.json", "borsh");
    let other = edited(&dir, &first, "other.json", |r| r["workload"]["records"] = 999.into());
    let output = shootout().args(["report"]).args([&first, &other]).output().unwrap();
    let error = one_line_error(&output);
    for part in ["first.json", "other.json", "different record counts", "--allow-mismatch"] {
        assert!(error.contains(part), "{error}");
    }

    let tables = stdout_of(
        shootout().args(["report", "--allow-mismatch"]).args([&first, &other]).output().unwrap(),
    );
    assert!(
        tables.contains("== sql, 500 records") && tables.contains("== sql, 999 records"),
        "{tables}"
    );
}

#[test]
fn another_schema_or_not_json_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let old = temp_file(&dir, "old.json", br#"{"schema": "shootout-results/1"}"#);
    let text = temp_file(&dir, "notes.txt", b"not json");
    for (file, says) in [(&old, "schema \"shootout-results/1\""), (&text, "not JSON")] {
        let output = shootout().arg("report").arg(file).output().unwrap();
        let error = one_line_error(&output);
        assert!(
            error.contains(&file.display().to_string())
                && error.contains(says)
                && error.contains("expected a shootout results file (shootout-results/3, shootout-results/2 or shootout-results-set/1)"),
            "{error}"
        );
    }
}
