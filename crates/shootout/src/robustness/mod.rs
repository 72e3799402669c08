//! `shootout robustness`: how each format's decoder takes hostile input. Real
//! records are encoded by the format, then mutated ([`mutate`]); every case is
//! decoded in isolation in a worker process ([`worker`]) with panics caught, a
//! time bound and an allocation cap, and classified: rejected, same, silent,
//! panic, hang, alloc-bomb or crash. Findings are saved as reproducers that
//! `--replay` runs again. docs/robustness-schema.md describes the files.

pub mod mutate;
mod report;
pub use report::Results;
pub mod worker;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;

use crate::benchmark::Registered;
use crate::catalog::registry;
use crate::catalog::{self, Data, WorkloadName, WorkloadTask};
use crate::export::{Exports, Target};
use crate::format::Access;
use crate::input::Input;
use crate::workload::Workload;
use worker::{CASES_SCHEMA, Case, CaseFile, Class, Outcome, Record};

pub const SCHEMA: &str = "shootout-robustness/1";

/// The options of `shootout robustness` beside the data's (`--workload`, `--input`, `--seed`, …).
#[derive(Args)]
pub struct Options {
    /// Formats to test, comma-separated names or groups as `run` takes them (default: all). Formats whose
    /// decoder skips validation (UNCHECKED) are listed, not tested: hostile bytes are unsound for them by design.
    #[arg(long, short, value_delimiter = ',')]
    formats: Vec<String>,
    /// Hostile cases per format: the first record's systematic cases (every framing boundary, every candidate
    /// length field inflated; at most half), then random ones cycling through the mutations.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    cases: u64,
    /// Records the cases are derived from: the input's first N, each encoded by the format.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    sample: u64,
    /// Time bound per decode, in milliseconds: a decode that has not answered by then is a hang.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    time_limit_ms: u64,
    /// Allocation cap per decode, in MiB: a decode whose allocations (net of frees) pass it is an alloc-bomb.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    alloc_cap_mib: u64,
    /// Directory for the reproducers, one file per format and finding class (default: `robustness-seed-<seed>`).
    /// It must not exist yet or be empty: no file is ever overwritten.
    #[arg(long, value_name = "DIR")]
    reproducers: Option<PathBuf>,
    #[command(flatten)]
    exports: Exports,
    /// Re-run the case(s) of a reproducer file in a worker and print each one's class.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// Internal: decode a case file's cases (what each worker process runs).
    #[arg(long, hide = true, value_name = "FILE")]
    worker: Option<PathBuf>,
    /// Internal: the first case the worker decodes.
    #[arg(long, hide = true, default_value_t = 0)]
    worker_start: usize,
}

/// `shootout robustness`.
pub fn robustness(workload: WorkloadName, data: &Data, options: Options) -> Result<()> {
    if let Some(file) = &options.worker {
        return worker::work(file, options.worker_start);
    }
    if let Some(file) = &options.replay {
        return replay(file);
    }
    let targets = options.exports.targets(&data.inputs())?;
    let seed = data.generated.seed;
    let reproducers = options
        .reproducers
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("robustness-seed-{seed}")));
    if std::fs::read_dir(&reproducers).is_ok_and(|mut entries| entries.next().is_some()) {
        bail!(
            "{}: already exists and is not empty; give --reproducers a new directory (no reproducer is overwritten)",
            reproducers.display()
        );
    }
    catalog::dispatch(workload, data, Task { options, seed, reproducers, targets })
}

struct Task {
    options: Options,
    seed: u64,
    reproducers: PathBuf,
    targets: Vec<Target>,
}

impl WorkloadTask for Task {
    fn on<W: Workload>(self, input: &dyn Input<W>, formats: Vec<Registered<W>>) -> Result<()>
    where
        W::Record: Clone + Serialize,
    {
        let started = Instant::now();
        let records = sample(input, self.options.sample as usize)?;
        // Before --formats narrows the list: a validated format is timed beside its unchecked sibling either way.
        let mut unchecked: Vec<Sibling<W>> = formats
            .iter()
            .filter(|f| matches!(f.labels.access, Access::Unchecked))
            .filter_map(|f| Some((f.info, f.codec()?)))
            .collect();
        let selected = registry::select(formats, &self.options.formats)?;
        let settings = report::Settings {
            schema: SCHEMA.to_owned(),
            command_line: std::env::args().collect(),
            workload: W::NAME.to_owned(),
            source: input.name(),
            seed: self.seed,
            sample_records: records.len(),
            cases_per_format: self.options.cases as usize,
            time_limit_ms: self.options.time_limit_ms,
            alloc_cap_bytes: self.options.alloc_cap_mib << 20,
            record_schemas: input.record_schemas().map(|schemas| schemas.handoff()),
        };
        eprintln!(
            "robustness: {} cases per format from the first {} records of {} (seed {}); each decode in a worker \
             process, at most {} ms and {} MiB",
            settings.cases_per_format,
            records.len(),
            settings.source,
            self.seed,
            settings.time_limit_ms,
            self.options.alloc_cap_mib
        );
        let mut summaries = Vec::new();
        for registered in &selected {
            let format_started = Instant::now();
            let mut summary = report::FormatSummary::new(registered.info, &registered.labels);
            match test_format(registered, &records, &settings) {
                Err(why) => summary.not_tested = Some(format!("{why:#}")),
                Ok((file, outcomes)) => {
                    summary.count(&file, &outcomes);
                    summary.reproducers = save_reproducers(&file, &outcomes, &self.reproducers)?;
                    summary.validation = validation_cost(registered, &mut unchecked, &records);
                    eprintln!(
                        "  {:<22} {} cases in {:.1} s",
                        registered.info.name,
                        outcomes.len(),
                        format_started.elapsed().as_secs_f64()
                    );
                }
            }
            summaries.push(summary);
        }
        let results = report::Results {
            settings,
            wall_s: started.elapsed().as_secs_f64(),
            reproducers: summaries
                .iter()
                .any(|s| !s.reproducers.is_empty())
                .then(|| self.reproducers.display().to_string()),
            formats: summaries,
        };
        report::show(&results, &self.targets)
    }
}

/// An unchecked format and a codec of it, for timing.
type Sibling<W> = (&'static crate::format::FormatInfo, Box<dyn crate::benchmark::DynCodec<W>>);

/// The first `max` records of `input`, with their operation numbers.
fn sample<W: Workload>(input: &dyn Input<W>, max: usize) -> Result<Vec<(u64, W::Record)>>
where
    W::Record: Clone,
{
    let mut reader = input.open()?;
    let mut records = Vec::new();
    while records.len() < max {
        let Some(window) = reader.next_window(max - records.len())? else {
            break;
        };
        for &i in window.order {
            records.push((records.len() as u64, window.records[i as usize].clone()));
        }
    }
    if records.is_empty() {
        bail!("{}: no records to derive cases from", input.name());
    }
    Ok(records)
}

/// Derives the cases of one format and decodes them in workers; an error says why it was not tested.
fn test_format<W: Workload>(
    registered: &Registered<W>,
    records: &[(u64, W::Record)],
    settings: &report::Settings,
) -> Result<(CaseFile, Vec<Outcome>)> {
    if let Some(reason) = registered.unsupported_reason() {
        bail!("not run on {}: {reason}", W::NAME);
    }
    if matches!(registered.labels.access, Access::Unchecked) {
        bail!(
            "its decoder skips validation by design (UNCHECKED): hostile bytes would be undefined behaviour, \
             not a finding; it is fed none"
        );
    }
    let codec = || registered.codec().expect("a supported format has a codec");
    let mut encoded = Vec::new();
    let mut first_error = None;
    for (operation, record) in records {
        let mut bytes = Vec::new();
        match codec().encode(record, &mut bytes) {
            Ok(()) => encoded.push(Record { operation: *operation, bytes }),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    if encoded.is_empty() {
        bail!("it encodes none of the sample: {:#}", first_error.expect("a record failed"));
    }
    for record in &encoded {
        let mut sink = W::new_sink(&W::Aggregate::default());
        match codec().decode(&record.bytes, &mut sink) {
            Ok(used) if used == record.bytes.len() => {}
            Ok(used) => bail!(
                "its clean record {} decodes using {used} of its {} bytes",
                record.operation,
                record.bytes.len()
            ),
            Err(e) => bail!("its clean record {} does not decode: {e:#}", record.operation),
        }
    }
    let bytes: Vec<Vec<u8>> = encoded.iter().map(|r| r.bytes.clone()).collect();
    let cases = mutate::cases(&bytes, settings.cases_per_format, settings.seed)
        .into_iter()
        .enumerate()
        .map(|(id, m)| Case {
            id,
            record: m.record,
            kind: m.kind,
            description: m.description,
            bytes: m.bytes,
            found: None,
        })
        .collect();
    let file = CaseFile {
        schema: CASES_SCHEMA.to_owned(),
        workload: W::NAME.to_owned(),
        format: registered.info.name.to_owned(),
        seed: settings.seed,
        source: settings.source.clone(),
        time_limit_ms: settings.time_limit_ms,
        alloc_cap_bytes: settings.alloc_cap_bytes,
        record_schemas: settings.record_schemas.clone(),
        records: encoded,
        cases,
    };
    let outcomes = run_file(&file)?;
    Ok((file, outcomes))
}

/// Decodes every case of `file` in workers (through a temporary copy of it).
fn run_file(file: &CaseFile) -> Result<Vec<Outcome>> {
    let mut temporary = crate::temporary::system_file(
        tempfile::Builder::new().prefix("shootout-robustness-").suffix(".json"),
    )
    .context("cannot create a temporary case file")?;
    serde_json::to_writer(std::io::BufWriter::new(temporary.as_file_mut()), file)
        .context("cannot write the temporary case file")?;
    worker::run_cases(temporary.path(), file.cases.len(), Duration::from_millis(file.time_limit_ms))
}

/// Saves the first case of each finding class as a reproducer file in `dir`
/// (created on the first), and says what each holds.
fn save_reproducers(
    file: &CaseFile,
    outcomes: &[Outcome],
    dir: &Path,
) -> Result<Vec<report::Reproducer>> {
    let mut first: BTreeMap<Class, usize> = BTreeMap::new();
    for (i, outcome) in outcomes.iter().enumerate() {
        if outcome.class.is_finding() {
            first.entry(outcome.class).or_insert(i);
        }
    }
    let mut saved = Vec::new();
    for (class, i) in first {
        let case = &file.cases[i];
        let reproducer = CaseFile {
            schema: file.schema.clone(),
            workload: file.workload.clone(),
            format: file.format.clone(),
            seed: file.seed,
            source: file.source.clone(),
            time_limit_ms: file.time_limit_ms,
            alloc_cap_bytes: file.alloc_cap_bytes,
            record_schemas: file.record_schemas.clone(),
            records: vec![file.records[case.record].clone()],
            cases: vec![Case { record: 0, found: Some(outcomes[i].clone()), ..case.clone() }],
        };
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create the directory", dir.display()))?;
        let path = dir.join(format!("{}-{}.json", file.format, class.name()));
        crate::export::write_with(&path, false, |out| {
            serde_json::to_writer_pretty(out, &reproducer)
                .with_context(|| format!("{}: cannot write", path.display()))
        })?;
        saved.push(report::Reproducer {
            class,
            case: case.id,
            kind: case.kind,
            description: case.description.clone(),
            detail: outcomes[i].detail.clone(),
            file: path.display().to_string(),
        });
    }
    Ok(saved)
}

/// For a validated format with an unchecked sibling (the same library, its
/// access labelled UNCHECKED), the decode time of each on the same clean
/// records: what validation costs.
fn validation_cost<W: Workload>(
    registered: &Registered<W>,
    unchecked: &mut [Sibling<W>],
    records: &[(u64, W::Record)],
) -> Option<report::ValidationCost> {
    let (info, sibling) =
        unchecked.iter_mut().find(|(info, _)| info.library == registered.info.library)?;
    let mut validated = registered.codec()?;
    Some(report::ValidationCost::new(
        info.name,
        decode_ns_per_record(validated.as_mut(), records)?,
        decode_ns_per_record(sibling.as_mut(), records)?,
    ))
}

/// How long `codec` takes to decode one of `records` (those it encodes), on
/// average over passes of the whole stream for at least `TIMING`.
fn decode_ns_per_record<W: Workload>(
    codec: &mut dyn crate::benchmark::DynCodec<W>,
    records: &[(u64, W::Record)],
) -> Option<f64> {
    const TIMING: Duration = Duration::from_millis(200);
    let mut stream = Vec::new();
    let mut count = 0usize;
    let mut bytes = Vec::new();
    for (_, record) in records {
        bytes.clear();
        if codec.encode(record, &mut bytes).is_ok() {
            stream.extend_from_slice(&bytes);
            count += 1;
        }
    }
    if count == 0 {
        return None;
    }
    let mut passes = 0u64;
    let started = Instant::now();
    while passes < 3 || started.elapsed() < TIMING {
        let mut sink = W::new_sink(&W::Aggregate::default());
        let mut offset = 0;
        while offset < stream.len() {
            offset += codec.decode(black_box(&stream[offset..]), &mut sink).ok()?;
        }
        black_box(W::finish(sink));
        passes += 1;
    }
    Some(started.elapsed().as_nanos() as f64 / (passes as f64 * count as f64))
}

/// `--replay FILE`: runs the file's cases again, each in a worker, and prints each one's class beside the one found.
fn replay(path: &Path) -> Result<()> {
    let file = CaseFile::read(path)?;
    worker::dispatch_for(path, &file, Replay { path, file: &file })
}

struct Replay<'a> {
    path: &'a Path,
    file: &'a CaseFile,
}

impl WorkloadTask for Replay<'_> {
    fn on<W: Workload>(self, _input: &dyn Input<W>, formats: Vec<Registered<W>>) -> Result<()>
    where
        W::Record: Clone + Serialize,
    {
        let Replay { path, file } = self;
        // Refused here, in one line, before any worker starts.
        worker::decoder_for(&formats, file, path)?;
        let outcomes =
            worker::run_cases(path, file.cases.len(), Duration::from_millis(file.time_limit_ms))?;
        for (case, outcome) in file.cases.iter().zip(&outcomes) {
            let detail = match outcome.detail.as_str() {
                "" => String::new(),
                detail => format!(": {detail}"),
            };
            // The description and the decoder's message quote the file's bytes: shown, never obeyed.
            let line = format!(
                "{} on {}, case {} (seed {}, {}): {}{detail}",
                file.format,
                file.workload,
                case.id,
                file.seed,
                case.description,
                outcome.class.name()
            );
            println!("{}", crate::sanitize::terminal(&line));
            if let Some(found) = &case.found {
                let verdict =
                    if found.class == outcome.class { "reproduced" } else { "NOT reproduced" };
                println!("  recorded: {} ({verdict})", found.class.name());
            }
        }
        Ok(())
    }
}
