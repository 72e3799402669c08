//! The comparison as a terminal table or Markdown: one row per language,
//! format and direction, each timing cell with its change and verdict. File
//! names, workloads, formats, languages and environment values come from the
//! results files: every line and cell is shown as its medium shows text from
//! outside.

use std::borrow::Cow;
use std::io::Write;

use anyhow::Result;
use comfy_table::presets::{ASCII_MARKDOWN, UTF8_BORDERS_ONLY};
use comfy_table::{CellAlignment, Table, TableStyle};

use super::{Comparison, Figure, Verdict};
use crate::sanitize;

/// How a medium shows text from outside.
type Shown = fn(&str) -> Cow<'_, str>;

pub fn terminal(comparison: &Comparison, out: &mut dyn Write) -> Result<()> {
    let shown: Shown = sanitize::terminal;
    for line in preamble(comparison) {
        writeln!(out, "{}", shown(&line))?;
    }
    writeln!(out, "\n{}", table(comparison, UTF8_BORDERS_ONLY, shown))?;
    for line in membership(comparison) {
        writeln!(out, "{}", shown(&line))?;
    }
    Ok(())
}

pub fn markdown(comparison: &Comparison, out: &mut dyn Write) -> Result<()> {
    let shown: Shown = sanitize::markdown;
    writeln!(out, "# Comparison\n")?;
    for line in preamble(comparison) {
        writeln!(out, "{}  ", shown(&line))?;
    }
    if !comparison.environment.is_empty() {
        writeln!(out, "\n## Environment differences\n")?;
        for line in &comparison.environment {
            writeln!(out, "- {}", shown(line))?;
        }
    }
    writeln!(out, "\n## Changes\n\n{}", table(comparison, ASCII_MARKDOWN, shown))?;
    for line in membership(comparison) {
        writeln!(out, "\n{}", shown(&line))?;
    }
    Ok(())
}

fn preamble(c: &Comparison) -> Vec<String> {
    let mut lines = vec![format!(
        "{} ({}, {} records) → {} ({}, {} records)",
        c.old.file, c.old.workload, c.old.records, c.new.file, c.new.workload, c.new.records
    )];
    lines.extend(c.shifts.iter().filter_map(|shift| {
        let ratio = shift.ratio?;
        let pct = |r: f64| 100.0 * (r - 1.0);
        Some(format!(
            "{}: the machine ran {:.1}% {} in the new file ({:+.1}% to {:+.1}%, the median of {} format directions), \
             every format alike; taken out before each format is tested",
            shift.language,
            pct(ratio.value).abs(),
            if ratio.value > 1.0 { "slower" } else { "faster" },
            pct(ratio.interval.low),
            pct(ratio.interval.high),
            shift.cells
        ))
    }));
    lines.push(format!(
        "significance: {}; alpha {} over {} timing cells, --min-change {}%",
        c.method, c.alpha, c.cells_tested, c.min_change_pct
    ));
    lines.push(
        "cells: ns/op as measured (median across runs), then its change against the machine's shift [95% \
         interval] and slower / faster (called), ~ (not significant after correction, or within --min-change: \
         below what these runs resolve) or too few runs (no test with one run a side); p50, p99, p99.9: the \
         change of the medians, drift included, not tested; bytes and allocations are exact"
            .to_owned(),
    );
    if c.changes.iter().any(|change| change.instructions_per_op.is_some()) {
        lines.push(format!(
            "instr/op (both files ran --instructions): the change as counted, more / fewer beyond ±{}%, ~ within \
             it; {}",
            super::INSTRUCTIONS_MIN_CHANGE_PCT,
            crate::instructions::NOT_TIME
        ));
    }
    lines
}

fn table(c: &Comparison, style: TableStyle, shown: Shown) -> Table {
    let several = c.changes.iter().any(|change| change.language != c.changes[0].language);
    let mut table = Table::new();
    table.load_style(style);
    let mut header = vec!["format"];
    if several {
        header.push("lang");
    }
    header.extend(["dir", "ns/op", "p50", "p99", "p99.9", "B/record", "allocs/op"]);
    // Only when both files counted instructions (`run --instructions`).
    let counted = c.changes.iter().any(|change| change.instructions_per_op.is_some());
    if counted {
        header.push("instr/op");
    }
    table.set_header(header);
    for change in &c.changes {
        let mut row = vec![change.format.clone()];
        if several {
            row.push(change.language.clone());
        }
        row.extend([
            change.direction.to_owned(),
            format!(
                "{} → {} {}{}",
                value(change.ns_per_op.old),
                value(change.ns_per_op.new),
                timing(&change.ns_per_op),
                change.ns_per_op.q_value.map_or_else(String::new, |q| format!(" q={q:.3}"))
            ),
            timing(&change.p50_ns),
            timing(&change.p99_ns),
            timing(&change.p999_ns),
            exact(&change.bytes_per_record),
            exact(&change.allocations_per_op),
        ]);
        if counted {
            row.push(change.instructions_per_op.as_ref().map_or_else(|| "–".to_owned(), counts));
        }
        table.add_row(row.iter().map(|cell| shown(cell)));
    }
    let first_figure = if several { 3 } else { 2 };
    for index in first_figure..first_figure + 6 + usize::from(counted) {
        if let Some(column) = table.column_mut(index) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    table
}

fn value(v: Option<f64>) -> String {
    match v {
        Some(v) if v < 100.0 => format!("{v:.1}"),
        Some(v) => format!("{v:.0}"),
        None => "–".to_owned(),
    }
}

fn pct(f: &Figure) -> String {
    f.change_pct.map_or_else(|| "–".to_owned(), |p| format!("{p:+.1}%"))
}

fn timing(f: &Figure) -> String {
    let verdict = match f.verdict {
        Verdict::Slower => "slower",
        Verdict::Faster => "faster",
        Verdict::NotSignificant => "~",
        Verdict::TooFewRuns => "too few runs",
        Verdict::Descriptive
        | Verdict::Deterministic
        | Verdict::Missing
        | Verdict::More
        | Verdict::Fewer => "",
    };
    let interval =
        f.change_ci_pct.map_or_else(String::new, |[low, high]| format!(" [{low:+.0}, {high:+.0}]"));
    format!("{}{interval} {verdict}", pct(f))
}

/// Instructions per op: old → new, the change, and more / fewer (beyond
/// the threshold) or ~.
fn counts(f: &Figure) -> String {
    let verdict = match f.verdict {
        Verdict::More => " more",
        Verdict::Fewer => " fewer",
        _ => " ~",
    };
    format!("{} → {} {}{verdict}", value(f.old), value(f.new), pct(f))
}

fn exact(f: &Figure) -> String {
    match (f.old, f.new) {
        (Some(a), Some(b)) if a == b => value(Some(a)),
        (Some(_), Some(_)) => format!("{} → {} {}", value(f.old), value(f.new), pct(f)),
        _ => "–".to_owned(),
    }
}

fn membership(c: &Comparison) -> Vec<String> {
    let list = |named: &[super::Named]| {
        named
            .iter()
            .map(|n| format!("{} ({})", n.format, n.language))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let ns_per_op =
        |verdict| c.changes.iter().filter(|change| change.ns_per_op.verdict == verdict).count();
    let mut lines = vec![format!(
        "ns/op of {} format directions: {} significantly slower, {} faster, {} not significant, {} too few runs to tell",
        c.changes.len(),
        ns_per_op(Verdict::Slower),
        ns_per_op(Verdict::Faster),
        ns_per_op(Verdict::NotSignificant),
        ns_per_op(Verdict::TooFewRuns)
    )];
    if !c.added.is_empty() {
        lines.push(format!("added (only in {}): {}", c.new.file, list(&c.added)));
    }
    if !c.removed.is_empty() {
        lines.push(format!("removed (only in {}): {}", c.old.file, list(&c.removed)));
    }
    if let Some(limit) = c.fail_above_pct {
        lines.push(match c.regressions.len() {
            0 => format!("--fail-above {limit}%: no ns/op significantly slower by more than that"),
            n => format!(
                "--fail-above {limit}%: {n} figure(s) significantly slower by more than that"
            ),
        });
    }
    lines
}
