//! `shootout study` as a user runs it: the list, a Rust study end to end on a
//! capture (generated always, IEX's sample when ../shared has it), and the
//! one-line errors.

use crate::common::{one_line_error, shared_capture, shootout, stdout_of, temp_file};

#[test]
fn the_list_names_every_study() {
    let listed = stdout_of(shootout().args(["study", "--list"]).output().unwrap());
    for name in ["iex-2019", "go-flatbuffers-json", "ignite-iep75", "scala-logs"] {
        assert!(listed.lines().any(|l| l.starts_with(name)), "{listed}");
    }
}

/// Runs iex-2019 once on `capture` and checks what it prints and exports:
/// the published tables beside ours, every conclusion and claim checked, the
/// readers' claim on both readers, and the samples behind each tail.
fn iex_2019_on(capture: &std::path::Path) {
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("study.json");
    let shown = stdout_of(
        shootout()
            .args(["study", "iex-2019", "--runs", "1", "--input"])
            .arg(capture)
            .arg("--export-json")
            .arg(&export)
            .output()
            .unwrap(),
    );
    for heading in [
        "### Serialization — the study's figure → ours",
        "## The study's conclusions",
        "## Departures from the study",
    ] {
        assert!(shown.contains(heading), "{heading} missing:\n{shown}");
    }
    // The published median of SBE's serialize stands beside ours.
    assert!(shown.contains("| SBE ") && shown.contains(" 91 → "), "{shown}");
    let outcome: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&export).unwrap()).unwrap();
    assert_eq!(outcome["schema"], "shootout-study-result/1");
    let study = &outcome["figures"]["variants"][0];
    assert_eq!(study["id"], "study");
    for table in study["tables"].as_array().unwrap() {
        let timed = ["serialize", "deserialize"].contains(&table["id"].as_str().unwrap());
        let labels: Vec<&str> = table["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["label"].as_str().unwrap())
            .collect();
        assert_eq!(
            labels,
            ["Cap'n Proto Unpacked", "Cap'n Proto Packed", "Flatbuffers", "SBE"],
            "{}",
            table["id"]
        );
        for row in table["rows"].as_array().unwrap().iter().filter(|_| timed) {
            assert!(row["values"]["p50_ns"].as_f64().unwrap() > 0.0, "{row}");
        }
    }
    let checks = outcome["checks"].as_array().unwrap();
    assert_eq!(checks.len(), outcome["published"]["conclusions"].as_array().unwrap().len());
    let check = |id: &str| checks.iter().find(|c| c["id"] == id).unwrap();
    for check in checks {
        let verdict = check["verdict"].as_str().unwrap();
        assert!(
            ["reproduced", "reversed", "not-reproduced", "not-decided"].contains(&verdict),
            "{check}"
        );
    }
    // One run gives no interval: nothing timed is decided.
    assert_eq!(check("sbe-best-median")["verdict"], "not-decided");
    let readers = check("flatbuffers-reads-faster-than-capnp")["evidence"].as_str().unwrap();
    assert!(readers.contains("the study's readers") && readers.contains("the project's readers"));
    let tail = check("sbe-best-worst-case")["evidence"].as_str().unwrap();
    assert!(tail.contains(" packets a run, ") && tail.contains(" beyond the 99.9th"), "{tail}");
    let answers = outcome["answers"].as_array().unwrap();
    assert_eq!(answers.len(), 2);
    for answer in answers {
        assert!(answer["answer"].as_str().unwrap().contains(" packets a run"), "{answer}");
    }
}

/// 50,000 generated packets: some 50 a run beyond the 99.9th percentile.
#[test]
fn iex_2019_runs_on_a_generated_capture() {
    let dir = tempfile::tempdir().unwrap();
    let capture = temp_file(&dir, "generated.pcap", &crate::common::generated_capture(50_000));
    iex_2019_on(&capture);
}

/// `--export-html -`: the report page with the study's section goes to
/// standard output, instead of the tables (html_report.rs renders it).
#[test]
fn the_html_page_can_go_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let capture = temp_file(&dir, "generated.pcap", &crate::common::generated_capture(2_000));
    let page = stdout_of(
        shootout()
            .args(["study", "iex-2019", "--quick", "--input"])
            .arg(&capture)
            .args(["--export-html", "-"])
            .output()
            .unwrap(),
    );
    assert!(page.starts_with("<!doctype html>"), "{page}");
    assert!(page.contains(r#""schema":"shootout-study-result/1""#), "the study is the page's data");
    assert!(
        !page.contains("## Departures from the study"),
        "the tables went to standard output too"
    );
}

#[test]
fn iex_2019_runs_on_iex_s_sample() {
    if let Some(capture) = shared_capture("DEEP10.pcap.gz") {
        iex_2019_on(&capture);
    }
}

/// A study another language's runner measures, with `--quick`: the
/// published tables beside ours, every conclusion checked, departures
/// listed, and the runner's log (JMH's) kept out of the way.
fn runner_study(name: &str, tables: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("study.json");
    let output =
        shootout().args(["study", name, "--quick", "--export-json"]).arg(&export).output().unwrap();
    let log = String::from_utf8_lossy(&output.stderr).into_owned();
    let shown = stdout_of(output);
    assert!(shown.contains("the study's figure → ours"), "{shown}");
    assert!(log.contains("(its log: --verbose)") && !log.contains("# JMH"), "{log}");
    let outcome: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&export).unwrap()).unwrap();
    assert_eq!(outcome["figures"]["study"], name);
    let study = &outcome["figures"]["variants"][0];
    assert_eq!(study["id"], "study");
    for table in tables {
        let published = outcome["published"]["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == *table)
            .unwrap();
        let ours = study["tables"].as_array().unwrap().iter().find(|t| t["id"] == *table).unwrap();
        let labels = |t: &serde_json::Value| -> Vec<String> {
            t["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["label"].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(labels(published), labels(ours), "{name}: table {table}");
    }
    let checks = outcome["checks"].as_array().unwrap();
    let conclusions = outcome["published"]["conclusions"].as_array().unwrap();
    let ids = |list: &[serde_json::Value]| -> Vec<String> {
        list.iter().map(|c| c["id"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(ids(checks), ids(conclusions), "{name}: every conclusion checked, in order");
    assert!(!outcome["figures"]["departures"].as_array().unwrap().is_empty());
}

#[test]
fn go_flatbuffers_json_runs_in_the_go_runner() {
    runner_study("go-flatbuffers-json", &["benchmarks"]);
}

#[test]
fn ignite_iep75_runs_in_the_jvm_runner() {
    runner_study("ignite-iep75", &["jmh", "sql-size", "requirements"]);
}

#[test]
fn scala_logs_runs_in_the_jvm_runner() {
    runner_study("scala-logs", &["csv-size", "uuid-field-bytes"]);
}

#[test]
fn mistakes_get_one_line() {
    let unknown = one_line_error(&shootout().args(["study", "nope"]).output().unwrap());
    assert!(unknown.contains("unknown study 'nope'") && unknown.contains("iex-2019"), "{unknown}");
    let no_input = one_line_error(&shootout().args(["study", "iex-2019"]).output().unwrap());
    assert!(no_input.contains("needs --input"), "{no_input}");
    let stdin =
        one_line_error(&shootout().args(["study", "iex-2019", "--input", "-"]).output().unwrap());
    assert!(stdin.contains("give a file"), "{stdin}");
    let input = one_line_error(
        &shootout().args(["study", "scala-logs", "--input", "x.csv"]).output().unwrap(),
    );
    assert!(input.contains("takes no --input"), "{input}");
    let both = one_line_error(
        &shootout()
            .args([
                "study",
                "iex-2019",
                "--input",
                "x.pcap",
                "--export-json",
                "-",
                "--export-html",
                "-",
            ])
            .output()
            .unwrap(),
    );
    assert!(both.contains("both write to standard output"), "{both}");
}
