//! Measuring a language in several processes. The runs of one process share
//! its memory layout, heap, code placement and the minutes it ran in, so they
//! agree with one another more than two invocations do: an interval computed
//! from one process's runs does not hold for the next invocation (BENCHMARKS.md,
//! the A/A test). `run` therefore measures each language in fresh processes,
//! one after another, each making its warm-up and measured runs; the
//! statistics resample processes before runs ([`stats::ByProcess`]), and
//! `compare` tests the processes' medians. After `min_processes`, more are
//! started until every row is as precise as asked, the next process would
//! likely end past the time budget, or `max_processes` are made.
//!
//! [`stats::ByProcess`]: crate::stats::ByProcess

use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use crate::document::{Results, Settings};
use crate::results::Imprecise;

/// One language's results over as many processes as `settings` ask, made by
/// `process(k)` for k = 0, 1, …: merged, every statistic derived again.
pub fn measure(
    settings: Settings,
    mut process: impl FnMut(usize) -> Result<Results>,
) -> Result<Results> {
    let started = Instant::now();
    let budget = Duration::from_millis(settings.time_budget_ms);
    let mut took = Vec::new();
    let mut parts = Vec::new();
    loop {
        let began = Instant::now();
        parts.push(process(parts.len())?);
        took.push(began.elapsed());
        let made = parts.len();
        if made < settings.min_processes && made < settings.max_processes.max(1) {
            continue;
        }
        let merged = merge(parts.clone(), settings)?;
        // The next process is expected to take the median process's time (the
        // first also compresses the streams and, on a sampled input, validates
        // every record, so it is the longest).
        took.sort();
        if made >= settings.max_processes.max(1)
            || settings.time_budget_ms == 0
            || started.elapsed() + took[took.len() / 2] > budget
            || Imprecise::find(&merged.formats, settings.precision).is_empty()
        {
            return Ok(merged);
        }
    }
}

/// The processes' results as one: every run, tagged with its process; a
/// format that failed in any process is withheld with that failure.
pub fn merge(parts: Vec<Results>, settings: Settings) -> Result<Results> {
    let mut parts = parts.into_iter().enumerate();
    let Some((_, mut merged)) = parts.next() else {
        bail!("no process was measured");
    };
    for (process, mut part) in parts {
        let (first, this) = (&merged.workload, &part.workload);
        if first.name != this.name || first.records != this.records {
            bail!(
                "process {} of the {} runner measured {} records of {}, the first {} of {}: the input changed",
                process + 1,
                merged.runner.language,
                this.records,
                this.name,
                first.records,
                first.name
            );
        }
        for run in &mut part.runs {
            run.process = process;
        }
        merged.runs.append(&mut part.runs);
        for failed in part.failed {
            if !merged.failed.iter().any(|f| f.name == failed.name) {
                merged.formats.retain(|f| f.name != failed.name);
                merged.failed.push(failed);
            }
        }
        merged.formats.retain_mut(|format| {
            let Some(other) = part.formats.iter_mut().find(|o| o.name == format.name) else {
                return false;
            };
            for (mine, theirs) in
                [(&mut format.encode, &mut other.encode), (&mut format.decode, &mut other.decode)]
            {
                for run in &mut theirs.runs {
                    run.process = process;
                }
                mine.runs.append(&mut theirs.runs);
            }
            true
        });
        for warning in part.warnings {
            if !merged.warnings.contains(&warning) {
                merged.warnings.push(warning);
            }
        }
        merged.invocation.load_after = part.invocation.load_after;
    }
    merged.settings = settings;
    merged.derive_again();
    Ok(merged)
}

/// How far a part's processes ran from one another by a speed common to
/// every format: the machine's speed in each process (the median over the
/// formats of each one's distance from its own typical time, round by round;
/// `stats::Units`) against the median process's. On a VM it is mostly the
/// host lending the machine more or less speed from one minute to the next:
/// absolute ns/op carry it, relative costs do not.
#[derive(Debug, Clone, PartialEq)]
pub struct Drift {
    pub language: String,
    /// The slowest and fastest process's factors (1.0 = the median process;
    /// above 1 = slower), over both directions.
    pub low: f64,
    pub high: f64,
}

impl Drift {
    /// The part's drift, when it was measured in more than one process.
    pub fn find(part: &Results) -> Option<Drift> {
        let factors: Vec<f64> =
            [part.speed_by_process(|f| &f.encode), part.speed_by_process(|f| &f.decode)]
                .into_iter()
                .flatten()
                .flatten()
                .collect();
        let processes = part.runs.iter().map(|r| r.process + 1).max()?;
        (processes >= 2 && !factors.is_empty()).then(|| Drift {
            language: part.runner.language.clone(),
            low: factors.iter().copied().fold(f64::INFINITY, f64::min),
            high: factors.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        })
    }

    /// The preamble's line, when a part was measured in several processes.
    pub fn line(drifts: &[Drift]) -> Option<String> {
        let several = drifts.iter().any(|d| d.language != drifts[0].language);
        let shown: Vec<String> = drifts
            .iter()
            .map(|d| {
                format!(
                    "{}{:+.1}% to {:+.1}%",
                    if several { format!("{} ", d.language) } else { String::new() },
                    100.0 * (d.low - 1.0),
                    100.0 * (d.high - 1.0)
                )
            })
            .collect();
        (!shown.is_empty()).then(|| {
            format!(
                "host drift: a process took {} against the median process's time, every format alike (absolute \
                 ns/op carry it; relative costs cancel it)",
                shown.join(", ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::fixture_timed as process;

    fn example_results() -> Results {
        process(1.0)
    }

    /// A process's results of two formats, on a machine `speed` times slower:
    /// the fixture's, and `other`, `cost` times slower than it.
    fn two_formats(speed: f64, cost: f64) -> Results {
        let mut results = process(speed);
        let mut other = results.formats[0].clone();
        other.name = "other".into();
        for direction in [&mut other.encode, &mut other.decode] {
            for run in &mut direction.runs {
                let stats = &mut run.stats;
                stats.total_ns = (stats.total_ns as f64 * cost) as u64;
                stats.round_ns = vec![stats.total_ns];
                stats.ns_per_op *= cost;
            }
        }
        results.formats.push(other);
        results.derive_again();
        results
    }

    fn settings(min_processes: usize, max_processes: usize, precision: f64) -> Settings {
        Settings {
            min_processes,
            max_processes,
            precision,
            time_budget_ms: 60_000,
            ..example_results().settings
        }
    }

    fn processes_made(settings: Settings) -> (usize, Results) {
        let mut made = 0;
        let results = measure(settings, |k| {
            made += 1;
            // Each process slower; `other` 1.5 times the first format's cost, give or take 3 %.
            Ok(two_formats(1.0 + 0.1 * k as f64, 1.5 + 0.03 * [-1.0, 1.0][k % 2]))
        })
        .unwrap();
        (made, results)
    }

    #[test]
    fn processes_go_on_past_the_fewest_until_precise_or_at_the_most() {
        // Every cost is within ±10,000 %: precise after the fewest processes.
        assert_eq!(processes_made(settings(2, 50, 100.0)).0, 2);
        // None is within ±0 %: the most processes, long before a minute is spent.
        assert_eq!(processes_made(settings(2, 5, 0.0)).0, 5);
        // Without a budget, exactly the fewest.
        let exact = Settings { time_budget_ms: 0, ..settings(3, 30, 0.0) };
        assert_eq!(processes_made(exact).0, 3);
    }

    #[test]
    fn merged_runs_keep_their_process_and_the_interval_spans_the_processes() {
        let one = example_results();
        let (_, merged) = processes_made(Settings { time_budget_ms: 0, ..settings(3, 3, 0.02) });
        assert_eq!(merged.runs.len(), 3 * one.runs.len());
        let direction = &merged.formats[0].encode;
        let processes: Vec<usize> = direction.runs.iter().map(|r| r.process).collect();
        let per_process = one.formats[0].encode.runs.len();
        assert_eq!(processes.len(), 3 * per_process);
        assert!(processes.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(direction.summary.processes, 3);
        // The median of all nine runs (30, 40, 35 ns, then 10 % and 20 % slower),
        // and an interval over the processes, whose levels it holds.
        assert_eq!(direction.summary.ns_per_op.median, 38.5);
        let ci = direction.summary.ns_per_op_ci;
        assert!(ci.low < 34.8 && ci.high > 41.8, "{ci:?}");
    }

    #[test]
    fn a_format_that_failed_in_any_process_is_withheld() {
        let mut second = process(1.0);
        let name = second.formats[0].name.clone();
        second.formats.remove(0);
        second.failed.push(crate::document::FailedFormat {
            name: name.clone(),
            family: "example".into(),
            library: "example".into(),
            library_version: "1".into(),
            failure: crate::document::Failure {
                reason: "decoded a wrong value".into(),
                run: 1,
                operation: None,
                position: None,
            },
        });
        let merged = merge(vec![process(1.0), second], settings(2, 2, 0.02)).unwrap();
        assert!(merged.formats.iter().all(|f| f.name != name));
        assert_eq!(merged.failed.iter().filter(|f| f.name == name).count(), 1);
    }

    #[test]
    fn processes_of_other_inputs_do_not_merge() {
        let mut other = process(1.0);
        other.workload.records += 1;
        let error = merge(vec![process(1.0), other], settings(2, 2, 0.02)).unwrap_err();
        assert!(error.to_string().contains("the input changed"), "{error}");
    }

    #[test]
    fn drift_is_the_factor_common_to_every_format_of_a_process() {
        let processes = [1.0, 1.1, 1.2].map(|speed| two_formats(speed, 1.5)).to_vec();
        let merged = merge(processes, settings(3, 3, 0.02)).unwrap();
        let drift = Drift::find(&merged).unwrap();
        assert!((drift.low - 1.0 / 1.1).abs() < 1e-3, "{drift:?}");
        assert!((drift.high - 1.2 / 1.1).abs() < 1e-3, "{drift:?}");
        assert_eq!(
            Drift::line(&[drift]).unwrap(),
            "host drift: a process took -9.1% to +9.1% against the median process's time, every format alike \
             (absolute ns/op carry it; relative costs cancel it)"
        );
        // One process has no drift to show.
        assert_eq!(Drift::find(&process(1.0)), None);
    }
}
