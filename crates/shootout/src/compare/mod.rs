//! `shootout compare OLD NEW`: how each format's figures changed between two
//! results files, with a Mann-Whitney U verdict on the per-run timings, the
//! differences of the two environments, and `--fail-above` for CI.

pub mod mann_whitney;
mod render;

use std::io::{self, Write};
use std::path::Path;

use anyhow::{Result, bail};
use serde::Serialize;

use crate::results::{Direction, FormatResult, Results};

pub const SCHEMA: &str = "shootout-compare/1";

pub const METHOD: &str = "two-sided Mann-Whitney U test on the per-run values (exact distribution up to 20 runs a side without ties, \
     else normal approximation with tie correction)";

/// Some figure got significantly slower by more than `--fail-above`: exit status 4.
#[derive(Debug)]
pub struct Regressed(pub Vec<String>);

impl std::fmt::Display for Regressed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "significantly slower beyond --fail-above: {}",
            self.0.join(", ")
        )
    }
}

impl std::error::Error for Regressed {}

#[derive(Clone, Copy)]
pub enum Output {
    Terminal,
    Markdown,
    Json,
}

/// The whole comparison, as `--json` writes it (docs/compare-schema.md).
#[derive(Serialize)]
pub struct Comparison {
    pub schema: &'static str,
    pub method: &'static str,
    pub alpha: f64,
    pub old: Side,
    pub new: Side,
    /// One line per environment key or library version that differs.
    pub environment: Vec<String>,
    pub changes: Vec<Change>,
    /// Formats only NEW has, and only OLD has.
    pub added: Vec<Named>,
    pub removed: Vec<Named>,
    pub fail_above_pct: Option<f64>,
    /// The figures beyond `--fail-above` (empty without it).
    pub regressions: Vec<String>,
}

#[derive(Serialize)]
pub struct Side {
    pub file: String,
    pub workload: String,
    pub records: u64,
}

#[derive(Serialize, PartialEq)]
pub struct Named {
    pub language: String,
    pub format: String,
}

/// One format and direction present in both files.
#[derive(Serialize)]
pub struct Change {
    pub language: String,
    pub format: String,
    pub direction: &'static str,
    pub ns_per_op: Figure,
    pub p50_ns: Figure,
    pub p99_ns: Figure,
    pub p999_ns: Figure,
    pub bytes_per_record: Figure,
    pub allocations_per_op: Figure,
}

#[derive(Serialize)]
pub struct Figure {
    /// The median across runs (as-is for the deterministic figures); null when a file has none.
    pub old: Option<f64>,
    pub new: Option<f64>,
    /// (new − old) / old, in percent.
    pub change_pct: Option<f64>,
    pub verdict: Verdict,
    /// Of the Mann-Whitney test; null for deterministic figures.
    pub p_value: Option<f64>,
    pub runs: Option<[usize; 2]>,
}

#[derive(Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Slower,
    Faster,
    /// Not significant at alpha.
    NotSignificant,
    /// Too few runs on a side for any change to reach significance at alpha.
    TooFewRuns,
    /// A figure without run-to-run noise (bytes, allocation counts): the change is as measured.
    Deterministic,
    /// A file does not have the figure (e.g. no allocation counts).
    Missing,
}

pub fn compare(
    old_path: &Path,
    new_path: &Path,
    alpha: f64,
    fail_above_pct: Option<f64>,
    output: Output,
) -> Result<()> {
    let old = crate::saved::read(old_path)?;
    let new = crate::saved::read(new_path)?;
    let (old_side, new_side) = (side(old_path, &old)?, side(new_path, &new)?);
    if old_side.workload != new_side.workload {
        bail!(
            "{} measured {}, {} measured {}: different workloads do not compare",
            old_side.file,
            old_side.workload,
            new_side.file,
            new_side.workload
        );
    }
    let mut comparison = Comparison {
        schema: SCHEMA,
        method: METHOD,
        alpha,
        environment: environment_differences(&old, &new),
        changes: Vec::new(),
        added: named(&new, &old),
        removed: named(&old, &new),
        fail_above_pct,
        regressions: Vec::new(),
        old: old_side,
        new: new_side,
    };
    if comparison.old.records != comparison.new.records {
        comparison.environment.push(format!(
            "records: {} → {} (per-op figures still compare; totals do not)",
            comparison.old.records, comparison.new.records
        ));
    }
    for (language, before, after) in pairs(&old, &new) {
        for (direction, d_old, d_new) in [
            ("encode", &before.encode, &after.encode),
            ("decode", &before.decode, &after.decode),
        ] {
            comparison.changes.push(Change {
                language: language.to_owned(),
                format: before.name.clone(),
                direction,
                ns_per_op: timing(d_old, d_new, alpha, |r| r.ns_per_op),
                p50_ns: timing(d_old, d_new, alpha, |r| r.p50_ns as f64),
                p99_ns: timing(d_old, d_new, alpha, |r| r.p99_ns as f64),
                p999_ns: timing(d_old, d_new, alpha, |r| r.p999_ns as f64),
                bytes_per_record: deterministic(
                    Some(before.bytes_per_record),
                    Some(after.bytes_per_record),
                ),
                allocations_per_op: deterministic(
                    d_old.summary.allocations_per_op.map(|s| s.median),
                    d_new.summary.allocations_per_op.map(|s| s.median),
                ),
            });
        }
    }
    if let Some(limit) = fail_above_pct {
        comparison.regressions = regressions(&comparison.changes, limit);
    }
    let mut out = io::stdout().lock();
    match output {
        Output::Json => {
            serde_json::to_writer_pretty(&mut out, &comparison)?;
            writeln!(out)?;
        }
        Output::Markdown => render::markdown(&comparison, &mut out)?,
        Output::Terminal => {
            crate::output::print_warnings(&comparison.environment);
            render::terminal(&comparison, &mut out)?;
        }
    }
    match comparison.regressions.is_empty() {
        true => Ok(()),
        false => Err(Regressed(comparison.regressions).into()),
    }
}

/// The workload of a file; every part of a set shares it.
fn side(path: &Path, parts: &[Results]) -> Result<Side> {
    let file = path.display().to_string();
    let Some(first) = parts.first() else {
        bail!("{file}: a results set without results; expected at least one runner's");
    };
    let mut languages: Vec<&str> = parts.iter().map(|p| p.runner.language.as_str()).collect();
    languages.sort_unstable();
    if let Some(pair) = languages.windows(2).find(|w| w[0] == w[1]) {
        bail!(
            "{file}: holds {} results twice; compare takes one runner per language",
            pair[0]
        );
    }
    Ok(Side {
        file,
        workload: first.workload.name.clone(),
        records: first.workload.records,
    })
}

/// Each measured format (not the baseline) of every part, with its language.
fn formats(parts: &[Results]) -> impl Iterator<Item = (&str, &FormatResult)> {
    parts.iter().flat_map(|p| {
        p.formats
            .iter()
            .filter(|f| !f.baseline)
            .map(move |f| (p.runner.language.as_str(), f))
    })
}

/// The formats of `a` that `b` lacks.
fn named(a: &[Results], b: &[Results]) -> Vec<Named> {
    formats(a)
        .filter(|(language, f)| !formats(b).any(|(l, g)| l == *language && g.name == f.name))
        .map(|(language, f)| Named {
            language: language.to_owned(),
            format: f.name.clone(),
        })
        .collect()
}

fn pairs<'a>(
    old: &'a [Results],
    new: &'a [Results],
) -> impl Iterator<Item = (&'a str, &'a FormatResult, &'a FormatResult)> {
    formats(old).filter_map(move |(language, before)| {
        formats(new)
            .find(|(l, f)| *l == language && f.name == before.name)
            .map(|(_, after)| (language, before, after))
    })
}

fn median(mut values: Vec<f64>) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2]),
        _ => Some((values[n / 2 - 1] + values[n / 2]) / 2.0),
    }
}

fn change_pct(old: Option<f64>, new: Option<f64>) -> Option<f64> {
    match (old, new) {
        (Some(old), Some(new)) if old != 0.0 => Some(100.0 * (new - old) / old),
        (Some(_), Some(0.0)) => Some(0.0),
        _ => None,
    }
}

/// A timing figure: medians of the per-run values and the test's verdict on them.
fn timing(
    old: &Direction,
    new: &Direction,
    alpha: f64,
    pick: fn(&crate::benchmark::stats::RunStats) -> f64,
) -> Figure {
    let a: Vec<f64> = old.runs.iter().map(|r| pick(&r.stats)).collect();
    let b: Vec<f64> = new.runs.iter().map(|r| pick(&r.stats)).collect();
    let (old_median, new_median) = (median(a.clone()), median(b.clone()));
    let change = change_pct(old_median, new_median);
    let (verdict, p_value) = if mann_whitney::smallest_p(a.len(), b.len()) >= alpha {
        (Verdict::TooFewRuns, None)
    } else {
        let p = mann_whitney::p_value(&a, &b);
        let verdict = match (p < alpha, change) {
            (false, _) | (true, None) => Verdict::NotSignificant,
            (true, Some(c)) if c > 0.0 => Verdict::Slower,
            (true, Some(_)) => Verdict::Faster,
        };
        (verdict, Some(p))
    };
    Figure {
        old: old_median,
        new: new_median,
        change_pct: change,
        verdict,
        p_value,
        runs: Some([a.len(), b.len()]),
    }
}

fn deterministic(old: Option<f64>, new: Option<f64>) -> Figure {
    Figure {
        old,
        new,
        change_pct: change_pct(old, new),
        verdict: match (old, new) {
            (Some(_), Some(_)) => Verdict::Deterministic,
            _ => Verdict::Missing,
        },
        p_value: None,
        runs: None,
    }
}

/// ns/op or p99 figures significantly slower by more than `limit` percent.
fn regressions(changes: &[Change], limit: f64) -> Vec<String> {
    changes
        .iter()
        .flat_map(|c| {
            [("ns/op", &c.ns_per_op), ("p99", &c.p99_ns)]
                .into_iter()
                .filter(|(_, f)| {
                    f.verdict == Verdict::Slower && f.change_pct.is_some_and(|p| p > limit)
                })
                .map(move |(name, f)| {
                    format!(
                        "{} {} {} {name} {:+.1}%",
                        c.language,
                        c.format,
                        c.direction,
                        f.change_pct.unwrap_or_default()
                    )
                })
        })
        .collect()
}

/// The environment keys every runner writes (docs/results-schema.md) that
/// decide the figures, and each format's library version: one line per
/// difference, for each language in both files.
fn environment_differences(old: &[Results], new: &[Results]) -> Vec<String> {
    const KEYS: [&str; 9] = [
        "cpu",
        "cores",
        "os",
        "toolchain",
        "shootout_version",
        "git_commit",
        "build_profile",
        "opt_level",
        "rustflags",
    ];
    let mut lines = Vec::new();
    for before in old {
        let language = &before.runner.language;
        let Some(after) = new.iter().find(|p| &p.runner.language == language) else {
            continue;
        };
        for key in KEYS {
            let (a, b) = (before.environment.get(key), after.environment.get(key));
            if let (Some(a), Some(b)) = (a, b)
                && a != b
            {
                lines.push(format!(
                    "{language} environment differs: {key} {} → {}",
                    before.environment_text(key),
                    after.environment_text(key)
                ));
            }
        }
    }
    for (language, before, after) in pairs(old, new) {
        if before.library_version != after.library_version {
            lines.push(format!(
                "{language} {}: library {} {} → {}",
                before.name, before.library, before.library_version, after.library_version
            ));
        }
    }
    lines
}
