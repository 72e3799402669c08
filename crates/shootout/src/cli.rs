//! Command-line interface.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use crate::benchmark::timer::Timer;
use crate::benchmark::{self, Settings};
use crate::capture::{Source, generate};
use crate::environment::Environment;
use crate::export::{Kind, Target};
use crate::format::registry;
use crate::output::table::{self, Style};
use crate::results::{FormatResult, Results, Runner, SCHEMA, WorkloadInfo};
use crate::workload::Workload;
use crate::workload::iex::{Iex, ingest};

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
        /// A pcap or pcapng capture, optionally gzipped (detected by content, not by name).
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
    /// Seed of the generated capture; the same seed gives the same bytes.
    #[arg(long, default_value_t = generate::Options::default().seed)]
    seed: u64,
}

impl Generated {
    fn options(self) -> generate::Options {
        generate::Options { packets: self.packets, seed: self.seed }
    }
}

#[derive(Args)]
struct RunArgs {
    /// IEX capture to read (pcap or pcapng, optionally gzipped). Without it, a generated DEEP 1.0 capture is used.
    #[arg(long, short)]
    input: Option<PathBuf>,
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
        Command::GenCapture { out, generated, force } => gen_capture(out, generated.options(), force),
    }
}

fn print_warnings(warnings: &[String]) {
    for warning in warnings {
        eprintln!("warning: {warning}");
    }
}

fn inspect(file: PathBuf, json: bool) -> Result<()> {
    let ingested = ingest::load(&Source::File(file))?;
    let report = &ingested.report;
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
        writeln!(out, "\ngroups for `run --formats`:")?;
        for (group, meaning) in registry::GROUPS {
            writeln!(out, "  {group:<12} {meaning}")?;
        }
    }
    Ok(())
}

fn gen_capture(out: PathBuf, options: generate::Options, force: bool) -> Result<()> {
    let bytes = generate::generate(options);
    let mut file = std::fs::OpenOptions::new();
    file.write(true);
    if force { file.create(true).truncate(true) } else { file.create_new(true) };
    let mut file = file.open(&out).map_err(|e| match e.kind() {
        io::ErrorKind::AlreadyExists => anyhow::anyhow!("{}: already exists; pass --force to overwrite it", out.display()),
        _ => anyhow::anyhow!("{}: cannot create: {e}", out.display()),
    })?;
    file.write_all(&bytes).with_context(|| format!("{}: cannot write", out.display()))?;
    eprintln!("wrote {} ({} bytes, {} IEX-TP packets, seed {})", out.display(), bytes.len(), options.packets, options.seed);
    Ok(())
}

fn run(args: RunArgs) -> Result<()> {
    let formats = registry::select(registry::iex(), &args.formats)?;
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

    let source = match &args.input {
        Some(path) => Source::File(path.clone()),
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
    let dataset = ingested.dataset;

    let environment = Environment::capture();
    let timer = Timer::new();
    let settings = Settings { warmup_runs: args.warmup as usize, runs: args.runs as usize };
    let steps = (settings.warmup_runs + settings.runs) * formats.len();
    let progress = ProgressBar::new(steps as u64).with_style(
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
        workload: WorkloadInfo { name: Iex::NAME, source: dataset.source.clone(), records },
        formats: runs.iter().map(|r| FormatResult::new(r, records)).collect(),
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
    writeln!(out, "\nEncode (ns per record)\n{}", table::direction(results, style, |f| &f.encode.summary))?;
    writeln!(out, "\nDecode + aggregate (ns per record)\n{}", table::direction(results, style, |f| &f.decode.summary))?;
    writeln!(out, "\nSize (every format validated against the reference aggregate)\n{}", table::sizes(results, style))?;
    Ok(())
}
