//! The one statistics engine, for every language's runner. Each runner
//! writes only the raw figures of each run (the throughput pass's total time
//! and operations, the latency pass's histogram, the allocation pass's counts);
//! everything derived from them, per run ([`RunStats`]) and across runs
//! ([`Summary`]: medians, bootstrap intervals, precision), is computed here,
//! whether the run was Rust's own or read back from a results file.

use std::io::Cursor;

use base64::Engine;
use hdrhistogram::Histogram;
use hdrhistogram::serialization::{Deserializer, Serializer, V2Serializer};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::alloc::Allocations;

/// Enough range for one record taking a minute; 3 significant digits.
const HIGHEST_NS: u64 = 60_000_000_000;

pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, HIGHEST_NS, 3).expect("valid histogram bounds")
}

/// What one direction accumulates over the windows of one run, one field per pass.
pub struct Samples {
    /// Throughput pass: whole windows timed, no clock inside.
    pub loop_ns: u64,
    pub ops: u64,
    /// Latency pass: one sample per op, the empty region's cost subtracted.
    pub latency: Histogram<u64>,
    /// Allocation pass.
    pub allocations: Allocations,
}

impl Samples {
    pub fn new() -> Self {
        Samples {
            loop_ns: 0,
            ops: 0,
            latency: new_histogram(),
            allocations: Allocations::default(),
        }
    }

    pub fn finish(&self) -> RunStats {
        let ops = self.ops.max(1) as f64;
        RunStats::of(
            RawRun {
                total_ns: self.loop_ns,
                ops: self.ops,
                histogram: encode_histogram(&self.latency),
                allocations_per_op: Some(self.allocations.count as f64 / ops),
                allocated_bytes_per_op: self.allocations.bytes as f64 / ops,
            },
            &self.latency,
        )
    }
}

impl Default for Samples {
    fn default() -> Self {
        Self::new()
    }
}

/// The latency histogram in HdrHistogram's V2 format, base64: any HdrHistogram
/// library can read it back to merge runs or compute other percentiles.
fn encode_histogram(h: &Histogram<u64>) -> String {
    let mut bytes = Vec::new();
    V2Serializer::new()
        .serialize(h, &mut bytes)
        .expect("serializing a histogram into memory cannot fail");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A histogram as runners store it: base64 of HdrHistogram's V2 encoding,
/// plain (Rust, Java) or deflated (Go).
pub fn decode_histogram(text: &str) -> Result<Histogram<u64>, String> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| format!("histogram: not base64 ({e})"))?;
    Deserializer::new()
        .deserialize(&mut Cursor::new(bytes))
        .map_err(|e| format!("histogram: not an HdrHistogram V2 encoding ({e:?})"))
}

/// Tukey's fences on the latency samples: below Q1 − 1.5·IQR, above Q3 + 1.5·IQR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outliers {
    pub low: u64,
    pub high: u64,
}

impl Outliers {
    fn of(h: &Histogram<u64>) -> Outliers {
        if h.is_empty() {
            return Outliers { low: 0, high: 0 };
        }
        let q1 = h.value_at_quantile(0.25) as f64;
        let q3 = h.value_at_quantile(0.75) as f64;
        let iqr = q3 - q1;
        let (low_fence, high_fence) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
        let mut outliers = Outliers { low: 0, high: 0 };
        for bucket in h.iter_recorded() {
            let value = bucket.value_iterated_to() as f64;
            if value < low_fence {
                outliers.low += bucket.count_at_value();
            } else if value > high_fence {
                outliers.high += bucket.count_at_value();
            }
        }
        outliers
    }
}

/// What a runner writes of one direction in one measured run: the raw
/// figures, nothing derived (docs/results-schema.md).
#[derive(Debug, Clone, Deserialize)]
pub struct RawRun {
    /// Sum of the throughput pass's timed window loops.
    pub total_ns: u64,
    pub ops: u64,
    /// The latency pass's histogram (see [`decode_histogram`]).
    pub histogram: String,
    pub allocations_per_op: Option<f64>,
    pub allocated_bytes_per_op: f64,
}

/// One direction of one measured run: the raw figures and what they give.
/// Throughput figures come from the throughput pass only; percentiles from
/// the latency pass; allocations from their own pass.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawRun")]
pub struct RunStats {
    pub ns_per_op: f64,
    /// Sum of the timed window loops.
    pub total_ns: u64,
    pub ops: u64,
    pub ops_per_s: f64,
    pub p50_ns: u64,
    pub p90_ns: u64,
    pub p99_ns: u64,
    pub p999_ns: u64,
    pub max_ns: u64,
    pub latency_mean_ns: f64,
    pub outliers: Outliers,
    /// Allocations per op; null from a runner that cannot count them (the JVM
    /// gives allocated bytes per thread, not a count).
    pub allocations_per_op: Option<f64>,
    pub allocated_bytes_per_op: f64,
    /// The latency pass's histogram, HdrHistogram V2 serialization in base64.
    pub histogram: String,
}

impl RunStats {
    /// Everything one run's raw figures give; `latency` is `raw.histogram` decoded.
    fn of(raw: RawRun, latency: &Histogram<u64>) -> RunStats {
        let seconds = raw.total_ns as f64 / 1e9;
        RunStats {
            ns_per_op: raw.total_ns as f64 / raw.ops.max(1) as f64,
            total_ns: raw.total_ns,
            ops: raw.ops,
            ops_per_s: if seconds > 0.0 {
                raw.ops as f64 / seconds
            } else {
                0.0
            },
            p50_ns: latency.value_at_quantile(0.50),
            p90_ns: latency.value_at_quantile(0.90),
            p99_ns: latency.value_at_quantile(0.99),
            p999_ns: latency.value_at_quantile(0.999),
            max_ns: latency.max(),
            latency_mean_ns: latency.mean(),
            outliers: Outliers::of(latency),
            allocations_per_op: raw.allocations_per_op,
            allocated_bytes_per_op: raw.allocated_bytes_per_op,
            histogram: raw.histogram,
        }
    }
}

impl TryFrom<RawRun> for RunStats {
    type Error = String;

    fn try_from(raw: RawRun) -> Result<RunStats, String> {
        if raw.ops == 0 {
            return Err("a run of no operations".to_owned());
        }
        let latency = decode_histogram(&raw.histogram)?;
        Ok(RunStats::of(raw, &latency))
    }
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
        Spread {
            median: median_of_sorted(&v),
            min: v[0],
            max: v[v.len() - 1],
        }
    }

    /// (max − min) / median: the noise a reader should weigh a difference against.
    pub fn relative_range(&self) -> f64 {
        if self.median > 0.0 {
            (self.max - self.min) / self.median
        } else {
            0.0
        }
    }
}

/// Median of an odd count is the middle value; of an even count, the mean of the middle two.
fn median_of_sorted(v: &[f64]) -> f64 {
    let mid = v.len() / 2;
    if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    }
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

impl Interval {
    pub fn overlaps(&self, other: &Interval) -> bool {
        self.low <= other.high && other.low <= self.high
    }
}

const BOOTSTRAP_RESAMPLES: usize = 2_000;
const BOOTSTRAP_SEED: u64 = 0x5eed;

/// Percentile bootstrap of `statistic` over runs resampled with replacement
/// (fixed seed: the same runs always give the same interval).
fn bootstrap(samples: &[&[f64]], statistic: impl Fn(&[f64]) -> f64) -> Interval {
    let mut rng = ChaCha8Rng::seed_from_u64(BOOTSTRAP_SEED);
    let mut estimates = Vec::with_capacity(BOOTSTRAP_RESAMPLES);
    let mut resampled: Vec<Vec<f64>> = samples.iter().map(|s| vec![0.0; s.len()]).collect();
    let mut medians = vec![0.0; samples.len()];
    for _ in 0..BOOTSTRAP_RESAMPLES {
        for ((sample, out), m) in samples.iter().zip(&mut resampled).zip(&mut medians) {
            for slot in out.iter_mut() {
                *slot = sample[rng.random_range(0..sample.len())];
            }
            *m = median(out);
        }
        estimates.push(statistic(&medians));
    }
    estimates.sort_by(f64::total_cmp);
    let at = |q: f64| estimates[((estimates.len() - 1) as f64 * q).round() as usize];
    Interval {
        low: at(0.025),
        high: at(0.975),
    }
}

/// The median's 95 % interval, by bootstrap over runs.
pub fn median_interval(runs: &[f64]) -> Interval {
    bootstrap(&[runs], |medians| medians[0])
}

/// Half the width of the median's 95 % interval over the median: 0.02 = ±2 %;
/// none from a single run, which gives no interval.
pub fn precision(runs: &[f64]) -> Option<f64> {
    let mut sorted = runs.to_vec();
    precision_of(median_interval(runs), median(&mut sorted), runs.len())
}

/// [`precision`] from the interval and median already at hand.
fn precision_of(ci: Interval, median: f64, runs: usize) -> Option<f64> {
    (runs >= 2).then(|| (ci.high - ci.low) / 2.0 / median.max(f64::MIN_POSITIVE))
}

/// The 95 % interval of median(runs) / median(reference), resampling both sides.
pub fn ratio_interval(runs: &[f64], reference: &[f64]) -> Interval {
    bootstrap(&[runs, reference], |medians| {
        medians[0] / medians[1].max(f64::MIN_POSITIVE)
    })
}

/// One direction summarized across measured runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub ns_per_op: Spread,
    /// Bootstrap 95 % interval of the median ns/op.
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
}

impl Summary {
    /// The summary of one or more runs.
    pub fn of(runs: &[&RunStats]) -> Summary {
        let values = |f: fn(&RunStats) -> f64| runs.iter().map(|r| f(r)).collect::<Vec<f64>>();
        let spread = |f: fn(&RunStats) -> f64| Spread::of(values(f));
        let ci = |f: fn(&RunStats) -> f64| median_interval(&values(f));
        let (ns_per_op, ns_per_op_ci) = (spread(|r| r.ns_per_op), ci(|r| r.ns_per_op));
        Summary {
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
                low: runs.iter().map(|r| r.outliers.low).sum(),
                high: runs.iter().map(|r| r.outliers.high).sum(),
            },
            allocations_per_op: runs
                .iter()
                .all(|r| r.allocations_per_op.is_some())
                .then(|| spread(|r| r.allocations_per_op.unwrap_or_default())),
            allocated_bytes_per_op: spread(|r| r.allocated_bytes_per_op),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(ns: impl IntoIterator<Item = u64>) -> Samples {
        let mut s = Samples::new();
        for v in ns {
            s.latency.record(v).unwrap();
        }
        s
    }

    #[test]
    fn throughput_comes_from_the_timed_loops_and_percentiles_from_the_histogram() {
        let mut s = samples(1..=1000);
        s.loop_ns = 400_000;
        s.ops = 1000;
        s.allocations = Allocations {
            count: 500,
            bytes: 4000,
        };
        let r = s.finish();
        assert_eq!(r.ns_per_op, 400.0);
        assert_eq!(r.ops_per_s, 1000.0 / 400e-6);
        assert_eq!((r.p50_ns, r.p99_ns, r.max_ns), (500, 990, 1000));
        assert_eq!(
            (r.allocations_per_op, r.allocated_bytes_per_op),
            (Some(0.5), 4.0)
        );
    }

    #[test]
    fn the_stored_histogram_recomputes_the_reported_percentiles() {
        let r = samples((1..=10_000).map(|i| i * 7 % 3001 + 20)).finish();
        let h = decode_histogram(&r.histogram).unwrap();
        assert_eq!(h.value_at_quantile(0.99), r.p99_ns);
        assert_eq!(h.max(), r.max_ns);
        assert_eq!(h.len(), 10_000);
    }

    #[test]
    fn tukey_fences_count_the_tail() {
        let mut values: Vec<u64> = (100..200).collect();
        values.extend([5_000, 6_000, 7_000]);
        let r = samples(values).finish();
        assert_eq!(r.outliers, Outliers { low: 0, high: 3 });
    }

    #[test]
    fn spread_takes_the_median_run() {
        assert_eq!(
            Spread::of([5.0, 1.0, 3.0]),
            Spread {
                median: 3.0,
                min: 1.0,
                max: 5.0
            }
        );
        assert_eq!(Spread::of([4.0, 1.0, 3.0, 2.0]).median, 2.5);
        assert!((Spread::of([90.0, 100.0, 110.0]).relative_range() - 0.2).abs() < 1e-12);
    }

    #[test]
    fn bootstrap_intervals_hold_the_median_and_separate_distinct_formats() {
        let a = [100.0, 101.0, 99.0, 100.5, 100.2];
        let b = [150.0, 149.0, 151.0, 150.5, 149.5];
        let ia = median_interval(&a);
        assert!(
            ia.low <= 100.2 && 100.2 <= ia.high && ia.low >= 99.0 && ia.high <= 101.0,
            "{ia:?}"
        );
        assert!(!ia.overlaps(&median_interval(&b)));
        let ratio = ratio_interval(&b, &a);
        assert!(ratio.low > 1.4 && ratio.high < 1.6, "{ratio:?}");
        assert_eq!(median_interval(&a), median_interval(&a), "deterministic");
    }

    #[test]
    fn histograms_written_by_every_runner_are_read_back() {
        let mut h = new_histogram();
        h.record(42).unwrap();
        let mut plain = Vec::new();
        hdrhistogram::serialization::V2Serializer::new()
            .serialize(&h, &mut plain)
            .unwrap();
        let mut deflated = Vec::new();
        hdrhistogram::serialization::V2DeflateSerializer::new()
            .serialize(&h, &mut deflated)
            .unwrap();
        for bytes in [plain, deflated] {
            let text = base64::engine::general_purpose::STANDARD.encode(bytes);
            assert_eq!(decode_histogram(&text).map(|h| h.max()), Ok(42));
        }
        assert!(decode_histogram("not a histogram").is_err());
    }

    /// The engine's test vectors (spec/statistics-vectors.json): per-run
    /// values and what the engine makes of them. Every language's figures go
    /// through this one engine, so these pin what a results file's summary
    /// means; a change to the arithmetic shows here first.
    #[test]
    fn the_engine_matches_its_test_vectors() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../spec/statistics-vectors.json"
        );
        let cases: [(&str, &[f64], &[f64]); 4] = [
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
        ];
        let actual: Vec<serde_json::Value> = cases
            .iter()
            .map(|(name, runs, reference)| {
                let ci = median_interval(runs);
                let ratio = ratio_interval(runs, reference);
                let spread = Spread::of(runs.iter().copied());
                serde_json::json!({
                    "case": name,
                    "runs": runs,
                    "reference_runs": reference,
                    "median": spread.median,
                    "min": spread.min,
                    "max": spread.max,
                    "median_ci": [ci.low, ci.high],
                    "precision": precision(runs),
                    "ratio_to_reference_ci": [ratio.low, ratio.high],
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&serde_json::json!({
            "what": "per-run values and the statistics shootout's one engine (crates/shootout/src/benchmark/stats.rs) \
                     derives from them: median (of an even count, the mean of the middle two), min, max, the \
                     bootstrap 95 % interval of the median (2,000 resamples, ChaCha8 seeded 0x5eed), precision \
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
