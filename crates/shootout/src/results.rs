//! The results of a run as plain data: what every export and the terminal
//! table read. Serialized as-is for `--export-json`; the schema is documented
//! in docs/results-schema.md and is meant to be shared by runners in other languages.

use serde::Serialize;

use crate::benchmark::input::InputFile;
use crate::benchmark::stats::{self, Interval, RunStats, Summary};
use crate::benchmark::timer::Calibration;
use crate::benchmark::{Failure, FormatRuns, RunInfo, Settings, ZSTD_LEVEL, baseline};
use crate::environment::{Environment, crate_version};
use crate::format::features::{self, Features};
use crate::format::{FormatInfo, Labels};
use crate::workload::tabular::csv::CsvSize;

pub const SCHEMA: &str = "shootout-results/2";

/// Spread across runs (max − min over the median) above which a warning is printed.
pub const NOISE_THRESHOLD: f64 = 0.05;

#[derive(Debug, Serialize)]
pub struct Results {
    pub schema: &'static str,
    pub runner: Runner,
    pub invocation: Invocation,
    pub environment: Environment,
    pub timer: Calibration,
    pub settings: Settings,
    pub workload: WorkloadInfo,
    /// Every pass over the input, warm-up runs included.
    pub runs: Vec<RunInfo>,
    /// Formats measured and validated in every run.
    pub formats: Vec<FormatResult>,
    /// Formats whose numbers are withheld: they failed to encode, decode or validate.
    pub failed: Vec<FailedFormat>,
    /// Registered formats that cannot express this workload, with the reason.
    pub not_run: Vec<NotRun>,
    /// What the run warned about (input, settings), also printed to stderr.
    pub warnings: Vec<String>,
    /// Every figure whose ns/op varied across runs by more than [`NOISE_THRESHOLD`] of its median.
    pub noisy: Vec<String>,
}

/// How the run was started, so it can be repeated.
#[derive(Debug, Serialize)]
pub struct Invocation {
    pub command_line: Vec<String>,
    /// The options as parsed, defaults filled in.
    pub options: serde_json::Value,
    /// /proc/loadavg (1, 5, 15 min) before the first pass and after the last.
    pub load_before: Option<[f64; 3]>,
    pub load_after: Option<[f64; 3]>,
}

#[derive(Debug, Serialize)]
pub struct NotRun {
    pub name: &'static str,
    pub family: &'static str,
    pub reason: &'static str,
}

#[derive(Debug, Serialize)]
pub struct FailedFormat {
    pub name: &'static str,
    pub family: &'static str,
    pub library: &'static str,
    pub library_version: &'static str,
    #[serde(flatten)]
    pub failure: Failure,
}

#[derive(Debug, Serialize)]
pub struct Runner {
    /// The implementation language of the formats measured.
    pub language: &'static str,
    pub name: &'static str,
}

#[derive(Debug, Serialize)]
pub struct WorkloadInfo {
    pub name: &'static str,
    pub source: String,
    /// The input file, when the data came from one.
    pub input: Option<InputFile>,
    /// Operations: records encoded (and decoded) per run.
    pub records: u64,
    /// The CSV the records came from (tabular workloads): the size baseline.
    pub csv: Option<CsvSize>,
}

#[derive(Debug, Serialize)]
pub struct FormatResult {
    pub name: &'static str,
    pub family: &'static str,
    pub library: &'static str,
    pub library_version: &'static str,
    /// The no-format floor row, not a format.
    pub baseline: bool,
    pub labels: Labels,
    pub tags: Vec<&'static str>,
    pub notes: &'static str,
    pub encoded_bytes: u64,
    pub bytes_per_record: f64,
    /// The whole stream compressed with zstd (level in `zstd_level`).
    pub zstd_bytes: u64,
    pub zstd_level: i32,
    /// encoded_bytes / zstd_bytes.
    pub zstd_ratio: f64,
    /// The format family's entry of the feature matrix.
    pub features: Option<&'static Features>,
    pub encode: Direction,
    pub decode: Direction,
}

#[derive(Debug, Serialize)]
pub struct Direction {
    /// Median across runs of each statistic, with min and max.
    pub summary: Summary,
    /// ns/op against the fastest format's in this direction, with its bootstrap 95 % interval.
    pub relative: Relative,
    /// Per measured run, in run order.
    pub runs: Vec<DirectionRun>,
}

#[derive(Debug, Serialize)]
pub struct DirectionRun {
    #[serde(flatten)]
    pub stats: RunStats,
    /// Mean position of the format in the windows' shuffled order (0 = first).
    pub order_position: f64,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Relative {
    /// This is the fastest format of its direction.
    pub fastest: bool,
    pub ratio: f64,
    pub interval: Interval,
    /// The interval of this format's median ns/op overlaps the fastest format's:
    /// the run cannot tell them apart.
    pub indistinguishable_from_fastest: bool,
}

impl FormatResult {
    fn new(runs: &FormatRuns, records: u64) -> Self {
        let info: &'static FormatInfo = runs.info;
        let direction = |pick: fn(&crate::benchmark::Measurement) -> &RunStats| {
            let stats: Vec<RunStats> = runs.runs.iter().map(|m| pick(m).clone()).collect();
            Direction {
                summary: Summary::of(&stats),
                relative: Relative {
                    fastest: false,
                    ratio: 1.0,
                    interval: Interval {
                        low: 1.0,
                        high: 1.0,
                    },
                    indistinguishable_from_fastest: true,
                },
                runs: runs
                    .runs
                    .iter()
                    .zip(stats)
                    .map(|(m, stats)| DirectionRun {
                        stats,
                        order_position: m.order_position,
                    })
                    .collect(),
            }
        };
        FormatResult {
            name: info.name,
            family: info.family,
            library: info.library,
            library_version: crate_version(info.library),
            baseline: info.family == baseline::FAMILY,
            labels: runs.labels,
            tags: runs.labels.tags(),
            notes: info.notes,
            encoded_bytes: runs.encoded_bytes,
            bytes_per_record: runs.encoded_bytes as f64 / records.max(1) as f64,
            zstd_bytes: runs.zstd_bytes,
            zstd_level: ZSTD_LEVEL,
            zstd_ratio: runs.encoded_bytes as f64 / runs.zstd_bytes.max(1) as f64,
            features: features::of_family(info.family),
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
    fill_relative(&mut measured, |f| &mut f.encode);
    fill_relative(&mut measured, |f| &mut f.decode);
    let failed = runs
        .iter()
        .filter_map(|r| {
            r.failure.clone().map(|failure| FailedFormat {
                name: r.info.name,
                family: r.info.family,
                library: r.info.library,
                library_version: crate_version(r.info.library),
                failure,
            })
        })
        .collect();
    (measured, failed)
}

fn fill_relative(formats: &mut [FormatResult], pick: fn(&mut FormatResult) -> &mut Direction) {
    let per_run = |d: &Direction| {
        d.runs
            .iter()
            .map(|r| r.stats.ns_per_op)
            .collect::<Vec<f64>>()
    };
    let fastest = formats
        .iter_mut()
        .filter(|f| !f.baseline)
        .map(pick)
        .min_by(|a, b| {
            a.summary
                .ns_per_op
                .median
                .total_cmp(&b.summary.ns_per_op.median)
        })
        .map(|d| {
            (
                per_run(d),
                d.summary.ns_per_op_ci,
                d.summary.ns_per_op.median,
            )
        });
    let Some((fastest_runs, fastest_ci, fastest_median)) = fastest else {
        return;
    };
    for format in formats.iter_mut() {
        let direction = pick(format);
        let runs = per_run(direction);
        // The fastest format against itself is 1 exactly, not a resampled ratio.
        let is_fastest = runs == fastest_runs;
        direction.relative = Relative {
            fastest: is_fastest,
            ratio: direction.summary.ns_per_op.median / fastest_median.max(f64::MIN_POSITIVE),
            interval: if is_fastest {
                Interval {
                    low: 1.0,
                    high: 1.0,
                }
            } else {
                stats::ratio_interval(&runs, &fastest_runs)
            },
            indistinguishable_from_fastest: direction.summary.ns_per_op_ci.overlaps(&fastest_ci),
        };
    }
}

/// A format and direction whose ns/op varied across runs by more than
/// [`NOISE_THRESHOLD`] of its median.
pub struct Noisy {
    pub format: &'static str,
    pub direction: &'static str,
    pub spread: crate::benchmark::stats::Spread,
}

impl Noisy {
    pub fn find(formats: &[FormatResult]) -> Vec<Noisy> {
        let mut noisy = Vec::new();
        for format in formats {
            for (direction, d) in [("encode", &format.encode), ("decode", &format.decode)] {
                let spread = d.summary.ns_per_op;
                if d.runs.len() > 1 && spread.relative_range() > NOISE_THRESHOLD {
                    noisy.push(Noisy {
                        format: format.name,
                        direction,
                        spread,
                    });
                }
            }
        }
        noisy
    }

    /// The results' warning: every figure in full.
    pub fn warning(&self) -> String {
        let s = self.spread;
        format!(
            "{} {}: ns/op varied {:.1}% across runs ({:.1}–{:.1}, median {:.1}); more --runs or a quieter machine would tighten it",
            self.format,
            self.direction,
            100.0 * s.relative_range(),
            s.min,
            s.max,
            s.median
        )
    }

    /// The terminal's warning: one line for all of them.
    pub fn summary(noisy: &[Noisy]) -> Option<String> {
        if noisy.is_empty() {
            return None;
        }
        let list: Vec<String> = noisy
            .iter()
            .map(|n| {
                format!(
                    "{} {} {:.0}%",
                    n.format,
                    n.direction,
                    100.0 * n.spread.relative_range()
                )
            })
            .collect();
        Some(format!(
            "{} figures varied more than {:.0}% across runs (max − min over the median ns/op): {}; more --runs or a quieter \
             machine would tighten them",
            noisy.len(),
            100.0 * NOISE_THRESHOLD,
            list.join(", ")
        ))
    }
}
