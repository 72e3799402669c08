//! The one statistics engine, for every language's runner. Each runner
//! writes only the raw figures of each run (the throughput pass's total time
//! and operations, the latency pass's histogram, the allocation pass's counts);
//! everything derived from them, per run ([`RunStats`]) and across runs
//! ([`Summary`]: medians, bootstrap intervals, precision), is computed here,
//! whether the run was Rust's own or read back from a results file.

use std::io::{Cursor, Read};

use base64::Engine;
use hdrhistogram::Histogram;
use hdrhistogram::serialization::{Deserializer, Serializer, V2Serializer};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::alloc::Allocations;

/// Enough range for one record taking a minute; 3 significant digits.
const HIGHEST_NS: u64 = 60_000_000_000;

pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, HIGHEST_NS, 3).expect("valid histogram bounds")
}

/// What one direction accumulates over the windows of one run, one field per pass.
pub struct Samples {
    /// Throughput pass: whole windows timed, no clock inside; `ops` over
    /// every throughput round.
    pub loop_ns: u64,
    pub ops: u64,
    /// Latency pass: one sample per op, the empty region's cost subtracted.
    pub latency: Histogram<u64>,
    /// Allocation pass, and the operations it counted over (one round's).
    pub allocations: Allocations,
    pub allocation_ops: u64,
}

impl Samples {
    pub fn new() -> Self {
        Samples {
            loop_ns: 0,
            ops: 0,
            latency: new_histogram(),
            allocations: Allocations::default(),
            allocation_ops: 0,
        }
    }

    pub fn finish(&self) -> RunStats {
        let ops = self.allocation_ops.max(1) as f64;
        RunStats::of(
            RawRun {
                total_ns: self.loop_ns,
                ops: self.ops,
                histogram: encode_histogram(&self.latency),
                allocations_per_op: Some(self.allocations.count as f64 / ops),
                allocated_bytes_per_op: self.allocations.bytes as f64 / ops,
                gc_count: None,
                gc_pause_ms: None,
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

/// The latency histogram in HdrHistogram's V2 format, base64: any HdrHistogram
/// library can read it back to merge runs or compute other percentiles.
pub fn encode_histogram(h: &Histogram<u64>) -> String {
    let mut bytes = Vec::new();
    V2Serializer::new()
        .serialize(h, &mut bytes)
        .expect("serializing a histogram into memory cannot fail");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A histogram as runners store it: base64 of HdrHistogram's V2 encoding,
/// plain (Rust, Java) or deflated (Go). The header is checked against
/// [`HistogramLimits`] before the hdrhistogram crate sizes anything by it, so a
/// results file cannot make a reader allocate more than its own size implies.
pub fn decode_histogram(text: &str) -> Result<Histogram<u64>, String> {
    if text.len() > HISTOGRAM_LIMITS.base64_chars() {
        return Err(format!(
            "{} characters of base64; expected at most {} (the largest histogram a runner writes)",
            text.len(),
            HISTOGRAM_LIMITS.base64_chars()
        ));
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| format!("not base64 ({e})"))?;
    let plain = HISTOGRAM_LIMITS.plain_encoding(bytes)?;
    let histogram: Histogram<u64> = Deserializer::new()
        .deserialize(&mut Cursor::new(plain))
        .map_err(|e| format!("not an HdrHistogram V2 encoding ({e})"))?;
    if histogram.len() > HISTOGRAM_LIMITS.samples {
        return Err(format!(
            "{} samples; expected at most {} (one per record of a run)",
            histogram.len(),
            HISTOGRAM_LIMITS.samples
        ));
    }
    Ok(histogram)
}

/// What a stored latency histogram may declare. Every runner records from
/// 1 ns up to a minute (Rust) or 10 s (Go, Java) at 3 significant figures;
/// the counts array HdrHistogram allocates grows with the figures and the
/// range (5 figures up to 2^62 ns is 48 MB), so a header beyond these is
/// refused before anything is allocated for it.
pub struct HistogramLimits {
    pub lowest_ns: u64,
    pub significant_figures: u32,
    /// An hour: no one record's latency comes near it.
    pub highest_ns: u64,
    /// The encoded counts (LEB128, 9 bytes each at worst) of the largest
    /// histogram these bounds allow take about 300 KB.
    pub payload_bytes: usize,
    /// One sample per record: far more than any input holds, and small
    /// enough that sums over every run of a direction cannot overflow.
    pub samples: u64,
}

pub const HISTOGRAM_LIMITS: HistogramLimits = HistogramLimits {
    lowest_ns: 1,
    significant_figures: 3,
    highest_ns: 3_600_000_000_000,
    payload_bytes: 512 * 1024,
    samples: 1 << 40,
};

/// HdrHistogram's V2 cookies (with the word size bits its writers set), and
/// the V2 header: cookie, payload length, normalizing offset, significant
/// figures, lowest and highest value, integer-to-double ratio.
const V2_COOKIE: u64 = 0x1c84_9313;
const V2_DEFLATED_COOKIE: u64 = 0x1c84_9314;
const V2_HEADER_BYTES: usize = 40;

impl HistogramLimits {
    /// The longest base64 text of a histogram within the limits.
    pub const fn base64_chars(&self) -> usize {
        (V2_HEADER_BYTES + self.payload_bytes).div_ceil(3) * 4
    }

    /// The plain V2 encoding of `bytes` (inflated when deflated, with the
    /// inflated size capped), once its header is within the limits.
    fn plain_encoding(&self, bytes: Vec<u8>) -> Result<Vec<u8>, String> {
        let plain = match bytes.get(..4).map(|cookie| big_endian(cookie, 0, 4)) {
            Some(V2_COOKIE) => bytes,
            Some(V2_DEFLATED_COOKIE) => {
                let deflated = bytes.get(8..).unwrap_or_default();
                let most = (V2_HEADER_BYTES + self.payload_bytes) as u64;
                let mut plain = Vec::new();
                flate2::read::ZlibDecoder::new(deflated)
                    .take(most + 1)
                    .read_to_end(&mut plain)
                    .map_err(|e| format!("a deflated V2 encoding that does not inflate ({e})"))?;
                if plain.len() as u64 > most {
                    return Err(format!(
                        "a deflated V2 encoding inflating past {most} bytes; expected at most that (the largest histogram a runner writes)"
                    ));
                }
                plain
            }
            _ => return Err("not an HdrHistogram V2 encoding (no V2 cookie)".to_owned()),
        };
        self.check_header(&plain)?;
        Ok(plain)
    }

    fn check_header(&self, plain: &[u8]) -> Result<(), String> {
        let Some(header) =
            plain.get(..V2_HEADER_BYTES).filter(|h| big_endian(h, 0, 4) == V2_COOKIE)
        else {
            return Err(format!(
                "a V2 encoding of {} bytes; expected a {V2_HEADER_BYTES}-byte header from a V2 cookie",
                plain.len()
            ));
        };
        let (payload, figures) = (big_endian(header, 4, 4), big_endian(header, 12, 4));
        let (lowest, highest) = (big_endian(header, 16, 8), big_endian(header, 24, 8));
        if figures == 0 || figures > u64::from(self.significant_figures) {
            return Err(format!(
                "{figures} significant figures; expected 1 to {}",
                self.significant_figures
            ));
        }
        if lowest != self.lowest_ns || highest < 2 * lowest || highest > self.highest_ns {
            return Err(format!(
                "values from {lowest} to {highest} ns; expected from {} to at most {} ns (an hour)",
                self.lowest_ns, self.highest_ns
            ));
        }
        let most = self.payload_bytes.min(plain.len() - V2_HEADER_BYTES);
        if payload > most as u64 {
            return Err(format!(
                "a payload of {payload} bytes; expected at most {most} (the bytes present, and at most {})",
                self.payload_bytes
            ));
        }
        Ok(())
    }
}

/// The big-endian unsigned number of `len` bytes at `at` (the caller checked the length).
fn big_endian(bytes: &[u8], at: usize, len: usize) -> u64 {
    bytes[at..at + len].iter().fold(0, |n, &b| n << 8 | u64::from(b))
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
pub struct RawRun {
    /// Sum of the throughput pass's timed window loops.
    pub total_ns: u64,
    pub ops: u64,
    /// The latency pass's histogram (see [`decode_histogram`]).
    pub histogram: String,
    pub allocations_per_op: Option<f64>,
    pub allocated_bytes_per_op: f64,
    /// Garbage collections that ended during the throughput pass, and their
    /// time in ms, from a runner with a collector (the JVM).
    pub gc_count: Option<u64>,
    pub gc_pause_ms: Option<u64>,
}

/// A histogram read from a results file: its text, written back as it was,
/// and what it decodes to. Decoded as it is read, so that an encoding beyond
/// [`HISTOGRAM_LIMITS`] is refused at its own place in the file.
pub struct StoredHistogram {
    pub text: String,
    pub decoded: Histogram<u64>,
}

impl<'de> Deserialize<'de> for StoredHistogram {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let decoded = decode_histogram(&text).map_err(serde::de::Error::custom)?;
        Ok(StoredHistogram { text, decoded })
    }
}

/// One direction of one measured run: the raw figures and what they give.
/// Throughput figures come from the throughput pass only; percentiles from
/// the latency pass; allocations from their own pass.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    /// As [`RawRun::gc_count`] and [`RawRun::gc_pause_ms`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gc_count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gc_pause_ms: Option<u64>,
    /// The latency pass's histogram, HdrHistogram V2 serialization in base64.
    pub histogram: String,
}

impl RunStats {
    /// Everything one run's raw figures give; `latency` is `raw.histogram` decoded.
    pub fn of(raw: RawRun, latency: &Histogram<u64>) -> RunStats {
        let seconds = raw.total_ns as f64 / 1e9;
        RunStats {
            ns_per_op: raw.total_ns as f64 / raw.ops.max(1) as f64,
            total_ns: raw.total_ns,
            ops: raw.ops,
            ops_per_s: if seconds > 0.0 { raw.ops as f64 / seconds } else { 0.0 },
            p50_ns: latency.value_at_quantile(0.50),
            p90_ns: latency.value_at_quantile(0.90),
            p99_ns: latency.value_at_quantile(0.99),
            p999_ns: latency.value_at_quantile(0.999),
            max_ns: latency.max(),
            latency_mean_ns: latency.mean(),
            outliers: Outliers::of(latency),
            allocations_per_op: raw.allocations_per_op,
            allocated_bytes_per_op: raw.allocated_bytes_per_op,
            gc_count: raw.gc_count,
            gc_pause_ms: raw.gc_pause_ms,
            histogram: raw.histogram,
        }
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
fn precision_of(ci: Interval, median: f64, runs: usize) -> Option<f64> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curve_reaches_the_finest_quantile_its_samples_resolve_then_the_max() {
        let mut h = new_histogram();
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

    fn samples(ns: impl IntoIterator<Item = u64>) -> Samples {
        let mut s = Samples::new();
        for v in ns {
            s.latency.record(v).unwrap();
        }
        s
    }

    #[test]
    fn throughput_comes_from_the_timed_loops_and_percentiles_from_the_histogram() {
        // Three throughput rounds over 1000 records; one allocation pass over them.
        let mut s = samples(1..=1000);
        s.loop_ns = 1_200_000;
        s.ops = 3000;
        s.allocations = Allocations { count: 500, bytes: 4000 };
        s.allocation_ops = 1000;
        let r = s.finish();
        assert_eq!(r.ns_per_op, 400.0);
        assert_eq!(r.ops_per_s, 3000.0 / 1200e-6);
        assert_eq!((r.p50_ns, r.p99_ns, r.max_ns), (500, 990, 1000));
        assert_eq!((r.allocations_per_op, r.allocated_bytes_per_op), (Some(0.5), 4.0));
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

    #[test]
    fn histograms_written_by_every_runner_are_read_back() {
        let mut h = new_histogram();
        h.record(42).unwrap();
        let mut plain = Vec::new();
        hdrhistogram::serialization::V2Serializer::new().serialize(&h, &mut plain).unwrap();
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

    /// A V2 header as a forged file would write it.
    fn v2_header(figures: u32, lowest: u64, highest: u64, declared_payload: u32) -> Vec<u8> {
        let mut bytes = (V2_COOKIE as u32).to_be_bytes().to_vec();
        bytes.extend_from_slice(&declared_payload.to_be_bytes());
        bytes.extend_from_slice(&0u32.to_be_bytes());
        bytes.extend_from_slice(&figures.to_be_bytes());
        bytes.extend_from_slice(&lowest.to_be_bytes());
        bytes.extend_from_slice(&highest.to_be_bytes());
        bytes.extend_from_slice(&1f64.to_be_bytes());
        bytes
    }

    fn refusal(bytes: &[u8]) -> String {
        decode_histogram(&base64::engine::general_purpose::STANDARD.encode(bytes)).unwrap_err()
    }

    /// A header asking for more than any runner writes is refused before the
    /// counts it implies are allocated (5 figures up to 2^62 would be 48 MB),
    /// as is a deflated encoding inflating past the largest allowed; one at
    /// the limits is read.
    #[test]
    fn histograms_beyond_the_writers_limits_are_refused_before_allocating() {
        let limits = &HISTOGRAM_LIMITS;
        for (bytes, says) in [
            (v2_header(5, 1, 1 << 62, 0), "5 significant figures; expected 1 to 3"),
            (v2_header(0, 1, 1000, 0), "0 significant figures"),
            (v2_header(3, 2, 1000, 0), "values from 2 to 1000 ns"),
            (v2_header(3, 1, limits.highest_ns + 1, 0), "to 3600000000001 ns"),
            (v2_header(3, 1, 1000, u32::MAX), "a payload of 4294967295 bytes; expected at most 0"),
            (v2_header(3, 1, 1000, 0)[..39].to_vec(), "a V2 encoding of 39 bytes"),
        ] {
            let refused = refusal(&bytes);
            assert!(refused.contains(says), "{refused}");
        }
        let mut bomb = v2_header(3, 1, 1000, 0);
        bomb.resize(64 << 20, 0);
        let mut deflated = (V2_DEFLATED_COOKIE as u32).to_be_bytes().to_vec();
        deflated.extend_from_slice(&0u32.to_be_bytes());
        let mut zlib = flate2::write::ZlibEncoder::new(deflated, flate2::Compression::best());
        std::io::Write::write_all(&mut zlib, &bomb).unwrap();
        assert!(refusal(&zlib.finish().unwrap()).contains("inflating past"));

        let mut widest = Histogram::<u64>::new_with_bounds(1, limits.highest_ns, 3).unwrap();
        widest.record(limits.highest_ns).unwrap();
        let mut bytes = Vec::new();
        V2Serializer::new().serialize(&widest, &mut bytes).unwrap();
        let text = base64::engine::general_purpose::STANDARD.encode(&bytes);
        assert_eq!(decode_histogram(&text).map(|h| h.len()), Ok(1));

        widest.record_n(1, limits.samples).unwrap();
        bytes.clear();
        V2Serializer::new().serialize(&widest, &mut bytes).unwrap();
        assert!(refusal(&bytes).contains("samples; expected at most 1099511627776"));
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
            "what": "per-run values and the statistics shootout's one engine (crates/shootout/src/benchmark/stats.rs) \
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
