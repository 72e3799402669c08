//! `shootout interop`: every language encodes the records in every format it
//! has; every language that has the same wire format decodes each of those
//! streams and validates it against the reference aggregate. The answer is a
//! producer × consumer matrix per wire format, plus whether languages write
//! the same bytes.

mod render;
pub mod stream;
pub mod wire;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::benchmark::Registered;
use crate::input::Input;
use crate::format::Access;
use crate::runners::Language;
use crate::workload::Workload;
use crate::catalog::WorkloadTask;
use stream::Stream;
use wire::{Framing, WIRES, Wire};

/// The manifest each language writes beside each stream.
pub const MANIFEST_SCHEMA: &str = "shootout-interop/1";
/// The matrix `--export-json` writes (docs/interop.md).
pub const MATRIX_SCHEMA: &str = "shootout-interop-matrix/1";

/// One language's stream of one format (`<language>-<format>.json`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    pub schema: String,
    pub language: String,
    pub format: String,
    #[serde(default)]
    pub family: String,
    #[serde(default)]
    pub library: String,
    #[serde(default)]
    pub version: String,
    pub workload: String,
    pub records: u64,
    #[serde(default)]
    pub framing: Option<Framing>,
    /// The stream's file name, beside the manifest; none when encoding failed.
    #[serde(default)]
    pub stream: Option<String>,
    #[serde(default)]
    pub bytes: u64,
    #[serde(default)]
    pub sha256: Option<String>,
    /// Why the language could not encode every record.
    #[serde(default)]
    pub error: Option<String>,
}

impl Manifest {
    fn id(&self) -> String {
        format!("{}/{}", self.language, self.format)
    }
}

/// A consumer's verdict on one stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Ok,
    Mismatch,
    Error,
    #[serde(rename = "n/a")]
    NotApplicable,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Mismatch => "mismatch",
            Status::Error => "error",
            Status::NotApplicable => "n/a",
        }
    }
}

/// What a runner answers for one decode request.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Answer {
    pub format: String,
    pub stream: String,
    pub status: Status,
    #[serde(default)]
    pub records: u64,
    #[serde(default)]
    pub detail: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Matrix {
    pub schema: &'static str,
    pub workload: &'static str,
    pub source: String,
    pub records: u64,
    pub languages: Vec<String>,
    pub wires: Vec<WireMatrix>,
}

#[derive(Debug, Serialize)]
pub struct WireMatrix {
    pub wire: &'static str,
    /// The streams written, one per producing format.
    pub producers: Vec<Manifest>,
    /// `language/format` of every format that decoded them.
    pub consumers: Vec<String>,
    pub cells: Vec<Cell>,
    /// Per pair of producers of different languages: the same bytes or not.
    pub bytes: Vec<Identity>,
    /// Why a chosen language neither writes nor reads this wire format here.
    pub absent: Vec<Absent>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    pub producer: String,
    pub consumer: String,
    pub status: Status,
    pub detail: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Identity {
    pub a: String,
    pub b: String,
    pub identical: bool,
    /// Where the records' bytes first differ, when they do.
    pub first_difference: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Absent {
    pub language: String,
    pub reason: String,
}

/// `shootout interop`, once the command line is checked.
pub struct Interop {
    pub languages: Vec<Language>,
    /// Wire formats (or any language's format names) to try; empty: all.
    pub formats: Vec<String>,
    pub max_records: Option<u64>,
    /// Where the streams go and stay; a temporary directory when `None`.
    pub keep: Option<PathBuf>,
    pub export_json: Option<crate::export::Target>,
}

/// A format some language can decode this workload with.
struct Consumer {
    language: String,
    format: String,
    framing: Framing,
    /// For a Rust decoder that skips validation (UNCHECKED), its library: it
    /// reads only the streams this process wrote with that library. Another
    /// language's or library's bytes come from outside, and bytes its library
    /// would not write are undefined behaviour in it, not a finding.
    unchecked_library: Option<&'static str>,
}

impl Consumer {
    /// Why this consumer is not fed `producer`'s stream, if it is not.
    fn refuses(&self, producer: &Manifest) -> Option<String> {
        let library = self.unchecked_library?;
        let own = producer.language == "rust" && producer.library == library;
        (!own).then(|| {
            format!(
                "{} skips validation (UNCHECKED): it reads only bytes this process wrote with {library}, and {} \
                 comes from outside",
                self.format,
                producer.id()
            )
        })
    }
}

impl WorkloadTask for Interop {
    fn on<W: Workload>(self, input: &dyn Input<W>, registered: Vec<Registered<W>>) -> Result<()>
    where
        W::Record: Clone + Serialize,
    {
        let limited;
        let input: &dyn Input<W> = match self.max_records {
            Some(max) => {
                limited = crate::input::Limited { inner: input, max };
                &limited
            }
            None => input,
        };
        let matrix = self.matrix(input, &registered)?;
        // With the JSON on standard output, the tables go to stderr.
        match self.export_json.as_ref().is_some_and(|t| t.is_stdout()) {
            true => render::terminal(&matrix, &mut std::io::stderr().lock())?,
            false => render::terminal(&matrix, &mut std::io::stdout().lock())?,
        }
        if let Some(target) = &self.export_json {
            let cannot_write = || format!("{}: cannot write", target.path.display());
            crate::export::write_with(&target.path, target.force, |out| {
                serde_json::to_writer_pretty(&mut *out, &matrix).with_context(cannot_write)?;
                writeln!(out).with_context(cannot_write)
            })?;
        }
        Ok(())
    }
}

impl Interop {
    fn wanted(&self, wire: &Wire) -> bool {
        self.formats.is_empty()
            || self
                .formats
                .iter()
                .any(|f| f == wire.name || wire.members.iter().any(|(_, member)| member == f))
    }

    fn matrix<W: Workload>(
        &self,
        input: &dyn Input<W>,
        registered: &[Registered<W>],
    ) -> Result<Matrix>
    where
        W::Record: Serialize,
    {
        if let Some(unknown) = self.formats.iter().find(|f| {
            !WIRES
                .iter()
                .any(|w| w.name == *f || w.members.iter().any(|(_, m)| m == *f))
        }) {
            let names: Vec<&str> = WIRES.iter().map(|w| w.name).collect();
            bail!(
                "--formats: no wire format or format named {unknown}; wire formats: {}",
                names.join(", ")
            );
        }
        let wires: Vec<&Wire> = WIRES.iter().filter(|w| self.wanted(w)).collect();
        let languages = Language::expand(&self.languages);
        let scanned = crate::dataset::scan(input)?;
        let temporary;
        let dir = match &self.keep {
            Some(dir) => {
                prepare_kept(dir)?;
                dir.clone()
            }
            None => {
                temporary = crate::temporary::system_dir(
                    tempfile::Builder::new().prefix("shootout-interop-"),
                )
                .context("cannot create a temporary directory for the streams")?;
                temporary.path().to_owned()
            }
        };

        // Who can take part: each language's formats on this workload, and why not.
        let mut consumers: Vec<Consumer> = Vec::new();
        let mut unavailable: BTreeMap<(String, String), String> = BTreeMap::new();
        let mut externals = Vec::new();
        for &language in &languages {
            match language.external() {
                None => {
                    for r in registered {
                        let Some(wire) = wire::wire_of("rust", r.info.name) else {
                            continue;
                        };
                        if !wires.iter().any(|w| w.name == wire.name) {
                            continue;
                        }
                        match r.unsupported_reason() {
                            Some(reason) => {
                                unavailable
                                    .insert(("rust".into(), r.info.name.into()), reason.into());
                            }
                            None => consumers.push(Consumer {
                                language: "rust".into(),
                                format: r.info.name.into(),
                                framing: wire::rust_framing(r.info.name),
                                unchecked_library: matches!(r.labels.access, Access::Unchecked)
                                    .then_some(r.info.library),
                            }),
                        }
                    }
                }
                Some(external) => {
                    eprintln!("{}: building runners/{}…", external.name, external.folder);
                    let folder = external.build()?;
                    for listed in external.list(&folder)? {
                        let key = (external.name.to_owned(), listed.name.clone());
                        if !listed.workloads.iter().any(|w| w == W::NAME) {
                            let reason = listed.not_run.clone().unwrap_or_else(|| {
                                format!("does not run the {} workload", W::NAME)
                            });
                            unavailable.insert(key, reason);
                        }
                    }
                    externals.push((external, folder));
                }
            }
        }

        // Encode: Rust here, the others through their runners, all into `dir`.
        let dataset = match externals.is_empty() {
            true => None,
            false => {
                let file = crate::temporary::system_file(
                    tempfile::Builder::new()
                        .prefix("shootout-dataset-")
                        .suffix(".jsonl"),
                )
                .context("cannot create the temporary dataset file")?;
                let mut out = std::io::BufWriter::new(file.as_file());
                crate::dataset::write_to(input, &scanned, &mut out, "the temporary dataset file")?;
                out.flush()?;
                drop(out);
                Some(file)
            }
        };
        if languages.contains(&Language::Rust) {
            for r in registered {
                let wanted = wire::wire_of("rust", r.info.name)
                    .is_some_and(|w| wires.iter().any(|x| x.name == w.name));
                if let (true, Some(codec)) = (wanted, r.codec()) {
                    let manifest = stream::encode_all(input, r.info, codec, &dir)?;
                    // An encoder's message can quote a record's values: shown, never obeyed.
                    let encoded = describe(&manifest);
                    eprintln!("encoded {}", crate::sanitize::terminal(&encoded));
                }
            }
        }
        for (external, folder) in &externals {
            let formats: Vec<&str> = wires.iter().flat_map(|w| w.of(external.name)).collect();
            if formats.is_empty() {
                continue;
            }
            let dataset = dataset.as_ref().expect("written for external runners");
            external.interop_encode(folder, dataset.path(), &dir, &formats)?;
        }
        let manifests = read_manifests(&dir, W::NAME)?;
        for m in &manifests {
            if let (false, Some(framing)) = (m.language == "rust", m.framing) {
                consumers.push(Consumer {
                    language: m.language.clone(),
                    format: m.format.clone(),
                    framing,
                    unchecked_library: None,
                });
            }
        }

        // Decode every stream with every consumer of its wire format.
        let mut requests: BTreeMap<String, Vec<(String, PathBuf)>> = BTreeMap::new();
        let mut cells: Vec<(usize, Cell, Option<PathBuf>)> = Vec::new();
        let mut out_wires = Vec::new();
        for (index, wire) in wires.iter().enumerate() {
            // In the wire row's order: language by language.
            let rank = |language: &str, format: &str| {
                wire.members.iter().position(|m| *m == (language, format))
            };
            let mut producers: Vec<&Manifest> = manifests
                .iter()
                .filter(|m| rank(&m.language, &m.format).is_some())
                .collect();
            producers.sort_by_key(|m| rank(&m.language, &m.format));
            let mut readers: Vec<&Consumer> = consumers
                .iter()
                .filter(|c| rank(&c.language, &c.format).is_some())
                .collect();
            readers.sort_by_key(|c| rank(&c.language, &c.format));
            let mut streams = Vec::new();
            for producer in &producers {
                let opened = match &producer.stream {
                    Some(_) => Some(Stream::open(&dir, producer).with_context(|| {
                        format!("the {} stream of {}", producer.language, producer.format)
                    })?),
                    None => None,
                };
                streams.push(opened);
            }
            for (producer, opened) in producers.iter().zip(&streams) {
                for reader in &readers {
                    let consumer = format!("{}/{}", reader.language, reader.format);
                    // A cell nothing can fill: no stream, or a reader that refuses it.
                    let (opened, why) = match opened {
                        None => (
                            None,
                            Some(format!(
                                "{} wrote no stream: {}",
                                producer.id(),
                                producer.error.as_deref().unwrap_or("no reason given")
                            )),
                        ),
                        Some(opened) => (Some(opened), reader.refuses(producer)),
                    };
                    let (Some(opened), None) = (opened, &why) else {
                        cells.push((
                            index,
                            Cell {
                                producer: producer.id(),
                                consumer,
                                status: Status::NotApplicable,
                                detail: why,
                            },
                            None,
                        ));
                        continue;
                    };
                    let path = opened.for_framing(&dir, reader.framing)?;
                    requests
                        .entry(reader.language.clone())
                        .or_default()
                        .push((reader.format.clone(), path.clone()));
                    cells.push((
                        index,
                        Cell {
                            producer: producer.id(),
                            consumer,
                            status: Status::NotApplicable,
                            detail: None,
                        },
                        Some(path),
                    ));
                }
            }
            let bytes = stream::identities(&producers, &streams);
            let absent = languages
                .iter()
                .filter_map(|l| {
                    let name = match l.external() {
                        Some(e) => e.name,
                        None => "rust",
                    };
                    let members: Vec<&str> = wire.of(name).collect();
                    if readers.iter().any(|r| r.language == name) {
                        return None;
                    }
                    let reason = match members.as_slice() {
                        [] if wire.languages().len() == 1 => format!(
                            "{} is specific to {}: no {name} library reads it",
                            wire.name,
                            wire.languages()[0]
                        ),
                        [] => format!("{name} has no {} codec here", wire.name),
                        present => present
                            .iter()
                            .map(|f| {
                                let why = unavailable
                                    .get(&(name.to_owned(), (*f).to_owned()))
                                    .cloned()
                                    .unwrap_or_else(|| "wrote no manifest".to_owned());
                                format!("{f}: {why}")
                            })
                            .collect::<Vec<_>>()
                            .join("; "),
                    };
                    Some(Absent {
                        language: name.to_owned(),
                        reason,
                    })
                })
                .collect();
            out_wires.push(WireMatrix {
                wire: wire.name,
                producers: producers.into_iter().cloned().collect(),
                consumers: readers
                    .iter()
                    .map(|r| format!("{}/{}", r.language, r.format))
                    .collect(),
                cells: Vec::new(),
                bytes,
                absent,
            });
        }

        // The answers: Rust's here, each other language's from one runner call.
        let mut answers: BTreeMap<(String, String, PathBuf), Answer> = BTreeMap::new();
        for (language, list) in &requests {
            let got = if language == "rust" {
                list.iter()
                    .map(|(format, path)| {
                        let r = registered
                            .iter()
                            .find(|r| r.info.name == format)
                            .expect("a Rust consumer is registered");
                        stream::decode_all(input, &scanned.reference, r, path)
                    })
                    .collect::<Result<Vec<_>>>()?
            } else {
                let (external, folder) = externals
                    .iter()
                    .find(|(e, _)| e.name == language)
                    .expect("a consumer's language has a runner");
                let dataset = dataset.as_ref().expect("written for external runners");
                external.interop_decode(folder, dataset.path(), &dir, list)?
            };
            for ((format, path), answer) in list.iter().zip(got) {
                answers.insert((language.clone(), format.clone(), path.clone()), answer);
            }
        }
        for (index, mut cell, path) in cells {
            if let Some(path) = path {
                let (language, format) = cell.consumer.split_once('/').expect("language/format");
                match answers.remove(&(language.to_owned(), format.to_owned(), path)) {
                    Some(answer) => {
                        cell.status = answer.status;
                        cell.detail = answer.detail;
                    }
                    None => {
                        cell.status = Status::Error;
                        cell.detail = Some(format!("the {language} runner gave no answer"));
                    }
                }
            }
            out_wires[index].cells.push(cell);
        }
        Ok(Matrix {
            schema: MATRIX_SCHEMA,
            workload: W::NAME,
            source: input.name(),
            records: scanned.operations,
            languages: languages
                .iter()
                .map(|l| l.external().map_or("rust", |e| e.name).to_owned())
                .collect(),
            wires: out_wires,
        })
    }
}

fn describe(m: &Manifest) -> String {
    match &m.error {
        Some(error) => format!("{}: FAILED after {} records: {error}", m.id(), m.records),
        None => format!("{}: {} records, {} bytes", m.id(), m.records, m.bytes),
    }
}

/// `--keep DIR`: a new or empty directory, so no earlier stream is mistaken for this run's.
fn prepare_kept(dir: &Path) -> Result<()> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir)
            .with_context(|| format!("{}: cannot read the directory", dir.display()))?;
        if entries.next().is_some() {
            bail!(
                "{}: --keep needs a new or empty directory (it holds files already)",
                dir.display()
            );
        }
        Ok(())
    } else {
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))
    }
}

/// Every manifest in `dir`, checked, in file-name order.
fn read_manifests(dir: &Path, workload: &str) -> Result<Vec<Manifest>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("{}: cannot read", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let text =
                std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))?;
            let manifest: Manifest = serde_json::from_slice(&text)
                .with_context(|| format!("{}: not a {MANIFEST_SCHEMA} manifest", path.display()))?;
            if manifest.schema != MANIFEST_SCHEMA || manifest.workload != workload {
                bail!(
                    "{}: a {} manifest of workload {}, expected {MANIFEST_SCHEMA} of {workload}",
                    path.display(),
                    manifest.schema,
                    manifest.workload
                );
            }
            if manifest.error.is_none() && (manifest.stream.is_none() || manifest.framing.is_none())
            {
                bail!(
                    "{}: names no stream or framing, and no error",
                    path.display()
                );
            }
            Ok(manifest)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::InMemory;
    use crate::catalog::registry;
    use crate::workload::Dataset;

    /// Every Rust format of `W` has a wire row, writes a stream framed as
    /// declared, and reads its own stream back.
    fn streams_are_framed_as_declared<W: Workload>(
        dataset: Dataset<W>,
        registered: Vec<Registered<W>>,
    ) where
        W::Aggregate: Clone,
    {
        let reference = dataset.reference.clone();
        let input = InMemory::generated(dataset);
        let dir = tempfile::tempdir().unwrap();
        let mut misframed = Vec::new();
        for r in &registered {
            let name = r.info.name;
            assert!(
                wire::wire_of("rust", name).is_some(),
                "{name} has no wire row"
            );
            let Some(codec) = r.codec() else { continue };
            let manifest = stream::encode_all(&input, r.info, codec, dir.path()).unwrap();
            if manifest.error.is_some() {
                // A record the format cannot carry (bson: a u64 over i64::MAX): recorded, no stream.
                assert!(
                    manifest.stream.is_none() && manifest.sha256.is_none(),
                    "{name}"
                );
                continue;
            }
            if wire::rust_framing(name) == Framing::None {
                // An undeclared length prefix would pass as a self-delimiting body.
                let bytes =
                    std::fs::read(dir.path().join(manifest.stream.as_ref().unwrap())).unwrap();
                let ends: Vec<usize> = std::fs::read(
                    dir.path()
                        .join(manifest.stream.as_ref().unwrap())
                        .with_extension("ends"),
                )
                .unwrap()
                .chunks_exact(8)
                .map(|e| u64::from_le_bytes(e.try_into().unwrap()) as usize)
                .collect();
                let mut start = 0;
                let prefixed = ends.iter().all(|&end| {
                    let record = &bytes[start..end];
                    start = end;
                    record.len() >= 4
                        && u32::from_le_bytes(record[..4].try_into().unwrap()) as usize
                            == record.len() - 4
                });
                assert!(
                    !prefixed,
                    "{name} prefixes its records with a u32le length: declare it in rust_framing"
                );
            }
            let opened = match Stream::open(dir.path(), &manifest) {
                Ok(opened) => opened,
                Err(e) => {
                    misframed.push(format!("{name} on {}: {e:#}", W::NAME));
                    continue;
                }
            };
            let own = opened
                .for_framing(dir.path(), wire::rust_framing(name))
                .unwrap();
            let answer = stream::decode_all(&input, &reference, r, &own).unwrap();
            assert_eq!(answer.status, Status::Ok, "{name}: {:?}", answer.detail);
        }
        assert!(misframed.is_empty(), "{}", misframed.join("\n"));
    }

    #[test]
    fn rust_streams_are_framed_as_declared_on_iex() {
        streams_are_framed_as_declared(crate::workload::iex::sample_dataset(), registry::iex());
    }

    #[test]
    fn rust_streams_are_framed_as_declared_on_user() {
        streams_are_framed_as_declared(crate::workload::user::sample(), registry::user());
    }
}
