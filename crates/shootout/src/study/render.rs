//! The terminal view of a study: each published table with our figure and the
//! ratio beside the study's, our own tables, then the conclusions, the open
//! questions and the departures. Markdown tables, so a section pastes into
//! BENCHMARKS.md as printed.

use std::io::{self, Write};

use comfy_table::presets::ASCII_MARKDOWN;
use comfy_table::{CellAlignment, Table as Grid};

use super::Outcome;
use super::figures::{STUDY_VARIANT, Table, Variant};
use super::published::PublishedTable;

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
    writeln!(out, "## The study's conclusions")?;
    for check in &outcome.checks {
        writeln!(out, "- {}: {} — {}", check.verdict.shown(), check.claim, check.evidence)?;
    }
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

/// Each cell: the study's figure → ours (ours / the study's).
fn side_by_side(theirs: &PublishedTable, ours: &Table, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "### {} — the study's figure → ours (ours/study); published in {}",
        theirs.title, theirs.source
    )?;
    let mut grid = grid();
    let mut header = vec![String::new()];
    header.extend(theirs.columns.iter().map(|c| with_unit(&c.title, &c.unit)));
    grid.set_header(header);
    let labels = theirs
        .rows
        .iter()
        .map(|r| r.label.as_str())
        .chain(ours.rows.iter().map(|r| r.label.as_str()).filter(|l| theirs.row(l).is_none()));
    for label in labels {
        let mut cells = vec![label.to_owned()];
        for column in &theirs.columns {
            let study = theirs.row(label).and_then(|r| r.value(&column.key));
            let measured = ours.value(label, &column.key);
            cells.push(match (study, measured) {
                (Some(s), Some(m)) => format!("{} → {} ({})", number(s), number(m), ratio(m / s)),
                (Some(s), None) => format!("{} → not measured", number(s)),
                (None, Some(m)) => format!("— → {}", number(m)),
                (None, None) => "—".into(),
            });
        }
        grid.add_row(cells);
    }
    align_numbers(&mut grid, theirs.columns.len());
    writeln!(out, "{grid}")
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
    let keys: Vec<String> = match published {
        Some(p) => p.columns.iter().map(|c| c.key.clone()).collect(),
        None => {
            let mut keys: Vec<String> = Vec::new();
            for key in table.rows.iter().flat_map(|r| r.values.keys()) {
                if !keys.contains(key) {
                    keys.push(key.clone());
                }
            }
            keys
        }
    };
    let mut grid = grid();
    let mut header = vec![String::new()];
    header.extend(keys.iter().map(|k| {
        published
            .and_then(|p| p.columns.iter().find(|c| &c.key == k))
            .map_or_else(|| k.clone(), |c| with_unit(&c.title, &c.unit))
    }));
    grid.set_header(header);
    for row in &table.rows {
        let mut cells = vec![row.label.clone()];
        cells.extend(keys.iter().map(|k| row.value(k).map_or_else(|| "—".into(), number)));
        grid.add_row(cells);
    }
    align_numbers(&mut grid, keys.len());
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

fn ratio(value: f64) -> String {
    if value.is_finite() { format!("×{value:.2}") } else { "×—".into() }
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
        assert_eq!(ratio(f64::NAN), "×—");
    }
}
