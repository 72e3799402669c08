//! The statistics engine, one for every language's runner: medians, spreads,
//! bootstrap intervals over processes and runs, ratios between formats,
//! percentile curves. Plain arithmetic on numbers and histograms: it knows no
//! results file. The document (`crate::document`) reads each runner's raw
//! figures and asks it what they give, so a figure means the same whichever
//! language measured it.

use hdrhistogram::Histogram;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
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

const BOOTSTRAP_RESAMPLES: usize = 2_000;
const BOOTSTRAP_SEED: u64 = 0x5eed;

/// One figure's per-run values, grouped by the process that measured them.
/// Runs of one process share its memory layout, heap and the minutes it ran
/// in, so they vary less than separate invocations do: an interval that is to
/// hold for the next invocation must resample processes, not only runs.
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

    /// The median of every run.
    pub fn median(&self) -> f64 {
        median(&mut self.values())
    }

    /// One bootstrap resample into `out`: with one process, its runs with
    /// replacement; with several, the processes `picks` names (drawn with
    /// replacement) and, within each, its runs with replacement (a two-level
    /// bootstrap).
    fn resample(&self, rng: &mut ChaCha8Rng, picks: &[usize], out: &mut Vec<f64>) {
        out.clear();
        let draw = |group: &[f64], rng: &mut ChaCha8Rng, out: &mut Vec<f64>| {
            for _ in 0..group.len() {
                out.push(group[rng.random_range(0..group.len())]);
            }
        };
        match self.groups.as_slice() {
            [only] => draw(only, rng, out),
            groups => {
                for &pick in picks {
                    draw(&groups[pick], rng, out);
                }
            }
        }
    }
}

/// Percentile bootstrap of `statistic` over the medians of resampled
/// processes and runs (fixed seed: the same runs always give the same
/// interval). `paired`: the samples were measured in the same processes (the
/// formats of one run), so each resample draws the same processes for all of
/// them: whatever a process shares across formats, such as the machine's
/// speed in its minutes, then cancels out of a ratio between them.
fn bootstrap(samples: &[&ByProcess], paired: bool, statistic: impl Fn(&[f64]) -> f64) -> Interval {
    let mut rng = ChaCha8Rng::seed_from_u64(BOOTSTRAP_SEED);
    let mut estimates = Vec::with_capacity(BOOTSTRAP_RESAMPLES);
    let mut resampled: Vec<Vec<f64>> =
        samples.iter().map(|s| Vec::with_capacity(s.runs())).collect();
    let mut medians = vec![0.0; samples.len()];
    let paired = paired && samples.windows(2).all(|w| w[0].processes == w[1].processes);
    let mut picks = Vec::new();
    for _ in 0..BOOTSTRAP_RESAMPLES {
        for (i, ((sample, out), m)) in
            samples.iter().zip(&mut resampled).zip(&mut medians).enumerate()
        {
            if i == 0 || !paired {
                let k = sample.processes();
                picks.clear();
                if k > 1 {
                    picks.extend((0..k).map(|_| rng.random_range(0..k)));
                }
            }
            sample.resample(&mut rng, &picks, out);
            *m = median(out);
        }
        estimates.push(statistic(&medians));
    }
    estimates.sort_by(f64::total_cmp);
    let at = |q: f64| estimates[((estimates.len() - 1) as f64 * q).round() as usize];
    Interval { low: at(0.025), high: at(0.975) }
}

/// The median's 95 % interval, by bootstrap over processes and runs.
pub fn median_interval(runs: &ByProcess) -> Interval {
    bootstrap(&[runs], false, |medians| medians[0])
}

/// Half the width of the median's 95 % interval over the median: 0.02 = ±2 %;
/// none from a single run, which gives no interval.
pub fn precision(runs: &ByProcess) -> Option<f64> {
    precision_of(median_interval(runs), runs.median(), runs.runs())
}

/// [`precision`] from the interval and median already at hand.
pub fn precision_of(ci: Interval, median: f64, runs: usize) -> Option<f64> {
    (runs >= 2).then(|| (ci.high - ci.low) / 2.0 / median.max(f64::MIN_POSITIVE))
}

/// The 95 % interval of median(runs) / median(reference) of two formats of
/// one run, resampling both, paired by process.
pub fn ratio_interval(runs: &ByProcess, reference: &ByProcess) -> Interval {
    bootstrap(&[runs, reference], true, |medians| medians[0] / medians[1].max(f64::MIN_POSITIVE))
}

/// The same for figures of two invocations, whose processes have nothing in common.
pub fn ratio_interval_apart(runs: &ByProcess, reference: &ByProcess) -> Interval {
    bootstrap(&[runs, reference], false, |medians| medians[0] / medians[1].max(f64::MIN_POSITIVE))
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

    #[test]
    fn bootstrap_intervals_hold_the_median_and_separate_distinct_formats() {
        let a = ByProcess::one_process(&[100.0, 101.0, 99.0, 100.5, 100.2]);
        let b = ByProcess::one_process(&[150.0, 149.0, 151.0, 150.5, 149.5]);
        let ia = median_interval(&a);
        assert!(
            ia.low <= 100.2 && 100.2 <= ia.high && ia.low >= 99.0 && ia.high <= 101.0,
            "{ia:?}"
        );
        assert!(ia.high < median_interval(&b).low);
        let ratio = ratio_interval(&b, &a);
        assert!(ratio.low > 1.4 && ratio.high < 1.6, "{ratio:?}");
        assert_eq!(median_interval(&a), median_interval(&a), "deterministic");
    }

    /// Three processes whose runs agree closely within each but not across:
    /// an interval from one process's runs misses the other processes' medians,
    /// the interval over the three holds them.
    #[test]
    fn intervals_resample_processes_so_they_hold_for_the_next_invocation() {
        let runs = [
            (2, 97.0),
            (0, 100.0),
            (0, 100.1),
            (0, 99.9),
            (1, 103.0),
            (1, 103.1),
            (1, 102.9),
            (2, 97.1),
            (2, 96.9),
        ];
        let grouped = ByProcess::of(runs);
        assert_eq!((grouped.processes(), grouped.runs()), (3, 9));
        assert_eq!(grouped.process_medians(), [100.0, 103.0, 97.0]);
        let first = median_interval(&ByProcess::one_process(&[100.0, 100.1, 99.9]));
        assert!(first.high < 103.0 && first.low > 97.0, "{first:?}");
        let all = median_interval(&grouped);
        assert!(all.low <= 97.1 && all.high >= 102.9, "{all:?}");
        assert!(precision(&grouped).unwrap() > 0.02);
    }

    /// Two formats measured in the same four processes, each process's
    /// machine 3 % slower or faster for both: their ratio is 2 in every
    /// process, and the paired interval says so; the same figures from two
    /// invocations, whose processes are unrelated, carry the machine's drift.
    #[test]
    fn a_ratio_within_one_run_is_paired_by_process() {
        let speed = [1.0, 1.03, 0.97, 1.01];
        let runs =
            |ns: f64, first_process: usize| {
                ByProcess::of(speed.iter().enumerate().flat_map(|(p, s)| {
                    [0.999, 1.001].map(|noise| (first_process + p, ns * s * noise))
                }))
            };
        let paired = ratio_interval(&runs(200.0, 0), &runs(100.0, 0));
        assert!(paired.low > 1.99 && paired.high < 2.01, "{paired:?}");
        let apart = ratio_interval_apart(&runs(200.0, 0), &runs(100.0, 0));
        assert!(apart.high - apart.low > 0.05, "{apart:?}");
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
                &[50.0, 50.0, 50.0, 50.0],
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
                let grouped = |values: &[f64]| {
                    ByProcess::of(values.iter().enumerate().map(|(i, &v)| (i / per_process, v)))
                };
                let (runs_by_process, reference_by_process) = (grouped(runs), grouped(reference));
                let ci = median_interval(&runs_by_process);
                let ratio = ratio_interval(&runs_by_process, &reference_by_process);
                let spread = Spread::of(runs.iter().copied());
                serde_json::json!({
                    "case": name,
                    "runs": runs,
                    "reference_runs": reference,
                    "runs_per_process": per_process,
                    "median": spread.median,
                    "min": spread.min,
                    "max": spread.max,
                    "median_ci": [ci.low, ci.high],
                    "precision": precision(&runs_by_process),
                    "ratio_to_reference_ci": [ratio.low, ratio.high],
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&serde_json::json!({
            "what": "per-run values and the statistics shootout's one engine (crates/shootout/src/stats/mod.rs) \
                     derives from them: median (of an even count, the mean of the middle two), min, max, the \
                     bootstrap 95 % interval of the median (2,000 resamples, ChaCha8 seeded 0x5eed; runs are \
                     consecutive groups of runs_per_process, one per process, and with several processes each \
                     resample draws processes with replacement, then runs within each; runs and reference_runs come \
                     from the same processes, so the ratio draws the same processes for both), precision \
                     (half that interval's width over the median; null from one run) and the interval of \
                     median(runs) / median(reference_runs)",
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
