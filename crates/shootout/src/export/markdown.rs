//! `--export-markdown`: the terminal tables as Markdown, for BENCHMARKS.md-style reports.

use std::io::Write;

use anyhow::Result;

use crate::output::table::{self, Style};
use crate::results::{Noisy, Results};

pub fn write(results: &Results, out: &mut dyn Write) -> Result<()> {
    for line in table::preamble(results) {
        writeln!(out, "{line}  ")?;
    }
    writeln!(
        out,
        "\n### Encode (ns per op)\n\n{}",
        table::direction(results, Style::Markdown, |f| &f.encode)
    )?;
    writeln!(
        out,
        "\n### Decode + aggregate (ns per op)\n\n{}",
        table::direction(results, Style::Markdown, |f| &f.decode)
    )?;
    writeln!(
        out,
        "\n### Size\n\n{}",
        table::sizes(results, Style::Markdown)
    )?;
    if let Some(csv) = table::csv_sizes(results, Style::Markdown) {
        writeln!(out, "\n### Size against the source CSV\n\n{csv}")?;
    }
    for line in table::not_run(results) {
        writeln!(out, "\n{line}")?;
    }
    for warning in &results.warnings {
        writeln!(out, "\nwarning: {warning}")?;
    }
    if let Some(noise) = Noisy::summary(&Noisy::find(&results.formats)) {
        writeln!(out, "\nwarning: {noise}")?;
    }
    Ok(())
}
