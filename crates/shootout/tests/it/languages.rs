//! `--lang`: the Go and JVM runners built from runners/, run on the same
//! records, their results merged with the Rust ones. Needs Go, a JDK and Maven
//! on PATH, as the README's test command does.

use crate::common::{assert_fits_results_schema, quick_run, shootout, stdout_of};
use serde_json::Value;

fn names(results: &Value, key: &str) -> Vec<String> {
    results[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Fails unless every one of `expected` is among the formats `results` measured.
fn assert_measured(results: &Value, expected: &[&str]) {
    let measured = names(results, "formats");
    for name in expected {
        assert!(measured.iter().any(|m| m == name), "{name} not in {measured:?}");
    }
}

/// The set, once each language's part is checked against spec/results.schema.json.
fn fits_schema(set: Value) -> Value {
    for part in set["results"].as_array().unwrap() {
        assert_fits_results_schema(part);
    }
    set
}

/// Runs `shootout ARGS --export-json -`, which must succeed, and returns the results set it printed.
fn results_set(args: &[&str]) -> Value {
    let output = shootout().args(args).args(["--export-json", "-"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    fits_schema(serde_json::from_slice(&output.stdout).unwrap())
}

/// Runs `shootout run ARGS --lang rust,go` and returns the exported results set.
fn run_both(args: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results.json");
    let output = quick_run()
        .args(["--lang", "rust,go"])
        .args(args)
        .arg("--export-json")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("go: measuring on the same"), "{stderr}");
    fits_schema(serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap())
}

/// Both languages' results are in the set, on the same records, and every Go
/// format that can run on `workload` was measured and validated.
fn check_set(set: &Value, workload: &str) {
    assert_eq!(set["schema"], "shootout-results-set/1");
    let parts = set["results"].as_array().unwrap();
    let languages: Vec<&str> =
        parts.iter().map(|p| p["runner"]["language"].as_str().unwrap()).collect();
    assert_eq!(languages, ["rust", "go"]);
    for part in parts {
        assert_eq!(part["schema"], "shootout-results/3");
        assert_eq!(part["workload"]["name"], workload);
        assert_eq!(part["workload"]["records"], parts[0]["workload"]["records"]);
        assert!(names(part, "failed").is_empty(), "{}", part["failed"]);
        assert!(part["environment"]["toolchain"].is_string());
    }
    let go = &parts[1];
    assert_measured(
        go,
        &["baseline", "json-std", "flatbuffers", "protobuf", "capnp-packed", "sbe", "gob"],
    );
    for format in go["formats"].as_array().unwrap() {
        assert!(format["zstd_bytes"].as_u64().unwrap() > 0, "{format}");
    }
    let not_run = names(go, "not_run");
    assert!(not_run.contains(&"ubjson".to_owned()), "{not_run:?}");
}

#[test]
fn user_records_measured_in_rust_and_go_show_as_one_table() {
    let dir = tempfile::tempdir().unwrap();
    let markdown = dir.path().join("tables.md");
    stdout_of(
        quick_run()
            .args(["--workload", "user", "--records", "300"])
            .args(["--lang", "all", "--formats", "flatbuffers,json-std,bincode"])
            .arg("--export-markdown")
            .arg(&markdown)
            .output()
            .unwrap(),
    );
    let tables = std::fs::read_to_string(&markdown).unwrap();
    assert!(tables.contains("| lang |"), "{tables}");
    for row in [
        "| flatbuffers | rust |",
        "| flatbuffers |   go |",
        "| json-std    |   go |",
        "| bincode     | rust |",
    ] {
        assert!(tables.contains(row), "{row} missing:\n{tables}");
    }
}

#[test]
fn every_go_format_validates_on_user_records() {
    check_set(&run_both(&["--workload", "user", "--records", "500"]), "user");
}

#[test]
fn every_go_format_validates_on_a_generated_capture() {
    check_set(&run_both(&["--packets", "400"]), "iex");
}

#[test]
fn a_format_name_only_go_has_runs_only_in_go() {
    let output = quick_run()
        .args(["--workload", "sql", "--records", "50", "--lang", "rust,go"])
        .args(["--formats", "gob", "--export-json", "-"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("--formats names no format of rust: not run"), "{stderr}");
    let results: Value = serde_json::from_slice(&output.stdout).unwrap();
    // One language ran: its results as they are, not a set.
    assert_eq!(results["runner"]["language"], "go");
    assert_eq!(names(&results, "formats"), ["baseline", "gob"]);
}

/// Each language measured in two processes of its own: every run says which
/// process made it, and the summaries count both. `--formats` names a format
/// of each language, so the Rust processes must pick out their own.
#[test]
fn each_language_is_measured_in_the_processes_asked() {
    let set = results_set(&[
        "run",
        "--workload",
        "sql",
        "--records",
        "60",
        "--processes",
        "2",
        "--runs-per-process",
        "2",
        "--warmup",
        "0",
        "--lang",
        "rust,go",
        "--formats",
        "gob,borsh",
    ]);
    let parts = set["results"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    let processes = |runs: &Value| -> Vec<u64> {
        runs.as_array().unwrap().iter().map(|r| r["process"].as_u64().unwrap()).collect()
    };
    for part in parts {
        let language = part["runner"]["language"].as_str().unwrap();
        assert_eq!(part["settings"]["min_processes"], 2, "{language}");
        assert_eq!(processes(&part["runs"]), [0, 0, 1, 1], "{language}");
        for format in part["formats"].as_array().unwrap() {
            let encode = &format["encode"];
            assert_eq!(encode["summary"]["processes"], 2, "{language}");
            let made = processes(&encode["runs"]);
            assert_eq!(made, [0, 0, 1, 1], "{language} {}", format["name"]);
        }
    }
    assert_eq!(names(&parts[0], "formats"), ["baseline", "borsh"]);
    assert_eq!(names(&parts[1], "formats"), ["baseline", "gob"]);
}

#[test]
fn a_name_no_language_has_is_refused_before_any_work() {
    let output = shootout()
        .args(["run", "--workload", "sql", "--lang", "rust,go", "--formats", "morse"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("unknown format 'morse' for workload sql in rust, go"), "{stderr}");
}

#[test]
fn without_go_on_path_one_line_says_what_to_install() {
    let empty = tempfile::tempdir().unwrap();
    let output = shootout()
        .env("PATH", empty.path())
        .args(["run", "--workload", "sql", "--lang", "go"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--lang go needs `go` on PATH: install Go"), "{stderr}");
}

#[test]
fn formats_lists_go_formats_with_versions_and_features() {
    let output = shootout().args(["formats", "--lang", "go", "--json"]).output().unwrap();
    let entries: Value = serde_json::from_str(&stdout_of(output)).unwrap();
    let entry =
        |name: &str| entries.as_array().unwrap().iter().find(|e| e["name"] == name).unwrap();
    let flatbuffers = entry("flatbuffers");
    assert_eq!(flatbuffers["language"], "go");
    assert!(flatbuffers["library_version"].as_str().unwrap().starts_with("v25."), "{flatbuffers}");
    assert_eq!(flatbuffers["features"]["family"], "FlatBuffers");
    let ubjson = entry("ubjson");
    assert!(ubjson["not_run"].as_str().unwrap().contains("no Go UBJSON library"), "{ubjson}");
}

#[test]
fn the_sql_request_in_three_languages() {
    let set = results_set(&[
        "run",
        "--workload",
        "sql",
        "--records",
        "300",
        "--runs",
        "1",
        "--warmup",
        "0",
        "--lang",
        "all",
    ]);
    let parts = set["results"].as_array().unwrap();
    let languages: Vec<&str> =
        parts.iter().map(|p| p["runner"]["language"].as_str().unwrap()).collect();
    assert_eq!(languages, ["rust", "go", "java"]);
    let java = &parts[2];
    assert!(names(java, "failed").is_empty(), "{}", java["failed"]);
    assert_measured(
        java,
        &["java-serialization", "msgpack-raw", "ignite-binary", "kryo", "fory", "protobuf", "sbe"],
    );
    let bytes_per_record = |name: &str| {
        java["formats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == name)
            .unwrap()["bytes_per_record"]
            .as_f64()
            .unwrap()
    };
    // The thin-client study's request is 54 bytes in MessagePack.
    assert_eq!(bytes_per_record("msgpack-raw"), 54.0);
    assert_eq!(names(java, "not_run"), ["avro-generic", "protobuf-dynamic", "capnp"]);
    assert!(java["environment"]["toolchain"].is_string(), "{}", java["environment"]);
}
