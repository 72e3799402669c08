//! The statistics of every replay run, computed once here from the histograms
//! each language's runner wrote, and the sustainable rate they imply.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use super::engine::Transport;
use super::plan::{Plan, PlannedRun, Speed};
use super::runs::{RunEntry, Runs};
use crate::document::decode_histogram;
use crate::stats::percentile_curve;

/// The percentiles every row shows.
pub const QUANTILES: [f64; 5] = [0.5, 0.9, 0.99, 0.999, 0.9999];

/// One run's figures.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    pub language: String,
    pub format: String,
    pub transport: Transport,
    pub speed: Speed,
    pub sent: u64,
    pub received: u64,
    pub drops: u64,
    /// One per [`QUANTILES`].
    pub percentiles: Vec<Percentile>,
    pub max_ns: u64,
    /// The percentile curve, (1 / (1 − q), ns) up to the finest quantile the
    /// records resolve, then the max: the HTML report's HDR curves.
    pub curve: Vec<(f64, u64)>,
    /// The busiest second's records ("at the open"), when the run held any.
    pub busiest: Option<Tail>,
    /// Latency by payload size class.
    pub sizes: Vec<SizeRow>,
    pub offered_per_second: Option<f64>,
    pub achieved_per_second: Option<f64>,
    pub max_backlog: u64,
    /// Steady-state allocations (and bytes) per record, per thread or for the process.
    pub allocations: Vec<PerRecord>,
    pub gc: Option<super::runs::Gc>,
    /// Why the run's figures are not shown.
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Percentile {
    pub quantile: f64,
    pub ns: u64,
    /// Fewer than ten records lie beyond it: shown with `~`.
    pub few: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tail {
    pub records: u64,
    pub p99_9_ns: u64,
    pub max_ns: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SizeRow {
    pub max_bytes: Option<u64>,
    pub records: u64,
    pub p50_ns: u64,
    pub p99_ns: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PerRecord {
    pub who: String,
    pub count: Option<f64>,
    pub bytes: Option<f64>,
}

/// The highest finite speed a format kept up with on a transport.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sustainable {
    pub language: String,
    pub format: String,
    pub transport: Transport,
    /// None: none of the finite speeds tried.
    pub speed: Option<f64>,
    pub budget_ns: u64,
}

/// Whether `q` lies within the last ten records of `n`.
fn few(q: f64, n: u64) -> bool {
    (n as f64) * (1.0 - q) < 10.0
}

fn histogram(text: &str, what: &str) -> Result<Histogram<u64>, String> {
    decode_histogram(text).map_err(|e| format!("{what} histogram: {e}"))
}

pub fn rows(plan: &Plan, languages: &[Runs]) -> Vec<Row> {
    rows_at(languages, |entry| {
        plan.offered_per_second(&PlannedRun {
            speed: entry.speed,
            first: entry.first.min(plan.send_time_ns.len()),
            end: entry.end.min(plan.send_time_ns.len()),
        })
    })
}

/// Every run's row, `offered` giving each run's offered rate (which only
/// the plan's send times tell), in the order of the languages' runs.
pub fn rows_at(languages: &[Runs], mut offered: impl FnMut(&RunEntry) -> Option<f64>) -> Vec<Row> {
    languages
        .iter()
        .flat_map(|runs| runs.runs.iter().map(move |entry| (&runs.language, entry)))
        .map(|(language, entry)| row(offered(entry), language, entry))
        .collect()
}

fn row(offered_per_second: Option<f64>, language: &str, entry: &RunEntry) -> Row {
    let mut row = Row {
        language: language.to_owned(),
        format: entry.format.clone(),
        transport: entry.transport,
        speed: entry.speed,
        sent: entry.sent,
        received: entry.received,
        drops: entry.sent.saturating_sub(entry.received),
        percentiles: Vec::new(),
        max_ns: 0,
        curve: Vec::new(),
        busiest: None,
        sizes: Vec::new(),
        offered_per_second,
        achieved_per_second: (entry.duration_ns > 0)
            .then(|| entry.received as f64 / (entry.duration_ns as f64 / 1e9)),
        max_backlog: entry.max_backlog,
        allocations: entry
            .allocations
            .iter()
            .map(|a| {
                let per = |v: Option<u64>| {
                    v.filter(|_| a.records > 0).map(|v| v as f64 / a.records as f64)
                };
                PerRecord { who: a.who.clone(), count: per(a.count), bytes: per(a.bytes) }
            })
            .collect(),
        gc: entry.gc.clone(),
        error: entry.error.clone(),
    };
    if row.error.is_some() {
        return row;
    }
    if let Err(error) = fill(&mut row, entry) {
        row.error = Some(error);
    }
    row
}

fn fill(row: &mut Row, entry: &RunEntry) -> Result<(), String> {
    let Some(latency) = &entry.latency else {
        return Err("no latency histogram, and no error saying why".to_owned());
    };
    let latency = histogram(latency, "latency")?;
    if latency.len() != entry.received {
        return Err(format!(
            "latency histogram holds {} records; {} were received",
            latency.len(),
            entry.received
        ));
    }
    row.percentiles = QUANTILES
        .iter()
        .map(|&q| Percentile {
            quantile: q,
            ns: latency.value_at_quantile(q),
            few: few(q, latency.len()),
        })
        .collect();
    row.max_ns = latency.max();
    row.curve = percentile_curve(&latency);
    if let Some(text) = &entry.busiest {
        let busiest = histogram(text, "busiest second")?;
        if !busiest.is_empty() {
            row.busiest = Some(Tail {
                records: busiest.len(),
                p99_9_ns: busiest.value_at_quantile(0.999),
                max_ns: busiest.max(),
            });
        }
    }
    for class in &entry.sizes {
        let sizes = histogram(&class.histogram, "size class")?;
        row.sizes.push(SizeRow {
            max_bytes: class.max_bytes,
            records: sizes.len(),
            p50_ns: sizes.value_at_quantile(0.5),
            p99_ns: sizes.value_at_quantile(0.99),
        });
    }
    Ok(())
}

impl Row {
    /// A valid run at a finite speed that dropped nothing, kept its p99.9
    /// within `budget_ns` and its achieved rate within 1 % of the offered one.
    pub fn sustained(&self, budget_ns: u64) -> bool {
        let Some(p99_9) = self.percentiles.iter().find(|p| p.quantile == 0.999) else {
            return false;
        };
        let kept_up = match (self.offered_per_second, self.achieved_per_second) {
            (Some(offered), Some(achieved)) => achieved >= 0.99 * offered,
            _ => true,
        };
        self.error.is_none()
            && self.speed.factor().is_some()
            && self.drops == 0
            && p99_9.ns <= budget_ns
            && kept_up
    }
}

pub fn sustainable(rows: &[Row], budget_ns: u64) -> Vec<Sustainable> {
    let mut out: Vec<Sustainable> = Vec::new();
    // Where each format's entry is in `out`: linear in the rows, however
    // many an attached file holds.
    let mut at: HashMap<(&str, &str, Transport), usize> = HashMap::new();
    for row in rows {
        let sustained = row.sustained(budget_ns).then(|| row.speed.factor()).flatten();
        match at.entry((&row.language, &row.format, row.transport)) {
            Entry::Occupied(found) => {
                let found = &mut out[*found.get()];
                if let Some(speed) = sustained {
                    found.speed = Some(found.speed.map_or(speed, |s| s.max(speed)));
                }
            }
            Entry::Vacant(slot) => {
                slot.insert(out.len());
                out.push(Sustainable {
                    language: row.language.clone(),
                    format: row.format.clone(),
                    transport: row.transport,
                    speed: sustained,
                    budget_ns,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(speed: Speed, p99_9: u64, drops: u64, achieved: f64) -> Row {
        Row {
            language: "rust".into(),
            format: "f".into(),
            transport: Transport::Ring,
            speed,
            sent: 100,
            received: 100 - drops,
            drops,
            percentiles: vec![Percentile { quantile: 0.999, ns: p99_9, few: false }],
            max_ns: p99_9,
            curve: vec![],
            busiest: None,
            sizes: vec![],
            offered_per_second: speed.factor().map(|s| s * 100.0),
            achieved_per_second: Some(achieved),
            max_backlog: 1,
            allocations: vec![],
            gc: None,
            error: None,
        }
    }

    #[test]
    fn the_sustainable_speed_is_the_fastest_kept_up_within_budget() {
        let rows = [
            row(Speed::Factor(1.0), 5_000, 0, 100.0),
            row(Speed::Factor(10.0), 9_000, 0, 1_000.0),
            // Over budget, dropped, fell behind, not finite: none counts.
            row(Speed::Factor(100.0), 11_000, 0, 10_000.0),
            row(Speed::Factor(50.0), 1_000, 1, 5_000.0),
            row(Speed::Factor(20.0), 1_000, 0, 1_900.0),
            row(Speed::MAX, 1_000, 0, 1e9),
        ];
        let found = sustainable(&rows, 10_000);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].speed, Some(10.0));
        assert_eq!(sustainable(&rows[2..], 10_000)[0].speed, None);
    }

    #[test]
    fn a_percentile_with_fewer_than_ten_records_beyond_it_is_few() {
        assert!(!few(0.99, 1_000));
        assert!(few(0.999, 9_999));
        assert!(!few(0.999, 10_000));
        assert!(few(0.9999, 10_000));
    }
}
