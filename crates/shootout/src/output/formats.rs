//! `shootout formats`: every registered format with its labels and its
//! family's row of the feature matrix; with `--lang`, other languages' formats too.

use std::io::{self, Write};

use comfy_table::Table;
use comfy_table::presets::{ASCII_MARKDOWN, UTF8_BORDERS_ONLY};
use serde::Serialize;

use crate::environment::crate_version;
use crate::format::FormatInfo;
use crate::format::features::{self, Features, Schema};
use crate::format::releases::{self, Release};
use crate::runners::Listed;

#[derive(Serialize)]
pub struct FormatEntry {
    pub language: String,
    pub name: String,
    pub family: String,
    pub library: String,
    pub library_version: String,
    pub tags: Vec<String>,
    pub labels: serde_json::Value,
    pub notes: String,
    /// Why the format runs nowhere in this language (no library for it).
    pub not_run: Option<String>,
    /// The library's newest release and its date ([`releases`]): Rust rows;
    /// the other runners do not list it.
    pub last_release: Option<String>,
    /// The family's row of the feature matrix: a property of the format, whatever the language.
    pub features: Option<&'static Features>,
}

pub fn entries(infos: impl IntoIterator<Item = &'static FormatInfo>) -> Vec<FormatEntry> {
    infos
        .into_iter()
        .map(|info| FormatEntry {
            language: "rust".to_owned(),
            name: info.name.to_owned(),
            family: info.family.name().to_owned(),
            library: info.library.to_owned(),
            library_version: crate_version(info.library).to_owned(),
            tags: info.labels.tags().into_iter().map(str::to_owned).collect(),
            labels: serde_json::to_value(info.labels).expect("labels serialize"),
            notes: info.notes.to_owned(),
            not_run: None,
            last_release: releases::of(info.library).map(Release::shown),
            features: info.family.features(),
        })
        .collect()
}

/// Another language's formats, as its runner lists them.
pub fn listed(language: &str, listed: Vec<Listed>) -> Vec<FormatEntry> {
    listed
        .into_iter()
        .map(|l| FormatEntry {
            language: language.to_owned(),
            features: features::of_family(&l.family),
            name: l.name,
            family: l.family,
            library: l.library,
            library_version: l.library_version,
            tags: l.tags,
            labels: l.labels,
            notes: l.notes,
            not_run: l.not_run,
            last_release: None,
        })
        .collect()
}

/// The [`Traits`](features::Traits) a family has, by name, e.g. "binary, streaming, nested".
fn traits_held(f: &Features) -> String {
    let traits = serde_json::to_value(f.traits).expect("traits serialize");
    let held: Vec<String> = traits
        .as_object()
        .expect("traits serialize as an object")
        .iter()
        .filter(|(_, held)| held.as_bool() == Some(true))
        .map(|(name, _)| name.replace('_', " "))
        .collect();
    if held.is_empty() { "none".to_owned() } else { held.join(", ") }
}

/// One row per family, one column per language, each cell the libraries that
/// language has for the family (`-` for none): what exists in a reader's language at a glance.
fn libraries_by_language(entries: &[FormatEntry], markdown: bool) -> Table {
    let mut languages: Vec<&str> = Vec::new();
    let mut families: Vec<&str> = Vec::new();
    for e in entries {
        if !languages.contains(&e.language.as_str()) {
            languages.push(&e.language);
        }
        if !families.contains(&family_of(e)) {
            families.push(family_of(e));
        }
    }
    let mut table = Table::new();
    table.load_style(if markdown { ASCII_MARKDOWN } else { UTF8_BORDERS_ONLY });
    table.set_header(std::iter::once("family").chain(languages.iter().copied()));
    for family in families {
        let cells = languages.iter().map(|language| {
            let mut libraries: Vec<String> = Vec::new();
            for e in entries.iter().filter(|e| e.language == *language && family_of(e) == family) {
                let library = match &e.not_run {
                    Some(_) if e.library.is_empty() => "not run".to_owned(),
                    Some(_) => format!("{} (not run)", e.library),
                    None => e.library.clone(),
                };
                if !libraries.contains(&library) {
                    libraries.push(library);
                }
            }
            if libraries.is_empty() { "-".to_owned() } else { libraries.join(", ") }
        });
        let row: Vec<String> = std::iter::once(family.to_owned()).chain(cells).collect();
        table.add_row(row.iter().map(|cell| shown(cell, markdown)));
    }
    table
}

/// The family a format belongs to, by the feature matrix's name where the
/// matrix knows it, so languages that spell a family differently share a row.
fn family_of(entry: &FormatEntry) -> &str {
    entry.features.map_or(entry.family.as_str(), |f| f.family)
}

/// A cell as the medium shows it safely: another language's runner lists its
/// own names, libraries, labels and reasons, text from outside.
fn shown(text: &str, markdown: bool) -> String {
    match markdown {
        true => crate::sanitize::markdown(text).into_owned(),
        false => crate::sanitize::terminal(text).into_owned(),
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// One row per format variant; the longer facts per family follow the table.
pub fn write(entries: &[FormatEntry], markdown: bool, out: &mut dyn Write) -> io::Result<()> {
    let mut table = Table::new();
    table.load_style(if markdown { ASCII_MARKDOWN } else { UTF8_BORDERS_ONLY });
    let several = entries.iter().any(|e| e.language != entries[0].language);
    let mut header = vec![
        "format",
        "family",
        "library",
        "newest release",
        "schema",
        "self-describing",
        "zero-copy read",
        "labels",
    ];
    if several {
        header.insert(1, "lang");
    }
    table.set_header(header);
    for e in entries {
        let f = e.features;
        let mut row = vec![e.name.clone()];
        if several {
            row.push(e.language.clone());
        }
        row.extend([
            e.family.clone(),
            format!("{} {}", e.library, e.library_version),
            e.last_release.clone().unwrap_or_else(|| "-".to_owned()),
            f.map_or("?", |f| match f.schema {
                Schema::Idl => "IDL",
                Schema::Derive => "derive",
                Schema::None => "none",
            })
            .to_owned(),
            f.map_or("?", |f| yes_no(f.self_describing)).to_owned(),
            f.map_or("?", |f| yes_no(f.zero_copy)).to_owned(),
            match &e.not_run {
                Some(reason) => format!("not run: {reason}"),
                None => e.tags.join(", "),
            },
        ]);
        table.add_row(row.iter().map(|cell| shown(cell, markdown)));
    }
    writeln!(out, "{table}")?;
    if several {
        writeln!(out, "\n{}libraries by family and language", if markdown { "#### " } else { "" })?;
        writeln!(out, "{}", libraries_by_language(entries, markdown))?;
    }
    let mut seen: Vec<&str> = Vec::new();
    for f in entries.iter().filter_map(|e| e.features) {
        if seen.contains(&f.family) {
            continue;
        }
        seen.push(f.family);
        let bullet = if markdown { "- " } else { "  " };
        writeln!(out, "\n{}{}", if markdown { "#### " } else { "" }, f.family)?;
        writeln!(out, "{bullet}schema: {}", f.schema_detail)?;
        writeln!(out, "{bullet}unions: {}", f.unions)?;
        writeln!(out, "{bullet}optional fields: {}", f.optional_fields)?;
        writeln!(out, "{bullet}top level: {}", f.top_level)?;
        writeln!(out, "{bullet}extension types: {}", f.extension_types)?;
        writeln!(out, "{bullet}framing: {}", f.framing)?;
        writeln!(out, "{bullet}evolution: {}", f.evolution)?;
        writeln!(out, "{bullet}languages: {}", f.languages)?;
        writeln!(out, "{bullet}licenses: {}", f.licenses)?;
        writeln!(out, "{bullet}maintenance: {}", f.maintenance)?;
        writeln!(out, "{bullet}traits: {}", traits_held(f))?;
        writeln!(out, "{bullet}sources: {}", f.sources.join(" "))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(language: &str, family: &str, library: &str, not_run: Option<&str>) -> FormatEntry {
        FormatEntry {
            language: language.to_owned(),
            name: format!("{family}-{library}"),
            family: family.to_owned(),
            library: library.to_owned(),
            library_version: "1".to_owned(),
            tags: vec![],
            labels: serde_json::Value::Null,
            notes: String::new(),
            not_run: not_run.map(str::to_owned),
            last_release: None,
            features: features::of_family(family),
        }
    }

    #[test]
    fn libraries_by_language_has_a_row_per_family_and_a_column_per_language() {
        let entries = [
            entry("rust", "JSON", "serde_json", None),
            entry("rust", "JSON", "sonic-rs", None),
            entry("go", "JSON", "encoding/json", None),
            entry("go", "UBJSON", "<none>", Some("no maintained Go library")),
            entry("jvm", "Kryo", "kryo", None),
            entry("jvm", "Cap'n Proto", "", Some("no maintained Java library")),
        ];
        let text = libraries_by_language(&entries, true).to_string();
        let cells: Vec<Vec<&str>> = text
            .lines()
            .filter(|line| !line.starts_with("|-"))
            .map(|line| line.trim_matches('|').split('|').map(str::trim).collect())
            .collect();
        assert_eq!(
            cells,
            [
                vec!["family", "rust", "go", "jvm"],
                vec!["JSON", "serde_json, sonic-rs", "encoding/json", "-"],
                vec!["UBJSON", "-", "&lt;none&gt; (not run)", "-"],
                vec!["Kryo", "-", "-", "kryo"],
                vec!["Cap'n Proto", "-", "-", "not run"],
            ]
        );
    }
}
