//! `--export-bmf`: Bencher Metric Format (<https://bencher.dev/docs/reference/bencher-metric-format>),
//! what `bencher run --adapter json --file F` uploads: one benchmark per
//! workload, language, format and direction (`iex/rust/capnp-packed/decode`),
//! each with its measures, smaller better in all. The testbed is Bencher's
//! own dimension (`bencher run --testbed`), so a file holds one testbed's
//! results; spec/bmf.schema.json is the format as its documentation states it.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use crate::document::Direction;
use crate::results::{Merged, Row};

/// One measure's figure: the value and, when there is one, its 95 % interval.
#[derive(Serialize)]
pub struct Metric {
    pub value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upper_value: Option<f64>,
}

impl Metric {
    fn exact(value: f64) -> Metric {
        Metric { value, lower_value: None, upper_value: None }
    }

    fn within(value: f64, low: f64, high: f64) -> Metric {
        Metric { value, lower_value: Some(low), upper_value: Some(high) }
    }
}

/// Every measured format (the baseline row is no format) and direction of
/// `merged`, as (benchmark name, direction, row).
pub fn benchmarks(merged: &Merged) -> impl Iterator<Item = (String, &Direction, &Row)> {
    let workload = &merged.first().workload.name;
    merged.rows.iter().filter(|row| !row.format.baseline).flat_map(move |row| {
        [("encode", &row.format.encode), ("decode", &row.format.decode)].into_iter().map(
            move |(name, direction)| {
                (format!("{workload}/{}/{}/{name}", row.language, row.format.name), direction, row)
            },
        )
    })
}

/// A benchmark's measures, by Bencher measure slug: `latency` (Bencher's
/// own, in ns: ns/op with its interval), `relative-cost` (against the other
/// formats of its run, the figure that compares across testbeds), `p99-ns`,
/// `bytes-per-record`, `allocations-per-op` (when the runner counts them)
/// and `instructions-per-op` (when the run counted them, `run --instructions`).
pub fn measures(direction: &Direction, row: &Row) -> BTreeMap<&'static str, Metric> {
    let (summary, cost) = (&direction.summary, &direction.relative.cost);
    let mut measures = BTreeMap::from([
        (
            "latency",
            Metric::within(
                summary.ns_per_op.median,
                summary.ns_per_op_ci.low,
                summary.ns_per_op_ci.high,
            ),
        ),
        ("relative-cost", Metric::within(cost.value, cost.interval.low, cost.interval.high)),
        (
            "p99-ns",
            Metric::within(summary.p99_ns.median, summary.p99_ns_ci.low, summary.p99_ns_ci.high),
        ),
        ("bytes-per-record", Metric::exact(row.format.bytes_per_record)),
    ]);
    if let Some(allocations) = summary.allocations_per_op {
        measures.insert("allocations-per-op", Metric::exact(allocations.median));
    }
    if let Some(instructions) = summary.instructions_per_op {
        measures.insert("instructions-per-op", Metric::exact(instructions));
    }
    measures
}

/// Each measure's unit, as github-action-benchmark labels its charts.
pub fn unit(measure: &str) -> &'static str {
    match measure {
        "latency" | "p99-ns" => "ns",
        "relative-cost" => "x",
        "bytes-per-record" => "bytes",
        "allocations-per-op" => "allocations",
        "instructions-per-op" => "instructions",
        _ => "",
    }
}

pub fn write(merged: &Merged, out: &mut dyn Write) -> Result<()> {
    let document: BTreeMap<String, BTreeMap<&str, Metric>> =
        benchmarks(merged).map(|(name, direction, row)| (name, measures(direction, row))).collect();
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)?;
    Ok(())
}
