//! Results files read back by `report`, `compare`, `recommend` and the
//! driver (a runner's own results): either schema of docs/results-schema.md,
//! a set contributing each of its parts. Results files are shared between
//! people, so each is untrusted input: its size is capped before it is read,
//! its shape is bounded before anything is built from it ([`limits`]), its
//! values before anything is sized by them (histograms, runs), and whatever
//! is wrong is one line naming the file, the line and column, the JSON path
//! and what was expected.

mod limits;

use std::fs::File;
use std::io::Read;
use std::path::Path;

use anyhow::{Result, anyhow, bail};
use serde::de::{DeserializeOwned, DeserializeSeed};
use serde_path_to_error::{Segment, Track};

pub use limits::{ATTACHMENT, Limits, RESULTS};

use crate::document::{Results, ResultsSet, SCHEMA, SCHEMA_2, SET_SCHEMA};

/// The largest file read. A run of every language's formats in 30
/// processes writes about 2 MB; a file is read whole, and what is built from
/// it takes a few times its size, so this bounds a reader's memory to a few
/// hundred MB whatever the file (`/dev/zero` and pipes included).
pub const MOST_BYTES: u64 = 64 * 1024 * 1024;

/// Every runner's results in the file, or one line naming the file and what was wrong.
pub fn read(path: &Path) -> Result<Vec<Results>> {
    read_as(path, &path.display().to_string())
}

/// As [`read`], naming the file `name` in errors (a runner's temporary
/// results file is "the go runner's results", not its path).
pub fn read_as(path: &Path, name: &str) -> Result<Vec<Results>> {
    let document = Document::open(path, name, &RESULTS)?;
    let expected = format!("expected {}", RESULTS.document);
    let (parts, set) = match document.schema.as_deref() {
        // Schema 2 is schema 3's document with derived figures, recomputed on reading either.
        Some(SCHEMA | SCHEMA_2) => (vec![document.parse::<Results>()?], false),
        Some(SET_SCHEMA) => (document.parse::<ResultsSet>()?.results, true),
        Some(other) => bail!("{name}: schema {}; {expected}", excerpt(other)),
        None => bail!("{name}: no \"schema\" key at the top; {expected}"),
    };
    check_parts(name, set, &parts)?;
    Ok(parts)
}

/// A JSON file from outside, read within a size cap and [`Limits`].
pub struct Document {
    name: String,
    /// What the file should be, as errors say.
    document: &'static str,
    text: Vec<u8>,
    /// The top-level `"schema"` string, when there is one.
    pub schema: Option<String>,
}

impl Document {
    pub fn open(path: &Path, name: &str, limits: &Limits) -> Result<Document> {
        let text = read_capped(path, name)?;
        let mut state = limits::State::default();
        let mut json = serde_json::Deserializer::from_slice(&text);
        let mut track = Track::new();
        limits::Walk::new(limits, &mut state)
            .deserialize(serde_path_to_error::Deserializer::new(&mut json, &mut track))
            .and_then(|()| json.end())
            .map_err(|e| located(name, &track.path(), &e, limits.document))?;
        Ok(Document {
            name: name.to_owned(),
            document: limits.document,
            text,
            schema: state.schema,
        })
    }

    /// The document as `T`, or the one line saying where it is not one.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T> {
        let mut json = serde_json::Deserializer::from_slice(&self.text);
        serde_path_to_error::deserialize(&mut json)
            .map_err(|e| located(&self.name, e.path(), e.inner(), self.document))
    }
}

/// The file's bytes, refused past [`MOST_BYTES`]: a regular file by its
/// size before a byte is read, anything else (a pipe, a device) as soon as
/// it has given one byte more.
fn read_capped(path: &Path, name: &str) -> Result<Vec<u8>> {
    let cannot = |e: std::io::Error| anyhow!("{name}: cannot read: {e}");
    let file = File::open(path).map_err(cannot)?;
    let size = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    let too_large =
        |size: &str| anyhow!("{name}: {size} bytes; expected at most {MOST_BYTES} (64 MiB)");
    if let Some(size) = size.filter(|&size| size > MOST_BYTES) {
        return Err(too_large(&size.to_string()));
    }
    let mut text = Vec::with_capacity(size.unwrap_or(0) as usize);
    file.take(MOST_BYTES + 1).read_to_end(&mut text).map_err(cannot)?;
    if text.len() as u64 > MOST_BYTES {
        return Err(too_large(&format!("more than {MOST_BYTES}")));
    }
    Ok(text)
}

/// The one line of a JSON error: file, line and column, the JSON path, and
/// what was wrong, with any value it quotes cut short.
fn located(
    name: &str,
    path: &serde_path_to_error::Path,
    error: &serde_json::Error,
    document: &str,
) -> anyhow::Error {
    let message = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    let message = cut_quoted(message.strip_suffix(&position).unwrap_or(&message));
    let mut place = Vec::new();
    if error.line() > 0 {
        place.push(format!("line {}, column {}", error.line(), error.column()));
    }
    if path.iter().next().is_some() {
        place.push(format!("at {}", shown_path(path)));
    }
    let place: String = place.iter().map(|p| format!(" {p}")).collect::<Vec<_>>().join(",");
    match error.is_syntax() || error.is_eof() {
        // A number beyond f64 (1e400) is JSON, just not one a figure can be.
        true if message == "number out of range" => {
            anyhow!("{name}:{place}: a number out of range; expected a finite one")
        }
        true => anyhow!("{name}:{place}: not JSON ({message}); expected {document}"),
        false => anyhow!("{name}:{place}: {message}"),
    }
}

/// `formats[2].encode.runs[0].histogram`, each key cut short.
fn shown_path(path: &serde_path_to_error::Path) -> String {
    let mut shown = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => shown.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !shown.is_empty() {
                    shown.push('.');
                }
                shown.push_str(&cut(key));
            }
            // Where a key was about to be read.
            Segment::Unknown => {}
        }
    }
    shown
}

/// serde's messages quote the value they refused (`invalid type: string
/// "…", expected u64`), escaped as Rust debug strings: each quoted value
/// longer than [`QUOTED_CHARS`] is cut there, with `…`.
fn cut_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut chars = message.chars();
    while let Some(c) = chars.next() {
        out.push(c);
        if c != '"' {
            continue;
        }
        let mut kept = 0;
        let mut escaped = false;
        for c in chars.by_ref() {
            let closing = c == '"' && !escaped;
            escaped = c == '\\' && !escaped;
            if closing {
                if kept > QUOTED_CHARS {
                    out.push('…');
                }
                out.push('"');
                break;
            }
            kept += 1;
            if kept <= QUOTED_CHARS {
                out.push(c);
            }
        }
    }
    out
}

const QUOTED_CHARS: usize = 40;

/// A value from the file as an error quotes it: escaped, in quotes, and when
/// long cut at [`QUOTED_CHARS`] with its length.
pub fn excerpt(text: &str) -> String {
    let length = text.chars().count();
    match length > QUOTED_CHARS {
        true => format!("\"{}\" ({length} characters)", cut(text)),
        false => format!("\"{}\"", text.escape_debug()),
    }
}

/// The first [`QUOTED_CHARS`] characters of `text`, escaped, with `…` when there were more.
fn cut(text: &str) -> String {
    let head: String = text.chars().take(QUOTED_CHARS).collect();
    match head.len() < text.len() {
        true => format!("{}…", head.escape_debug()),
        false => head.escape_debug().to_string(),
    }
}

/// What holds across the parts of a file: a set has at least one, each a
/// results document of the same workload and record count (one run on one
/// input, as `run --lang` writes it), each with something measured or
/// failed, and measured formats with the runs they were measured in.
fn check_parts(name: &str, set: bool, parts: &[Results]) -> Result<()> {
    let Some(first) = parts.first() else {
        bail!("{name}: at results: an empty set; expected at least one runner's results");
    };
    for (i, part) in parts.iter().enumerate() {
        let at = |key: &str| match set {
            true => format!("results[{i}].{key}"),
            false => key.to_owned(),
        };
        if ![SCHEMA, SCHEMA_2].contains(&part.schema.as_str()) {
            bail!(
                "{name}: at {}: {}; expected {SCHEMA} or {SCHEMA_2}",
                at("schema"),
                excerpt(&part.schema)
            );
        }
        if part.formats.is_empty() && part.failed.is_empty() {
            bail!(
                "{name}: at {}: no format measured or failed; expected at least one",
                at("formats")
            );
        }
        if !part.formats.is_empty() && part.runs.iter().all(|run| run.warmup) {
            bail!(
                "{name}: at {}: no measured run; expected the passes its formats were measured in",
                at("runs")
            );
        }
        let (ours, theirs) = (&part.workload, &first.workload);
        if ours.name != theirs.name || ours.records != theirs.records {
            bail!(
                "{name}: at {}: {} records of {}; expected results[0]'s {} records of {} (a set is one run on one input)",
                at("workload"),
                ours.records,
                excerpt(&ours.name),
                theirs.records,
                excerpt(&theirs.name)
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_quoted_values_are_cut_and_escapes_kept_whole() {
        let long = format!("invalid type: string \"{}\", expected u64", "x".repeat(100));
        assert_eq!(
            cut_quoted(&long),
            format!("invalid type: string \"{}…\", expected u64", "x".repeat(40))
        );
        let escaped = r#"invalid value: string "a\"b\\", expected a name"#;
        assert_eq!(cut_quoted(escaped), escaped);
    }
}
