//! `spec/formats.json`: every format of every language (name, family, wire,
//! framing, labels, workloads) in one table, the layout spec/README.md gives.
//! Each language's tests hold its registry to its own rows; Rust's test is
//! `registry::tests::spec_lists_every_rust_format`. `shootout interop` reads
//! the other languages' wires from here.

use std::path::Path;
use std::sync::OnceLock;

use anyhow::{Context, Result, anyhow, ensure};
use serde::{Deserialize, Serialize};

use super::Framing;

pub const SCHEMA: &str = "shootout-formats/1";

/// The table in the source tree this binary was built from. It is read when
/// first needed, not embedded: a contributor's new format rewrites it (its
/// rows), and an embedded copy would make that recompile the whole crate.
const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/formats.json");

/// One format of one language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// As results name it: `rust`, `go` or `java`.
    pub language: String,
    /// As that language's registry names it.
    pub name: String,
    pub family: String,
    pub wire: Option<String>,
    pub framing: Framing,
    /// As that language's results serialize them.
    pub labels: serde_json::Value,
    pub workloads: Vec<String>,
}

#[derive(Deserialize)]
struct Table {
    schema: String,
    formats: Vec<Row>,
}

/// The table of the source tree this binary was built from.
pub fn rows() -> Result<&'static [Row]> {
    static ROWS: OnceLock<Result<Vec<Row>, String>> = OnceLock::new();
    ROWS.get_or_init(|| read(Path::new(PATH)).map_err(|e| format!("{e:#}")))
        .as_deref()
        .map_err(|e| anyhow!("{e}"))
}

fn read(path: &Path) -> Result<Vec<Row>> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "cannot read {}, the formats of every language, in the source tree this program was built from",
            path.display()
        )
    })?;
    let table: Table = serde_json::from_str(&text)
        .with_context(|| format!("{}: not the layout spec/README.md gives", path.display()))?;
    ensure!(table.schema == SCHEMA, "{}: schema {}, not {SCHEMA}", path.display(), table.schema);
    Ok(table.formats)
}

/// Fails, with the rows that differ, unless the Rust rows of
/// spec/formats.json are `registry`; with `SHOOTOUT_UPDATE_EXPECTED` set,
/// writes them there instead.
#[cfg(test)]
pub fn check_rust_rows(registry: &[Row]) {
    let path = Path::new(PATH);
    if std::env::var_os("SHOOTOUT_UPDATE_EXPECTED").is_some() {
        write_rust_rows(path, registry);
        return;
    }
    let listed: Vec<&Row> =
        rows().expect("spec/formats.json").iter().filter(|r| r.language == "rust").collect();
    if listed.iter().copied().eq(registry) {
        return;
    }
    // Format by format (the registry's, then those only the file has): its row
    // in the file (-) and in the registry (+), where they differ.
    let line = |row: &Row| serde_json::to_string(row).expect("a row serializes");
    let mut names: Vec<&str> = registry.iter().map(|r| r.name.as_str()).collect();
    for row in &listed {
        if !names.contains(&row.name.as_str()) {
            names.push(&row.name);
        }
    }
    let mut diff = Vec::new();
    for name in names {
        let file = listed.iter().find(|r| r.name == name).map(|r| line(r));
        let ours = registry.iter().find(|r| r.name == name).map(line);
        if file != ours {
            diff.extend(file.map(|l| format!("- {l}")));
            diff.extend(ours.map(|l| format!("+ {l}")));
        }
    }
    if diff.is_empty() {
        diff.push("(the same rows in another order)".to_owned());
    }
    panic!(
        "spec/formats.json (-) differs from the Rust registry (+):\n{}\n\
         If the registry is right, rewrite its rows: SHOOTOUT_UPDATE_EXPECTED=1 cargo test -p shootout --lib spec_lists_every_rust_format",
        diff.join("\n")
    );
}

/// Replaces the Rust rows (the first, as rows go by language) of the file at
/// `path`, created when absent. The file is read just before it is written,
/// and the Go and Java rows stay as they are there.
#[cfg(test)]
fn write_rust_rows(path: &std::path::Path, rows: &[Row]) {
    let others: Vec<serde_json::Value> = match std::fs::read_to_string(path) {
        Ok(text) => {
            let table: serde_json::Value = serde_json::from_str(&text).expect("spec/formats.json");
            table["formats"].as_array().cloned().unwrap_or_default()
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => panic!("{}: {e}", path.display()),
    };
    let ours = rows.iter().map(|row| serde_json::to_value(row).expect("a row serializes"));
    let others = others.into_iter().filter(|row| row["language"] != "rust");
    let formats: Vec<serde_json::Value> = ours.chain(others).collect();
    let table = serde_json::json!({ "schema": SCHEMA, "formats": formats });
    let text = serde_json::to_string_pretty(&table).expect("the table serializes") + "\n";
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}
