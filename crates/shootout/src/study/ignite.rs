//! Apache Ignite IEP-75 (`003_…txt`): MessagePack against Ignite 2.x's
//! binary format in JMH, measured by the JVM runner (`--study ignite-iep75`).
//! The checks read the study's own variant; the project's variant (msgpack-core
//! by hand, compact footers) is answered beside them, never instead.

use super::figures::{Figures, Table};
use super::published::Published;
use super::{Answer, Check, Verdict};
use crate::recommend;

/// MessagePack's throughput over Ignite's on `row` of `table`.
fn msgpack_over_ignite(table: &Table, row: &str) -> Option<f64> {
    Some(table.value(row, "msgpack_ops_s")? / table.value(row, "ignite_ops_s")?)
}

/// How the rows compare: all MessagePack-faster, all Ignite-faster, or mixed.
fn faster(table: &Table, rows: &[&str], msgpack_should_win: bool) -> (Verdict, String) {
    let ratios: Vec<Option<f64>> = rows.iter().map(|r| msgpack_over_ignite(table, r)).collect();
    let evidence = rows
        .iter()
        .zip(&ratios)
        .map(|(r, x)| match x {
            Some(x) => format!("{r}: MessagePack/Ignite ×{x:.2}"),
            None => format!("{r}: not measured"),
        })
        .collect::<Vec<_>>()
        .join("; ");
    let Some(ratios) = ratios.into_iter().collect::<Option<Vec<f64>>>() else {
        return (Verdict::Undecided, evidence);
    };
    let wins = ratios.iter().filter(|&&x| (x > 1.0) == msgpack_should_win).count();
    (super::verdict_of(wins, ratios.len()), evidence)
}

/// The study's requirements table as `recommend --need`s (`recommend::IEP75_NEEDS`)
/// run on the feature matrix: which families remain.
fn only_msgpack_and_cbor(published: &Published) -> Check {
    let id = "only-msgpack-cbor";
    let shortlist = match recommend::families_meeting(recommend::IEP75_NEEDS) {
        Ok(shortlist) => shortlist,
        Err(e) => return Check::new(published, id, Verdict::Undecided, format!("{e:#}")),
    };
    let expected = ["MessagePack", "CBOR"];
    let kept = expected.iter().filter(|f| shortlist.meet.contains(f)).count();
    let exactly = kept == expected.len() && shortlist.meet.len() == expected.len();
    let excluded: Vec<String> =
        shortlist.excluded.iter().map(|(f, need)| format!("{f} (fails {need})")).collect();
    Check::new(
        published,
        id,
        match (exactly, kept) {
            (true, _) => Verdict::Reproduced,
            (false, 0) => Verdict::Reversed,
            _ => Verdict::NotReproduced,
        },
        format!(
            "`shootout recommend --need {}` keeps {}; excludes {}",
            recommend::IEP75_NEEDS.join(","),
            shortlist.meet.join(", "),
            excluded.join(", ")
        ),
    )
}

pub fn check(published: &Published, figures: &Figures) -> (Vec<Check>, Vec<Answer>) {
    let mut checks = Vec::new();
    let Some(jmh) = figures.table("jmh") else {
        return (super::undecided(published, "the runner measured no jmh table"), Vec::new());
    };
    let (verdict, evidence) = faster(jmh, &["writePrimitives", "readPrimitives"], true);
    checks.push(Check::new(published, "msgpack-faster-primitives", verdict, evidence));
    let sizes = figures.table("sql-size");
    let (msgpack, ignite) = (
        sizes.and_then(|t| t.value("MessagePack", "bytes")),
        sizes.and_then(|t| t.value("Ignite binary", "bytes")),
    );
    checks.push(match (msgpack, ignite) {
        (Some(m), Some(i)) => Check::new(
            published,
            "msgpack-more-compact",
            super::verdict_of(usize::from(m < i), 1),
            format!("the SQL request: MessagePack {m} B, Ignite binary {i} B"),
        ),
        _ => Check::new(
            published,
            "msgpack-more-compact",
            Verdict::Undecided,
            "sizes not measured".into(),
        ),
    });
    let (verdict, evidence) = faster(jmh, &["writePojo (fields with names)", "readPojo"], false);
    checks.push(Check::new(published, "ignite-faster-pojo", verdict, evidence));
    checks.push(match msgpack_over_ignite(jmh, "writeSqlQuery") {
        // "takes 2x time": within a tenth of two, or beyond.
        Some(x) => Check::new(
            published,
            "sql-write-2x",
            if x >= 1.8 {
                Verdict::Reproduced
            } else if x < 1.0 {
                Verdict::Reversed
            } else {
                Verdict::NotReproduced
            },
            format!("writeSqlQuery: Ignite takes ×{x:.2} MessagePack's time (the study: ×2.15)"),
        ),
        None => Check::new(
            published,
            "sql-write-2x",
            Verdict::Undecided,
            "writeSqlQuery not measured".into(),
        ),
    });
    checks.push(only_msgpack_and_cbor(published));
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
                    Some(format!("{} ×{:.2}", r.label, msgpack_over_ignite(jmh, &r.label)?))
                })
                .collect();
            Some(Answer {
                id: variant.id.clone(),
                question: format!(
                    "The same comparison in variant {} ({})",
                    variant.id, variant.title
                ),
                answer: format!("MessagePack/Ignite throughput: {}", rows.join(", ")),
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
        Published::parse("ignite-iep75", include_str!("../../../../spec/studies/ignite-iep75.json"))
            .unwrap()
    }

    /// The published tables as our figures, Ignite's throughput scaled by `ignite`.
    fn figures(ignite: f64, sql_bytes: (f64, f64)) -> Figures {
        let published = published();
        let jmh = published.table("jmh").unwrap();
        let rows = jmh
            .rows
            .iter()
            .map(|r| {
                let mut row = r.clone();
                if let Some(v) = row.values.get_mut("ignite_ops_s") {
                    *v = (v.as_f64().unwrap() * ignite).into();
                }
                row
            })
            .collect();
        let serde_json::Value::Object(m) = json!({"bytes": sql_bytes.0}) else { unreachable!() };
        let serde_json::Value::Object(i) = json!({"bytes": sql_bytes.1}) else { unreachable!() };
        let sizes = vec![
            Row { label: "MessagePack".into(), values: m },
            Row { label: "Ignite binary".into(), values: i },
        ];
        Figures {
            schema: crate::study::figures::SCHEMA.into(),
            study: "ignite-iep75".into(),
            language: "java".into(),
            environment: serde_json::Value::Null,
            variants: vec![Variant {
                id: STUDY_VARIANT.into(),
                title: "t".into(),
                tables: vec![
                    Table { id: "jmh".into(), title: None, rows },
                    Table { id: "sql-size".into(), title: None, rows: sizes },
                ],
            }],
            facts: Default::default(),
            departures: Vec::new(),
        }
    }

    fn verdict(figures: &Figures, id: &str) -> Verdict {
        check(&published(), figures).0.into_iter().find(|c| c.id == id).unwrap().verdict
    }

    #[test]
    fn the_study_s_figures_reproduce_its_conclusions() {
        let theirs = figures(1.0, (54.0, 71.0));
        for id in [
            "msgpack-faster-primitives",
            "msgpack-more-compact",
            "ignite-faster-pojo",
            "sql-write-2x",
        ] {
            assert_eq!(verdict(&theirs, id), Verdict::Reproduced, "{id}");
        }
        // The feature matrix keeps exactly MessagePack and CBOR for the study's requirements.
        assert_eq!(verdict(&theirs, "only-msgpack-cbor"), Verdict::Reproduced);
    }

    #[test]
    fn the_checks_flip_when_the_figures_do() {
        // Ignite ten times faster: MessagePack loses on primitives and the SQL request.
        let fast_ignite = figures(10.0, (80.0, 71.0));
        assert_eq!(verdict(&fast_ignite, "msgpack-faster-primitives"), Verdict::Reversed);
        assert_eq!(verdict(&fast_ignite, "msgpack-more-compact"), Verdict::Reversed);
        assert_eq!(verdict(&fast_ignite, "sql-write-2x"), Verdict::Reversed);
        // Ignite ten times slower: MessagePack wins on the POJO too.
        assert_eq!(verdict(&figures(0.1, (54.0, 71.0)), "ignite-faster-pojo"), Verdict::Reversed);
        // Ignite somewhat slower: faster than MessagePack on POJO writes only.
        let between = figures(0.6, (54.0, 71.0));
        assert_eq!(verdict(&between, "ignite-faster-pojo"), Verdict::NotReproduced);
    }
}
