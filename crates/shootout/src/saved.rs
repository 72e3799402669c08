//! Results files read back by `report`, `compare` and `recommend`: either
//! schema of docs/results-schema.md, a set contributing each of its parts.

use std::path::Path;

use anyhow::{Result, anyhow, bail};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::results::{Results, ResultsSet, SCHEMA, SCHEMA_2, SET_SCHEMA};

/// Every runner's results in the file, or one line naming the file and what was expected.
pub fn read(path: &Path) -> Result<Vec<Results>> {
    let file = path.display();
    let expected =
        format!("expected a shootout results file ({SCHEMA}, {SCHEMA_2} or {SET_SCHEMA})");
    let bytes = std::fs::read(path).map_err(|e| anyhow!("{file}: cannot read: {e}"))?;
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|e| anyhow!("{file}: not JSON ({e}); {expected}"))?;
    match value.get("schema").and_then(Value::as_str) {
        // Schema 2 is schema 3's document with derived figures, recomputed on reading either.
        Some(SCHEMA) => Ok(vec![parse(path, SCHEMA, value)?]),
        Some(SCHEMA_2) => Ok(vec![parse(path, SCHEMA_2, value)?]),
        Some(SET_SCHEMA) => Ok(parse::<ResultsSet>(path, SET_SCHEMA, value)?.results),
        Some(other) => bail!("{file}: schema {other}; {expected}"),
        None => bail!("{file}: no \"schema\" key; {expected}"),
    }
}

fn parse<T: DeserializeOwned>(path: &Path, schema: &str, value: Value) -> Result<T> {
    serde_json::from_value(value)
        .map_err(|e| anyhow!("{}: not a valid {schema} document: {e}", path.display()))
}
