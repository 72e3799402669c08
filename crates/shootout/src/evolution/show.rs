//! `shootout evolution`: the matrix in the terminal (outcomes, a legend, each
//! finding spelled out), as JSON (docs/evolution-schema.md) and as the HTML
//! report's page with the matrix as its one section (export/html.rs).

use std::io::{self, Write};

use anyhow::{Result, bail};
use comfy_table::presets::UTF8_BORDERS_ONLY;
use comfy_table::{CellAlignment, Table};
use serde::{Deserialize, Serialize};

use super::matrix::{self, Counts, Outcome, Row};
use super::{Change, Direction, Evolving, FORMATS};
use crate::export::Target;

/// Identifies the JSON export's layout (docs/evolution-schema.md).
pub const SCHEMA: &str = "shootout-evolution/1";

pub struct Options {
    /// Format names to run (all when empty).
    pub formats: Vec<String>,
    /// Checked before the matrix runs, so a bad export path fails first.
    pub exports: Vec<Target>,
}

/// What the exports hold: the JSON export as is, and the HTML page's data.
#[derive(Serialize, Deserialize)]
pub struct Export {
    schema: String,
    records: usize,
    changes: Vec<Described<Change>>,
    directions: Vec<Described<Direction>>,
    formats: Vec<Row>,
}

#[derive(Serialize, Deserialize)]
struct Described<T> {
    name: T,
    description: String,
}

/// A matrix given to `report --attach` is consistent within itself: a
/// format at least; each cell's records counted once, as many as the
/// matrix's, and its outcome the worst class among them.
impl crate::saved::Attachment for Export {
    fn check(&self) -> std::result::Result<(), (String, String)> {
        if self.formats.is_empty() {
            return Err(("formats".into(), "none; expected the formats tried".into()));
        }
        for (i, row) in self.formats.iter().enumerate() {
            for (j, cell) in row.cells.iter().enumerate() {
                let Counts { ok, error, silent, panic } = cell.records;
                let counted = [ok, error, silent, panic]
                    .iter()
                    .try_fold(0usize, |sum, n| sum.checked_add(*n));
                if counted != Some(self.records) || cell.records.worst() != cell.outcome.class() {
                    return Err((
                        format!("formats[{i}].cells[{j}].records"),
                        format!(
                            "{ok} ok, {error} error, {silent} silent, {panic} panic, outcome {}; expected the matrix's {} records counted once, and the worst of them as the outcome",
                            cell.outcome.class(),
                            self.records
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

pub fn evolution(options: Options) -> Result<()> {
    let formats = chosen(&options.formats)?;
    let records = matrix::records();
    let rows = matrix::run(&formats, &records);
    if !options.exports.iter().any(Target::is_stdout) {
        write_terminal(&rows, records.len(), &mut io::stdout().lock())?;
    }
    let document = Export {
        schema: SCHEMA.to_owned(),
        records: records.len(),
        changes: Change::ALL
            .map(|name| Described { name, description: describe_change(name).to_owned() })
            .into(),
        directions: Direction::ALL
            .map(|name| Described { name, description: describe_direction(name).to_owned() })
            .into(),
        formats: rows,
    };
    for target in &options.exports {
        target.write_document(&document)?;
    }
    Ok(())
}

fn chosen(names: &[String]) -> Result<Vec<&'static Evolving>> {
    if names.is_empty() {
        return Ok(FORMATS.iter().collect());
    }
    names
        .iter()
        .map(|name| {
            let Some(format) = FORMATS.iter().find(|f| f.name == name.trim()) else {
                bail!(
                    "unknown format '{name}' for the evolution matrix; it has: {}",
                    FORMATS.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
                )
            };
            Ok(format)
        })
        .collect()
}

/// The records of a cell by class, e.g. "records: 3 silent, 26 error, 0 ok of 29".
fn tally(counts: &Counts) -> String {
    let total = counts.ok + counts.error + counts.silent + counts.panic;
    let mut parts: Vec<String> =
        [(counts.silent, "silent"), (counts.panic, "panic"), (counts.error, "error")]
            .into_iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, class)| format!("{n} {class}"))
            .collect();
    parts.push(format!("{} ok", counts.ok));
    format!("records: {} of {total}", parts.join(", "))
}

pub fn describe_change(change: Change) -> &'static str {
    match change {
        Change::AddField => "v2 appends an optional text field, email",
        Change::RemoveField => "v2 drops nickname",
        Change::RenameField => "v2 renames total_login_num to login_count",
        Change::WidenInt => "v2 widens tutorial from int32 to int64",
        Change::ReorderFields => "v2 declares the fields in reverse order",
    }
}

fn describe_direction(direction: Direction) -> &'static str {
    match direction {
        Direction::OldToNew => "written by v1, read by v2 (a new reader of old data)",
        Direction::NewToOld => "written by v2, read by v1 (an old reader of new data)",
    }
}

fn short_change(change: Change) -> &'static str {
    match change {
        Change::AddField => "add",
        Change::RemoveField => "remove",
        Change::RenameField => "rename",
        Change::WidenInt => "widen",
        Change::ReorderFields => "reorder",
    }
}

fn short_direction(direction: Direction) -> &'static str {
    match direction {
        Direction::OldToNew => "old→new",
        Direction::NewToOld => "new→old",
    }
}

/// What each outcome means; `--help` and the terminal legend share it.
const LEGEND: &str = "ok: every record read back equal (a field the data lacked read as absent \
    or its default); error: the reader (or writer) refused, cleanly; silent: read without complaint into \
    wrong values, the dangerous one; panic: the library panicked (caught).";

/// Each change on a line of its own, as `--help` and the terminal list them.
fn change_lines() -> String {
    Change::ALL
        .map(|change| format!("  {:<8} {}\n", short_change(change), describe_change(change)))
        .concat()
}

/// `shootout evolution --help`'s closing text.
pub fn help() -> String {
    format!(
        "Changes (each v2 follows its format's documented evolution rules where it has them: field \
         numbers kept, reader/writer schemas, #[serde(default)], aliases, ...; formats without rules get \
         the plain changed type):\n{}\
         Directions:\n{}\
         Outcomes: {LEGEND}\n\
         Exit status: 0 when the matrix ran, whatever it found (a finding is not a failure); 1 on an \
         error (an unknown format, an export file that cannot be written).",
        change_lines(),
        Direction::ALL
            .map(|d| format!("  {:<8} {}\n", short_direction(d), describe_direction(d)))
            .concat(),
    )
}

fn write_terminal(rows: &[Row], records: usize, out: &mut dyn Write) -> io::Result<()> {
    let mut table = Table::new();
    table.load_style(UTF8_BORDERS_ONLY);
    let mut header = vec!["format".to_owned()];
    for change in Change::ALL {
        for direction in Direction::ALL {
            header.push(format!("{}\n{}", short_change(change), short_direction(direction)));
        }
    }
    table.set_header(header);
    let mut findings = Vec::new();
    for row in rows {
        let mut cells = vec![comfy_table::Cell::new(&row.name)];
        for cell in &row.cells {
            let text = if cell.outcome == Outcome::Ok {
                "ok".to_owned()
            } else {
                findings.push((&row.name, cell));
                format!("{} {}", cell.outcome.class(), findings.len())
            };
            cells.push(comfy_table::Cell::new(text).set_alignment(CellAlignment::Center));
        }
        table.add_row(cells);
    }
    writeln!(
        out,
        "Schema evolution: {records} user records written by one version, read by the other."
    )?;
    writeln!(out, "{table}")?;
    write!(out, "Changes:\n{}", change_lines())?;
    writeln!(out, "Outcomes: {LEGEND}")?;
    if !findings.is_empty() {
        writeln!(out, "\nFindings:")?;
        for (number, (name, cell)) in findings.iter().enumerate() {
            writeln!(
                out,
                "  {}. {name}, {} {}: {} ({}): {}",
                number + 1,
                short_change(cell.change),
                short_direction(cell.direction),
                cell.outcome.class(),
                tally(&cell.records),
                cell.outcome.detail()
            )?;
        }
    }
    writeln!(out, "\nEach format's evolution rules: `--export-json` (formats[].rules).")
}
