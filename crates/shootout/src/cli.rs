//! Command-line interface.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::benchmark;
use crate::catalog::registry;
use crate::catalog::{self, Data, WorkloadName};
use crate::compare;
use crate::document::Settings;
use crate::export::{Exports, Kind, Target};
use crate::input::csv;
use crate::input::{Source, generate};
use crate::recommend::By;
use crate::runners::Language;
use crate::workload::jsonl;
use crate::workload::tabular::{self, LongsRow, MixedRow, StringsRow};

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
        shootout gen-capture --out sample.pcap         # write the embedded default capture to a file\n  \
        shootout report rust.json go.json              # saved results (several languages, repeated runs) as one set of tables\n  \
        shootout compare old.json new.json --fail-above 10   # what changed, with significance; exit 4 on a regression\n  \
        shootout recommend --results r.json --need schemaless,streaming   # a shortlist, and why the others are out\n\n\
        Exit status: 0 success; 1 an error (input, usage, files); 2 a command-line error; 3 `run`: some formats \
        failed (the others were measured and exported); 4 `compare --fail-above`: a significant regression."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Benchmark every format (or those chosen) on a capture: encode, decode, validate, report.
    Run(Box<RunArgs>),
    /// Feed each format's decoder hostile bytes derived from real records and classify what it does.
    #[command(
        after_help = "Each format encodes the first --sample records; each case mutates one record's bytes: a bit \
        flipped, a byte overwritten, truncation at a framing boundary or a random point, a length or count field \
        inflated to 2^31 or 2^32-1, zero-filled and random bytes of the same length, the record twice, a slice of it \
        repeated. Length fields are found by their look, whatever the format: every u32 (either byte order) and every \
        varint of up to 5 bytes whose value is between 1 and the bytes left after it; framing boundaries are the ends \
        of those fields and of the regions they delimit, the empty input and one byte short. Every case is decoded in \
        isolation in a worker process and classified: rejected (a clean error), same (the record's values), silent \
        (other values: corruption passed as data), panic, hang (past --time-limit-ms), alloc-bomb (past \
        --alloc-cap-mib), crash (the worker died). --seed seeds the cases (and generated data without --input). \
        Exit status 0 when every format was tried, findings or not."
    )]
    Robustness {
        #[command(flatten)]
        data: DataArgs,
        #[command(flatten)]
        options: crate::robustness::Options,
    },
    /// Show saved results files as one set of tables (and exports), as `run` shows its own.
    #[command(
        after_help = "Files: shootout-results/3 or /2 (one runner; every statistic is recomputed from its runs) or shootout-results-set/1 (several; each \
        runner's results count as a part). Parts of one workload and record count merge into one set of tables; \
        others are refused unless --allow-mismatch, which prints one set of tables per workload (without exports).\n\
        The same language in more than one part (the same command run twice) is labelled language@file-stem, \
        e.g. rust@before and rust@after, with #N added where that still repeats."
    )]
    Report {
        /// Results files written by `run --export-json` (or another language's runner).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Show files of different workloads or record counts, one set of tables per workload, instead of refusing.
        #[arg(long)]
        allow_mismatch: bool,
        /// A matrix, study or replay to add to the --export-html page as a section of its own: the --export-json
        /// of `shootout interop`, `evolution`, `robustness`, `study` or `replay`. Repeatable.
        #[arg(long, value_name = "FILE")]
        attach: Vec<PathBuf>,
        #[command(flatten)]
        export: ExportArgs,
        #[command(flatten)]
        table: TableArgs,
    },
    /// Compare two results files: per format and direction, the change of each figure and whether it is significant.
    #[command(
        after_help = "Figures: ns/op (tested), p50, p99 and p99.9 (the change of the medians across runs, shown, not \
        tested), bytes/record and allocations/op (deterministic: the change as measured).\n\
        The machine's shift: the host lends the machine a speed that drifts by several per cent between \
        invocations, alike for every format. Per language, its shift between the two files is the median over the \
        format directions in both of their ratio NEW/OLD (each free of the drift within its own run); it is \
        printed once and taken out of every change.\n\
        Significance: a two-sided Welch t-test on the logarithms of each format's per-process levels (per-run \
        values from a file measured in one process); the p-values of every ns/op cell are then corrected together \
        (Benjamini–Hochberg at --alpha), and a change is called slower or faster only when it is significant \
        after that and its 95 % interval lies wholly beyond ±--min-change. `~`: not called (not significant, or \
        too small for separate invocations to resolve); `too few runs`: a side with one run, which gives no test. \
        Formats in one file only are listed as added or removed; environment differences (cpu, cores, os, \
        toolchain, shootout version, git commit, build profile and flags, library versions) are warnings.\n\
        Files of different workloads are refused; a different record count is a warning.\n\
        Exit status: 0 when nothing regressed, 1 on errors, 2 on a command-line error, 4 when --fail-above \
        found a regression."
    )]
    Compare {
        /// The earlier results file (either results schema).
        old: PathBuf,
        /// The later results file.
        new: PathBuf,
        /// Exit with status 4 when any format's ns/op or p99 got significantly slower by more than PCT percent.
        #[arg(long, value_name = "PCT", value_parser = percent)]
        fail_above: Option<f64>,
        /// Print Markdown instead of a table.
        #[arg(long, conflicts_with = "json")]
        markdown: bool,
        /// Print JSON (docs/compare-schema.md).
        #[arg(long)]
        json: bool,
        /// False discovery rate: Benjamini–Hochberg over every timing cell of the comparison.
        #[arg(long, default_value_t = 0.05, value_parser = alpha)]
        alpha: f64,
        /// The smallest change called slower or faster, in percent, after the machine's common shift is taken
        /// out: a change whose 95 % interval reaches inside ±this is shown as ~ (what remains of the drift
        /// between invocations, format by format, is about a per cent).
        #[arg(long, default_value = "1%", value_parser = percent, value_name = "PCT")]
        min_change: f64,
        /// Compare files of two testbeds (machines): refused without this, since ns/op is a machine's own; with
        /// it, relative costs only, side by side with their intervals and ranks (docs/many-machines.md).
        #[arg(long)]
        across_testbeds: bool,
    },
    /// Shortlist formats: those meeting every need and limit, best first, and why each other one is out.
    #[command(after_help = crate::recommend::needs_help())]
    Recommend {
        /// A results file: measured formats to choose from and figures to order them by.
        #[arg(long, value_name = "FILE")]
        results: Option<PathBuf>,
        /// Feature needs, comma-separated (see below).
        #[arg(long, value_delimiter = ',')]
        need: Vec<String>,
        /// Exclude formats whose p99 latency (the larger of encode and decode) is above N ns.
        #[arg(long, value_name = "N", value_parser = limit)]
        max_p99_ns: Option<f64>,
        /// Exclude formats encoding more than N bytes per record.
        #[arg(long, value_name = "N", value_parser = limit)]
        max_bytes_per_record: Option<f64>,
        /// Only formats measured in these languages, comma-separated: rust, go, java (or jvm).
        #[arg(long, value_delimiter = ',')]
        lang: Vec<String>,
        /// The figure that orders the shortlist.
        #[arg(long, value_enum)]
        by: Option<By>,
    },
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
        /// Languages to list, comma-separated: rust, go, jvm, all (another language's runner is built to ask it).
        #[arg(long, value_enum, value_delimiter = ',', default_value = "rust")]
        lang: Vec<Language>,
    },
    /// Write a generated tabular data set as CSV, empty cell = absent: mixed, strings or longs (header
    /// f1..f20), or csv (orders with named columns of every type, the `csv` workload's default).
    GenCsv {
        #[arg(long, short, value_enum)]
        workload: TabularName,
        /// Output file (`-` for standard output).
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = tabular::DEFAULT_RECORDS as u64, value_parser = clap::value_parser!(u64).range(0..=MAX_RECORDS))]
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
    /// Write generated JSON Lines (the `jsonl` workload's API events: nested objects and arrays, strings,
    /// integers, floats, booleans, nulls), one event per line, in bounded memory whatever the count.
    GenJsonl {
        /// Output file (`-` for standard output).
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 100_000)]
        records: u64,
        /// Seed; the same seed gives the same file.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Overwrite OUT if it exists.
        #[arg(long)]
        force: bool,
    },
    /// List the workloads: record shapes, sizes and where their data comes from.
    Workloads,
    /// Cross-language bytes: every language encodes the records in every format it has, and every language
    /// with the same wire format decodes each stream and validates it against the reference aggregate.
    #[command(
        after_help = "Cells: ok (every field equal to the reference), mismatch (decoded, wrong values: the first \
        differing record and field), error (the decoder's message, record and byte offset), n/a (why: no codec in \
        that language, a language-specific format, a format that cannot carry the workload). A consumer whose codec \
        delimits records differently (a 4-byte length, a varint length, none) reads the same bodies re-framed its way.\n\
        Also: per pair of languages, whether they write identical record bytes, or where they first differ.\n\
        Wire formats, their members in each language and how each maps the records: docs/interop.md.\n\
        --decode DIR adds streams written elsewhere (e.g. by a Python service) as producers, beside the \
        languages' own: each stream with its shootout-interop/1 manifest, checked strictly (docs/interop.md, \
        \"Checking your own producer\").\n\
        Exit status: 0 when the matrix was made, whatever its cells; 1 on errors."
    )]
    Interop {
        #[command(flatten)]
        data: DataArgs,
        /// Wire formats (protobuf, json, msgpack-map, …) or any language's format names, comma-separated
        /// (default: all).
        #[arg(long, short, value_delimiter = ',')]
        formats: Vec<String>,
        /// Languages taking part, comma-separated: rust, go, jvm, all. Each other language's runner is built with
        /// its own toolchain, as `run --lang` does.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "all")]
        lang: Vec<Language>,
        /// Use only the first N records.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        max_records: Option<u64>,
        /// Keep the streams, manifests and re-framed copies in DIR (new or empty), for inspection.
        #[arg(long, value_name = "DIR")]
        keep: Option<PathBuf>,
        /// Also check streams written outside shootout: DIR holds, in --keep's layout, each stream with its
        /// manifest (any language name, e.g. python; docs/interop.md, "Checking your own producer"). They join
        /// the matrix as producers, read by every consumer of their wire format in the languages of --lang,
        /// against the records of this run's input (the same --workload, --input/--records, --max-records).
        #[arg(long, value_name = "DIR")]
        decode: Option<PathBuf>,
        #[command(flatten)]
        exports: Exports,
    },
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
    /// Latency at the feed's own pace: a capture's records released at their send times (scaled by a speed), handed
    /// from a producer thread to a consumer thread over a real transport, timed from scheduled release to decoded.
    #[command(
        long_about = "Latency at the feed's own pace. Each record of an IEX capture is released at its IEX-TP send \
        time, scaled by --speed, encoded by a producer thread, handed over a transport (an in-process ring, or one \
        loopback UDP datagram per record) and decoded by a consumer thread. A record's latency runs from its \
        scheduled release to the end of its decode, so time spent waiting behind earlier records counts (no \
        coordinated omission, which the closed loops of `run` cannot avoid). Each finite speed replays --seconds of \
        wall time around the capture's busiest second; `max` replays up to --max-records records as fast as the \
        consumer takes them. Every run is validated against the reference aggregate of the records that arrived.",
        after_help = "Reported per format, transport and speed: p50 to p99.99 and max; the busiest second's tail \
        (\"open\"); offered and achieved rate; the largest backlog; UDP drops; steady-state allocations per record; \
        the sustainable rate (the fastest speed kept up with, nothing dropped, p99.9 within --budget); median \
        latency by payload size. The contract with the Go and JVM runners and the results file: docs/replay.md.\n\
        Exit status: 0 when every run was made, whatever its figures; 1 on errors."
    )]
    Replay {
        /// IEX capture (pcap or pcapng, optionally gzipped; `-` = standard input). Generate one with gen-capture.
        #[arg(long, short)]
        input: PathBuf,
        /// Formats or groups, comma-separated (default: every format that runs on iex).
        #[arg(long, short, value_delimiter = ',')]
        formats: Vec<String>,
        /// Speed factors on the capture's own pace, comma-separated; `max` = as fast as the consumer takes records.
        #[arg(long, value_delimiter = ',', default_value = "1,100,max", value_parser = crate::replay::plan::Speed::parse)]
        speed: Vec<crate::replay::plan::Speed>,
        /// Transports, comma-separated.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "ring,udp")]
        transport: Vec<crate::replay::engine::Transport>,
        /// Wall-clock seconds each finite speed replays (so SECONDS × speed seconds of the capture, around its
        /// busiest second).
        #[arg(long, default_value_t = 2.0, value_parser = positive_seconds)]
        seconds: f64,
        /// The most records one speed replays (memory is bounded by twice this).
        #[arg(long, default_value_t = 250_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        max_records: u64,
        /// Records replayed at max speed, unrecorded, before a format's runs on each transport.
        #[arg(long, default_value_t = 10_000)]
        warmup_records: usize,
        /// The p99.9 a sustainable speed must stay within, in microseconds.
        #[arg(long, default_value_t = 10.0, value_parser = positive_seconds, value_name = "MICROSECONDS")]
        budget: f64,
        /// Languages, comma-separated: rust, go, jvm, all. Each other language's runner is built with its own
        /// toolchain and replays the same records on the same plan.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "rust")]
        lang: Vec<Language>,
        #[command(flatten)]
        exports: Exports,
    },
    /// Schema evolution, executed: per format and change, records written by v1 read by v2 and back.
    #[command(after_help = crate::evolution::help())]
    Evolution {
        /// Formats to run, comma-separated (default: every format of the matrix).
        #[arg(long, short, value_delimiter = ',')]
        formats: Vec<String>,
        #[command(flatten)]
        exports: Exports,
    },
    /// Reproduce a published study as its document describes it, beside its published figures.
    #[command(
        after_help = "The studies' documents are in ../shared/studies/ (not part of the repository); their \
        published figures are in spec/studies/. For each study: its tables with the study's figure, ours and the \
        ratio side by side; our own variants, labelled; each stated conclusion and claim checked (reproduced, \
        reversed, not reproduced, or not decided where the figures' intervals do not carry a verdict), the open \
        questions answered where the data allows, and every departure from the document.\n\
        A study in Go or Java is measured by that runner (like --lang go / jvm: it needs the toolchain); its log \
        (JMH's, for ignite-iep75) is shown with --verbose."
    )]
    Study {
        /// The study (see --list).
        #[arg(required_unless_present = "list")]
        name: Option<String>,
        /// List the studies and exit.
        #[arg(long, conflicts_with = "name")]
        list: bool,
        /// Input the study reads, where it used real data (iex-2019: an IEX DEEP capture, pcap or pcapng, optionally gzipped).
        #[arg(long, short)]
        input: Option<PathBuf>,
        /// iex-2019: runs to average (default 10, as the study; 1 with --quick).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1000))]
        runs: Option<u64>,
        /// Short settings (one run; the runners' fewer, shorter iterations): a first look, not figures to publish.
        #[arg(long)]
        quick: bool,
        /// Show the runner's log (JMH's, for ignite-iep75) as it measures; without it, only a failure shows it.
        #[arg(long)]
        verbose: bool,
        #[command(flatten)]
        exports: Exports,
    },
    /// Write the deterministic DEEP 1.0 capture that `run` uses when given no --input.
    GenCapture {
        /// Output file (classic pcap; `-` for standard output).
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        generated: Generated,
        /// Overwrite OUT if it exists.
        #[arg(long)]
        force: bool,
    },
}

/// The most records a generated workload makes (and `gen-csv` writes): a
/// record's place in the order is a u32, and no product of the count (bytes,
/// sums) comes near u64's range.
const MAX_RECORDS: u64 = 1_000_000_000;
/// The most packets of a generated capture: about 16 GB of pcap, its
/// timestamps and byte counts far inside their types.
const MAX_PACKETS: u64 = 100_000_000;

#[derive(Args, Clone, Copy, serde::Serialize)]
struct Generated {
    /// IEX-TP packets in the generated capture.
    #[arg(long, default_value_t = generate::Options::default().packets, value_parser = clap::value_parser!(u64).range(2..=MAX_PACKETS))]
    packets: u64,
    /// Seed of generated data; the same seed gives the same bytes.
    #[arg(long, default_value_t = generate::Options::default().seed)]
    seed: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum TabularName {
    Mixed,
    Strings,
    Longs,
    /// The `csv` workload's generated orders: named columns of every type.
    Csv,
}

impl DataArgs {
    fn data(&self) -> Data {
        Data {
            input: self.input.clone(),
            records: self.records,
            presence: self.presence,
            generated: self.generated.options(),
            column_types: self.column_types.clone(),
            schema: self.schema.clone(),
            record_schemas: None,
        }
    }
}

impl Generated {
    fn options(self) -> generate::Options {
        generate::Options { packets: self.packets, seed: self.seed }
    }
}

/// Which records: a workload, and its input file or how to generate it.
#[derive(Args, serde::Serialize)]
struct DataArgs {
    /// The data set (see `shootout workloads`).
    #[arg(long, short, value_enum, default_value = "iex")]
    workload: WorkloadName,
    /// Input file (`-` = standard input; pipes and FIFOs work): an IEX capture for `iex` (pcap or pcapng,
    /// optionally gzipped), a CSV with header f1..f20 for `mixed`, `strings` and `longs`, JSON Lines (one JSON
    /// value per line, optionally gzipped) for `jsonl`, any CSV with a header for `csv`. Without it, data is
    /// generated.
    #[arg(long, short)]
    input: Option<PathBuf>,
    /// Operations (records encoded per run) for generated non-iex workloads.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=MAX_RECORDS))]
    records: u64,
    /// Probability that a generated tabular field is present.
    #[arg(long, default_value_t = tabular::DEFAULT_PRESENCE, value_parser = presence)]
    presence: f64,
    /// `csv`: columns whose type is given, not inferred, as NAME=TYPE (integer, float, boolean, text),
    /// comma-separated or repeated; every other column's type is inferred from its cells.
    #[arg(long, value_delimiter = ',', value_parser = crate::input::columns::column_type)]
    column_types: Vec<(String, crate::input::columns::ColumnType)>,
    /// `jsonl`: the records' schema, a protobuf `.proto` (`FILE.proto#Message` names the record's message;
    /// without it, the one top-level message no other uses) or an Avro `.avsc`. Every record is checked
    /// against it first (one line per violation), runs as the schema types it in every format, and the
    /// schema's format joins through its library's runtime API: protobuf-dynamic or avro-generic, labelled
    /// `dynamic`. A `csv` run builds both schemas from its columns.
    #[arg(long, value_name = "FILE")]
    schema: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    generated: Generated,
}

/// The results files `run` and `report` write. A new export is one more
/// option here and one more [`Kind`].
#[derive(Args, serde::Serialize)]
struct ExportArgs {
    #[command(flatten)]
    #[serde(flatten)]
    exports: Exports,
    /// Write a summary row per format and direction as CSV (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    export_csv: Option<PathBuf>,
    /// Write the result tables as Markdown (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    export_markdown: Option<PathBuf>,
    /// Write Bencher Metric Format JSON for `bencher run --adapter json --file FILE`: one benchmark per
    /// workload/language/format/direction, measures latency (ns/op), relative-cost, p99-ns,
    /// bytes-per-record and allocations-per-op, each with its 95 % interval where it has one
    /// (docs/many-machines.md). One testbed's results per file.
    #[arg(long, value_name = "FILE")]
    export_bmf: Option<PathBuf>,
    /// Write github-action-benchmark's customSmallerIsBetter JSON: the same measures, one entry each, the
    /// testbed and provenance in each entry's `extra`. One testbed's results per file.
    #[arg(long, value_name = "FILE")]
    export_gab: Option<PathBuf>,
}

impl ExportArgs {
    /// The export files, checked before any work so a long run never ends by
    /// refusing to save; none may be one of the command's `inputs`.
    fn targets(&self, inputs: &[PathBuf]) -> Result<Vec<Target>> {
        let Exports { export_json, export_html, force } = &self.exports;
        Target::checked(
            [
                (Kind::Json, export_json.clone()),
                (Kind::Csv, self.export_csv.clone()),
                (Kind::Markdown, self.export_markdown.clone()),
                (Kind::Html, export_html.clone()),
                (Kind::Bmf, self.export_bmf.clone()),
                (Kind::Gab, self.export_gab.clone()),
            ],
            *force,
            inputs,
        )
    }
}

/// How the terminal tables of `run` and `report` look.
#[derive(Args, serde::Serialize)]
struct TableArgs {
    /// Columns of the terminal tables, comma-separated: `all`, or names from ns, ci, cost, precision, relative, ops, mbps,
    /// p50, p90, p99, p999, max, outliers, allocs, instr (counted by run --instructions), alloc-bytes (encode and
    /// decode tables) and bytes, per-record, zstd, zstd-ratio, library, labels (size table). Default: every column that fits the terminal's width,
    /// detail giving way first (labels, B/op, outliers, MB/s, ops/s, library, p90, max, …); every column when
    /// the output is not a terminal. Exports always have every column.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    columns: Vec<String>,
    /// Before the tables, the whole method and conditions (how each column was measured, the clocks,
    /// the machine, the load), in place of the three-line header. The results file always has them.
    #[arg(long)]
    verbose: bool,
}

impl TableArgs {
    fn columns(&self) -> Result<Option<crate::output::table::Columns>> {
        crate::output::table::Columns::parse(&self.columns)
    }
}

#[derive(Args, serde::Serialize)]
struct RunArgs {
    #[command(flatten)]
    #[serde(flatten)]
    data: DataArgs,
    /// Formats to run, comma-separated names or groups: classic, zero-copy, schemaless, schema, json (default: all). `shootout formats` lists them.
    #[arg(long, short, value_delimiter = ',')]
    formats: Vec<String>,
    /// Exactly this many measured runs, all in this one process, whatever their precision: a quick look.
    /// Its intervals leave out how separate processes differ (layout, heap, the minutes they ran in), so
    /// they are narrower than the next invocation will bear out. Turns off the processes' options.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000),
          conflicts_with_all = ["processes", "min_processes", "max_processes", "precision", "time_per_format", "runs_per_process"])]
    runs: Option<u64>,
    /// Each language is measured in fresh processes, one after another (each makes --warmup and
    /// --runs-per-process runs): exactly this many, whatever their precision.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000),
          conflicts_with_all = ["min_processes", "max_processes", "precision", "time_per_format"])]
    processes: Option<u64>,
    /// The fewest processes per language. The intervals are over processes (Student t, k − 1 degrees of
    /// freedom over k), so they hold for the next invocation, not only for this one.
    #[arg(long, default_value_t = benchmark::DEFAULT_MIN_PROCESSES as u64, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    min_processes: u64,
    /// After --min-processes, more processes are started until every row's cost (its ns/op against the
    /// other formats', the machine's speed taken out) is this precise (the half-width of its 95 % interval
    /// over it, in percent), or until the time budget is spent. Rows that miss it are marked `!` in the
    /// ±cost column and counted in one warning.
    #[arg(long, default_value = "2%", value_parser = precision, value_name = "PERCENT")]
    precision: f64,
    /// Seconds each format and direction may take: a language's processes stop before they would end
    /// past this times twice its formats (so adding formats does not cut the precision; the run says up
    /// front about how long it will take). Default: 0.7 on generated data, so the first command in the
    /// README stays under a minute; 1.4 on an --input you give, so IEX's DEEP sample stays under two.
    #[arg(long, value_name = "SECONDS", value_parser = seconds_per_format)]
    time_per_format: Option<f64>,
    /// The most processes per language, whatever the budget.
    #[arg(long, default_value_t = benchmark::DEFAULT_MAX_PROCESSES as u64, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    max_processes: u64,
    /// Measured runs (whole passes over the input) in each process, after its warm-up.
    #[arg(long, default_value_t = benchmark::DEFAULT_RUNS as u64, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    runs_per_process: u64,
    /// Throughput passes over each window in each run: the first round makes every pass of every format
    /// (throughput, latency, allocations); each further round, in a new shuffled order, times the throughput
    /// pass again, so a run's ns/op rests on more timed work for less time than another run would cost.
    #[arg(long, default_value_t = benchmark::DEFAULT_THROUGHPUT_ROUNDS as u64, value_parser = clap::value_parser!(u64).range(1..=100))]
    throughput_rounds: u64,
    /// Unmeasured (but validated) warm-up runs: whole passes over the input. With 0, each format still
    /// encodes and decodes the first window once, unmeasured, to size its buffers (and a warning says so).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    warmup: u64,
    /// Records per window. Each format encodes a window into one reused stream and decodes it back before the
    /// next window is read, so memory is bounded by the window, not by the input.
    #[arg(long, default_value_t = crate::input::DEFAULT_WINDOW as u64, value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    window: u64,
    /// Windows each process times, when the input holds more: a stratified sample, one window from each
    /// of this many equal stretches of the input, so its beginning, its end and its busiest stretches are
    /// all in. The first process still encodes, decodes and validates every record once; the output says
    /// what was sampled.
    #[arg(long, default_value_t = benchmark::DEFAULT_SAMPLE_WINDOWS as u64, value_parser = clap::value_parser!(u64).range(1..=1 << 32))]
    sample_windows: u64,
    /// Time every window of the input in every process, not a sample: each process then passes over
    /// the whole input several times (slow on a large capture).
    #[arg(long, conflicts_with = "sample_windows")]
    full: bool,
    /// Seed of the formats' shuffled order (a new order in every window of every run); recorded in the results.
    #[arg(long, default_value_t = 1)]
    order_seed: u64,
    /// Stop after this many records: a quick look at a large input. With --instructions, 10,000 unless given.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_records: Option<u64>,
    /// Also count each Rust format's instructions per op (column instr/op, `instructions_per_op` in the results):
    /// this program runs again under Valgrind's Callgrind (Debian package `valgrind`), each format and direction
    /// one pass over the records in a counted region of its own, after an uncounted warm-up. The count is the same
    /// on any machine running the same build, where ns/op is not; it is not time (SIMD width, caches and branch
    /// misses are invisible to it). Valgrind runs a pass about fifty times slower, so the run is capped at
    /// --max-records, 10,000 records unless given.
    #[arg(long)]
    instructions: bool,
    /// Internal: this is the process counting instructions under Valgrind; where it lists its counted regions.
    #[arg(long, hide = true, requires = "instructions")]
    #[serde(skip)]
    instructions_out: Option<PathBuf>,
    /// Internal: this is measuring process N of a run in several (`run` starts them itself).
    #[arg(long, hide = true, requires = "child_out")]
    #[serde(skip)]
    child_process: Option<u64>,
    /// Internal: where that process writes its results.
    #[arg(long, hide = true, requires = "child_process")]
    #[serde(skip)]
    child_out: Option<PathBuf>,
    /// The testbed's name, stamped on the results with the machine's fingerprint (CPU model and flags,
    /// cores, memory, OS, kernel, hypervisor): results of one testbed are its name's, whatever machine
    /// ran them (a CI runner type, say); without it, the fingerprint names the testbed. Letters, digits,
    /// `.`, `_` and `-`, at most 64 (docs/many-machines.md).
    #[arg(long, value_name = "NAME", value_parser = testbed_name)]
    testbed: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    export: ExportArgs,
    #[command(flatten)]
    #[serde(flatten)]
    table: TableArgs,
    /// Languages to measure, comma-separated: rust, go, jvm, all. Another language's runner (`runners/<lang>/`) is
    /// built with its own toolchain and run after the Rust formats on the same records, handed over as a
    /// dataset file; the tables then show every language, with a lang column.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "rust")]
    lang: Vec<Language>,
}

pub fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Run(args) => run(*args),
        Command::Inspect { file, json } => inspect(file, json),
        Command::Formats { json, markdown, lang } => list_formats(json, markdown, &lang),
        Command::GenCapture { out, generated, force } => {
            gen_capture(&out, generated.options(), force)
        }
        Command::GenCsv { workload, out, records, seed, presence, force } => {
            gen_csv(workload, &out, records as usize, seed, presence, force)
        }
        Command::GenJsonl { out, records, seed, force } => gen_jsonl(&out, records, seed, force),
        Command::Workloads => list_workloads(),
        Command::Robustness { data, options } => {
            crate::robustness::robustness(data.workload, &data.data(), options)
        }
        Command::Report { files, allow_mismatch, attach, export, table } => {
            let read: Vec<PathBuf> = files.iter().chain(&attach).cloned().collect();
            crate::report::report(
                &files,
                allow_mismatch,
                &attach,
                &export.targets(&read)?,
                table.columns()?.as_ref(),
                table.verbose,
            )
        }
        Command::Compare {
            old,
            new,
            fail_above,
            markdown,
            json,
            alpha,
            min_change,
            across_testbeds,
        } => {
            let output = match (markdown, json) {
                (true, _) => compare::Output::Markdown,
                (_, true) => compare::Output::Json,
                _ => compare::Output::Terminal,
            };
            let thresholds = compare::Thresholds {
                alpha,
                min_change_pct: min_change,
                fail_above_pct: fail_above,
            };
            compare::compare(&old, &new, thresholds, output, across_testbeds)
        }
        Command::Recommend { results, need, max_p99_ns, max_bytes_per_record, lang, by } => {
            crate::recommend::recommend(
                results.as_deref(),
                &crate::recommend::Constraints {
                    needs: need,
                    max_p99_ns,
                    max_bytes_per_record,
                    // The JVM runner's results name their language java.
                    languages: lang
                        .into_iter()
                        .map(|l| if l == "jvm" { "java".to_owned() } else { l })
                        .collect(),
                    by,
                },
            )
        }
        Command::Interop { data, formats, lang, max_records, keep, decode, exports } => {
            // The streams and manifests of --decode are read too.
            let decoded = decode.iter().flat_map(std::fs::read_dir).flatten().flatten();
            let read: Vec<PathBuf> =
                data.data().inputs().into_iter().chain(decoded.map(|e| e.path())).collect();
            let task = crate::interop::Interop {
                languages: lang,
                formats,
                max_records,
                keep,
                decode,
                exports: exports.targets(&read)?,
            };
            interop(data, task)
        }
        Command::Replay {
            input,
            formats,
            speed,
            transport,
            seconds,
            max_records,
            warmup_records,
            budget,
            lang,
            exports,
        } => crate::replay::replay(crate::replay::Replay {
            exports: exports.targets(std::slice::from_ref(&input))?,
            input,
            formats,
            settings: crate::replay::Settings {
                speeds: speed,
                transports: transport,
                seconds,
                max_records,
                warmup_records,
                budget_ns: (budget * 1e3).round() as u64,
            },
            languages: lang,
        }),
        Command::Evolution { formats, exports } => {
            crate::evolution::evolution(crate::evolution::Options {
                formats,
                exports: exports.targets(&[])?,
            })
        }
        Command::Study { list: true, .. } => Ok(crate::study::list(&mut std::io::stdout().lock())?),
        Command::Study { name, input, runs, quick, verbose, exports, .. } => crate::study::study(
            name.as_deref().unwrap_or_default(),
            crate::study::Options {
                exports: exports.targets(input.as_slice())?,
                input,
                runs: runs.map(|r| r as usize),
                quick,
                verbose,
            },
        ),
        Command::ExportDataset { data, out, force } => {
            let target = crate::dataset::Target::new(out, force, &data.data().inputs())?;
            catalog::dispatch(data.workload, &data.data(), target)
        }
    }
}

/// `shootout gen-capture`.
fn gen_capture(out: &Path, options: generate::Options, force: bool) -> Result<()> {
    if out == Path::new("-") && io::stdout().is_terminal() {
        bail!("--out -: standard output is a terminal, which pcap bytes would garble; redirect it");
    }
    let bytes = write_generated(out, force, |w| generate::write(options, w))?;
    if out != Path::new("-") {
        eprintln!(
            "wrote {} ({bytes} bytes, {} IEX-TP packets, seed {})",
            out.display(),
            options.packets,
            options.seed
        );
    }
    Ok(())
}

/// `shootout gen-csv`.
fn gen_csv(
    workload: TabularName,
    out: &Path,
    records: usize,
    seed: u64,
    presence: f64,
    force: bool,
) -> Result<()> {
    let bytes = write_generated(out, force, |w| match workload {
        TabularName::Mixed => {
            csv::write::<MixedRow>(tabular::rows(seed, presence).take(records), w)
        }
        TabularName::Strings => {
            csv::write::<StringsRow>(tabular::rows(seed, presence).take(records), w)
        }
        TabularName::Longs => {
            csv::write::<LongsRow>(tabular::rows(seed, presence).take(records), w)
        }
        TabularName::Csv => {
            let mut written = 0;
            for line in std::iter::once(format!("{}\n", jsonl::ORDERS_HEADER))
                .chain(jsonl::orders(seed).take(records))
            {
                w.write_all(line.as_bytes())?;
                written += line.len() as u64;
            }
            Ok(written)
        }
    })?;
    if out != Path::new("-") {
        let presence = match workload {
            TabularName::Csv => String::new(),
            _ => format!(", presence {presence}"),
        };
        eprintln!(
            "wrote {} ({bytes} bytes, {records} records, seed {seed}{presence})",
            out.display()
        );
    }
    Ok(())
}

fn gen_jsonl(out: &Path, records: u64, seed: u64, force: bool) -> Result<()> {
    let events = jsonl::events(seed).take(records as usize);
    let bytes = write_generated(out, force, |w| jsonl::write(events, w))?;
    if out != Path::new("-") {
        eprintln!("wrote {} ({bytes} bytes, {records} events, seed {seed})", out.display());
    }
    Ok(())
}

/// `shootout interop`.
fn interop(data: DataArgs, task: crate::interop::Interop) -> Result<()> {
    catalog::dispatch(data.workload, &data.data(), task)
}

fn inspect(file: PathBuf, json: bool) -> Result<()> {
    let report = &crate::output::inspect::scan(&Source::from_arg(file))?;
    crate::output::print_warnings(&report.warnings);
    let mut out = io::stdout().lock();
    if json {
        // Symbols are any bytes: the JSON keeps them, escaped as a terminal needs.
        let text = serde_json::to_string_pretty(report)?;
        writeln!(out, "{}", crate::sanitize::json(&text))?;
    } else {
        crate::output::inspect::write(report, &mut out)?;
    }
    Ok(())
}

fn list_formats(json: bool, markdown: bool, lang: &[Language]) -> Result<()> {
    let mut entries = Vec::new();
    for language in Language::expand(lang) {
        match language.external() {
            None => entries
                .extend(crate::output::formats::entries(registry::iex().iter().map(|f| f.info))),
            Some(runner) => {
                let listed = runner.list(&runner.build()?)?;
                entries.extend(crate::output::formats::listed(runner.name, listed));
            }
        }
    }
    let mut out = io::stdout().lock();
    if json {
        // Other languages' runners list their own names and notes: text from outside.
        let text = serde_json::to_string_pretty(&entries)?;
        writeln!(out, "{}", crate::sanitize::json(&text))?;
    } else {
        crate::output::formats::write(&entries, markdown, &mut out)?;
        if !markdown {
            writeln!(out, "\ngroups for `run --formats`:")?;
            for group in registry::GROUPS {
                writeln!(out, "  {:<12} {}", group.name, group.summary)?;
            }
        }
    }
    Ok(())
}

fn positive_seconds(text: &str) -> std::result::Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("expected a positive number, not '{text}'")),
    }
}

fn percent(text: &str) -> std::result::Result<f64, String> {
    match text.trim_end_matches('%').parse::<f64>() {
        Ok(p) if p >= 0.0 && p.is_finite() => Ok(p),
        _ => Err(format!("'{text}' is not a percentage (0 or more)")),
    }
}

/// A limit on a measured figure: a number, 0 or more (not NaN, which no figure exceeds).
fn limit(text: &str) -> std::result::Result<f64, String> {
    match text.parse::<f64>() {
        Ok(n) if n >= 0.0 && n.is_finite() => Ok(n),
        _ => Err(format!("'{text}' is not a number (0 or more)")),
    }
}

/// `--precision`: a percentage above 0, as a fraction.
fn precision(text: &str) -> std::result::Result<f64, String> {
    match percent(text) {
        Ok(p) if p > 0.0 && p < 100.0 => Ok(p / 100.0),
        _ => Err(format!("'{text}' is not a precision between 0 and 100 %")),
    }
}

fn seconds_per_format(text: &str) -> std::result::Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3_600.0 => Ok(s),
        _ => Err(format!("'{text}' is not a number of seconds above 0 and at most 3600")),
    }
}

fn alpha(text: &str) -> std::result::Result<f64, String> {
    match text.parse::<f64>() {
        Ok(a) if a > 0.0 && a < 1.0 => Ok(a),
        _ => Err(format!("'{text}' is not a significance level between 0 and 1")),
    }
}

/// `--testbed NAME`: a name Bencher takes as a testbed's and every table shows as it is.
fn testbed_name(text: &str) -> std::result::Result<String, String> {
    let fits = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    match text.len() {
        1..=64 if text.chars().all(fits) => Ok(text.to_owned()),
        _ => Err("expected 1 to 64 letters, digits, '.', '_' or '-'".to_owned()),
    }
}

fn presence(text: &str) -> std::result::Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("'{text}' is not a probability between 0 and 1")),
    }
}

/// Writes what `generate` writes at `out` (`-`: standard output) as it is
/// generated, all or nothing, after checking the path; an existing file is
/// replaced only with `force`. Returns the bytes written.
fn write_generated(
    out: &Path,
    force: bool,
    generate: impl FnOnce(&mut dyn Write) -> io::Result<u64>,
) -> Result<u64> {
    crate::export::check_path(out, force)?;
    crate::export::write_with(out, force, |w| {
        generate(w).with_context(|| format!("{}: cannot write", out.display()))
    })
}

fn list_workloads() -> Result<()> {
    let mut out = io::stdout().lock();
    for w in catalog::WORKLOADS {
        writeln!(out, "{:<11} {}\n            data: {}", w.name, w.shape, w.data)?;
    }
    Ok(())
}

fn run(args: RunArgs) -> Result<()> {
    // Every check on the command line and the export paths happens before the input is read.
    if args.runs.is_none() && args.processes.is_none() && args.max_processes < args.min_processes {
        // A usage error, like clap's own: exit status 2.
        Cli::command()
            .error(
                clap::error::ErrorKind::ArgumentConflict,
                format!(
                    "--max-processes {} is below --min-processes {}",
                    args.max_processes, args.min_processes
                ),
            )
            .exit();
    }
    let counting = args.instructions_out.is_some();
    if counting {
        crate::input::source::stop_hashing();
    }
    // Checked once, by the run a user started, not by the processes it starts.
    if args.instructions && !counting && args.child_process.is_none() {
        if args.data.input.as_deref() == Some(Path::new("-")) {
            bail!(
                "--instructions reads the input again in a process under Valgrind: give a file, not standard input"
            );
        }
        crate::instructions::require_valgrind()?;
    }
    let child = args
        .child_process
        .zip(args.child_out.clone())
        .map(|(process, out)| crate::run::Child { process: process as usize, out });
    // A measuring or counting process writes no exports: the run that started it does.
    let targets = match child.is_some() || counting {
        true => Vec::new(),
        false => args.export.targets(&args.data.data().inputs())?,
    };
    let options = serde_json::to_value(&args)?;
    let (runs, min_processes, max_processes, seconds_per_format) = match (args.runs, args.processes)
    {
        (Some(runs), _) => (runs, 1, 1, None),
        (None, Some(processes)) => (args.runs_per_process, processes, processes, None),
        (None, None) => (
            args.runs_per_process,
            args.min_processes,
            args.max_processes,
            Some(args.time_per_format.unwrap_or(match args.data.input {
                None => benchmark::DEFAULT_SECONDS_PER_FORMAT_GENERATED,
                Some(_) => benchmark::DEFAULT_SECONDS_PER_FORMAT_INPUT,
            })),
        ),
    };
    let run = crate::run::Run {
        settings: Settings {
            warmup_runs: args.warmup as usize,
            runs: runs as usize,
            throughput_rounds: args.throughput_rounds as usize,
            min_processes: min_processes as usize,
            max_processes: max_processes as usize,
            precision: args.precision,
            // Set per language, from its formats (`crate::run::Run::seconds_per_format`).
            time_budget_ms: 0,
            window: args.window as usize,
            order_seed: args.order_seed,
            sample_windows: if args.full { 0 } else { args.sample_windows as usize },
        },
        seconds_per_format,
        formats: args.formats,
        languages: Language::expand(&args.lang),
        max_records: args
            .max_records
            .or(args.instructions.then_some(crate::instructions::DEFAULT_MAX_RECORDS)),
        options,
        targets,
        columns: args.table.columns()?,
        verbose: args.table.verbose,
        testbed: args.testbed,
        child,
        instructions: args.instructions,
        instructions_out: args.instructions_out,
    };
    catalog::dispatch(args.data.workload, &args.data.data(), run)
}
