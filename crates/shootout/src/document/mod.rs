//! The results document, `shootout-results/3` (docs/results-schema.md,
//! spec/results.schema.json): every type of it, as plain data, the one place
//! the schema lives in Rust. Every runner writes one: Rust's harness
//! (`benchmark::document`), the Go and JVM runners. A direction's runs are
//! its raw figures; what they give across runs (`summary`, `relative`) is the
//! statistics engine's to fill in (`stats::derive`), for every language alike,
//! whenever a document is made or read back.

mod histogram;
mod run;
mod summary;
mod testbed;

use std::num::NonZeroU64;

use serde::{Deserialize, Serialize};

use crate::stats::{ByProcess, Estimate, Interval};

pub use histogram::{
    HISTOGRAM_LIMITS, HistogramLimits, decode_histogram, encode_histogram, new_histogram,
};
pub use run::{Outliers, RawRun, RunStats, StoredHistogram};
pub use summary::{Relative, Summary};
pub use testbed::{Machine, Source as TestbedSource, Testbed};

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
    /// The machine as one identity, and its `--testbed` name: stamped by
    /// `run` on every language's part; absent from older files and from the
    /// Go and JVM runners' own, whose testbed [`Results::testbed`] derives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub testbed: Option<Testbed>,
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
                let counted = direction.summary.instructions_per_op;
                *direction = Direction::of(std::mem::take(&mut direction.runs));
                direction.summary.instructions_per_op = counted;
            }
        }
        Relative::within_runner(&mut self.formats);
    }

    /// The testbed stamped on the results, else the one their environment
    /// describes (a file from before testbeds, or a runner's own).
    pub fn testbed(&self) -> Testbed {
        self.testbed.clone().unwrap_or_else(|| {
            Testbed::of_environment(&self.environment, None, TestbedSource::Environment)
        })
    }

    /// One of the environment's common keys as text (`?` when the runner did not write it).
    pub fn environment_text(&self, key: &str) -> String {
        environment_text(&self.environment, key)
    }
}

/// One key of an environment object as text (`?` when absent or null).
pub fn environment_text(environment: &serde_json::Value, key: &str) -> String {
    match environment.get(key) {
        Some(serde_json::Value::String(text)) => text.clone(),
        Some(serde_json::Value::Null) | None => "?".to_owned(),
        Some(other) => other.to_string(),
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
    /// The windows the timed passes ran on, when a sample of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampled: Option<Sampled>,
}

/// What the timed passes covered, when not every window (`benchmark::sample`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sampled {
    /// Windows timed, of `of_windows` in the input.
    pub windows: u64,
    pub of_windows: u64,
    /// Records in the windows timed.
    pub records: u64,
}

impl Sampled {
    /// Up to this many windows, the validation pass compresses every one;
    /// beyond, the `COMPRESSED_BLOCK` windows from each sampled one on.
    pub const COMPRESSED_WHOLE_UP_TO: u64 = 256;
    pub const COMPRESSED_BLOCK: u64 = 8;

    /// Whether the zstd sizes are the whole input's bytes at the ratio of
    /// the blocks compressed, rather than measured over every window.
    pub fn compression_estimated(&self) -> bool {
        self.of_windows > Self::COMPRESSED_WHOLE_UP_TO
    }

    /// The line a run's output and report print.
    pub fn line(&self, input_records: u64, window: usize) -> String {
        let zstd = match self.compression_estimated() {
            true => format!(
                "; zstd sizes at the compression ratio of the {} windows from each sampled one on, not of every window",
                Self::COMPRESSED_BLOCK
            ),
            false => String::new(),
        };
        format!(
            "timed on a stratified sample: {} of {} windows of {window} records ({} of {input_records} records), one \
             from each stretch of the input; every record was encoded, decoded and validated once{zstd} (--full times \
             and compresses every window)",
            self.windows, self.of_windows, self.records
        )
    }
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
    /// The whole stream compressed with zstd (level in `zstd_level`); on a
    /// large sampled input ([`Sampled::compression_estimated`]), the whole
    /// stream's bytes at the ratio of the windows compressed; null from a
    /// runner without zstd.
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
    /// Its cost against the other formats of the run ([`Relative`]).
    pub relative: Relative,
    /// Per measured run, in run order.
    pub runs: Vec<DirectionRun>,
}

/// A direction as read: its runs, from which the rest is derived, and the
/// one summary figure that is not derived from them.
#[derive(Deserialize)]
#[serde(expecting = "a direction: an object of its runs")]
struct DirectionRuns {
    runs: Vec<DirectionRun>,
    #[serde(default)]
    summary: Option<CountedSummary>,
}

/// Of a summary as read, what the runs do not give: the instruction count.
#[derive(Deserialize)]
struct CountedSummary {
    #[serde(default)]
    instructions_per_op: Option<f64>,
}

impl TryFrom<DirectionRuns> for Direction {
    type Error = String;

    fn try_from(read: DirectionRuns) -> Result<Direction, String> {
        if read.runs.is_empty() {
            return Err("no runs; expected at least one measured run".to_owned());
        }
        let mut direction = Direction::of(read.runs);
        direction.summary.instructions_per_op =
            read.summary.and_then(|summary| summary.instructions_per_op);
        Ok(direction)
    }
}

impl Direction {
    /// The runs' summary; `relative` is filled in against the other formats by [`Relative`].
    pub fn of(runs: Vec<DirectionRun>) -> Direction {
        let stats: Vec<(usize, &RunStats)> = runs.iter().map(|r| (r.process, &r.stats)).collect();
        Direction {
            summary: Summary::of(&stats),
            relative: Relative {
                cost: Estimate::exact(1.0),
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
    Relative::within_runner(&mut formats);
    Ok(formats)
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "ReadRun")]
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
    #[serde(default)]
    round_ns: Vec<u64>,
    histogram: StoredHistogram,
    allocations_per_op: Option<f64>,
    allocated_bytes_per_op: Option<f64>,
    #[serde(default)]
    gc_count: Option<u64>,
    #[serde(default)]
    gc_pause_ms: Option<u64>,
    order_position: f64,
    #[serde(default)]
    process: usize,
}

impl TryFrom<ReadRun> for DirectionRun {
    type Error = String;

    fn try_from(read: ReadRun) -> Result<DirectionRun, String> {
        let rounds_total = read.round_ns.iter().try_fold(0u64, |sum, &ns| sum.checked_add(ns));
        if !read.round_ns.is_empty() && rounds_total != Some(read.total_ns) {
            return Err(format!(
                "round_ns adds up to {}; expected total_ns, {}",
                rounds_total.map_or("more than 2^64".to_owned(), |t| t.to_string()),
                read.total_ns
            ));
        }
        let StoredHistogram { text, decoded } = read.histogram;
        let raw = RawRun {
            total_ns: read.total_ns,
            ops: read.ops.get(),
            round_ns: read.round_ns,
            histogram: text,
            allocations_per_op: read.allocations_per_op,
            allocated_bytes_per_op: read.allocated_bytes_per_op,
            gc_count: read.gc_count,
            gc_pause_ms: read.gc_pause_ms,
        };
        Ok(DirectionRun {
            stats: RunStats::of(raw, &decoded),
            order_position: read.order_position,
            process: read.process,
        })
    }
}

/// How to run: processes, passes, window size, and the seed of the formats' order.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Settings {
    /// Whole passes per format before the measured ones, in every process (validated all the same).
    pub warmup_runs: usize,
    /// Measured runs in every process.
    pub runs: usize,
    /// Throughput passes over each window in each measured run: the first
    /// round makes every pass of every format; each further round, in a new
    /// shuffled order, times the throughput pass again. A run's ns/op is over
    /// all rounds. Warm-up runs make one.
    #[serde(default = "one")]
    pub throughput_rounds: usize,
    /// The fewest processes each language is measured in (`processes::measure`).
    #[serde(default = "one")]
    pub min_processes: usize,
    /// The most processes.
    #[serde(default = "one")]
    pub max_processes: usize,
    /// After `min_processes`, more are started until every row's ns/op is
    /// this precise (the half-width of its 95 % interval over its median), or
    /// until the next process would end past `time_budget_ms`.
    #[serde(default = "default_precision")]
    pub precision: f64,
    /// Wall time for each language's processes; 0: exactly `min_processes`.
    #[serde(default)]
    pub time_budget_ms: u64,
    /// Operations per window: each format's stream holds at most one window.
    pub window: usize,
    /// Windows the timed passes run on, a stratified sample of the input
    /// (`benchmark::sample`); 0 (and files from before it, and the Go and JVM
    /// runners, which time every window): every window.
    #[serde(default)]
    pub sample_windows: usize,
    /// Seeds the shuffled order of the formats in every window of every run;
    /// process `k` uses `order_seed + k`.
    pub order_seed: u64,
}

impl Settings {
    /// What one process of a run is asked: its runs, and its own order seed.
    pub fn for_process(self, process: usize) -> Settings {
        Settings {
            min_processes: 1,
            max_processes: 1,
            time_budget_ms: 0,
            order_seed: self.order_seed.wrapping_add(process as u64),
            ..self
        }
    }
}

/// Half-width of each row's ns/op interval over its median that a run aims for (±2 %).
pub const DEFAULT_PRECISION: f64 = 0.02;

fn default_precision() -> f64 {
    DEFAULT_PRECISION
}

fn one() -> usize {
    1
}

/// Why a format's numbers are withheld: it could not encode a record, could
/// not read its own stream back, or decoded wrong values.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Failure {
    pub reason: String,
    /// 0 for the first warm-up (or measured) run.
    pub run: usize,
    /// The first offending operation, in input order, when one record is to blame.
    pub operation: Option<u64>,
    /// Where that operation came from (record, CSV line, …).
    pub position: Option<String>,
}

/// One pass over the input: warm-up or measured.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunInfo {
    /// The process that made the run (0 = the first).
    #[serde(default)]
    pub process: usize,
    pub index: usize,
    pub warmup: bool,
    /// RFC 3339 UTC.
    pub started: String,
    pub wall_ms: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Calibration {
    /// Which clock source quanta chose.
    pub clock: String,
    /// Ticks of the raw counter per second (the TSC frequency when the clock is the TSC).
    pub counter_hz: f64,
    /// Median duration of an empty fenced timed region; subtracted from every latency sample.
    pub empty_region_ns: u64,
    /// Smallest non-zero step the clock showed: no sample is finer than this.
    pub resolution_ns: u64,
    /// Latency figures below this (5 × resolution) are flagged `≤` in tables:
    /// they are within the clock's quantisation.
    pub flag_below_ns: u64,
}

/// The input file as given, so a reader of the results can check they have the same one.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct InputFile {
    pub path: String,
    pub bytes: u64,
    pub sha256: String,
}

/// Sizes the original study compared formats against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CsvSize {
    /// The whole file, header included.
    pub bytes: u64,
    /// Present (non-empty) cells.
    pub values: u64,
}

/// The JSON export of several runners' results.
#[derive(Serialize, Deserialize)]
pub struct ResultsSet {
    pub schema: String,
    pub results: Vec<Results>,
}
