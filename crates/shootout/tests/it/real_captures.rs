//! The published facts of the shared IEX samples. Skipped (with a printed
//! reason) only when ../shared/data is absent.

use crate::common::*;
use serde_json::Value;

/// The report of `inspect --json`, which must succeed, and its warnings.
fn inspect_json(path: &std::path::Path) -> (Value, String) {
    let output = shootout().args(["inspect", "--json"]).arg(path).output().unwrap();
    let warnings = String::from_utf8(output.stderr.clone()).unwrap();
    (serde_json::from_str(&stdout_of(output)).unwrap(), warnings)
}

#[test]
fn deep10_matches_the_published_facts() {
    let Some(path) = shared_capture("DEEP10.pcap.gz") else {
        return;
    };
    let (report, stderr) = inspect_json(&path);
    assert_eq!(report["packets"], 121_314);
    assert!(
        stderr.contains("final record cut short"),
        "the truncated final packet is a warning: {stderr}"
    );
    assert_eq!(report["protocols"]["DEEP 1.0"], 121_314);
    let expected = [
        ("T", 83_343),
        ("8", 12_941),
        ("5", 14_627),
        ("H", 93_638),
        ("O", 93_638),
        ("P", 93_636),
        ("B", 73),
        ("E", 59),
        ("S", 44),
    ];
    let messages = report["messages"].as_object().unwrap();
    assert_eq!(messages.len(), expected.len(), "{messages:?}");
    for (kind, count) in expected {
        assert_eq!(messages[kind], count, "message type {kind}");
    }
    assert_eq!(report["messages_total"], 391_999);

    let symbols = report["symbols"].as_object().unwrap();
    assert_eq!(symbols.len(), 20);
    let volume: u64 = symbols.values().map(|s| s["trade_volume"].as_u64().unwrap()).sum();
    assert_eq!(volume, 19_782_510);
    let msft = &symbols["MSFT"];
    assert_eq!(msft["trade_volume"], 2_238_615);
    assert_eq!(
        (msft["bid_low"].as_i64(), msft["bid_high"].as_i64()),
        (Some(239_700), Some(367_800))
    );
    assert_eq!(
        (msft["ask_low"].as_i64(), msft["ask_high"].as_i64()),
        (Some(290_300), Some(367_800))
    );
}

#[test]
fn tops16_matches_the_published_facts() {
    let Some(path) = shared_capture("TOPS16.pcapng.gz") else {
        return;
    };
    let (report, _) = inspect_json(&path);
    assert_eq!(report["packets"], 13_022);
    assert_eq!(report["protocols"]["TOPS 1.6"], 13_022);
    assert_eq!(report["messages_total"], 57_674);
    for (kind, count) in [("Q", 27_217), ("T", 6_390), ("A", 642), ("D", 10)] {
        assert_eq!(report["messages"][kind], count, "message type {kind}");
    }
    // Quotes feed both sides: every listed symbol has a trade or a quoted side.
    for (symbol, stats) in report["symbols"].as_object().unwrap() {
        let quoted = ["bid_low", "ask_low"].iter().any(|k| !stats[*k].is_null());
        assert!(quoted || stats["trade_volume"].as_u64() > Some(0), "{symbol}: {stats}");
    }
}

#[test]
fn deep10_run_validates_every_format() {
    let Some(path) = shared_capture("DEEP10.pcap.gz") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("deep10.json");
    stdout_of(
        quick_run().arg("--input").arg(&path).arg("--export-json").arg(&json).output().unwrap(),
    );
    let results: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(
        results["workload"]["records"], 108_827,
        "packets with a trade or price level update"
    );
    let formats = results["formats"].as_array().unwrap();
    let listed = shootout().args(["formats", "--json"]).output().unwrap();
    // Every format but those made from a run's schema (labelled dynamic), which run
    // only jsonl and csv.
    let registered = serde_json::from_slice::<Value>(&listed.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["labels"]["api"] != "dynamic")
        .count();
    assert_eq!(results["failed"], serde_json::json!([]), "every format validated");
    assert_eq!(formats.len(), registered + 1, "every registered format ran, beside the baseline");
    for format in formats {
        assert!(format["encoded_bytes"].as_u64().unwrap() > 0);
    }
}
