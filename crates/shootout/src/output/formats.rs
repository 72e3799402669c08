//! `shootout formats`: every registered format with its labels and its
//! family's row of the feature matrix.

use std::io::{self, Write};

use comfy_table::Table;
use comfy_table::presets::{ASCII_MARKDOWN, UTF8_BORDERS_ONLY};
use serde::Serialize;

use crate::environment::crate_version;
use crate::format::FormatInfo;
use crate::format::features::{self, Features, Schema};

#[derive(Serialize)]
pub struct FormatEntry {
    pub name: &'static str,
    pub family: &'static str,
    pub library: &'static str,
    pub library_version: &'static str,
    pub tags: Vec<&'static str>,
    pub info: &'static FormatInfo,
    pub features: Option<&'static Features>,
}

pub fn entries(infos: impl IntoIterator<Item = &'static FormatInfo>) -> Vec<FormatEntry> {
    infos
        .into_iter()
        .map(|info| FormatEntry {
            name: info.name,
            family: info.family,
            library: info.library,
            library_version: crate_version(info.library),
            tags: info.labels.tags(),
            info,
            features: features::of_family(info.family),
        })
        .collect()
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// One row per format variant; the longer facts per family follow the table.
pub fn write(entries: &[FormatEntry], markdown: bool, out: &mut dyn Write) -> io::Result<()> {
    let mut table = Table::new();
    table.load_style(if markdown {
        ASCII_MARKDOWN
    } else {
        UTF8_BORDERS_ONLY
    });
    table.set_header([
        "format",
        "family",
        "library",
        "schema",
        "self-describing",
        "zero-copy read",
        "labels",
    ]);
    for e in entries {
        let f = e.features;
        table.add_row(vec![
            e.name.to_owned(),
            e.family.to_owned(),
            format!("{} {}", e.library, e.library_version),
            f.map_or("?", |f| match f.schema {
                Schema::Idl => "IDL",
                Schema::Derive => "derive",
                Schema::None => "none",
            })
            .to_owned(),
            f.map_or("?", |f| yes_no(f.self_describing)).to_owned(),
            f.map_or("?", |f| yes_no(f.zero_copy)).to_owned(),
            e.tags.join(", "),
        ]);
    }
    writeln!(out, "{table}")?;
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
        writeln!(out, "{bullet}framing: {}", f.framing)?;
        writeln!(out, "{bullet}evolution: {}", f.evolution)?;
        writeln!(out, "{bullet}languages: {}", f.languages)?;
        writeln!(out, "{bullet}license: {}", f.license)?;
        writeln!(out, "{bullet}sources: {}", f.sources.join(" "))?;
    }
    Ok(())
}
