//! `shootout interop`: every language encodes the records in every format it
//! has; every language that has the same wire format decodes each of those
//! streams and validates it against the reference aggregate. The answer is a
//! producer × consumer matrix per wire format, plus whether languages write
//! the same bytes.

mod outside;
mod render;
pub mod stream;
pub mod wire;

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use crate::benchmark::Registered;
use crate::catalog::WorkloadTask;
use crate::format::{Access, FormatInfo, Framing};
use crate::input::source::{MANIFEST_FILE, read_whole};
use crate::input::{Input, Scanned};
use crate::runners::{External, Language};
use crate::sanitize::json_error;
use crate::workload::Workload;
use stream::Stream;
use wire::Wire;

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
    /// The wire format, when `format` alone does not say it: written by
    /// producers outside shootout (`--decode`), never by its own languages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wire: Option<String>,
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

#[derive(Debug, Serialize, Deserialize)]
pub struct Matrix {
    pub schema: String,
    pub workload: String,
    pub source: String,
    pub records: u64,
    pub languages: Vec<String>,
    pub wires: Vec<WireMatrix>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct WireMatrix {
    pub wire: String,
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

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Cell {
    pub producer: String,
    pub consumer: String,
    pub status: Status,
    pub detail: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Identity {
    pub a: String,
    pub b: String,
    pub identical: bool,
    /// Where the records' bytes first differ, when they do.
    pub first_difference: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Absent {
    pub language: String,
    pub reason: String,
}

/// A matrix given to `report --attach` is consistent within itself: a wire
/// format at least; each cell between a producer and a consumer of its wire
/// format; no stream of more records than the matrix's input.
impl crate::saved::Attachment for Matrix {
    fn check(&self) -> std::result::Result<(), (String, String)> {
        if self.wires.is_empty() {
            return Err(("wires".into(), "none; expected the wire formats tried".into()));
        }
        for (i, wire) in self.wires.iter().enumerate() {
            // Sets: a file's cells are checked in time linear in their number.
            let producers: HashSet<String> = wire.producers.iter().map(Manifest::id).collect();
            let consumers: HashSet<&String> = wire.consumers.iter().collect();
            if let Some(j) = wire.producers.iter().position(|p| p.records > self.records) {
                return Err((
                    format!("wires[{i}].producers[{j}].records"),
                    format!(
                        "{}; expected at most the matrix's {} records",
                        wire.producers[j].records, self.records
                    ),
                ));
            }
            let stray = |cell: &Cell| {
                !producers.contains(&cell.producer) || !consumers.contains(&cell.consumer)
            };
            if let Some(j) = wire.cells.iter().position(stray) {
                return Err((
                    format!("wires[{i}].cells[{j}]"),
                    format!(
                        "{} read by {}; expected one of the wire format's producers read by one of its consumers",
                        crate::sanitize::excerpt(&wire.cells[j].producer),
                        crate::sanitize::excerpt(&wire.cells[j].consumer)
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// `shootout interop`, once the command line is checked.
pub struct Interop {
    pub languages: Vec<Language>,
    /// Wire formats (or any language's format names) to try; empty: all.
    pub formats: Vec<String>,
    pub max_records: Option<u64>,
    /// Where the streams go and stay; a temporary directory when `None`.
    pub keep: Option<PathBuf>,
    /// `--decode DIR`: streams written outside shootout, added as producers.
    pub decode: Option<PathBuf>,
    /// `--export-json` and `--export-html`, checked.
    pub exports: Vec<crate::export::Target>,
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
    /// The consumer another language's manifest stands for: the format that
    /// wrote a stream of a wire format reads that wire format.
    fn of_other_language(manifest: &Manifest) -> Option<Consumer> {
        let framing = manifest.framing.filter(|_| manifest.language != "rust")?;
        Some(Consumer {
            language: manifest.language.clone(),
            format: manifest.format.clone(),
            framing,
            unchecked_library: None,
        })
    }

    fn id(&self) -> String {
        format!("{}/{}", self.language, self.format)
    }

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
        let mut limited = None;
        let input = crate::input::Limited::first(input, self.max_records, &mut limited);
        let matrix = self.matrix(input, &registered)?;
        // With an export on standard output, the tables go to stderr.
        match self.exports.iter().any(|t| t.is_stdout()) {
            true => render::terminal(&matrix, &mut std::io::stderr().lock())?,
            false => render::terminal(&matrix, &mut std::io::stdout().lock())?,
        }
        for target in &self.exports {
            target.write_document(&matrix)?;
        }
        Ok(())
    }
}

impl Interop {
    /// Who takes part; every chosen format's stream, encoded by its own
    /// language; each stream planned against every consumer of its wire
    /// format; the consumers' answers.
    fn matrix<W: Workload>(
        &self,
        input: &dyn Input<W>,
        registered: &[Registered<W>],
    ) -> Result<Matrix>
    where
        W::Record: Serialize,
    {
        let wires = self.chosen_wires()?;
        let languages = Language::expand(&self.languages);
        let scanned = crate::dataset::scan(input)?;
        let outside = match &self.decode {
            Some(from) => outside::read(from, W::NAME, scanned.operations, &wires)?,
            None => Vec::new(),
        };
        let (dir, _temporary) = self.stream_dir()?;
        let mut taking_part = Participants::gather(&languages, &wires, registered)?;
        let runners = Runners::start(&taking_part.externals, input, &scanned)?;
        if languages.contains(&Language::Rust) {
            encode_rust(input, registered, &wires, &dir)?;
        }
        runners.encode(&wires, &dir)?;
        let manifests = read_manifests(&dir, W::NAME)?;
        taking_part.consumers.extend(manifests.iter().filter_map(Consumer::of_other_language));
        let planned: Vec<Planned> = wires
            .iter()
            .map(|wire| {
                Planned::wire(
                    wire,
                    &manifests,
                    &outside,
                    &taking_part.consumers,
                    &dir,
                    absent(wire, &languages, &taking_part),
                )
            })
            .collect::<Result<_>>()?;
        let mut answers = runners.decode(&planned, &dir, |format, path| {
            let r = registered
                .iter()
                .find(|r| r.info.name == format)
                .expect("a Rust consumer is registered");
            stream::decode_all(input, &scanned.reference, r, path)
        })?;
        Ok(Matrix {
            schema: MATRIX_SCHEMA.to_owned(),
            workload: W::NAME.to_owned(),
            source: input.name(),
            records: scanned.operations,
            languages: languages.iter().map(|l| name_of(*l).to_owned()).collect(),
            wires: planned.into_iter().map(|planned| planned.answered(&mut answers)).collect(),
        })
    }

    /// The wire formats `--formats` names, by their own name or a member's;
    /// all of them when it names none.
    fn chosen_wires(&self) -> Result<Vec<&'static Wire>> {
        let named = |wire: &Wire, name: &str| {
            wire.name == name || wire.members.iter().any(|(_, member)| *member == name)
        };
        let wires = wire::wires()?;
        if let Some(unknown) = self.formats.iter().find(|f| !wires.iter().any(|w| named(w, f))) {
            let names: Vec<&str> = wires.iter().map(|w| w.name).collect();
            bail!(
                "--formats: no wire format or format named {unknown}; wire formats: {}",
                names.join(", ")
            );
        }
        Ok(wires
            .iter()
            .filter(|w| self.formats.is_empty() || self.formats.iter().any(|f| named(w, f)))
            .collect())
    }

    /// Where the streams go: `--keep`'s directory, or a temporary one that
    /// lives as long as the guard returned with it.
    fn stream_dir(&self) -> Result<(PathBuf, Option<crate::temporary::Dir>)> {
        match &self.keep {
            Some(dir) => {
                prepare_kept(dir)?;
                // Absolute: the other languages' runners run in their own folders.
                let dir = std::path::absolute(dir)
                    .with_context(|| format!("{}: cannot resolve", dir.display()))?;
                Ok((dir, None))
            }
            None => {
                let temporary = crate::temporary::system_dir(
                    tempfile::Builder::new().prefix("shootout-interop-"),
                )
                .context("cannot create a temporary directory for the streams")?;
                Ok((temporary.path().to_owned(), Some(temporary)))
            }
        }
    }
}

/// `language` as results and wire rows name it.
fn name_of(language: Language) -> &'static str {
    language.external().map_or("rust", |e| e.name)
}

/// Whether `info` writes one of `wires`.
fn on_wires(info: &FormatInfo, wires: &[&Wire]) -> bool {
    info.wire.is_some_and(|name| wires.iter().any(|w| w.name == name))
}

/// Who takes part on this workload before anything is encoded.
struct Participants {
    /// Rust's decoders of the chosen wire formats (the other languages' come
    /// with their manifests).
    consumers: Vec<Consumer>,
    /// (language, format) → why that format does not run on this workload.
    unavailable: BTreeMap<(String, String), String>,
    /// Each other language chosen, with its built runner's folder.
    externals: Vec<(&'static External, PathBuf)>,
}

impl Participants {
    /// Rust's formats on `wires` and each other language's runner, built and
    /// asked for its list.
    fn gather<W: Workload>(
        languages: &[Language],
        wires: &[&Wire],
        registered: &[Registered<W>],
    ) -> Result<Participants> {
        let mut taking_part = Participants {
            consumers: Vec::new(),
            unavailable: BTreeMap::new(),
            externals: Vec::new(),
        };
        for &language in languages {
            let Some(external) = language.external() else {
                for r in registered.iter().filter(|r| on_wires(r.info, wires)) {
                    match r.unsupported_reason() {
                        Some(reason) => {
                            let key = ("rust".to_owned(), r.info.name.to_owned());
                            taking_part.unavailable.insert(key, reason.to_owned());
                        }
                        None => taking_part.consumers.push(Consumer {
                            language: "rust".into(),
                            format: r.info.name.into(),
                            framing: r.info.framing,
                            unchecked_library: matches!(r.labels.access, Access::Unchecked)
                                .then_some(r.info.library),
                        }),
                    }
                }
                continue;
            };
            eprintln!("{}: building runners/{}…", external.name, external.folder);
            let folder = external.build()?;
            for listed in external.list(&folder)? {
                if !listed.workloads.iter().any(|w| w == W::NAME) {
                    let reason = listed
                        .not_run
                        .clone()
                        .unwrap_or_else(|| format!("does not run the {} workload", W::NAME));
                    let key = (external.name.to_owned(), listed.name);
                    taking_part.unavailable.insert(key, reason);
                }
            }
            taking_part.externals.push((external, folder));
        }
        Ok(taking_part)
    }
}

/// Encodes the records in every chosen Rust format into `dir`.
fn encode_rust<W: Workload>(
    input: &dyn Input<W>,
    registered: &[Registered<W>],
    wires: &[&Wire],
    dir: &Path,
) -> Result<()>
where
    W::Record: Serialize,
{
    for r in registered.iter().filter(|r| on_wires(r.info, wires)) {
        if let Some(codec) = r.codec() {
            let manifest = stream::encode_all(input, r.info, codec, dir)?;
            // An encoder's message can quote a record's values: shown, never obeyed.
            let encoded = describe(&manifest);
            eprintln!("encoded {}", crate::sanitize::line(&encoded));
        }
    }
    Ok(())
}

/// The other languages' runners, and the records written for them to read.
struct Runners<'a> {
    externals: &'a [(&'static External, PathBuf)],
    /// The records as a dataset file; none when no other language takes part.
    dataset: Option<crate::temporary::File>,
}

impl<'a> Runners<'a> {
    fn start<W: Workload>(
        externals: &'a [(&'static External, PathBuf)],
        input: &dyn Input<W>,
        scanned: &Scanned<W>,
    ) -> Result<Runners<'a>>
    where
        W::Record: Serialize,
    {
        if externals.is_empty() {
            return Ok(Runners { externals, dataset: None });
        }
        let file = crate::temporary::system_file(
            tempfile::Builder::new().prefix("shootout-dataset-").suffix(".jsonl"),
        )
        .context("cannot create the temporary dataset file")?;
        let mut out = std::io::BufWriter::new(file.as_file());
        crate::dataset::write_to(input, scanned, &mut out, "the temporary dataset file")?;
        out.flush()?;
        drop(out);
        Ok(Runners { externals, dataset: Some(file) })
    }

    fn dataset(&self) -> &Path {
        self.dataset.as_ref().expect("written for external runners").path()
    }

    /// Each runner encodes the records in its formats of `wires` into `dir`.
    fn encode(&self, wires: &[&Wire], dir: &Path) -> Result<()> {
        for (external, folder) in self.externals {
            let formats: Vec<&str> = wires.iter().flat_map(|w| w.of(external.name)).collect();
            if !formats.is_empty() {
                external.interop_encode(folder, self.dataset(), dir, &formats)?;
            }
        }
        Ok(())
    }

    /// Every request of the planned cells answered: Rust's by `decode_rust`
    /// (format, stream), each other language's by one call of its runner.
    fn decode(
        &self,
        planned: &[Planned],
        dir: &Path,
        decode_rust: impl Fn(&str, &Path) -> Result<Answer>,
    ) -> Result<BTreeMap<Request, Answer>> {
        let mut requests: BTreeMap<&str, Vec<(String, PathBuf)>> = BTreeMap::new();
        for request in planned.iter().flat_map(|p| p.requests.iter().flatten()) {
            requests
                .entry(&request.language)
                .or_default()
                .push((request.format.clone(), request.path.clone()));
        }
        let mut answers = BTreeMap::new();
        for (language, list) in requests {
            let got = if language == "rust" {
                list.iter()
                    .map(|(format, path)| decode_rust(format, path))
                    .collect::<Result<Vec<_>>>()?
            } else {
                let (external, folder) = self
                    .externals
                    .iter()
                    .find(|(e, _)| e.name == language)
                    .expect("a consumer's language has a runner");
                external.interop_decode(folder, self.dataset(), dir, &list)?
            };
            for ((format, path), answer) in list.into_iter().zip(got) {
                let request = Request { language: language.to_owned(), format, path };
                answers.insert(request, answer);
            }
        }
        Ok(answers)
    }
}

/// A cell's question: does `language`'s `format` read the stream at `path`?
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Request {
    language: String,
    format: String,
    path: PathBuf,
}

/// One wire format's matrix before the answers come.
struct Planned {
    matrix: WireMatrix,
    /// Per cell of `matrix.cells`, what its consumer is asked; none for a
    /// cell nothing can fill (its detail says why).
    requests: Vec<Option<Request>>,
}

impl Planned {
    /// Every producer of `wire` against every consumer of it, both in the
    /// wire row's order (language by language); then the streams from
    /// outside (`--decode`) of `wire`, in their manifests' file-name order.
    fn wire(
        wire: &Wire,
        manifests: &[Manifest],
        outside: &[outside::Outside],
        consumers: &[Consumer],
        dir: &Path,
        absent: Vec<Absent>,
    ) -> Result<Planned> {
        let mut producers: Vec<&Manifest> =
            manifests.iter().filter(|m| wire.rank(&m.language, &m.format).is_some()).collect();
        producers.sort_by_key(|m| wire.rank(&m.language, &m.format));
        let mut readers: Vec<&Consumer> =
            consumers.iter().filter(|c| wire.rank(&c.language, &c.format).is_some()).collect();
        readers.sort_by_key(|c| wire.rank(&c.language, &c.format));
        let own = producers
            .iter()
            .map(|producer| {
                let opened = producer.stream.as_ref().map(|_| {
                    Stream::open(dir, producer).with_context(|| {
                        format!("the {} stream of {}", producer.language, producer.format)
                    })
                });
                opened.transpose()
            })
            .collect::<Result<Vec<_>>>()?;
        let outside: Vec<&outside::Outside> =
            outside.iter().filter(|o| o.wire == wire.name).collect();
        producers.extend(outside.iter().map(|o| &o.manifest));
        let streams: Vec<Option<&Stream>> =
            own.iter().map(Option::as_ref).chain(outside.iter().map(|o| Some(&o.stream))).collect();
        let mut cells = Vec::new();
        let mut requests = Vec::new();
        for (producer, opened) in producers.iter().zip(&streams) {
            for reader in &readers {
                // A cell nothing can fill: no stream, or a reader that refuses it.
                let why = match opened {
                    None => Some(format!(
                        "{} wrote no stream: {}",
                        producer.id(),
                        producer.error.as_deref().unwrap_or("no reason given")
                    )),
                    Some(_) => reader.refuses(producer),
                };
                requests.push(match (opened, &why) {
                    (Some(opened), None) => Some(Request {
                        language: reader.language.clone(),
                        format: reader.format.clone(),
                        path: opened.for_framing(dir, reader.framing)?,
                    }),
                    _ => None,
                });
                cells.push(Cell {
                    producer: producer.id(),
                    consumer: reader.id(),
                    status: Status::NotApplicable,
                    detail: why,
                });
            }
        }
        let bytes = stream::identities(&producers, &streams)?;
        Ok(Planned {
            matrix: WireMatrix {
                wire: wire.name.to_owned(),
                producers: producers.into_iter().cloned().collect(),
                consumers: readers.iter().map(|r| r.id()).collect(),
                cells,
                bytes,
                absent,
            },
            requests,
        })
    }

    /// The matrix with each asked cell's answer, or an error where none came.
    fn answered(self, answers: &mut BTreeMap<Request, Answer>) -> WireMatrix {
        let mut matrix = self.matrix;
        for (cell, request) in matrix.cells.iter_mut().zip(self.requests) {
            let Some(request) = request else { continue };
            match answers.remove(&request) {
                Some(answer) => {
                    cell.status = answer.status;
                    cell.detail = answer.detail;
                }
                None => {
                    cell.status = Status::Error;
                    cell.detail = Some(format!("the {} runner gave no answer", request.language));
                }
            }
        }
        matrix
    }
}

/// Why each chosen language that neither writes nor reads `wire` here does not.
fn absent(wire: &Wire, languages: &[Language], taking_part: &Participants) -> Vec<Absent> {
    languages
        .iter()
        .map(|&language| name_of(language))
        .filter(|name| {
            !taking_part
                .consumers
                .iter()
                .any(|c| c.language == *name && wire.rank(&c.language, &c.format).is_some())
        })
        .map(|name| {
            let members: Vec<&str> = wire.of(name).collect();
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
                        let why = taking_part
                            .unavailable
                            .get(&(name.to_owned(), (*f).to_owned()))
                            .cloned()
                            .unwrap_or_else(|| "wrote no manifest".to_owned());
                        format!("{f}: {why}")
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
            };
            Absent { language: name.to_owned(), reason }
        })
        .collect()
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
            let shown = path.display().to_string();
            let text = read_whole(path, &shown, &MANIFEST_FILE)?;
            let manifest: Manifest = serde_json::from_slice(&text).map_err(|e| {
                let problem = json_error(&e, &format!("a {MANIFEST_SCHEMA} manifest"));
                anyhow!("{shown}: {problem}")
            })?;
            if manifest.schema != MANIFEST_SCHEMA || manifest.workload != workload {
                bail!(
                    "{shown}: a {} manifest of workload {}, expected {MANIFEST_SCHEMA} of {workload}",
                    crate::sanitize::excerpt(&manifest.schema),
                    crate::sanitize::excerpt(&manifest.workload)
                );
            }
            if manifest.error.is_none() && (manifest.stream.is_none() || manifest.framing.is_none())
            {
                bail!("{}: names no stream or framing, and no error", path.display());
            }
            Ok(manifest)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::registry;
    use crate::input::InMemory;
    use crate::workload::Dataset;

    /// Every Rust format of `W` writes a stream framed as its `FormatInfo`
    /// declares, and reads its own stream back.
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
            let Some(codec) = r.codec() else { continue };
            let manifest = stream::encode_all(&input, r.info, codec, dir.path()).unwrap();
            if manifest.error.is_some() {
                // A record the format cannot carry (bson: a u64 over i64::MAX): recorded, no stream.
                assert!(manifest.stream.is_none() && manifest.sha256.is_none(), "{name}");
                continue;
            }
            if r.info.framing == Framing::None {
                // An undeclared length prefix would pass as a self-delimiting body.
                let bytes =
                    std::fs::read(dir.path().join(manifest.stream.as_ref().unwrap())).unwrap();
                let ends: Vec<usize> = std::fs::read(
                    dir.path().join(manifest.stream.as_ref().unwrap()).with_extension("ends"),
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
                    "{name} prefixes its records with a u32le length: declare it in its FormatInfo's framing"
                );
            }
            let opened = match Stream::open(dir.path(), &manifest) {
                Ok(opened) => opened,
                Err(e) => {
                    misframed.push(format!("{name} on {}: {e:#}", W::NAME));
                    continue;
                }
            };
            let own = opened.for_framing(dir.path(), r.info.framing).unwrap();
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
