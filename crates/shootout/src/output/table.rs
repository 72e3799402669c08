//! The results as tables: one per direction plus sizes. The same tables render
//! to the terminal and, with a Markdown style, to `--export-markdown`.

use anyhow::{Result, bail};
use comfy_table::presets::{ASCII_MARKDOWN, UTF8_BORDERS_ONLY};
use comfy_table::{CellAlignment, Table, TableStyle};

use crate::document::{Calibration, Direction, FormatResult, Relative, Results};
use crate::results::{Merged, Row};

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

    /// A line or cell as this medium shows text from outside: names, labels
    /// and versions come from results files and runners.
    pub fn shown(self, text: &str) -> String {
        match self {
            Style::Terminal => crate::sanitize::terminal(text).into_owned(),
            Style::Markdown => crate::sanitize::markdown(text).into_owned(),
        }
    }
}

/// Adds a row of cells, each shown as `style` shows text from outside.
fn add_row(table: &mut Table, style: Style, cells: Vec<String>) {
    table.add_row(cells.iter().map(|cell| style.shown(cell)));
}

fn ns(value: f64) -> String {
    format!("{value:.0}")
}

fn ns_per_op(value: f64) -> String {
    if value < 100.0 { format!("{value:.1}") } else { format!("{value:.0}") }
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
    let mark = if r.indistinguishable_from_fastest { "≈" } else { "" };
    format!("{mark}{:.2}x ({:.2}–{:.2})", r.ratio, r.interval.low, r.interval.high)
}

/// The name as tables show it: the baseline says what it is.
fn display_name(format: &FormatResult) -> String {
    if format.baseline { format!("{} (no format)", format.name) } else { format.name.to_owned() }
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
    if merged.several_languages() { vec![name, row.language.clone()] } else { vec![name] }
}

/// The measured formats, the baseline rows left out unless `baseline`.
fn rows(merged: &Merged, baseline: bool) -> Vec<&Row> {
    merged.rows.iter().filter(|r| baseline || !r.format.baseline).collect()
}

/// A column of a result table: the name `--columns` knows it by, its header, and its cell.
pub struct Column<Cell> {
    pub name: &'static str,
    header: &'static str,
    cell: Cell,
}

/// A cell of the encode and decode tables: of a row, in the direction shown.
type DirectionCell = fn(&Row, &Direction) -> String;
type SizeCell = fn(&Row) -> String;

const DIRECTION_COLUMNS: &[Column<DirectionCell>] = &[
    Column {
        name: "ns",
        header: "ns/op",
        cell: |_, direction| ns_per_op(direction.summary.ns_per_op.median),
    },
    Column {
        name: "ci",
        header: "95% CI",
        cell: |_, direction| {
            let ci = &direction.summary.ns_per_op_ci;
            format!("{}–{}", ns_per_op(ci.low), ns_per_op(ci.high))
        },
    },
    Column {
        name: "cost",
        header: "cost (95% CI)",
        cell: |_, direction| {
            let cost = &direction.relative.cost;
            format!("{:.3} ({:.3}–{:.3})", cost.value, cost.interval.low, cost.interval.high)
        },
    },
    Column {
        name: "precision",
        header: "±cost",
        cell: |row, direction| match direction.summary.precision {
            Some(p) if p > row.precision_target => format!("{:.1}%!", 100.0 * p),
            Some(p) => format!("{:.1}%", 100.0 * p),
            None => "-".to_owned(),
        },
    },
    Column {
        name: "relative",
        header: "relative (95% CI)",
        cell: |_, direction| relative(&direction.relative),
    },
    Column {
        name: "ops",
        header: "ops/s",
        cell: |_, direction| si(direction.summary.ops_per_s.median),
    },
    Column {
        name: "mbps",
        header: "MB/s",
        cell: |row, direction| {
            let mb_per_op = row.format.bytes_per_record / 1e6;
            format!("{:.0}", direction.summary.ops_per_s.median * mb_per_op)
        },
    },
    Column {
        name: "p50",
        header: "p50 ns",
        cell: |row, direction| latency(direction.summary.p50_ns.median, &row.timer),
    },
    Column {
        name: "p90",
        header: "p90",
        cell: |row, direction| latency(direction.summary.p90_ns.median, &row.timer),
    },
    Column {
        name: "p99",
        header: "p99",
        cell: |row, direction| latency(direction.summary.p99_ns.median, &row.timer),
    },
    Column {
        name: "p999",
        header: "p99.9",
        cell: |row, direction| latency(direction.summary.p999_ns.median, &row.timer),
    },
    Column { name: "max", header: "max", cell: |_, direction| ns(direction.summary.max_ns.median) },
    Column {
        name: "outliers",
        header: "outliers",
        cell: |_, direction| {
            let o = &direction.summary.outliers;
            (o.low + o.high).to_string()
        },
    },
    Column {
        name: "allocs",
        header: "allocs/op",
        cell: |_, direction| {
            direction.summary.allocations_per_op.map_or("-".to_owned(), |a| allocations(a.median))
        },
    },
    Column {
        name: "instr",
        header: "instr/op",
        cell: |_, direction| {
            direction.summary.instructions_per_op.map_or("-".to_owned(), ns_per_op)
        },
    },
    Column {
        name: "alloc-bytes",
        header: "B/op",
        cell: |_, direction| {
            direction
                .summary
                .allocated_bytes_per_op
                .map_or("-".to_owned(), |a| allocations(a.median))
        },
    },
];

const SIZE_COLUMNS: &[Column<SizeCell>] = &[
    Column { name: "bytes", header: "bytes", cell: |r| r.format.encoded_bytes.to_string() },
    Column {
        name: "per-record",
        header: "bytes/record",
        cell: |r| format!("{:.1}", r.format.bytes_per_record),
    },
    Column { name: "zstd", header: "zstd-3 bytes", cell: |r| or_dash(r.format.zstd_bytes) },
    Column {
        name: "zstd-ratio",
        header: "zstd ratio",
        cell: |r| r.format.zstd_ratio.map_or("-".to_owned(), |r| format!("{r:.2}")),
    },
    Column {
        name: "library",
        header: "library",
        cell: |r| format!("{} {}", r.format.library, r.format.library_version),
    },
    Column { name: "labels", header: "labels", cell: |r| r.format.tags.join(", ") },
];

/// Every name `--columns` accepts, in table order.
pub fn column_names() -> impl Iterator<Item = &'static str> {
    DIRECTION_COLUMNS.iter().map(|c| c.name).chain(SIZE_COLUMNS.iter().map(|c| c.name))
}

/// The order in which columns give way when a table is wider than the
/// terminal: detail first, then the spread, keeping ns/op, relative, p50, p99 and
/// bytes/record to the last.
pub const DROP_ORDER: &[&str] = &[
    "labels",
    "alloc-bytes",
    "outliers",
    "mbps",
    "ops",
    "library",
    "p90",
    "max",
    "zstd-ratio",
    "bytes",
    "ci",
    "precision",
    "cost",
    "p999",
    "allocs",
    "instr",
    "zstd",
];

/// Which columns the tables show.
#[derive(Debug, Clone, PartialEq)]
pub enum Columns {
    All,
    /// As many as fit this many terminal columns, dropped in [`DROP_ORDER`].
    Fit(usize),
    /// Exactly these (by [`Column::name`]); the format name is always shown.
    Only(Vec<String>),
}

impl Columns {
    /// `--columns`: `all`, or names from [`column_names`]; `None` when none were given.
    pub fn parse(names: &[String]) -> Result<Option<Columns>> {
        match names {
            [] => Ok(None),
            [all] if all == "all" => Ok(Some(Columns::All)),
            _ => {
                if let Some(unknown) = names.iter().find(|n| !column_names().any(|c| c == *n)) {
                    bail!(
                        "--columns: no column named '{unknown}'; columns: all, {}",
                        column_names().collect::<Vec<_>>().join(", ")
                    );
                }
                Ok(Some(Columns::Only(names.to_vec())))
            }
        }
    }

    /// The columns for a table printed to a terminal `width` columns wide (or not to a terminal).
    pub fn or_fit(chosen: Option<&Columns>, width: Option<usize>) -> Columns {
        match (chosen, width) {
            (Some(columns), _) => columns.clone(),
            (None, Some(width)) => Columns::Fit(width),
            (None, None) => Columns::All,
        }
    }

    fn shows(&self, name: &str, hidden: &[&str]) -> bool {
        match self {
            Columns::Only(names) => names.iter().any(|n| n == name),
            Columns::All | Columns::Fit(_) => !hidden.contains(&name),
        }
    }
}

/// One direction, fastest first: throughput, its noise, latency and allocations.
fn direction(
    merged: &Merged,
    style: Style,
    pick: fn(&FormatResult) -> &Direction,
    show: &dyn Fn(&str) -> bool,
) -> Table {
    // instr/op only where `run --instructions` counted them.
    let counted = instructions_counted(merged);
    let columns: Vec<_> = DIRECTION_COLUMNS
        .iter()
        .filter(|c| show(c.name) && (c.name != "instr" || counted))
        .collect();
    let headers: Vec<&str> =
        std::iter::once("format").chain(columns.iter().map(|c| c.header)).collect();
    let mut table = new_table(style, merged, &headers);
    let mut rows = rows(merged, true);
    rows.sort_by(|a, b| {
        pick(&a.format)
            .summary
            .ns_per_op
            .median
            .total_cmp(&pick(&b.format).summary.ns_per_op.median)
    });
    for row in rows {
        let mut cells = row_start(merged, row, display_name(&row.format));
        cells.extend(columns.iter().map(|c| (c.cell)(row, pick(&row.format))));
        add_row(&mut table, style, cells);
    }
    table
}

/// Some row has an instruction count (`run --instructions`).
fn instructions_counted(merged: &Merged) -> bool {
    merged.rows.iter().any(|row| {
        [&row.format.encode, &row.format.decode]
            .iter()
            .any(|direction| direction.summary.instructions_per_op.is_some())
    })
}

/// What instr/op is, when some row has it: in the method, and under the
/// tables when the method is not shown.
pub fn instructions_note(merged: &Merged) -> Option<String> {
    instructions_counted(merged).then(|| {
        format!(
            "instr/op: instructions per op counted under Valgrind's Callgrind, each format and direction one pass \
             over the same records in a counted region of its own, after an uncounted warm-up: the same on any \
             machine running this build; {}",
            crate::instructions::NOT_TIME
        )
    })
}

/// Encoded size, labels and validation, smallest first.
fn sizes(merged: &Merged, style: Style, show: &dyn Fn(&str) -> bool) -> Table {
    let columns: Vec<_> = SIZE_COLUMNS.iter().filter(|c| show(c.name)).collect();
    let headers: Vec<&str> =
        std::iter::once("format").chain(columns.iter().map(|c| c.header)).collect();
    let mut table = new_table(style, merged, &headers);
    let mut rows = rows(merged, false);
    rows.sort_by_key(|r| r.format.encoded_bytes);
    for row in rows {
        let mut cells = row_start(merged, row, row.format.name.clone());
        cells.extend(columns.iter().map(|c| (c.cell)(row)));
        add_row(&mut table, style, cells);
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
        &["format", "bytes", "vs CSV", "bytes/value", "zstd-3 bytes", "zstd vs CSV"],
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
    add_row(&mut table, style, source);
    let mut rows = rows(merged, false);
    rows.sort_by_key(|r| r.format.encoded_bytes);
    for row in rows {
        let f = &row.format;
        let mut cells = row_start(merged, row, f.name.clone());
        cells.extend([
            f.encoded_bytes.to_string(),
            format!("{:.1}%", 100.0 * f.encoded_bytes as f64 / csv.bytes.max(1) as f64),
            format!("{:.2}", f.encoded_bytes as f64 / values),
            or_dash(f.zstd_bytes),
            f.zstd_bytes.map_or("-".to_owned(), |z| {
                format!("{:.1}%", 100.0 * z as f64 / csv.bytes.max(1) as f64)
            }),
        ]);
        add_row(&mut table, style, cells);
    }
    Some(table)
}

/// The tables of a run, in order, with their titles (the terminal and the
/// Markdown export show the same sections), and the columns left out to fit.
pub fn sections(
    merged: &Merged,
    style: Style,
    columns: &Columns,
) -> (Vec<(&'static str, Table)>, Vec<&'static str>) {
    let (directions, mut hidden) = fitted(columns, DIRECTION_COLUMNS, |show| {
        vec![
            direction(merged, style, |f| &f.encode, show),
            direction(merged, style, |f| &f.decode, show),
        ]
    });
    let (size, size_hidden) =
        fitted(columns, SIZE_COLUMNS, |show| vec![sizes(merged, style, show)]);
    hidden.extend(size_hidden);
    let titles = [
        "Encode (ns per op)",
        "Decode + aggregate (ns per op)",
        "Size (every format validated against the reference aggregate)",
    ];
    let mut sections: Vec<(&'static str, Table)> =
        titles.into_iter().zip(directions.into_iter().chain(size)).collect();
    if let Some(csv) = csv_sizes(merged, style) {
        sections.push(("Size against the source CSV", csv));
    }
    (sections, hidden)
}

/// Tables built with the chosen columns; to fit a width, this table's columns
/// in [`DROP_ORDER`] are left out one by one until the widest table fits.
fn fitted<Cell>(
    columns: &Columns,
    of_table: &[Column<Cell>],
    build: impl Fn(&dyn Fn(&str) -> bool) -> Vec<Table>,
) -> (Vec<Table>, Vec<&'static str>) {
    let droppable: Vec<&'static str> = DROP_ORDER
        .iter()
        .copied()
        .filter(|name| of_table.iter().any(|c| c.name == *name))
        .collect();
    let mut hidden = 0;
    loop {
        let tables = build(&|name| columns.shows(name, &droppable[..hidden]));
        let Columns::Fit(width) = *columns else {
            return (tables, Vec::new());
        };
        let widest = tables.iter().map(width_of).max().unwrap_or(0);
        if widest <= width || hidden == droppable.len() {
            return (tables, droppable[..hidden].to_vec());
        }
        hidden += 1;
    }
}

/// The widest line of a rendered table, in terminal columns (every character
/// the tables use is one column wide).
fn width_of(table: &Table) -> usize {
    table.to_string().lines().map(|line| line.chars().count()).max().unwrap_or(0)
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
        format!("not run: {}{} ({}): {}", lang(language), n.name, n.family, n.reason)
    });
    failed.chain(not_run).collect()
}

/// The garbage collections inside a runner's timed loops, when it counts them:
/// their cost is in the rows' ns/op, and this says where.
fn collections(part: &Results) -> Option<String> {
    let cells: Vec<(String, u64, u64)> = part
        .formats
        .iter()
        .flat_map(|f| [("encode", &f.encode), ("decode", &f.decode)].map(|(d, dir)| (f, d, dir)))
        .filter_map(|(f, direction, d)| {
            Some((
                format!("{} {direction}", f.name),
                d.summary.gc_count?,
                d.summary.gc_pause_ms.unwrap_or(0),
            ))
        })
        .collect();
    let count: u64 = cells.iter().map(|c| c.1).sum();
    let ms: u64 = cells.iter().map(|c| c.2).sum();
    let most = cells.iter().max_by_key(|c| c.1)?;
    Some(match count {
        0 => format!("gc ({}): no collection ended inside a timed loop", part.runner.language),
        _ => format!(
            "gc ({}): {count} collections ended inside timed loops, {ms} ms in all, most in {} ({}); their time is in \
             those rows' ns/op",
            part.runner.language, most.0, most.1
        ),
    })
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
    let measured: Vec<String> = merged
        .parts
        .iter()
        .map(|p| {
            let processes = p.runs.iter().map(|r| r.process + 1).max().unwrap_or(0);
            let runs = p.runs.iter().filter(|r| !r.warmup).count();
            let made = format!(
                "{processes} process{} of {runs} measured runs in all",
                if processes == 1 { "" } else { "es" }
            );
            match merged.several_languages() {
                true => format!("{} {made}", p.runner.language),
                false => made,
            }
        })
        .collect();
    let until = match s.time_budget_ms {
        0 => "as many as asked".to_owned(),
        ms => format!(
            "at least {}, then until every row was ±{:.1}% precise or {} s were spent",
            s.min_processes,
            100.0 * s.precision,
            ms / 1000
        ),
    };
    let mut lines = vec![
        format!("workload {}: {} records from {}{input}", w.name, w.records, w.source),
        format!(
            "{} ({until}); each process {} warm-up + {} measured runs, each one pass over the input in windows of {} \
             records; formats in a shuffled order per window (--order-seed {}, plus the process's number); one op = \
             one record encoded, or decoded and aggregated",
            measured.join(", "),
            s.warmup_runs,
            s.runs,
            s.window,
            s.order_seed
        ),
    ];
    lines.extend(w.sampled.map(|sampled| sampled.line(w.records, s.window)));
    lines.extend([
        format!(
            "ns/op: throughput pass (whole windows timed, no clock inside{}), median across runs, 95% CI over the \
             processes: this machine, this run; cost: ns/op over the geometric mean of every format's, the machine's \
             speed in each round taken out, 95% CI over the processes: what reproduces; ±cost: its half-width, ! when \
             short of the precision target; relative: against the fastest format, round by round, ≈ = not \
             significantly different from it",
            match s.throughput_rounds {
                1 => String::new(),
                rounds => format!("; {rounds} rounds per window, each in a new shuffled order"),
            }
        ),
    ]);
    lines.extend(crate::results::Canary::line(&merged.canaries()));
    let drifts: Vec<_> = merged.parts.iter().filter_map(crate::processes::Drift::find).collect();
    lines.extend(crate::processes::Drift::line(&drifts));
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
    lines.extend(instructions_note(merged));
    lines.extend(merged.parts.iter().filter_map(collections));
    for part in &merged.parts {
        lines.push(machine_line(&part.environment, &part.runner.name));
    }
    // The conditions the figures were taken under, so a table carries them wherever it is pasted.
    let i = &first.invocation;
    lines.push(conditions_line(
        &first.environment,
        i.load_before,
        i.load_after,
        i.other_cpu_cores,
        i.steal_pct,
    ));
    lines
}

/// The machine and the build a runner's figures come from, from its results' environment.
pub fn machine_line(environment: &serde_json::Value, runner: &str) -> String {
    let e = |key| crate::document::environment_text(environment, key);
    format!(
        "{} × {} cores, {}, {}, {runner} {} ({}{})",
        e("cpu"),
        e("cores"),
        e("os"),
        e("toolchain"),
        e("shootout_version"),
        short(&e("git_commit")),
        // Built from a tree with changes not in that commit.
        if e("git_dirty") == "true" { " + uncommitted changes" } else { "" }
    )
}

/// The conditions figures were taken under: start, load before and after, and
/// (when measured) other work's cores and the hypervisor's steal.
pub fn conditions_line(
    environment: &serde_json::Value,
    load_before: Option<[f64; 3]>,
    load_after: Option<[f64; 3]>,
    other_cpu_cores: Option<f64>,
    steal_pct: Option<f64>,
) -> String {
    let e = |key| crate::document::environment_text(environment, key);
    let steal = steal_pct
        .map_or_else(String::new, |pct| format!(", {pct:.1}% CPU stolen by the hypervisor"));
    let others = other_cpu_cores.map_or_else(String::new, |cores| {
        format!(", {cores:.2} cores in use by other work before")
    });
    format!(
        "conditions: started {}{others}, load (1 min) {} before and {} after on {} cores{steal}",
        e("date"),
        one_minute_load(load_before),
        one_minute_load(load_after),
        e("cores")
    )
}

/// The 1-minute figure of a /proc/loadavg reading, or `?`.
pub fn one_minute_load(load: Option<[f64; 3]>) -> String {
    load.map_or_else(|| "?".to_owned(), |[one, ..]| format!("{one:.2}"))
}

/// A commit's first 12 hex digits, as the machine lines show it.
pub fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}
