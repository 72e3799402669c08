//! The Rust runner's results document, built from what the harness
//! measured, as the Go and JVM runners build theirs.

use super::{FormatRuns, Measured, Measurement, Registered, ZSTD_LEVEL, baseline};
use crate::document::{
    Calibration, Direction, DirectionRun, FailedFormat, FormatResult, Invocation, NotRun, Relative,
    Results, RunStats, Runner, SCHEMA, Settings, WorkloadInfo,
};
use crate::environment::{Environment, crate_version};
use crate::format::FormatInfo;
use crate::workload::Workload;

/// What a Rust run knew besides its measurements.
pub struct RunContext {
    pub invocation: Invocation,
    pub environment: Environment,
    pub timer: Calibration,
    pub settings: Settings,
    /// Warnings of the settings; the input's are added from the first pass.
    pub warnings: Vec<String>,
}

/// The Rust runner's results: the measured and failed formats, and the
/// registered ones that cannot express the workload.
pub fn results<W: Workload>(
    measured: &Measured<W>,
    registered: &[Registered<W>],
    source: String,
    context: RunContext,
) -> Results {
    let scanned = &measured.scanned;
    let (formats, failed) = formats(&measured.formats, scanned.operations);
    let mut warnings = context.warnings;
    warnings.extend(scanned.warnings.iter().cloned());
    warnings.extend(context.environment.build_warning());
    Results {
        schema: SCHEMA.to_owned(),
        runner: Runner { language: "rust".to_owned(), name: "shootout".to_owned() },
        invocation: context.invocation,
        environment: serde_json::to_value(&context.environment)
            .expect("the environment serializes"),
        // `run` stamps every language's part once they are all measured.
        testbed: None,
        timer: context.timer,
        settings: context.settings,
        workload: WorkloadInfo {
            name: W::NAME.to_owned(),
            source,
            input: scanned.file.clone(),
            dataset: None,
            records: scanned.operations,
            csv: scanned.csv,
            sampled: measured.sampled,
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

fn format_result(runs: &FormatRuns, records: u64) -> FormatResult {
    let info: &'static FormatInfo = runs.info;
    let direction = |pick: fn(&Measurement) -> &RunStats| {
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

/// The measured formats and the failed ones, with `relative` filled in against
/// the fastest format of each direction (the baseline is not a format).
pub fn formats(runs: &[FormatRuns], records: u64) -> (Vec<FormatResult>, Vec<FailedFormat>) {
    let mut measured: Vec<FormatResult> = runs
        .iter()
        .filter(|r| r.failure.is_none() && !r.runs.is_empty())
        .map(|r| format_result(r, records))
        .collect();
    Relative::within_runner(&mut measured);
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
