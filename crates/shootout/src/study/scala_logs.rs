//! Logs and queues (`004_…txt`): file sizes and whole-file times of Java
//! serialization, JSON, Avro, Protobuf, Thrift and MessagePack on three
//! generated CSV sets, measured by the JVM runner (`--study scala-logs`).
//! The document's conclusions on sizes and its claims on speed are each
//! checked on the study's variant: a size is exact, so only a tie leaves a
//! size comparison open; a time carries the spread of its timed passes. The
//! runner's `corrected` variant (the study's two writing slips fixed)
//! answers whether the size conclusions survive.

use super::decide::{self, Comparisons, Figure, Outcome};
use super::figures::{Figures, Table};
use super::published::Published;
use super::render::number;
use super::{Answer, Check, Verdict};

const SETS: [&str; 3] = ["mixed", "strings", "longs"];

/// The one text format, which the document sets apart from the binary ones.
const JSON: &str = "JSON";

/// A format's file of `set` in MiB, exact.
fn size(table: &Table, format: &str, set: &str) -> Option<Figure> {
    table.value(format, &format!("{set}_mib")).map(Figure::exact)
}

/// A format's mean time of `set` with the spread of its passes.
fn time(table: &Table, format: &str, set: &str) -> Option<Figure> {
    let row = table.row(format)?;
    Some(Figure::over_runs(row.value(set)?, row.runs(set)))
}

/// The formats of `table`, JSON left out unless `with_json`.
fn formats(table: &Table, with_json: bool) -> Vec<&str> {
    table.rows.iter().map(|r| r.label.as_str()).filter(|l| with_json || *l != JSON).collect()
}

/// `table`'s formats ordered by their figure of `set`, smallest first, each shown.
fn listed(
    table: &Table,
    set: &str,
    with_json: bool,
    figure: fn(&Table, &str, &str) -> Option<Figure>,
    unit: &str,
) -> String {
    let mut rows: Vec<(&str, Figure)> = formats(table, with_json)
        .into_iter()
        .filter_map(|f| Some((f, figure(table, f, set)?)))
        .collect();
    rows.sort_by(|a, b| a.1.value.total_cmp(&b.1.value));
    let shown: Vec<String> =
        rows.iter().map(|(f, e)| format!("{f} {} {unit}", e.shown())).collect();
    format!("{set}: {}", shown.join(" < "))
}

fn sizes_listed(table: &Table, set: &str, with_json: bool) -> String {
    listed(table, set, with_json, size, "MiB")
}

/// `format` against every other format of `set` (JSON aside unless
/// `with_json`), by `figure`: below each (`largest` false) or above each.
fn against_all(
    table: &Table,
    set: &str,
    format: &str,
    largest: bool,
    with_json: bool,
    figure: fn(&Table, &str, &str) -> Option<Figure>,
    exclude: &[&str],
) -> Comparisons {
    let Some(mine) = figure(table, format, set) else {
        return vec![(format!("{set}: {format}"), Outcome::Open("not measured".into()))];
    };
    formats(table, with_json)
        .into_iter()
        .filter(|other| *other != format && !exclude.contains(other))
        .map(|other| {
            let outcome = match figure(table, other, set) {
                Some(theirs) if largest => decide::above(&mine, &theirs),
                Some(theirs) => decide::below(&mine, &theirs),
                None => Outcome::Open(format!("{other} not measured")),
            };
            let side = if largest { "above" } else { "below" };
            (format!("{set}: {format} {side} {other}"), outcome)
        })
        .collect()
}

/// A check from its comparisons, the figures shown and the comparisons that did not hold.
fn judged(published: &Published, id: &str, comparisons: &Comparisons, shown: String) -> Check {
    let evidence = format!("{shown}{}", decide::unless_all_hold(comparisons));
    Check::new(published, id, decide::verdict(comparisons), evidence)
}

/// The document's size conclusions on one file-size table.
fn size_checks(published: &Published, table: &Table) -> Vec<Check> {
    let extreme = |id: &str, set: &str, format: &str, largest: bool| {
        let comparisons = against_all(table, set, format, largest, false, size, &[]);
        judged(published, id, &comparisons, sizes_listed(table, set, false))
    };
    let json_largest: Comparisons =
        SETS.iter().flat_map(|set| against_all(table, set, JSON, true, true, size, &[])).collect();
    let mut mixed = against_all(table, "mixed", "Thrift binary", true, false, size, &[]);
    mixed.extend(against_all(
        table,
        "mixed",
        "Java serialization",
        true,
        false,
        size,
        &["Thrift binary"],
    ));
    vec![
        extreme("msgpack-smallest-longs", "longs", "MessagePack", false),
        extreme("avro-smallest-strings", "strings", "Avro", false),
        extreme("msgpack-smallest-mixed", "mixed", "MessagePack", false),
        judged(
            published,
            "json-largest",
            &json_largest,
            SETS.iter().map(|s| sizes_listed(table, s, true)).collect::<Vec<_>>().join("; "),
        ),
        extreme("java-largest-longs", "longs", "Java serialization", true),
        extreme("thrift-binary-largest-strings", "strings", "Thrift binary", true),
        judged(
            published,
            "thrift-binary-largest-mixed",
            &mixed,
            sizes_listed(table, "mixed", false),
        ),
        least_space_overall(published, table),
    ]
}

/// "Data packed in MessagePack take the least space": its three files
/// together against each other binary format's.
fn least_space_overall(published: &Published, table: &Table) -> Check {
    let total = |format: &str| -> Option<f64> {
        SETS.iter().map(|set| table.value(format, &format!("{set}_mib"))).sum()
    };
    let mut comparisons = Comparisons::new();
    let mut shown = Vec::new();
    let mine = total("MessagePack");
    for format in formats(table, false) {
        let Some(theirs) = total(format) else { continue };
        shown.push(format!("{format} {}", number(theirs)));
        if format == "MessagePack" {
            continue;
        }
        let outcome = match mine {
            Some(mine) => decide::below(&Figure::exact(mine), &Figure::exact(theirs)),
            None => Outcome::Open("MessagePack not measured".into()),
        };
        comparisons.push((format!("MessagePack below {format}"), outcome));
    }
    judged(
        published,
        "msgpack-least-space-overall",
        &comparisons,
        format!("the three files together, MiB: {}", shown.join(", ")),
    )
}

/// The write and read tables, as the speed claims name them.
struct Times<'a> {
    write: &'a Table,
    read: &'a Table,
}

impl Times<'_> {
    fn directions(&self) -> [(&'static str, &Table); 2] {
        [("write", self.write), ("read", self.read)]
    }

    /// `format`'s time above (slower than) each of `others`, every set, in the given directions.
    fn slower_than(
        &self,
        format: &str,
        others: &[&str],
        directions: &[&str],
    ) -> (Comparisons, String) {
        let mut comparisons = Comparisons::new();
        let mut shown = Vec::new();
        for (direction, table) in self.directions() {
            if !directions.contains(&direction) {
                continue;
            }
            for set in SETS {
                let Some(mine) = time(table, format, set) else {
                    comparisons.push((
                        format!("{direction} {set}"),
                        Outcome::Open(format!("{format} not measured")),
                    ));
                    continue;
                };
                let mut these = vec![format!("{format} {}", mine.shown())];
                for other in others {
                    let outcome = match time(table, other, set) {
                        Some(theirs) => {
                            these.push(format!("{other} {}", theirs.shown()));
                            decide::above(&mine, &theirs)
                        }
                        None => Outcome::Open(format!("{other} not measured")),
                    };
                    comparisons
                        .push((format!("{direction} {set}: {format} above {other}"), outcome));
                }
                shown.push(format!("{direction} {set} (ms): {}", these.join(", ")));
            }
        }
        (comparisons, shown.join("; "))
    }
}

/// The binary formats other than `but`.
fn binary_but<'a>(table: &'a Table, but: &[&str]) -> Vec<&'a str> {
    formats(table, false).into_iter().filter(|f| !but.contains(f)).collect()
}

/// "Protobuf, in some cases, works faster than the others": the fastest of
/// all seven, decided, in at least one set and direction.
fn protobuf_sometimes_fastest(published: &Published, times: &Times) -> Check {
    let mut cases = Vec::new();
    for (direction, table) in times.directions() {
        for set in SETS {
            let comparisons: Comparisons =
                against_all(table, set, "Protobuf", false, true, time, &[]);
            cases.push((format!("{direction} {set}"), decide::verdict(&comparisons)));
        }
    }
    let fastest: Vec<&str> =
        cases.iter().filter(|(_, v)| *v == Verdict::Reproduced).map(|(c, _)| c.as_str()).collect();
    let open: Vec<&str> =
        cases.iter().filter(|(_, v)| *v == Verdict::NotDecided).map(|(c, _)| c.as_str()).collect();
    let verdict = match (fastest.is_empty(), open.is_empty()) {
        (false, _) => Verdict::Reproduced,
        (true, true) => Verdict::Reversed,
        (true, false) => Verdict::NotDecided,
    };
    let ranked: Vec<String> = times
        .directions()
        .iter()
        .flat_map(|(direction, table)| {
            SETS.iter().map(move |set| {
                let fastest = formats(table, true)
                    .into_iter()
                    .filter_map(|f| Some((f, table.value(f, set)?)))
                    .min_by(|a, b| a.1.total_cmp(&b.1))
                    .map_or("—", |(f, _)| f);
                format!("{direction} {set}: {fastest}")
            })
        })
        .collect();
    Check::new(
        published,
        "protobuf-sometimes-faster",
        verdict,
        format!(
            "the fastest of the seven by mean: {}; Protobuf decidedly fastest in: {}{}",
            ranked.join(", "),
            if fastest.is_empty() { "none".into() } else { fastest.join(", ") },
            if open.is_empty() {
                String::new()
            } else {
                format!("; not decided by the passes' spread in: {}", open.join(", "))
            }
        ),
    )
}

/// "MessagePack works quite fast", read as: in the faster half of the seven
/// formats in each set and direction — decidedly faster than at least three
/// of the six others, and not decidedly slower than four.
fn msgpack_fast(published: &Published, times: &Times) -> Check {
    let mut comparisons = Comparisons::new();
    let mut shown = Vec::new();
    for (direction, table) in times.directions() {
        for set in SETS {
            let against = against_all(table, set, "MessagePack", false, true, time, &[]);
            let faster = against.iter().filter(|(_, o)| *o == Outcome::Holds).count();
            let slower = against.iter().filter(|(_, o)| *o == Outcome::Fails).count();
            let half = against.len().div_ceil(2);
            let outcome = if faster >= half {
                Outcome::Holds
            } else if slower > against.len() - half {
                Outcome::Fails
            } else {
                let open = against.len() - faster - slower;
                let first_why = against
                    .iter()
                    .find_map(|(_, o)| match o {
                        Outcome::Open(why) => Some(why.as_str()),
                        _ => None,
                    })
                    .unwrap_or_default();
                Outcome::Open(format!(
                    "decidedly faster than {faster} and slower than {slower} of {}, {open} not decided, the first for: {first_why}",
                    against.len()
                ))
            };
            shown.push(format!("{direction} {set}: faster than {faster} of {}", against.len()));
            comparisons.push((format!("{direction} {set}"), outcome));
        }
    }
    judged(
        published,
        "msgpack-fast",
        &comparisons,
        format!("MessagePack, decidedly: {}", shown.join(", ")),
    )
}

/// "Stable benchmark results are hard to get": whether two formats swap
/// places from one timed pass to another, with the passes' spread.
fn results_unstable(published: &Published, times: &Times) -> Check {
    let id = "results-unstable";
    let mut swaps = Vec::new();
    let mut spreads = Vec::new();
    let mut passes = usize::MAX;
    for (direction, table) in times.directions() {
        for set in SETS {
            let runs: Vec<(&str, &[f64])> =
                table.rows.iter().map(|r| (r.label.as_str(), r.runs(set))).collect();
            for (_, values) in &runs {
                passes = passes.min(values.len());
                if !values.is_empty() {
                    spreads.push(crate::stats::Spread::of(values.iter().copied()).relative_range());
                }
            }
            for (i, (a, ra)) in runs.iter().enumerate() {
                for (b, rb) in &runs[i + 1..] {
                    let mut order = ra.iter().zip(rb.iter()).map(|(x, y)| x < y);
                    if let Some(head) = order.next()
                        && order.any(|o| o != head)
                    {
                        swaps.push(format!("{direction} {set}: {a} and {b}"));
                    }
                }
            }
        }
    }
    if passes < 2 || passes == usize::MAX {
        return Check::new(
            published,
            id,
            Verdict::NotDecided,
            "one timed pass per file: no pass to compare it with".into(),
        );
    }
    spreads.sort_by(f64::total_cmp);
    let spread = format!(
        "the passes' spread ((max − min) / median) per file: median {:.1} %, largest {:.1} %, over {passes} timed passes",
        spreads[spreads.len() / 2] * 100.0,
        spreads.last().copied().unwrap_or(0.0) * 100.0
    );
    let verdict = if swaps.is_empty() { Verdict::NotReproduced } else { Verdict::Reproduced };
    Check::new(
        published,
        id,
        verdict,
        match swaps.is_empty() {
            true => format!("{spread}; every pass ranked the formats alike in every file"),
            false => format!(
                "{spread}; {} pair(s) of formats swap places between passes: {}",
                swaps.len(),
                swaps.join(", ")
            ),
        },
    )
}

/// "A format is a trade-off between serialization speed and output size":
/// in each set, the smallest file's format is decidedly slower to write
/// than another format; none is both the smallest and the fastest writer.
fn speed_size_tradeoff(published: &Published, sizes: &Table, times: &Times) -> Check {
    let mut comparisons = Comparisons::new();
    let mut shown = Vec::new();
    for set in SETS {
        let binary = formats(sizes, false);
        let mut by_size: Vec<(&str, f64)> = binary
            .iter()
            .filter_map(|f| Some((*f, sizes.value(f, &format!("{set}_mib"))?)))
            .collect();
        by_size.sort_by(|a, b| a.1.total_cmp(&b.1));
        let outcome = match by_size.as_slice() {
            [] => Outcome::Open("no sizes".into()),
            [(_, first), (_, second), ..] if first == second => {
                Outcome::Open(format!("a tie for the smallest file at {}", number(*first)))
            }
            [(smallest, _), ..] => {
                let against = against_all(times.write, set, smallest, false, false, time, &[]);
                if against.iter().any(|(_, o)| *o == Outcome::Fails) {
                    Outcome::Holds
                } else if against.iter().all(|(_, o)| *o == Outcome::Holds) {
                    Outcome::Fails
                } else {
                    Outcome::Open(format!(
                        "{smallest}'s write time is not decidedly above or below every other's"
                    ))
                }
            }
        };
        if let Some((smallest, _)) = by_size.first() {
            shown.push(format!(
                "{set}: smallest {smallest}, write {}",
                listed(times.write, set, false, time, "ms").trim_start_matches(&format!("{set}: "))
            ));
        }
        comparisons.push((format!("{set}: a trade-off"), outcome));
    }
    judged(published, "speed-size-tradeoff", &comparisons, shown.join("; "))
}

/// The document's speed claims, each against the passes' spread.
fn speed_checks(published: &Published, sizes: &Table, times: &Times) -> Vec<Check> {
    let slower = |id: &str, format: &str, others: Vec<&str>, directions: &[&str]| {
        let (comparisons, shown) = times.slower_than(format, &others, directions);
        judged(published, id, &comparisons, shown)
    };
    vec![
        slower(
            "java-slow",
            "Java serialization",
            binary_but(times.write, &["Java serialization"]),
            &["write", "read"],
        ),
        slower("json-slow", JSON, binary_but(times.write, &["Java serialization"]), &["write"]),
        slower("avro-schema-cost", "Avro", vec!["Protobuf", "MessagePack"], &["write"]),
        {
            let (mut comparisons, binary) =
                times.slower_than("Thrift binary", &["Protobuf", "MessagePack"], &["write"]);
            let (compact, shown) =
                times.slower_than("Thrift compact", &["Protobuf", "MessagePack"], &["write"]);
            comparisons.extend(compact);
            judged(published, "thrift-packing-time", &comparisons, format!("{binary}; {shown}"))
        },
        protobuf_sometimes_fastest(published, times),
        msgpack_fast(published, times),
        results_unstable(published, times),
        speed_size_tradeoff(published, sizes, times),
    ]
}

pub fn check(published: &Published, figures: &Figures) -> (Vec<Check>, Vec<Answer>) {
    let Some(sizes) = figures.table("file-size") else {
        return (super::not_decided(published, "the runner measured no file sizes"), Vec::new());
    };
    let mut checks = size_checks(published, sizes);
    match (figures.table("write-ms"), figures.table("read-ms")) {
        (Some(write), Some(read)) => {
            checks.extend(speed_checks(published, sizes, &Times { write, read }));
        }
        _ => {
            let measured: Vec<&str> = checks.iter().map(|c| c.id.as_str()).collect();
            let rest: Vec<Check> = super::not_decided(published, "the runner measured no times")
                .into_iter()
                .filter(|c| !measured.contains(&c.id.as_str()))
                .collect();
            checks.extend(rest);
        }
    }
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

    /// (format, mixed, strings, longs) in MiB: the study's own files (its
    /// repository's `ls -h`), with the ties its rounding made (Avro and
    /// Protobuf's mixed, Protobuf and MessagePack's and both Thrifts' strings)
    /// broken as the study's ordering has them.
    const THE_STUDY_S: [(&str, f64, f64, f64); 7] = [
        ("Java serialization", 36.0, 86.0, 24.0),
        ("JSON", 50.0, 124.0, 37.0),
        ("Avro", 23.0, 72.0, 10.0),
        ("Protobuf", 23.5, 73.0, 11.0),
        ("Thrift binary", 37.0, 98.0, 16.0),
        ("Thrift compact", 31.0, 97.0, 12.0),
        ("MessagePack", 21.0, 73.5, 9.6),
    ];

    /// (format, mean write ms, mean read ms) with passes ±`spread` (relative)
    /// around each, the same in every set.
    const TIMES: [(&str, f64, f64); 7] = [
        ("Java serialization", 1500.0, 500.0),
        ("JSON", 600.0, 330.0),
        ("Avro", 300.0, 70.0),
        ("Protobuf", 200.0, 40.0),
        ("Thrift binary", 280.0, 63.0),
        ("Thrift compact", 260.0, 60.0),
        ("MessagePack", 210.0, 45.0),
    ];

    fn table(id: &str, rows: Vec<Row>) -> Table {
        Table { id: id.into(), title: None, columns: Vec::new(), rows }
    }

    fn times(id: &str, column: usize, spread: f64) -> Table {
        let rows = TIMES
            .iter()
            .map(|row| {
                let ms = if column == 0 { row.1 } else { row.2 };
                let mut r = Row::new(row.0, json!({"mixed": ms, "strings": ms, "longs": ms}));
                for set in SETS {
                    r.runs.insert(set.into(), vec![ms * (1.0 - spread), ms, ms * (1.0 + spread)]);
                }
                r
            })
            .collect();
        table(id, rows)
    }

    fn figures(sizes: &[(&str, f64, f64, f64)], spread: f64) -> Figures {
        let rows = sizes
            .iter()
            .map(|&(label, m, s, l)| {
                Row::new(label, json!({"mixed_mib": m, "strings_mib": s, "longs_mib": l}))
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
                tables: vec![
                    table("file-size", rows),
                    times("write-ms", 0, spread),
                    times("read-ms", 1, spread),
                ],
            }],
            facts: Default::default(),
            departures: Vec::new(),
        }
    }

    fn check_of(figures: &Figures, id: &str) -> Check {
        check(&published(), figures).0.into_iter().find(|c| c.id == id).unwrap()
    }

    fn verdict(figures: &Figures, id: &str) -> Verdict {
        check_of(figures, id).verdict
    }

    const SIZE_CLAIMS: [&str; 8] = [
        "msgpack-smallest-longs",
        "avro-smallest-strings",
        "msgpack-smallest-mixed",
        "json-largest",
        "java-largest-longs",
        "thrift-binary-largest-strings",
        "thrift-binary-largest-mixed",
        "msgpack-least-space-overall",
    ];

    /// The claims decided by the passes' spread ("results unstable" is by the passes' order).
    const SPEED_CLAIMS: [&str; 7] = [
        "java-slow",
        "json-slow",
        "avro-schema-cost",
        "thrift-packing-time",
        "protobuf-sometimes-faster",
        "msgpack-fast",
        "speed-size-tradeoff",
    ];

    #[test]
    fn every_conclusion_and_claim_is_checked() {
        let (checks, _) = check(&published(), &figures(&THE_STUDY_S, 0.01));
        let ids: Vec<&str> = checks.iter().map(|c| c.id.as_str()).collect();
        let published = published();
        let published_ids: Vec<&str> =
            published.conclusions.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, published_ids);
    }

    #[test]
    fn the_study_s_sizes_reproduce_its_conclusions() {
        let theirs = figures(&THE_STUDY_S, 0.01);
        for id in SIZE_CLAIMS {
            let c = check_of(&theirs, id);
            assert_eq!(c.verdict, Verdict::Reproduced, "{id}: {}", c.evidence);
        }
    }

    #[test]
    fn the_speed_claims_follow_the_times() {
        // Passes ±0.5 %: Protobuf's 200 ms and MessagePack's 210 apart.
        let tight = figures(&THE_STUDY_S, 0.005);
        for id in SPEED_CLAIMS {
            let c = check_of(&tight, id);
            assert_eq!(c.verdict, Verdict::Reproduced, "{id}: {}", c.evidence);
        }
        // Passes of formats 5 % and more apart never swap.
        assert_eq!(verdict(&tight, "results-unstable"), Verdict::NotReproduced);
    }

    #[test]
    fn the_checks_flip_when_the_sizes_do() {
        let mut sizes = THE_STUDY_S;
        sizes[4] = ("Thrift binary", 26.0, 70.0, 11.5); // smaller than any other binary format's strings file
        let (checks, _) = check(&published(), &figures(&sizes, 0.01));
        let verdict = |id: &str| checks.iter().find(|c| c.id == id).unwrap().verdict;
        assert_eq!(verdict("thrift-binary-largest-mixed"), Verdict::NotReproduced);
        assert_eq!(verdict("thrift-binary-largest-strings"), Verdict::Reversed);
        assert_eq!(verdict("msgpack-smallest-longs"), Verdict::Reproduced);
    }

    /// Thrift binary's and compact's strings files the same size, to the
    /// byte, as the study's padding makes them: no largest.
    #[test]
    fn a_tie_is_not_decided() {
        let mut sizes = THE_STUDY_S;
        sizes[5].2 = sizes[4].2;
        sizes[2].3 = sizes[6].3; // Avro's longs file as small as MessagePack's
        let tied = figures(&sizes, 0.01);
        for id in ["thrift-binary-largest-strings", "msgpack-smallest-longs"] {
            let c = check_of(&tied, id);
            assert_eq!(c.verdict, Verdict::NotDecided, "{id}");
            assert!(c.evidence.contains("a tie"), "{id}: {}", c.evidence);
        }
        // Avro's three files together as large as MessagePack's: no least overall.
        let mut sizes = THE_STUDY_S;
        sizes[2].1 = 21.5;
        sizes[2].2 = 73.0;
        sizes[2].3 = 9.6;
        let c = check_of(&figures(&sizes, 0.01), "msgpack-least-space-overall");
        assert_eq!(c.verdict, Verdict::NotDecided);
        assert!(c.evidence.contains("a tie at 104"), "{}", c.evidence);
        // Every format as fast as every other: no speed claim is decided.
        let mut even = figures(&THE_STUDY_S, 0.0);
        for table in &mut even.variants[0].tables[1..] {
            for row in &mut table.rows {
                for set in SETS {
                    row.values.insert(set.into(), 100.0.into());
                    row.runs.insert(set.into(), vec![100.0; 3]);
                }
            }
        }
        for id in SPEED_CLAIMS {
            assert_eq!(verdict(&even, id), Verdict::NotDecided, "{id}");
        }
    }

    #[test]
    fn an_overlap_is_not_decided() {
        // Passes spread ±60 %: Protobuf's 200 ms (80–320) meets MessagePack's 210 and Avro's 300.
        let wide = figures(&THE_STUDY_S, 0.6);
        for id in [
            "avro-schema-cost",
            "thrift-packing-time",
            "protobuf-sometimes-faster",
            "msgpack-fast",
            "speed-size-tradeoff",
        ] {
            let c = check_of(&wide, id);
            assert_eq!(c.verdict, Verdict::NotDecided, "{id}: {}", c.evidence);
        }
    }

    #[test]
    fn passes_that_swap_formats_are_unstable_results() {
        let mut swapping = figures(&THE_STUDY_S, 0.01);
        let write = &mut swapping.variants[0].tables[1];
        let protobuf = write.rows.iter_mut().find(|r| r.label == "Protobuf").unwrap();
        protobuf.runs.insert("mixed".into(), vec![190.0, 230.0, 200.0]); // MessagePack: 207.9, 210, 212.1
        let c = check_of(&swapping, "results-unstable");
        assert_eq!(c.verdict, Verdict::Reproduced);
        assert!(c.evidence.contains("write mixed: Protobuf and MessagePack"), "{}", c.evidence);
        let mut one = figures(&THE_STUDY_S, 0.01);
        for table in &mut one.variants[0].tables[1..] {
            for row in &mut table.rows {
                row.runs.values_mut().for_each(|r| r.truncate(1));
            }
        }
        assert_eq!(verdict(&one, "results-unstable"), Verdict::NotDecided);
        assert_eq!(verdict(&one, "java-slow"), Verdict::NotDecided);
    }
}
