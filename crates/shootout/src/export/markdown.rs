//! `--export-markdown`: the terminal tables as Markdown, for BENCHMARKS.md-style reports.

use std::io::Write;

use anyhow::Result;

use crate::output::table::{self, Style};
use crate::results::Results;

pub fn write(results: &Results, out: &mut dyn Write) -> Result<()> {
    for line in table::preamble(results) {
        writeln!(out, "{line}  ")?;
    }
    writeln!(out, "\n### Encode (ns per record)\n\n{}", table::direction(results, Style::Markdown, |f| &f.encode.summary))?;
    writeln!(out, "\n### Decode + aggregate (ns per record)\n\n{}", table::direction(results, Style::Markdown, |f| &f.decode.summary))?;
    writeln!(out, "\n### Size\n\n{}", table::sizes(results, Style::Markdown))?;
    Ok(())
}
