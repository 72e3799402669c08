//! `--export-gab`: github-action-benchmark's `customSmallerIsBetter` input
//! (<https://github.com/benchmark-action/github-action-benchmark#examples>):
//! a list of `{name, unit, value, range, extra}`, one entry per measure of
//! each benchmark `--export-bmf` writes (the same names and figures), the
//! testbed and the results' provenance in `extra`, which the action shows in
//! its charts' tooltips. spec/gab.schema.json is the format as its README
//! states it.

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use super::bmf;
use crate::results::Merged;

#[derive(Serialize)]
struct Entry {
    name: String,
    unit: &'static str,
    value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    range: Option<String>,
    extra: String,
}

pub fn write(merged: &Merged, out: &mut dyn Write) -> Result<()> {
    let first = merged.first();
    let testbed = first.testbed();
    let provenance = format!(
        "testbed {}: {}\nworkload {} ({}, {} records)\nshootout {} ({})",
        testbed.label(),
        testbed.description(),
        first.workload.name,
        first.workload.source,
        first.workload.records,
        first.environment_text("shootout_version"),
        first.environment_text("git_commit"),
    );
    let entries: Vec<Entry> = bmf::benchmarks(merged)
        .flat_map(|(benchmark, direction, row)| {
            let provenance = &provenance;
            bmf::measures(direction, row).into_iter().map(move |(measure, metric)| Entry {
                name: format!("{benchmark} {measure}"),
                unit: bmf::unit(measure),
                value: metric.value,
                range: metric
                    .lower_value
                    .zip(metric.upper_value)
                    .map(|(low, high)| format!("± {}", (high - low) / 2.0)),
                extra: format!(
                    "95% interval {}\n{provenance}",
                    match (metric.lower_value, metric.upper_value) {
                        (Some(low), Some(high)) => format!("{low} to {high}"),
                        _ => "none (an exact count)".to_owned(),
                    }
                ),
            })
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &entries)?;
    writeln!(out)?;
    Ok(())
}
