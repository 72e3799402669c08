//! The results of a run as plain data: what every export and the terminal
//! table read. One runner's results are a [`Results`] (docs/results-schema.md),
//! built here by the Rust harness or read back from another language's runner;
//! a run over several languages shows them together as one [`Merged`] set.

use std::num::NonZeroU64;

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

use crate::benchmark::stats::{
    self, ByProcess, Interval, RawRun, RunStats, StoredHistogram, Summary,
};
use crate::benchmark::timer::Calibration;
use crate::benchmark::{
    Failure, FormatRuns, Measured, Registered, RunInfo, Settings, ZSTD_LEVEL, baseline,
};
use crate::environment::{Environment, crate_version};
use crate::format::{FormatInfo, features};
use crate::input::InputFile;
use crate::input::csv::CsvSize;
use crate::workload::Workload;

pub const SCHEMA: &str = "shootout-results/3";

/// The previous schema: the same document, with derived figures every reader
/// recomputes anyway; still read by `report` and `compare`.
pub const SCHEMA_2: &str = "shootout-results/2";

/// The JSON export of a run over several languages: one [`SCHEMA`] object per runner.
pub const SET_SCHEMA: &str = "shootout-results-set/1";

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Results {
    pub schema: String,
    pub runner: Runner,
    pub invocation: Invocation,
    /// The machine and build as the runner saw them. Every runner writes the
    /// common keys of docs/results-schema.md; the rest are its language's own.
    pub environment: serde_json::Value,
    pub timer: Calibration,
    pub settings: Settings,
    pub workload: WorkloadInfo,
    /// Every pass over the input, warm-up runs included.
    pub runs: Vec<RunInfo>,
    /// Formats measured and validated in every run. Read back, every
    /// derived figure is recomputed from the runs (one statistics engine).
    #[serde(deserialize_with = "read_formats")]
    pub formats: Vec<FormatResult>,
    /// Formats whose numbers are withheld: they failed to encode, decode or validate.
    pub failed: Vec<FailedFormat>,
    /// Registered formats that cannot express this workload, with the reason.
    pub not_run: Vec<NotRun>,
    /// What the run warned about (input, settings), also printed to stderr.
    pub warnings: Vec<String>,
}

impl Results {
    /// Every summary and `relative` computed again from the runs, after runs were added.
    pub fn derive_again(&mut self) {
        for format in &mut self.formats {
            for direction in [&mut format.encode, &mut format.decode] {
                *direction = Direction::of(std::mem::take(&mut direction.runs));
            }
        }
        let one_runner = vec![0; self.formats.len()];
        fill_relative(&mut self.formats, &one_runner, |f| &mut f.encode);
        fill_relative(&mut self.formats, &one_runner, |f| &mut f.decode);
    }

    /// One of the environment's common keys as text (`?` when the runner did not write it).
    pub fn environment_text(&self, key: &str) -> String {
        match self.environment.get(key) {
            Some(serde_json::Value::String(text)) => text.clone(),
            Some(serde_json::Value::Null) | None => "?".to_owned(),
            Some(other) => other.to_string(),
        }
    }
}

/// How the run was started, so it can be repeated.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Invocation {
    pub command_line: Vec<String>,
    /// The options as parsed, defaults filled in.
    pub options: serde_json::Value,
    /// /proc/loadavg (1, 5, 15 min) before the first pass and after the last.
    pub load_before: Option<[f64; 3]>,
    pub load_after: Option<[f64; 3]>,
    /// Cores' worth of CPU other work used in the quarter second before the
    /// runs (this process asleep; /proc/stat); null where unreadable.
    #[serde(default)]
    pub other_cpu_cores: Option<f64>,
    /// CPU time the hypervisor gave other guests during the runs, in percent
    /// of all CPU time (/proc/stat `steal`); null where unreadable.
    #[serde(default)]
    pub steal_pct: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NotRun {
    pub name: String,
    pub family: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FailedFormat {
    pub name: String,
    pub family: String,
    pub library: String,
    pub library_version: String,
    #[serde(flatten)]
    pub failure: Failure,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Runner {
    /// The implementation language of the formats measured.
    pub language: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WorkloadInfo {
    pub name: String,
    pub source: String,
    /// The input file, when the data came from one.
    pub input: Option<InputFile>,
    /// The dataset file (docs/dataset-format.md) a runner in another language read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<InputFile>,
    /// Operations: records encoded (and decoded) per run.
    pub records: u64,
    /// The CSV the records came from (tabular workloads): the size baseline.
    pub csv: Option<CsvSize>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FormatResult {
    pub name: String,
    pub family: String,
    pub library: String,
    pub library_version: String,
    /// The no-format floor row, not a format.
    pub baseline: bool,
    /// How the format uses its library (docs/results-schema.md).
    pub labels: serde_json::Value,
    pub tags: Vec<String>,
    pub notes: String,
    pub encoded_bytes: u64,
    pub bytes_per_record: f64,
    /// The whole stream compressed with zstd (level in `zstd_level`); null
    /// from a runner without zstd.
    pub zstd_bytes: Option<u64>,
    pub zstd_level: Option<i32>,
    /// encoded_bytes / zstd_bytes.
    pub zstd_ratio: Option<f64>,
    /// The format family's entry of the feature matrix, or null.
    pub features: serde_json::Value,
    pub encode: Direction,
    pub decode: Direction,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "DirectionRuns")]
pub struct Direction {
    /// Median across runs of each statistic, with min and max.
    pub summary: Summary,
    /// ns/op against the fastest format's in this direction, with its bootstrap 95 % interval.
    pub relative: Relative,
    /// Per measured run, in run order.
    pub runs: Vec<DirectionRun>,
}

/// A direction as read: its runs; the rest is derived from them.
#[derive(Deserialize)]
#[serde(expecting = "a direction: an object of its runs")]
struct DirectionRuns {
    runs: Vec<DirectionRun>,
}

impl TryFrom<DirectionRuns> for Direction {
    type Error = String;

    fn try_from(read: DirectionRuns) -> Result<Direction, String> {
        if read.runs.is_empty() {
            return Err("no runs; expected at least one measured run".to_owned());
        }
        Ok(Direction::of(read.runs))
    }
}

impl Direction {
    /// The runs' summary; `relative` is filled in against the other formats by [`fill_relative`].
    fn of(runs: Vec<DirectionRun>) -> Direction {
        let stats: Vec<(usize, &RunStats)> = runs.iter().map(|r| (r.process, &r.stats)).collect();
        Direction {
            summary: Summary::of(&stats),
            relative: Relative {
                fastest: false,
                ratio: 1.0,
                interval: Interval { low: 1.0, high: 1.0 },
                indistinguishable_from_fastest: true,
            },
            runs,
        }
    }

    /// Every run's ns/op, grouped by the process that measured it.
    pub fn ns_by_process(&self) -> ByProcess {
        self.by_process(|r| r.ns_per_op)
    }

    /// One per-run figure, grouped by the process that measured it.
    pub fn by_process(&self, pick: impl Fn(&RunStats) -> f64) -> ByProcess {
        ByProcess::of(self.runs.iter().map(|r| (r.process, pick(&r.stats))))
    }
}

/// The formats of a results file, with `relative` recomputed among them.
fn read_formats<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<FormatResult>, D::Error> {
    let mut formats = Vec::<FormatResult>::deserialize(deserializer)?;
    let one_runner = vec![0; formats.len()];
    fill_relative(&mut formats, &one_runner, |f| &mut f.encode);
    fill_relative(&mut formats, &one_runner, |f| &mut f.decode);
    Ok(formats)
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(from = "ReadRun")]
pub struct DirectionRun {
    #[serde(flatten)]
    pub stats: RunStats,
    /// Mean position of the format in the windows' shuffled order (0 = first).
    pub order_position: f64,
    /// Which of the invocation's processes made the run (0 = the first; 0 in
    /// files from before processes were recorded).
    pub process: usize,
}

/// A direction's run as a runner writes it (`RawRun` and `order_position` in
/// docs/results-schema.md; derived keys are ignored), every key spelled out
/// rather than flattened so that an error in any names its path. The
/// histogram is decoded as it is read, and refused there if beyond its limits.
#[derive(Deserialize)]
#[serde(expecting = "a run: an object of its raw figures")]
struct ReadRun {
    total_ns: u64,
    /// ns/op divides by it.
    ops: NonZeroU64,
    histogram: StoredHistogram,
    allocations_per_op: Option<f64>,
    allocated_bytes_per_op: f64,
    #[serde(default)]
    gc_count: Option<u64>,
    #[serde(default)]
    gc_pause_ms: Option<u64>,
    order_position: f64,
    #[serde(default)]
    process: usize,
}

impl From<ReadRun> for DirectionRun {
    fn from(read: ReadRun) -> DirectionRun {
        let StoredHistogram { text, decoded } = read.histogram;
        let raw = RawRun {
            total_ns: read.total_ns,
            ops: read.ops.get(),
            histogram: text,
            allocations_per_op: read.allocations_per_op,
            allocated_bytes_per_op: read.allocated_bytes_per_op,
            gc_count: read.gc_count,
            gc_pause_ms: read.gc_pause_ms,
        };
        DirectionRun {
            stats: RunStats::of(raw, &decoded),
            order_position: read.order_position,
            process: read.process,
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Relative {
    /// This is the fastest format of its direction.
    pub fastest: bool,
    pub ratio: f64,
    pub interval: Interval,
    /// The interval of this format's median ns/op overlaps the fastest format's:
    /// the run cannot tell them apart.
    pub indistinguishable_from_fastest: bool,
}

/// What a Rust run knew besides its measurements.
pub struct RunContext {
    pub invocation: Invocation,
    pub environment: Environment,
    pub timer: Calibration,
    pub settings: Settings,
    /// Warnings of the settings; the input's are added from the first pass.
    pub warnings: Vec<String>,
}

impl Results {
    /// The Rust runner's results: the measured and failed formats, and the
    /// registered ones that cannot express the workload.
    pub fn of_rust_run<W: Workload>(
        measured: &Measured<W>,
        registered: &[Registered<W>],
        source: String,
        context: RunContext,
    ) -> Results {
        let scanned = &measured.scanned;
        let (formats, failed) = formats(&measured.formats, scanned.operations);
        let mut warnings = context.warnings;
        warnings.extend(scanned.warnings.iter().cloned());
        if context.environment.build_profile == "debug" {
            warnings.push(
                "a debug build: its figures say nothing about the formats (use cargo run --release)"
                    .to_owned(),
            );
        }
        Results {
            schema: SCHEMA.to_owned(),
            runner: Runner { language: "rust".to_owned(), name: "shootout".to_owned() },
            invocation: context.invocation,
            environment: serde_json::to_value(&context.environment)
                .expect("the environment serializes"),
            timer: context.timer,
            settings: context.settings,
            workload: WorkloadInfo {
                name: W::NAME.to_owned(),
                source,
                input: scanned.file.clone(),
                dataset: None,
                records: scanned.operations,
                csv: scanned.csv,
            },
            runs: measured.runs.clone(),
            formats,
            failed,
            not_run: registered
                .iter()
                .filter_map(|f| {
                    f.unsupported_reason().map(|reason| NotRun {
                        name: f.info.name.to_owned(),
                        family: f.info.family.name().to_owned(),
                        reason: reason.to_owned(),
                    })
                })
                .collect(),
            warnings,
        }
    }
}

impl FormatResult {
    fn new(runs: &FormatRuns, records: u64) -> Self {
        let info: &'static FormatInfo = runs.info;
        let direction = |pick: fn(&crate::benchmark::Measurement) -> &RunStats| {
            Direction::of(
                runs.runs
                    .iter()
                    .map(|m| DirectionRun {
                        stats: pick(m).clone(),
                        order_position: m.order_position,
                        process: 0,
                    })
                    .collect(),
            )
        };
        FormatResult {
            name: info.name.to_owned(),
            family: info.family.name().to_owned(),
            library: info.library.to_owned(),
            library_version: crate_version(info.library).to_owned(),
            baseline: info.family.name() == baseline::FAMILY,
            labels: serde_json::to_value(runs.labels).expect("labels serialize"),
            tags: runs.labels.tags().into_iter().map(str::to_owned).collect(),
            notes: info.notes.to_owned(),
            encoded_bytes: runs.encoded_bytes,
            bytes_per_record: runs.encoded_bytes as f64 / records.max(1) as f64,
            zstd_bytes: Some(runs.zstd_bytes),
            zstd_level: Some(ZSTD_LEVEL),
            zstd_ratio: Some(runs.encoded_bytes as f64 / runs.zstd_bytes.max(1) as f64),
            features: serde_json::to_value(info.family.features()).expect("features serialize"),
            encode: direction(|m| &m.encode),
            decode: direction(|m| &m.decode),
        }
    }
}

/// The measured formats and the failed ones, with `relative` filled in against
/// the fastest format of each direction (the baseline is not a format).
pub fn formats(runs: &[FormatRuns], records: u64) -> (Vec<FormatResult>, Vec<FailedFormat>) {
    let mut measured: Vec<FormatResult> = runs
        .iter()
        .filter(|r| r.failure.is_none() && !r.runs.is_empty())
        .map(|r| FormatResult::new(r, records))
        .collect();
    let one_runner = vec![0; measured.len()];
    fill_relative(&mut measured, &one_runner, |f| &mut f.encode);
    fill_relative(&mut measured, &one_runner, |f| &mut f.decode);
    let failed = runs
        .iter()
        .filter_map(|r| {
            r.failure.clone().map(|failure| FailedFormat {
                name: r.info.name.to_owned(),
                family: r.info.family.name().to_owned(),
                library: r.info.library.to_owned(),
                library_version: crate_version(r.info.library).to_owned(),
                failure,
            })
        })
        .collect();
    (measured, failed)
}

/// `relative` of every format against the fastest. `runner[i]` says which
/// runner measured format `i`: formats of one runner share its processes, so
/// their ratio is paired by process; across runners it is not.
fn fill_relative(
    formats: &mut [FormatResult],
    runner: &[usize],
    pick: fn(&mut FormatResult) -> &mut Direction,
) {
    let per_run = Direction::ns_by_process;
    let fastest = formats
        .iter_mut()
        .enumerate()
        .filter(|(_, f)| !f.baseline)
        .map(|(i, f)| (i, pick(f)))
        .min_by(|(_, a), (_, b)| a.summary.ns_per_op.median.total_cmp(&b.summary.ns_per_op.median))
        .map(|(i, d)| (runner[i], per_run(d), d.summary.ns_per_op.median));
    let Some((fastest_runner, fastest_runs, fastest_median)) = fastest else {
        return;
    };
    for (i, format) in formats.iter_mut().enumerate() {
        let direction = pick(format);
        let runs = per_run(direction);
        // The fastest format against itself is 1 exactly, not a resampled ratio.
        let is_fastest = runner[i] == fastest_runner && runs == fastest_runs;
        let interval = match (is_fastest, runner[i] == fastest_runner) {
            (true, _) => Interval { low: 1.0, high: 1.0 },
            (false, true) => stats::ratio_interval(&runs, &fastest_runs),
            (false, false) => stats::ratio_interval_apart(&runs, &fastest_runs),
        };
        direction.relative = Relative {
            fastest: is_fastest,
            ratio: direction.summary.ns_per_op.median / fastest_median.max(f64::MIN_POSITIVE),
            // The ratio's own interval decides, so `≈` never sits beside an
            // interval that excludes 1 (paired within a runner, a drift common
            // to a process cancels; two separate intervals overlapping would not).
            indistinguishable_from_fastest: interval.low <= 1.0,
            interval,
        };
    }
}

/// A format and direction whose ns/op is less precise than the run asked
/// (`--precision`): its confidence interval is wider than the target.
pub struct Imprecise {
    pub format: String,
    pub direction: &'static str,
    /// The half-width reached, over the median (none from a single run).
    pub precision: Option<f64>,
}

impl Imprecise {
    pub fn find(formats: &[FormatResult], target: f64) -> Vec<Imprecise> {
        let mut missed = Vec::new();
        for format in formats {
            for (direction, d) in [("encode", &format.encode), ("decode", &format.decode)] {
                if d.summary.precision.is_none_or(|p| p > target) {
                    missed.push(Imprecise {
                        format: format.name.clone(),
                        direction,
                        precision: d.summary.precision,
                    });
                }
            }
        }
        missed
    }

    /// The one line for all of them: how many, the worst, and where the rest is.
    pub fn summary(missed: &[Imprecise], rows: usize, target: f64) -> Option<String> {
        let worst = missed.iter().max_by(|a, b| {
            let key = |m: &Imprecise| m.precision.unwrap_or(f64::INFINITY);
            key(a).total_cmp(&key(b))
        })?;
        let reached = match worst.precision {
            Some(p) => format!("±{:.1}%", 100.0 * p),
            None => "one run, no interval".to_owned(),
        };
        Some(format!(
            "{} of {rows} rows missed the ±{:.1}% precision target (worst: {} {} {reached}; marked ! in the ±CI column); \
             more processes (a longer --time-budget, or --min-processes) or a quieter machine would tighten them",
            missed.len(),
            100.0 * target,
            worst.format,
            worst.direction,
        ))
    }
}

/// Rows that run the very same code, measured as two formats: a checked and
/// an unchecked decoder sharing one encoder. Whatever separates the two is
/// the run's own noise, a floor under every difference between formats
/// (`catalog::registry`'s tests check that each pair writes the same bytes).
pub const CANARIES: [(&str, &str, &str); 2] =
    [("flatbuffers", "flatbuffers-unchecked", "encode"), ("rkyv", "rkyv-unchecked", "encode")];

/// One canary pair as measured: the second's median ns/op over the first's,
/// with its bootstrap 95 % interval.
pub struct Canary {
    pub language: String,
    pub pair: (&'static str, &'static str),
    pub direction: &'static str,
    pub ratio: f64,
    pub interval: Interval,
}

impl Canary {
    fn find(part: &Results) -> Vec<Canary> {
        let find = |name: &str, direction: &str| {
            let format = part.formats.iter().find(|f| f.name == name)?;
            Some(match direction {
                "encode" => &format.encode,
                _ => &format.decode,
            })
        };
        CANARIES
            .iter()
            .filter_map(|&(a, b, direction)| {
                let (first, second) = (find(a, direction)?, find(b, direction)?);
                let median = |d: &Direction| d.summary.ns_per_op.median;
                Some(Canary {
                    language: part.runner.language.clone(),
                    pair: (a, b),
                    direction,
                    ratio: median(second) / median(first).max(f64::MIN_POSITIVE),
                    interval: stats::ratio_interval(
                        &second.ns_by_process(),
                        &first.ns_by_process(),
                    ),
                })
            })
            .collect()
    }

    /// The preamble's line, when the run measured a pair.
    pub fn line(canaries: &[Canary]) -> Option<String> {
        let shown: Vec<String> = canaries
            .iter()
            .map(|c| {
                format!(
                    "{}{} vs {} {} {:+.1}% ({:+.1} to {:+.1})",
                    if canaries.iter().any(|o| o.language != c.language) {
                        format!("{} ", c.language)
                    } else {
                        String::new()
                    },
                    c.pair.0,
                    c.pair.1,
                    c.direction,
                    100.0 * (c.ratio - 1.0),
                    100.0 * (c.interval.low - 1.0),
                    100.0 * (c.interval.high - 1.0)
                )
            })
            .collect();
        (!shown.is_empty()).then(|| {
            format!(
                "noise floor (the same code measured as two rows): {}; differences between formats smaller than \
                 this are the run's, not the formats'",
                shown.join(", ")
            )
        })
    }
}

/// One or more runners' results on the same records, shown as one set of
/// tables: every format of every language, with `relative` against the
/// fastest format of them all (the runners ran one after another on the same
/// machine and the same records, so their figures compare).
pub struct Merged {
    pub parts: Vec<Results>,
    pub rows: Vec<Row>,
    /// Matrices `report --attach` adds to the HTML page (interop, evolution, robustness).
    pub attachments: Vec<serde_json::Value>,
}

/// A measured format and the language of the runner that measured it.
pub struct Row {
    pub language: String,
    /// The clock that runner timed latency samples with: it decides which figures are flagged.
    pub timer: Calibration,
    /// The precision that runner's run aimed for (`--precision`): rows short of it are marked.
    pub precision_target: f64,
    pub format: FormatResult,
}

impl Merged {
    pub fn new(parts: Vec<Results>) -> Result<Merged> {
        let Some(first) = parts.first() else { bail!("no results to show") };
        for other in &parts[1..] {
            let (a, b) = (&first.workload, &other.workload);
            if a.name != b.name || a.records != b.records {
                bail!(
                    "the {} runner measured {} records of {}, the {} runner {} records of {}: not the same data",
                    first.runner.language,
                    a.records,
                    a.name,
                    other.runner.language,
                    b.records,
                    b.name
                );
            }
        }
        let (runner, mut formats): (Vec<usize>, Vec<FormatResult>) = parts
            .iter()
            .enumerate()
            .flat_map(|(i, p)| p.formats.iter().map(move |f| (i, f.clone())))
            .unzip();
        fill_relative(&mut formats, &runner, |f| &mut f.encode);
        fill_relative(&mut formats, &runner, |f| &mut f.decode);
        // Runners in other languages name the family but carry no feature row:
        // the one feature matrix answers for every language's formats.
        for format in formats.iter_mut().filter(|f| f.features.is_null()) {
            if let Some(row) = features::of_family(&format.family) {
                format.features = serde_json::to_value(row).expect("a feature row serializes");
            }
        }
        let rows = runner
            .into_iter()
            .zip(formats)
            .map(|(i, format)| Row {
                language: parts[i].runner.language.clone(),
                timer: parts[i].timer.clone(),
                precision_target: parts[i].settings.precision,
                format,
            })
            .collect();
        Ok(Merged { parts, rows, attachments: Vec::new() })
    }

    /// The set holds results of more than one language, so tables name each row's.
    pub fn several_languages(&self) -> bool {
        self.parts.iter().any(|p| p.runner.language != self.parts[0].runner.language)
    }

    /// The first runner's results: the workload and settings every part shares.
    pub fn first(&self) -> &Results {
        &self.parts[0]
    }

    /// Every part's warnings, prefixed with its language when there are several.
    pub fn warnings(&self) -> Vec<String> {
        let several = self.several_languages();
        self.parts
            .iter()
            .flat_map(|p| {
                p.warnings.iter().map(move |w| match several {
                    true => format!("{}: {w}", p.runner.language),
                    false => w.clone(),
                })
            })
            .collect()
    }

    /// Every row whose ns/op missed its run's precision target, format names
    /// carrying their language when there are several, and the one line saying so.
    pub fn imprecise(&self) -> Option<String> {
        let several = self.several_languages();
        let missed: Vec<Imprecise> = self
            .parts
            .iter()
            .flat_map(|p| {
                Imprecise::find(&p.formats, p.settings.precision).into_iter().map(move |n| {
                    Imprecise {
                        format: match several {
                            true => format!("{} {}", p.runner.language, n.format),
                            false => n.format,
                        },
                        ..n
                    }
                })
            })
            .collect();
        Imprecise::summary(&missed, 2 * self.rows.len(), self.first().settings.precision)
    }

    /// Every part's canary pairs.
    pub fn canaries(&self) -> Vec<Canary> {
        self.parts.iter().flat_map(Canary::find).collect()
    }

    /// Failed and not-run formats of every part, as (language, …) pairs.
    pub fn failed(&self) -> impl Iterator<Item = (&str, &FailedFormat)> {
        self.parts
            .iter()
            .flat_map(|p| p.failed.iter().map(move |f| (p.runner.language.as_str(), f)))
    }

    pub fn not_run(&self) -> impl Iterator<Item = (&str, &NotRun)> {
        self.parts
            .iter()
            .flat_map(|p| p.not_run.iter().map(move |n| (p.runner.language.as_str(), n)))
    }
}

/// The JSON export of several runners' results.
#[derive(Serialize, Deserialize)]
pub struct ResultsSet {
    pub schema: String,
    pub results: Vec<Results>,
}
