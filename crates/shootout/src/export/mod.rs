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
    use crate::benchmark::stats::RunStats;
    use crate::benchmark::timer::Calibration;
    use crate::benchmark::{FormatRuns, Measurement, Settings};
    use crate::environment::{Caches, Environment};
    use crate::format::Format;
    use crate::results::{FormatResult, Runner, SCHEMA, WorkloadInfo};

    fn stats(p50: u64) -> RunStats {
        RunStats {
            p50_ns: p50,
            p90_ns: p50 + 10,
            p99_ns: p50 + 40,
            p999_ns: p50 + 90,
            max_ns: 20_000,
            mean_ns: p50 as f64 + 1.5,
            total_ns: (p50 + 1) * 1000,
            records_per_s: 1e9 / (p50 + 1) as f64,
            mb_per_s: 55.6e3 / (p50 + 1) as f64,
            allocations_per_record: 0.0,
            allocated_bytes_per_record: 0.0,
        }
    }

    /// Fixed figures, so the exports' shape can be snapshotted.
    fn fixture() -> Results {
        let runs = FormatRuns {
            info: &crate::format::sbe::Sbe::INFO,
            labels: crate::format::sbe::Sbe::INFO.labels,
            runs: [30, 40, 35]
                .map(|p50| Measurement { encode: stats(p50), decode: stats(p50 + 20), encoded_bytes: 55_600 })
                .to_vec(),
            zstd_bytes: 20_000,
        };
        Results {
            schema: SCHEMA,
            runner: Runner { language: "rust", name: "shootout" },
            environment: Environment {
                cpu: "Test CPU".into(),
                cpu_flags: Some(vec!["tsc".into(), "constant_tsc".into()]),
                cache: Caches { l1d_bytes: Some(49_152), l1i_bytes: Some(32_768), l2_bytes: Some(1_310_720), l3_bytes: None },
                hypervisor: Some("KVMKVMKVM".into()),
                cpufreq_governor: None,
                constant_tsc: Some(true),
                nonstop_tsc: Some(false),
                memory_bytes: Some(8_589_934_592),
                cores: 2,
                os: "Test OS".into(),
                rustc: "rustc 1.95.0",
                build_profile: "release",
                opt_level: "3",
                rustflags: &["-Ctarget-cpu=native"],
                target: "x86_64-unknown-linux-gnu",
                target_features: &["fxsr", "sse", "sse2"],
                allocator: "system (counting wrapper)",
                shootout_version: "0.1.0",
                git_commit: "0123456789abcdef",
                git_dirty: Some(false),
                date: "2026-11-22T00:00:00Z".into(),
            },
            timer: Calibration { clock: "TSC (quanta)", empty_region_ns: 10, resolution_ns: 9 },
            settings: Settings { warmup_runs: 1, runs: 3 },
            workload: WorkloadInfo { name: "iex", source: "fixture".into(), records: 1000, csv: None },
            formats: vec![FormatResult { library_version: "0.1.0", ..FormatResult::new(&runs, 1000) }],
            not_run: vec![crate::results::NotRun { name: "example", family: "Example", reason: "cannot express this workload" }],
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
