//! Command-line interface.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use crate::benchmark::timer::Timer;
use crate::benchmark::{self, Registered, Settings};
use crate::capture::{Source, generate};
use crate::environment::Environment;
use crate::export::{Kind, Target};
use crate::format::registry;
use crate::output::table::{self, Style};
use crate::results::{FormatResult, NotRun, Results, Runner, SCHEMA, WorkloadInfo};
use crate::workload::fields::Fields;
use crate::workload::iex::ingest;
use crate::workload::tabular::csv::{self, CsvSize};
use crate::workload::tabular::{self, LongsRow, MixedRow, Row, StringsRow};
use crate::workload::{Dataset, Workload, object, primitives, sql, user};

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

#[derive(Args, Clone, Copy)]
struct Generated {
    /// IEX-TP packets in the generated capture.
    #[arg(long, default_value_t = generate::Options::default().packets, value_parser = clap::value_parser!(u64).range(2..))]
    packets: u64,
    /// Seed of generated data; the same seed gives the same bytes.
    #[arg(long, default_value_t = generate::Options::default().seed)]
    seed: u64,
}

/// The data sets `--workload` chooses between; `shootout workloads` describes them.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
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
        generate::Options { packets: self.packets, seed: self.seed }
    }
}

#[derive(Args)]
struct RunArgs {
    /// The data set (see `shootout workloads`).
    #[arg(long, short, value_enum, default_value = "iex")]
    workload: WorkloadName,
    /// Input file: an IEX capture for `iex` (pcap or pcapng, optionally gzipped), a CSV with header f1..f20 for
    /// `mixed`, `strings` and `longs`. Without it, data is generated.
    #[arg(long, short)]
    input: Option<PathBuf>,
    /// Operations (records encoded per run) for generated non-iex workloads.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    records: u64,
    /// Probability that a generated tabular field is present.
    #[arg(long, default_value_t = tabular::DEFAULT_PRESENCE, value_parser = presence)]
    presence: f64,
    /// Formats to run, comma-separated names or groups: classic, zero-copy, schemaless, schema, json (default: all). `shootout formats` lists them.
    #[arg(long, short, value_delimiter = ',')]
    formats: Vec<String>,
    /// Measured runs per format; statistics are the median across runs.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
    runs: u64,
    /// Unmeasured (but validated) warm-up runs per format.
    #[arg(long, default_value_t = 1)]
    warmup: u64,
    #[command(flatten)]
    generated: Generated,
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
}

pub fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Run(args) => run(args),
        Command::Inspect { file, json } => inspect(file, json),
        Command::Formats { json, markdown } => list_formats(json, markdown),
        Command::GenCapture { out, generated, force } => {
            let options = generated.options();
            let bytes = generate::generate(options);
            write_new(&out, &bytes, force)?;
            eprintln!("wrote {} ({} bytes, {} IEX-TP packets, seed {})", out.display(), bytes.len(), options.packets, options.seed);
            Ok(())
        }
        Command::GenCsv { workload, out, records, seed, presence, force } => {
            let records = records as usize;
            let text = match workload {
                TabularName::Mixed => csv::render(&tabular::generate_rows::<MixedRow>(records, seed, presence)),
                TabularName::Strings => csv::render(&tabular::generate_rows::<StringsRow>(records, seed, presence)),
                TabularName::Longs => csv::render(&tabular::generate_rows::<LongsRow>(records, seed, presence)),
            };
            write_new(&out, text.as_bytes(), force)?;
            eprintln!("wrote {} ({} bytes, {records} records, seed {seed}, presence {presence})", out.display(), text.len());
            Ok(())
        }
        Command::Workloads => list_workloads(),
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

fn list_formats(json: bool, markdown: bool) -> Result<()> {
    let entries = crate::output::formats::entries(registry::iex().iter().map(|f| f.info));
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
    if force { file.create(true).truncate(true) } else { file.create_new(true) };
    let mut file = file.open(out).map_err(|e| match e.kind() {
        io::ErrorKind::AlreadyExists => anyhow::anyhow!("{}: already exists; pass --force to overwrite it", out.display()),
        _ => anyhow::anyhow!("{}: cannot create: {e}", out.display()),
    })?;
    file.write_all(bytes).with_context(|| format!("{}: cannot write", out.display()))
}

fn list_workloads() -> Result<()> {
    let mut out = io::stdout().lock();
    let rows: [(&str, &str, &str); 8] = [
        ("iex", "MultiMessage { seq_no, messages: [Message { ts, symbol, Trade | LevelUpdate }] }", "IEX capture (--input), else a generated DEEP 1.0 capture (--packets, --seed); one record per packet with trades or price updates"),
        ("user", "UserResponse: 3 longs, 6 strings (hex id, status, nickname, 3 timestamps)", "generated: 1,000 records, --records random picks (default 100,000)"),
        ("sql", "SqlRequest { query: string, args: [i64] }", "the study's request, --records times"),
        ("primitives", "8 each of i32, i64, f64, bool, short string", "generated: 1,000 records, --records random picks"),
        ("object", "10 mixed fields: i64, 2 strings, i32, f64, f32, bool, u8, i64, [string]", "generated: 1,000 records, --records random picks"),
        ("mixed", "20 optional fields: strings, f64, i64, i32, f32", "CSV (--input) or generated (--records rows, --presence)"),
        ("strings", "20 optional strings (UUID text)", "CSV (--input) or generated"),
        ("longs", "20 optional i64", "CSV (--input) or generated"),
    ];
    for (name, shape, source) in rows {
        writeln!(out, "{name:<11} {shape}\n            data: {source}")?;
    }
    Ok(())
}

fn run(args: RunArgs) -> Result<()> {
    let records = args.records as usize;
    let seed = args.generated.seed;
    let no_input = |name: &str| match &args.input {
        Some(path) => bail!("--workload {name} generates its data; it takes no --input ({})", path.display()),
        None => Ok(()),
    };
    match args.workload {
        WorkloadName::Iex => {
            let source = match &args.input {
                Some(path) => Source::from_arg(path.clone()),
                None => {
                    let options = args.generated.options();
                    Source::Memory {
                        name: format!("generated DEEP 1.0 capture (seed {}, {} packets)", options.seed, options.packets),
                        bytes: Arc::from(generate::generate(options)),
                    }
                }
            };
            let ingested = ingest::load(&source)?;
            print_warnings(&ingested.report.warnings);
            benchmark(&args, ingested.dataset, registry::iex(), None)
        }
        WorkloadName::User => {
            no_input("user")?;
            benchmark(&args, user::generate(records, seed), registry::user(), None)
        }
        WorkloadName::Sql => {
            no_input("sql")?;
            benchmark(&args, sql::generate(records), registry::sql(), None)
        }
        WorkloadName::Primitives => {
            no_input("primitives")?;
            benchmark(&args, primitives::generate(records, seed), registry::primitives(), None)
        }
        WorkloadName::Object => {
            no_input("object")?;
            benchmark(&args, object::generate(records, seed), registry::object(), None)
        }
        WorkloadName::Mixed => tabular_run::<MixedRow>(&args, registry::mixed()),
        WorkloadName::Strings => tabular_run::<StringsRow>(&args, registry::strings()),
        WorkloadName::Longs => tabular_run::<LongsRow>(&args, registry::longs()),
    }
}

/// A tabular workload from `--input` CSV, or from generated rows rendered to
/// CSV and read back, so both take the same path and have a CSV size.
fn tabular_run<R: Row>(args: &RunArgs, formats: Vec<Registered<Fields<R>>>) -> Result<()> {
    let (rows, size, source) = match &args.input {
        Some(path) => {
            let source = Source::from_arg(path.clone());
            let (rows, input) = csv::load::<R>(&source)?;
            (rows, input.size, source.name())
        }
        None => {
            let seed = args.generated.seed;
            let rows = tabular::generate_rows::<R>(args.records as usize, seed, args.presence);
            let text = csv::render(&rows);
            let name = format!("generated: {} rows, presence {}, seed {seed}", rows.len(), args.presence);
            let (rows, input) = csv::load::<R>(&Source::Memory { name: name.clone(), bytes: Arc::from(text.into_bytes()) })?;
            (rows, input.size, name)
        }
    };
    benchmark(args, tabular::dataset(rows, source), formats, Some(size))
}

fn benchmark<W: Workload>(
    args: &RunArgs,
    dataset: Dataset<W>,
    formats: Vec<Registered<W>>,
    csv: Option<CsvSize>,
) -> Result<()> {
    let formats = registry::select(formats, &args.formats)?;
    let targets: Vec<Target> = [(Kind::Json, &args.export_json), (Kind::Csv, &args.export_csv), (Kind::Markdown, &args.export_markdown)]
        .into_iter()
        .filter_map(|(kind, path)| path.clone().map(|path| Target { kind, path }))
        .collect();
    if targets.iter().filter(|t| t.is_stdout()).count() > 1 {
        bail!("only one export can go to standard output (-)");
    }
    for target in &targets {
        target.check(args.force)?;
    }

    let environment = Environment::capture();
    let timer = Timer::new();
    let settings = Settings { warmup_runs: args.warmup as usize, runs: args.runs as usize };
    let runnable = formats.iter().filter(|f| f.unsupported_reason().is_none()).count();
    let progress = ProgressBar::new(((settings.warmup_runs + settings.runs) * runnable) as u64).with_style(
        ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} passes {msg}").expect("valid template").progress_chars("=> "),
    );
    let runs = benchmark::measure(&dataset, &formats, settings, &timer, |name| {
        progress.set_message(name.to_owned());
        progress.inc(1);
    });
    progress.finish_and_clear();
    let runs = runs?;

    let records = dataset.order.len() as u64;
    let results = Results {
        schema: SCHEMA,
        runner: Runner { language: "rust", name: "shootout" },
        environment,
        timer: timer.calibration.clone(),
        settings,
        workload: WorkloadInfo { name: W::NAME, source: dataset.source.clone(), records, csv },
        formats: runs.iter().map(|r| FormatResult::new(r, records)).collect(),
        not_run: formats
            .iter()
            .filter_map(|f| f.unsupported_reason().map(|reason| NotRun { name: f.info.name, family: f.info.family, reason }))
            .collect(),
    };

    if targets.iter().any(Target::is_stdout) {
        print_tables(&results, &mut io::stderr().lock())?;
    } else {
        print_tables(&results, &mut io::stdout().lock())?;
    }
    for target in &targets {
        target.write(&results)?;
        if !target.is_stdout() {
            eprintln!("wrote {}", target.path.display());
        }
    }
    Ok(())
}

fn print_tables(results: &Results, out: &mut dyn Write) -> Result<()> {
    let style = Style::Terminal;
    if io::stdout().is_terminal() {
        writeln!(out)?;
    }
    for line in table::preamble(results) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "\nEncode (ns per op)\n{}", table::direction(results, style, |f| &f.encode.summary))?;
    writeln!(out, "\nDecode + aggregate (ns per op)\n{}", table::direction(results, style, |f| &f.decode.summary))?;
    writeln!(out, "\nSize (every format validated against the reference aggregate)\n{}", table::sizes(results, style))?;
    if let Some(csv) = table::csv_sizes(results, style) {
        writeln!(out, "\nSize against the source CSV\n{csv}")?;
    }
    for line in table::not_run(results) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
