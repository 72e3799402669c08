//! The JSON export's shape, pinned three ways on one small run on the
//! generated capture: every key, type and unit by spec/results.schema.json
//! (which the Go and JVM runners' files must fit too); the formats it lists by
//! the registry; and the document itself by a snapshot, with every value that
//! depends on timing or on the machine redacted, so sizes, labels, features,
//! record counts, allocation counts and the keys themselves show in review.
//! The snapshot keeps two format rows, the baseline and [`PINNED_FORMAT`], and
//! one row of a format that does not run, [`PINNED_NOT_RUN`], so it does not
//! change with every format added (a new IDL format that does not map iex is
//! one more row of `not_run`); each format's own facts are pinned by its
//! registry row and spec/formats.json.

use std::sync::LazyLock;

use crate::common::*;
use serde_json::Value;
use shootout::benchmark::baseline::Baseline;
use shootout::catalog::registry;
use shootout::format::Format;
use shootout::workload::iex::Iex;

/// The one format row the snapshot keeps besides the baseline's.
const PINNED_FORMAT: &str = "capnp-packed";

/// The one row of `not_run` the snapshot keeps.
const PINNED_NOT_RUN: &str = "protobuf-dynamic";

/// Values of these keys depend on the clock (or on the order the formats ran in).
const TIMING: &[&str] = &[
    "ns_per_op",
    "ns_per_op_ci",
    "total_ns",
    "round_ns",
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
const MACHINE: &[&str] = &["invocation", "environment", "testbed", "timer"];

/// `run --export-json -` on the generated capture, run once for every test here.
static EXPORT: LazyLock<Value> = LazyLock::new(|| {
    let stdout = stdout_of(
        shootout()
            .args(["run", "--packets", "300", "--runs", "1", "--warmup", "0"])
            .args(["--export-json", "-"])
            .output()
            .unwrap(),
    );
    serde_json::from_str(&stdout).unwrap()
});

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

fn names(entries: &Value) -> Vec<&str> {
    entries.as_array().unwrap().iter().map(|entry| entry["name"].as_str().unwrap()).collect()
}

#[test]
fn the_export_fits_the_results_schema() {
    assert_fits_results_schema(&EXPORT);
}

/// The schema is closed where the document lists the keys: a runner that
/// renames one fails, at the key's own path.
#[test]
fn a_renamed_key_fails_the_schema_at_its_path() {
    let mut renamed = EXPORT.clone();
    let run = renamed["formats"][1]["encode"]["runs"][0].as_object_mut().unwrap();
    let total = run.remove("total_ns").unwrap();
    run.insert("total_nanos".to_owned(), total);
    let errors = results_schema_errors(&renamed);
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with(r#"at "/formats/1/encode/runs/0": "#)
                && e.contains("total_nanos")),
        "{errors:#?}"
    );
}

#[test]
fn the_export_lists_the_baseline_then_every_registered_format_in_registry_order() {
    let registered = registry::iex();
    let (runs, cannot): (Vec<_>, Vec<_>) =
        registered.iter().partition(|f| f.unsupported_reason().is_none());
    let measured: Vec<&str> = std::iter::once(Baseline::<Iex>::INFO.name)
        .chain(runs.iter().map(|f| f.info.name))
        .collect();
    let not_run: Vec<&str> = cannot.iter().map(|f| f.info.name).collect();
    assert_eq!(names(&EXPORT["formats"]), measured);
    assert_eq!(names(&EXPORT["not_run"]), not_run);
}

/// A library allocating where the count cannot see (upb's C malloc) gets no
/// allocation figures, never short ones; every other format gets them, in its
/// summary and in each run.
#[test]
fn allocation_figures_are_left_out_only_where_the_count_cannot_see() {
    let formats = EXPORT["formats"].as_array().unwrap();
    for format in formats {
        let uncounted = format["labels"].get("uncounted_allocations").is_some();
        for direction in ["encode", "decode"] {
            let runs = format[direction]["runs"].as_array().unwrap();
            for figures in runs.iter().chain([&format[direction]["summary"]]) {
                for key in ["allocations_per_op", "allocated_bytes_per_op"] {
                    assert_eq!(
                        figures[key].is_null(),
                        uncounted,
                        "{} {direction} {key}",
                        format["name"]
                    );
                }
            }
        }
    }
    let upb = formats.iter().find(|f| f["name"] == "protobuf-upb").unwrap();
    assert!(upb["labels"]["uncounted_allocations"].as_str().unwrap().contains("malloc"));
}

#[test]
fn json_export_shape() {
    let mut json = EXPORT.clone();
    redact(&mut json, true);
    let formats = json["formats"].as_array_mut().unwrap();
    formats.retain(|f| f["baseline"] == true || f["name"] == PINNED_FORMAT);
    assert_eq!(formats.len(), 2, "the baseline and {PINNED_FORMAT}");
    let not_run = json["not_run"].as_array_mut().unwrap();
    not_run.retain(|f| f["name"] == PINNED_NOT_RUN);
    assert_eq!(not_run.len(), 1, "{PINNED_NOT_RUN} in not_run");
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
