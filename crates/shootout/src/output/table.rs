//! The results as tables: one per direction plus sizes. The same tables render
//! to the terminal and, with a Markdown style, to `--export-markdown`.

use comfy_table::presets::{ASCII_MARKDOWN, UTF8_BORDERS_ONLY};
use comfy_table::{CellAlignment, Table, TableStyle};

use crate::benchmark::timer::Calibration;
use crate::results::{Direction, FormatResult, Merged, Relative, Row};

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

/// A table whose rows are formats: with several languages, a language column follows the name.
fn new_table(style: Style, merged: &Merged, header: &[&str]) -> Table {
    let mut header = header.to_vec();
    if merged.several_languages() {
        header.insert(1, "lang");
    }
    let mut table = Table::new();
    table.load_style(style.preset());
    table.set_header(header);
    for column in table.column_iter_mut().skip(1) {
        column.set_cell_alignment(CellAlignment::Right);
    }
    table
}

/// The first cells of a format's row: its name, and its language when there are several.
fn row_start(merged: &Merged, row: &Row, name: String) -> Vec<String> {
    if merged.several_languages() {
        vec![name, row.language.clone()]
    } else {
        vec![name]
    }
}

/// The measured formats, the baseline rows left out unless `baseline`.
fn rows(merged: &Merged, baseline: bool) -> Vec<&Row> {
    merged
        .rows
        .iter()
        .filter(|r| baseline || !r.format.baseline)
        .collect()
}

/// One direction, fastest first: throughput, its noise, latency and allocations.
pub fn direction(merged: &Merged, style: Style, pick: fn(&FormatResult) -> &Direction) -> Table {
    let mut table = new_table(
        style,
        merged,
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
    let mut rows = rows(merged, true);
    rows.sort_by(|a, b| {
        pick(&a.format)
            .summary
            .ns_per_op
            .median
            .total_cmp(&pick(&b.format).summary.ns_per_op.median)
    });
    for row in rows {
        let direction = pick(&row.format);
        let s = &direction.summary;
        let timer = &row.timer;
        let mut cells = row_start(merged, row, display_name(&row.format));
        cells.extend([
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
            s.allocations_per_op
                .map_or("-".to_owned(), |a| allocations(a.median)),
            allocations(s.allocated_bytes_per_op.median),
        ]);
        table.add_row(cells);
    }
    table
}

/// Encoded size, labels and validation, smallest first.
pub fn sizes(merged: &Merged, style: Style) -> Table {
    let mut table = new_table(
        style,
        merged,
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
    let mut rows = rows(merged, false);
    rows.sort_by_key(|r| r.format.encoded_bytes);
    for row in rows {
        let format = &row.format;
        let mut cells = row_start(merged, row, format.name.clone());
        cells.extend([
            format.encoded_bytes.to_string(),
            format!("{:.1}", format.bytes_per_record),
            or_dash(format.zstd_bytes),
            format
                .zstd_ratio
                .map_or("-".to_owned(), |r| format!("{r:.2}")),
            format!("{} {}", format.library, format.library_version),
            format.tags.join(", "),
        ]);
        table.add_row(cells);
    }
    table
}

/// A figure a runner may not have measured.
fn or_dash(value: Option<u64>) -> String {
    value.map_or("-".to_owned(), |v| v.to_string())
}

/// The size comparison with the source CSV (tabular workloads).
pub fn csv_sizes(merged: &Merged, style: Style) -> Option<Table> {
    let csv = merged.first().workload.csv?;
    let mut table = new_table(
        style,
        merged,
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
    let mut source = vec!["CSV (source)".to_owned()];
    if merged.several_languages() {
        source.push("-".to_owned());
    }
    source.extend([
        csv.bytes.to_string(),
        "100.0%".to_owned(),
        format!("{:.2}", csv.bytes as f64 / values),
        "-".to_owned(),
        "-".to_owned(),
    ]);
    table.add_row(source);
    let mut rows = rows(merged, false);
    rows.sort_by_key(|r| r.format.encoded_bytes);
    for row in rows {
        let f = &row.format;
        let mut cells = row_start(merged, row, f.name.clone());
        cells.extend([
            f.encoded_bytes.to_string(),
            format!(
                "{:.1}%",
                100.0 * f.encoded_bytes as f64 / csv.bytes.max(1) as f64
            ),
            format!("{:.2}", f.encoded_bytes as f64 / values),
            or_dash(f.zstd_bytes),
            f.zstd_bytes.map_or("-".to_owned(), |z| {
                format!("{:.1}%", 100.0 * z as f64 / csv.bytes.max(1) as f64)
            }),
        ]);
        table.add_row(cells);
    }
    Some(table)
}

/// The tables of a run, in order, with their titles: the terminal and the
/// Markdown export show the same sections.
pub fn sections(merged: &Merged, style: Style) -> Vec<(&'static str, Table)> {
    let mut sections = vec![
        (
            "Encode (ns per op)",
            direction(merged, style, |f| &f.encode),
        ),
        (
            "Decode + aggregate (ns per op)",
            direction(merged, style, |f| &f.decode),
        ),
        (
            "Size (every format validated against the reference aggregate)",
            sizes(merged, style),
        ),
    ];
    if let Some(csv) = csv_sizes(merged, style) {
        sections.push(("Size against the source CSV", csv));
    }
    sections
}

/// Formats that did not run, or whose numbers are withheld, each with its reason.
pub fn not_run(merged: &Merged) -> Vec<String> {
    let lang = |language: &str| match merged.several_languages() {
        true => format!("{language} "),
        false => String::new(),
    };
    let failed = merged.failed().map(|(language, f)| {
        let at = match (&f.failure.position, f.failure.run) {
            (Some(position), run) => format!(" ({position}, run {run})"),
            (None, run) => format!(" (run {run})"),
        };
        format!(
            "FAILED, numbers withheld: {}{} ({}): {}{at}",
            lang(language),
            f.name,
            f.family,
            f.failure.reason
        )
    });
    let not_run = merged.not_run().map(|(language, n)| {
        format!(
            "not run: {}{} ({}): {}",
            lang(language),
            n.name,
            n.family,
            n.reason
        )
    });
    failed.chain(not_run).collect()
}

/// Everything a reader needs beside the tables, as lines.
pub fn preamble(merged: &Merged) -> Vec<String> {
    let first = merged.first();
    let (w, s) = (&first.workload, &first.settings);
    let input = match &w.input {
        Some(file) => format!(
            " ({} bytes, sha256 {})",
            file.bytes,
            file.sha256.get(..16).unwrap_or(&file.sha256)
        ),
        None => String::new(),
    };
    let mut lines = vec![
        format!("workload {}: {} records from {}{input}", w.name, w.records, w.source),
        format!(
            "{} warm-up + {} measured runs, each one pass over the input in windows of {} records; formats in a shuffled \
             order per window (--order-seed {}); one op = one record encoded, or decoded and aggregated",
            s.warmup_runs, s.runs, s.window, s.order_seed
        ),
        "ns/op: throughput pass (whole windows timed, no clock inside), median across runs, bootstrap 95% CI; \
         ± runs: (max − min) / median; relative: against the fastest format, ≈ = not significantly different from it"
            .to_owned(),
    ];
    if merged.several_languages() {
        let clocks: Vec<String> = merged
            .parts
            .iter()
            .map(|p| {
                let t = &p.timer;
                format!(
                    "{}: {}, {} ns subtracted, resolution {} ns",
                    p.runner.language, t.clock, t.empty_region_ns, t.resolution_ns
                )
            })
            .collect();
        lines.push(format!(
            "p50…max: latency pass, one timed sample per record, the clock's own cost subtracted ({}); ≤N: within 5× \
             the clock's resolution, at most N; outliers: samples beyond Tukey's fences, all runs",
            clocks.join("; ")
        ));
        lines.push(
            "allocs/op, B/op: allocation pass (counted apart from the timed passes); every pass of every run validated; \
             each language's runner ran alone, one after another, on the same records"
                .to_owned(),
        );
    } else {
        let t = &first.timer;
        lines.push(format!(
            "p50…max: latency pass, one timed sample per record, the empty region's {} ns subtracted; ≤N: within 5× the \
             clock's resolution ({} ns, {}), at most N; outliers: samples beyond Tukey's fences, all runs",
            t.empty_region_ns, t.resolution_ns, t.clock
        ));
        lines.push(
            "allocs/op, B/op: allocation pass (counted apart from the timed passes); every pass of every run validated"
                .to_owned(),
        );
    }
    for part in &merged.parts {
        let e = |key| part.environment_text(key);
        lines.push(format!(
            "{} × {} cores, {}, {}, {} {} ({})",
            e("cpu"),
            e("cores"),
            e("os"),
            e("toolchain"),
            part.runner.name,
            e("shootout_version"),
            short(&e("git_commit"))
        ));
    }
    lines
}

fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}
