//! `shootout run`: measures the chosen languages' formats on one workload's
//! records, one language after another, and shows and exports their results
//! as one set of tables.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};

use crate::benchmark::{self, Progress, Registered, RunContext, baseline::Baseline, timer::Timer};
use crate::catalog::WorkloadTask;
use crate::catalog::registry;
use crate::document::{Invocation, Results, Settings, Testbed, TestbedSource};
use crate::environment::{CpuTimes, Environment};
use crate::export::Target;
use crate::input::Input;
use crate::output::table::{self, Columns, Style};
use crate::output::verdict;
use crate::processes;
use crate::results::Merged;
use crate::runners::{FormatChoice, Language};
use crate::workload::Workload;

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

/// `shootout run`, once the command line is checked.
pub struct Run {
    pub settings: Settings,
    /// `--formats`: names of any language, and Rust's groups (empty: all).
    pub formats: Vec<String>,
    pub languages: Vec<Language>,
    /// Each format and direction's share of a language's time budget
    /// (`Settings::time_budget_ms`); `None`: no budget (`--runs`, `--processes`).
    pub seconds_per_format: Option<f64>,
    pub max_records: Option<u64>,
    /// The options as parsed, for the results.
    pub options: serde_json::Value,
    /// The exports, already checked.
    pub targets: Vec<Target>,
    /// `--columns`, or `None` to fit the terminal.
    pub columns: Option<Columns>,
    /// `--verbose`: the whole method before the tables.
    pub verbose: bool,
    /// `--testbed`: the name every part's testbed is stamped with.
    pub testbed: Option<String>,
    /// Set in the processes a run starts to measure Rust (see [`rust_process`]).
    pub child: Option<Child>,
    /// `--instructions`: the Rust formats' instructions per op are counted
    /// too, under Valgrind ([`crate::instructions`]).
    pub instructions: bool,
    /// Set in the process that counts them: where it lists its counted regions.
    pub instructions_out: Option<PathBuf>,
}

/// This process is process `process` of a run in several: it measures the
/// Rust formats only and writes their results to `out` for the run that started it.
pub struct Child {
    pub process: usize,
    pub out: PathBuf,
}

impl WorkloadTask for Run {
    fn on<W: Workload>(self, input: &dyn Input<W>, formats: Vec<Registered<W>>) -> Result<()>
    where
        W::Record: Clone + serde::Serialize,
    {
        self.benchmark(input, formats)
    }
}

impl Run {
    fn benchmark<W: Workload>(
        self,
        input: &dyn Input<W>,
        registered: Vec<Registered<W>>,
    ) -> Result<()>
    where
        W::Record: Clone + serde::Serialize,
    {
        let mut limited = None;
        let input = crate::input::Limited::first(input, self.max_records, &mut limited);
        if let Some(out) = &self.instructions_out {
            let wanted = FormatChoice::rust_names(&self.languages, &registered, &self.formats);
            let formats = with_baseline(registry::select(registered, &wanted)?);
            let counted = benchmark::counting::count(input, &formats, self.settings.window)?;
            let text = serde_json::to_vec(&counted)?;
            return std::fs::write(out, text)
                .with_context(|| format!("cannot write {}", out.display()));
        }
        if let Some(child) = &self.child {
            let wanted = FormatChoice::rust_names(&self.languages, &registered, &self.formats);
            let formats = with_baseline(registry::select(registered, &wanted)?);
            let settings = self.settings.for_process(child.process);
            let (results, _) =
                measure_rust(self.options, input, &formats, settings, Some(child.process))?;
            let text = serde_json::to_vec(&results)?;
            // Opened, not created: once an interrupted run has removed its temporary file, none reappears.
            return std::fs::OpenOptions::new()
                .write(true)
                .open(&child.out)
                .and_then(|mut file| file.write_all(&text))
                .with_context(|| format!("cannot write {}", child.out.display()));
        }
        let plan = FormatChoice::new(&self.languages, &registered, &self.formats)?;
        let settings = self.settings;
        let targets = self.targets;

        let mut parts = Vec::new();
        let mut scanned = None;
        if let Some(wanted) = plan.rust {
            let formats = with_baseline(registry::select(registered, &wanted)?);
            let runnable = formats.iter().filter(|f| f.unsupported_reason().is_none()).count();
            let (settings, budget_line) =
                budget(settings, self.seconds_per_format, "rust", runnable);
            if settings.max_processes <= 1 {
                let (results, measured) =
                    measure_rust(self.options, input, &formats, settings, None)?;
                parts.push(results);
                scanned = Some(measured.scanned);
            } else {
                // Read the input here first: a bad record is this process's one error line, before any process starts.
                scanned = Some(crate::dataset::scan(input)?);
                budget_line.iter().for_each(|line| eprintln!("{line}"));
                parts.push(measure_rust_in_processes(self.options, settings)?);
            }
            if self.instructions {
                eprintln!(
                    "rust: counting instructions under Valgrind (Callgrind) on the same {} records, each format and \
                     direction in a counted region of its own…",
                    scanned.as_ref().map_or(0, |s| s.operations)
                );
                if let Some(rust) = parts.last_mut() {
                    crate::instructions::count()?.attach(rust);
                }
            }
        }
        if !plan.external.is_empty() {
            let scanned = match scanned {
                Some(scanned) => scanned,
                None => crate::dataset::scan(input)?,
            };
            let dataset = crate::temporary::system_file(
                tempfile::Builder::new().prefix("shootout-dataset-").suffix(".jsonl"),
            )
            .context("cannot create the temporary dataset file")?;
            let mut out = io::BufWriter::new(dataset.as_file());
            crate::dataset::write_to(input, &scanned, &mut out, "the temporary dataset file")?;
            drop(out);
            for chosen in &plan.external {
                let crate::runners::Chosen { runner, folder, names: formats, .. } = chosen;
                eprintln!(
                    "{}: measuring on the same {} records (runners/{})…",
                    runner.name, scanned.operations, runner.folder
                );
                // Every format it lists for the workload when none is named:
                // counting the names alone gave such a runner no budget.
                let (settings, budget_line) = budget(
                    settings,
                    self.seconds_per_format,
                    runner.name,
                    chosen.formats_on(W::NAME),
                );
                budget_line.iter().for_each(|line| eprintln!("{line}"));
                let mut results = processes::measure(settings, |process| {
                    runner.measure(folder, dataset.path(), settings.for_process(process), formats)
                })?;
                // The CSV the dataset came from is this process's input: its size is every part's baseline.
                results.workload.csv = results.workload.csv.or(scanned.csv);
                parts.push(results);
            }
        }
        // Every runner ran here: one testbed, this process's view of the machine.
        let environment = serde_json::to_value(Environment::capture())?;
        let testbed = Testbed::of_environment(&environment, self.testbed, TestbedSource::Run);
        for part in &mut parts {
            part.testbed = Some(testbed.clone());
        }
        let merged = Merged::new(parts)?;
        show(&merged, &targets, self.columns.as_ref(), self.verbose)?;
        match merged.failed().count() {
            0 => Ok(()),
            failed => Err(FormatsFailed(failed).into()),
        }
    }
}

/// `settings` with the time budget of a language measuring `formats`
/// formats, and the line that says it up front (printed once the input has
/// been read: a bad input is one error line).
fn budget(
    settings: Settings,
    seconds_per_format: Option<f64>,
    language: &str,
    formats: usize,
) -> (Settings, Option<String>) {
    let Some(seconds) = seconds_per_format else { return (settings, None) };
    let budget = seconds * 2.0 * formats as f64;
    let line = format!(
        "{language}: {formats} formats × 2 directions × {seconds} s: at most about {budget:.0} s of processes \
         (--time-per-format to change), fewer once every row is ±{:.1}% precise",
        100.0 * settings.precision
    );
    (Settings { time_budget_ms: (budget * 1e3).round() as u64, ..settings }, Some(line))
}

/// Prints the tables and warnings of a results set and writes its exports:
/// the end of `run`, and all of `report`.
/// `columns`: `--columns`, or `None` to fit the terminal; `verbose`: the
/// whole method before the tables, not the short header.
pub fn show(
    merged: &Merged,
    targets: &[Target],
    columns: Option<&Columns>,
    verbose: bool,
) -> Result<()> {
    // With an export on standard output, the tables go to stderr.
    let (mut out, to_terminal): (Box<dyn Write>, bool) = match targets.iter().any(Target::is_stdout)
    {
        true => (Box::new(io::stderr().lock()), io::stderr().is_terminal()),
        false => (Box::new(io::stdout().lock()), io::stdout().is_terminal()),
    };
    let columns = Columns::or_fit(columns, terminal_width(to_terminal));
    show_on(merged, targets, &columns, verbose, &mut out)
}

/// [`show`] with the tables written to `out` (warnings still go to stderr).
pub fn show_on(
    merged: &Merged,
    targets: &[Target],
    columns: &Columns,
    verbose: bool,
    out: &mut dyn Write,
) -> Result<()> {
    print_tables(merged, columns, verbose, out)?;
    crate::output::print_warnings(&merged.warnings());
    crate::output::print_warnings(&merged.imprecise().into_iter().collect::<Vec<_>>());
    // Every export is written before any replaces its file: an error or a
    // signal on the way leaves them all as they were.
    let staged = targets.iter().map(|target| target.stage(merged)).collect::<Result<Vec<_>>>()?;
    for (target, output) in targets.iter().zip(staged) {
        output.finish()?;
        if !target.is_stdout() {
            eprintln!("wrote {}", target.path.display());
        }
    }
    Ok(())
}

/// The chosen formats after the no-format baseline row.
fn with_baseline<W: Workload>(mut formats: Vec<Registered<W>>) -> Vec<Registered<W>>
where
    W::Record: Clone,
{
    formats.insert(0, Registered::of::<Baseline<W>>());
    formats
}

/// What the machine did around a measurement: the preflight's finding
/// before it, load and CPU steal over it.
struct Watch {
    load_before: Option<[f64; 3]>,
    cpu_before: Option<CpuTimes>,
    other_cores: Option<f64>,
    busy: Option<String>,
}

impl Watch {
    /// With `preflight`, first watches the CPU a moment (see [`preflight`]).
    fn begin(timer: &Timer, cores: usize, preflight: bool) -> Watch {
        let load_before = crate::environment::load_average();
        let (busy, other_cores) = match preflight {
            true => self::preflight(timer, load_before, cores),
            false => (None, None),
        };
        Watch { load_before, cpu_before: CpuTimes::now(), other_cores, busy }
    }

    fn invocation(self, options: serde_json::Value) -> Invocation {
        Invocation {
            command_line: std::env::args().collect(),
            options,
            load_before: self.load_before,
            load_after: crate::environment::load_average(),
            other_cpu_cores: self.other_cores,
            steal_pct: self
                .cpu_before
                .zip(CpuTimes::now())
                .and_then(|(before, after)| after.steal_pct_since(&before)),
        }
    }
}

/// Measures the Rust formats in fresh processes ([`rust_process`]), as many
/// as `settings` ask; the preflight and the machine's load are this process's.
fn measure_rust_in_processes(options: serde_json::Value, settings: Settings) -> Result<Results> {
    let timer = Timer::new();
    let watch = Watch::begin(&timer, Environment::capture().cores, true);
    let busy = watch.busy.clone();
    let mut results = processes::measure(settings, rust_process)?;
    results.invocation = watch.invocation(options);
    results.warnings.splice(0..0, busy);
    Ok(results)
}

/// Process `process` of a run measuring Rust: this program again, with this
/// process's command line and the hidden `--child-process` and `--child-out`,
/// which make it measure the Rust formats only and write their results to a
/// temporary file. Its progress bar and errors go to this process's stderr.
fn rust_process(process: usize) -> Result<Results> {
    let out = crate::temporary::system_file(
        tempfile::Builder::new().prefix("shootout-process-").suffix(".json"),
    )
    .context("cannot create a temporary results file")?;
    let program =
        std::env::current_exe().context("cannot find this program to start a measuring process")?;
    let status = std::process::Command::new(program)
        .args(std::env::args_os().skip(1))
        .args(["--child-process", &process.to_string()])
        .arg("--child-out")
        .arg(out.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .status()
        .context("cannot start a measuring process")?;
    if !status.success() {
        bail!(
            "measuring process {} of the Rust formats failed ({status}); its error is above",
            process + 1
        );
    }
    let text = std::fs::read(out.path()).context("cannot read a measuring process's results")?;
    serde_json::from_slice(&text).context("a measuring process wrote results that do not read back")
}

/// Measures the Rust formats in this process, with a progress bar on a
/// terminal; `process`: this is that process of a run in several (no
/// preflight: the run that started it made one).
fn measure_rust<W: Workload>(
    options: serde_json::Value,
    input: &dyn Input<W>,
    formats: &[Registered<W>],
    settings: Settings,
    process: Option<usize>,
) -> Result<(Results, benchmark::Measured<W>)>
where
    W::Record: Clone,
{
    let environment = Environment::capture();
    let timer = Timer::new();
    let watch = Watch::begin(&timer, environment.cores, process.is_none());
    let mut warnings: Vec<String> = watch.busy.clone().into_iter().collect();
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
    let mut counting_records = false;
    let measured =
        benchmark::measure(input, formats, settings, &timer, process.unwrap_or(0) == 0, |step| {
            match step {
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
                Progress::Window { run, runs, operations, planned, warmup, format } => {
                    if !counting_records {
                        // From bytes read to records measured.
                        counting_records = true;
                        progress.set_style(
                            ProgressStyle::with_template(
                                "{spinner} [{bar:30}] {pos}/{len} records × formats, {msg}",
                            )
                            .expect("valid template")
                            .progress_chars("=> "),
                        );
                        progress.set_position(0);
                    }
                    progress.set_length(planned);
                    let kind = if warmup { "warm-up" } else { "run" };
                    let of_process =
                        process.map(|p| format!("process {}, ", p + 1)).unwrap_or_default();
                    progress.set_message(format!("{of_process}{kind} {}/{runs} {format}", run + 1));
                    progress.inc(operations);
                }
            }
        });
    progress.finish_and_clear();
    let measured = measured?;
    let context = RunContext {
        invocation: watch.invocation(options),
        environment,
        timer: timer.calibration.clone(),
        settings,
        warnings,
    };
    let results = benchmark::results(&measured, formats, input.name(), context);
    Ok((results, measured))
}

/// CPU in use by other work, per core, above which the machine counts as busy.
pub const BUSY_SHARE_PER_CORE: f64 = 0.5;

/// How long the preflight watches the CPU, this process asleep.
const PREFLIGHT_WATCH: std::time::Duration = std::time::Duration::from_millis(250);

/// Before measuring: how much CPU other work used while this process slept
/// for [`PREFLIGHT_WATCH`] (what the 1-minute load average says only a minute
/// late: right after a build it is still high on an idle machine), and one
/// line on a terminal's stderr (beside the progress bar; a pipe gets only the
/// warnings) with that, the clock, its cost, the load and the steal. A busy
/// machine is measured all the same (a benchmark that refused would hide how
/// noisy the figures are), with a warning that stays in the results. Returns
/// the warning and the cores' worth of CPU in use.
fn preflight(timer: &Timer, load: Option<[f64; 3]>, cores: usize) -> (Option<String>, Option<f64>) {
    let t = &timer.calibration;
    let before = CpuTimes::now();
    std::thread::sleep(PREFLIGHT_WATCH);
    let cpu = before.zip(CpuTimes::now());
    let in_use = cpu.and_then(|(before, after)| after.busy_cores_since(&before, cores));
    let steal = match cpu.and_then(|(before, after)| after.steal_pct_since(&before)) {
        Some(pct) => format!("{pct:.1}% stolen by the hypervisor"),
        None => "steal unreadable".to_owned(),
    };
    let busy = match in_use {
        Some(used) => format!("{used:.2} of {cores} cores in use by other work"),
        None => "CPU use unreadable".to_owned(),
    };
    let load_text = match load {
        Some([one, five, fifteen]) => {
            format!("load {one:.2} {five:.2} {fifteen:.2} on {cores} cores")
        }
        None => "load unreadable".to_owned(),
    };
    if io::stderr().is_terminal() {
        eprintln!(
            "preflight: {}, resolution {} ns, empty region {} ns (subtracted); {busy}; {load_text}; {steal}",
            t.clock, t.resolution_ns, t.empty_region_ns
        );
    }
    // Where /proc/stat cannot be read, the load average stands in.
    let used = in_use.or(load.map(|[one, ..]| one));
    let warning = used
        .filter(|&used| used > BUSY_SHARE_PER_CORE * cores as f64)
        .map(|used| {
            format!(
                "the machine was busy when the run began ({used:.2} of {cores} cores in use by other work, above \
                 {BUSY_SHARE_PER_CORE} per core): it competes for the cores, so the figures are slower and noisier \
                 than a quiet machine's"
            )
        });
    (warning, in_use)
}

/// The terminal's width when the tables go to one.
fn terminal_width(to_terminal: bool) -> Option<usize> {
    to_terminal.then(|| comfy_table::Table::new().width()).flatten().map(usize::from)
}

fn print_tables(
    merged: &Merged,
    columns: &Columns,
    verbose: bool,
    out: &mut dyn Write,
) -> Result<()> {
    if io::stdout().is_terminal() {
        writeln!(out)?;
    }
    let header = match verbose {
        true => table::preamble(merged),
        false => verdict::header(merged, verdict::WIDTH),
    };
    for line in
        header.iter().chain([&String::new()]).chain(&verdict::verdict(merged, verdict::WIDTH))
    {
        writeln!(out, "{}", Style::Terminal.shown(line))?;
    }
    let (sections, hidden) = table::sections(merged, Style::Terminal, columns);
    for (title, table) in sections {
        writeln!(out, "\n{title}\n{table}")?;
    }
    // The method (--verbose) says it already.
    if let (false, Some(note)) = (verbose, table::instructions_note(merged)) {
        writeln!(out, "{}", Style::Terminal.shown(&note))?;
    }
    if let (Columns::Fit(width), false) = (columns, hidden.is_empty()) {
        writeln!(
            out,
            "(to fit {width} terminal columns, hidden: {}; --columns all shows every one, and the exports have them all)",
            hidden.join(", ")
        )?;
    }
    for line in table::not_run(merged) {
        writeln!(out, "{}", Style::Terminal.shown(&line))?;
    }
    Ok(())
}
