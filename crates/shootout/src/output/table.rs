//! The results as tables: one per direction plus sizes. The same tables render
//! to the terminal and, with a Markdown style, to `--export-markdown`.

use comfy_table::presets::{ASCII_MARKDOWN, UTF8_BORDERS_ONLY};
use comfy_table::{CellAlignment, Table, TableStyle};

use crate::benchmark::timer::Calibration;
use crate::results::{Direction, FormatResult, Relative, Results};

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

fn ns_per_op(value: f64) -> String {
    if value < 100.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.0}")
    }
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
    if value == 0.0 {
        "0".into()
    } else {
        format!("{value:.2}")
    }
}

/// A latency figure; within 5× the clock's resolution it is flagged `≤` with
/// the most it can be (the value plus one clock step).
fn latency(value: f64, timer: &Calibration) -> String {
    if value < timer.flag_below_ns as f64 {
        format!("≤{}", ns(value + timer.resolution_ns as f64))
    } else {
        ns(value)
    }
}

fn relative(r: &Relative) -> String {
    if r.fastest {
        return "1.00x (fastest)".to_owned();
    }
    let mark = if r.indistinguishable_from_fastest {
        "≈"
    } else {
        ""
    };
    format!(
        "{mark}{:.2}x ({:.2}–{:.2})",
        r.ratio, r.interval.low, r.interval.high
    )
}

/// The name as tables show it: the baseline says what it is.
fn display_name(format: &FormatResult) -> String {
    if format.baseline {
        format!("{} (no format)", format.name)
    } else {
        format.name.to_owned()
    }
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

/// One direction, fastest first: throughput, its noise, latency and allocations.
pub fn direction(results: &Results, style: Style, pick: fn(&FormatResult) -> &Direction) -> Table {
    let mut table = new_table(
        style,
        &[
            "format",
            "ns/op",
            "95% CI",
            "± runs",
            "relative (95% CI)",
            "ops/s",
            "MB/s",
            "p50 ns",
            "p90",
            "p99",
            "p99.9",
            "max",
            "outliers",
            "allocs/op",
            "B/op",
        ],
    );
    let mut formats: Vec<&FormatResult> = results.formats.iter().collect();
    formats.sort_by(|a, b| {
        pick(a)
            .summary
            .ns_per_op
            .median
            .total_cmp(&pick(b).summary.ns_per_op.median)
    });
    let timer = &results.timer;
    for format in formats {
        let direction = pick(format);
        let s = &direction.summary;
        table.add_row(vec![
            display_name(format),
            ns_per_op(s.ns_per_op.median),
            format!(
                "{}–{}",
                ns_per_op(s.ns_per_op_ci.low),
                ns_per_op(s.ns_per_op_ci.high)
            ),
            format!("{:.1}%", 100.0 * s.ns_per_op.relative_range()),
            relative(&direction.relative),
            si(s.ops_per_s.median),
            format!("{:.0}", s.mb_per_s.median),
            latency(s.p50_ns.median, timer),
            latency(s.p90_ns.median, timer),
            latency(s.p99_ns.median, timer),
            latency(s.p999_ns.median, timer),
            ns(s.max_ns.median),
            (s.outliers.low + s.outliers.high).to_string(),
            allocations(s.allocations_per_op.median),
            allocations(s.allocated_bytes_per_op.median),
        ]);
    }
    table
}

/// Encoded size, labels and validation, smallest first.
pub fn sizes(results: &Results, style: Style) -> Table {
    let mut table = new_table(
        style,
        &[
            "format",
            "bytes",
            "bytes/record",
            "zstd-3 bytes",
            "zstd ratio",
            "library",
            "labels",
        ],
    );
    let mut formats: Vec<&FormatResult> = results.formats.iter().filter(|f| !f.baseline).collect();
    formats.sort_by_key(|f| f.encoded_bytes);
    for format in formats {
        table.add_row(vec![
            format.name.to_owned(),
            format.encoded_bytes.to_string(),
            format!("{:.1}", format.bytes_per_record),
            format.zstd_bytes.to_string(),
            format!("{:.2}", format.zstd_ratio),
            format!("{} {}", format.library, format.library_version),
            format.tags.join(", "),
        ]);
    }
    table
}

/// The size comparison with the source CSV (tabular workloads).
pub fn csv_sizes(results: &Results, style: Style) -> Option<Table> {
    let csv = results.workload.csv?;
    let mut table = new_table(
        style,
        &[
            "format",
            "bytes",
            "vs CSV",
            "bytes/value",
            "zstd-3 bytes",
            "zstd vs CSV",
        ],
    );
    let values = csv.values.max(1) as f64;
    table.add_row(vec![
        "CSV (source)".to_owned(),
        csv.bytes.to_string(),
        "100.0%".to_owned(),
        format!("{:.2}", csv.bytes as f64 / values),
        "-".to_owned(),
        "-".to_owned(),
    ]);
    let mut formats: Vec<&FormatResult> = results.formats.iter().filter(|f| !f.baseline).collect();
    formats.sort_by_key(|f| f.encoded_bytes);
    for f in formats {
        table.add_row(vec![
            f.name.to_owned(),
            f.encoded_bytes.to_string(),
            format!(
                "{:.1}%",
                100.0 * f.encoded_bytes as f64 / csv.bytes.max(1) as f64
            ),
            format!("{:.2}", f.encoded_bytes as f64 / values),
            f.zstd_bytes.to_string(),
            format!(
                "{:.1}%",
                100.0 * f.zstd_bytes as f64 / csv.bytes.max(1) as f64
            ),
        ]);
    }
    Some(table)
}

/// Formats that did not run, or whose numbers are withheld, each with its reason.
pub fn not_run(results: &Results) -> Vec<String> {
    let failed = results.failed.iter().map(|f| {
        let at = match (&f.failure.position, f.failure.run) {
            (Some(position), run) => format!(" ({position}, run {run})"),
            (None, run) => format!(" (run {run})"),
        };
        format!(
            "FAILED, numbers withheld: {} ({}): {}{at}",
            f.name, f.family, f.failure.reason
        )
    });
    let not_run = results
        .not_run
        .iter()
        .map(|n| format!("not run: {} ({}): {}", n.name, n.family, n.reason));
    failed.chain(not_run).collect()
}

/// Everything a reader needs beside the tables, as lines.
pub fn preamble(results: &Results) -> Vec<String> {
    let e = &results.environment;
    let t = &results.timer;
    let s = &results.settings;
    let input = match &results.workload.input {
        Some(file) => format!(
            " ({} bytes, sha256 {})",
            file.bytes,
            file.sha256.get(..16).unwrap_or(&file.sha256)
        ),
        None => String::new(),
    };
    vec![
        format!("workload {}: {} records from {}{input}", results.workload.name, results.workload.records, results.workload.source),
        format!(
            "{} warm-up + {} measured runs, each one pass over the input in windows of {} records; formats in a shuffled \
             order per window (--order-seed {}); one op = one record encoded, or decoded and aggregated",
            s.warmup_runs, s.runs, s.window, s.order_seed
        ),
        "ns/op: throughput pass (whole windows timed, no clock inside), median across runs, bootstrap 95% CI; \
         ± runs: (max − min) / median; relative: against the fastest format, ≈ = not significantly different from it"
            .to_owned(),
        format!(
            "p50…max: latency pass, one fenced sample per record, the empty region's {} ns subtracted; ≤N: within 5× the \
             clock's resolution ({} ns, {}), at most N; outliers: samples beyond Tukey's fences, all runs",
            t.empty_region_ns, t.resolution_ns, t.clock
        ),
        "allocs/op, B/op: allocation pass (counted apart from the timed passes); every pass of every run validated".to_owned(),
        format!("{} × {} cores, {}, {}, shootout {} ({})", e.cpu, e.cores, e.os, e.rustc, e.shootout_version, short(e.git_commit)),
    ]
}

fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}
