//! `--workload jsonl` and `--workload csv` as a user runs them: the generated
//! events and orders, their own JSON Lines or CSV file (and standard input),
//! the values some libraries lose named per format, columns' types inferred or
//! given, and bad input refused with its line and column.

use crate::common::*;
use serde_json::Value;

fn names(results: &Value, key: &str) -> Vec<String> {
    let mut names: Vec<String> = results[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap().to_owned())
        .collect();
    names.sort_unstable();
    names
}

#[test]
fn the_generated_events_run_every_schemaless_format_and_the_rest_say_why() {
    let output = quick_run()
        .args(["--workload", "jsonl", "--records", "300", "--export-json", "-"])
        .output()
        .unwrap();
    let results: Value = serde_json::from_str(&stdout_of(output)).unwrap();
    assert_eq!(results["workload"]["name"], "jsonl");
    assert_eq!(results["workload"]["records"], 300);
    assert_eq!(results["failed"], serde_json::json!([]));
    assert_eq!(
        names(&results, "formats"),
        [
            "baseline",
            "bson",
            "cbor-ciborium",
            "flexbuffers",
            "json-serde_json",
            "json-simd-json-serde",
            "json-sonic-rs",
            "msgpack-map",
            "ubjson"
        ]
    );
    let not_run = results["not_run"].as_array().unwrap();
    let reason = |name: &str| {
        not_run.iter().find(|n| n["name"] == name).unwrap()["reason"].as_str().unwrap().to_owned()
    };
    assert!(reason("protobuf-prost").contains("schema format"));
    assert!(reason("bincode").contains("not self-describing"));
}

#[test]
fn each_format_that_loses_a_value_is_named_with_what_it_lost() {
    let dir = tempfile::tempdir().unwrap();
    let deep = format!("{}{}", "[".repeat(150), "]".repeat(150));
    let text = format!(
        "{{\"id\":1152921504606846976,\"name\":\"ünï\"}}\n\n{{\"z\":-0.0,\"tiny\":5e-324}}\n{{\"deep\":{deep}}}\n"
    );
    let path = temp_file(&dir, "events.jsonl", text.as_bytes());
    let output = quick_run()
        .args(["--workload", "jsonl", "--export-json", "-", "--input"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3), "{}", String::from_utf8_lossy(&output.stderr));
    let results: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(results["workload"]["records"], 3, "the blank line is no record");
    let reason = |name: &str| {
        let failed = results["failed"].as_array().unwrap();
        failed.iter().find(|f| f["name"] == name).map(|f| f["reason"].as_str().unwrap().to_owned())
    };
    assert_eq!(names(&results, "failed"), ["json-serde_json", "json-sonic-rs", "ubjson"]);
    assert!(reason("json-serde_json").unwrap().contains("recursion limit exceeded"));
    assert!(reason("json-sonic-rs").unwrap().contains("-0.0: 1 in the input, 0 decoded"));
    assert!(reason("ubjson").unwrap().contains("containers nested more than 128 deep"));
    assert!(results["workload"]["input"]["sha256"].is_string());
}

#[test]
fn standard_input_is_read_as_a_file_is() {
    let output = quick_run()
        .args(["--workload", "jsonl", "--formats", "json-serde_json", "--export-json", "-"])
        .args(["--input", "-"])
        .write_stdin("{\"a\":[1,2.5,\"x\",null,true]}\n[]\n\"s\"\n")
        .output()
        .unwrap();
    let results: Value = serde_json::from_str(&stdout_of(output)).unwrap();
    assert_eq!(results["workload"]["records"], 3);
    assert_eq!(names(&results, "formats"), ["baseline", "json-serde_json"]);
}

#[test]
fn a_line_that_is_not_one_json_value_is_one_error_line_with_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8], &str); 4] = [
        ("comma.jsonl", b"{}\n[1,]\n", "comma.jsonl: line 2, column 4: trailing comma"),
        ("two.jsonl", b"{} {}\n", "two.jsonl: line 1, column 4: trailing characters"),
        ("inf.jsonl", b"{}\n\n1e400\n", "inf.jsonl: line 3, column"),
        ("utf8.jsonl", b"\"\xc3\xa9\"\n\"\xff\"\n", "utf8.jsonl: line 2, column"),
    ];
    for (name, text, expected) in cases {
        let path = temp_file(&dir, name, text);
        let output =
            shootout().args(["run", "--workload", "jsonl", "--input"]).arg(&path).output().unwrap();
        assert!(!output.status.success());
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
}

#[test]
fn any_csv_runs_with_its_columns_types_inferred_and_printed() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("orders.csv");
    shootout()
        .args(["gen-csv", "--workload", "csv", "--records", "200", "--out"])
        .arg(&csv)
        .assert()
        .success();
    let output = quick_run()
        .args(["--workload", "csv", "--export-json", "-", "--input"])
        .arg(&csv)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        stderr.contains("orders.csv: 9 columns: order_id (integer), customer (text), email (text), amount (float), quantity (integer), paid (boolean), coupon (text), created_at (text), weight_kg (float)"),
        "{stderr}"
    );
    let results: Value = serde_json::from_str(&stdout_of(output)).unwrap();
    assert_eq!(results["workload"]["name"], "csv");
    assert_eq!(results["workload"]["records"], 200);
    assert_eq!(results["failed"], serde_json::json!([]));
    assert!(names(&results, "formats").contains(&"cbor-ciborium".to_owned()));
}

#[test]
fn a_given_column_type_overrides_the_inferred_one_and_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let csv = temp_file(&dir, "zip.csv", b"zip,city\n02139,Cambridge\n10001,New York\n");
    let run = |types: &str| {
        quick_run()
            .args(["--workload", "csv", "--column-types", types, "--export-json", "-", "--input"])
            .arg(&csv)
            .output()
            .unwrap()
    };
    // A leading zero keeps zip text when inferred; given as integer, it reads as a number.
    let output = run("zip=integer");
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("zip.csv: 2 columns: zip (integer), city (text)")
    );
    assert_eq!(
        serde_json::from_str::<Value>(&stdout_of(output)).unwrap()["failed"],
        serde_json::json!([])
    );
    let output = run("city=integer");
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("zip.csv: line 2, column 2 (city): 'Cambridge' is not an integer (the column is integer)"),
        "{stderr}"
    );
}

fn spec_fixture(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../spec/fixtures").join(name)
}

#[test]
fn a_schema_adds_its_dynamic_format_and_every_format_runs_the_typed_records() {
    for (schema, runs, other) in [
        ("events.proto", "protobuf-dynamic", "avro-generic"),
        ("events.avsc", "avro-generic", "protobuf-dynamic"),
    ] {
        let output = quick_run()
            .args(["--workload", "jsonl", "--records", "300", "--export-json", "-", "--schema"])
            .arg(spec_fixture(schema))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(stderr.contains(&format!("every record fits {schema}")), "{stderr}");
        let results: Value = serde_json::from_str(&stdout_of(output)).unwrap();
        assert_fits_results_schema(&results);
        assert_eq!(results["failed"], serde_json::json!([]));
        let format = results["formats"].as_array().unwrap().iter().find(|f| f["name"] == runs);
        assert_eq!(format.unwrap()["labels"]["api"], "dynamic", "{schema}");
        assert!(names(&results, "formats").contains(&"json-serde_json".to_owned()));
        assert!(names(&results, "not_run").contains(&other.to_owned()), "{schema}");
    }
}

#[test]
fn records_that_do_not_fit_the_schema_are_named_one_line_each() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(
        &dir,
        "bad.jsonl",
        b"{\"id\":5}\n\n{\"id\":\"x\",\"user\":{\"roles\":[1]},\"nope\":2}\n",
    );
    let output = shootout()
        .args(["run", "--workload", "jsonl", "--input"])
        .arg(&path)
        .arg("--schema")
        .arg(spec_fixture("events.proto"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    let name = path.display().to_string();
    assert_eq!(
        lines,
        [
            format!("{name}: line 3: id: \"x\" is a string, the field is int64"),
            format!("{name}: line 3: user.roles[0]: 1 is an integer, the field is string"),
            format!("{name}: line 3: nope: no such field in message shootout.events.Event"),
            format!(
                "error: {name}: 1 record does not fit events.proto (message shootout.events.Event) (the violations above)"
            ),
        ]
    );
}

#[test]
fn a_schema_that_cannot_be_used_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let broken =
        temp_file(&dir, "broken.proto", b"syntax = \"proto3\";\nmessage A {\n  int32 x = 1\n}\n");
    let two = temp_file(&dir, "two.proto", b"syntax = \"proto3\";\nmessage A {}\nmessage B {}\n");
    let cases = [
        (
            vec!["--workload", "jsonl", "--schema", broken.to_str().unwrap()],
            "broken.proto: line 4, column 1: expected ';' or '['",
        ),
        (
            vec!["--workload", "jsonl", "--schema", two.to_str().unwrap()],
            "two.proto: 2 messages could be the record (A, B); name one with --schema two.proto#Message",
        ),
        (
            vec!["--workload", "jsonl", "--schema", "events.json"],
            "--schema events.json: expected a .proto",
        ),
        (vec!["--workload", "csv", "--schema", "x.proto"], "--schema is for --workload jsonl"),
    ];
    for (args, expected) in cases {
        let output = shootout().arg("run").args(&args).output().unwrap();
        assert!(!output.status.success());
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
}

#[test]
fn a_csv_runs_the_schema_formats_with_the_schemas_its_columns_give() {
    let dir = tempfile::tempdir().unwrap();
    let csv = temp_file(&dir, "named.csv", b"id,price,ok,note\n1,2.5,true,a\n2,,false,\n");
    let output = quick_run()
        .args(["--workload", "csv", "--export-json", "-", "--input"])
        .arg(&csv)
        .output()
        .unwrap();
    let results: Value = serde_json::from_str(&stdout_of(output)).unwrap();
    assert_eq!(results["failed"], serde_json::json!([]));
    let formats = names(&results, "formats");
    assert!(
        formats.contains(&"protobuf-dynamic".to_owned())
            && formats.contains(&"avro-generic".to_owned()),
        "{formats:?}"
    );
    let spaced = temp_file(&dir, "spaced.csv", b"id,unit price\n1,2.5\n");
    let output = quick_run()
        .args(["--workload", "csv", "--export-json", "-", "--input"])
        .arg(&spaced)
        .output()
        .unwrap();
    let results: Value = serde_json::from_str(&stdout_of(output)).unwrap();
    let reason = results["not_run"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == "avro-generic")
        .unwrap()["reason"]
        .clone();
    assert_eq!(
        reason,
        "the csv's columns give no schema: column 'unit price' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)"
    );
}

#[test]
fn robustness_workers_decode_with_the_run_s_schema() {
    let dir = tempfile::tempdir().unwrap();
    let output = shootout()
        .current_dir(dir.path())
        .args(["robustness", "--workload", "jsonl", "--records", "20", "--cases", "20"])
        .args(["--formats", "protobuf-dynamic", "--schema"])
        .arg(spec_fixture("events.proto"))
        .output()
        .unwrap();
    let stdout = stdout_of(output);
    assert!(stdout.contains("│ protobuf-dynamic"), "{stdout}");
    assert!(!stdout.contains("not tested"), "{stdout}");
}
