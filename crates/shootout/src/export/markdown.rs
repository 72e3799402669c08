//! `--export-markdown`: the terminal tables as Markdown, for BENCHMARKS.md-style reports.

use std::io::Write;

use anyhow::Result;

use crate::output::table::{self, Columns, Style};
use crate::results::Merged;

/// Every line and cell that carries a name, label or message of the results
/// is shown as Markdown shows text from outside ([`Style::shown`]), so a name
/// holding `|`, `<script>` or a link renders as the text it is.
pub fn write(merged: &Merged, out: &mut dyn Write) -> Result<()> {
    let shown = |line: &str| Style::Markdown.shown(line);
    for line in table::preamble(merged) {
        writeln!(out, "{}  ", shown(&line))?;
    }
    for (title, table) in table::sections(merged, Style::Markdown, &Columns::All).0 {
        writeln!(out, "\n### {title}\n\n{table}")?;
    }
    for line in table::not_run(merged) {
        writeln!(out, "\n{}", shown(&line))?;
    }
    for warning in merged.warnings() {
        writeln!(out, "\nwarning: {}", shown(&warning))?;
    }
    if let Some(noise) = merged.imprecise() {
        writeln!(out, "\nwarning: {}", shown(&noise))?;
    }
    Ok(())
}
