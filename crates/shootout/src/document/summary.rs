//! What a direction's runs give across runs: its summary, and its cost
//! relative to the fastest format's.

use serde::{Deserialize, Serialize};

use super::{Direction, FormatResult, Outliers, RunStats};
use crate::stats::{self, ByProcess, Interval, Spread, median_interval, precision_of};

/// One direction summarized across measured runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// How many processes made the runs: the intervals resample them.
    pub processes: usize,
    pub ns_per_op: Spread,
    /// Bootstrap 95 % interval of the median ns/op (processes, then runs within each, resampled).
    pub ns_per_op_ci: Interval,
    /// Half the width of `ns_per_op_ci` over the median: how precise the
    /// figure is (0.02 = ±2 %), what `--precision` asks of it; null from one run.
    pub precision: Option<f64>,
    pub total_ns: Spread,
    pub ops_per_s: Spread,
    pub p50_ns: Spread,
    pub p90_ns: Spread,
    pub p99_ns: Spread,
    pub p999_ns: Spread,
    pub max_ns: Spread,
    /// Bootstrap 95 % intervals of the medians of the per-run percentiles:
    /// a tail compares only as precisely as these allow.
    pub p50_ns_ci: Interval,
    pub p90_ns_ci: Interval,
    pub p99_ns_ci: Interval,
    pub p999_ns_ci: Interval,
    /// Latency samples outside Tukey's fences, summed over runs.
    pub outliers: Outliers,
    /// Null when a run has no count (see [`RunStats::allocations_per_op`]).
    pub allocations_per_op: Option<Spread>,
    pub allocated_bytes_per_op: Spread,
    /// Garbage collections in the throughput passes, summed over runs, and
    /// their time in ms; null from a runner without a collector.
    pub gc_count: Option<u64>,
    pub gc_pause_ms: Option<u64>,
}

impl Summary {
    /// The summary of one or more runs, each with the process that made it.
    pub fn of(runs: &[(usize, &RunStats)]) -> Summary {
        let values = |f: fn(&RunStats) -> f64| runs.iter().map(|(_, r)| f(r)).collect::<Vec<f64>>();
        let spread = |f: fn(&RunStats) -> f64| Spread::of(values(f));
        let grouped = |f: fn(&RunStats) -> f64| ByProcess::of(runs.iter().map(|&(p, r)| (p, f(r))));
        let ci = |f: fn(&RunStats) -> f64| median_interval(&grouped(f));
        let (ns_per_op, ns_per_op_ci) = (spread(|r| r.ns_per_op), ci(|r| r.ns_per_op));
        Summary {
            processes: grouped(|r| r.ns_per_op).processes(),
            ns_per_op,
            ns_per_op_ci,
            precision: precision_of(ns_per_op_ci, ns_per_op.median, runs.len()),
            total_ns: spread(|r| r.total_ns as f64),
            ops_per_s: spread(|r| r.ops_per_s),
            p50_ns: spread(|r| r.p50_ns as f64),
            p90_ns: spread(|r| r.p90_ns as f64),
            p99_ns: spread(|r| r.p99_ns as f64),
            p999_ns: spread(|r| r.p999_ns as f64),
            max_ns: spread(|r| r.max_ns as f64),
            p50_ns_ci: ci(|r| r.p50_ns as f64),
            p90_ns_ci: ci(|r| r.p90_ns as f64),
            p99_ns_ci: ci(|r| r.p99_ns as f64),
            p999_ns_ci: ci(|r| r.p999_ns as f64),
            outliers: Outliers {
                low: runs.iter().map(|(_, r)| r.outliers.low).sum(),
                high: runs.iter().map(|(_, r)| r.outliers.high).sum(),
            },
            allocations_per_op: runs
                .iter()
                .all(|(_, r)| r.allocations_per_op.is_some())
                .then(|| spread(|r| r.allocations_per_op.unwrap_or_default())),
            allocated_bytes_per_op: spread(|r| r.allocated_bytes_per_op),
            gc_count: runs.iter().map(|(_, r)| r.gc_count).sum(),
            gc_pause_ms: runs.iter().map(|(_, r)| r.gc_pause_ms).sum(),
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Relative {
    /// This is the fastest format of its direction.
    pub fastest: bool,
    pub ratio: f64,
    pub interval: Interval,
    /// The interval of this format's median ns/op overlaps the fastest format's:
    /// the run cannot tell them apart.
    pub indistinguishable_from_fastest: bool,
}

/// `relative` has two meanings, each computed once: within one runner's
/// results (the document's own, filled when it is made or read), and across
/// the runners of a merged set (each row's, `results::Merged`).
impl Relative {
    /// Every format of one runner against its fastest: formats of one runner
    /// share its processes, so each ratio is paired by process.
    pub fn within_runner(formats: &mut [FormatResult]) {
        let one_runner = vec![0; formats.len()];
        Relative::against_fastest(formats, &one_runner);
    }

    /// Every format of several runners against the fastest of them all;
    /// `runner[i]` says which runner measured format `i`: paired by process
    /// within a runner, drawn apart across runners.
    pub fn against_fastest(formats: &mut [FormatResult], runner: &[usize]) {
        fill_relative(formats, runner, |f| &mut f.encode);
        fill_relative(formats, runner, |f| &mut f.decode);
    }
}

/// One direction's `relative` of every format against its fastest.
fn fill_relative(
    formats: &mut [FormatResult],
    runner: &[usize],
    pick: fn(&mut FormatResult) -> &mut Direction,
) {
    let per_run = Direction::ns_by_process;
    let fastest = formats
        .iter_mut()
        .enumerate()
        .filter(|(_, f)| !f.baseline)
        .map(|(i, f)| (i, pick(f)))
        .min_by(|(_, a), (_, b)| a.summary.ns_per_op.median.total_cmp(&b.summary.ns_per_op.median))
        .map(|(i, d)| (runner[i], per_run(d), d.summary.ns_per_op.median));
    let Some((fastest_runner, fastest_runs, fastest_median)) = fastest else {
        return;
    };
    for (i, format) in formats.iter_mut().enumerate() {
        let direction = pick(format);
        let runs = per_run(direction);
        // The fastest format against itself is 1 exactly, not a resampled ratio.
        let is_fastest = runner[i] == fastest_runner && runs == fastest_runs;
        let interval = match (is_fastest, runner[i] == fastest_runner) {
            (true, _) => Interval { low: 1.0, high: 1.0 },
            (false, true) => stats::ratio_interval(&runs, &fastest_runs),
            (false, false) => stats::ratio_interval_apart(&runs, &fastest_runs),
        };
        direction.relative = Relative {
            fastest: is_fastest,
            ratio: direction.summary.ns_per_op.median / fastest_median.max(f64::MIN_POSITIVE),
            // The ratio's own interval decides, so `≈` never sits beside an
            // interval that excludes 1 (paired within a runner, a drift common
            // to a process cancels; two separate intervals overlapping would not).
            indistinguishable_from_fastest: interval.low <= 1.0,
            interval,
        };
    }
}
