//! Results files read back by `report`, `compare`, `recommend` and the
//! driver (a runner's own results): either schema of docs/results-schema.md,
//! a set contributing each of its parts. Results files are shared between
//! people, so each is untrusted input: its size is capped before it is read,
//! its shape is bounded before anything is built from it ([`limits`]), its
//! values before anything is sized by them (histograms, runs), and whatever
//! is wrong is one line naming the file, the line and column, the JSON path
//! and what was expected.

mod limits;

use std::path::Path;

use anyhow::{Result, anyhow, bail};
use serde::de::{DeserializeOwned, DeserializeSeed};
use serde_path_to_error::{Segment, Track};

pub use limits::{ATTACHMENT, Limits, RESULTS};

use crate::document::{Results, ResultsSet, SCHEMA, SCHEMA_2, SET_SCHEMA};
use crate::sanitize::{cut, excerpt};

/// Every runner's results in the file, or one line naming the file and what was wrong.
pub fn read(path: &Path) -> Result<Vec<Results>> {
    read_as(path, &path.display().to_string())
}

/// As [`read`], naming the file `name` in errors (a runner's temporary
/// results file is "the go runner's results", not its path).
pub fn read_as(path: &Path, name: &str) -> Result<Vec<Results>> {
    let document = Document::open(path, name, &RESULTS)?;
    let expected = format!("expected {}", RESULTS.document);
    let (mut parts, set) = match document.schema.as_deref() {
        // Schema 2 is schema 3's document with derived figures, recomputed on reading either.
        Some(SCHEMA | SCHEMA_2) => (vec![document.parse::<Results>()?], false),
        Some(SET_SCHEMA) => (document.parse::<ResultsSet>()?.results, true),
        Some(other) => bail!("{name}: schema {}; {expected}", excerpt(other)),
        None => bail!("{name}: no \"schema\" key at the top; {expected}"),
    };
    check_parts(name, set, &parts)?;
    // A file is one run on one machine: a part without a testbed (an older
    // file, a runner's own) is on the testbed of the file's first part.
    let shared = parts.iter().find_map(|p| p.testbed.clone()).unwrap_or_else(|| parts[0].testbed());
    for part in &mut parts {
        part.testbed.get_or_insert_with(|| shared.clone());
    }
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
        let text = crate::input::source::read_whole_or_pipe(path, name, &limits.file)?;
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

    /// The document as the attachment `T`: typed, checked within itself,
    /// its derived figures computed again; or the one line saying where not.
    pub fn attachment<T: Attachment>(&self) -> Result<serde_json::Value> {
        let mut attachment: T = self.parse()?;
        attachment.check().map_err(|(at, problem)| anyhow!("{}: at {at}: {problem}", self.name))?;
        attachment.recompute();
        Ok(serde_json::to_value(attachment)?)
    }

    /// The document as `T`, or the one line saying where it is not one.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T> {
        let mut json = serde_json::Deserializer::from_slice(&self.text);
        serde_path_to_error::deserialize(&mut json)
            .map_err(|e| located(&self.name, e.path(), e.inner(), self.document))
    }
}

/// A document `report --attach` draws (a matrix, a replay), read as the
/// command that writes it and checked as a results file is before the page
/// draws it, so a forged one is refused rather than drawn.
pub trait Attachment: DeserializeOwned + serde::Serialize {
    /// What holds within the document; or where (its JSON path) and what does not.
    fn check(&self) -> std::result::Result<(), (String, String)>;

    /// Computes again the figures it draws from its counts or histograms,
    /// so the page takes none of them on the file's word.
    fn recompute(&mut self) {}
}

/// The one line of a JSON error: file, line and column, the JSON path, and
/// what was wrong, with any value it quotes cut short.
fn located(
    name: &str,
    path: &serde_path_to_error::Path,
    error: &serde_json::Error,
    document: &str,
) -> anyhow::Error {
    let message = crate::sanitize::json_problem(error);
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
