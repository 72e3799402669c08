//! `shootout replay` in the terminal: one table of tails per language, the
//! sustainable rates, latency against payload size, and what did not run.
//! Names and errors from other runners are shown as a terminal shows text
//! from outside.

use std::io::{self, Write};

use comfy_table::Table;
use comfy_table::presets::UTF8_BORDERS_ONLY;

use super::Document;
use super::engine::Transport;
use super::summary::Row;
use crate::sanitize;

fn shown(text: &str) -> String {
    sanitize::terminal(text).into_owned()
}

/// A latency in the unit that keeps three figures.
pub fn duration(ns: u64) -> String {
    let ns_f = ns as f64;
    match ns {
        0..1_000 => format!("{ns}ns"),
        1_000..1_000_000 => format!("{:.1}µs", ns_f / 1e3),
        1_000_000..1_000_000_000 => format!("{:.2}ms", ns_f / 1e6),
        _ => format!("{:.2}s", ns_f / 1e9),
    }
}

fn rate(per_second: Option<f64>) -> String {
    match per_second {
        None => "-".to_owned(),
        Some(v) if v >= 1e6 => format!("{:.2}M/s", v / 1e6),
        Some(v) if v >= 1e3 => format!("{:.1}k/s", v / 1e3),
        Some(v) => format!("{v:.0}/s"),
    }
}

fn allocations(row: &Row) -> String {
    let cells: Vec<String> = row
        .allocations
        .iter()
        .map(|a| match (a.count, a.bytes) {
            // None at all reads apart from a few too rare to show in two decimals.
            (Some(0.0), _) => "0".to_owned(),
            (Some(count), _) => format!("{count:.2}"),
            (None, Some(bytes)) => format!("{bytes:.0}B"),
            (None, None) => "-".to_owned(),
        })
        .collect();
    if cells.is_empty() { "-".to_owned() } else { cells.join(" / ") }
}

pub fn write(document: &Document, out: &mut dyn Write) -> io::Result<()> {
    let capture = &document.capture;
    writeln!(
        out,
        "replay: {} ({} records, {} to {}); busiest second {} with {} records; {} records replayed around it",
        shown(&document.input.name),
        capture.records,
        capture.first_send_time,
        capture.last_send_time,
        capture.busiest_second,
        capture.busiest_second_records,
        capture.replayed_records,
    )?;
    writeln!(
        out,
        "Latency: from each record's scheduled release to the end of its decode, so waiting behind \
         earlier records counts. ~: fewer than ten records beyond that percentile. \"open\": the busiest \
         second's records. allocs/rec: steady state (second half), producer / consumer, or for the process."
    )?;
    for runs in &document.languages {
        writeln!(out)?;
        writeln!(
            out,
            "{}: clock {}; {}",
            shown(&runs.language),
            shown(&runs.clock),
            shown(&runs.pinning)
        )?;
        for (name, what) in &runs.transports {
            writeln!(out, "  {}: {}", shown(name), shown(what))?;
        }
        let mut table = Table::new();
        table.load_style(UTF8_BORDERS_ONLY);
        table.set_header([
            "format",
            "transport",
            "speed",
            "records",
            "p50",
            "p90",
            "p99",
            "p99.9",
            "p99.99",
            "max",
            "open p99.9",
            "open max",
            "offered",
            "achieved",
            "backlog",
            "drops",
            "allocs/rec",
            "gc",
        ]);
        let mut failures = Vec::new();
        for row in document.rows.iter().filter(|r| r.language == runs.language) {
            let mut cells =
                vec![shown(&row.format), row.transport.name().to_owned(), row.speed.to_string()];
            if let Some(error) = &row.error {
                failures.push(format!(
                    "failed: {} over {} at {}: {}",
                    shown(&row.format),
                    row.transport.name(),
                    row.speed,
                    shown(error)
                ));
                cells.push(format!("failed ({})", failures.len()));
                table.add_row(cells);
                continue;
            }
            cells.push(row.received.to_string());
            for p in &row.percentiles {
                cells.push(format!("{}{}", if p.few { "~" } else { "" }, duration(p.ns)));
            }
            cells.push(duration(row.max_ns));
            match &row.busiest {
                Some(tail) => {
                    cells.push(duration(tail.p99_9_ns));
                    cells.push(duration(tail.max_ns));
                }
                None => cells.extend(["-".to_owned(), "-".to_owned()]),
            }
            cells.push(rate(row.offered_per_second));
            cells.push(rate(row.achieved_per_second));
            cells.push(row.max_backlog.to_string());
            cells.push(row.drops.to_string());
            cells.push(allocations(row));
            cells.push(row.gc.as_ref().map_or("-".to_owned(), |gc| {
                format!("{} ({} max)", gc.collections, duration(gc.pause_max_ns))
            }));
            table.add_row(cells);
        }
        writeln!(out, "{table}")?;
        for (number, failure) in failures.iter().enumerate() {
            writeln!(out, "({}) {failure}", number + 1)?;
        }
    }
    sustainable(document, out)?;
    sizes(document, out)?;
    for not_run in &document.not_run {
        writeln!(
            out,
            "not run: {} {}: {}",
            shown(&not_run.language),
            shown(&not_run.format),
            shown(&not_run.reason)
        )?;
    }
    Ok(())
}

fn sustainable(document: &Document, out: &mut dyn Write) -> io::Result<()> {
    let speeds: Vec<String> = document
        .settings
        .speeds
        .iter()
        .filter(|s| s.factor().is_some())
        .map(ToString::to_string)
        .collect();
    if speeds.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "\nSustainable rate: the fastest of {} at which a format dropped nothing, kept its p99.9 within {} \
         and kept up with the offered rate.",
        speeds.join(", "),
        duration(document.settings.budget_ns)
    )?;
    let transports = &document.settings.transports;
    let mut table = per_format_table(transports.iter().map(|t| t.name().to_owned()));
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for s in &document.sustainable {
        if seen.contains(&(s.language.as_str(), s.format.as_str())) {
            continue;
        }
        seen.push((&s.language, &s.format));
        let mut cells = vec![shown(&s.language), shown(&s.format)];
        for transport in transports {
            let found = document.sustainable.iter().find(|o| {
                o.language == s.language && o.format == s.format && o.transport == *transport
            });
            cells.push(match found.map(|f| f.speed) {
                Some(Some(speed)) => format!("{speed}x"),
                Some(None) => "none".to_owned(),
                None => "-".to_owned(),
            });
        }
        table.add_row(cells);
    }
    writeln!(out, "{table}")
}

/// Median latency by payload size on the ring at the fastest finite speed
/// (at `max` a full ring's queue dominates every record): does time grow with size?
fn sizes(document: &Document, out: &mut dyn Write) -> io::Result<()> {
    let speeds = &document.settings.speeds;
    let fastest = speeds
        .iter()
        .filter(|s| s.factor().is_some())
        .max_by(|a, b| a.factor().partial_cmp(&b.factor()).expect("finite speeds"));
    let Some(speed) = fastest.or(speeds.first()) else { return Ok(()) };
    let rows: Vec<&Row> = document
        .rows
        .iter()
        .filter(|r| r.transport == Transport::Ring && r.speed == *speed && r.error.is_none())
        .collect();
    if rows.is_empty() {
        return Ok(());
    }
    let mut classes: Vec<Option<u64>> =
        rows.iter().flat_map(|r| r.sizes.iter().map(|s| s.max_bytes)).collect();
    classes.sort_by_key(|c| c.unwrap_or(u64::MAX));
    classes.dedup();
    writeln!(out, "\nMedian latency by payload size (ring, {speed}); records in brackets:")?;
    let mut table = per_format_table(classes.iter().map(|c| match c {
        Some(max) => format!("≤{max} B"),
        None => "larger".to_owned(),
    }));
    for row in rows {
        let mut cells = vec![shown(&row.language), shown(&row.format)];
        for class in &classes {
            cells.push(
                row.sizes
                    .iter()
                    .find(|s| s.max_bytes == *class)
                    .map_or("-".to_owned(), |s| format!("{} ({})", duration(s.p50_ns), s.records)),
            );
        }
        table.add_row(cells);
    }
    writeln!(out, "{table}")
}

/// A table of a row per language and format, then a column each of `columns`.
fn per_format_table(columns: impl Iterator<Item = String>) -> Table {
    let mut table = Table::new();
    table.load_style(UTF8_BORDERS_ONLY);
    let mut header = vec!["language".to_owned(), "format".to_owned()];
    header.extend(columns);
    table.set_header(header);
    table
}
