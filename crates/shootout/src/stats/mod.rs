//! The statistics engine, one for every language's runner: medians, spreads,
//! estimates over processes with their intervals, costs relative to the
//! other formats of a run, percentile curves. Plain arithmetic on numbers and histograms: it knows no
//! results file. The document (`crate::document`) reads each runner's raw
//! figures and asks it what they give, so a figure means the same whichever
//! language measured it.

mod estimate;

pub use estimate::{Apart, Estimate, Units, estimate, median_with_interval, ratio_apart};

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// Steps of a percentile curve per decade of 1 / (1 − q).
const CURVE_STEPS_PER_DECADE: i32 = 10;

/// A histogram's percentile curve as (1 / (1 − q), value) points: quantiles
/// up to the finest its samples resolve (1 / (1 − q) < count), then the
/// maximum at x = count. The HTML report's latency curves.
pub fn percentile_curve(h: &Histogram<u64>) -> Vec<(f64, u64)> {
    let count = h.len() as f64;
    let mut points: Vec<(f64, u64)> = (0..)
        .map(|step| 10f64.powf(f64::from(step) / f64::from(CURVE_STEPS_PER_DECADE)))
        .take_while(|&x| x < count)
        .map(|x| (x, h.value_at_quantile(1.0 - 1.0 / x)))
        .collect();
    points.push((count.max(1.0), h.max()));
    points
}

/// How many samples lie outside Tukey's fences: below Q1 − 1.5·IQR, and above Q3 + 1.5·IQR.
pub fn outside_tukey_fences(h: &Histogram<u64>) -> (u64, u64) {
    if h.is_empty() {
        return (0, 0);
    }
    let q1 = h.value_at_quantile(0.25) as f64;
    let q3 = h.value_at_quantile(0.75) as f64;
    let iqr = q3 - q1;
    let (low_fence, high_fence) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
    let (mut low, mut high) = (0, 0);
    for bucket in h.iter_recorded() {
        let value = bucket.value_iterated_to() as f64;
        if value < low_fence {
            low += bucket.count_at_value();
        } else if value > high_fence {
            high += bucket.count_at_value();
        }
    }
    (low, high)
}

/// Median across runs, with the smallest and largest run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    pub fn of(values: impl IntoIterator<Item = f64>) -> Spread {
        let mut v: Vec<f64> = values.into_iter().collect();
        assert!(!v.is_empty(), "spread of no runs");
        v.sort_by(f64::total_cmp);
        Spread { median: median_of_sorted(&v), min: v[0], max: v[v.len() - 1] }
    }

    /// (max − min) / median: the noise a reader should weigh a difference against.
    pub fn relative_range(&self) -> f64 {
        if self.median > 0.0 { (self.max - self.min) / self.median } else { 0.0 }
    }
}

/// Median of an odd count is the middle value; of an even count, the mean of the middle two.
fn median_of_sorted(v: &[f64]) -> f64 {
    let mid = v.len() / 2;
    if v.len() % 2 == 1 { v[mid] } else { (v[mid - 1] + v[mid]) / 2.0 }
}

/// How many robust standard deviations (1.4826 × the median absolute
/// deviation) slower than their median values may lie before they count as stalls.
pub const STALL_MADS: f64 = 3.5;

/// The least robust deviation a stall is measured in (on the log scale, 2 %):
/// three or six rounds that happen to agree closely must not make an
/// ordinary slower round a stall; a preemption costs tens of per cent.
const STALL_SPREAD_FLOOR: f64 = 0.02;

/// The mean of the logs of `values`, stalls set aside.
fn log_mean_without_stalls(values: &[f64]) -> f64 {
    let logs: Vec<f64> = values.iter().map(|v| v.max(f64::MIN_POSITIVE).ln()).collect();
    let kept = without_stalls(&logs);
    kept.iter().sum::<f64>() / kept.len() as f64
}

/// `logs` without those slower than their median by more than
/// [`STALL_MADS`] robust deviations: a stall only ever slows a round down.
fn without_stalls(logs: &[f64]) -> Vec<f64> {
    let middle = median(&mut logs.to_vec());
    let spread = (1.4826
        * median(&mut logs.iter().map(|x| (x - middle).abs()).collect::<Vec<_>>()))
    .max(STALL_SPREAD_FLOOR);
    logs.iter().copied().filter(|x| x - middle <= STALL_MADS * spread).collect()
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    median_of_sorted(values)
}

/// A 95 % confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

/// One figure's per-run values, grouped by the process that measured them.
/// Runs of one process share its memory layout, heap and the minutes it ran
/// in, so they vary less than separate invocations do: an interval that is to
/// hold for the next invocation is one over processes ([`estimate()`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ByProcess {
    /// Each group's process, ascending.
    processes: Vec<usize>,
    groups: Vec<Vec<f64>>,
}

impl ByProcess {
    /// From (process, value) pairs in any order; processes in ascending order.
    pub fn of(values: impl IntoIterator<Item = (usize, f64)>) -> ByProcess {
        let mut pairs: Vec<(usize, f64)> = values.into_iter().collect();
        pairs.sort_by_key(|&(process, _)| process);
        let mut by_process = ByProcess { processes: Vec::new(), groups: Vec::new() };
        for (process, value) in pairs {
            if by_process.processes.last() != Some(&process) {
                by_process.processes.push(process);
                by_process.groups.push(Vec::new());
            }
            by_process.groups.last_mut().expect("just pushed").push(value);
        }
        by_process
    }

    /// Runs of a single process.
    pub fn one_process(values: &[f64]) -> ByProcess {
        ByProcess { processes: vec![0], groups: vec![values.to_vec()] }
    }

    pub fn processes(&self) -> usize {
        self.groups.len()
    }

    pub fn runs(&self) -> usize {
        self.groups.iter().map(Vec::len).sum()
    }

    /// Every run's value, process by process.
    pub fn values(&self) -> Vec<f64> {
        self.groups.concat()
    }

    /// Each process's median: the unit of between-invocation comparisons.
    pub fn process_medians(&self) -> Vec<f64> {
        self.groups.iter().map(|g| median(&mut g.clone())).collect()
    }

    /// Each process's level on the log scale: the mean of its values' logs,
    /// those slower than its median by more than [`STALL_MADS`] robust deviations
    /// set aside. A stalled round (the format's loop preempted) is slower
    /// only; a mean over the rest keeps the intervals calibrated, which a
    /// median of so few values does not (in the simulations of
    /// `estimate`'s tests its intervals held the truth about 93.5 times in
    /// 100, this mean's 94 to 95).
    pub fn process_log_levels(&self) -> Vec<f64> {
        self.groups.iter().map(|g| log_mean_without_stalls(g)).collect()
    }

    /// The median of every run.
    pub fn median(&self) -> f64 {
        median(&mut self.values())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curve_reaches_the_finest_quantile_its_samples_resolve_then_the_max() {
        let mut h = Histogram::<u64>::new(3).unwrap();
        for ns in 1..=1000 {
            h.record(ns).unwrap();
        }
        let points = percentile_curve(&h);
        assert_eq!(points.first(), Some(&(1.0, 1)));
        // x = 1000 would ask for q = 0.999 of 1000 samples: the max stands there instead.
        assert_eq!(points.last(), Some(&(1000.0, 1000)));
        let (x, ns) = points[points.len() - 2];
        assert!(x < 1000.0 && (990..=1000).contains(&ns), "{x} {ns}");
        assert!(points.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1));
    }

    #[test]
    fn tukey_fences_count_the_tail() {
        let mut h = Histogram::<u64>::new(3).unwrap();
        for v in (100..200).chain([5_000, 6_000, 7_000]) {
            h.record(v).unwrap();
        }
        assert_eq!(outside_tukey_fences(&h), (0, 3));
    }

    #[test]
    fn spread_takes_the_median_run() {
        assert_eq!(Spread::of([5.0, 1.0, 3.0]), Spread { median: 3.0, min: 1.0, max: 5.0 });
        assert_eq!(Spread::of([4.0, 1.0, 3.0, 2.0]).median, 2.5);
        assert!((Spread::of([90.0, 100.0, 110.0]).relative_range() - 0.2).abs() < 1e-12);
    }

    /// The engine's test vectors (spec/statistics-vectors.json): per-run
    /// values and what the engine makes of them. Every language's figures go
    /// through this one engine, so these pin what a results file's summary
    /// means; a change to the arithmetic shows here first.
    #[test]
    fn the_engine_matches_its_test_vectors() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/statistics-vectors.json");
        let cases: [(&str, &[f64], &[f64]); 5] = [
            (
                "five runs",
                &[100.0, 101.0, 99.0, 100.5, 100.2],
                &[150.0, 149.0, 151.0, 150.5, 149.5],
            ),
            ("even count", &[4.0, 1.0, 3.0, 2.0], &[8.0, 2.0, 6.0, 4.0]),
            (
                "one outlier run",
                &[50.0, 51.0, 49.5, 50.5, 80.0, 50.2, 49.8],
                &[50.0, 50.0, 50.0, 50.0, 50.0, 50.0, 50.0],
            ),
            ("two runs", &[10.0, 12.0], &[10.0, 12.0]),
            (
                "three processes of three runs",
                &[100.0, 100.1, 99.9, 103.0, 103.1, 102.9, 97.0, 97.1, 96.9],
                &[50.0, 50.2, 49.8, 50.1, 50.0, 49.9, 50.0, 50.3, 49.7],
            ),
        ];
        let actual: Vec<serde_json::Value> = cases
            .iter()
            .map(|(name, runs, reference)| {
                // The last case's runs come from three processes, three runs each.
                let per_process = if runs.len() == 9 { 3 } else { runs.len() };
                let process: Vec<usize> = (0..runs.len()).map(|i| i / per_process).collect();
                let grouped = |values: &[f64]| {
                    ByProcess::of(process.iter().copied().zip(values.iter().copied()))
                };
                let estimate = estimate(&grouped(runs));
                let units = Units {
                    process: process.clone(),
                    ns: vec![runs.to_vec(), reference.to_vec()],
                    anchored: vec![true, true],
                };
                let paired = units.ratio(0, 1);
                let apart = ratio_apart(&grouped(runs), &grouped(reference));
                let costs = units.relative_costs();
                let spread = Spread::of(runs.iter().copied());
                let interval = |e: Estimate| [e.interval.low, e.interval.high];
                serde_json::json!({
                    "case": name,
                    "runs": runs,
                    "reference_runs": reference,
                    "runs_per_process": per_process,
                    "median": spread.median,
                    "min": spread.min,
                    "max": spread.max,
                    "estimate": estimate.value,
                    "estimate_ci": interval(estimate),
                    "precision": estimate.precision(),
                    "ratio_paired": paired.value,
                    "ratio_paired_ci": interval(paired),
                    "ratio_apart": apart.value,
                    "ratio_apart_ci": interval(apart),
                    "relative_cost": costs[0].value,
                    "relative_cost_ci": interval(costs[0]),
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&serde_json::json!({
            "what": "per-run values and the statistics shootout's one engine (crates/shootout/src/stats/) \
                     derives from them. Runs are consecutive groups of runs_per_process, one group per process; \
                     runs and reference_runs come from the same processes, unit by unit. median (of an even count, \
                     the mean of the middle two), min, max: over every run. estimate: the geometric mean over \
                     processes of each process's level (the mean of its runs' logs, runs slower than its median by more \
                     than 3.5 robust standard deviations, each at least 2 %, set aside), estimate_ci its 95 % Student-t interval on the \
                     log scale with k - 1 degrees of freedom over k processes (from one process: over all its runs), precision \
                     half that interval's width over the estimate. ratio_paired: runs / reference_runs unit by unit, \
                     estimated so. ratio_apart: estimate(runs) / estimate(reference_runs) with Welch's interval \
                     on the log scale, as for two invocations. relative_cost: runs with the machine's speed of each \
                     unit taken out (the median over formats of each format's distance from its own median), \
                     estimated so, over the geometric mean of both formats' estimates",
            "cases": actual,
        }))
        .unwrap()
            + "\n";
        if std::env::var_os("SHOOTOUT_UPDATE_EXPECTED").is_some() {
            std::fs::write(path, &text).unwrap();
            return;
        }
        let expected = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            text == expected,
            "the statistics engine no longer gives {path}: if the change is intended, rewrite it with \
             SHOOTOUT_UPDATE_EXPECTED=1 cargo test -p shootout --lib vectors and say why in the commit\n{text}"
        );
    }
}
