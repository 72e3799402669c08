//! Which records each speed replays, and when (docs/replay.md, "The plan"):
//! the capture's busiest second is found in a first pass, and only the
//! records the spans around it can hold are kept in the second, so memory is
//! bounded by `--max-records` whatever the capture's size.

use std::ops::Range;

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

use crate::input::Source;
use crate::input::ingest::{CaptureReport, Records, rfc3339};
use crate::workload::iex::MultiMessage;

pub const SCHEMA: &str = "shootout-replay-plan/1";

const NS_PER_SECOND: i64 = 1_000_000_000;

/// A replay speed: a factor on the capture's own pace, or as fast as the consumer takes records.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Speed {
    Factor(f64),
    Max(MaxSpeed),
}

/// `"max"` in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MaxSpeed {
    Max,
}

impl Speed {
    pub const MAX: Speed = Speed::Max(MaxSpeed::Max);

    /// `--speed`'s parser: a positive factor or `max`.
    pub fn parse(text: &str) -> std::result::Result<Speed, String> {
        if text == "max" {
            return Ok(Speed::MAX);
        }
        match text.parse::<f64>() {
            Ok(factor) if factor.is_finite() && factor > 0.0 => Ok(Speed::Factor(factor)),
            _ => Err(format!("expected a positive speed factor (1, 10, 0.5) or max, not '{text}'")),
        }
    }

    pub fn factor(self) -> Option<f64> {
        match self {
            Speed::Factor(factor) => Some(factor),
            Speed::Max(_) => None,
        }
    }
}

impl std::fmt::Display for Speed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Speed::Factor(factor) => write!(f, "{factor}x"),
            Speed::Max(_) => f.write_str("max"),
        }
    }
}

/// The busiest calendar second: its start (ns since the epoch), its first
/// record's index in the capture, and how many records it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Busiest {
    pub second_ns: i64,
    pub first: u64,
    pub records: u64,
}

impl Busiest {
    /// Its middle record, the centre of every span.
    fn middle(&self) -> u64 {
        self.first + self.records / 2
    }
}

/// The first pass: the capture's record count, time range and busiest second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Census {
    pub records: u64,
    pub first_ns: i64,
    pub last_ns: i64,
    pub busiest: Busiest,
}

/// Send times made non-decreasing, so the schedule never runs backwards.
struct Monotone(Option<i64>);

impl Monotone {
    fn next(&mut self, own: i64) -> i64 {
        let t = self.0.map_or(own, |previous| previous.max(own));
        self.0 = Some(t);
        t
    }
}

fn each_record(
    source: &Source,
    mut visit: impl FnMut(u64, i64, &MultiMessage),
) -> Result<CaptureReport> {
    let mut records = Records::open(source)?;
    let mut window = Vec::new();
    let mut monotone = Monotone(None);
    let mut index = 0u64;
    while records.next_window(&mut window, crate::input::DEFAULT_WINDOW)? > 0 {
        for (record, &own) in window.iter().zip(records.send_times()) {
            visit(index, monotone.next(own), record);
            index += 1;
        }
    }
    records.finish()
}

/// Counts records per calendar second as send times come, in order.
#[derive(Default)]
struct Tally {
    census: Option<Census>,
    current: Option<Busiest>,
}

impl Tally {
    fn add(&mut self, index: u64, t: i64) {
        // Saturating: a time within a second of i64::MIN has no representable
        // second start, and [`census`] refuses such a capture anyway.
        let second_ns = t.saturating_sub(t.rem_euclid(NS_PER_SECOND));
        let current = match &mut self.current {
            Some(current) if current.second_ns == second_ns => current,
            current => current.insert(Busiest { second_ns, first: index, records: 0 }),
        };
        current.records += 1;
        let census = self.census.get_or_insert(Census {
            records: 0,
            first_ns: t,
            last_ns: t,
            busiest: *current,
        });
        if current.records > census.busiest.records {
            census.busiest = *current;
        }
        census.records += 1;
        census.last_ns = t;
    }
}

pub fn census(source: &Source) -> Result<(Census, CaptureReport)> {
    let mut tally = Tally::default();
    let report = each_record(source, |index, t, _| tally.add(index, t))?;
    let Some(census) = tally.census else {
        bail!("{}: no records to replay (no packet holds a trade or a price update)", source.name())
    };
    // Every difference of two send times is then an i64, and every release
    // time a u64: the schedule's arithmetic cannot wrap.
    if census.last_ns.checked_sub(census.first_ns).is_none() {
        bail!(
            "{}: send times from {} to {} lie 2^63 ns (292 years) or more apart; expected the \
             hours of one capture, which a replay schedule can hold",
            source.name(),
            rfc3339(census.first_ns),
            rfc3339(census.last_ns)
        );
    }
    Ok((census, report))
}

/// The records the spans can reach, with their send times.
pub struct Kept {
    /// Capture index of `records[0]`.
    pub offset: u64,
    pub records: Vec<MultiMessage>,
    pub send_times: Vec<i64>,
}

/// The second pass: keeps the `2 × max_records` records around the busiest
/// second's middle, which hold every span (a span holding a record further
/// out would hold more than `max_records` and be cut to those nearest the middle).
pub fn keep(source: &Source, census: &Census, max_records: u64) -> Result<Kept> {
    let middle = census.busiest.middle();
    let range = middle.saturating_sub(max_records)..(middle + max_records).min(census.records);
    let mut kept = Kept { offset: range.start, records: Vec::new(), send_times: Vec::new() };
    each_record(source, |index, t, record| {
        if range.contains(&index) {
            kept.records.push(record.clone());
            kept.send_times.push(t);
        }
    })?;
    if kept.records.len() as u64 != range.end - range.start {
        bail!("{}: the capture changed between two readings", source.name());
    }
    Ok(kept)
}

/// The records speed `speed` replays, as capture indices.
pub fn span(
    census: &Census,
    kept: &Kept,
    speed: Speed,
    seconds: f64,
    max_records: u64,
) -> Range<u64> {
    let middle = census.busiest.middle();
    let around_middle = |within: Range<u64>| {
        if within.end - within.start <= max_records {
            return within;
        }
        let start =
            middle.saturating_sub(max_records / 2).clamp(within.start, within.end - max_records);
        start..start + max_records
    };
    let Some(factor) = speed.factor() else { return around_middle(0..census.records) };
    // In i128: a span may reach past either end of i64 before it is moved
    // inside the capture, and `[lo, hi)` holds a record at i64::MAX. No span
    // is longer than u64::MAX ns, which holds any capture's send times whole.
    let length = ((seconds * factor * NS_PER_SECOND as f64) as i128).clamp(1, i128::from(u64::MAX));
    let centre = i128::from(kept.send_times[(middle - kept.offset) as usize]);
    let (first_ns, last_ns) = (i128::from(census.first_ns), i128::from(census.last_ns));
    let mut lo = centre - length / 2;
    let mut hi = lo + length;
    if lo < first_ns {
        lo = first_ns;
        hi = lo + length;
    }
    if hi > last_ns {
        hi = last_ns + 1;
        lo = (hi - length).max(first_ns);
    }
    // Capture index of the first kept record at or after `t`; past the kept
    // records' ends, the capture's own ends stand in (a span reaching there is cut anyway).
    let index_at = |t: i128| {
        let at = kept.send_times.partition_point(|&kept_t| i128::from(kept_t) < t) as u64;
        if at == 0 && kept.offset > 0 && t < i128::from(kept.send_times[0]) {
            0
        } else if at == kept.send_times.len() as u64 {
            if kept.offset + at < census.records { census.records } else { kept.offset + at }
        } else {
            kept.offset + at
        }
    };
    around_middle(index_at(lo)..index_at(hi))
}

/// One run of the plan: a speed over records `[first, end)` of the dataset.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PlannedRun {
    pub speed: Speed,
    pub first: usize,
    pub end: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexRange {
    pub first: usize,
    pub end: usize,
}

/// What every runner replays (docs/replay.md, `shootout-replay-plan/1`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Plan {
    pub schema: String,
    pub send_time_ns: Vec<i64>,
    pub busiest_second: IndexRange,
    pub transports: Vec<super::engine::Transport>,
    pub warmup_records: usize,
    pub runs: Vec<PlannedRun>,
}

/// The plan and the records it replays (the spans' union, in capture order).
pub struct Planned {
    pub plan: Plan,
    pub records: Vec<MultiMessage>,
    /// Capture index of `records[0]`.
    pub offset: u64,
}

/// How to replay: the speeds, transports and limits, as the results file records them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Settings {
    pub speeds: Vec<Speed>,
    pub transports: Vec<super::engine::Transport>,
    pub seconds: f64,
    pub max_records: u64,
    pub warmup_records: usize,
    pub budget_ns: u64,
}

pub fn plan(census: &Census, kept: Kept, settings: &Settings) -> Planned {
    let spans: Vec<Range<u64>> = settings
        .speeds
        .iter()
        .map(|&speed| span(census, &kept, speed, settings.seconds, settings.max_records))
        .collect();
    let start = spans.iter().map(|s| s.start).min().expect("at least one speed");
    let end = spans.iter().map(|s| s.end).max().expect("at least one speed");
    let local = |i: u64| (i - start) as usize;
    let (first, last) = ((start - kept.offset) as usize, (end - kept.offset) as usize);
    let busiest = census.busiest.first..census.busiest.first + census.busiest.records;
    let clip = |i: u64| local(i.clamp(start, end));
    let Kept { mut records, send_times, .. } = kept;
    records.truncate(last);
    records.drain(..first);
    Planned {
        plan: Plan {
            schema: SCHEMA.to_owned(),
            send_time_ns: send_times[first..last].to_vec(),
            busiest_second: IndexRange { first: clip(busiest.start), end: clip(busiest.end) },
            transports: settings.transports.to_vec(),
            warmup_records: settings.warmup_records,
            runs: settings
                .speeds
                .iter()
                .zip(&spans)
                .map(|(&speed, span)| PlannedRun {
                    speed,
                    first: local(span.start),
                    end: local(span.end),
                })
                .collect(),
        },
        records,
        offset: start,
    }
}

impl Plan {
    /// Release times of run `run`'s records, ns after the first (none at `max`).
    pub fn offsets(&self, run: &PlannedRun) -> Option<Vec<u64>> {
        let factor = run.speed.factor()?;
        let times = &self.send_time_ns[run.first..run.end];
        let t0 = times.first().copied().unwrap_or(0);
        // abs_diff: send times are non-decreasing, and their span fits (`census`).
        Some(times.iter().map(|&t| (t.abs_diff(t0) as f64 / factor) as u64).collect())
    }

    /// Records per second the schedule of `run` offers; none at `max`, or for one record.
    pub fn offered_per_second(&self, run: &PlannedRun) -> Option<f64> {
        let factor = run.speed.factor()?;
        let times = &self.send_time_ns[run.first..run.end];
        let span_ns = times.last()?.abs_diff(*times.first()?) as f64 / factor;
        (span_ns > 0.0).then(|| (run.end - run.first) as f64 / (span_ns / 1e9))
    }

    /// The largest span: what warm-ups take their records from.
    pub fn widest(&self) -> Option<&PlannedRun> {
        self.runs.iter().max_by_key(|run| run.end - run.first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn census(times: &[i64]) -> (Census, Kept) {
        let mut tally = Tally::default();
        for (i, &t) in times.iter().enumerate() {
            tally.add(i as u64, t);
        }
        let kept = Kept { offset: 0, records: Vec::new(), send_times: times.to_vec() };
        (tally.census.unwrap(), kept)
    }

    const S: i64 = NS_PER_SECOND;

    /// One record a second for 100 s, and 11 more in second 10.
    fn times() -> Vec<i64> {
        let mut times: Vec<i64> = (0..100).map(|s| s * S).collect();
        times.extend((1..=11).map(|k| 10 * S + k * (S / 20)));
        times.sort();
        times
    }

    #[test]
    fn the_busiest_second_is_the_one_with_most_records() {
        let (census, _) = census(&times());
        assert_eq!(census.busiest, Busiest { second_ns: 10 * S, first: 10, records: 12 });
        assert_eq!((census.first_ns, census.last_ns, census.records), (0, 99 * S, 111));
    }

    #[test]
    fn a_finite_speed_replays_its_seconds_times_the_speed_around_the_busiest_second() {
        let (census, kept) = census(&times());
        // The middle record (index 16) is at 10.3 s; 10 s of capture around it: [5.3 s, 15.3 s).
        let span = span(&census, &kept, Speed::Factor(5.0), 2.0, 1_000);
        assert_eq!(kept.send_times[span.start as usize], 6 * S);
        assert_eq!(kept.send_times[span.end as usize - 1], 15 * S);
        assert_eq!(span.end - span.start, 10 + 11);
    }

    #[test]
    fn a_span_overhanging_the_capture_is_moved_inside_it() {
        let (census, kept) = census(&times());
        // 30 s around 10.3 s would start before the capture: [0, 30 s), moved, not cut.
        let span = span(&census, &kept, Speed::Factor(15.0), 2.0, 1_000);
        assert_eq!(span, 0..30 + 11);
        let whole = super::span(&census, &kept, Speed::Factor(1000.0), 2.0, 1_000);
        assert_eq!(whole, 0..census.records);
    }

    #[test]
    fn spans_are_cut_to_max_records_around_the_middle_and_max_takes_max_records() {
        let (census, kept) = census(&times());
        assert_eq!(span(&census, &kept, Speed::Factor(1000.0), 2.0, 10), 11..21);
        assert_eq!(span(&census, &kept, Speed::MAX, 2.0, 10), 11..21);
        assert_eq!(span(&census, &kept, Speed::MAX, 2.0, 1_000), 0..census.records);
    }

    #[test]
    fn offsets_scale_the_send_times_by_the_speed() {
        let plan = Plan {
            schema: SCHEMA.to_owned(),
            send_time_ns: vec![10, 20, 40, 40],
            busiest_second: IndexRange { first: 0, end: 4 },
            transports: vec![],
            warmup_records: 0,
            runs: vec![],
        };
        let run = PlannedRun { speed: Speed::Factor(2.0), first: 1, end: 4 };
        assert_eq!(plan.offsets(&run), Some(vec![0, 10, 10]));
        assert_eq!(plan.offered_per_second(&run), Some(3.0 / (10.0 / 1e9)));
        assert_eq!(plan.offsets(&PlannedRun { speed: Speed::MAX, first: 0, end: 4 }), None);
    }

    #[test]
    fn send_times_at_both_ends_of_i64_are_counted_without_wrapping() {
        let (census, _) = census(&[i64::MIN, i64::MAX, i64::MAX]);
        assert_eq!((census.first_ns, census.last_ns, census.records), (i64::MIN, i64::MAX, 3));
        assert_eq!(census.busiest.records, 2);
        assert!(census.last_ns.checked_sub(census.first_ns).is_none(), "what census refuses");
    }

    /// Send times at the very end of i64 (a span fits: it is 0) still make
    /// a span of every record, which a saturating `last + 1` made empty.
    #[test]
    fn a_capture_at_the_end_of_i64_is_replayed_whole() {
        for times in [[i64::MAX; 3], [i64::MIN; 3]] {
            let (census, kept) = census(&times);
            assert_eq!(span(&census, &kept, Speed::Factor(1.0), 2.0, 1_000), 0..3);
            assert_eq!(span(&census, &kept, Speed::Factor(1e300), 2.0, 1_000), 0..3);
        }
    }

    #[test]
    fn speeds_parse_as_factors_or_max() {
        assert_eq!(Speed::parse("100"), Ok(Speed::Factor(100.0)));
        assert_eq!(Speed::parse("max"), Ok(Speed::MAX));
        assert!(Speed::parse("0").is_err());
        assert!(Speed::parse("fast").unwrap_err().contains("'fast'"));
        assert_eq!(serde_json::to_string(&Speed::MAX).unwrap(), "\"max\"");
        assert_eq!(serde_json::to_string(&Speed::Factor(1.0)).unwrap(), "1.0");
    }
}
