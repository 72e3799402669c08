//! Result files: one module per export format; [`atomic`] writes them (and
//! every other file shootout writes), and this module checks output paths
//! before any work.

pub mod atomic;
pub mod bmf;
pub mod csv;
pub mod gab;
pub mod html;
pub mod json;
pub mod markdown;

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Serialize;

pub use atomic::{Output, write_with};

use crate::results::Merged;

#[derive(Debug, Clone, Copy)]
pub enum Kind {
    Json,
    Csv,
    Markdown,
    Html,
    Bmf,
    Gab,
}

impl Kind {
    /// The option that asks for this export, as messages name it.
    pub fn option(self) -> &'static str {
        match self {
            Kind::Json => "--export-json",
            Kind::Csv => "--export-csv",
            Kind::Markdown => "--export-markdown",
            Kind::Html => "--export-html",
            Kind::Bmf => "--export-bmf",
            Kind::Gab => "--export-gab",
        }
    }
}

/// `--export-json`, `--export-html` and `--force`: every command's exports
/// (`run` and `report` add their tables' CSV and Markdown).
#[derive(clap::Args, Debug, Clone, Default, Serialize)]
pub struct Exports {
    /// Write the results as JSON (`-` for standard output; the schemas are in docs/).
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Write one self-contained HTML page, no network needed to view it: the report, with these results as
    /// its section (`-` for standard output). `report --attach` adds a command's JSON to a run's page.
    #[arg(long, value_name = "FILE")]
    pub export_html: Option<PathBuf>,
    /// Overwrite existing export files.
    #[arg(long)]
    pub force: bool,
}

impl Exports {
    /// The exports asked for, checked before any work, so a long command never
    /// ends by refusing to save; none may be one of the command's `inputs`.
    pub fn targets(&self, inputs: &[PathBuf]) -> Result<Vec<Target>> {
        Target::checked(
            [(Kind::Json, self.export_json.clone()), (Kind::Html, self.export_html.clone())],
            self.force,
            inputs,
        )
    }
}

/// Where one export goes: a file, or standard output for `-`.
#[derive(Debug, Clone)]
pub struct Target {
    pub kind: Kind,
    pub path: PathBuf,
    /// `--force`: an existing file may be replaced.
    pub force: bool,
}

/// Fails unless every export of a run can be written as asked, one line
/// naming the first problem. Called before any benchmarking, so a long run
/// never ends by refusing to save, by one export overwriting another, or by
/// an export overwriting one of the run's `inputs`.
pub fn check_targets(targets: &[Target], inputs: &[PathBuf]) -> Result<()> {
    let to_stdout: Vec<&Target> = targets.iter().filter(|t| t.is_stdout()).collect();
    if let [first, second, ..] = to_stdout[..] {
        bail!(
            "{} and {} both write to standard output (-); only one export can",
            first.kind.option(),
            second.kind.option()
        );
    }
    let files: Vec<(&Target, Identity)> =
        targets.iter().filter(|t| !t.is_stdout()).map(|t| (t, Identity::of(&t.path))).collect();
    for (i, (first, identity)) in files.iter().enumerate() {
        refuse_inputs(first.kind.option(), &first.path, identity, inputs)?;
        if let Some((second, _)) = files[i + 1..].iter().find(|(_, other)| other == identity) {
            bail!(
                "{} {} and {} {} name the same file; give each export its own path",
                first.kind.option(),
                first.path.display(),
                second.kind.option(),
                second.path.display()
            );
        }
    }
    targets.iter().try_for_each(|target| check_path(&target.path, target.force))
}

/// [`check_path`] for an output that is not one of the command's `inputs`
/// (`export-dataset --out`).
pub fn check_output(path: &Path, force: bool, inputs: &[PathBuf]) -> Result<()> {
    if path != Path::new("-") {
        refuse_inputs("--out", path, &Identity::of(path), inputs)?;
    }
    check_path(path, force)
}

/// Fails when the output at `path` (its `identity`) is one of `inputs`,
/// however either is named (as exports are compared with each other):
/// `--force` replaces earlier results, never what the command reads.
fn refuse_inputs(option: &str, path: &Path, identity: &Identity, inputs: &[PathBuf]) -> Result<()> {
    let is_input =
        |input: &&PathBuf| input.as_path() != Path::new("-") && Identity::of(input) == *identity;
    match inputs.iter().find(is_input) {
        Some(input) => bail!(
            "{option} {} is the input {}: give the output a path of its own (--force replaces earlier results, never an input)",
            path.display(),
            input.display()
        ),
        None => Ok(()),
    }
}

/// Fails unless a file can be written at `path` (`-`: standard output, always
/// fine), one line naming the problem: a directory, an existing file without
/// `force`, a missing directory, or one where no file can be created or
/// filled (permissions, a read-only or full file system), found by writing
/// and removing a probe file there.
pub fn check_path(path: &Path, force: bool) -> Result<()> {
    if path == Path::new("-") {
        return Ok(());
    }
    let shown = path.display();
    let target = atomic::resolve(path)?;
    // Before the existence check: --force cannot make a directory writable as a file.
    if target.is_dir() {
        bail!("{shown}: is a directory; give a file path");
    }
    let exists = std::fs::metadata(&target);
    if !force && exists.is_ok() {
        bail!("{shown}: already exists; pass --force to overwrite it");
    }
    if exists.is_ok_and(|m| !m.is_file()) {
        // A device or FIFO, written in place: opening a FIFO would wait for its reader.
        return Ok(());
    }
    let parent = atomic::parent(&target);
    if parent.exists() && !parent.is_dir() {
        bail!("{shown}: {} is not a directory", parent.display());
    }
    if !parent.exists() {
        bail!("{shown}: directory {} does not exist", parent.display());
    }
    atomic::probe(&target, path)
}

/// The file a path names, so that `out`, `./out`, `dir/../out`, a symlink
/// to `out` (dangling or not) and a hard link to it compare equal: the device
/// and inode of the file if it exists, else those of its directory and its
/// name, else the path without `.` parts.
#[derive(Debug, PartialEq, Eq)]
enum Identity {
    File { device: u64, inode: u64 },
    New { device: u64, inode: u64, name: OsString },
    Path(PathBuf),
}

impl Identity {
    fn of(path: &Path) -> Identity {
        let target = atomic::resolve(path).unwrap_or_else(|_| path.to_owned());
        if let Ok(file) = std::fs::metadata(&target) {
            return Identity::File { device: file.dev(), inode: file.ino() };
        }
        match (std::fs::metadata(atomic::parent(&target)), target.file_name()) {
            (Ok(dir), Some(name)) => {
                Identity::New { device: dir.dev(), inode: dir.ino(), name: name.to_owned() }
            }
            _ => Identity::Path(target.components().filter(|c| *c != Component::CurDir).collect()),
        }
    }
}

impl Target {
    /// The exports asked for, each kind with its path if given, checked with
    /// [`check_targets`] before any work.
    pub fn checked(
        asked: impl IntoIterator<Item = (Kind, Option<PathBuf>)>,
        force: bool,
        inputs: &[PathBuf],
    ) -> Result<Vec<Target>> {
        let targets: Vec<Target> = asked
            .into_iter()
            .filter_map(|(kind, path)| path.map(|path| Target { kind, path, force }))
            .collect();
        check_targets(&targets, inputs)?;
        Ok(targets)
    }

    pub fn is_stdout(&self) -> bool {
        self.path == Path::new("-")
    }

    /// Writes one document of its own (a matrix, a study's result) as this
    /// export: JSON as it is, or the report page with it as its one section.
    pub fn write_document(&self, document: &impl Serialize) -> Result<()> {
        write_with(&self.path, self.force, |out| {
            match self.kind {
                Kind::Html => html::write_alone(document, out),
                _ => serde_json::to_writer_pretty(&mut *out, document)
                    .map_err(anyhow::Error::from)
                    .and_then(|()| Ok(writeln!(out)?)),
            }
            .with_context(|| format!("{}: cannot write", self.path.display()))
        })
    }

    /// Opens this export and has `write` fill it, without making it visible
    /// ([`Output::finish`] does): an export of something other than one set of results.
    pub fn stage_with(&self, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<Output> {
        let mut output = Output::open(&self.path, self.force)?;
        write(&mut output).with_context(|| match self.is_stdout() {
            true => "writing to standard output".to_owned(),
            false => format!("{}: cannot write", self.path.display()),
        })?;
        Ok(output)
    }

    /// Opens this export and writes it whole, without making it visible:
    /// [`Output::finish`] does, once every export of a run is written.
    pub fn stage(&self, merged: &Merged) -> Result<Output> {
        let mut output = Output::open(&self.path, self.force)?;
        match self.kind {
            Kind::Json => json::write(merged, &mut output),
            Kind::Csv => csv::write(merged, &mut output),
            Kind::Markdown => markdown::write(merged, &mut output),
            Kind::Html => html::write(merged, &mut output),
            Kind::Bmf => bmf::write(merged, &mut output),
            Kind::Gab => gab::write(merged, &mut output),
        }
        .with_context(|| match self.is_stdout() {
            true => "writing results to standard output".to_owned(),
            false => format!("{}: cannot write", self.path.display()),
        })?;
        Ok(output)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::io::Write;

    use super::*;
    use crate::document::{
        Calibration, Direction, DirectionRun, FormatResult, Invocation, NotRun, RawRun, Relative,
        Results, RunInfo, RunStats, Runner, SCHEMA, Settings, WorkloadInfo, encode_histogram,
        new_histogram,
    };
    use crate::environment::{Caches, Environment};
    use crate::format::Labels;

    /// One run of 1000 operations at `ns_per_op`, as a runner writes it.
    pub(crate) fn run(ns_per_op: f64) -> DirectionRun {
        let mut latency = new_histogram();
        let p50 = ns_per_op as u64;
        for (value, count) in
            [(p50, 600), (p50 + 10, 300), (p50 + 40, 90), (p50 + 90, 9), (20_000, 1)]
        {
            latency.record_n(value, count).unwrap();
        }
        let raw = RawRun {
            total_ns: (ns_per_op * 1000.0) as u64,
            ops: 1000,
            round_ns: vec![(ns_per_op * 1000.0) as u64],
            histogram: encode_histogram(&latency),
            allocations_per_op: Some(0.0),
            allocated_bytes_per_op: Some(0.0),
            gc_count: None,
            gc_pause_ms: None,
        };
        DirectionRun { stats: RunStats::of(raw, &latency), order_position: 0.5, process: 0 }
    }

    /// Fixed figures, so the exports' shape can be snapshotted.
    fn fixture() -> Results {
        fixture_timed(1.0)
    }

    /// The fixture with every ns/op figure `scale` times as large.
    pub(crate) fn fixture_timed(scale: f64) -> Results {
        // A made-up format, so the snapshots change only when the exports do.
        let labels = Labels::ZERO_COPY_NATIVE;
        let direction = |extra_ns: f64| {
            Direction::of([30.0, 40.0, 35.0].map(|ns| run(scale * (ns + extra_ns))).to_vec())
        };
        let mut formats = vec![FormatResult {
            name: "example".into(),
            family: "Example".into(),
            library: "example-lib".into(),
            library_version: "0.1.0".into(),
            baseline: false,
            labels: serde_json::to_value(labels).unwrap(),
            tags: labels.tags().into_iter().map(str::to_owned).collect(),
            notes: "A fixture.".into(),
            encoded_bytes: 55_600,
            bytes_per_record: 55.6,
            zstd_bytes: Some(20_000),
            zstd_level: Some(3),
            zstd_ratio: Some(2.78),
            features: serde_json::Value::Null,
            encode: direction(0.0),
            decode: direction(20.0),
        }];
        Relative::within_runner(&mut formats);
        Results {
            schema: SCHEMA.into(),
            runner: Runner { language: "rust".into(), name: "shootout".into() },
            invocation: Invocation {
                command_line: vec!["shootout".into(), "run".into()],
                options: serde_json::json!({ "runs": 3 }),
                load_before: Some([0.5, 0.25, 0.125]),
                load_after: None,
                other_cpu_cores: Some(0.05),
                steal_pct: Some(0.5),
            },
            environment: serde_json::to_value(Environment {
                cpu: "Test CPU".into(),
                cpu_flags: Some(vec!["tsc".into(), "constant_tsc".into()]),
                cache: Caches {
                    l1d_bytes: Some(49_152),
                    l1i_bytes: Some(32_768),
                    l2_bytes: Some(1_310_720),
                    l3_bytes: None,
                },
                hypervisor: Some("KVMKVMKVM".into()),
                cpufreq_governor: None,
                constant_tsc: Some(true),
                nonstop_tsc: Some(false),
                memory_bytes: Some(8_589_934_592),
                cores: 2,
                os: "Test OS".into(),
                toolchain: "rustc 1.95.0",
                rustc: "rustc 1.95.0",
                build_profile: "release",
                cargo_profile: "release",
                lto: "false",
                codegen_units: "16",
                opt_level: "3",
                rustflags: &["-Ctarget-cpu=native"],
                target: "x86_64-unknown-linux-gnu",
                target_features: &["fxsr", "sse", "sse2"],
                allocator: "system (counting wrapper)",
                shootout_version: "0.1.0",
                git_commit: "0123456789abcdef",
                git_dirty: Some(false),
                date: "2026-11-22T00:00:00Z".into(),
            })
            .unwrap(),
            testbed: None,
            timer: Calibration {
                clock: "TSC (quanta), fenced reads".into(),
                counter_hz: 2.5e9,
                empty_region_ns: 10,
                resolution_ns: 9,
                flag_below_ns: 45,
            },
            settings: Settings {
                warmup_runs: 1,
                runs: 3,
                throughput_rounds: 1,
                min_processes: 1,
                max_processes: 1,
                precision: 0.02,
                time_budget_ms: 0,
                window: 4096,
                order_seed: 1,
                sample_windows: 0,
            },
            workload: WorkloadInfo {
                name: "iex".into(),
                source: "fixture".into(),
                input: None,
                dataset: None,
                records: 1000,
                csv: None,
                sampled: None,
            },
            runs: (0..4)
                .map(|index| RunInfo {
                    process: 0,
                    index,
                    warmup: index == 0,
                    started: "2026-11-22T00:00:00Z".into(),
                    wall_ms: 12.5,
                })
                .collect(),
            formats,
            failed: Vec::new(),
            not_run: vec![NotRun {
                name: "other".into(),
                family: "Other".into(),
                reason: "cannot express this workload".into(),
            }],
            warnings: vec!["--warmup 0: an example warning".into()],
        }
    }

    /// The fixture as another language's runner would have written it: its
    /// own clock and environment, no zstd, slower.
    fn other_language() -> Results {
        let mut go = fixture_timed(2.0);
        go.runner = Runner { language: "go".into(), name: "shootout-go".into() };
        go.environment["toolchain"] = "go1.26.8".into();
        go.timer.clock = "time.Now".into();
        go.timer.resolution_ns = 30;
        for format in &mut go.formats {
            format.zstd_bytes = None;
            format.zstd_ratio = None;
        }
        go.warnings = vec!["a warning of the Go runner".into()];
        go
    }

    fn render_parts(
        parts: Vec<Results>,
        write: fn(&Merged, &mut dyn Write) -> Result<()>,
    ) -> String {
        let mut out = Vec::new();
        write(&Merged::new(parts).unwrap(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn render(write: fn(&Merged, &mut dyn Write) -> Result<()>) -> String {
        render_parts(vec![fixture()], write)
    }

    #[test]
    fn results_read_back_as_written() {
        let written = serde_json::to_string(&fixture()).unwrap();
        let read: Results = serde_json::from_str(&written).unwrap();
        assert_eq!(serde_json::to_string(&read).unwrap(), written);
    }

    #[test]
    fn markdown_export_of_two_languages() {
        insta::assert_snapshot!(render_parts(vec![fixture(), other_language()], markdown::write));
    }

    #[test]
    fn csv_export_of_two_languages() {
        insta::assert_snapshot!(render_parts(vec![fixture(), other_language()], csv::write));
    }

    /// The figures the HTML page embeds; its script and the chart library are
    /// checked in a real browser by tests/it/html_report.rs.
    #[test]
    fn html_export_data_of_two_languages() {
        let page = render_parts(vec![fixture(), other_language()], html::write);
        let start = page.find(r#"<script id="report-data" type="application/json">"#).unwrap();
        let data = &page[start..];
        let data = &data[data.find('>').unwrap() + 1..data.find("</script>").unwrap()];
        let data: serde_json::Value = serde_json::from_str(data).unwrap();
        insta::assert_snapshot!(serde_json::to_string_pretty(&data).unwrap());
    }

    #[test]
    fn terminal_tables_fit_the_width_by_leaving_out_detail_first() {
        use crate::output::table::{self, Columns, Style};
        let merged = Merged::new(vec![fixture(), other_language()]).unwrap();
        let widest = |columns: &Columns| {
            let (sections, hidden) = table::sections(&merged, Style::Terminal, columns);
            let width = sections
                .iter()
                .flat_map(|(_, t)| {
                    t.to_string().lines().map(|l| l.chars().count()).collect::<Vec<_>>()
                })
                .max()
                .unwrap();
            (width, hidden)
        };
        let (full, none_hidden) = widest(&Columns::All);
        assert!(none_hidden.is_empty() && full > 100, "{full}");
        for width in [100, 80] {
            let (fitted, hidden) = widest(&Columns::Fit(width));
            assert!(fitted <= width, "{fitted} > {width}, hidden {hidden:?}");
            assert_eq!(hidden[..2], ["alloc-bytes", "outliers"], "detail gives way first");
        }
        let (_, hidden) = widest(&Columns::Fit(full));
        assert!(hidden.is_empty(), "a wide enough terminal shows every column");
        let chosen = Columns::parse(&["ns".into(), "p99".into()]).unwrap().unwrap();
        let (sections, _) = table::sections(&merged, Style::Terminal, &chosen);
        let encode = sections[0].1.to_string();
        assert!(encode.contains("p99") && !encode.contains("p50") && !encode.contains("95% CI"));
        let error = Columns::parse(&["nope".into()]).unwrap_err().to_string();
        assert!(
            error.contains("no column named 'nope'") && error.contains("alloc-bytes"),
            "{error}"
        );
    }

    #[test]
    fn another_languages_rows_get_their_familys_feature_row() {
        let mut go = other_language();
        go.formats[0].family = "MessagePack".into();
        go.formats[0].features = serde_json::Value::Null;
        let merged = Merged::new(vec![fixture(), go]).unwrap();
        assert_eq!(merged.rows[1].format.features["family"], "MessagePack");
        assert!(merged.rows[0].format.features.is_null(), "no row for a made-up family");
    }

    #[test]
    fn two_workloads_are_not_merged() {
        let mut other = other_language();
        other.workload.records = 999;
        let error = Merged::new(vec![fixture(), other]).err().unwrap().to_string();
        assert!(error.contains("not the same data"), "{error}");
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

    fn target(kind: Kind, path: impl Into<PathBuf>) -> Target {
        Target { kind, path: path.into(), force: false }
    }

    /// `targets`, each with `force`.
    fn forced(targets: &[Target], force: bool) -> Vec<Target> {
        targets.iter().map(|t| Target { force, ..t.clone() }).collect()
    }

    /// The error `check_targets` gives, which must be there and fit on one line.
    fn refusal(targets: &[Target], force: bool) -> String {
        let message = check_targets(&forced(targets, force), &[])
            .expect_err("targets should be refused")
            .to_string();
        assert!(!message.contains('\n'), "{message}");
        message
    }

    #[test]
    fn accepts_distinct_new_files_and_one_stdout() {
        let dir = tempfile::tempdir().unwrap();
        let targets = [
            target(Kind::Json, dir.path().join("a.json")),
            target(Kind::Csv, dir.path().join("a.csv")),
            target(Kind::Markdown, "-"),
        ];
        check_targets(&targets, &[]).unwrap();
    }

    #[test]
    fn refuses_a_directory_even_with_force() {
        let dir = tempfile::tempdir().unwrap();
        for force in [false, true] {
            let message = refusal(&[target(Kind::Json, dir.path())], force);
            assert_eq!(
                message,
                format!("{}: is a directory; give a file path", dir.path().display())
            );
        }
    }

    #[test]
    fn refuses_an_existing_file_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        std::fs::write(&path, "{}").unwrap();
        let targets = [target(Kind::Json, &path)];
        assert_eq!(
            refusal(&targets, false),
            format!("{}: already exists; pass --force to overwrite it", path.display())
        );
        check_targets(&forced(&targets, true), &[]).unwrap();
    }

    #[test]
    fn refuses_two_exports_to_one_path_even_with_force() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let dotted = dir.path().join(".").join("out");
        let message = refusal(&[target(Kind::Json, &out), target(Kind::Csv, &dotted)], true);
        assert_eq!(
            message,
            format!(
                "--export-json {} and --export-csv {} name the same file; give each export its own path",
                out.display(),
                dotted.display()
            )
        );
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let via_sub = dir.path().join("sub/../out");
        assert!(
            refusal(&[target(Kind::Csv, &out), target(Kind::Markdown, &via_sub)], true)
                .contains("name the same file")
        );
    }

    #[test]
    fn refuses_relative_spellings_of_one_path() {
        let message = refusal(
            &[target(Kind::Json, "no-such-out"), target(Kind::Csv, "./no-such-out")],
            false,
        );
        assert!(
            message.starts_with(
                "--export-json no-such-out and --export-csv ./no-such-out name the same file"
            ),
            "{message}"
        );
    }

    #[test]
    fn refuses_two_paths_to_one_existing_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("results.json");
        let link = dir.path().join("link.json");
        std::fs::write(&file, "{}").unwrap();
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert!(
            refusal(&[target(Kind::Json, &file), target(Kind::Csv, &link)], true)
                .contains("name the same file")
        );
    }

    #[test]
    fn refuses_two_hard_links_to_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let (file, link) = (dir.path().join("a.json"), dir.path().join("b.csv"));
        std::fs::write(&file, "{}").unwrap();
        std::fs::hard_link(&file, &link).unwrap();
        assert!(
            refusal(&[target(Kind::Json, &file), target(Kind::Csv, &link)], true)
                .contains("name the same file")
        );
    }

    #[test]
    fn refuses_dangling_links_to_one_new_file() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (dir.path().join("first"), dir.path().join("second"));
        std::os::unix::fs::symlink("new.json", &first).unwrap();
        std::os::unix::fs::symlink(dir.path().join("new.json"), &second).unwrap();
        for other in [&second, &dir.path().join("new.json")] {
            assert!(
                refusal(&[target(Kind::Json, &first), target(Kind::Csv, other)], false)
                    .contains("name the same file")
            );
        }
    }

    #[test]
    fn refuses_an_export_that_is_an_input_even_with_force() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.jsonl");
        std::fs::write(&input, "{}\n").unwrap();
        let link = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        for export in [&input, &link, &dir.path().join(".").join("in.jsonl")] {
            let targets = forced(&[target(Kind::Json, export)], true);
            let message =
                check_targets(&targets, std::slice::from_ref(&input)).unwrap_err().to_string();
            assert_eq!(
                message,
                format!(
                    "--export-json {} is the input {}: give the output a path of its own (--force replaces earlier results, never an input)",
                    export.display(),
                    input.display()
                )
            );
            assert!(check_output(export, true, std::slice::from_ref(&input)).is_err());
        }
        let other = forced(&[target(Kind::Json, dir.path().join("out.json"))], true);
        check_targets(&other, &[input.clone(), "-".into()]).unwrap();
    }

    #[test]
    fn leaves_no_probe_behind() {
        let dir = tempfile::tempdir().unwrap();
        check_targets(&[target(Kind::Json, dir.path().join("a.json"))], &[]).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_device_is_an_existing_file_that_force_writes_in_place() {
        let null = target(Kind::Json, "/dev/null");
        assert_eq!(
            refusal(std::slice::from_ref(&null), false),
            "/dev/null: already exists; pass --force to overwrite it"
        );
        check_targets(&forced(&[null], true), &[]).unwrap();
    }

    #[test]
    fn refuses_more_than_one_export_to_stdout() {
        let message = refusal(&[target(Kind::Json, "-"), target(Kind::Csv, "-")], false);
        assert_eq!(
            message,
            "--export-json and --export-csv both write to standard output (-); only one export can"
        );
    }

    #[test]
    fn refuses_a_missing_parent_directory() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing");
        let path = missing.join("out.json");
        let message = refusal(&[target(Kind::Json, &path)], true);
        assert_eq!(
            message,
            format!("{}: directory {} does not exist", path.display(), missing.display())
        );

        let file = dir.path().join("file");
        std::fs::write(&file, "").unwrap();
        let path = file.join("out.json");
        assert_eq!(
            refusal(&[target(Kind::Json, &path)], true),
            format!("{}: {} is not a directory", path.display(), file.display())
        );
    }
}
