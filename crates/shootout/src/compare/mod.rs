//! `shootout compare OLD NEW`: how each format's figures changed between two
//! results files. Each timing cell (ns/op, p50, p99, p99.9 of a format and
//! direction) gets a Welch t-test on the logarithms of its per-process medians
//! (of its per-run values when a side was measured in one process), the p-values of
//! all of a comparison's cells are corrected together (Benjamini–Hochberg), and
//! a change is called only when it is significant after that correction and
//! its 95 % interval (Welch's) clears the smallest change separate invocations
//! can resolve (`--min-change`). Also: the differences of the two environments,
//! and `--fail-above` for CI.

mod render;
pub mod welch;

use std::io::{self, Write};
use std::path::Path;

use anyhow::{Result, bail};
use serde::Serialize;

use crate::document::{Direction, FormatResult, Results};
use crate::stats::{ByProcess, ratio_apart};

pub const SCHEMA: &str = "shootout-compare/1";

pub const METHOD: &str = "two-sided Welch t-test on the logarithms of the per-process medians \
     (per-run values when a side was measured in one process), \
     p-values of every timing cell corrected together by Benjamini-Hochberg; \
     a change is called when significant after correction and its Welch 95 % interval \
     (on the logarithms of both sides' per-process levels) lies wholly beyond --min-change";

/// Some figure got significantly slower by more than `--fail-above`: exit status 4.
#[derive(Debug)]
pub struct Regressed(pub Vec<String>);

impl std::fmt::Display for Regressed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "significantly slower beyond --fail-above: {}", self.0.join(", "))
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
    /// The smallest change called, in percent: one whose interval reaches inside ±this is `~`.
    pub min_change_pct: f64,
    /// How many timing cells were tested (and corrected for) together.
    pub cells_tested: usize,
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
    /// 95 % interval of that change (Welch's, over both sides' processes); null for deterministic figures.
    pub change_ci_pct: Option<[f64; 2]>,
    pub verdict: Verdict,
    /// Of the Welch test; null for deterministic figures and for a side of one run.
    pub p_value: Option<f64>,
    /// The p-value adjusted for every timing cell of the comparison (Benjamini–Hochberg).
    pub q_value: Option<f64>,
    pub runs: Option<[usize; 2]>,
    /// The processes that made those runs; the test's unit when both sides have two or more.
    pub processes: Option<[usize; 2]>,
}

#[derive(Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Slower,
    Faster,
    /// Not significant at alpha after correction, or a change whose interval
    /// reaches inside --min-change: below what these runs resolve.
    NotSignificant,
    /// Fewer than two runs on a side: no test.
    TooFewRuns,
    /// A figure without run-to-run noise (bytes, allocation counts): the change is as measured.
    Deterministic,
    /// A file does not have the figure (e.g. no allocation counts).
    Missing,
}

/// What `compare` is asked: its significance level, the smallest change it
/// calls, and the `--fail-above` limit.
#[derive(Clone, Copy)]
pub struct Thresholds {
    pub alpha: f64,
    pub min_change_pct: f64,
    pub fail_above_pct: Option<f64>,
}

pub fn compare(
    old_path: &Path,
    new_path: &Path,
    thresholds: Thresholds,
    output: Output,
) -> Result<()> {
    compare_on(old_path, new_path, thresholds, output, &mut io::stdout().lock())
}

/// [`compare`] written to `out` (warnings still go to stderr).
pub fn compare_on(
    old_path: &Path,
    new_path: &Path,
    thresholds: Thresholds,
    output: Output,
    out: &mut dyn Write,
) -> Result<()> {
    let Thresholds { alpha, min_change_pct, fail_above_pct } = thresholds;
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
        min_change_pct,
        cells_tested: 0,
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
        for (direction, d_old, d_new) in
            [("encode", &before.encode, &after.encode), ("decode", &before.decode, &after.decode)]
        {
            comparison.changes.push(Change {
                language: language.to_owned(),
                format: before.name.clone(),
                direction,
                ns_per_op: timing(d_old, d_new, |r| r.ns_per_op),
                p50_ns: timing(d_old, d_new, |r| r.p50_ns as f64),
                p99_ns: timing(d_old, d_new, |r| r.p99_ns as f64),
                p999_ns: timing(d_old, d_new, |r| r.p999_ns as f64),
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
    for (side, parts) in [(&comparison.old.file, &old), (&comparison.new.file, &new)] {
        if parts.iter().any(|p| p.runs.iter().all(|r| r.process == 0)) {
            comparison.environment.push(format!(
                "{side} was measured in one process (run --runs N): its runs leave out how processes differ, so a \
                 change called here may be the processes', not the code's"
            ));
        }
    }
    comparison.cells_tested = decide(&mut comparison.changes, alpha, min_change_pct);
    if let Some(limit) = fail_above_pct {
        comparison.regressions = regressions(&comparison.changes, limit);
    }
    match output {
        Output::Json => {
            // Names and environment values come from the results files: the same JSON, inert on a terminal.
            let text = serde_json::to_string_pretty(&comparison)?;
            writeln!(out, "{}", crate::sanitize::json(&text))?;
        }
        Output::Markdown => render::markdown(&comparison, out)?,
        Output::Terminal => {
            crate::output::print_warnings(&comparison.environment);
            render::terminal(&comparison, out)?;
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
        bail!("{file}: holds {} results twice; compare takes one runner per language", pair[0]);
    }
    Ok(Side { file, workload: first.workload.name.clone(), records: first.workload.records })
}

/// Each measured format (not the baseline) of every part, with its language.
fn formats(parts: &[Results]) -> impl Iterator<Item = (&str, &FormatResult)> {
    parts.iter().flat_map(|p| {
        p.formats.iter().filter(|f| !f.baseline).map(move |f| (p.runner.language.as_str(), f))
    })
}

/// The formats of `a` that `b` lacks.
fn named(a: &[Results], b: &[Results]) -> Vec<Named> {
    formats(a)
        .filter(|(language, f)| !formats(b).any(|(l, g)| l == *language && g.name == f.name))
        .map(|(language, f)| Named { language: language.to_owned(), format: f.name.clone() })
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

fn change_pct(old: Option<f64>, new: Option<f64>) -> Option<f64> {
    match (old, new) {
        (Some(old), Some(new)) if old != 0.0 => Some(100.0 * (new - old) / old),
        (Some(_), Some(0.0)) => Some(0.0),
        _ => None,
    }
}

/// A timing figure: medians of the per-run values, the change's interval and
/// the test's p-value; the verdict waits for every cell's ([`decide`]).
fn timing(old: &Direction, new: &Direction, pick: fn(&crate::document::RunStats) -> f64) -> Figure {
    timing_of(old.by_process(pick), new.by_process(pick))
}

/// Runs of one process share that process's layout and minutes, which the
/// next invocation does not: between invocations the process is the unit, so
/// the test takes each process's median whenever both sides have several.
fn timing_of(a: ByProcess, b: ByProcess) -> Figure {
    let (old_median, new_median) = (Some(a.median()), Some(b.median()));
    let interval = ratio_apart(&b, &a).interval;
    let p_value = match (a.processes(), b.processes()) {
        (2.., 2..) => welch::p_value(&a.process_medians(), &b.process_medians()),
        _ => welch::p_value(&a.values(), &b.values()),
    };
    Figure {
        old: old_median,
        new: new_median,
        change_pct: change_pct(old_median, new_median),
        change_ci_pct: Some([100.0 * (interval.low - 1.0), 100.0 * (interval.high - 1.0)]),
        verdict: Verdict::NotSignificant,
        p_value,
        q_value: None,
        runs: Some([a.runs(), b.runs()]),
        processes: Some([a.processes(), b.processes()]),
    }
}

/// Every timing cell's verdict: its p-value adjusted with every other cell's
/// (Benjamini–Hochberg, false discovery rate `alpha`), and a change called
/// only where the adjusted value is below `alpha` and the change's interval
/// lies wholly beyond ±`min_change_pct`. Returns how many cells were tested.
fn decide(changes: &mut [Change], alpha: f64, min_change_pct: f64) -> usize {
    let mut cells: Vec<&mut Figure> = changes
        .iter_mut()
        .flat_map(|c| [&mut c.ns_per_op, &mut c.p50_ns, &mut c.p99_ns, &mut c.p999_ns])
        .collect();
    for figure in cells.iter_mut().filter(|f| f.p_value.is_none()) {
        figure.verdict = Verdict::TooFewRuns;
    }
    cells.retain(|f| f.p_value.is_some());
    let p: Vec<f64> = cells.iter().filter_map(|f| f.p_value).collect();
    let q = benjamini_hochberg(&p);
    for (figure, q) in cells.iter_mut().zip(q) {
        figure.q_value = Some(q);
        let beyond = figure
            .change_ci_pct
            .is_some_and(|[low, high]| low > min_change_pct || high < -min_change_pct);
        figure.verdict = match figure.change_pct {
            Some(change) if q < alpha && beyond && change > 0.0 => Verdict::Slower,
            Some(change) if q < alpha && beyond && change < 0.0 => Verdict::Faster,
            _ => Verdict::NotSignificant,
        };
    }
    cells.len()
}

/// Benjamini–Hochberg adjusted p-values (q-values), in the order given.
fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let n = p.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut q = vec![1.0; n];
    let mut smallest = 1.0f64;
    for (rank, &i) in order.iter().enumerate().rev() {
        smallest = smallest.min(p[i] * n as f64 / (rank + 1) as f64);
        q[i] = smallest.min(1.0);
    }
    q
}

fn deterministic(old: Option<f64>, new: Option<f64>) -> Figure {
    Figure {
        old,
        new,
        change_pct: change_pct(old, new),
        change_ci_pct: None,
        verdict: match (old, new) {
            (Some(_), Some(_)) => Verdict::Deterministic,
            _ => Verdict::Missing,
        },
        p_value: None,
        q_value: None,
        runs: None,
        processes: None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn benjamini_hochberg_matches_r_p_adjust() {
        // p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") in R.
        let q = benjamini_hochberg(&[0.01, 0.04, 0.03, 0.005]);
        for (got, want) in q.iter().zip([0.02, 0.04, 0.04, 0.02]) {
            assert!((got - want).abs() < 1e-12, "{q:?}");
        }
    }

    /// One comparison of `cells` format directions whose runs all come from
    /// one distribution (100 ± 5 %, uniform), the new side's scaled by
    /// `shift`; each side one process.
    fn simulated(seed: u64, cells: usize, runs: usize, shift: f64) -> Vec<Change> {
        simulated_processes(seed, cells, 1, runs, 0.0, shift, false)
    }

    /// As [`simulated`], each side made by `processes` processes of `runs`
    /// runs, every process's level off by up to ±`process_effect` (uniform);
    /// `pooled`: the runs read as if one process had made them all.
    fn simulated_processes(
        seed: u64,
        cells: usize,
        processes: usize,
        runs: usize,
        process_effect: f64,
        shift: f64,
        pooled: bool,
    ) -> Vec<Change> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut draw = |scale: f64| -> ByProcess {
            let mut values = Vec::new();
            for process in 0..processes {
                let level = match process_effect {
                    0.0 => 1.0,
                    effect => 1.0 + rng.random_range(-effect..effect),
                };
                for _ in 0..runs {
                    let label = if pooled { 0 } else { process };
                    values.push((label, scale * level * rng.random_range(95.0..105.0)));
                }
            }
            ByProcess::of(values)
        };
        (0..cells)
            .map(|i| {
                let mut figure = || timing_of(draw(1.0), draw(shift));
                Change {
                    language: "rust".into(),
                    format: format!("f{i}"),
                    direction: "encode",
                    ns_per_op: figure(),
                    p50_ns: figure(),
                    p99_ns: figure(),
                    p999_ns: figure(),
                    bytes_per_record: deterministic(Some(1.0), Some(1.0)),
                    allocations_per_op: deterministic(Some(0.0), Some(0.0)),
                }
            })
            .collect()
    }

    fn called(changes: &[Change]) -> usize {
        changes
            .iter()
            .flat_map(|c| [&c.ns_per_op, &c.p50_ns, &c.p99_ns, &c.p999_ns])
            .filter(|f| matches!(f.verdict, Verdict::Slower | Verdict::Faster))
            .count()
    }

    /// The A/A test: the same measurement compared with itself, again and
    /// again, calls a change no more often than the error rate allows.
    #[test]
    fn an_a_a_comparison_calls_no_more_changes_than_alpha_allows() {
        let (alpha, comparisons) = (0.05, 20);
        let mut with_a_call = 0;
        for seed in 0..comparisons {
            let mut changes = simulated(seed, 14, 10, 1.0);
            assert_eq!(decide(&mut changes, alpha, 0.0), 56);
            with_a_call += usize::from(called(&changes) > 0);
        }
        // Under the null Benjamini–Hochberg holds the chance of any call at alpha.
        assert!(
            with_a_call as f64 <= 2.0 * alpha * comparisons as f64,
            "{with_a_call} of {comparisons} A/A comparisons called a change"
        );
    }

    /// Each process's level is off by up to ±10 %, its runs by ±5 % around
    /// it: a test on runs would call the processes' differences, one on the
    /// processes' medians does not (the A/A test across invocations).
    #[test]
    fn between_invocations_the_process_is_the_unit() {
        let (alpha, comparisons) = (0.05, 20);
        let mut with_a_call = 0;
        let mut pooled_with_a_call = 0;
        for seed in 0..comparisons {
            let mut changes = simulated_processes(seed, 14, 4, 3, 0.10, 1.0, false);
            decide(&mut changes, alpha, 0.0);
            with_a_call += usize::from(called(&changes) > 0);
            let mut pooled = simulated_processes(seed, 14, 4, 3, 0.10, 1.0, true);
            decide(&mut pooled, alpha, 0.0);
            pooled_with_a_call += usize::from(called(&pooled) > 0);
        }
        assert!(
            with_a_call as f64 <= 2.0 * alpha * comparisons as f64,
            "{with_a_call} of {comparisons} A/A comparisons over processes called a change"
        );
        // The same runs read as one process a side: the processes' differences pass for changes.
        assert!(
            pooled_with_a_call as u64 > comparisons / 2,
            "{pooled_with_a_call} of {comparisons} pooled A/A comparisons called a change"
        );
        // A real 30 % change still shows through the processes.
        let mut slower = simulated_processes(3, 14, 4, 3, 0.10, 1.3, false);
        decide(&mut slower, alpha, 5.0);
        assert!(called(&slower) > 40, "{} of 56", called(&slower));
    }

    #[test]
    fn a_real_change_is_called_and_one_below_min_change_is_not() {
        let mut slower = simulated(7, 14, 10, 1.3);
        decide(&mut slower, 0.05, 5.0);
        assert!(called(&slower) > 50, "{} of 56", called(&slower));
        assert!(slower.iter().all(|c| c.ns_per_op.verdict != Verdict::Faster));
        // 3 % slower is real here, but below a 5 % floor: shown as ~, never called.
        let mut slight = simulated(7, 14, 10, 1.03);
        decide(&mut slight, 0.05, 5.0);
        assert_eq!(called(&slight), 0);
    }

    #[test]
    fn one_run_a_side_is_too_few_to_call_anything() {
        let mut changes = simulated(1, 4, 1, 2.0);
        decide(&mut changes, 0.05, 0.0);
        assert!(changes.iter().all(|c| c.ns_per_op.verdict == Verdict::TooFewRuns));
    }
}
