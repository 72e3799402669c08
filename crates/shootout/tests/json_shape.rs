//! The JSON export's shape, pinned: a small run on the generated capture, with
//! every value that depends on timing or on the machine redacted, so sizes,
//! names, labels, features, record counts, allocation counts and the keys
//! themselves are in the snapshot, and any change to them shows in review.

mod common;

use common::*;
use serde_json::Value;

/// Values of these keys depend on the clock (or on the order the formats ran in).
const TIMING: &[&str] = &[
    "ns_per_op",
    "ns_per_op_ci",
    "total_ns",
    "ops_per_s",
    "p50_ns",
    "p90_ns",
    "p99_ns",
    "p999_ns",
    "p50_ns_ci",
    "p90_ns_ci",
    "p99_ns_ci",
    "p999_ns_ci",
    "max_ns",
    "latency_mean_ns",
    "outliers",
    "histogram",
    "order_position",
    "relative",
    "started",
    "wall_ms",
];

/// Top-level sections that describe the machine, the invocation and the clock.
const MACHINE: &[&str] = &["invocation", "environment", "timer"];

fn redact(value: &mut Value, top: bool) {
    match value {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if TIMING.contains(&key.as_str()) || (top && MACHINE.contains(&key.as_str())) {
                    *value = Value::String("[redacted]".into());
                } else {
                    redact(value, false);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| redact(item, false)),
        _ => {}
    }
}

#[test]
fn json_export_shape() {
    let stdout = stdout_of(
        shootout()
            .args(["run", "--packets", "300", "--runs", "1", "--warmup", "0"])
            .args(["--export-json", "-"])
            .output()
            .unwrap(),
    );
    let mut json: Value = serde_json::from_str(&stdout).unwrap();
    redact(&mut json, true);
    // Whether the binary is a debug build, and how busy the machine was, are the machine's, not the format's.
    if let Some(Value::Array(warnings)) = json.get_mut("warnings") {
        warnings.retain(|w| {
            !w.as_str().is_some_and(|w| {
                w.starts_with("a debug build") || w.starts_with("the machine was busy")
            })
        });
    }
    insta::assert_snapshot!(serde_json::to_string_pretty(&json).unwrap());
}
