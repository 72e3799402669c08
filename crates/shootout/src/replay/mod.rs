//! `shootout replay`: every record of a capture's busiest stretch released at
//! its own send time (scaled by a speed factor), handed from a producer thread
//! to a consumer thread over a real transport, and timed from its scheduled
//! release to the end of its decode, so queueing behind a slow record counts
//! (docs/replay.md). Rust replays its own formats; the Go and JVM runners
//! replay theirs from the same plan; every statistic is computed here.

pub mod engine;
pub mod plan;
pub mod runs;
mod summary;
mod table;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::benchmark::Registered;
use crate::environment::Environment;
use crate::export::Target;
use crate::input::Source;
use crate::runners::{FormatChoice, Language};
use crate::sanitize;
use crate::workload::iex::Iex;
use crate::workload::{Dataset, Workload};
use engine::{Pinning, Schedule, Transport};
pub use plan::Settings;
use plan::{Planned, PlannedRun};
use runs::{RunEntry, Runs};
pub use summary::{Row, Sustainable};

pub const SCHEMA: &str = "shootout-replay/1";

/// What `shootout replay` was asked.
pub struct Replay {
    pub input: PathBuf,
    pub formats: Vec<String>,
    pub settings: Settings,
    pub languages: Vec<Language>,
    /// `--export-json` and `--export-html`, checked.
    pub exports: Vec<Target>,
}

/// The results file, `shootout-replay/1` (docs/replay.md).
#[derive(Serialize, Deserialize)]
pub struct Document {
    pub schema: String,
    pub command: Vec<String>,
    pub input: InputInfo,
    pub capture: CaptureInfo,
    pub settings: Settings,
    /// The machine ([`Environment`]), as free-form as a results file's.
    pub environment: serde_json::Value,
    /// 1, 5 and 15 minute load averages just before the first run.
    pub load_average: Option<[f64; 3]>,
    pub runs: Vec<PlannedRun>,
    /// Each language's runs as its runner wrote them (histograms included).
    pub languages: Vec<Runs>,
    /// The statistics of every run, computed here from the histograms.
    pub rows: Vec<Row>,
    pub sustainable: Vec<Sustainable>,
    /// Formats asked for that did not run, and why.
    pub not_run: Vec<NotRun>,
}

#[derive(Serialize, Deserialize)]
pub struct InputInfo {
    pub name: String,
    pub bytes: u64,
    pub sha256: String,
}

#[derive(Serialize, Deserialize)]
pub struct CaptureInfo {
    pub records: u64,
    pub first_send_time: String,
    pub last_send_time: String,
    pub busiest_second: String,
    pub busiest_second_records: u64,
    /// Capture index of the first replayed record, and how many were replayed (the spans' union).
    pub replayed_from: u64,
    pub replayed_records: usize,
}

#[derive(Serialize, Deserialize)]
pub struct NotRun {
    pub language: String,
    pub format: String,
    pub reason: String,
}

pub fn replay(task: Replay) -> Result<()> {
    let languages = Language::expand(&task.languages);
    let registered = crate::catalog::registry::iex();
    let choice = FormatChoice::new(&languages, &registered, &task.formats)?;
    let formats = match &choice.rust {
        Some(wanted) => crate::catalog::registry::select(registered, wanted)?,
        None => Vec::new(),
    };
    let source = Source::from_arg(task.input.clone());
    let (census, report) = plan::census(&source)?;
    crate::output::print_warnings(&report.warnings);
    let kept = plan::keep(&source, &census, task.settings.max_records)?;
    let planned = plan::plan(&census, kept, &task.settings);
    let load_average = crate::environment::load_average();
    let environment = serde_json::to_value(Environment::capture())?;

    let mut not_run = Vec::new();
    let (runnable, unsupported): (Vec<_>, Vec<_>) =
        formats.into_iter().partition(|f| f.unsupported_reason().is_none());
    for format in unsupported {
        not_run.push(NotRun {
            language: "rust".to_owned(),
            format: format.info.name.to_owned(),
            reason: format.unsupported_reason().unwrap_or_default().to_owned(),
        });
    }
    let mut languages = Vec::new();
    if choice.rust.is_some() {
        languages.push(replay_rust(&planned, &runnable)?);
    }
    if !choice.external.is_empty() {
        let handoff = Handoff::write(&planned, &source)?;
        for chosen in &choice.external {
            eprintln!("replay: {} runner", chosen.runner.name);
            languages.push(handoff.replay(chosen, &mut not_run)?);
        }
    }

    let rows = summary::rows(&planned.plan, &languages);
    let sustainable = summary::sustainable(&rows, task.settings.budget_ns);
    let document = Document {
        schema: SCHEMA.to_owned(),
        command: std::env::args().collect(),
        input: InputInfo {
            name: report.file.clone(),
            bytes: report.input_bytes,
            sha256: report.sha256.clone(),
        },
        capture: CaptureInfo {
            records: census.records,
            first_send_time: crate::input::ingest::rfc3339(census.first_ns),
            last_send_time: crate::input::ingest::rfc3339(census.last_ns),
            busiest_second: crate::input::ingest::rfc3339(census.busiest.second_ns),
            busiest_second_records: census.busiest.records,
            replayed_from: planned.offset,
            replayed_records: planned.records.len(),
        },
        settings: task.settings.clone(),
        environment,
        load_average,
        runs: planned.plan.runs.clone(),
        languages,
        rows,
        sustainable,
        not_run,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if !task.exports.iter().any(Target::is_stdout) {
        table::write(&document, &mut out)?;
        out.flush()?;
    }
    for target in &task.exports {
        target.write_document(&document)?;
    }
    Ok(())
}

/// A replay's results given to `report --attach` hold: a run planned, each
/// language's runs within the records replayed, no more received than sent,
/// histograms within [`HISTOGRAM_LIMITS`](crate::document::HISTOGRAM_LIMITS)
/// holding one latency per record received, a row per run. Every figure
/// drawn from the histograms (each run's row, the sustainable rates) is
/// computed again, so the page shows nothing on the file's word but the
/// offered rates (which need the plan's send times) and the texts.
impl crate::saved::Attachment for Document {
    fn recompute(&mut self) {
        let mut offered = self.rows.iter().map(|row| row.offered_per_second);
        self.rows = summary::rows_at(&self.languages, |_| offered.next().flatten());
        self.sustainable = summary::sustainable(&self.rows, self.settings.budget_ns);
    }

    fn check(&self) -> std::result::Result<(), (String, String)> {
        check(self)
    }
}

fn check(document: &Document) -> std::result::Result<(), (String, String)> {
    let refuse = |at: String, problem: String| Err((at, problem));
    let capture = &document.capture;
    if document.runs.is_empty() {
        return refuse("runs".into(), "no run; expected the runs of the plan".into());
    }
    let replayed_end = capture.replayed_from.checked_add(capture.replayed_records as u64);
    if replayed_end.is_none_or(|end| end > capture.records) {
        return refuse(
            "capture".into(),
            format!(
                "{} records replayed from record {} of {}; expected records of the capture",
                capture.replayed_records, capture.replayed_from, capture.records
            ),
        );
    }
    let mut entries = 0;
    for (i, language) in document.languages.iter().enumerate() {
        if language.runs.is_empty() {
            return refuse(
                format!("languages[{i}].runs"),
                "no run; expected one per format, transport and speed".into(),
            );
        }
        for (j, entry) in language.runs.iter().enumerate() {
            let at = |key: &str| format!("languages[{i}].runs[{j}].{key}");
            if entry.first > entry.end || entry.end > capture.replayed_records {
                return refuse(
                    at("end"),
                    format!(
                        "records {} to {}; expected a span of the {} replayed",
                        entry.first, entry.end, capture.replayed_records
                    ),
                );
            }
            let planned = (entry.end - entry.first) as u64;
            if entry.sent > planned || entry.received > entry.sent || entry.max_backlog > entry.sent
            {
                return refuse(
                    at("received"),
                    format!(
                        "{} sent of {planned}, {} received, a backlog of {}; expected at most the records sent",
                        entry.sent, entry.received, entry.max_backlog
                    ),
                );
            }
            let histograms = entry.latency.iter().map(|text| ("latency".to_owned(), text));
            let histograms = histograms
                .chain(entry.busiest.iter().map(|text| ("busiest".to_owned(), text)))
                .chain(
                    entry
                        .sizes
                        .iter()
                        .enumerate()
                        .map(|(k, c)| (format!("sizes[{k}].histogram"), &c.histogram)),
                );
            for (key, text) in histograms {
                let histogram =
                    crate::document::decode_histogram(text).map_err(|e| (at(&key), e))?;
                if key == "latency" && entry.error.is_none() && histogram.len() != entry.received {
                    return refuse(
                        at(&key),
                        format!(
                            "{} latencies; expected one per record received ({})",
                            histogram.len(),
                            entry.received
                        ),
                    );
                }
            }
            entries += 1;
        }
    }
    if document.rows.len() != entries {
        return refuse(
            "rows".into(),
            format!("{} rows; expected one per run ({entries})", document.rows.len()),
        );
    }
    if let Some(k) =
        document.rows.iter().position(|row| row.offered_per_second.is_some_and(|r| r < 0.0))
    {
        return refuse(format!("rows[{k}].offered_per_second"), "below 0; expected a rate".into());
    }
    Ok(())
}

/// Replays every runnable Rust format over the plan: a warm-up, then each
/// run, per transport.
fn replay_rust(planned: &Planned, formats: &[Registered<Iex>]) -> Result<Runs> {
    let pinning = Pinning::for_this_machine();
    let plan = &planned.plan;
    let busiest = plan.busiest_second.first..plan.busiest_second.end;
    let warmup = plan.widest().map(|widest| {
        let end = widest.first + plan.warmup_records.min(widest.end - widest.first);
        &planned.records[widest.first..end]
    });
    let warmup_reference = warmup.map(engine::reference::<Iex>);
    let references: Vec<_> = plan
        .runs
        .iter()
        .map(|run| engine::reference::<Iex>(&planned.records[run.first..run.end]))
        .collect();
    let progress = indicatif::ProgressBar::new((formats.len() * plan.transports.len()) as u64)
        .with_style(
            indicatif::ProgressStyle::with_template("replay {pos}/{len} {msg}")
                .expect("a valid template"),
        );
    let mut entries = Vec::new();
    for format in formats {
        for &transport in &plan.transports {
            progress.set_message(format!("{} over {}", format.info.name, transport.name()));
            if let (Some(records), Some(reference)) = (warmup, &warmup_reference) {
                let warmup = engine::Run {
                    format,
                    records,
                    schedule: Schedule::Max,
                    busiest: 0..0,
                    transport,
                    reference,
                };
                let warmed = engine::replay(&warmup, &pinning);
                if let Some(error) = warmed.error {
                    let error = format!("warm-up: {error}");
                    for run in &plan.runs {
                        entries.push(RunEntry::failed(format.info.name, transport, run, &error));
                    }
                    progress.inc(1);
                    continue;
                }
            }
            for (run, reference) in plan.runs.iter().zip(&references) {
                let offsets = plan.offsets(run);
                let relative = |i: usize| i.clamp(run.first, run.end) - run.first;
                let replayed = engine::Run {
                    format,
                    records: &planned.records[run.first..run.end],
                    schedule: offsets.as_deref().map_or(Schedule::Max, Schedule::Paced),
                    busiest: relative(busiest.start)..relative(busiest.end),
                    transport,
                    reference,
                };
                let recorded = engine::replay(&replayed, &pinning);
                entries.push(RunEntry::new(format.info.name, transport, run, recorded));
            }
            progress.inc(1);
        }
    }
    progress.finish_and_clear();
    let mut versions: BTreeMap<String, String> =
        ["rtrb", "socket2", "core_affinity", "hdrhistogram"]
            .into_iter()
            .map(|name| (name.to_owned(), crate::environment::crate_version(name).to_owned()))
            .collect();
    for format in formats {
        let library = format.info.library;
        versions
            .entry(library.to_owned())
            .or_insert_with(|| crate::environment::crate_version(library).to_owned());
    }
    let udp = match engine::granted_udp_receive_buffer() {
        Ok(bytes) => format!(
            "loopback UDP (std::net::UdpSocket), a datagram per record, non-blocking busy-polled receive; \
             receive buffer asked {} B, granted {bytes} B",
            engine::UDP_RECEIVE_BUFFER
        ),
        Err(error) => format!("loopback UDP; the receive buffer could not be read back: {error:#}"),
    };
    Ok(Runs {
        schema: runs::SCHEMA.to_owned(),
        language: "rust".to_owned(),
        versions,
        clock: "std::time::Instant (CLOCK_MONOTONIC)".to_owned(),
        pinning: pinning.description.clone(),
        transports: BTreeMap::from([
            (
                "ring".to_owned(),
                "rtrb single-producer single-consumer rings: filled buffers to the consumer, empty ones back \
                 (1024 in flight), busy-polled"
                    .to_owned(),
            ),
            ("udp".to_owned(), udp),
        ]),
        runs: entries,
    })
}

/// The records and plan the other languages' runners replay, written once
/// for all of them.
struct Handoff {
    /// Removed when dropped.
    dir: crate::temporary::Dir,
}

impl Handoff {
    fn write(planned: &Planned, source: &Source) -> Result<Handoff> {
        let dir = crate::temporary::system_dir(tempfile::Builder::new().prefix("shootout-replay-"))
            .context("cannot create a temporary folder for the replay hand-off")?;
        let handoff = Handoff { dir };
        let dataset = Dataset::<Iex>::in_order(
            planned.records.clone(),
            engine::reference::<Iex>(&planned.records),
            format!("{} (replayed records)", source.name()),
        );
        let input = crate::input::InMemory::generated(dataset);
        let scanned = crate::dataset::scan(&input)?;
        let path = handoff.dataset();
        let mut file = std::io::BufWriter::new(
            std::fs::File::create(&path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        );
        crate::dataset::write_to(&input, &scanned, &mut file, &path.display().to_string())?;
        file.flush().with_context(|| format!("cannot write {}", path.display()))?;
        let path = handoff.plan();
        std::fs::write(&path, serde_json::to_vec(&planned.plan)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(handoff)
    }

    fn dataset(&self) -> PathBuf {
        self.dir.path().join("dataset.jsonl")
    }

    fn plan(&self) -> PathBuf {
        self.dir.path().join("plan.json")
    }

    /// Has another language's runner replay the plan over the records: each
    /// format in a process of its own, as JMH forks. In one JVM the formats
    /// replayed first leave class hierarchies and call-site profiles that the
    /// later ones pay for (deoptimization, then compilation, during their
    /// timed runs), and the order of the formats would show in their tails.
    /// With no formats named, every format the runner has on iex; those it
    /// has on other workloads only go to `not_run`.
    fn replay(&self, chosen: &crate::runners::Chosen, not_run: &mut Vec<NotRun>) -> Result<Runs> {
        let (external, folder) = (chosen.runner, chosen.folder.as_path());
        let formats = match &chosen.names[..] {
            [] => {
                let (iex, other): (Vec<_>, Vec<_>) = chosen.listed.iter().partition(|listed| {
                    listed.workloads.iter().any(|w| w == <Iex as Workload>::NAME)
                });
                not_run.extend(other.into_iter().map(|listed| NotRun {
                    language: external.name.to_owned(),
                    reason: match (&listed.not_run, &listed.workloads[..]) {
                        (Some(why), _) => why.clone(),
                        (None, []) => "runs on no workload, iex included".to_owned(),
                        (None, workloads) => {
                            format!("runs only on {}, not on iex", workloads.join(", "))
                        }
                    },
                    format: listed.name.clone(),
                }));
                iex.into_iter().map(|listed| listed.name.clone()).collect()
            }
            named => named.to_vec(),
        };
        let progress = indicatif::ProgressBar::new(formats.len() as u64).with_style(
            indicatif::ProgressStyle::with_template("replay: {msg} {pos}/{len}")
                .expect("a valid template"),
        );
        progress.set_message(format!("{} runner", external.name));
        let mut merged: Option<Runs> = None;
        for format in &formats {
            let runs: Runs = external.replay(
                folder,
                &self.dataset(),
                &self.plan(),
                std::slice::from_ref(format),
            )?;
            if runs.schema != runs::SCHEMA || runs.language != external.name {
                anyhow::bail!(
                    "the {} runner's replay results are {} of language {}; expected {} of {}",
                    external.name,
                    sanitize::terminal(&runs.schema),
                    sanitize::terminal(&runs.language),
                    runs::SCHEMA,
                    external.name
                );
            }
            match &mut merged {
                None => merged = Some(runs),
                Some(all) => {
                    all.versions.extend(runs.versions);
                    all.runs.extend(runs.runs);
                }
            }
            progress.inc(1);
        }
        progress.finish_and_clear();
        merged
            .with_context(|| format!("the {} runner has no format to replay on iex", external.name))
    }
}

impl RunEntry {
    fn failed(format: &str, transport: Transport, run: &PlannedRun, error: &str) -> RunEntry {
        RunEntry::new(format, transport, run, engine::Recorded::failed(error.to_owned()))
    }
}
