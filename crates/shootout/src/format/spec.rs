//! `spec/formats.json`: every format of every language (name, family, wire,
//! framing, labels, workloads) in one table, the layout spec/README.md gives.
//! Each language's tests hold its registry to its own rows; Rust's test is
//! `registry::tests::spec_lists_every_rust_format`. `shootout interop` reads
//! the other languages' wires from here.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::Framing;

pub const SCHEMA: &str = "shootout-formats/1";

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

/// The table this binary was built with.
pub fn rows() -> &'static [Row] {
    static ROWS: LazyLock<Vec<Row>> = LazyLock::new(|| {
        let table: Table = serde_json::from_str(include_str!("../../../../spec/formats.json"))
            .expect("spec/formats.json has the layout spec/README.md gives");
        assert_eq!(table.schema, SCHEMA, "spec/formats.json");
        table.formats
    });
    &ROWS
}

/// Fails, with the rows that differ, unless the Rust rows of
/// spec/formats.json are `registry`; with `SHOOTOUT_UPDATE_EXPECTED` set,
/// writes them there instead.
#[cfg(test)]
pub fn check_rust_rows(registry: &[Row]) {
    let path =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/formats.json"));
    if std::env::var_os("SHOOTOUT_UPDATE_EXPECTED").is_some() {
        write_rust_rows(path, registry);
        return;
    }
    let listed: Vec<&Row> = rows().iter().filter(|r| r.language == "rust").collect();
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
