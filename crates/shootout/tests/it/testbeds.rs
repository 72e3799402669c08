//! Results from several testbeds: `run --testbed` stamps them, `report`
//! shows two testbeds' files side by side (terminal and HTML, the page
//! checked in headless Chromium), `compare` refuses them unless asked, and
//! the Bencher and github-action-benchmark exports fit the schemas in
//! spec/exports/, as the tools' documentation examples do.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{assert_fits_results_schema, shootout};
use crate::html_report::rendered_in_chromium;

fn json_file(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every place `document` departs from the schema `spec/exports/NAME`.
fn schema_errors(name: &str, document: &Value) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/exports").join(name);
    let schema = json_file(&path);
    let validator = jsonschema::draft202012::new(&schema).expect("a draft 2020-12 schema");
    validator
        .iter_errors(document)
        .map(|e| format!("at {}: {e}", e.instance_path().as_str()))
        .collect()
}

/// A quick run of the sql workload on testbed `name`, with `extra` options.
fn run(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let path = dir.join(format!("{name}.json"));
    shootout()
        .args(["run", "--workload", "sql", "--records", "200", "--runs", "2", "--warmup", "0"])
        .args(["--formats", "postcard,bincode,json-serde_json"])
        .args(["--testbed", name])
        .args(extra)
        .arg("--export-json")
        .arg(&path)
        .assert()
        .success();
    path
}

#[test]
fn the_documentations_examples_fit_the_export_schemas() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/exports");
    for (schema, example) in
        [("bmf.schema.json", "bmf-docs-example.json"), ("gab.schema.json", "gab-docs-example.json")]
    {
        let errors = schema_errors(schema, &json_file(&examples.join(example)));
        assert!(errors.is_empty(), "{example}: {errors:?}");
    }
    // And the schemas are not vacuous: a metric without its value fits neither.
    assert!(
        !schema_errors("bmf.schema.json", &serde_json::json!({"b": {"latency": {}}})).is_empty()
    );
    assert!(
        !schema_errors("gab.schema.json", &serde_json::json!([{"name": "b", "value": 1}]))
            .is_empty()
    );
}

#[test]
fn run_stamps_the_testbed_and_writes_bencher_and_action_files() {
    let dir = tempfile::tempdir().unwrap();
    let (bmf, gab) = (dir.path().join("bmf.json"), dir.path().join("gab.json"));
    let results = run(
        dir.path(),
        "ci-x86",
        &["--export-bmf", bmf.to_str().unwrap(), "--export-gab", gab.to_str().unwrap()],
    );
    let results = json_file(&results);
    assert_fits_results_schema(&results);
    let testbed = &results["testbed"];
    assert_eq!(testbed["name"], "ci-x86");
    assert_eq!(testbed["source"], "run");
    assert_eq!(testbed["fingerprint"].as_str().unwrap().len(), 16, "{testbed}");

    let bmf = json_file(&bmf);
    assert_eq!(schema_errors("bmf.schema.json", &bmf), Vec::<String>::new());
    let decode = &bmf["sql/rust/postcard/decode"];
    assert!(decode.is_object(), "one benchmark per workload/language/format/direction: {bmf}");
    for measure in ["latency", "relative-cost", "p99-ns", "bytes-per-record", "allocations-per-op"]
    {
        assert!(decode[measure]["value"].is_number(), "no {measure}: {decode}");
    }
    let latency = &decode["latency"];
    assert!(latency["lower_value"].as_f64() <= latency["value"].as_f64());
    assert!(latency["value"].as_f64() <= latency["upper_value"].as_f64());
    assert!(
        bmf.as_object().unwrap().keys().all(|k| !k.contains("/baseline/")),
        "the floor row is no format"
    );

    let gab = json_file(&gab);
    assert_eq!(schema_errors("gab.schema.json", &gab), Vec::<String>::new());
    let entry = gab
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "sql/rust/postcard/decode latency")
        .expect("the BMF measures, one entry each");
    assert_eq!(entry["unit"], "ns");
    assert!(entry["extra"].as_str().unwrap().contains("testbed ci-x86"), "{entry}");
}

#[test]
fn report_and_compare_take_two_testbeds_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let (x86, arm) = (run(dir.path(), "x86", &[]), run(dir.path(), "arm", &[]));
    let page = dir.path().join("across.html");
    let both = dir.path().join("both.json");
    let output = shootout()
        .arg("report")
        .args([&x86, &arm])
        .arg("--export-html")
        .arg(&page)
        .arg("--export-json")
        .arg(&both)
        .assert()
        .success();
    let stdout = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    for expected in
        ["== testbed x86: ", "== testbed arm: ", "Across testbeds: sql, 200 records", "#1"]
    {
        assert!(stdout.contains(expected), "no {expected:?} in:\n{stdout}");
    }
    assert!(
        stdout.contains("no format changes rank") || stdout.contains("rank changes:"),
        "{stdout}"
    );
    // The JSON keeps each part with its testbed, and reads back as the same two.
    let set = json_file(&both);
    let names: Vec<&str> = set["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["testbed"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["x86", "arm"]);
    if let Some(dom) = rendered_in_chromium(&page) {
        for expected in [
            "<section id=\"testbeds\"",
            "id=\"rank-changes\"",
            "x86: its own figures",
            "arm: its own figures",
        ] {
            assert!(dom.contains(expected), "no {expected} in the page");
        }
    }

    // One testbed's exports are refused in one line.
    let refused = shootout()
        .arg("report")
        .args([&x86, &arm])
        .arg("--export-bmf")
        .arg(dir.path().join("no.bmf.json"))
        .assert()
        .failure();
    let stderr = String::from_utf8(refused.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--export-bmf: the files hold results of 2 testbeds (x86, arm)"),
        "{stderr}"
    );
    assert!(!dir.path().join("no.bmf.json").exists());

    let refused = shootout().args(["compare"]).args([&x86, &arm]).assert().failure();
    let stderr = String::from_utf8(refused.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("pass --across-testbeds to compare relative costs only"), "{stderr}");
    let compared = shootout()
        .args(["compare", "--across-testbeds", "--json"])
        .args([&x86, &arm])
        .assert()
        .success();
    let across: Value = serde_json::from_slice(&compared.get_output().stdout).unwrap();
    assert_eq!(across["schema"], "shootout-testbeds/1");
    let cell = &across["rows"][0]["cells"][1]["cost"];
    assert!(cell["value"].as_f64().unwrap() > 0.0, "{across}");
}

#[test]
fn a_file_from_before_testbeds_is_on_the_testbed_its_environment_describes() {
    let dir = tempfile::tempdir().unwrap();
    let path = run(dir.path(), "named", &[]);
    let mut old = json_file(&path);
    old.as_object_mut().unwrap().remove("testbed");
    let old_path = dir.path().join("old.json");
    std::fs::write(&old_path, old.to_string()).unwrap();
    let output =
        shootout().arg("report").arg(&old_path).arg("--export-json").arg("-").assert().success();
    let read: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    assert_eq!(read["testbed"]["source"], "environment");
    assert_eq!(read["testbed"]["name"], Value::Null);
    assert_eq!(read["testbed"]["fingerprint"], json_file(&path)["testbed"]["fingerprint"]);
}
