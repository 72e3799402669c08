//! `--export-json`: everything, in the schema of docs/results-schema.md.

use std::io::Write;

use anyhow::Result;

use crate::results::Results;

pub fn write(results: &Results, out: &mut dyn Write) -> Result<()> {
    serde_json::to_writer_pretty(&mut *out, results)?;
    writeln!(out)?;
    Ok(())
}
