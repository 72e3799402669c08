//! Results shown together: one or more runners' documents on the same
//! records as one [`Merged`] set of rows, with what the terminal and the
//! exports say about the whole (rows short of their precision, the noise floor).

use anyhow::{Result, bail};

use crate::document::{
    Calibration, Direction, FailedFormat, FormatResult, NotRun, Relative, Results,
};
use crate::format::features;
use crate::stats::Interval;

/// A format and direction whose ns/op is less precise than the run asked
/// (`--precision`): its confidence interval is wider than the target.
pub struct Imprecise {
    pub format: String,
    pub direction: &'static str,
    /// The half-width reached, over the median (none from a single run).
    pub precision: Option<f64>,
}

impl Imprecise {
    pub fn find(formats: &[FormatResult], target: f64) -> Vec<Imprecise> {
        let mut missed = Vec::new();
        for format in formats {
            for (direction, d) in [("encode", &format.encode), ("decode", &format.decode)] {
                if d.summary.precision.is_none_or(|p| p > target) {
                    missed.push(Imprecise {
                        format: format.name.clone(),
                        direction,
                        precision: d.summary.precision,
                    });
                }
            }
        }
        missed
    }

    /// The one line for all of them: how many, the worst, and where the rest is.
    pub fn summary(missed: &[Imprecise], rows: usize, target: f64) -> Option<String> {
        let worst = missed.iter().max_by(|a, b| {
            let key = |m: &Imprecise| m.precision.unwrap_or(f64::INFINITY);
            key(a).total_cmp(&key(b))
        })?;
        let reached = match worst.precision {
            Some(p) => format!("±{:.1}%", 100.0 * p),
            None => "one run, no interval".to_owned(),
        };
        Some(format!(
            "{} of {rows} rows missed the ±{:.1}% precision target (worst: {} {} {reached}; marked ! in the ±cost column); \
             more processes (a longer --time-per-format, or --min-processes) or a quieter machine would tighten them",
            missed.len(),
            100.0 * target,
            worst.format,
            worst.direction,
        ))
    }
}

/// Rows that run the very same code, measured as two formats: a checked and
/// an unchecked decoder sharing one encoder. Whatever separates the two is
/// the run's own noise, a floor under every difference between formats
/// (`catalog::registry`'s tests check that each pair writes the same bytes).
pub const CANARIES: [(&str, &str, &str); 2] =
    [("flatbuffers", "flatbuffers-unchecked", "encode"), ("rkyv", "rkyv-unchecked", "encode")];

/// One canary pair as measured: the second's median ns/op over the first's,
/// with its 95 % interval, paired round by round.
pub struct Canary {
    pub language: String,
    pub pair: (&'static str, &'static str),
    pub direction: &'static str,
    pub ratio: f64,
    pub interval: Interval,
}

impl Canary {
    fn find(part: &Results) -> Vec<Canary> {
        let find = |name: &str, direction: &str| {
            let format = part.formats.iter().find(|f| f.name == name)?;
            Some(match direction {
                "encode" => &format.encode,
                _ => &format.decode,
            })
        };
        CANARIES
            .iter()
            .filter_map(|&(a, b, direction)| {
                let (first, second) = (find(a, direction)?, find(b, direction)?);
                let median = |d: &Direction| d.summary.ns_per_op.median;
                Some(Canary {
                    language: part.runner.language.clone(),
                    pair: (a, b),
                    direction,
                    ratio: median(second) / median(first).max(f64::MIN_POSITIVE),
                    interval: second.ratio_to(first).interval,
                })
            })
            .collect()
    }

    /// The preamble's line, when the run measured a pair.
    pub fn line(canaries: &[Canary]) -> Option<String> {
        let shown: Vec<String> = canaries
            .iter()
            .map(|c| {
                format!(
                    "{}{} vs {} {} {:+.1}% ({:+.1} to {:+.1})",
                    if canaries.iter().any(|o| o.language != c.language) {
                        format!("{} ", c.language)
                    } else {
                        String::new()
                    },
                    c.pair.0,
                    c.pair.1,
                    c.direction,
                    100.0 * (c.ratio - 1.0),
                    100.0 * (c.interval.low - 1.0),
                    100.0 * (c.interval.high - 1.0)
                )
            })
            .collect();
        (!shown.is_empty()).then(|| {
            format!(
                "noise floor (the same code measured as two rows): {}; differences between formats smaller than \
                 this are the run's, not the formats'",
                shown.join(", ")
            )
        })
    }
}

/// One or more runners' results on the same records, shown as one set of
/// tables: every format of every language, with `relative` against the
/// fastest format of them all (the runners ran one after another on the same
/// machine and the same records, so their figures compare).
pub struct Merged {
    pub parts: Vec<Results>,
    pub rows: Vec<Row>,
    /// Matrices `report --attach` adds to the HTML page (interop, evolution, robustness).
    pub attachments: Vec<serde_json::Value>,
}

/// A measured format and the language of the runner that measured it.
pub struct Row {
    pub language: String,
    /// The clock that runner timed latency samples with: it decides which figures are flagged.
    pub timer: Calibration,
    /// The precision that runner's run aimed for (`--precision`): rows short of it are marked.
    pub precision_target: f64,
    /// The format as its runner measured it, its `relative` against the
    /// fastest format of the whole set (its runner's document keeps its own).
    pub format: FormatResult,
}

impl Merged {
    pub fn new(parts: Vec<Results>) -> Result<Merged> {
        let Some(first) = parts.first() else { bail!("no results to show") };
        for other in &parts[1..] {
            let (a, b) = (&first.workload, &other.workload);
            if a.name != b.name || a.records != b.records {
                bail!(
                    "the {} runner measured {} records of {}, the {} runner {} records of {}: not the same data",
                    first.runner.language,
                    a.records,
                    a.name,
                    other.runner.language,
                    b.records,
                    b.name
                );
            }
        }
        let (runner, mut formats): (Vec<usize>, Vec<FormatResult>) = parts
            .iter()
            .enumerate()
            .flat_map(|(i, p)| p.formats.iter().map(move |f| (i, f.clone())))
            .unzip();
        Relative::against_fastest(&mut formats, &runner);
        // Runners in other languages name the family but carry no feature row:
        // the one feature matrix answers for every language's formats.
        for format in formats.iter_mut().filter(|f| f.features.is_null()) {
            if let Some(row) = features::of_family(&format.family) {
                format.features = serde_json::to_value(row).expect("a feature row serializes");
            }
        }
        let rows = runner
            .into_iter()
            .zip(formats)
            .map(|(i, format)| Row {
                language: parts[i].runner.language.clone(),
                timer: parts[i].timer.clone(),
                precision_target: parts[i].settings.precision,
                format,
            })
            .collect();
        Ok(Merged { parts, rows, attachments: Vec::new() })
    }

    /// The set holds results of more than one language, so tables name each row's.
    pub fn several_languages(&self) -> bool {
        self.parts.iter().any(|p| p.runner.language != self.parts[0].runner.language)
    }

    /// The first runner's results: the workload and settings every part shares.
    pub fn first(&self) -> &Results {
        &self.parts[0]
    }

    /// Every part's warnings, prefixed with its language when there are several.
    pub fn warnings(&self) -> Vec<String> {
        let several = self.several_languages();
        self.parts
            .iter()
            .flat_map(|p| {
                p.warnings.iter().map(move |w| match several {
                    true => format!("{}: {w}", p.runner.language),
                    false => w.clone(),
                })
            })
            .collect()
    }

    /// Every row whose ns/op missed its run's precision target, format names
    /// carrying their language when there are several, and the one line saying so.
    pub fn imprecise(&self) -> Option<String> {
        let several = self.several_languages();
        let missed: Vec<Imprecise> = self
            .parts
            .iter()
            .flat_map(|p| {
                Imprecise::find(&p.formats, p.settings.precision).into_iter().map(move |n| {
                    Imprecise {
                        format: match several {
                            true => format!("{} {}", p.runner.language, n.format),
                            false => n.format,
                        },
                        ..n
                    }
                })
            })
            .collect();
        Imprecise::summary(&missed, 2 * self.rows.len(), self.first().settings.precision)
    }

    /// Every part's canary pairs.
    pub fn canaries(&self) -> Vec<Canary> {
        self.parts.iter().flat_map(Canary::find).collect()
    }

    /// Failed and not-run formats of every part, as (language, …) pairs.
    pub fn failed(&self) -> impl Iterator<Item = (&str, &FailedFormat)> {
        self.parts
            .iter()
            .flat_map(|p| p.failed.iter().map(move |f| (p.runner.language.as_str(), f)))
    }

    pub fn not_run(&self) -> impl Iterator<Item = (&str, &NotRun)> {
        self.parts
            .iter()
            .flat_map(|p| p.not_run.iter().map(move |n| (p.runner.language.as_str(), n)))
    }
}

/// Why a measured format's library is unmaintained: its `unmaintained`
/// label, or, for a Rust format of a results file written before that label
/// was recorded, the label of the registry's row of the same name.
pub fn unmaintained(f: &FormatResult, language: Option<&str>) -> Option<String> {
    match f.labels.get("unmaintained").and_then(serde_json::Value::as_str) {
        Some(why) => Some(why.to_owned()),
        None if language == Some("rust") => crate::catalog::registry::formats()
            .into_iter()
            .find(|info| info.name == f.name)
            .and_then(|info| info.labels.unmaintained)
            .map(str::to_owned),
        None => None,
    }
}
