//! FlatBuffers against `encoding/json` in Go (`002_…txt`), measured by the
//! Go runner (`--study go-flatbuffers-json`): the study's four benchmarks on
//! its own generated records, with `testing.Benchmark`'s ns/op, B/op and
//! allocs/op; the runner's codecs as a labelled second variant.

use super::figures::{Figures, Table};
use super::published::Published;
use super::{Answer, Check, Verdict};

fn ns(table: &Table, label: &str) -> Option<f64> {
    table.value(label, "ns_per_op")
}

/// A ratio against the bounds of a claim: within `holds`, reproduced; past
/// `reversed`, reversed; between, not reproduced.
fn judged(ratio: f64, holds: impl Fn(f64) -> bool, reversed: impl Fn(f64) -> bool) -> Verdict {
    if holds(ratio) {
        Verdict::Reproduced
    } else if reversed(ratio) {
        Verdict::Reversed
    } else {
        Verdict::NotReproduced
    }
}

pub fn check(published: &Published, figures: &Figures) -> (Vec<Check>, Vec<Answer>) {
    let Some(study) = figures.table("benchmarks") else {
        return (
            super::undecided(published, "the runner measured no benchmarks table"),
            Vec::new(),
        );
    };
    let mut checks = Vec::new();
    checks.push(match (ns(study, "FlatbufMarshal"), ns(study, "JsonMarshal")) {
        (Some(flat), Some(json)) => {
            let ratio = flat / json;
            Check::new(
                published,
                "marshal-under-half",
                judged(ratio, |r| r < 0.5, |r| r > 1.0),
                format!("FlatbufMarshal {flat:.0} ns/op is ×{ratio:.2} JsonMarshal's {json:.0} (the study: ×0.45)"),
            )
        }
        _ => Check::new(published, "marshal-under-half", Verdict::Undecided, "not measured".into()),
    });
    checks.push(match (ns(study, "JsonUnmarshal"), ns(study, "FlatbufUnmarshal")) {
        (Some(json), Some(flat)) => {
            let ratio = json / flat;
            // "about a fifteenth": the study's own figures give 14.6; ten or more is the same finding.
            Check::new(
                published,
                "unmarshal-fifteenth",
                judged(ratio, |r| r >= 10.0, |r| r < 1.0),
                format!("JsonUnmarshal {json:.0} ns/op is ×{ratio:.1} FlatbufUnmarshal's {flat:.0} (the study: ×14.6)"),
            )
        }
        _ => Check::new(published, "unmarshal-fifteenth", Verdict::Undecided, "not measured".into()),
    });
    let ours = figures.variant("shootout").and_then(|v| v.table("benchmarks"));
    let in_place = ours.and_then(|t| {
        Some((ns(t, "flatbuffers/decode")?, t.value("flatbuffers/decode", "allocs_per_op")?))
    });
    let copied = ours.and_then(|t| {
        Some((
            ns(t, "flatbuffers-copy/decode")?,
            t.value("flatbuffers-copy/decode", "allocs_per_op")?,
        ))
    });
    checks.push(match (in_place, copied) {
        (Some((place_ns, place_allocs)), Some((copy_ns, copy_allocs))) => Check::new(
            published,
            "read-in-place",
            judged(copy_ns / place_ns, |r| r > 1.0, |r| r < 1.0),
            format!(
                "the runner's codecs: read in place {place_ns:.0} ns/op, {place_allocs} allocs; copied into the struct {copy_ns:.0} ns/op, {copy_allocs} allocs"
            ),
        ),
        _ => Check::new(published, "read-in-place", Verdict::Undecided, "the shootout variant was not measured".into()),
    });
    (checks, Vec::new())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::study::figures::{STUDY_VARIANT, Variant};
    use crate::study::published::Row;

    fn table(rows: &[(&str, f64, f64)]) -> Table {
        Table {
            id: "benchmarks".into(),
            title: None,
            rows: rows
                .iter()
                .map(|&(label, ns, allocs)| {
                    let serde_json::Value::Object(values) =
                        json!({"ns_per_op": ns, "allocs_per_op": allocs})
                    else {
                        unreachable!()
                    };
                    Row { label: label.into(), values }
                })
                .collect(),
        }
    }

    fn verdicts(study: &[(&str, f64, f64)], ours: &[(&str, f64, f64)]) -> Vec<Verdict> {
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
                Variant { id: STUDY_VARIANT.into(), title: "t".into(), tables: vec![table(study)] },
                Variant { id: "shootout".into(), title: "t".into(), tables: vec![table(ours)] },
            ],
            facts: Default::default(),
            departures: Vec::new(),
        };
        check(&published, &figures).0.into_iter().map(|c| c.verdict).collect()
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
        assert_eq!(verdicts(&THE_STUDY_S, &IN_PLACE_WINS), [Verdict::Reproduced; 3]);
    }

    #[test]
    fn the_checks_flip_when_the_figures_do() {
        let mut slower = THE_STUDY_S;
        slower[2].1 = 3000.0; // FlatBuffers marshal slower than JSON
        slower[3].1 = 7000.0; // and unmarshal too
        let copy_wins =
            [("flatbuffers/decode", 300.0, 0.0), ("flatbuffers-copy/decode", 250.0, 6.0)];
        assert_eq!(verdicts(&slower, &copy_wins), [Verdict::Reversed; 3]);
        let mut between = THE_STUDY_S;
        between[2].1 = 2000.0; // faster than JSON, but not under half
        assert_eq!(verdicts(&between, &IN_PLACE_WINS)[0], Verdict::NotReproduced);
    }
}
