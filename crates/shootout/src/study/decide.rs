//! Deciding a study's comparison from figures that carry their uncertainty.
//! A figure comes with its interval (JMH's error; over runs or passes, the
//! Student-t interval `stats::estimate` gives; none needed where the figure
//! is exact, as a file's size), or with the reason it has none; two figures
//! are ordered only when their intervals do not meet. A tie, an overlap, a
//! missing interval or too few samples leave the comparison open, and the
//! open reason is kept for the evidence: a verdict the figures do not carry
//! is never given.

use std::fmt::Write;

use crate::stats::{self, ByProcess, Interval};

use super::Verdict;
use super::render::number;

/// One figure of a study, as the study computes it (a mean of runs, JMH's
/// score, a size), with its interval or the reason it has none.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub value: f64,
    pub interval: Result<Interval, String>,
}

impl Figure {
    /// A figure with no uncertainty: a count of bytes, of allocations.
    pub fn exact(value: f64) -> Figure {
        Figure { value, interval: Ok(Interval { low: value, high: value }) }
    }

    /// `value` ± `error` (JMH's 99.9 % half-width); no interval without an error.
    pub fn plus_minus(value: f64, error: Option<f64>) -> Figure {
        Figure {
            value,
            interval: error
                .filter(|e| e.is_finite())
                .map(|e| Interval { low: value - e, high: value + e })
                .ok_or_else(|| "no error was measured (one iteration gives none)".to_owned()),
        }
    }

    /// `value` (the study's statistic over its runs, e.g. their mean) with
    /// the 95 % interval of those runs (`stats::estimate` over the runs of one
    /// process), widened to hold `value` where it falls outside: the estimate
    /// is a geometric mean, the study's figure an arithmetic mean or a median,
    /// which one run far from the others can put beyond it, and a verdict is
    /// never drawn from an interval its own figure is not in.
    pub fn over_runs(value: f64, runs: &[f64]) -> Figure {
        let interval = enough_runs(&[runs]).map(|()| {
            let runs = stats::estimate(&ByProcess::one_process(runs)).interval;
            Interval { low: runs.low.min(value), high: runs.high.max(value) }
        });
        Figure { value, interval }
    }

    /// Shown as the value with its interval, `42 [40–44]`, or alone where it
    /// has none (why is said once, beside the comparison it leaves open).
    pub fn shown(&self) -> String {
        match &self.interval {
            Ok(i) if i.low != i.high => {
                format!("{} [{}–{}]", number(self.value), number(i.low), number(i.high))
            }
            _ => number(self.value),
        }
    }
}

/// Whether every set of runs has two or more, which an interval needs; why not.
fn enough_runs(sets: &[&[f64]]) -> Result<(), String> {
    match sets.iter().map(|runs| runs.len()).min() {
        Some(0) => Err("the runs' values were not given".into()),
        Some(1) => Err("one run gives no interval".into()),
        _ => Ok(()),
    }
}

/// The ratio a / b of two of the study's figures, each `(value, its runs)`,
/// with the 95 % interval of the runs' ratio measured apart
/// (`stats::ratio_apart` over one process each), widened to hold a / b as
/// [`Figure::over_runs`] is.
pub fn ratio_over_runs((a, a_runs): (f64, &[f64]), (b, b_runs): (f64, &[f64])) -> Figure {
    let value = a / b;
    let interval = enough_runs(&[a_runs, b_runs]).map(|()| {
        let runs =
            stats::ratio_apart(&ByProcess::one_process(a_runs), &ByProcess::one_process(b_runs))
                .interval;
        Interval { low: runs.low.min(value), high: runs.high.max(value) }
    });
    Figure { value, interval }
}

/// The interval of a / b from the two figures' own intervals: its ends are
/// the most extreme ratios the intervals allow.
pub fn ratio_of(a: &Figure, b: &Figure) -> Result<Interval, String> {
    let (a, b) = (a.interval.as_ref()?, b.interval.as_ref()?);
    if b.low <= 0.0 {
        return Err("the divisor's interval reaches zero".into());
    }
    Ok(Interval { low: a.low / b.high, high: a.high / b.low })
}

/// How a comparison came out.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The figures say what the claim says.
    Holds,
    /// They say otherwise.
    Fails,
    /// They do not decide it, for this reason.
    Open(String),
}

/// Whether `a` is below `b`: holds when a's interval lies wholly below b's,
/// fails when wholly above; a tie or an overlap leaves it open.
pub fn below(a: &Figure, b: &Figure) -> Outcome {
    let (ia, ib) = match (&a.interval, &b.interval) {
        (Ok(ia), Ok(ib)) => (ia, ib),
        (Err(why), _) | (_, Err(why)) => return Outcome::Open(why.clone()),
    };
    if a.value == b.value && ia.low == ia.high && ib.low == ib.high {
        Outcome::Open(format!("a tie at {}", number(a.value)))
    } else if ia.high < ib.low {
        Outcome::Holds
    } else if ia.low > ib.high {
        Outcome::Fails
    } else {
        Outcome::Open(format!("the intervals overlap: {} and {}", a.shown(), b.shown()))
    }
}

/// Whether `a` is above `b`.
pub fn above(a: &Figure, b: &Figure) -> Outcome {
    below(b, a)
}

/// One side of a bound on a ratio: strictly below it, or strictly above.
#[derive(Debug, Clone, Copy)]
pub enum Beyond {
    Below(f64),
    Above(f64),
}

impl Beyond {
    fn bound(self) -> f64 {
        match self {
            Beyond::Below(b) | Beyond::Above(b) => b,
        }
    }

    fn strictly(self, x: f64) -> bool {
        match self {
            Beyond::Below(b) => x < b,
            Beyond::Above(b) => x > b,
        }
    }

    /// Beyond the bound or on it.
    fn reaches(self, x: f64) -> bool {
        self.strictly(x) || x == self.bound()
    }
}

/// A ratio's interval against a claim's bounds: wholly beyond `holds`, it
/// holds; wholly beyond `reversed` (the other way), it is reversed; wholly
/// between them, not reproduced. An interval reaching a bound (a tie with
/// it, or one across it) decides nothing.
pub fn judge_ratio(
    interval: &Result<Interval, String>,
    holds: Beyond,
    reversed: Beyond,
) -> (Verdict, Option<String>) {
    let i = match interval {
        Ok(i) => i,
        Err(why) => return (Verdict::NotDecided, Some(why.clone())),
    };
    let both = |f: &dyn Fn(f64) -> bool| f(i.low) && f(i.high);
    if both(&|x| holds.strictly(x)) {
        (Verdict::Reproduced, None)
    } else if both(&|x| reversed.strictly(x)) {
        (Verdict::Reversed, None)
    } else if both(&|x| !holds.reaches(x) && !reversed.reaches(x)) {
        (Verdict::NotReproduced, None)
    } else {
        let bound = [holds, reversed]
            .into_iter()
            .find(|b| (i.low..=i.high).contains(&b.bound()))
            .map_or(f64::NAN, Beyond::bound);
        let why = match i.low == i.high {
            true => format!("a tie with the claim's bound, ×{}", number(bound)),
            false => format!(
                "its interval [{}–{}] reaches the claim's bound, ×{}",
                number(i.low),
                number(i.high),
                number(bound)
            ),
        };
        (Verdict::NotDecided, Some(why))
    }
}

/// A claim's comparisons, each named: (what, outcome).
pub type Comparisons = Vec<(String, Outcome)>;

/// A claim made of several comparisons: all hold, reproduced; all fail,
/// reversed; some of each, not reproduced. One open comparison leaves the
/// claim open unless another already fails it.
pub fn verdict(comparisons: &[(String, Outcome)]) -> Verdict {
    let count = |outcome: &Outcome| comparisons.iter().filter(|(_, o)| o == outcome).count();
    let (holds, fails) = (count(&Outcome::Holds), count(&Outcome::Fails));
    let open = comparisons.len() - holds - fails;
    match (holds, fails, open) {
        (_, 0, 0) if holds > 0 => Verdict::Reproduced,
        (0, _, 0) if fails > 0 => Verdict::Reversed,
        (_, 0, _) => Verdict::NotDecided,
        _ => Verdict::NotReproduced,
    }
}

/// The comparisons that did not hold, named after a dash (` — a: does not
/// hold`), for the end of a check's evidence; nothing when all hold.
pub fn unless_all_hold(comparisons: &[(String, Outcome)]) -> String {
    let failed: Vec<(&str, &Outcome)> = comparisons
        .iter()
        .filter(|(_, o)| *o != Outcome::Holds)
        .map(|(what, o)| (what.as_str(), o))
        .collect();
    match failed.is_empty() {
        true => String::new(),
        false => format!(" — {}", listed(failed)),
    }
}

/// Each comparison's outcome named: `what: holds`, `what: not decided (why)`;
/// comparisons with the same outcome share it (`a, b: not decided (one run
/// gives no interval)`), so a reason that leaves them all open is said once.
fn listed<'a>(outcomes: impl IntoIterator<Item = (&'a str, &'a Outcome)>) -> String {
    let mut groups: Vec<(Vec<&str>, &Outcome)> = Vec::new();
    for (what, outcome) in outcomes {
        match groups.iter_mut().find(|(_, o)| *o == outcome) {
            Some((whats, _)) => whats.push(what),
            None => groups.push((vec![what], outcome)),
        }
    }
    let mut text = String::new();
    for (whats, outcome) in groups {
        if !text.is_empty() {
            text.push_str("; ");
        }
        let what = whats.join(", ");
        let _ = match outcome {
            Outcome::Holds => write!(text, "{what}: holds"),
            Outcome::Fails => write!(text, "{what}: does not hold"),
            Outcome::Open(why) => write!(text, "{what}: not decided ({why})"),
        };
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn around(value: f64, error: f64) -> Figure {
        Figure::plus_minus(value, Some(error))
    }

    #[test]
    fn two_figures_are_ordered_only_when_their_intervals_part() {
        assert_eq!(below(&around(10.0, 1.0), &around(20.0, 1.0)), Outcome::Holds);
        assert_eq!(below(&around(20.0, 1.0), &around(10.0, 1.0)), Outcome::Fails);
        assert_eq!(above(&around(20.0, 1.0), &around(10.0, 1.0)), Outcome::Holds);
        let Outcome::Open(why) = below(&around(33.38, 1.88), &around(31.76, 2.0)) else {
            panic!("an overlap decided")
        };
        assert!(why.contains("overlap"), "{why}");
        let Outcome::Open(why) = below(&Figure::exact(102.8), &Figure::exact(102.8)) else {
            panic!("a tie decided")
        };
        assert!(why.contains("a tie"), "{why}");
        let Outcome::Open(why) = below(&Figure::plus_minus(1.0, None), &around(5.0, 1.0)) else {
            panic!("no interval, decided")
        };
        assert!(why.contains("no error"), "{why}");
    }

    #[test]
    fn runs_give_an_interval_from_two_on() {
        assert!(Figure::over_runs(5.0, &[5.0]).interval.is_err());
        assert!(Figure::over_runs(5.0, &[]).interval.is_err());
        // Two runs: Student's t with one degree of freedom, wider than their range.
        let two = Figure::over_runs(5.0, &[4.0, 6.0]).interval.unwrap();
        assert!(two.low < 4.0 && two.high > 6.0, "{two:?}");
        let five = Figure::over_runs(5.0, &[4.9, 5.0, 5.1, 5.0, 4.95]).interval.unwrap();
        assert!(five.low > 4.8 && five.high < 5.2 && five.low < 5.0 && five.high > 5.0, "{five:?}");
        // The study's figure beyond the runs' interval: the interval reaches it.
        let beyond = Figure::over_runs(150.0, &[100.0, 100.5, 99.5]).interval.unwrap();
        assert!(beyond.low < 100.0 && beyond.high == 150.0, "{beyond:?}");
        assert!(ratio_over_runs((1.0, &[1.0]), (1.5, &[1.0, 2.0])).interval.is_err());
        let ratio = ratio_over_runs((20.0, &[20.0, 20.2, 19.8]), (10.0, &[10.0, 10.1, 9.9]));
        assert_eq!(ratio.value, 2.0);
        let interval = ratio.interval.unwrap();
        assert!(interval.low > 1.9 && interval.high < 2.1, "{interval:?}");
    }

    #[test]
    fn a_ratio_decides_a_claim_only_wholly_on_one_side_of_its_bounds() {
        let half =
            |r: &Result<Interval, String>| judge_ratio(r, Beyond::Below(0.5), Beyond::Above(1.0)).0;
        let of = |low, high| Ok(Interval { low, high });
        assert_eq!(half(&of(0.4, 0.45)), Verdict::Reproduced);
        assert_eq!(half(&of(1.2, 1.5)), Verdict::Reversed);
        assert_eq!(half(&of(0.6, 0.9)), Verdict::NotReproduced);
        assert_eq!(half(&of(0.9, 1.1)), Verdict::NotDecided);
        assert_eq!(half(&Err("none".into())), Verdict::NotDecided);
        // Exactly on a bound: a tie with it.
        let (verdict, why) = judge_ratio(&of(0.5, 0.5), Beyond::Below(0.5), Beyond::Above(1.0));
        assert_eq!(verdict, Verdict::NotDecided);
        assert!(why.unwrap().contains("a tie with the claim's bound, ×0.500"));
        let faster = judge_ratio(&of(1.0, 1.0), Beyond::Above(1.0), Beyond::Below(1.0)).0;
        assert_eq!(faster, Verdict::NotDecided);
        let ratio = ratio_of(&around(12.0, 1.0), &around(6.0, 1.0)).unwrap();
        assert_eq!((ratio.low, ratio.high), (11.0 / 7.0, 13.0 / 5.0));
    }

    #[test]
    fn a_claim_of_several_comparisons_is_open_while_one_is_and_none_fails() {
        let named = |outcomes: &[Outcome]| -> Comparisons {
            outcomes.iter().enumerate().map(|(i, o)| (format!("c{i}"), o.clone())).collect()
        };
        let open = Outcome::Open("overlap".into());
        let verdict_of = |outcomes: &[Outcome]| verdict(&named(outcomes));
        assert_eq!(verdict_of(&[Outcome::Holds, Outcome::Holds]), Verdict::Reproduced);
        assert_eq!(verdict_of(&[Outcome::Fails, Outcome::Fails]), Verdict::Reversed);
        assert_eq!(verdict_of(&[Outcome::Holds, Outcome::Fails]), Verdict::NotReproduced);
        assert_eq!(verdict_of(&[Outcome::Holds, open.clone()]), Verdict::NotDecided);
        assert_eq!(verdict_of(&[Outcome::Fails, open.clone()]), Verdict::NotReproduced);
        assert_eq!(verdict_of(&[]), Verdict::NotDecided);
        assert_eq!(unless_all_hold(&named(&[Outcome::Holds])), "");
        assert_eq!(
            unless_all_hold(&named(&[Outcome::Holds, open.clone()])),
            " — c1: not decided (overlap)"
        );
        assert_eq!(
            unless_all_hold(&named(&[open.clone(), Outcome::Fails, open])),
            " — c0, c2: not decided (overlap); c1: does not hold"
        );
    }
}
