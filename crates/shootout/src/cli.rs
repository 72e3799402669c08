//! Command-line interface.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use crate::benchmark::baseline::Baseline;
use crate::benchmark::input::{InMemory, Input};
use crate::benchmark::timer::Timer;
use crate::benchmark::{self, Progress, Registered, Settings};
use crate::capture::{Source, generate};
use crate::environment::Environment;
use crate::export::{Kind, Target};
use crate::format::registry;
use crate::output::table::{self, Style};
use crate::results::{Invocation, Merged, Noisy, Results, RunContext};
use crate::runners::{External, Language};
use crate::workload::fields::Fields;
use crate::workload::iex::ingest;
use crate::workload::tabular::csv;
use crate::workload::tabular::{self, LongsRow, MixedRow, Row, StringsRow};
use crate::workload::{Workload, object, primitives, sql, user};

#[derive(Parser)]
#[command(
    name = "shootout",
    version,
    about = "Benchmark serialization formats on real data: encode every record, decode it back, \
             check that every format produced the same answer, and report per-record latency \
             distributions, sizes and allocations.",
    after_help = "Examples:\n  \
        shootout run                                   # embedded default: a generated DEEP 1.0 capture\n  \
        shootout run --input DEEP.pcap.gz --runs 10    # an IEX HIST capture (DEEP or TOPS, pcap or pcapng, gzip or not)\n  \
        shootout inspect DEEP.pcap.gz --json           # what a capture holds, and its reference aggregate\n  \
        shootout gen-capture --out sample.pcap         # write the embedded default capture to a file"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Benchmark every format (or those chosen) on a capture: encode, decode, validate, report.
    Run(RunArgs),
    /// Summarize a capture: packets, protocols, time range, message counts and the per-symbol reference aggregate.
    Inspect {
        /// A pcap or pcapng capture, optionally gzipped (detected by content, not by name); `-` reads standard input.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the formats: library versions, labels, and the feature matrix (schema, zero-copy, unions, evolution, ...).
    Formats {
        /// Print JSON instead of a table.
        #[arg(long, conflicts_with = "markdown")]
        json: bool,
        /// Print Markdown.
        #[arg(long)]
        markdown: bool,
        /// Languages to list, comma-separated: rust, go, all (another language's runner is built to ask it).
        #[arg(long, value_enum, value_delimiter = ',', default_value = "rust")]
        lang: Vec<Language>,
    },
    /// Write a generated tabular data set (mixed, strings or longs) as CSV: header f1..f20, empty cell = absent.
    GenCsv {
        #[arg(long, short, value_enum)]
        workload: TabularName,
        /// Output file.
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = tabular::DEFAULT_RECORDS as u64)]
        records: u64,
        /// Seed; the same seed gives the same file.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Probability that a field is present.
        #[arg(long, default_value_t = tabular::DEFAULT_PRESENCE, value_parser = presence)]
        presence: f64,
        /// Overwrite OUT if it exists.
        #[arg(long)]
        force: bool,
    },
    /// List the workloads: record shapes, sizes and where their data comes from.
    Workloads,
    /// Write a workload's records and reference aggregate as one language-neutral file (docs/dataset-format.md),
    /// for the runners in other languages.
    ExportDataset {
        #[command(flatten)]
        data: DataArgs,
        /// Output file (JSON Lines; `-` for standard output).
        #[arg(long)]
        out: PathBuf,
        /// Overwrite OUT if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Write the deterministic DEEP 1.0 capture that `run` uses when given no --input.
    GenCapture {
        /// Output file (classic pcap).
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        generated: Generated,
        /// Overwrite OUT if it exists.
        #[arg(long)]
        force: bool,
    },
}

#[derive(Args, Clone, Copy, serde::Serialize)]
struct Generated {
    /// IEX-TP packets in the generated capture.
    #[arg(long, default_value_t = generate::Options::default().packets, value_parser = clap::value_parser!(u64).range(2..))]
    packets: u64,
    /// Seed of generated data; the same seed gives the same bytes.
    #[arg(long, default_value_t = generate::Options::default().seed)]
    seed: u64,
}

/// The data sets `--workload` chooses between; `shootout workloads` describes them.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum WorkloadName {
    /// IEX market data: one record per packet with trades or price updates (capture input).
    Iex,
    /// A small API response of strings and longs; random picks from 1,000 records.
    User,
    /// A thin-client SQL request: query string plus arguments.
    Sql,
    /// Runs of ints, longs, doubles, booleans and short strings.
    Primitives,
    /// A small record of ten mixed fields.
    Object,
    /// 20 optional fields of mixed types (CSV input).
    Mixed,
    /// 20 optional string fields (CSV input).
    Strings,
    /// 20 optional 64-bit integer fields (CSV input).
    Longs,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum TabularName {
    Mixed,
    Strings,
    Longs,
}

impl Generated {
    fn options(self) -> generate::Options {
        generate::Options {
            packets: self.packets,
            seed: self.seed,
        }
    }
}

/// Which records: a workload, and its input file or how to generate it.
#[derive(Args, serde::Serialize)]
struct DataArgs {
    /// The data set (see `shootout workloads`).
    #[arg(long, short, value_enum, default_value = "iex")]
    workload: WorkloadName,
    /// Input file (`-` = standard input; pipes and FIFOs work): an IEX capture for `iex` (pcap or pcapng,
    /// optionally gzipped), a CSV with header f1..f20 for `mixed`, `strings` and `longs`. Without it, data is generated.
    #[arg(long, short)]
    input: Option<PathBuf>,
    /// Operations (records encoded per run) for generated non-iex workloads.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    records: u64,
    /// Probability that a generated tabular field is present.
    #[arg(long, default_value_t = tabular::DEFAULT_PRESENCE, value_parser = presence)]
    presence: f64,
    #[command(flatten)]
    #[serde(flatten)]
    generated: Generated,
}

#[derive(Args, serde::Serialize)]
struct RunArgs {
    #[command(flatten)]
    #[serde(flatten)]
    data: DataArgs,
    /// Formats to run, comma-separated names or groups: classic, zero-copy, schemaless, schema, json (default: all). `shootout formats` lists them.
    #[arg(long, short, value_delimiter = ',')]
    formats: Vec<String>,
    /// Measured runs per format; statistics are the median across runs.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
    runs: u64,
    /// Unmeasured (but validated) warm-up runs: whole passes over the input. With 0, each format still
    /// encodes and decodes the first window once, unmeasured, to size its buffers (and a warning says so).
    #[arg(long, default_value_t = 1)]
    warmup: u64,
    /// Records per window. Each format encodes a window into one reused stream and decodes it back before the
    /// next window is read, so memory is bounded by the window, not by the input.
    #[arg(long, default_value_t = benchmark::DEFAULT_WINDOW as u64, value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    window: u64,
    /// Seed of the formats' shuffled order (a new order in every window of every run); recorded in the results.
    #[arg(long, default_value_t = 1)]
    order_seed: u64,
    /// Stop after this many records: a quick look at a large input.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_records: Option<u64>,
    /// Write all results as JSON (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    export_json: Option<PathBuf>,
    /// Write a summary row per format and direction as CSV (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    export_csv: Option<PathBuf>,
    /// Write the result tables as Markdown (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    export_markdown: Option<PathBuf>,
    /// Overwrite existing export files.
    #[arg(long)]
    force: bool,
    /// Languages to measure, comma-separated: rust, go, all. Another language's runner (runners/<lang>/) is
    /// built with its own toolchain and run after the Rust formats on the same records, handed over as a
    /// dataset file; the tables then show every language, with a lang column.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "rust")]
    lang: Vec<Language>,
}

pub fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Run(args) => run(args),
        Command::Inspect { file, json } => inspect(file, json),
        Command::Formats {
            json,
            markdown,
            lang,
        } => list_formats(json, markdown, &lang),
        Command::GenCapture {
            out,
            generated,
            force,
        } => {
            let options = generated.options();
            let bytes = generate::generate(options);
            write_new(&out, &bytes, force)?;
            eprintln!(
                "wrote {} ({} bytes, {} IEX-TP packets, seed {})",
                out.display(),
                bytes.len(),
                options.packets,
                options.seed
            );
            Ok(())
        }
        Command::GenCsv {
            workload,
            out,
            records,
            seed,
            presence,
            force,
        } => {
            let records = records as usize;
            let text = match workload {
                TabularName::Mixed => {
                    csv::render(&tabular::generate_rows::<MixedRow>(records, seed, presence))
                }
                TabularName::Strings => csv::render(&tabular::generate_rows::<StringsRow>(
                    records, seed, presence,
                )),
                TabularName::Longs => {
                    csv::render(&tabular::generate_rows::<LongsRow>(records, seed, presence))
                }
            };
            write_new(&out, text.as_bytes(), force)?;
            eprintln!(
                "wrote {} ({} bytes, {records} records, seed {seed}, presence {presence})",
                out.display(),
                text.len()
            );
            Ok(())
        }
        Command::Workloads => list_workloads(),
        Command::ExportDataset { data, out, force } => {
            let target = crate::dataset::Target::new(out, force)?;
            with_data(&data, ExportDataset(target))
        }
    }
}

fn print_warnings(warnings: &[String]) {
    for warning in warnings {
        eprintln!("warning: {warning}");
    }
}

fn inspect(file: PathBuf, json: bool) -> Result<()> {
    let report = &crate::output::inspect::scan(&Source::from_arg(file))?;
    print_warnings(&report.warnings);
    let mut out = io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, report)?;
        writeln!(out)?;
    } else {
        crate::output::inspect::write(report, &mut out)?;
    }
    Ok(())
}

fn list_formats(json: bool, markdown: bool, lang: &[Language]) -> Result<()> {
    let mut entries = Vec::new();
    for language in Language::expand(lang) {
        match language.external() {
            None => entries.extend(crate::output::formats::entries(
                registry::iex().iter().map(|f| f.info),
            )),
            Some(runner) => {
                entries.extend(crate::output::formats::listed(runner.name, runner.list()?))
            }
        }
    }
    let mut out = io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &entries)?;
        writeln!(out)?;
    } else {
        crate::output::formats::write(&entries, markdown, &mut out)?;
        if !markdown {
            writeln!(out, "\ngroups for `run --formats`:")?;
            for (group, meaning) in registry::GROUPS {
                writeln!(out, "  {group:<12} {meaning}")?;
            }
        }
    }
    Ok(())
}

fn presence(text: &str) -> std::result::Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("'{text}' is not a probability between 0 and 1")),
    }
}

/// Writes `bytes` to a new file; an existing file is kept unless `force`.
fn write_new(out: &PathBuf, bytes: &[u8], force: bool) -> Result<()> {
    let mut file = std::fs::OpenOptions::new();
    file.write(true);
    if force {
        file.create(true).truncate(true)
    } else {
        file.create_new(true)
    };
    let mut file = file.open(out).map_err(|e| match e.kind() {
        io::ErrorKind::AlreadyExists => anyhow::anyhow!(
            "{}: already exists; pass --force to overwrite it",
            out.display()
        ),
        _ => anyhow::anyhow!("{}: cannot create: {e}", out.display()),
    })?;
    file.write_all(bytes)
        .with_context(|| format!("{}: cannot write", out.display()))
}

fn list_workloads() -> Result<()> {
    let mut out = io::stdout().lock();
    let rows: [(&str, &str, &str); 8] = [
        (
            "iex",
            "MultiMessage { seq_no, messages: [Message { ts, symbol, Trade | LevelUpdate }] }",
            "IEX capture (--input), else a generated DEEP 1.0 capture (--packets, --seed); one record per packet with trades or price updates",
        ),
        (
            "user",
            "UserResponse: 3 longs, 6 strings (hex id, status, nickname, 3 timestamps)",
            "generated: 1,000 records, --records random picks (default 100,000)",
        ),
        (
            "sql",
            "SqlRequest { query: string, args: [i64] }",
            "the study's request, --records times",
        ),
        (
            "primitives",
            "8 each of i32, i64, f64, bool, short string",
            "generated: 1,000 records, --records random picks",
        ),
        (
            "object",
            "10 mixed fields: i64, 2 strings, i32, f64, f32, bool, u8, i64, [string]",
            "generated: 1,000 records, --records random picks",
        ),
        (
            "mixed",
            "20 optional fields: strings, f64, i64, i32, f32",
            "CSV (--input) or generated (--records rows, --presence)",
        ),
        (
            "strings",
            "20 optional strings (UUID text)",
            "CSV (--input) or generated",
        ),
        ("longs", "20 optional i64", "CSV (--input) or generated"),
    ];
    for (name, shape, source) in rows {
        writeln!(out, "{name:<11} {shape}\n            data: {source}")?;
    }
    Ok(())
}

/// Something to do with a workload's input, whichever workload it is.
trait WorkloadTask {
    fn on<W: Workload>(self, input: &dyn Input<W>, formats: Vec<Registered<W>>) -> Result<()>
    where
        W::Record: Clone + serde::Serialize;
}

/// Builds the input `data` describes and hands it, with its registry, to `task`.
fn with_data(data: &DataArgs, task: impl WorkloadTask) -> Result<()> {
    let records = data.records as usize;
    let seed = data.generated.seed;
    let no_input = |name: &str| match &data.input {
        Some(path) => bail!(
            "--workload {name} generates its data; it takes no --input ({})",
            path.display()
        ),
        None => Ok(()),
    };
    match data.workload {
        WorkloadName::Iex => {
            let source = match &data.input {
                Some(path) => Source::from_arg(path.clone()),
                None => {
                    let options = data.generated.options();
                    Source::Memory {
                        name: format!(
                            "generated DEEP 1.0 capture (seed {}, {} packets)",
                            options.seed, options.packets
                        ),
                        bytes: Arc::from(generate::generate(options)),
                    }
                }
            };
            task.on(&ingest::Capture { source }, registry::iex())
        }
        WorkloadName::User => {
            no_input("user")?;
            task.on(
                &InMemory::generated(user::generate(records, seed)),
                registry::user(),
            )
        }
        WorkloadName::Sql => {
            no_input("sql")?;
            task.on(
                &InMemory::generated(sql::generate(records)),
                registry::sql(),
            )
        }
        WorkloadName::Primitives => {
            no_input("primitives")?;
            task.on(
                &InMemory::generated(primitives::generate(records, seed)),
                registry::primitives(),
            )
        }
        WorkloadName::Object => {
            no_input("object")?;
            task.on(
                &InMemory::generated(object::generate(records, seed)),
                registry::object(),
            )
        }
        WorkloadName::Mixed => csv_input::<MixedRow>(data, task, registry::mixed()),
        WorkloadName::Strings => csv_input::<StringsRow>(data, task, registry::strings()),
        WorkloadName::Longs => csv_input::<LongsRow>(data, task, registry::longs()),
    }
}

/// A tabular workload from `--input` CSV, or from generated rows rendered to
/// CSV and read back, so both take the same path and have a CSV size.
fn csv_input<R: Row + Clone + serde::Serialize>(
    data: &DataArgs,
    task: impl WorkloadTask,
    formats: Vec<Registered<Fields<R>>>,
) -> Result<()> {
    let source = match &data.input {
        Some(path) => Source::from_arg(path.clone()),
        None => {
            let seed = data.generated.seed;
            let rows = tabular::generate_rows::<R>(data.records as usize, seed, data.presence);
            let name = format!(
                "generated: {} rows, presence {}, seed {seed}",
                rows.len(),
                data.presence
            );
            Source::Memory {
                name,
                bytes: Arc::from(csv::render(&rows).into_bytes()),
            }
        }
    };
    task.on(&csv::CsvFile::<R>::new(source), formats)
}

fn run(args: RunArgs) -> Result<()> {
    // Every check on the command line and the export paths happens before the input is read.
    let targets = export_targets(&args)?;
    with_data(
        &args.data,
        Benchmark {
            args: &args,
            targets,
        },
    )
}

struct Benchmark<'a> {
    args: &'a RunArgs,
    targets: Vec<Target>,
}

impl WorkloadTask for Benchmark<'_> {
    fn on<W: Workload>(self, input: &dyn Input<W>, formats: Vec<Registered<W>>) -> Result<()>
    where
        W::Record: Clone + serde::Serialize,
    {
        benchmark(self.args, self.targets, input, formats)
    }
}

struct ExportDataset(crate::dataset::Target);

impl WorkloadTask for ExportDataset {
    fn on<W: Workload>(self, input: &dyn Input<W>, _formats: Vec<Registered<W>>) -> Result<()>
    where
        W::Record: Clone + serde::Serialize,
    {
        crate::dataset::export(input, self.0)
    }
}

/// The export files, checked before any work so a long run never ends by refusing to save.
fn export_targets(args: &RunArgs) -> Result<Vec<Target>> {
    let targets: Vec<Target> = [
        (Kind::Json, &args.export_json),
        (Kind::Csv, &args.export_csv),
        (Kind::Markdown, &args.export_markdown),
    ]
    .into_iter()
    .filter_map(|(kind, path)| path.clone().map(|path| Target { kind, path }))
    .collect();
    crate::export::check_targets(&targets, args.force)?;
    Ok(targets)
}

/// The numbers of some formats were withheld: the run ends with exit status 3.
#[derive(Debug)]
pub struct FormatsFailed(pub usize);

impl std::fmt::Display for FormatsFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} format(s) failed; their numbers are withheld (see FAILED above); the others were measured and exported",
            self.0
        )
    }
}

impl std::error::Error for FormatsFailed {}

fn benchmark<W: Workload>(
    args: &RunArgs,
    targets: Vec<Target>,
    input: &dyn Input<W>,
    registered: Vec<Registered<W>>,
) -> Result<()>
where
    W::Record: Clone + serde::Serialize,
{
    let languages = Language::expand(&args.lang);
    let plan = Plan::new(&languages, &registered, &args.formats)?;
    let limited;
    let input: &dyn Input<W> = match args.max_records {
        Some(max) => {
            limited = benchmark::input::Limited { inner: input, max };
            &limited
        }
        None => input,
    };
    let settings = Settings {
        warmup_runs: args.warmup as usize,
        runs: args.runs as usize,
        window: args.window as usize,
        order_seed: args.order_seed,
    };

    let mut parts = Vec::new();
    let scanned = match plan.rust {
        Some(wanted) => {
            let mut formats = registry::select(registered, &wanted)?;
            formats.insert(0, Registered::of::<Baseline<W>>());
            let (results, measured) = measure_rust(args, input, &formats, settings)?;
            parts.push(results);
            measured.scanned
        }
        None => crate::dataset::scan(input)?,
    };
    if !plan.external.is_empty() {
        let dataset = tempfile::Builder::new()
            .prefix("shootout-dataset-")
            .suffix(".jsonl")
            .tempfile()
            .context("cannot create the temporary dataset file")?;
        let mut out = io::BufWriter::new(dataset.as_file());
        crate::dataset::write_to(input, &scanned, &mut out, "the temporary dataset file")?;
        drop(out);
        for (runner, folder, formats) in &plan.external {
            eprintln!(
                "{}: measuring on the same {} records (runners/{})…",
                runner.name, scanned.operations, runner.folder
            );
            parts.push(runner.measure(folder, dataset.path(), settings, formats)?);
        }
    }
    let merged = Merged::new(parts)?;

    let tables_to_stderr = targets.iter().any(Target::is_stdout);
    if tables_to_stderr {
        print_tables(&merged, &mut io::stderr().lock())?;
    } else {
        print_tables(&merged, &mut io::stdout().lock())?;
    }
    print_warnings(&merged.warnings());
    print_warnings(
        &Noisy::summary(&merged.noisy())
            .into_iter()
            .collect::<Vec<_>>(),
    );
    for target in &targets {
        target.write(&merged)?;
        if !target.is_stdout() {
            eprintln!("wrote {}", target.path.display());
        }
    }
    match merged.failed().count() {
        0 => Ok(()),
        failed => Err(FormatsFailed(failed).into()),
    }
}

/// Which formats each chosen language runs. `--formats` names formats of any
/// language (and Rust's groups); each runner gets the names it has.
struct Plan {
    /// `--formats` for the Rust registry, or `None` when Rust runs no format.
    rust: Option<Vec<String>>,
    /// Each other runner, built, with the names it runs (empty: all).
    external: Vec<(&'static External, PathBuf, Vec<String>)>,
}

impl Plan {
    fn new<W: Workload>(
        languages: &[Language],
        registered: &[Registered<W>],
        wanted: &[String],
    ) -> Result<Plan> {
        let in_rust = |item: &String| {
            registered.iter().any(|f| f.info.name == item.as_str())
                || registry::GROUPS.iter().any(|(group, _)| group == item)
        };
        let only_rust = languages == [Language::Rust];
        let mut known: Vec<(&str, Vec<String>)> = Vec::new();
        let rust = languages.contains(&Language::Rust).then(|| {
            let names: Vec<String> = wanted
                .iter()
                .filter(|w| only_rust || in_rust(w))
                .cloned()
                .collect();
            known.push(("rust", names.clone()));
            names
        });
        let mut external = Vec::new();
        for language in languages {
            let Some(runner) = language.external() else {
                continue;
            };
            let listed = runner.list()?;
            let names: Vec<String> = wanted
                .iter()
                .filter(|w| {
                    listed
                        .iter()
                        .any(|l| l.name == w.as_str() && l.workloads.iter().any(|n| n == W::NAME))
                })
                .cloned()
                .collect();
            known.push((runner.name, names.clone()));
            external.push((runner, runner.build()?, names));
        }
        if let Some(unknown) = wanted
            .iter()
            .find(|w| known.iter().all(|(_, names)| !names.contains(w)))
        {
            bail!(
                "unknown format '{unknown}' for workload {} in {}; `shootout formats --lang ...` lists them",
                W::NAME,
                known.iter().map(|(l, _)| *l).collect::<Vec<_>>().join(", ")
            );
        }
        // A language none of whose formats was named does not run.
        let named = |names: &Vec<String>| wanted.is_empty() || !names.is_empty();
        let skipped: Vec<&str> = known
            .iter()
            .filter(|(_, n)| !named(n))
            .map(|(l, _)| *l)
            .collect();
        if !skipped.is_empty() {
            eprintln!(
                "--formats names no format of {}: not run",
                skipped.join(", ")
            );
        }
        Ok(Plan {
            rust: rust.filter(named),
            external: external
                .into_iter()
                .filter(|(_, _, names)| named(names))
                .collect(),
        })
    }
}

/// Measures the Rust formats, with a progress bar on a terminal.
fn measure_rust<W: Workload>(
    args: &RunArgs,
    input: &dyn Input<W>,
    formats: &[Registered<W>],
    settings: Settings,
) -> Result<(Results, benchmark::Measured<W>)>
where
    W::Record: Clone,
{
    let load_before = crate::environment::load_average();
    let environment = Environment::capture();
    let timer = Timer::new();
    let mut warnings = Vec::new();
    if settings.warmup_runs == 0 {
        warnings.push(
            "--warmup 0: buffers were sized on the first window only (unmeasured); caches, branch predictors and any later \
             buffer growth are in the first measured run"
                .to_owned(),
        );
    }
    let progress = ProgressBar::hidden();
    if io::stderr().is_terminal() {
        progress.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    }
    let measured = benchmark::measure(input, formats, settings, &timer, |step| match step {
        Progress::Scanning(read, total) => {
            if let Some(total) = total {
                progress.set_length(total);
            }
            progress.set_style(
                ProgressStyle::with_template(
                    "{spinner} reading the input {bytes}/{total_bytes} {msg}",
                )
                .expect("valid template"),
            );
            progress.set_position(read);
        }
        Progress::Window {
            run,
            runs,
            operations,
            total,
            warmup,
            format,
        } => {
            if progress.length() != Some(total * runs as u64) {
                progress.set_style(
                    ProgressStyle::with_template(
                        "{spinner} [{bar:30}] {pos}/{len} records × formats, {msg}",
                    )
                    .expect("valid template")
                    .progress_chars("=> "),
                );
                progress.set_length(total * runs as u64);
                progress.set_position(0);
            }
            let kind = if warmup { "warm-up" } else { "run" };
            progress.set_message(format!("{kind} {}/{runs} {format}", run + 1));
            progress.inc(operations);
        }
    });
    progress.finish_and_clear();
    let measured = measured?;
    let context = RunContext {
        invocation: Invocation {
            command_line: std::env::args().collect(),
            options: serde_json::to_value(args)?,
            load_before,
            load_after: crate::environment::load_average(),
        },
        environment,
        timer: timer.calibration.clone(),
        settings,
        warnings,
    };
    let results = Results::of_rust_run(&measured, formats, input.name(), context);
    Ok((results, measured))
}

fn print_tables(merged: &Merged, out: &mut dyn Write) -> Result<()> {
    if io::stdout().is_terminal() {
        writeln!(out)?;
    }
    for line in table::preamble(merged) {
        writeln!(out, "{line}")?;
    }
    for (title, table) in table::sections(merged, Style::Terminal) {
        writeln!(out, "\n{title}\n{table}")?;
    }
    for line in table::not_run(merged) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
