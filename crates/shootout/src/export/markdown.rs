//! `--export-markdown`: the verdict, the command and the terminal tables as
//! Markdown, so a page of results (docs/results/, scripts/results-pages.sh)
//! says what was run and how far to trust it.

use std::io::Write;

use anyhow::Result;

use crate::output::table::{self, Columns, Style};
use crate::output::verdict;
use crate::results::Merged;

/// Every line and cell that carries a name, label or message of the results
/// is shown as Markdown shows text from outside ([`Style::shown`]), so a name
/// holding `|`, `<script>` or a link renders as the text it is.
pub fn write(merged: &Merged, out: &mut dyn Write) -> Result<()> {
    let shown = |line: &str| Style::Markdown.shown(line);
    // Its title line is left to the page, as the HTML report does.
    for line in verdict::verdict(merged, verdict::UNCLIPPED).iter().skip(1) {
        writeln!(out, "- {}", shown(line))?;
    }
    let command = merged.first().invocation.command_line.join(" ");
    writeln!(out, "\ncommand: {}  ", shown(&command))?;
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
