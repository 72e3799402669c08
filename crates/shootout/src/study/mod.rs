//! `shootout study`: the four published studies shootout exists because of,
//! each reproduced as its document describes it (spec/studies/ holds their
//! published figures), its figures set beside ours, its conclusions checked
//! one line each, and every departure listed. A study in Rust is measured
//! here; one in Go or Java by that language's runner (`--study NAME`), which
//! answers with the same figures file.

mod decide;
mod figures;
mod go_flatbuffers_json;
mod iex2019;
mod ignite;
mod published;
mod render;
mod scala_logs;

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Result, bail};
use serde::Serialize;

use crate::environment::{Environment, load_average};
use crate::export::Target;
use crate::runners::Language;
pub use figures::Figures;
pub use published::Published;

/// What `shootout study` is asked.
#[derive(Debug, Clone)]
pub struct Options {
    pub input: Option<PathBuf>,
    /// Runs to average, where the study averaged runs; its own count when not given.
    pub runs: Option<usize>,
    /// Shorter measurement (the runners' own quick settings), for tests and a first look.
    pub quick: bool,
    /// The runner's log to the terminal as it measures (otherwise kept, and shown only on failure).
    pub verbose: bool,
    /// Checked before the measurement, so a bad export path fails first.
    pub exports: Vec<Target>,
}

/// Who measures a study.
enum Measure {
    /// This binary.
    Rust(fn(&Options) -> Result<Figures>),
    /// A runner, with `--study NAME`.
    Runner(Language),
}

type CheckFn = fn(&Published, &Figures) -> (Vec<Check>, Vec<Answer>);

struct Study {
    name: &'static str,
    summary: &'static str,
    /// `spec/studies/<name>.json`.
    published: &'static str,
    measure: Measure,
    /// Adds what Rust knows and the runner does not to the figures (e.g. the
    /// feature matrix's answer to a study's requirements), before the checks.
    complete: Option<fn(&Published, &mut Figures)>,
    check: CheckFn,
}

const STUDIES: &[Study] = &[
    Study {
        name: "iex-2019",
        summary: "Binary Format Shootout (2019): Cap'n Proto, FlatBuffers, SBE on IEX DEEP, per message (Rust; --input a DEEP capture)",
        published: include_str!("../../../../spec/studies/iex-2019.json"),
        measure: Measure::Rust(iex2019::measure),
        complete: None,
        check: iex2019::check,
    },
    Study {
        name: "go-flatbuffers-json",
        summary: "FlatBuffers against encoding/json in Go: the study's four go test -bench benchmarks on its records (Go runner)",
        published: include_str!("../../../../spec/studies/go-flatbuffers-json.json"),
        measure: Measure::Runner(Language::Go),
        complete: None,
        check: go_flatbuffers_json::check,
    },
    Study {
        name: "ignite-iep75",
        summary: "Apache Ignite IEP-75: MessagePack against Ignite's binary format in JMH (JVM runner; about 9 minutes)",
        published: include_str!("../../../../spec/studies/ignite-iep75.json"),
        measure: Measure::Runner(Language::Jvm),
        complete: Some(ignite::add_requirements),
        check: ignite::check,
    },
    Study {
        name: "scala-logs",
        summary: "Logs and queues: six formats' files on three 100,000-row CSV sets, sizes and whole-file times (JVM runner)",
        published: include_str!("../../../../spec/studies/scala-logs.json"),
        measure: Measure::Runner(Language::Jvm),
        complete: None,
        check: scala_logs::check,
    },
];

/// A stated conclusion of the study, checked against our figures.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub id: String,
    pub claim: String,
    pub verdict: Verdict,
    /// The figures that decide it.
    pub evidence: String,
}

impl Check {
    fn new(published: &Published, id: &str, verdict: Verdict, evidence: String) -> Check {
        Check { id: id.into(), claim: published.claim(id).into(), verdict, evidence }
    }
}

/// What the figures say of a claim. Reproduced and reversed are given only
/// where every comparison behind them is decided by its interval
/// (`decide`); a tie, an overlap or too few samples leave it not decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Our figures say what the study said.
    Reproduced,
    /// Our figures say the opposite.
    Reversed,
    /// Neither: it fails in part.
    NotReproduced,
    /// The figures do not decide it (the evidence says why): missing, tied,
    /// overlapping or too few.
    NotDecided,
}

impl Verdict {
    fn shown(self) -> &'static str {
        match self {
            Verdict::Reproduced => "reproduced",
            Verdict::Reversed => "reversed",
            Verdict::NotReproduced => "not reproduced",
            Verdict::NotDecided => "not decided",
        }
    }
}

/// What each verdict means, printed under the checks.
const VERDICTS_MEANING: &str = "reproduced: our figures say what the study said, every comparison decided by its interval; \
     reversed: they say the opposite, as decided; not reproduced: it fails in part; \
     not decided: a tie, an overlap of intervals, too few samples or a missing figure (the evidence says which)";

/// Every conclusion of the study not decided, for `why`.
fn not_decided(published: &Published, why: &str) -> Vec<Check> {
    published
        .conclusions
        .iter()
        .map(|c| Check::new(published, &c.id, Verdict::NotDecided, why.into()))
        .collect()
}

/// A question the study left open, answered from our figures.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    pub id: String,
    pub question: String,
    pub answer: String,
}

/// Everything one `shootout study NAME` found: the export's document.
#[derive(Serialize)]
pub struct Outcome {
    pub schema: &'static str,
    pub study: String,
    pub command: Vec<String>,
    /// The machine the command ran on; its `date` is when the command started.
    pub environment: Environment,
    /// /proc/loadavg (1, 5, 15 min) just before measuring (after any build
    /// of the runner) and after.
    pub load_before: Option<[f64; 3]>,
    pub load_after: Option<[f64; 3]>,
    pub published: Published,
    pub figures: Figures,
    pub checks: Vec<Check>,
    /// What each verdict means.
    pub verdicts: &'static str,
    pub answers: Vec<Answer>,
}

pub const RESULT_SCHEMA: &str = "shootout-study-result/1";

pub fn list(out: &mut dyn Write) -> io::Result<()> {
    for study in STUDIES {
        writeln!(out, "{:<20} {}", study.name, study.summary)?;
    }
    Ok(())
}

pub fn study(name: &str, options: Options) -> Result<()> {
    let Some(study) = STUDIES.iter().find(|s| s.name == name) else {
        let names: Vec<&str> = STUDIES.iter().map(|s| s.name).collect();
        bail!("unknown study '{name}'; studies: {} (shootout study --list)", names.join(", "));
    };
    let published = Published::parse(study.name, study.published)?;
    let environment = Environment::capture();
    let (load_before, mut figures) = match &study.measure {
        Measure::Rust(measure) => (load_average(), measure(&options)?),
        Measure::Runner(language) => {
            if let Some(path) = &options.input {
                bail!(
                    "study {name} generates its data as the study did; it takes no --input ({})",
                    path.display()
                );
            }
            if options.runs.is_some() {
                bail!(
                    "study {name} runs as many times as its runner's method says; it takes no --runs (--quick shortens it)"
                );
            }
            let external = language.external().expect("a runner language");
            let folder = external.build()?;
            if !options.verbose {
                eprintln!(
                    "study {name}: measuring in the {} runner (its log: --verbose)",
                    published.language
                );
            }
            (load_average(), external.study(&folder, study.name, options.quick, options.verbose)?)
        }
    };
    let load_after = load_average();
    if figures.schema != figures::SCHEMA || figures.study != study.name {
        bail!(
            "the {} study's figures are {} of study {}, expected {} of {}",
            published.language,
            figures.schema,
            figures.study,
            figures::SCHEMA,
            study.name
        );
    }
    if let Some(complete) = study.complete {
        complete(&published, &mut figures);
    }
    let (checks, answers) = (study.check)(&published, &figures);
    let outcome = Outcome {
        schema: RESULT_SCHEMA,
        study: study.name.into(),
        command: std::env::args().collect(),
        environment,
        load_before,
        load_after,
        published,
        figures,
        checks,
        verdicts: VERDICTS_MEANING,
        answers,
    };
    if !options.exports.iter().any(Target::is_stdout) {
        render::write(&outcome, &mut io::stdout().lock())?;
    }
    for target in &options.exports {
        target.write_document(&outcome)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file of spec/studies/ parses, names a study `study` runs, puts
    /// every value in a column, and says how the document prints its figures.
    #[test]
    fn every_published_file_parses_and_belongs_to_a_study() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/studies");
        let mut names = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
            let published =
                Published::parse(&name, &std::fs::read_to_string(&path).unwrap()).unwrap();
            assert!(!published.tables.is_empty() && !published.conclusions.is_empty(), "{name}");
            for table in &published.tables {
                for row in &table.rows {
                    assert!(row.runs.is_empty(), "{name}: a published row has no runs");
                    for (key, value) in &row.values {
                        let column = table
                            .columns
                            .iter()
                            .find(|c| &c.key == key || c.error.as_ref() == Some(key));
                        assert!(
                            column.is_some(),
                            "{name}: {} row {} has a value for no column: {key}",
                            table.id,
                            row.label
                        );
                        // A figure is shown with the document's own decimals.
                        assert!(
                            !value.is_number() || column.unwrap().decimals.is_some(),
                            "{name}: {} column {key} has figures but no decimals",
                            table.id
                        );
                    }
                }
            }
            names.push(name);
        }
        names.sort();
        let mut known: Vec<String> = STUDIES.iter().map(|s| s.name.to_owned()).collect();
        known.sort();
        assert_eq!(names, known);
        for study in STUDIES {
            Published::parse(study.name, study.published).unwrap();
        }
    }
}
