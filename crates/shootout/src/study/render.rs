//! The terminal view of a study: each published table with our figure and the
//! ratio beside the study's, our own tables, then the conclusions, the open
//! questions and the departures. Markdown tables, so a section pastes into
//! BENCHMARKS.md as printed.

use std::io::{self, Write};

use comfy_table::presets::ASCII_MARKDOWN;
use comfy_table::{CellAlignment, Table as Grid};

use super::Outcome;
use super::figures::{STUDY_VARIANT, Table, Variant};
use super::published::{Column, PublishedTable, Row};
use crate::output::table::{conditions_line, machine_line};

pub fn write(outcome: &Outcome, out: &mut dyn Write) -> io::Result<()> {
    let published = &outcome.published;
    writeln!(out, "{} — {}", outcome.study, published.title)?;
    writeln!(
        out,
        "Document: ../shared/studies/{} (spec/studies/{}.json)",
        published.document, outcome.study
    )?;
    writeln!(out, "The study's method: {}", published.method)?;
    writeln!(out, "The study's machine: {}", published.machine)?;
    // What was run, where and under what load, as `run --export-markdown` says it.
    let environment = serde_json::to_value(&outcome.environment).map_err(io::Error::other)?;
    writeln!(out, "\ncommand: {}  ", outcome.command.join(" "))?;
    writeln!(out, "{}  ", machine_line(&environment, "shootout"))?;
    writeln!(
        out,
        "{}",
        conditions_line(&environment, outcome.load_before, outcome.load_after, None, None)
    )?;
    for variant in &outcome.figures.variants {
        writeln!(out)?;
        writeln!(out, "## {} ({})", variant.title, variant.id)?;
        for table in &variant.tables {
            writeln!(out)?;
            match published.table(&table.id).filter(|_| variant.id == STUDY_VARIANT) {
                Some(theirs) => side_by_side(theirs, table, out)?,
                None => ours_alone(variant, table, published.table(&table.id), out)?,
            }
        }
    }
    writeln!(out)?;
    writeln!(out, "## The study's conclusions and claims, checked")?;
    for check in &outcome.checks {
        writeln!(out, "- {}: {} — {}", check.verdict.shown(), check.claim, check.evidence)?;
    }
    writeln!(out, "({})", outcome.verdicts)?;
    if !outcome.answers.is_empty() {
        writeln!(out)?;
        writeln!(out, "## The study's open questions")?;
        for answer in &outcome.answers {
            writeln!(out, "- {} — {}", answer.question, answer.answer)?;
        }
    }
    writeln!(out)?;
    writeln!(out, "## Departures from the study")?;
    for departure in &outcome.figures.departures {
        writeln!(out, "- {departure}")?;
    }
    Ok(())
}

/// Each cell: the study's figure → ours (ours / the study's); then any
/// column of ours the study has not, and why a column shows no ratio.
fn side_by_side(theirs: &PublishedTable, ours: &Table, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "### {} — the study's figure → ours (ours/study); published in {}",
        theirs.title, theirs.source
    )?;
    let extra = columns_of_ours_alone(Some(theirs), ours);
    let mut grid = grid();
    let mut header = vec![String::new()];
    header.extend(theirs.columns.iter().map(|c| with_unit(&c.title, &c.unit)));
    header.extend(extra.iter().map(|c| format!("{} (ours)", with_unit(&c.title, &c.unit))));
    grid.set_header(header);
    let labels = theirs
        .rows
        .iter()
        .map(|r| r.label.as_str())
        .chain(ours.rows.iter().map(|r| r.label.as_str()).filter(|l| theirs.row(l).is_none()));
    for label in labels {
        let study = theirs.row(label);
        let measured = ours.row(label);
        let mut cells = vec![label.to_owned()];
        for column in &theirs.columns {
            let study_cell = study.and_then(|r| published_cell(r, column));
            let measured_cell = measured.and_then(|r| measured_cell(r, column));
            let ratio = match (&column.incomparable, study, measured) {
                (None, Some(s), Some(m)) => {
                    s.value(&column.key).zip(m.value(&column.key)).map(|(s, m)| ratio(m / s))
                }
                _ => None,
            };
            let words = study.is_some_and(|r| r.text(&column.key).is_some());
            cells.push(match (study_cell, measured_cell, ratio) {
                (Some(s), Some(m), Some(r)) => format!("{s} → {m} ({r})"),
                (Some(s), Some(m), None) => format!("{s} → {m}"),
                // The study's words, which we do not measure.
                (Some(s), None, _) if words => s,
                (Some(s), None, _) => format!("{s} → not measured"),
                (None, Some(m), _) => format!("— → {m}"),
                (None, None, _) => "—".into(),
            });
        }
        for column in &extra {
            cells.push(measured.and_then(|r| measured_cell(r, column)).unwrap_or("—".into()));
        }
        grid.add_row(cells);
    }
    align_numbers(&mut grid, theirs.columns.len() + extra.len());
    writeln!(out, "{grid}")?;
    for column in &theirs.columns {
        if let Some(why) = &column.incomparable {
            writeln!(out, "{}: no ratio — {why}", with_unit(&column.title, &column.unit))?;
        }
    }
    Ok(())
}

/// The columns of `ours` a published table lacks (all, without one), titled
/// where ours titles them.
fn columns_of_ours_alone(theirs: Option<&PublishedTable>, ours: &Table) -> Vec<Column> {
    let published = |key: &str| {
        theirs.is_some_and(|t| {
            t.columns.iter().any(|c| c.key == key || c.error.as_deref() == Some(key))
        })
    };
    let mut keys: Vec<&String> = Vec::new();
    for key in ours.rows.iter().flat_map(|r| r.values.keys()) {
        if !published(key) && !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys.into_iter().map(|key| column_titled(&ours.columns, key)).collect()
}

/// Ours' title for `key`, or the key itself.
fn column_titled(columns: &[Column], key: &str) -> Column {
    columns.iter().find(|c| c.key == key).cloned().unwrap_or_else(|| Column::new(key, key, ""))
}

/// The study's figure as the document prints it (its own decimals, ± its error), or its text.
fn published_cell(row: &Row, column: &Column) -> Option<String> {
    let shown = |value: f64| match column.decimals {
        Some(decimals) => format!("{value:.decimals$}"),
        None => number(value),
    };
    cell(row, column, shown)
}

/// Our figure (three significant figures, ± its error), or our text.
fn measured_cell(row: &Row, column: &Column) -> Option<String> {
    cell(row, column, number)
}

fn cell(row: &Row, column: &Column, shown: impl Fn(f64) -> String) -> Option<String> {
    if let Some(text) = row.text(&column.key) {
        return Some(text.to_owned());
    }
    let value = shown(row.value(&column.key)?);
    let error = column.error.as_deref().and_then(|key| row.value(key));
    Some(match error {
        Some(error) => format!("{value} ± {}", shown(error)),
        None => value,
    })
}

/// A table the study did not publish (or a variant other than the study's own).
fn ours_alone(
    variant: &Variant,
    table: &Table,
    published: Option<&PublishedTable>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let title = table
        .title
        .clone()
        .or_else(|| published.map(|p| p.title.clone()))
        .unwrap_or_else(|| table.id.clone());
    writeln!(out, "### {title} ({})", variant.id)?;
    let mut columns: Vec<Column> = published.map_or_else(Vec::new, |p| p.columns.clone());
    columns.extend(columns_of_ours_alone(published, table));
    let mut grid = grid();
    let mut header = vec![String::new()];
    header.extend(columns.iter().map(|c| with_unit(&c.title, &c.unit)));
    grid.set_header(header);
    for row in &table.rows {
        let mut cells = vec![row.label.clone()];
        cells.extend(columns.iter().map(|c| measured_cell(row, c).unwrap_or_else(|| "—".into())));
        grid.add_row(cells);
    }
    align_numbers(&mut grid, columns.len());
    writeln!(out, "{grid}")
}

fn grid() -> Grid {
    let mut grid = Grid::new();
    grid.load_style(ASCII_MARKDOWN);
    grid
}

fn align_numbers(grid: &mut Grid, columns: usize) {
    for i in 1..=columns {
        if let Some(column) = grid.column_mut(i) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
}

fn with_unit(title: &str, unit: &str) -> String {
    match unit {
        "" => title.to_owned(),
        unit => format!("{title} ({unit})"),
    }
}

/// Whole numbers as they are; others to three significant figures (no
/// fraction at 100 and above).
pub fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        return format!("{value:.0}");
    }
    let magnitude = value.abs().log10().floor() as i32;
    let decimals = (2 - magnitude).clamp(0, 12) as usize;
    format!("{value:.decimals$}")
}

/// Two decimals, as ratios near one read best; a ratio below a tenth keeps
/// three significant figures, so that it never shows as ×0.00.
fn ratio(value: f64) -> String {
    match value {
        v if !v.is_finite() => "×—".into(),
        v if v.abs() < 0.1 && v != 0.0 => format!("×{}", number(v)),
        v => format!("×{v:.2}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_whole_values_and_three_figures() {
        assert_eq!(number(413.0), "413");
        assert_eq!(number(14.8), "14.8");
        assert_eq!(number(3.914), "3.91");
        assert_eq!(number(1234.56), "1235");
        assert_eq!(number(0.007_612), "0.00761");
        assert_eq!(ratio(0.5), "×0.50");
        assert_eq!(ratio(0.001_4), "×0.00140");
        assert_eq!(ratio(f64::NAN), "×—");
    }
}
