//! What a direction's runs give across runs: its summary, and its cost
//! relative to the other formats measured with it.

use serde::{Deserialize, Serialize};

use super::{Direction, FormatResult, Outliers, Results, RunStats};
use crate::stats::{self, ByProcess, Estimate, Interval, Spread, Units};

/// One direction summarized across measured runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// How many processes made the runs: the intervals are over them.
    pub processes: usize,
    pub ns_per_op: Spread,
    /// 95 % interval of ns/op over the processes (`stats::estimate`): this
    /// machine's, in the minutes it ran; another invocation's may differ by
    /// the host's drift, which relative costs are free of.
    pub ns_per_op_ci: Interval,
    /// Half the width of the relative cost's interval over the cost
    /// ([`Relative::cost`]): how precise the figure that reproduces is
    /// (0.02 = ±2 %), what `--precision` asks of it; null from one run.
    pub precision: Option<f64>,
    pub total_ns: Spread,
    pub ops_per_s: Spread,
    pub p50_ns: Spread,
    pub p90_ns: Spread,
    pub p99_ns: Spread,
    pub p999_ns: Spread,
    pub max_ns: Spread,
    /// 95 % intervals of the per-run percentiles over the processes: a tail
    /// compares only as precisely as these allow.
    pub p50_ns_ci: Interval,
    pub p90_ns_ci: Interval,
    pub p99_ns_ci: Interval,
    pub p999_ns_ci: Interval,
    /// Latency samples outside Tukey's fences, summed over runs.
    pub outliers: Outliers,
    /// Null when a run has no count (see [`RunStats::allocations_per_op`]).
    pub allocations_per_op: Option<Spread>,
    /// Null when a run has no count of bytes (see [`RunStats::allocated_bytes_per_op`]).
    pub allocated_bytes_per_op: Option<Spread>,
    /// Garbage collections in the throughput passes, summed over runs, and
    /// their time in ms; null from a runner without a collector.
    pub gc_count: Option<u64>,
    pub gc_pause_ms: Option<u64>,
    /// Instructions per op counted under Valgrind (`run --instructions`), the
    /// same on any machine running the same build; not time. Not derived from
    /// the runs: kept as read, absent when not counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions_per_op: Option<f64>,
}

impl Summary {
    /// The summary of one or more runs, each with the process that made it;
    /// `precision` is filled in with the relative cost ([`Relative`]).
    pub fn of(runs: &[(usize, &RunStats)]) -> Summary {
        let values = |f: fn(&RunStats) -> f64| runs.iter().map(|(_, r)| f(r)).collect::<Vec<f64>>();
        let spread = |f: fn(&RunStats) -> f64| Spread::of(values(f));
        let grouped = |f: fn(&RunStats) -> f64| ByProcess::of(runs.iter().map(|&(p, r)| (p, f(r))));
        let ci = |f: fn(&RunStats) -> f64| stats::estimate(&grouped(f)).interval;
        // A percentile within the clock's resolution can be 0 ns, which has no
        // logarithm: its interval is taken as from 1 ns, the figures' unit.
        let tail_ci = |f: fn(&RunStats) -> f64| {
            stats::estimate(&ByProcess::of(runs.iter().map(|&(p, r)| (p, f(r).max(1.0))))).interval
        };
        Summary {
            processes: grouped(|r| r.ns_per_op).processes(),
            ns_per_op: spread(|r| r.ns_per_op),
            ns_per_op_ci: ci(|r| r.ns_per_op),
            precision: None,
            total_ns: spread(|r| r.total_ns as f64),
            ops_per_s: spread(|r| r.ops_per_s),
            p50_ns: spread(|r| r.p50_ns as f64),
            p90_ns: spread(|r| r.p90_ns as f64),
            p99_ns: spread(|r| r.p99_ns as f64),
            p999_ns: spread(|r| r.p999_ns as f64),
            max_ns: spread(|r| r.max_ns as f64),
            p50_ns_ci: tail_ci(|r| r.p50_ns as f64),
            p90_ns_ci: tail_ci(|r| r.p90_ns as f64),
            p99_ns_ci: tail_ci(|r| r.p99_ns as f64),
            p999_ns_ci: tail_ci(|r| r.p999_ns as f64),
            outliers: Outliers {
                low: runs.iter().map(|(_, r)| r.outliers.low).sum(),
                high: runs.iter().map(|(_, r)| r.outliers.high).sum(),
            },
            allocations_per_op: runs
                .iter()
                .all(|(_, r)| r.allocations_per_op.is_some())
                .then(|| spread(|r| r.allocations_per_op.unwrap_or_default())),
            allocated_bytes_per_op: runs
                .iter()
                .all(|(_, r)| r.allocated_bytes_per_op.is_some())
                .then(|| spread(|r| r.allocated_bytes_per_op.unwrap_or_default())),
            gc_count: runs.iter().map(|(_, r)| r.gc_count).sum(),
            gc_pause_ms: runs.iter().map(|(_, r)| r.gc_pause_ms).sum(),
            instructions_per_op: None,
        }
    }
}

/// A format's cost against the others measured with it.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Relative {
    /// ns/op over the anchor of its runner's run (the geometric mean of every
    /// format's ns/op in the same round), with its 95 % interval over the
    /// processes: the machine's speed, common to a round's formats, cancels,
    /// so this is the figure that holds from one invocation to the next.
    pub cost: Estimate,
    /// This is the fastest format of its direction.
    pub fastest: bool,
    /// ns/op against the fastest format's, with its 95 % interval: paired
    /// round by round within a runner, drawn apart across runners.
    pub ratio: f64,
    pub interval: Interval,
    /// That interval reaches down to 1: the run cannot tell the two apart.
    pub indistinguishable_from_fastest: bool,
}

/// `relative` has two meanings, each computed once: within one runner's
/// results (the document's own, filled when it is made or read), and across
/// the runners of a merged set (each row's, `results::Merged`).
impl Relative {
    /// Every format of one runner: its relative cost (and the precision it
    /// reached) and its ratio to the fastest, paired round by round.
    pub fn within_runner(formats: &mut [FormatResult]) {
        for (read, pick) in DIRECTIONS {
            let directions: Vec<(&Direction, bool)> =
                formats.iter().map(|f| (read(f), f.baseline)).collect();
            let costs = units(&directions).map(|units| units.relative_costs());
            // Paired, the lowest relative cost is the fastest, so no other
            // format's paired ratio to it falls much below 1.
            let fastest = match &costs {
                Some(costs) => fastest(&directions, |i| costs[i].value),
                None => fastest(&directions, |i| directions[i].0.summary.ns_per_op.median),
            };
            let ratios: Vec<Estimate> = (0..directions.len())
                .map(|i| match fastest {
                    Some(fastest) => directions[i].0.ratio_to(directions[fastest].0),
                    None => Estimate::exact(1.0),
                })
                .collect();
            for (i, format) in formats.iter_mut().enumerate() {
                let direction = pick(format);
                let cost = match &costs {
                    Some(costs) => costs[i],
                    None => stats::estimate(&direction.ns_by_process()),
                };
                direction.relative.cost = cost;
                direction.summary.precision = (direction.runs.len() > 1).then(|| cost.precision());
            }
            set_ratios(formats, fastest, &ratios, pick);
        }
    }

    /// Every format of several runners against the fastest of them all;
    /// `runner[i]` says which runner measured format `i`: paired round by
    /// round within the fastest's runner, drawn apart across runners. Each
    /// keeps the relative cost of its own runner's run.
    pub fn against_fastest(formats: &mut [FormatResult], runner: &[usize]) {
        for (read, pick) in DIRECTIONS {
            let directions: Vec<(&Direction, bool)> =
                formats.iter().map(|f| (read(f), f.baseline)).collect();
            let fastest = fastest(&directions, |i| directions[i].0.summary.ns_per_op.median);
            let ratios: Vec<Estimate> = (0..directions.len())
                .map(|i| match fastest {
                    Some(fastest) if runner[i] == runner[fastest] => {
                        directions[i].0.ratio_to(directions[fastest].0)
                    }
                    Some(fastest) => stats::ratio_apart(
                        &directions[i].0.ns_by_process(),
                        &directions[fastest].0.ns_by_process(),
                    ),
                    None => Estimate::exact(1.0),
                })
                .collect();
            set_ratios(formats, fastest, &ratios, pick);
        }
    }
}

/// Each direction of a format, to read and to fill in.
type Pick = (fn(&FormatResult) -> &Direction, fn(&mut FormatResult) -> &mut Direction);

const DIRECTIONS: [Pick; 2] =
    [(|f| &f.encode, |f| &mut f.encode), (|f| &f.decode, |f| &mut f.decode)];

/// Directions unit by unit ([`Units`]), each with whether it is the
/// no-format baseline (left out of the anchor): each run gives a unit per
/// round (or one, from a runner that writes no rounds). `None` when their
/// runs do not line up, which one runner's never fail to.
fn units(directions: &[(&Direction, bool)]) -> Option<Units> {
    let mut process = None;
    let mut ns = Vec::new();
    for (direction, _) in directions {
        let (mut processes, mut costs) = (Vec::new(), Vec::new());
        for run in &direction.runs {
            let stats = &run.stats;
            let rounds = stats.round_ns.len().max(1);
            let ops_per_round = stats.ops as f64 / rounds as f64;
            match stats.round_ns.as_slice() {
                [] => costs.push(stats.ns_per_op),
                round_ns => costs.extend(round_ns.iter().map(|&ns| ns as f64 / ops_per_round)),
            }
            processes.extend(std::iter::repeat_n(run.process, rounds));
        }
        if process.get_or_insert_with(|| processes.clone()) != &processes {
            return None;
        }
        ns.push(costs);
    }
    let anchored = directions.iter().map(|(_, baseline)| !baseline).collect();
    Some(Units { process: process?, ns, anchored })
}

/// The direction of the lowest `cost`, the baseline aside.
fn fastest(directions: &[(&Direction, bool)], cost: impl Fn(usize) -> f64) -> Option<usize> {
    (0..directions.len()).filter(|&i| !directions[i].1).min_by(|&a, &b| cost(a).total_cmp(&cost(b)))
}

impl Results {
    /// The machine's speed in each process of this runner's run, over the
    /// median process's ([`Units::speed_by_process`]), from every format's
    /// `pick`ed direction; none when the formats' runs do not line up.
    pub fn speed_by_process(&self, pick: fn(&FormatResult) -> &Direction) -> Option<Vec<f64>> {
        let directions: Vec<(&Direction, bool)> =
            self.formats.iter().map(|f| (pick(f), f.baseline)).collect();
        units(&directions).map(|units| units.speed_by_process())
    }

    /// Each format's `pick`ed direction, ns/op unit by unit with the
    /// machine's speed of the unit taken out ([`Units::machine_free`]), in
    /// the order of `formats`; as measured when the runs do not line up.
    pub fn machine_free(&self, pick: fn(&FormatResult) -> &Direction) -> Vec<ByProcess> {
        let directions: Vec<(&Direction, bool)> =
            self.formats.iter().map(|f| (pick(f), f.baseline)).collect();
        match units(&directions) {
            Some(units) => (0..directions.len()).map(|f| units.machine_free(f)).collect(),
            None => directions.iter().map(|(d, _)| d.ns_by_process()).collect(),
        }
    }
}

impl Direction {
    /// This direction's ns/op over `reference`'s, paired round by round when
    /// the two were measured in the same runs, else drawn apart.
    pub fn ratio_to(&self, reference: &Direction) -> Estimate {
        match units(&[(self, false), (reference, false)]) {
            Some(units) => units.ratio(0, 1),
            None => stats::ratio_apart(&self.ns_by_process(), &reference.ns_by_process()),
        }
    }
}

/// Each format's ratio to the fastest: `ratios[i]`, an estimate whose value
/// lies inside its interval (a ratio of medians need not).
fn set_ratios(
    formats: &mut [FormatResult],
    fastest: Option<usize>,
    ratios: &[Estimate],
    pick: fn(&mut FormatResult) -> &mut Direction,
) {
    let Some(fastest) = fastest else { return };
    for (i, format) in formats.iter_mut().enumerate() {
        let direction = pick(format);
        let relative = &mut direction.relative;
        relative.fastest = i == fastest;
        relative.ratio = ratios[i].value;
        relative.interval = ratios[i].interval;
        // The ratio's own interval decides, so `≈` never sits beside an
        // interval that excludes 1.
        relative.indistinguishable_from_fastest = relative.interval.low <= 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::{fixture_timed, run};

    /// A format of the fixture's shape whose runs took `ns[p]` in process `p`.
    fn format(name: &str, ns: &[f64]) -> FormatResult {
        let direction = || {
            let runs = ns.iter().enumerate().map(|(p, &ns)| {
                let mut run = run(ns);
                run.process = p;
                run
            });
            Direction::of(runs.collect())
        };
        FormatResult {
            name: name.into(),
            encode: direction(),
            decode: direction(),
            ..fixture_timed(1.0).formats[0].clone()
        }
    }

    #[test]
    fn a_ratio_to_the_fastest_lies_inside_its_own_interval() {
        // Paired process by process, b costs 1.1 times a but once 2.2 times;
        // the ratio of the medians (22 / 10) would be far above the interval.
        let mut formats = [
            format("a", &[10.0, 10.0, 10.0, 10.0, 20.0, 20.0, 20.0]),
            format("b", &[11.0, 11.0, 11.0, 22.0, 22.0, 22.0, 22.0]),
        ];
        Relative::within_runner(&mut formats);
        let [a, b] = formats.map(|f| f.encode.relative);
        assert!(a.fastest && !b.fastest);
        assert_eq!((a.ratio, a.interval), (1.0, Interval { low: 1.0, high: 1.0 }));
        let interval = b.interval;
        assert!(interval.low <= b.ratio && b.ratio <= interval.high, "{b:?}");
        let geometric_mean = ((6.0 * 1.1f64.ln() + 2.2f64.ln()) / 7.0).exp();
        assert!((b.ratio - geometric_mean).abs() < 1e-9, "{} against {geometric_mean}", b.ratio);
    }
}
