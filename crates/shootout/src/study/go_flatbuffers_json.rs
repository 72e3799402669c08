//! FlatBuffers against `encoding/json` in Go (`002_…txt`), measured by the
//! Go runner (`--study go-flatbuffers-json`): the study's four benchmarks on
//! its own generated records, with `testing.Benchmark`'s ns/op, B/op and
//! allocs/op, each benchmark run several times so that a ratio carries the
//! spread of its runs; the runner's codecs as a labelled second variant.

use super::decide::{self, Beyond, Figure};
use super::figures::{Figures, Table};
use super::published::Published;
use super::render::number;
use super::{Answer, Check, Verdict};

/// A benchmark's ns/op with its runs.
fn ns<'t>(table: &'t Table, label: &str) -> Option<(f64, &'t [f64])> {
    let row = table.row(label)?;
    Some((row.value("ns_per_op")?, row.runs("ns_per_op")))
}

/// `a`'s ns/op over `b`'s, with the interval of its runs, against a claim's
/// bounds: the verdict and the evidence.
fn ratio_check(
    table: &Table,
    a: &str,
    b: &str,
    holds: Beyond,
    reversed: Beyond,
) -> Option<(Verdict, String)> {
    let ((a_ns, a_runs), (b_ns, b_runs)) = (ns(table, a)?, ns(table, b)?);
    let ratio = decide::ratio_over_runs((a_ns, a_runs), (b_ns, b_runs));
    let (verdict, why) = decide::judge_ratio(&ratio.interval, holds, reversed);
    let shown = match &ratio.interval {
        Ok(i) => format!("×{:.2} [{}–{}]", ratio.value, number(i.low), number(i.high)),
        Err(_) => format!("×{:.2}", ratio.value),
    };
    let runs = a_runs.len().min(b_runs.len());
    let evidence = format!(
        "{a} {} ns/op is {shown} {b}'s {} ({runs} runs each){}",
        number(a_ns),
        number(b_ns),
        why.map_or(String::new(), |w| format!(" — not decided ({w})"))
    );
    Some((verdict, evidence))
}

/// The study's ratio of `a` to `b`, from its published table.
fn published_ratio(published: &Published, a: &str, b: &str) -> String {
    published
        .table("benchmarks")
        .and_then(|t| Some(t.row(a)?.value("ns_per_op")? / t.row(b)?.value("ns_per_op")?))
        .map_or_else(|| "—".into(), |x| format!("×{x:.2}"))
}

/// Why the marshal ratio moved up from the study's, from each side's own
/// change since: its time against the study's, and JSON's allocations
/// against the study's. None where JSON did not gain on FlatBuffers (the
/// ratio did not move up: nothing to explain).
fn marshal_moved(published: &Published, study: &Table) -> Option<String> {
    let theirs = published.table("benchmarks")?;
    let change = |label: &str| {
        Some(study.value(label, "ns_per_op")? / theirs.row(label)?.value("ns_per_op")?)
    };
    let (json, flat) = (change("JsonMarshal")?, change("FlatbufMarshal")?);
    if json >= flat {
        return None;
    }
    let allocs = |t: &dyn Fn(&str) -> Option<f64>| {
        Some(format!(
            "{} allocation(s), {} B",
            number(t("allocs_per_op")?),
            number(t("bytes_per_op")?)
        ))
    };
    let ours = allocs(&|key| study.value("JsonMarshal", key))?;
    let then = allocs(&|key| theirs.row("JsonMarshal")?.value(key))?;
    Some(format!(
        "; the likely cause: JsonMarshal takes ×{json:.2} the study's time, FlatbufMarshal ×{flat:.2}: encoding/json gained on FlatBuffers' Go builder since the study, and marshals now in {ours} where the study's took {then} (the study's Go was of 2016)"
    ))
}

/// A claim on the ratio of two of the study's benchmarks, the study's own ratio beside ours.
fn study_ratio(
    published: &Published,
    study: &Table,
    id: &str,
    [a, b]: [&str; 2],
    holds: Beyond,
    reversed: Beyond,
) -> Check {
    match ratio_check(study, a, b, holds, reversed) {
        Some((verdict, evidence)) => Check::new(
            published,
            id,
            verdict,
            format!("{evidence} (the study: {})", published_ratio(published, a, b)),
        ),
        None => Check::new(published, id, Verdict::NotDecided, "not measured".into()),
    }
}

pub fn check(published: &Published, figures: &Figures) -> (Vec<Check>, Vec<Answer>) {
    let Some(study) = figures.table("benchmarks") else {
        return (
            super::not_decided(published, "the runner measured no benchmarks table"),
            Vec::new(),
        );
    };
    let mut marshal = study_ratio(
        published,
        study,
        "marshal-under-half",
        ["FlatbufMarshal", "JsonMarshal"],
        Beyond::Below(0.5),
        Beyond::Above(1.0),
    );
    if marshal.verdict != Verdict::Reproduced {
        marshal.evidence.push_str(&marshal_moved(published, study).unwrap_or_default());
    }
    let mut checks = vec![
        marshal,
        // "about a fifteenth": the study's own figures give 14.6; ten or more is the same finding.
        study_ratio(
            published,
            study,
            "unmarshal-fifteenth",
            ["JsonUnmarshal", "FlatbufUnmarshal"],
            Beyond::Above(10.0),
            Beyond::Below(1.0),
        ),
    ];
    let ours = figures.variant("shootout").and_then(|v| v.table("benchmarks"));
    let in_place = "read-in-place";
    checks.push(
        match ours.and_then(|t| {
            let (verdict, evidence) = ratio_check(
                t,
                "flatbuffers-copy/decode",
                "flatbuffers/decode",
                Beyond::Above(1.0),
                Beyond::Below(1.0),
            )?;
            let allocs = |label: &str| t.value(label, "allocs_per_op").map(Figure::exact);
            Some((
                verdict,
                format!(
                    "the runner's codecs: {evidence}; allocations per read: copied {}, in place {}",
                    allocs("flatbuffers-copy/decode").map_or("—".into(), |e| e.shown()),
                    allocs("flatbuffers/decode").map_or("—".into(), |e| e.shown())
                ),
            ))
        }) {
            Some((verdict, evidence)) => Check::new(published, in_place, verdict, evidence),
            None => Check::new(
                published,
                in_place,
                Verdict::NotDecided,
                "the shootout variant was not measured".into(),
            ),
        },
    );
    (checks, Vec::new())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::study::figures::{STUDY_VARIANT, Variant};
    use crate::study::published::Row;

    /// Rows of (label, ns/op, allocs/op), three runs ±`spread` (relative) around each ns/op.
    fn table(rows: &[(&str, f64, f64)], spread: f64) -> Table {
        Table {
            id: "benchmarks".into(),
            title: None,
            columns: Vec::new(),
            rows: rows
                .iter()
                .map(|&(label, ns, allocs)| {
                    let mut row = Row::new(
                        label,
                        json!({"ns_per_op": ns, "bytes_per_op": 100.0, "allocs_per_op": allocs}),
                    );
                    row.runs.insert(
                        "ns_per_op".into(),
                        vec![ns * (1.0 - spread), ns, ns * (1.0 + spread)],
                    );
                    row
                })
                .collect(),
        }
    }

    fn checks(study: &[(&str, f64, f64)], ours: &[(&str, f64, f64)], spread: f64) -> Vec<Check> {
        let published = Published::parse(
            "go-flatbuffers-json",
            include_str!("../../../../spec/studies/go-flatbuffers-json.json"),
        )
        .unwrap();
        let figures = Figures {
            schema: crate::study::figures::SCHEMA.into(),
            study: "go-flatbuffers-json".into(),
            language: "go".into(),
            environment: serde_json::Value::Null,
            variants: vec![
                Variant {
                    id: STUDY_VARIANT.into(),
                    title: "t".into(),
                    tables: vec![table(study, spread)],
                },
                Variant {
                    id: "shootout".into(),
                    title: "t".into(),
                    tables: vec![table(ours, spread)],
                },
            ],
            facts: Default::default(),
            departures: Vec::new(),
        };
        check(&published, &figures).0
    }

    fn verdicts(
        study: &[(&str, f64, f64)],
        ours: &[(&str, f64, f64)],
        spread: f64,
    ) -> Vec<Verdict> {
        checks(study, ours, spread).into_iter().map(|c| c.verdict).collect()
    }

    const THE_STUDY_S: [(&str, f64, f64); 4] = [
        ("JsonMarshal", 2752.0, 4.0),
        ("JsonUnmarshal", 6801.0, 12.0),
        ("FlatbufMarshal", 1243.0, 14.0),
        ("FlatbufUnmarshal", 465.0, 6.0),
    ];
    const IN_PLACE_WINS: [(&str, f64, f64); 2] =
        [("flatbuffers/decode", 120.0, 0.0), ("flatbuffers-copy/decode", 250.0, 6.0)];

    #[test]
    fn the_study_s_figures_reproduce_its_conclusions() {
        assert_eq!(verdicts(&THE_STUDY_S, &IN_PLACE_WINS, 0.01), [Verdict::Reproduced; 3]);
    }

    #[test]
    fn the_checks_flip_when_the_figures_do() {
        let mut slower = THE_STUDY_S;
        slower[2].1 = 3000.0; // FlatBuffers marshal slower than JSON
        slower[3].1 = 7000.0; // and unmarshal too
        let copy_wins =
            [("flatbuffers/decode", 300.0, 0.0), ("flatbuffers-copy/decode", 250.0, 6.0)];
        assert_eq!(verdicts(&slower, &copy_wins, 0.01), [Verdict::Reversed; 3]);
        let mut between = THE_STUDY_S;
        between[2].1 = 2000.0; // faster than JSON, but not under half
        assert_eq!(verdicts(&between, &IN_PLACE_WINS, 0.01)[0], Verdict::NotReproduced);
    }

    /// As measured here: JSON marshals in 1 allocation where the study's took 4,
    /// and FlatBuffers marshals slower than it; the check says so.
    #[test]
    fn a_reversed_marshal_names_its_likely_cause() {
        let mut now = THE_STUDY_S;
        now[0] = ("JsonMarshal", 520.0, 1.0);
        now[2] = ("FlatbufMarshal", 718.0, 10.0);
        let marshal = &checks(&now, &IN_PLACE_WINS, 0.01)[0];
        assert_eq!(marshal.verdict, Verdict::Reversed);
        assert!(marshal.evidence.contains("the study: ×0.45"), "{}", marshal.evidence);
        assert!(
            marshal.evidence.contains("marshals now in 1 allocation(s), 100 B where the study's took 4 allocation(s), 696 B"),
            "{}",
            marshal.evidence
        );
    }

    /// The study's own ratio, left open by runs ±60 %: it did not move, so no cause is named.
    #[test]
    fn a_cause_is_named_only_where_the_ratio_moved_up() {
        let marshal = &checks(&THE_STUDY_S, &IN_PLACE_WINS, 0.6)[0];
        assert_eq!(marshal.verdict, Verdict::NotDecided);
        assert!(!marshal.evidence.contains("likely cause"), "{}", marshal.evidence);
    }

    #[test]
    fn a_tie_is_not_decided() {
        let mut tied = THE_STUDY_S;
        tied[2].1 = tied[0].1 / 2.0; // FlatBuffers marshal exactly half JSON's, run for run
        let even = [("flatbuffers/decode", 250.0, 0.0), ("flatbuffers-copy/decode", 250.0, 6.0)];
        let v = verdicts(&tied, &even, 0.0);
        assert_eq!(v[0], Verdict::NotDecided, "marshal");
        assert_eq!(v[2], Verdict::NotDecided, "read in place");
    }

    #[test]
    fn an_overlap_is_not_decided() {
        // Runs ±60 %: marshal's ratio 0.45 reaches past 0.5, unmarshal's 14.6
        // below 10, the copy's 2.1 below 1.
        assert_eq!(verdicts(&THE_STUDY_S, &IN_PLACE_WINS, 0.6), [Verdict::NotDecided; 3]);
    }

    #[test]
    fn one_run_decides_nothing() {
        let mut one = table(&THE_STUDY_S, 0.01);
        for row in &mut one.rows {
            row.runs.values_mut().for_each(|r| r.truncate(1));
        }
        let (verdict, evidence) = ratio_check(
            &one,
            "FlatbufMarshal",
            "JsonMarshal",
            Beyond::Below(0.5),
            Beyond::Above(1.0),
        )
        .unwrap();
        assert_eq!(verdict, Verdict::NotDecided);
        assert!(evidence.contains("one run gives no interval"), "{evidence}");
    }
}
