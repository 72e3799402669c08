//! `shootout robustness` as a user runs it: the table, the JSON, the
//! reproducers and their replay, the allocation cap.

use crate::common::*;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};

const CASES: u64 = 60;

#[test]
fn classifies_every_case_of_every_format_and_replays_its_findings() {
    let dir = tempfile::tempdir().unwrap();
    let json_path = dir.path().join("robustness.json");
    let output = shootout()
        .current_dir(dir.path())
        .args([
            "robustness",
            "--packets",
            "300",
            "--sample",
            "12",
            "--cases",
            &CASES.to_string(),
            "--formats",
            "sbe,bincode,json-serde_json,rkyv,rkyv-unchecked",
            "--reproducers",
            "found",
            "--export-json",
        ])
        .arg(&json_path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let table = String::from_utf8(output.stdout).unwrap();
    for column in ["rejected", "same", "silent", "panic", "hang", "alloc-bomb", "crash"] {
        assert!(table.contains(column), "{column}: {table}");
    }
    assert!(
        table.contains("not tested: rkyv-unchecked"),
        "an unchecked format is listed, not fed: {table}"
    );

    let results: Value = serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
    assert_eq!(results["schema"], "shootout-robustness/1");
    assert_eq!(results["workload"], "iex");
    assert_eq!(results["cases_per_format"], CASES);
    let formats = results["formats"].as_array().unwrap();
    let names: Vec<&str> = formats.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["sbe", "json-serde_json", "bincode", "rkyv", "rkyv-unchecked"]);
    for format in formats {
        let name = format["name"].as_str().unwrap();
        if name == "rkyv-unchecked" {
            assert!(format["not_tested"].as_str().unwrap().contains("UNCHECKED"));
            continue;
        }
        assert_eq!(format["cases"], CASES, "{name}");
        let counted: u64 =
            format["counts"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
        assert_eq!(counted, CASES, "{name}: every case has one class");
        let by_mutation: u64 = format["by_mutation"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|classes| classes.as_object().unwrap().values())
            .map(|n| n.as_u64().unwrap())
            .sum();
        assert_eq!(by_mutation, CASES, "{name}");
        assert!(
            format["counts"]["rejected"].as_u64().unwrap() > 0,
            "{name}: some hostile input is refused"
        );
        // One reproducer per finding class, and it runs again to the same class.
        for class in ["silent", "panic", "hang", "alloc-bomb", "crash"] {
            let found = format["counts"][class].as_u64().unwrap();
            let reproducers: Vec<&Value> = format["reproducers"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| r["class"] == class)
                .collect();
            assert_eq!(reproducers.len(), usize::from(found > 0), "{name} {class}");
            for reproducer in reproducers {
                let file = dir.path().join(reproducer["file"].as_str().unwrap());
                let replay =
                    shootout().args(["robustness", "--replay"]).arg(&file).output().unwrap();
                assert!(replay.status.success());
                let said = String::from_utf8(replay.stdout).unwrap();
                assert!(
                    said.contains(&format!(": {class}")) && said.contains("(reproduced)"),
                    "{said}"
                );
            }
        }
    }
    let rkyv = &formats[3];
    let cost = &rkyv["validation"];
    assert_eq!(cost["unchecked_format"], "rkyv-unchecked");
    assert!(cost["validated_ns_per_record"].as_f64().unwrap() > 0.0);
    assert!(cost["unchecked_ns_per_record"].as_f64().unwrap() > 0.0);

    // The same directory again: refused, nothing overwritten.
    let again = shootout()
        .current_dir(dir.path())
        .args(["robustness", "--packets", "300", "--cases", "5"])
        .args(["--reproducers", "found"])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1));
    let error = String::from_utf8(again.stderr).unwrap();
    assert!(error.contains("already exists and is not empty"), "{error}");
    assert_eq!(error.lines().count(), 1, "{error}");
}

/// The first record of the generated primitives workload (seed 1) as
/// flexbuffers encodes it; at byte 60 its `longs` vector's length (8, a u32).
const FLEXBUFFERS_PRIMITIVES_RECORD: &str = "YgEAAGludHMAAAAACAAAAF21P/yicwsLMx9ENcoUWTwD+uJMh/ggPi/pdxyaHrFLbG9uZ3MAAAAAAAAACAAAAAAAAABtfqfAIXd++ephExMILCB8LTFoBe12AoEimo0mHwMIlHUFEFk2keQaSa8/4VVM7wWcO+P52aV+HnWD3TpauZiWZG91YmxlcwAIAAAAAAAAAIjSW9AYLsBBOJZHyoY9sUFGaalF3QrDQWTANM5uJcTBxKympX0Ew8H4lhWOeKSowQEc/YuHUr3BoEGYUC6Io0Fib29sZWFucwAIAAEAAQEAAABzdHJpbmdzAAtoeGdqazdyOEdrVwAHVUxPS2NJZwAFanJXQnUACWN2eW13M0puWQAIcXI1eE9jT2oABVp6Sjd6AAI3cwADcEtCAAhCNi4oHhUPDBQUFBQUFBQUAAUAcADCAEQBGgFmAAoAAgAFAHYAwgBIARYBKwCQNy4vKA8lAQ==";

#[test]
fn a_decode_past_the_allocation_cap_is_an_alloc_bomb_and_the_harness_goes_on() {
    let record = BASE64.decode(FLEXBUFFERS_PRIMITIVES_RECORD).unwrap();
    assert_eq!(record[60..64], 8u32.to_le_bytes());
    let mut inflated = record.clone();
    inflated[60..64].copy_from_slice(&u32::MAX.to_le_bytes());
    let case = |id: usize, bytes: &[u8]| {
        json!({
            "id": id, "record": 0, "kind": "inflate-length",
            "description": "the longs vector's length set to 4294967295",
            "bytes": BASE64.encode(bytes),
        })
    };
    let file = json!({
        "schema": "shootout-robustness-cases/1",
        "workload": "primitives",
        "format": "flexbuffers",
        "seed": 1,
        "source": "tests/it/robustness.rs",
        "time_limit_ms": 10_000,
        "alloc_cap_bytes": 64 << 20,
        "records": [{"operation": 0, "bytes": FLEXBUFFERS_PRIMITIVES_RECORD}],
        // The clean record after the bomb: a new worker takes it.
        "cases": [case(0, &inflated), case(1, &record)],
    });
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bomb.json");
    std::fs::write(&path, file.to_string()).unwrap();
    let output = shootout().args(["robustness", "--replay"]).arg(&path).output().unwrap();
    assert!(output.status.success());
    let said = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 2, "{said}");
    assert!(
        lines[0].contains("case 0")
            && lines[0].contains(": alloc-bomb: shootout: allocation cap exceeded"),
        "{said}"
    );
    assert!(lines[1].contains("case 1") && lines[1].ends_with(": same"), "{said}");
}

#[test]
fn a_file_that_is_no_case_file_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("not-a-case.json");
    std::fs::write(&path, "{}").unwrap();
    let output = shootout().args(["robustness", "--replay"]).arg(&path).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let error = String::from_utf8(output.stderr).unwrap();
    assert!(error.contains("not a robustness case file"), "{error}");
    assert_eq!(error.lines().count(), 1, "{error}");
}

#[test]
fn a_case_relabelled_to_an_unchecked_format_is_refused_before_any_decode() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rkyv-unchecked-crash.json");
    let case_file = json!({
        "schema": "shootout-robustness-cases/1",
        "workload": "user",
        "format": "rkyv-unchecked",
        "seed": 1,
        "source": "relabelled by hand",
        "time_limit_ms": 1000,
        "alloc_cap_bytes": 1 << 26,
        "records": [{ "operation": 0, "bytes": "AAAAAA==" }],
        "cases": [{
            "id": 0,
            "record": 0,
            "kind": "inflate-length",
            "description": "a length inflated to 2^32-1",
            "bytes": "/////w=="
        }]
    });
    std::fs::write(&path, serde_json::to_vec(&case_file).unwrap()).unwrap();
    // The replay, and a worker started by hand on the same file.
    for flag in ["--replay", "--worker"] {
        let output = shootout().args(["robustness", flag]).arg(&path).output().unwrap();
        assert_eq!(output.status.code(), Some(1), "{flag}");
        assert!(output.stdout.is_empty(), "{flag}: nothing decoded");
        let error = String::from_utf8(output.stderr).unwrap();
        assert_eq!(error.lines().count(), 1, "{flag}: {error}");
        assert!(
            error.contains(
                "rkyv-unchecked skips validation (UNCHECKED) and reads only bytes its own process wrote"
            ) && error.contains("its validated sibling rkyv can replay them"),
            "{flag}: {error}"
        );
    }
}
