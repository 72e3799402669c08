//! Estimates over processes: a positive figure (ns/op, a cost relative to the
//! others of its run) measured in runs and rounds grouped by the process that
//! made them. Each process gives one value, the geometric mean of its own
//! (stalled rounds set aside); the estimate is their geometric mean, with the
//! 95 % Student-t interval of that mean on the log scale, k − 1 degrees of
//! freedom over k processes. That
//! interval is valid for few processes, as a bootstrap is not (over three it
//! collapses to their range, the estimate on an edge of its own interval),
//! and it holds for the next invocation, whose process is another draw.

use serde::{Deserialize, Serialize};
use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, StudentsT};

use super::{ByProcess, Interval};

/// A figure and its 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub value: f64,
    pub interval: Interval,
}

impl Estimate {
    /// Half the interval's width over the value: 0.02 = ±2 %.
    pub fn precision(&self) -> f64 {
        (self.interval.high - self.interval.low) / 2.0 / self.value.max(f64::MIN_POSITIVE)
    }

    /// Exactly `value`, with no uncertainty: a figure against itself.
    pub fn exact(value: f64) -> Estimate {
        Estimate { value, interval: Interval { low: value, high: value } }
    }
}

/// The log-scale sample an estimate is made of: one level per process
/// ([`ByProcess::process_log_levels`]); from a single process, every run of
/// it, whose interval then says how its runs agree, not how the next process
/// will. Setting stalls aside there would narrow that interval below its
/// coverage: a stall widens it instead.
fn log_sample(values: &ByProcess) -> Vec<f64> {
    match values.processes() {
        1 => values.values().iter().map(|v| v.max(f64::MIN_POSITIVE).ln()).collect(),
        _ => values.process_log_levels(),
    }
}

/// The mean of `logs`, and the standard error of that mean with its degrees of freedom.
fn mean_and_error(logs: &[f64]) -> (f64, f64, f64) {
    let n = logs.len() as f64;
    let mean = logs.iter().sum::<f64>() / n;
    if logs.len() < 2 {
        return (mean, 0.0, 0.0);
    }
    let variance = logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (variance / n).sqrt(), n - 1.0)
}

/// The two-sided 95 % quantile of Student's t with `df` degrees of freedom.
fn t_quantile(df: f64) -> f64 {
    StudentsT::new(0.0, 1.0, df).expect("positive degrees of freedom").inverse_cdf(0.975)
}

/// The interval around `mean` (log scale) with standard error `error` and
/// `df` degrees of freedom, back on the figure's scale; none without a df.
fn on_figure_scale(mean: f64, error: f64, df: f64) -> Estimate {
    let half = if df > 0.0 { t_quantile(df) * error } else { 0.0 };
    Estimate {
        value: mean.exp(),
        // A wide interval of one or two processes can pass f64's range; JSON has no infinity.
        interval: Interval { low: (mean - half).exp(), high: (mean + half).exp().min(f64::MAX) },
    }
}

/// The geometric mean over processes of each process's level, with its 95 %
/// interval (see the module's docs); from one run, that run and no interval.
pub fn estimate(values: &ByProcess) -> Estimate {
    let (mean, error, df) = mean_and_error(&log_sample(values));
    on_figure_scale(mean, error, df)
}

/// Two figures measured apart (two runners, two invocations: nothing
/// paired), compared on the log scale with Welch's unequal-variances
/// statistics over their processes.
pub struct Apart {
    log_ratio: f64,
    error: f64,
    df: f64,
    /// Both sides have two values or more: a test is possible.
    tested: bool,
}

impl Apart {
    pub fn of(values: &ByProcess, reference: &ByProcess) -> Apart {
        let (mean, error, df) = mean_and_error(&log_sample(values));
        let (ref_mean, ref_error, ref_df) = mean_and_error(&log_sample(reference));
        let error2 = error.powi(2) + ref_error.powi(2);
        // Welch–Satterthwaite; a side without spread adds no degrees of freedom.
        let terms = [(error, df), (ref_error, ref_df)]
            .iter()
            .filter(|(e, d)| *e > 0.0 && *d > 0.0)
            .map(|(e, d)| e.powi(4) / d)
            .sum::<f64>();
        let welch_df = if terms > 0.0 { error2.powi(2) / terms } else { df.min(ref_df) };
        Apart {
            log_ratio: mean - ref_mean,
            error: error2.sqrt(),
            df: welch_df,
            tested: df > 0.0 && ref_df > 0.0,
        }
    }

    /// The ratio of the two, with its 95 % interval.
    pub fn ratio(&self) -> Estimate {
        on_figure_scale(self.log_ratio, self.error, self.df)
    }

    /// The two-sided p-value that the true ratio is `null` (1: no change);
    /// none when a side has a single value, which gives no test.
    pub fn p_value(&self, null: f64) -> Option<f64> {
        if !self.tested {
            return None;
        }
        let distance = self.log_ratio - null.ln();
        if self.error == 0.0 {
            // Every value of each side alike: a difference is certain, no difference is none.
            return Some(if distance.abs() < 1e-12 { 1.0 } else { 0.0 });
        }
        let student = StudentsT::new(0.0, 1.0, self.df).expect("positive degrees of freedom");
        Some((2.0 * student.sf((distance / self.error).abs())).min(1.0))
    }
}

/// The ratio of two figures measured apart, with Welch's interval ([`Apart`]).
pub fn ratio_apart(values: &ByProcess, reference: &ByProcess) -> Estimate {
    Apart::of(values, reference).ratio()
}

/// The median of `values` with its distribution-free 95 % interval: the
/// order statistics whose ranks a binomial(n, ½) puts 2.5 % beyond on each
/// side (the sign test's interval; from fewer than six values, their range).
pub fn median_with_interval(values: &[f64]) -> Estimate {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let value = super::median(&mut sorted.clone());
    // The largest k with P(Binomial(n, ½) < k) ≤ 2.5 %: [x(k), x(n−k+1)] (1-based) covers the median.
    let binomial = Binomial::new(0.5, n as u64).expect("a probability");
    let k = (1..=n / 2).take_while(|&k| binomial.cdf(k as u64 - 1) <= 0.025).last().unwrap_or(1);
    Estimate { value, interval: Interval { low: sorted[k - 1], high: sorted[n - k] } }
}

/// One direction of one runner's run, unit by unit. A unit is one round of
/// one measured run of one process: every format ran once in it, in a
/// shuffled order, so whatever the machine lent the round (its speed in those
/// seconds) is common to every format of it.
pub struct Units {
    /// The process of each unit.
    pub process: Vec<usize>,
    /// Per format, its ns per op in each unit.
    pub ns: Vec<Vec<f64>>,
    /// The formats the anchor is made of (the no-format baseline is none).
    pub anchored: Vec<bool>,
}

impl Units {
    /// The machine's speed in each unit, on the log scale: how far the
    /// anchored formats ran from their own typical time (their median over
    /// every unit), the median over them, so that one format's stall (a
    /// preemption in its loop) does not pass for the machine's.
    fn log_speeds(&self) -> Vec<f64> {
        let logs: Vec<Vec<f64>> = self
            .ns
            .iter()
            .map(|ns| ns.iter().map(|&ns| ns.max(f64::MIN_POSITIVE).ln()).collect())
            .collect();
        let typical: Vec<f64> = logs.iter().map(|l| ByProcess::one_process(l).median()).collect();
        (0..self.process.len())
            .map(|u| {
                let offsets: Vec<f64> = (0..logs.len())
                    .filter(|&f| self.anchored[f])
                    .map(|f| logs[f][u] - typical[f])
                    .collect();
                if offsets.is_empty() { 0.0 } else { ByProcess::one_process(&offsets).median() }
            })
            .collect()
    }

    /// Format `f`'s ns/op in each unit with that unit's machine speed taken
    /// out, grouped by process: its cost free of the host's drift, still on
    /// ns/op's scale (the typical unit's speed).
    pub fn machine_free(&self, f: usize) -> ByProcess {
        let speeds = self.log_speeds();
        self.by_process(|u| self.ns[f][u] / speeds[u].exp())
    }

    /// `value(u)` of every unit, grouped by process.
    fn by_process(&self, value: impl Fn(usize) -> f64) -> ByProcess {
        ByProcess::of(self.process.iter().enumerate().map(|(u, &p)| (p, value(u))))
    }

    /// Each format's cost relative to the others of its run: its ns/op with
    /// the machine's speed of each unit taken out, estimated over the
    /// processes, then scaled so that the anchored formats' costs have a
    /// geometric mean of 1. The machine's speed, common to a unit's formats,
    /// cancels; what varies from process to process (code and heap
    /// placement) stays in the interval.
    pub fn relative_costs(&self) -> Vec<Estimate> {
        let levels: Vec<Estimate> =
            (0..self.ns.len()).map(|f| estimate(&self.machine_free(f))).collect();
        let anchored: Vec<f64> =
            (0..levels.len()).filter(|&f| self.anchored[f]).map(|f| levels[f].value.ln()).collect();
        let anchor = (anchored.iter().sum::<f64>() / anchored.len().max(1) as f64).exp();
        levels
            .into_iter()
            .map(|e| Estimate {
                value: e.value / anchor,
                interval: Interval { low: e.interval.low / anchor, high: e.interval.high / anchor },
            })
            .collect()
    }

    /// Format `f`'s ns/op over format `reference`'s, paired unit by unit.
    pub fn ratio(&self, f: usize, reference: usize) -> Estimate {
        if f == reference {
            return Estimate::exact(1.0);
        }
        estimate(&self.by_process(|u| self.ns[f][u] / self.ns[reference][u].max(f64::MIN_POSITIVE)))
    }

    /// The machine's speed in each process, over the median process's: every
    /// format alike ran this much slower (above 1) or faster.
    pub fn speed_by_process(&self) -> Vec<f64> {
        let speeds = self.log_speeds();
        let by_process = self.by_process(|u| speeds[u].exp()).process_medians();
        let middle = ByProcess::one_process(&by_process).median();
        by_process.iter().map(|s| s / middle).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A standard normal draw (Box–Muller).
    fn normal(rng: &mut ChaCha8Rng) -> f64 {
        let (u1, u2): (f64, f64) = (rng.random_range(f64::EPSILON..1.0), rng.random());
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// A run as a machine makes one: `processes` processes of `rounds` units
    /// each; the machine's speed drifts by process (±4 %) and by round (±2 %),
    /// common to every format; each format's placement in a process costs it
    /// `layout` (log-normal); each of its rounds adds `noise`, and one round
    /// in fifty is an outlier, 1.3 to 2 times slower (a preemption).
    fn simulated(
        rng: &mut ChaCha8Rng,
        truth: &[f64],
        processes: usize,
        rounds: usize,
        layout: f64,
        noise: f64,
    ) -> Units {
        let mut units = Units {
            process: Vec::new(),
            ns: vec![Vec::new(); truth.len()],
            anchored: vec![true; truth.len()],
        };
        for process in 0..processes {
            let machine = 1.0 + 0.04 * normal(rng);
            let placement: Vec<f64> = truth.iter().map(|_| (layout * normal(rng)).exp()).collect();
            for _ in 0..rounds {
                let round = machine * (1.0 + 0.02 * normal(rng));
                units.process.push(process);
                for (f, &ns) in truth.iter().enumerate() {
                    let outlier =
                        if rng.random_range(0..50) == 0 { rng.random_range(1.3..2.0) } else { 1.0 };
                    units.ns[f]
                        .push(ns * round * placement[f] * (noise * normal(rng)).exp() * outlier);
                }
            }
        }
        units
    }

    /// The truth a relative cost estimates: the format's ns/op over the
    /// geometric mean of every format's, the machine and the placement aside.
    fn true_relative(truth: &[f64], f: usize) -> f64 {
        let mean = truth.iter().map(|t| t.ln()).sum::<f64>() / truth.len() as f64;
        truth[f] / mean.exp()
    }

    /// Over 1,000 simulated runs with a known answer, the 95 % intervals of
    /// the relative costs hold it in 93–97 % of them, with three processes,
    /// five and ten; the machine's drift, four times the formats' own noise,
    /// is gone from them.
    #[test]
    fn relative_cost_intervals_cover_the_truth_95_times_in_100() {
        let truth = [50.0, 80.0, 120.0, 200.0, 310.0, 900.0, 1500.0, 64.0];
        for processes in [3, 5, 10] {
            let mut rng = ChaCha8Rng::seed_from_u64(processes as u64);
            let simulations = 1000;
            let mut covered = 0;
            for _ in 0..simulations {
                let units = simulated(&mut rng, &truth, processes, 6, 0.008, 0.01);
                let costs = units.relative_costs();
                let f = rng.random_range(0..truth.len());
                let want = true_relative(&truth, f);
                covered +=
                    usize::from(costs[f].interval.low <= want && want <= costs[f].interval.high);
            }
            let coverage = covered as f64 / simulations as f64;
            eprintln!("{processes} processes: coverage {coverage}");
            assert!(
                (0.93..=0.97).contains(&coverage),
                "{processes} processes: coverage {coverage}"
            );
        }
    }

    #[test]
    fn a_drift_common_to_every_format_cancels_from_their_ratios() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let units = simulated(&mut rng, &[100.0, 200.0], 8, 6, 0.0, 0.002);
        let ratio = units.ratio(1, 0);
        assert!(ratio.interval.low < 2.0 && 2.0 < ratio.interval.high, "{ratio:?}");
        assert!(ratio.precision() < 0.01, "{ratio:?}");
        // The same figures apart, as if from two invocations: the drift is in the interval.
        let by_process = |f: usize| units.by_process(|u| units.ns[f][u]);
        let apart = ratio_apart(&by_process(1), &by_process(0));
        assert!(apart.precision() > 2.0 * ratio.precision(), "{apart:?} against {ratio:?}");
        assert_eq!(units.ratio(0, 0), Estimate::exact(1.0));
    }

    #[test]
    fn an_estimate_from_three_processes_is_not_their_range() {
        let three = ByProcess::of([(0, 100.0), (1, 103.0), (2, 97.0)]);
        let e = estimate(&three);
        assert!(e.interval.low < 97.0 && e.interval.high > 103.0, "{e:?}");
        assert!(e.interval.low < e.value && e.value < e.interval.high);
        // From one process, its runs' agreement.
        let one = estimate(&ByProcess::one_process(&[100.0, 100.1, 99.9]));
        assert!(one.interval.low > 99.0 && one.interval.high < 101.0, "{one:?}");
        let alone = estimate(&ByProcess::one_process(&[42.0]));
        assert!((alone.value - 42.0).abs() < 1e-9 && alone.interval.low == alone.interval.high);
    }
}
