//! Apache Ignite IEP-75 (`003_…txt`): MessagePack against Ignite 2.x's
//! binary format in JMH, measured by the JVM runner (`--study ignite-iep75`).
//! The checks read the study's own variant, each comparison decided by
//! JMH's error (its 99.9 % half-width, the study's Error column); the
//! project's variant (msgpack-core by hand, compact footers) is answered
//! beside them, never instead. The study's requirements are checked against
//! the feature matrix and the licences it lists, as a table beside the
//! study's comparison table.

use serde_json::json;

use super::decide::{self, Beyond, Figure, Outcome};
use super::figures::{Figures, STUDY_VARIANT, Table};
use super::published::{Column, Published, Row};
use super::render::number;
use super::{Answer, Check, Verdict};
use crate::format::features;
use crate::recommend;

/// A throughput with JMH's error, shown in millions: `33.38 M ± 1.88 M`.
fn throughput(table: &Table, row: &str, key: &str) -> Option<Figure> {
    let row = table.row(row)?;
    Some(Figure::plus_minus(row.value(key)?, row.value(&format!("{key}_error"))))
}

fn millions(e: &Figure) -> String {
    match &e.interval {
        Ok(i) => format!("{:.2} M ± {:.2} M", e.value / 1e6, (i.high - e.value) / 1e6),
        Err(_) => format!("{:.2} M (no error)", e.value / 1e6),
    }
}

/// Whether MessagePack's throughput is above Ignite's (or, `msgpack_should_win`
/// false, below it) on each of `rows`, decided by the errors.
fn faster(table: &Table, rows: &[&str], msgpack_should_win: bool) -> (Verdict, String) {
    let mut outcomes = Vec::new();
    let mut shown = Vec::new();
    for row in rows {
        let (Some(msgpack), Some(ignite)) =
            (throughput(table, row, "msgpack_ops_s"), throughput(table, row, "ignite_ops_s"))
        else {
            shown.push(format!("{row}: not measured"));
            outcomes.push((row.to_string(), Outcome::Open("not measured".into())));
            continue;
        };
        shown.push(format!(
            "{row}: MessagePack {} ops/s, Ignite {} (×{:.2})",
            millions(&msgpack),
            millions(&ignite),
            msgpack.value / ignite.value
        ));
        let outcome = match msgpack_should_win {
            true => decide::above(&msgpack, &ignite),
            false => decide::above(&ignite, &msgpack),
        };
        outcomes.push((row.to_string(), outcome));
    }
    (
        decide::verdict(&outcomes),
        format!("{}{}", shown.join("; "), decide::unless_all_hold(&outcomes)),
    )
}

/// IEP-75's languages of interest, in its order.
const LANGUAGES: [&str; 6] = ["Java", "C#", "C++", "Python", "JavaScript", "PHP"];

/// Licences a library of Apache Ignite (Apache-2.0) can depend on: the ASF's
/// category A, as the feature matrix spells them.
const COMPATIBLE_LICENCES: [&str; 10] = [
    "Apache-2.0",
    "MIT",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "BSL-1.0",
    "ISC",
    "CC0",
    "PSF-2.0",
    "PHP License",
    "BlueOak-1.0.0",
];

/// Whether `text` names `language` as a word (`Java`, not `JavaScript`).
fn names_language(text: &str, language: &str) -> bool {
    text.match_indices(language).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + language.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The languages of interest the feature matrix lists no compatible licence
/// for: its `licenses` are `;`-separated parts, each naming languages and
/// their licences, "none" where a language has no implementation and "not
/// checked" where none was established.
fn languages_without_a_licence(licenses: &str) -> Vec<&'static str> {
    LANGUAGES
        .into_iter()
        .filter(|language| {
            !licenses.split("; ").any(|part| {
                names_language(part, language)
                    && !part.contains("none")
                    && !part.contains("not checked")
                    && COMPATIBLE_LICENCES.iter().any(|l| part.contains(l))
            })
        })
        .collect()
}

/// The requirements' row for a family: whether it meets all, the needs it
/// fails, and the languages with no compatible licence.
fn requirements_row(family: &str, failed: &[&str]) -> Row {
    let missing = features::of_family(family)
        .map_or_else(|| LANGUAGES.to_vec(), |f| languages_without_a_licence(f.licenses));
    Row::new(
        family,
        json!({
            "satisfies_all": if failed.is_empty() && missing.is_empty() { "yes" } else { "no" },
            "needs_failed": if failed.is_empty() { "none".into() } else { failed.join(", ") },
            "licences": if missing.is_empty() {
                "compatible in all six".into()
            } else {
                format!("none compatible listed for {}", missing.join(", "))
            },
        }),
    )
}

/// The study's requirements checked by the feature matrix: for each of its
/// candidates, and every other family that meets them, whether it satisfies
/// all (`recommend::IEP75_NEEDS`, then a compatible licence in each language
/// of interest). Added to the study's variant beside the published table.
pub fn add_requirements(published: &Published, figures: &mut Figures) {
    let Ok(shortlist) = recommend::families_meeting(recommend::IEP75_NEEDS) else {
        return;
    };
    let candidates: Vec<&str> = published
        .table("requirements")
        .map(|t| t.rows.iter().map(|r| r.label.as_str()).collect())
        .unwrap_or_default();
    let failed = |family: &str| -> Vec<&str> {
        shortlist
            .excluded
            .iter()
            .find(|(f, _)| *f == family)
            .map_or_else(Vec::new, |(_, needs)| needs.clone())
    };
    let others = shortlist.meet.iter().copied().filter(|f| !candidates.contains(f));
    let rows = candidates.iter().copied().chain(others).map(|f| requirements_row(f, &failed(f)));
    let table = Table {
        id: "requirements".into(),
        title: None,
        columns: vec![
            Column::new(
                "needs_failed",
                &format!("needs failed (recommend --need {})", recommend::IEP75_NEEDS.join(",")),
                "",
            ),
            Column::new("licences", "licences (Java, C#, C++, Python, JavaScript, PHP)", ""),
        ],
        rows: rows.collect(),
    };
    if let Some(study) = figures.variants.iter_mut().find(|v| v.id == STUDY_VARIANT) {
        study.tables.push(table);
    }
}

/// "MessagePack and CBOR satisfy all requirements; no other contenders":
/// each candidate's yes or no against ours, and no other family qualifying.
fn only_msgpack_and_cbor(published: &Published, figures: &Figures) -> Check {
    let id = "only-msgpack-cbor";
    let (Some(theirs), Some(ours)) =
        (published.table("requirements"), figures.table("requirements"))
    else {
        return Check::new(
            published,
            id,
            Verdict::NotDecided,
            "the requirements were not checked".into(),
        );
    };
    let mut outcomes = Vec::new();
    for row in &ours.rows {
        let mine = row.text("satisfies_all");
        let (what, outcome) = match theirs.row(&row.label).and_then(|r| r.text("satisfies_all")) {
            Some(study) => (
                format!(
                    "{} ({})",
                    row.label,
                    if study == "yes" { "qualifies" } else { "excluded" }
                ),
                if Some(study) == mine { Outcome::Holds } else { Outcome::Fails },
            ),
            None => (
                format!("{}, not a candidate of the study's, qualifies", row.label),
                if mine == Some("yes") { Outcome::Fails } else { Outcome::Holds },
            ),
        };
        outcomes.push((what, outcome));
    }
    let kept: Vec<&str> = ours
        .rows
        .iter()
        .filter(|r| r.text("satisfies_all") == Some("yes"))
        .map(|r| r.label.as_str())
        .collect();
    let evidence = format!(
        "the feature matrix's needs and licences keep {} of the matrix's {} families; the study's other candidates are excluded on the matrix's grounds, which are not the study's (its comments weigh popularity, purpose and upkeep): both are in the requirements table",
        if kept.is_empty() { "none".into() } else { kept.join(" and ") },
        features::FEATURES.len()
    );
    Check::new(
        published,
        id,
        decide::verdict(&outcomes),
        format!("{evidence}{}", decide::unless_all_hold(&outcomes)),
    )
}

pub fn check(published: &Published, figures: &Figures) -> (Vec<Check>, Vec<Answer>) {
    let mut checks = Vec::new();
    let Some(jmh) = figures.table("jmh") else {
        return (super::not_decided(published, "the runner measured no jmh table"), Vec::new());
    };
    let (verdict, evidence) = faster(jmh, &["writePrimitives", "readPrimitives"], true);
    checks.push(Check::new(published, "msgpack-faster-primitives", verdict, evidence));
    let sizes = figures.table("sql-size");
    let (msgpack, ignite) = (
        sizes.and_then(|t| t.value("MessagePack", "bytes")),
        sizes.and_then(|t| t.value("Ignite binary", "bytes")),
    );
    checks.push(match (msgpack, ignite) {
        (Some(m), Some(i)) => {
            let smaller = vec![(
                "MessagePack below Ignite binary".to_owned(),
                decide::below(&Figure::exact(m), &Figure::exact(i)),
            )];
            Check::new(
                published,
                "msgpack-more-compact",
                decide::verdict(&smaller),
                format!(
                    "the SQL request: MessagePack {m} B, Ignite binary {i} B{}",
                    decide::unless_all_hold(&smaller)
                ),
            )
        }
        _ => Check::new(
            published,
            "msgpack-more-compact",
            Verdict::NotDecided,
            "sizes not measured".into(),
        ),
    });
    let (verdict, evidence) = faster(jmh, &["writePojo (fields with names)", "readPojo"], false);
    checks.push(Check::new(published, "ignite-faster-pojo", verdict, evidence));
    checks.push(sql_write_2x(published, jmh));
    checks.push(only_msgpack_and_cbor(published, figures));
    let answers = figures
        .variants
        .iter()
        .skip(1)
        .filter_map(|variant| {
            let jmh = variant.table("jmh")?;
            let rows: Vec<String> = jmh
                .rows
                .iter()
                .filter_map(|r| {
                    let m = throughput(jmh, &r.label, "msgpack_ops_s")?;
                    let i = throughput(jmh, &r.label, "ignite_ops_s")?;
                    let ratio = match decide::ratio_of(&m, &i) {
                        Ok(x) => format!(" [{}–{}]", number(x.low), number(x.high)),
                        Err(_) => String::new(),
                    };
                    Some(format!("{} ×{:.2}{ratio}", r.label, m.value / i.value))
                })
                .collect();
            Some(Answer {
                id: variant.id.clone(),
                question: format!(
                    "The same comparison in variant {} ({})",
                    variant.id, variant.title
                ),
                answer: format!(
                    "MessagePack/Ignite throughput, with the interval JMH's errors allow: {}",
                    rows.join(", ")
                ),
            })
        })
        .collect();
    (checks, answers)
}

/// "Ignite takes 2x time": the interval of MessagePack's throughput over
/// Ignite's, from both errors, at 1.8 or more (within a tenth of two, or
/// beyond); below 1 it is reversed.
fn sql_write_2x(published: &Published, jmh: &Table) -> Check {
    let id = "sql-write-2x";
    let row = "writeSqlQuery";
    let (Some(m), Some(i)) =
        (throughput(jmh, row, "msgpack_ops_s"), throughput(jmh, row, "ignite_ops_s"))
    else {
        return Check::new(published, id, Verdict::NotDecided, "writeSqlQuery not measured".into());
    };
    let interval = decide::ratio_of(&m, &i);
    let (verdict, why) = decide::judge_ratio(&interval, Beyond::Above(1.8), Beyond::Below(1.0));
    let study = published.table("jmh").and_then(|t| {
        let r = t.row(row)?;
        Some(r.value("msgpack_ops_s")? / r.value("ignite_ops_s")?)
    });
    Check::new(
        published,
        id,
        verdict,
        format!(
            "writeSqlQuery: Ignite takes ×{:.2}{} MessagePack's time (MessagePack {} ops/s, Ignite {}; the study: ×{}){}",
            m.value / i.value,
            interval.as_ref().map_or(String::new(), |x| format!(
                " [{}–{}]",
                number(x.low),
                number(x.high)
            )),
            millions(&m),
            millions(&i),
            study.map_or("—".into(), |x| format!("{x:.2}")),
            why.map_or(String::new(), |w| format!(" — not decided ({w})"))
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::figures::Variant;

    fn published() -> Published {
        Published::parse("ignite-iep75", include_str!("../../../../spec/studies/ignite-iep75.json"))
            .unwrap()
    }

    /// The published tables as our figures (errors included), Ignite's
    /// throughput scaled by `ignite`, `errors` times the published errors.
    fn figures(ignite: f64, errors: f64, sql_bytes: (f64, f64)) -> Figures {
        let published = published();
        let rows = published
            .table("jmh")
            .unwrap()
            .rows
            .iter()
            .map(|r| {
                let mut row = r.clone();
                for (key, v) in row.values.iter_mut() {
                    let scale = if key.starts_with("ignite") { ignite } else { 1.0 };
                    let scale = if key.ends_with("_error") { scale * errors } else { scale };
                    *v = (v.as_f64().unwrap() * scale).into();
                }
                row
            })
            .collect();
        let sizes = vec![
            Row::new("MessagePack", json!({"bytes": sql_bytes.0})),
            Row::new("Ignite binary", json!({"bytes": sql_bytes.1})),
        ];
        let mut figures = Figures {
            schema: crate::study::figures::SCHEMA.into(),
            study: "ignite-iep75".into(),
            language: "java".into(),
            environment: serde_json::Value::Null,
            variants: vec![Variant {
                id: STUDY_VARIANT.into(),
                title: "t".into(),
                tables: vec![
                    Table { id: "jmh".into(), title: None, columns: Vec::new(), rows },
                    Table { id: "sql-size".into(), title: None, columns: Vec::new(), rows: sizes },
                ],
            }],
            facts: Default::default(),
            departures: Vec::new(),
        };
        add_requirements(&published, &mut figures);
        figures
    }

    fn check_of(figures: &Figures, id: &str) -> Check {
        check(&published(), figures).0.into_iter().find(|c| c.id == id).unwrap()
    }

    fn verdict(figures: &Figures, id: &str) -> Verdict {
        check_of(figures, id).verdict
    }

    const MEASURED: [&str; 4] =
        ["msgpack-faster-primitives", "msgpack-more-compact", "ignite-faster-pojo", "sql-write-2x"];

    #[test]
    fn the_study_s_figures_reproduce_its_conclusions() {
        let theirs = figures(1.0, 1.0, (54.0, 71.0));
        for id in MEASURED {
            assert_eq!(verdict(&theirs, id), Verdict::Reproduced, "{id}");
        }
        // The feature matrix and its licences keep exactly MessagePack and CBOR.
        assert_eq!(verdict(&theirs, "only-msgpack-cbor"), Verdict::Reproduced);
        let sql = check_of(&theirs, "sql-write-2x");
        assert!(sql.evidence.contains("the study: ×2.15"), "{}", sql.evidence);
    }

    #[test]
    fn the_checks_flip_when_the_figures_do() {
        // Ignite ten times faster: MessagePack loses on primitives and the SQL request.
        let fast_ignite = figures(10.0, 1.0, (80.0, 71.0));
        assert_eq!(verdict(&fast_ignite, "msgpack-faster-primitives"), Verdict::Reversed);
        assert_eq!(verdict(&fast_ignite, "msgpack-more-compact"), Verdict::Reversed);
        assert_eq!(verdict(&fast_ignite, "sql-write-2x"), Verdict::Reversed);
        // Ignite ten times slower: MessagePack wins on the POJO too.
        let slow_ignite = figures(0.1, 1.0, (54.0, 71.0));
        assert_eq!(verdict(&slow_ignite, "ignite-faster-pojo"), Verdict::Reversed);
        // Ignite somewhat slower: faster than MessagePack on POJO writes only.
        let between = figures(0.6, 1.0, (54.0, 71.0));
        assert_eq!(verdict(&between, "ignite-faster-pojo"), Verdict::NotReproduced);
    }

    #[test]
    fn a_tie_is_not_decided() {
        let tied = figures(1.0, 1.0, (71.0, 71.0));
        let c = check_of(&tied, "msgpack-more-compact");
        assert_eq!(c.verdict, Verdict::NotDecided);
        assert!(c.evidence.contains("a tie"), "{}", c.evidence);
        // The same throughput and error both ways: no side wins.
        let mut even = figures(1.0, 1.0, (54.0, 71.0));
        for row in &mut even.variants[0].tables[0].rows {
            for key in ["ops_s", "ops_s_error"] {
                if let Some(v) = row.values.get(&format!("msgpack_{key}")).cloned() {
                    row.values.insert(format!("ignite_{key}"), v);
                }
            }
        }
        for id in ["msgpack-faster-primitives", "ignite-faster-pojo", "sql-write-2x"] {
            assert_ne!(verdict(&even, id), Verdict::Reproduced, "{id}");
            assert_ne!(verdict(&even, id), Verdict::Reversed, "{id}");
        }
    }

    #[test]
    fn an_overlap_is_not_decided() {
        // readPrimitives as this machine measured it: 33.38 M ± 1.88 M against 31.76 M ± 2.00 M.
        let mut close = figures(1.0, 1.0, (54.0, 71.0));
        let jmh = &mut close.variants[0].tables[0];
        let read = jmh.rows.iter_mut().find(|r| r.label == "readPrimitives").unwrap();
        for (key, v) in [
            ("msgpack_ops_s", 33.38e6),
            ("msgpack_ops_s_error", 1.88e6),
            ("ignite_ops_s", 31.76e6),
            ("ignite_ops_s_error", 2.0e6),
        ] {
            read.values.insert(key.into(), v.into());
        }
        let c = check_of(&close, "msgpack-faster-primitives");
        assert_eq!(c.verdict, Verdict::NotDecided);
        assert!(
            c.evidence.contains("readPrimitives: not decided (the intervals overlap"),
            "{}",
            c.evidence
        );
        // Errors forty times the study's: every throughput comparison overlaps.
        let wide = figures(1.0, 40.0, (54.0, 71.0));
        for id in ["msgpack-faster-primitives", "ignite-faster-pojo", "sql-write-2x"] {
            assert_eq!(verdict(&wide, id), Verdict::NotDecided, "{id}");
        }
    }

    #[test]
    fn no_error_no_verdict() {
        let mut bare = figures(1.0, 1.0, (54.0, 71.0));
        for row in &mut bare.variants[0].tables[0].rows {
            row.values.retain(|key, _| !key.ends_with("_error"));
        }
        for id in ["msgpack-faster-primitives", "ignite-faster-pojo", "sql-write-2x"] {
            assert_eq!(verdict(&bare, id), Verdict::NotDecided, "{id}");
        }
    }

    #[test]
    fn licences_are_read_per_language_of_interest() {
        assert!(names_language("Java (x): MIT", "Java"));
        assert!(!names_language("JavaScript (x): MIT", "Java"));
        assert!(names_language("C#, C++, PHP: none", "C++"));
        assert_eq!(
            languages_without_a_licence(
                "Java, C++, C#, Go: Apache-2.0; Python, JavaScript, PHP: none in that project"
            ),
            ["Python", "JavaScript", "PHP"]
        );
        assert_eq!(
            languages_without_a_licence("Java: MIT; C#, C++, JavaScript, PHP, Python: not checked"),
            ["C#", "C++", "Python", "JavaScript", "PHP"]
        );
        assert!(
            languages_without_a_licence(features::of_family("MessagePack").unwrap().licenses)
                .is_empty()
        );
        assert!(
            languages_without_a_licence(features::of_family("CBOR").unwrap().licenses).is_empty()
        );
    }

    /// The study's table, each candidate with our column beside: the study's
    /// two qualify, each other fails a need the matrix names.
    #[test]
    fn the_requirements_table_sets_ours_beside_each_candidate() {
        let theirs = figures(1.0, 1.0, (54.0, 71.0));
        let table = theirs.table("requirements").unwrap();
        let labels: Vec<&str> = table.rows.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(labels, ["MessagePack", "CBOR", "FlexBuffers", "BSON", "UBJSON"]);
        for row in &table.rows {
            let qualifies = row.text("satisfies_all") == Some("yes");
            assert_eq!(qualifies, ["MessagePack", "CBOR"].contains(&row.label.as_str()), "{row:?}");
            assert_eq!(row.text("needs_failed") == Some("none"), qualifies, "{row:?}");
        }
        assert_eq!(table.value("BSON", "needs_failed"), None, "text, not a number");
        assert!(table.row("BSON").unwrap().text("needs_failed").unwrap().contains("primitives"));
    }
}
