//! The results as tables: one per direction plus sizes. The same tables render
//! to the terminal and, with a Markdown style, to `--export-markdown`.

use comfy_table::presets::{ASCII_MARKDOWN, UTF8_BORDERS_ONLY};
use comfy_table::{CellAlignment, Table, TableStyle};

use crate::benchmark::stats::{Spread, Summary};
use crate::results::{FormatResult, Results};

#[derive(Clone, Copy)]
pub enum Style {
    Terminal,
    Markdown,
}

impl Style {
    fn preset(self) -> TableStyle {
        match self {
            Style::Terminal => UTF8_BORDERS_ONLY,
            Style::Markdown => ASCII_MARKDOWN,
        }
    }
}

fn ns(value: f64) -> String {
    format!("{value:.0}")
}

fn ms(ns: f64) -> String {
    format!("{:.2}", ns / 1e6)
}

fn with_range(spread: Spread, show: fn(f64) -> String) -> String {
    format!("{} ({}–{})", show(spread.median), show(spread.min), show(spread.max))
}

fn si(value: f64) -> String {
    match value {
        v if v >= 1e9 => format!("{:.2}G", v / 1e9),
        v if v >= 1e6 => format!("{:.2}M", v / 1e6),
        v if v >= 1e3 => format!("{:.1}k", v / 1e3),
        v => format!("{v:.0}"),
    }
}

fn allocations(value: f64) -> String {
    if value == 0.0 { "0".into() } else { format!("{value:.2}") }
}

fn new_table(style: Style, header: &[&str]) -> Table {
    let mut table = Table::new();
    table.load_style(style.preset());
    table.set_header(header.to_vec());
    for column in table.column_iter_mut().skip(1) {
        column.set_cell_alignment(CellAlignment::Right);
    }
    table
}

/// Latency and throughput of one direction, fastest total first.
pub fn direction(results: &Results, style: Style, pick: fn(&FormatResult) -> &Summary) -> Table {
    let mut table = new_table(
        style,
        &[
            "format", "p50 ns", "p90", "p99", "p99.9", "max", "ns/op", "total ms", "ops/s", "MB/s", "allocs/op", "B/op",
            "relative",
        ],
    );
    let mut formats: Vec<&FormatResult> = results.formats.iter().collect();
    formats.sort_by(|a, b| pick(a).total_ns.median.total_cmp(&pick(b).total_ns.median));
    let fastest = formats.first().map_or(1.0, |f| pick(f).total_ns.median.max(1.0));
    for format in formats {
        let s = pick(format);
        table.add_row(vec![
            format.name.to_owned(),
            with_range(s.p50_ns, ns),
            ns(s.p90_ns.median),
            ns(s.p99_ns.median),
            ns(s.p999_ns.median),
            ns(s.max_ns.median),
            format!("{:.1}", s.mean_ns.median),
            with_range(s.total_ns, ms),
            si(s.records_per_s.median),
            format!("{:.0}", s.mb_per_s.median),
            allocations(s.allocations_per_record.median),
            allocations(s.allocated_bytes_per_record.median),
            format!("{:.2}x", s.total_ns.median / fastest),
        ]);
    }
    table
}

/// Encoded size, labels and validation, smallest first.
pub fn sizes(results: &Results, style: Style) -> Table {
    let mut table =
        new_table(style, &["format", "bytes", "bytes/record", "zstd-3 bytes", "zstd ratio", "validated", "library", "labels"]);
    let mut formats: Vec<&FormatResult> = results.formats.iter().collect();
    formats.sort_by_key(|f| f.encoded_bytes);
    for format in formats {
        table.add_row(vec![
            format.name.to_owned(),
            format.encoded_bytes.to_string(),
            format!("{:.1}", format.bytes_per_record),
            format.zstd_bytes.to_string(),
            format!("{:.2}", format.zstd_ratio),
            if format.validated { "yes".into() } else { "NO".into() },
            format!("{} {}", format.library, format.library_version),
            format.tags.join(", "),
        ]);
    }
    table
}

/// The size comparison with the source CSV (tabular workloads).
pub fn csv_sizes(results: &Results, style: Style) -> Option<Table> {
    let csv = results.workload.csv?;
    let mut table = new_table(style, &["format", "bytes", "vs CSV", "bytes/value", "zstd-3 bytes", "zstd vs CSV"]);
    let values = csv.values.max(1) as f64;
    table.add_row(vec![
        "CSV (source)".to_owned(),
        csv.bytes.to_string(),
        "100.0%".to_owned(),
        format!("{:.2}", csv.bytes as f64 / values),
        "-".to_owned(),
        "-".to_owned(),
    ]);
    let mut formats: Vec<&FormatResult> = results.formats.iter().collect();
    formats.sort_by_key(|f| f.encoded_bytes);
    for f in formats {
        table.add_row(vec![
            f.name.to_owned(),
            f.encoded_bytes.to_string(),
            format!("{:.1}%", 100.0 * f.encoded_bytes as f64 / csv.bytes.max(1) as f64),
            format!("{:.2}", f.encoded_bytes as f64 / values),
            f.zstd_bytes.to_string(),
            format!("{:.1}%", 100.0 * f.zstd_bytes as f64 / csv.bytes.max(1) as f64),
        ]);
    }
    Some(table)
}

/// Formats that did not run, each with its reason.
pub fn not_run(results: &Results) -> Vec<String> {
    results.not_run.iter().map(|n| format!("not run: {} ({}): {}", n.name, n.family, n.reason)).collect()
}

/// Everything a reader needs beside the tables, as lines.
pub fn preamble(results: &Results) -> Vec<String> {
    let e = &results.environment;
    vec![
        format!(
            "workload {}: {} records from {}",
            results.workload.name, results.workload.records, results.workload.source
        ),
        format!(
            "{} warm-up + {} measured runs per format; figures are medians across runs, (min–max) where shown; \
             one op = one record encoded, or decoded and aggregated (ns/op is the mean)",
            results.settings.warmup_runs, results.settings.runs
        ),
        format!(
            "clock: {}, resolution {} ns, empty timed region {} ns (included in every sample, not subtracted)",
            results.timer.clock, results.timer.resolution_ns, results.timer.empty_region_ns
        ),
        format!("{} × {} cores, {}, {}, shootout {} ({})", e.cpu, e.cores, e.os, e.rustc, e.shootout_version, short(e.git_commit)),
    ]
}

fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}
