//! `--export-json`: everything, in the schema of docs/results-schema.md: one
//! runner's results as they are, several runners' as one results set.

use std::io::Write;

use anyhow::Result;

use crate::results::Merged;

use crate::document::{ResultsSet, SET_SCHEMA};

pub fn write(merged: &Merged, out: &mut dyn Write) -> Result<()> {
    match &merged.parts[..] {
        [one] => serde_json::to_writer_pretty(&mut *out, one)?,
        several => serde_json::to_writer_pretty(
            &mut *out,
            &ResultsSet { schema: SET_SCHEMA.to_owned(), results: several.to_vec() },
        )?,
    }
    writeln!(out)?;
    Ok(())
}
