//! Logs and queues (`004_…txt`): file sizes of Java serialization, JSON,
//! Avro, Protobuf, Thrift and MessagePack on three generated CSV sets,
//! measured by the JVM runner (`--study scala-logs`). The document's
//! conclusions are about sizes; each is checked on the study's variant, and
//! the runner's `corrected` variant (the study's two writing slips fixed)
//! answers whether they survive.

use super::figures::{Figures, Table};
use super::published::Published;
use super::{Answer, Check, Verdict};

const SETS: [&str; 3] = ["mixed", "strings", "longs"];

/// The formats of `table` by their file size of `set`, smallest first (JSON
/// left out unless `with_json`: the study compares it apart, as text).
fn by_size(table: &Table, set: &str, with_json: bool) -> Vec<(String, f64)> {
    let key = format!("{set}_mb");
    let mut rows: Vec<(String, f64)> = table
        .rows
        .iter()
        .filter(|r| with_json || r.label != "JSON")
        .filter_map(|r| Some((r.label.clone(), r.value(&key)?)))
        .collect();
    rows.sort_by(|a, b| a.1.total_cmp(&b.1));
    rows
}

fn listed(rows: &[(String, f64)]) -> String {
    rows.iter().map(|(l, v)| format!("{l} {v:.1} MB")).collect::<Vec<_>>().join(" < ")
}

/// Whether `format` is the smallest (or largest: `largest`) of `set`; a tie
/// counts. A format not at that end does not reverse the claim, it fails it.
fn extreme(
    table: &Table,
    set: &str,
    format: &str,
    largest: bool,
    with_json: bool,
) -> (bool, String) {
    let rows = by_size(table, set, with_json);
    let end = if largest { rows.last() } else { rows.first() }.map_or(f64::NAN, |r| r.1);
    let holds = rows.iter().any(|(l, v)| l == format && *v == end);
    (holds, format!("{set}: {}", listed(&rows)))
}

/// The document's size conclusions on one file-size table.
fn size_checks(published: &Published, table: &Table) -> Vec<Check> {
    let one = |id: &str, (holds, evidence): (bool, String)| {
        Check::new(
            published,
            id,
            if holds { Verdict::Reproduced } else { Verdict::NotReproduced },
            evidence,
        )
    };
    let json_largest: Vec<(bool, String)> =
        SETS.iter().map(|s| extreme(table, s, "JSON", true, true)).collect();
    let (mixed_largest, evidence) = extreme(table, "mixed", "Thrift binary", true, false);
    let rows = by_size(table, "mixed", false);
    let second = rows.len().checked_sub(2).map(|i| rows[i].0.as_str());
    vec![
        one("msgpack-smallest-longs", extreme(table, "longs", "MessagePack", false, false)),
        one("avro-smallest-strings", extreme(table, "strings", "Avro", false, false)),
        one("msgpack-smallest-mixed", extreme(table, "mixed", "MessagePack", false, false)),
        Check::new(
            published,
            "json-largest",
            if json_largest.iter().all(|(h, _)| *h) {
                Verdict::Reproduced
            } else {
                Verdict::NotReproduced
            },
            json_largest.into_iter().map(|(_, e)| e).collect::<Vec<_>>().join("; "),
        ),
        one("java-largest-longs", extreme(table, "longs", "Java serialization", true, false)),
        one(
            "thrift-binary-largest-strings",
            extreme(table, "strings", "Thrift binary", true, false),
        ),
        one(
            "thrift-binary-largest-mixed",
            (mixed_largest && second == Some("Java serialization"), evidence),
        ),
    ]
}

pub fn check(published: &Published, figures: &Figures) -> (Vec<Check>, Vec<Answer>) {
    let Some(sizes) = figures.table("file-size") else {
        return (super::undecided(published, "the runner measured no file sizes"), Vec::new());
    };
    let checks = size_checks(published, sizes);
    let answers = figures
        .variants
        .iter()
        .skip(1)
        .filter_map(|variant| {
            let table = variant.table("file-size")?;
            let changed: Vec<String> = size_checks(published, table)
                .into_iter()
                .zip(&checks)
                .filter(|(theirs, ours)| theirs.verdict != ours.verdict)
                .map(|(c, _)| format!("\"{}\" is {} ({})", c.claim, c.verdict.shown(), c.evidence))
                .collect();
            Some(Answer {
                id: variant.id.clone(),
                question: format!(
                    "Do the size conclusions hold in variant {} ({})?",
                    variant.id, variant.title
                ),
                answer: match changed.is_empty() {
                    true => "every one holds as in the study's variant".into(),
                    false => format!("all as in the study's variant but: {}", changed.join("; ")),
                },
            })
        })
        .collect();
    (checks, answers)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::study::figures::{STUDY_VARIANT, Variant};
    use crate::study::published::Row;

    fn published() -> Published {
        Published::parse("scala-logs", include_str!("../../../../spec/studies/scala-logs.json"))
            .unwrap()
    }

    /// (format, mixed, strings, longs) in MB.
    fn figures(sizes: &[(&str, f64, f64, f64)]) -> Figures {
        let rows = sizes
            .iter()
            .map(|&(label, m, s, l)| {
                let serde_json::Value::Object(values) =
                    json!({"mixed_mb": m, "strings_mb": s, "longs_mb": l})
                else {
                    unreachable!()
                };
                Row { label: label.into(), values }
            })
            .collect();
        Figures {
            schema: crate::study::figures::SCHEMA.into(),
            study: "scala-logs".into(),
            language: "java".into(),
            environment: serde_json::Value::Null,
            variants: vec![Variant {
                id: STUDY_VARIANT.into(),
                title: "t".into(),
                tables: vec![Table { id: "file-size".into(), title: None, rows }],
            }],
            facts: Default::default(),
            departures: Vec::new(),
        }
    }

    /// The study's own files (its repository's `ls -h`, MiB).
    const THE_STUDY_S: [(&str, f64, f64, f64); 7] = [
        ("Java serialization", 36.0, 86.0, 24.0),
        ("JSON", 50.0, 124.0, 37.0),
        ("Avro", 23.0, 72.0, 10.0),
        ("Protobuf", 23.0, 73.0, 11.0),
        ("Thrift binary", 37.0, 98.0, 16.0),
        ("Thrift compact", 31.0, 98.0, 12.0),
        ("MessagePack", 21.0, 73.0, 9.6),
    ];

    #[test]
    fn the_study_s_sizes_reproduce_its_conclusions() {
        let (checks, _) = check(&published(), &figures(&THE_STUDY_S));
        assert_eq!(checks.len(), 7);
        for c in &checks {
            assert_eq!(c.verdict, Verdict::Reproduced, "{}: {}", c.id, c.evidence);
        }
    }

    #[test]
    fn the_checks_flip_when_the_sizes_do() {
        let mut sizes = THE_STUDY_S;
        sizes[4] = ("Thrift binary", 26.0, 86.5, 11.5); // the study's padding removed
        let (checks, _) = check(&published(), &figures(&sizes));
        let verdict = |id: &str| checks.iter().find(|c| c.id == id).unwrap().verdict;
        assert_eq!(verdict("thrift-binary-largest-mixed"), Verdict::NotReproduced);
        assert_eq!(verdict("thrift-binary-largest-strings"), Verdict::NotReproduced);
        assert_eq!(verdict("msgpack-smallest-longs"), Verdict::Reproduced);
    }
}
