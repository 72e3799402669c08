//! `run`, its exports and `gen-capture`, as a user runs them.

use crate::common::*;
use serde_json::Value;

/// Every format, on a small capture, in one process (a test's run need not be precise).
const QUICK: [&str; 9] =
    ["run", "--packets", "3000", "--runs", "2", "--warmup", "0", "--throughput-rounds", "1"];

#[test]
fn run_on_the_embedded_default_exports_json_csv_and_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let (json, csv, md) =
        (dir.path().join("r.json"), dir.path().join("r.csv"), dir.path().join("r.md"));
    let table = stdout_of(
        shootout()
            .args(QUICK)
            .arg("--export-json")
            .arg(&json)
            .arg("--export-csv")
            .arg(&csv)
            .arg("--export-markdown")
            .arg(&md)
            .output()
            .unwrap(),
    );
    assert!(
        table.contains("Encode (ns per op)") && table.contains("Decode + aggregate"),
        "{table}"
    );

    let results: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(results["schema"], "shootout-results/3");
    assert!(
        results["workload"]["source"].as_str().unwrap().starts_with("generated DEEP 1.0 capture")
    );
    assert_ne!(results["environment"]["rustc"], "unknown");
    assert!(results["timer"]["empty_region_ns"].is_u64());
    let formats = results["formats"].as_array().unwrap();
    assert!(formats.len() >= 4);
    for format in formats {
        assert_ne!(format["library_version"], "unknown", "{}", format["name"]);
        for direction in ["encode", "decode"] {
            let runs = format[direction]["runs"].as_array().unwrap();
            assert_eq!(runs.len(), 2);
            let ns = &format[direction]["summary"]["ns_per_op"];
            assert!(
                ns["min"].as_f64() <= ns["median"].as_f64()
                    && ns["median"].as_f64() <= ns["max"].as_f64()
            );
            assert!(format[direction]["summary"]["total_ns"]["median"].as_f64().unwrap() > 0.0);
            let ci = &format[direction]["summary"]["ns_per_op_ci"];
            assert!(ci["low"].as_f64() <= ci["high"].as_f64());
        }
    }

    let csv_text = std::fs::read_to_string(&csv).unwrap();
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    assert!(reader.headers().unwrap().iter().any(|h| h == "p999_ns_median"));
    assert_eq!(reader.records().count(), formats.len() * 2);

    let markdown = std::fs::read_to_string(&md).unwrap();
    assert!(markdown.contains("### Encode") && markdown.contains("| format"), "{markdown}");
}

#[test]
fn results_hold_what_reproducing_and_auditing_a_number_needs() {
    use base64::Engine;
    use hdrhistogram::serialization::Deserializer;

    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("small.pcap");
    shootout().args(["gen-capture", "--packets", "400", "--out"]).arg(&capture).assert().success();
    let output = shootout()
        .args([
            "run",
            "--runs",
            "2",
            "--warmup",
            "1",
            "--window",
            "64",
            "--order-seed",
            "9",
            "--formats",
            "sbe,postcard",
        ])
        .arg("--input")
        .arg(&capture)
        .args(["--export-json", "-"])
        .output()
        .unwrap();
    let results: Value = serde_json::from_str(&stdout_of(output)).unwrap();

    let invocation = &results["invocation"];
    assert!(invocation["command_line"].as_array().unwrap().iter().any(|a| a == "--order-seed"));
    assert_eq!(invocation["options"]["window"], 64);
    assert!(invocation["load_before"].is_array() && invocation["load_after"].is_array());
    assert_eq!(
        (&results["settings"]["window"], &results["settings"]["order_seed"]),
        (&64.into(), &9.into())
    );
    assert!(results["timer"]["counter_hz"].as_f64().unwrap() > 0.0);
    let input = &results["workload"]["input"];
    assert_eq!(input["bytes"], std::fs::metadata(&capture).unwrap().len());
    assert_eq!(input["sha256"].as_str().unwrap().len(), 64);
    let runs = results["runs"].as_array().unwrap();
    // More windows than the sample: a validation pass over every record,
    // then the warm-up and the two measured runs on the sample.
    let sampled = &results["workload"]["sampled"];
    assert_eq!(sampled["windows"], 4, "{sampled}");
    assert!(sampled["of_windows"].as_u64().unwrap() > 4, "{sampled}");
    assert_eq!(runs.len(), 4);
    assert!(runs[0]["warmup"] == true && runs[1]["warmup"] == true && runs[2]["warmup"] == false);
    assert!(runs.iter().all(|r| r["started"].is_string() && r["wall_ms"].as_f64().unwrap() > 0.0));

    for format in results["formats"].as_array().unwrap() {
        for direction in ["encode", "decode"] {
            for run in format[direction]["runs"].as_array().unwrap() {
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(run["histogram"].as_str().unwrap())
                    .unwrap();
                let histogram: hdrhistogram::Histogram<u64> =
                    Deserializer::new().deserialize(&mut bytes.as_slice()).unwrap();
                let rounds = results["settings"]["throughput_rounds"].as_u64().unwrap();
                assert_eq!(
                    histogram.len() * rounds,
                    run["ops"].as_u64().unwrap(),
                    "one latency sample per record; every throughput round times every record"
                );
                assert_eq!(histogram.value_at_quantile(0.99), run["p99_ns"].as_u64().unwrap());
                assert!(run["order_position"].is_number());
            }
        }
    }
}

#[test]
fn exports_never_overwrite_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let json = temp_file(&dir, "keep.json", b"precious");
    let output = shootout().args(QUICK).arg("--export-json").arg(&json).output().unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("already exists; pass --force"));
    assert_eq!(std::fs::read(&json).unwrap(), b"precious");

    let output = shootout()
        .args(QUICK)
        .args(["--formats", "sbe", "--export-json"])
        .arg(&json)
        .arg("--force")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(std::fs::read_to_string(&json).unwrap().contains("shootout-results/3"));
}

#[test]
fn json_to_stdout_moves_the_table_to_stderr() {
    let output =
        shootout().args(QUICK).args(["--formats", "sbe", "--export-json", "-"]).output().unwrap();
    assert!(output.status.success());
    let results: Value = serde_json::from_slice(&output.stdout).expect("stdout is pure JSON");
    let names: Vec<&str> = results["formats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"sbe") && names.contains(&"baseline"), "{names:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("Encode (ns per op)"));
}

#[test]
fn unknown_format_is_one_clear_line() {
    let output = shootout().args(["run", "--formats", "sbe,morse"]).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1);
    assert!(stderr.contains("unknown format 'morse'") && stderr.contains("sbe"), "{stderr}");
}

#[test]
fn gen_capture_is_deterministic_spec_shaped_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.pcap"), dir.path().join("b.pcap"));
    for path in [&a, &b] {
        shootout()
            .args(["gen-capture", "--packets", "500", "--seed", "9", "--out"])
            .arg(path)
            .assert()
            .success();
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());

    let again = shootout().args(["gen-capture", "--out"]).arg(&a).output().unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));

    let output = shootout().arg("inspect").arg("--json").arg(&a).output().unwrap();
    assert!(output.status.success());
    assert!(
        output.stderr.is_empty(),
        "a generated capture is clean: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["iex_packets"], 500);
    assert_eq!(report["other_packets"], 1, "one ARP frame, counted and skipped");
    assert_eq!(report["protocols"]["DEEP 1.0"], 500);
    assert!(report["skipped_messages"]["unknown_type"].as_u64().unwrap() >= 1);
    for kind in ["S", "H", "O", "P", "E", "T", "8", "5", "Z"] {
        assert!(report["messages"][kind].as_u64().unwrap_or(0) > 0, "no {kind} messages");
    }
    assert_eq!(report["symbols"].as_object().unwrap().len(), 20);
}

#[test]
fn help_explains_the_commands() {
    let output = shootout().arg("--help").output().unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    for command in ["run", "inspect", "gen-capture"] {
        assert!(help.contains(command), "{help}");
    }
    let output = shootout().args(["run", "--help"]).output().unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    assert!(help.contains("--export-json") && help.contains("--runs"), "{help}");
}

/// The processes a run starts measure what the run was asked: here the first
/// 40 records, not the whole input.
#[test]
fn measuring_processes_take_the_same_records() {
    let output = shootout()
        .args(["run", "--workload", "sql", "--records", "100"])
        .args(["--max-records", "40", "--processes", "2", "--warmup", "0"])
        .args(["--formats", "borsh", "--export-json", "-"])
        .output()
        .unwrap();
    let results: Value = serde_json::from_str(&stdout_of(output)).unwrap();
    assert_eq!(results["workload"]["records"], 40);
    let runs = results["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!((runs[0]["process"].as_u64(), runs[1]["process"].as_u64()), (Some(0), Some(1)));
}

#[test]
fn run_counts_that_contradict_each_other_are_usage_errors() {
    for (args, said) in [
        (
            vec!["--min-processes", "9", "--max-processes", "4"],
            "--max-processes 4 is below --min-processes 9",
        ),
        (vec!["--runs", "3", "--time-per-format", "1"], "cannot be used with"),
        (vec!["--full", "--sample-windows", "4"], "cannot be used with"),
        (vec!["--time-per-format", "0"], "not a number of seconds"),
        (vec!["--processes", "3", "--precision", "5%"], "cannot be used with"),
        (vec!["--runs", "0"], "--runs"),
        (vec!["--processes", "0"], "--processes"),
        (vec!["--runs-per-process", "0"], "--runs-per-process"),
        (vec!["--precision", "0%"], "not a precision"),
    ] {
        let output = shootout().arg("run").args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: ") && stderr.contains(said), "{args:?}: {stderr}");
    }
}
