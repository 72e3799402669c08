//! The worker: a `shootout robustness --worker FILE` process that decodes a
//! case file's hostile inputs one after another, each with a fresh codec,
//! panics caught and allocations capped, and writes one line per case. What
//! it cannot report (a hang, an allocation past the cap, a crash) the parent
//! sees from outside (`Pool`) and classifies; then it starts a new worker at
//! the next case. A reproducer is a case file of one case, so `--replay` runs
//! the same way.

use std::io::{BufRead, BufReader, Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use clap::ValueEnum;
use serde::{Deserialize, Serialize};

use crate::workload::jsonl::schema::RecordSchemas;

use super::mutate::Kind;
use crate::alloc::{CAP_EXCEEDED, Capped};
use crate::benchmark::{DynCodec, Registered};
use crate::catalog::{self, WorkloadName, WorkloadTask};
use crate::format::Access;
use crate::input::Input;
use crate::sanitize::{elide, json_error};
use crate::workload::Workload;

pub const CASES_SCHEMA: &str = "shootout-robustness-cases/1";

/// What the worker writes once it is set up, before any case.
const READY: &str = "ready";

/// How long a worker may take to start and decode the clean records.
const SETUP_LIMIT: Duration = Duration::from_secs(60);

/// The cases of one format, and everything needed to decode them elsewhere
/// and later: docs/robustness-schema.md describes it.
#[derive(Debug, Serialize, Deserialize)]
pub struct CaseFile {
    pub schema: String,
    /// The workload's name, as `--workload` takes it.
    pub workload: String,
    pub format: String,
    /// The seed the cases were derived with.
    pub seed: u64,
    /// Where the records came from.
    pub source: String,
    pub time_limit_ms: u64,
    pub alloc_cap_bytes: u64,
    /// A `jsonl` or `csv` input's schemas, as the dataset hand-off writes
    /// them: the schema formats decode the cases with these.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record_schemas: Option<serde_json::Value>,
    /// The records the cases mutate, as the format encoded them.
    pub records: Vec<Record>,
    pub cases: Vec<Case>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    /// The record's position in the input (0-based operation).
    pub operation: u64,
    #[serde(with = "base64_bytes")]
    pub bytes: Vec<u8>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Case {
    /// The case's number in its format's run (the same for the same seed).
    pub id: usize,
    /// Index into the case file's records.
    pub record: usize,
    pub kind: Kind,
    pub description: String,
    #[serde(with = "base64_bytes")]
    pub bytes: Vec<u8>,
    /// In a reproducer: what the run found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found: Option<Outcome>,
}

/// What decoding one case did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// A clean error.
    Rejected,
    /// Accepted, with the original record's values and length: the mutation hit nothing meaningful.
    Same,
    /// Accepted, with other values (or another length): corruption passed as data.
    Silent,
    Panic,
    /// No answer within the time bound.
    Hang,
    /// Asked for more memory than the cap.
    AllocBomb,
    /// The worker died otherwise (a stack overflow, a signal).
    Crash,
}

impl Class {
    pub const ALL: [Class; 7] = [
        Class::Rejected,
        Class::Same,
        Class::Silent,
        Class::Panic,
        Class::Hang,
        Class::AllocBomb,
        Class::Crash,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Class::Rejected => "rejected",
            Class::Same => "same",
            Class::Silent => "silent",
            Class::Panic => "panic",
            Class::Hang => "hang",
            Class::AllocBomb => "alloc-bomb",
            Class::Crash => "crash",
        }
    }

    /// Whether a case of this class is a finding (saved as a reproducer).
    pub fn is_finding(self) -> bool {
        !matches!(self, Class::Rejected | Class::Same)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub class: Class,
    /// The error, the panic's message, the first differing value, or why the worker stopped.
    pub detail: String,
}

impl Outcome {
    fn new(class: Class, detail: impl Into<String>) -> Outcome {
        let mut detail: String = detail.into();
        // An error can quote the whole hostile input; the first line and a few hundred characters say enough.
        if let Some(end) = detail.find('\n') {
            detail.truncate(end);
        }
        if let Some((end, _)) = detail.char_indices().nth(300) {
            detail.truncate(end);
            detail.push('…');
        }
        Outcome { class, detail }
    }
}

/// One line of the worker's output after [`READY`].
#[derive(Serialize, Deserialize)]
struct Line {
    /// Index into the case file's cases.
    case: usize,
    #[serde(flatten)]
    outcome: Outcome,
}

mod base64_bytes {
    use super::{BASE64, Engine};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&BASE64.encode(bytes))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(deserializer)?;
        BASE64.decode(text).map_err(serde::de::Error::custom)
    }
}

impl CaseFile {
    pub fn read(path: &Path) -> Result<CaseFile> {
        let shown = path.display().to_string();
        let text =
            crate::input::source::read_whole(path, &shown, &crate::input::source::CASE_FILE)?;
        let file: CaseFile = serde_json::from_slice(&text).map_err(|e| {
            let problem = json_error(&e, "a robustness case file (reproducer)");
            anyhow::anyhow!("{shown}: {problem}")
        })?;
        if file.schema != CASES_SCHEMA {
            bail!(
                "{shown}: schema {}, expected {CASES_SCHEMA}",
                crate::sanitize::excerpt(&file.schema)
            );
        }
        if let Some(case) = file.cases.iter().find(|c| c.record >= file.records.len()) {
            bail!(
                "{}: case {} names record {} of {}",
                path.display(),
                case.id,
                case.record,
                file.records.len()
            );
        }
        Ok(file)
    }
}

/// Hands `task` the registry of the workload a case file names. Only the
/// registry is needed; dispatch builds an input too, which a one-record
/// generated one keeps cheap, and which is never read.
pub fn dispatch_for(path: &Path, file: &CaseFile, task: impl WorkloadTask) -> Result<()> {
    let data = catalog::Data {
        input: None,
        records: 1,
        presence: crate::workload::tabular::DEFAULT_PRESENCE,
        generated: crate::input::generate::Options { packets: 2, seed: 0 },
        column_types: Vec::new(),
        schema: None,
        record_schemas: match &file.record_schemas {
            Some(handoff) => Some(
                RecordSchemas::from_handoff(handoff)
                    .map_err(|e| anyhow::anyhow!("{}: record_schemas: {e}", path.display()))?,
            ),
            None => None,
        },
    };
    let workload = WorkloadName::from_str(&file.workload, false).map_err(|_| {
        anyhow::anyhow!("{}: unknown workload {}", path.display(), elide(&file.workload))
    })?;
    catalog::dispatch(workload, &data, task)
}

/// The registered format whose decoder a case file's bytes go to. A decoder
/// that skips validation (UNCHECKED) reads only bytes its own process wrote:
/// a case file's come from outside, and hostile bytes would be undefined
/// behaviour in it, not a finding. Its validated sibling (the same library)
/// is named as the one to replay them with.
pub fn decoder_for<'a, W: Workload>(
    formats: &'a [Registered<W>],
    file: &CaseFile,
    path: &Path,
) -> Result<&'a Registered<W>> {
    let registered = formats.iter().find(|f| f.info.name == file.format).with_context(|| {
        format!("{}: no format {} on workload {}", path.display(), elide(&file.format), W::NAME)
    })?;
    if matches!(registered.labels.access, Access::Unchecked) {
        let sibling = formats
            .iter()
            .find(|f| {
                f.info.library == registered.info.library
                    && matches!(f.labels.access, Access::Validated)
            })
            .map_or_else(String::new, |f| {
                format!(" (its validated sibling {} can replay them)", f.info.name)
            });
        bail!(
            "{}: {} skips validation (UNCHECKED) and reads only bytes its own process wrote; a case file's bytes \
             come from outside, where they would be undefined behaviour, not a finding{sibling}",
            path.display(),
            file.format
        );
    }
    Ok(registered)
}

/// `shootout robustness --worker FILE --worker-start K`: decodes cases K.. of FILE.
pub fn work(path: &Path, start: usize) -> Result<()> {
    let file = CaseFile::read(path)?;
    dispatch_for(path, &file, Worker { path, file: &file, start })
}

struct Worker<'a> {
    path: &'a Path,
    file: &'a CaseFile,
    start: usize,
}

impl WorkloadTask for Worker<'_> {
    fn on<W: Workload>(self, _input: &dyn Input<W>, formats: Vec<Registered<W>>) -> Result<()>
    where
        W::Record: Clone + Serialize,
    {
        let file = self.file;
        // Checked here as well as before a replay: a worker may be started by hand.
        let registered = decoder_for(&formats, file, self.path)?;
        let codec = || {
            registered
                .codec()
                .with_context(|| format!("{} does not run on {}", file.format, W::NAME))
        };
        let mut references = Vec::new();
        for (i, record) in file.records.iter().enumerate() {
            let mut sink = W::new_sink(&W::Aggregate::default());
            let used = codec()?
                .decode(&record.bytes, &mut sink)
                .with_context(|| format!("{}: record {i} does not decode", file.format))?;
            references.push((W::finish(sink), used));
        }
        let cap = usize::try_from(file.alloc_cap_bytes).context("allocation cap")?;
        // Caught panics are outcomes: their messages go to the results, not to stderr.
        std::panic::set_hook(Box::new(|_| {}));
        let mut out = std::io::stdout().lock();
        writeln!(out, "{READY}")?;
        out.flush()?;
        for (index, case) in file.cases.iter().enumerate().skip(self.start) {
            let (reference, used) = &references[case.record];
            let mut codec = codec()?;
            let mut sink = W::new_sink(reference);
            let outcome = {
                let _cap = Capped::start(cap);
                classify::<W>(codec.as_mut(), &case.bytes, &mut sink, reference, *used)
            };
            serde_json::to_writer(&mut out, &Line { case: index, outcome })?;
            writeln!(out)?;
            out.flush()?;
        }
        Ok(())
    }
}

/// Decodes `bytes` and compares what it yields with the clean record's values and length.
fn classify<W: Workload>(
    codec: &mut dyn DynCodec<W>,
    bytes: &[u8],
    sink: &mut W::Sink,
    reference: &W::Aggregate,
    original_used: usize,
) -> Outcome {
    let decoded = catch_unwind(AssertUnwindSafe(|| {
        let used = codec.decode(bytes, sink)?;
        let aggregate = W::finish(std::mem::replace(sink, W::new_sink(reference)));
        anyhow::Ok((used, W::first_difference(reference, &aggregate)))
    }));
    match decoded {
        Err(payload) => Outcome::new(Class::Panic, crate::caught::message(payload.as_ref())),
        Ok(Err(error)) => Outcome::new(Class::Rejected, format!("{error:#}")),
        Ok(Ok((used, _))) if used == 0 || used > bytes.len() => {
            Outcome::new(Class::Silent, format!("reported {used} bytes used of {}", bytes.len()))
        }
        Ok(Ok((_, Some(difference)))) => Outcome::new(Class::Silent, difference),
        Ok(Ok((used, None))) if used != original_used => Outcome::new(
            Class::Silent,
            format!("the record's values, but {used} bytes used where it has {original_used}"),
        ),
        Ok(Ok((_, None))) => Outcome::new(Class::Same, ""),
    }
}

/// Runs every case of the case file at `path` (which holds `count`) in worker
/// processes, a new one after each that dies or hangs, and returns each case's
/// outcome in order.
pub fn run_cases(path: &Path, count: usize, time_limit: Duration) -> Result<Vec<Outcome>> {
    let mut outcomes = Vec::with_capacity(count);
    while outcomes.len() < count {
        let mut worker = Process::start(path, outcomes.len())?;
        loop {
            match worker.next(time_limit) {
                Next::Line(line) => {
                    if line.case != outcomes.len() {
                        bail!(
                            "the worker answered case {} where {} was due",
                            line.case,
                            outcomes.len()
                        );
                    }
                    outcomes.push(line.outcome);
                }
                Next::Silence => {
                    outcomes.push(Outcome::new(
                        Class::Hang,
                        format!("no answer within {} ms", time_limit.as_millis()),
                    ));
                    break;
                }
                Next::Ended => {
                    let (status, stderr) = worker.end()?;
                    outcomes.push(died(status, &stderr));
                    break;
                }
            }
            if outcomes.len() == count {
                break;
            }
        }
    }
    Ok(outcomes)
}

/// Why a worker that stopped mid-case stopped.
fn died(status: ExitStatus, stderr: &str) -> Outcome {
    if let Some(line) = stderr.lines().find(|l| l.contains(CAP_EXCEEDED)) {
        return Outcome::new(Class::AllocBomb, line);
    }
    let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
    Outcome::new(
        Class::Crash,
        match last {
            Some(line) => format!("{status}: {line}"),
            None => status.to_string(),
        },
    )
}

enum Next {
    Line(Line),
    /// Nothing within the time bound.
    Silence,
    /// The worker's output ended before its next line.
    Ended,
}

/// A running worker, its output read by threads so the parent can wait with a timeout.
struct Process {
    child: Child,
    lines: Receiver<std::io::Result<String>>,
    stderr: Option<JoinHandle<String>>,
}

impl Process {
    fn start(path: &Path, start: usize) -> Result<Process> {
        let exe = std::env::current_exe().context("cannot find the shootout executable")?;
        let mut child = Command::new(exe)
            .arg("robustness")
            .arg("--worker")
            .arg(path)
            .arg("--worker-start")
            .arg(start.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .context("cannot start a robustness worker")?;
        let stdout = child.stdout.take().expect("piped");
        let mut stderr = child.stderr.take().expect("piped");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || forward_lines(stdout, send));
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let mut process = Process { child, lines, stderr: Some(stderr) };
        match process.lines.recv_timeout(SETUP_LIMIT) {
            Ok(Ok(line)) if line == READY => Ok(process),
            Err(RecvTimeoutError::Timeout) => {
                bail!("a robustness worker did not start within {SETUP_LIMIT:?}")
            }
            _ => {
                let (status, stderr) = process.end()?;
                bail!("a robustness worker could not start ({status}): {}", stderr.trim())
            }
        }
    }

    fn next(&mut self, limit: Duration) -> Next {
        match self.lines.recv_timeout(limit) {
            Ok(Ok(text)) => match serde_json::from_str(&text) {
                Ok(line) => Next::Line(line),
                // Not a line of ours: the worker is past trusting.
                Err(_) => Next::Ended,
            },
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => Next::Ended,
            Err(RecvTimeoutError::Timeout) => Next::Silence,
        }
    }

    /// Waits for the worker to exit (killing it if it has not) and returns its status and stderr.
    fn end(&mut self) -> Result<(ExitStatus, String)> {
        let status = match self.child.try_wait()? {
            Some(status) => status,
            None => {
                // Its output has ended or gone quiet: give it a moment to exit on its own.
                std::thread::sleep(Duration::from_millis(50));
                match self.child.try_wait()? {
                    Some(status) => status,
                    None => {
                        let _ = self.child.kill();
                        self.child.wait()?
                    }
                }
            }
        };
        let stderr =
            self.stderr.take().map(|thread| thread.join().unwrap_or_default()).unwrap_or_default();
        Ok((status, stderr))
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn forward_lines(stdout: ChildStdout, send: mpsc::Sender<std::io::Result<String>>) {
    for line in BufReader::new(stdout).lines() {
        if send.send(line).is_err() {
            return;
        }
    }
}
