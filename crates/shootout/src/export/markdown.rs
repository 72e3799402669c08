//! `--export-markdown`: the terminal tables as Markdown, for BENCHMARKS.md-style reports.

use std::io::Write;

use anyhow::Result;

use crate::output::table::{self, Columns, Style};
use crate::results::Merged;

pub fn write(merged: &Merged, out: &mut dyn Write) -> Result<()> {
    for line in table::preamble(merged) {
        writeln!(out, "{line}  ")?;
    }
    for (title, table) in table::sections(merged, Style::Markdown, &Columns::All).0 {
        writeln!(out, "\n### {title}\n\n{table}")?;
    }
    for line in table::not_run(merged) {
        writeln!(out, "\n{line}")?;
    }
    for warning in merged.warnings() {
        writeln!(out, "\nwarning: {warning}")?;
    }
    if let Some(noise) = merged.imprecise() {
        writeln!(out, "\nwarning: {noise}")?;
    }
    Ok(())
}
