//! The results of a run as plain data: what every export and the terminal
//! table read. Serialized as-is for `--export-json`; the schema is documented
//! in docs/results-schema.md and is meant to be shared by runners in other languages.

use serde::Serialize;

use crate::benchmark::stats::{RunStats, Summary};
use crate::benchmark::timer::Calibration;
use crate::benchmark::{FormatRuns, Settings, ZSTD_LEVEL};
use crate::environment::{Environment, crate_version};
use crate::format::features::{self, Features};
use crate::format::{FormatInfo, Labels};
use crate::workload::tabular::csv::CsvSize;

pub const SCHEMA: &str = "shootout-results/1";

#[derive(Debug, Serialize)]
pub struct Results {
    pub schema: &'static str,
    pub runner: Runner,
    pub environment: Environment,
    pub timer: Calibration,
    pub settings: Settings,
    pub workload: WorkloadInfo,
    pub formats: Vec<FormatResult>,
    /// Registered formats that cannot express this workload, with the reason.
    pub not_run: Vec<NotRun>,
}

#[derive(Debug, Serialize)]
pub struct NotRun {
    pub name: &'static str,
    pub family: &'static str,
    pub reason: &'static str,
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
    pub labels: Labels,
    pub tags: Vec<&'static str>,
    pub notes: &'static str,
    /// The decoded aggregate matched the reference in every run (a mismatch aborts the run instead).
    pub validated: bool,
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
    pub runs: Vec<RunStats>,
}

impl FormatResult {
    pub fn new(runs: &FormatRuns, records: u64) -> Self {
        let info: &'static FormatInfo = runs.info;
        let encode: Vec<RunStats> = runs.runs.iter().map(|m| m.encode).collect();
        let decode: Vec<RunStats> = runs.runs.iter().map(|m| m.decode).collect();
        // Deterministic codecs give the same size every run; report the first.
        let encoded_bytes = runs.runs.first().map_or(0, |m| m.encoded_bytes);
        FormatResult {
            name: info.name,
            family: info.family,
            library: info.library,
            library_version: crate_version(info.library),
            labels: runs.labels,
            tags: runs.labels.tags(),
            notes: info.notes,
            validated: true,
            encoded_bytes,
            bytes_per_record: encoded_bytes as f64 / records.max(1) as f64,
            zstd_bytes: runs.zstd_bytes,
            zstd_level: ZSTD_LEVEL,
            zstd_ratio: encoded_bytes as f64 / runs.zstd_bytes.max(1) as f64,
            features: features::of_family(info.family),
            encode: Direction { summary: Summary::of(&encode), runs: encode },
            decode: Direction { summary: Summary::of(&decode), runs: decode },
        }
    }
}
