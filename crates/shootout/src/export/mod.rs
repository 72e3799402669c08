//! Result files: one module per export format.

pub mod csv;
pub mod json;
pub mod markdown;

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::results::Results;

#[derive(Debug, Clone, Copy)]
pub enum Kind {
    Json,
    Csv,
    Markdown,
}

/// Where one export goes: a file, or standard output for `-`.
#[derive(Debug, Clone)]
pub struct Target {
    pub kind: Kind,
    pub path: PathBuf,
}

impl Target {
    pub fn is_stdout(&self) -> bool {
        self.path == Path::new("-")
    }

    /// Fails before any benchmarking if the file exists and `force` is off,
    /// so a long run never ends by refusing to save.
    pub fn check(&self, force: bool) -> Result<()> {
        if !self.is_stdout() && !force && self.path.exists() {
            bail!("{}: already exists; pass --force to overwrite it", self.path.display());
        }
        Ok(())
    }

    pub fn write(&self, results: &Results) -> Result<()> {
        let render = |out: &mut dyn Write| match self.kind {
            Kind::Json => json::write(results, out),
            Kind::Csv => csv::write(results, out),
            Kind::Markdown => markdown::write(results, out),
        };
        if self.is_stdout() {
            return render(&mut io::stdout().lock()).context("writing results to standard output");
        }
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&self.path)
            .with_context(|| format!("{}: cannot create", self.path.display()))?;
        let mut out = io::BufWriter::new(file);
        render(&mut out).and_then(|()| Ok(out.flush()?)).with_context(|| format!("{}: cannot write", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmark::stats::{Outliers, RunStats};
    use crate::benchmark::timer::Calibration;
    use crate::benchmark::{FormatRuns, Measurement, RunInfo, Settings};
    use crate::environment::Environment;
    use crate::format::{Access, Api, DecodeStyle, FormatInfo, Labels};
    use crate::results::{Invocation, Runner, SCHEMA, WorkloadInfo};

    /// A made-up format, so the snapshots change only when the exports do.
    static EXAMPLE: FormatInfo = FormatInfo {
        name: "example",
        family: "Example",
        library: "example-lib",
        labels: Labels { buffer_reuse: true, decode: DecodeStyle::ZeroCopy, access: Access::Validated, api: Api::Native, lossy: None },
        notes: "A fixture.",
    };

    fn stats(ns_per_op: f64) -> RunStats {
        let p50 = ns_per_op as u64;
        RunStats {
            ns_per_op,
            total_ns: (ns_per_op * 1000.0) as u64,
            ops: 1000,
            ops_per_s: 1e9 / ns_per_op,
            mb_per_s: 55.6e3 / ns_per_op,
            p50_ns: p50,
            p90_ns: p50 + 10,
            p99_ns: p50 + 40,
            p999_ns: p50 + 90,
            max_ns: 20_000,
            latency_mean_ns: ns_per_op + 1.5,
            outliers: Outliers { low: 0, high: 3 },
            allocations_per_op: 0.0,
            allocated_bytes_per_op: 0.0,
            histogram: "HISTFAAAAA==".into(),
        }
    }

    /// Fixed figures, so the exports' shape can be snapshotted.
    fn fixture() -> Results {
        let runs = FormatRuns {
            info: &EXAMPLE,
            labels: EXAMPLE.labels,
            runs: [30.0, 40.0, 35.0]
                .map(|ns| Measurement { encode: stats(ns), decode: stats(ns + 20.0), order_position: 0.5 })
                .to_vec(),
            encoded_bytes: 55_600,
            zstd_bytes: 20_000,
            failure: None,
        };
        let (formats, failed) = crate::results::formats(&[runs], 1000);
        Results {
            schema: SCHEMA,
            runner: Runner { language: "rust", name: "shootout" },
            invocation: Invocation {
                command_line: vec!["shootout".into(), "run".into()],
                options: serde_json::json!({ "runs": 3 }),
                load_before: Some([0.5, 0.25, 0.125]),
                load_after: None,
            },
            environment: Environment {
                cpu: "Test CPU".into(),
                cores: 2,
                os: "Test OS".into(),
                rustc: "rustc 1.95.0",
                shootout_version: "0.1.0",
                git_commit: "0123456789abcdef",
                date: "2026-11-22T00:00:00Z".into(),
            },
            timer: Calibration {
                clock: "TSC (quanta), fenced reads",
                counter_hz: 2.5e9,
                empty_region_ns: 10,
                resolution_ns: 9,
                flag_below_ns: 45,
            },
            settings: Settings { warmup_runs: 1, runs: 3, window: 4096, order_seed: 1 },
            workload: WorkloadInfo { name: "iex", source: "fixture".into(), input: None, records: 1000, csv: None },
            runs: (0..4)
                .map(|index| RunInfo { index, warmup: index == 0, started: "2026-11-22T00:00:00Z".into(), wall_ms: 12.5 })
                .collect(),
            formats: formats.into_iter().map(|f| crate::results::FormatResult { library_version: "0.1.0", ..f }).collect(),
            failed,
            not_run: vec![crate::results::NotRun { name: "other", family: "Other", reason: "cannot express this workload" }],
            warnings: vec!["example encode: ns/op varied 28.6% across runs".into()],
        }
    }

    fn render(write: fn(&Results, &mut dyn Write) -> Result<()>) -> String {
        let mut out = Vec::new();
        write(&fixture(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn json_export() {
        insta::assert_snapshot!(render(json::write));
    }

    #[test]
    fn csv_export() {
        insta::assert_snapshot!(render(csv::write));
    }

    #[test]
    fn markdown_export() {
        insta::assert_snapshot!(render(markdown::write));
    }
}
