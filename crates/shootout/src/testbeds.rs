//! Results of one workload from several testbeds side by side
//! (`shootout-testbeds/1`, docs/many-machines.md). ns/op is a machine's own:
//! across machines only relative costs compare, each format's ns/op over its
//! run's anchor, the machine's speed taken out. Each testbed's costs are
//! anchored again on the formats every testbed measured (per language and
//! direction: their geometric mean is 1), so a format that one machine
//! lacks moves no other's cost; ranks order those formats within each
//! testbed, and a rank change is *decided* when some pair of formats swaps
//! order with disjoint intervals on both testbeds.

use serde::Serialize;

use crate::document::{Direction, FormatResult, Results, Testbed};
use crate::stats::{Estimate, Interval};

pub const SCHEMA: &str = "shootout-testbeds/1";

/// Where a format keeps one direction's figures.
type Pick = fn(&FormatResult) -> &Direction;

const DIRECTIONS: [(&str, Pick); 2] = [("encode", |f| &f.encode), ("decode", |f| &f.decode)];

/// The testbeds' figures side by side, as the terminal and the HTML page show them.
#[derive(Serialize)]
pub struct Across {
    pub schema: &'static str,
    pub workload: String,
    pub records: u64,
    pub testbeds: Vec<Column>,
    /// One per language, format and direction that any testbed measured.
    pub rows: Vec<AcrossRow>,
    /// One line per format and direction whose rank differs between testbeds.
    pub rank_changes: Vec<String>,
}

/// One testbed: who it is and the files its results came from.
#[derive(Serialize)]
pub struct Column {
    pub label: String,
    pub description: String,
    pub testbed: Testbed,
    pub files: Vec<String>,
}

#[derive(Serialize)]
pub struct AcrossRow {
    pub language: String,
    pub format: String,
    pub direction: &'static str,
    /// Per testbed, in the order of `testbeds`; null where it was not measured.
    pub cells: Vec<Option<Cell>>,
}

#[derive(Serialize, Clone, Copy)]
pub struct Cell {
    /// The relative cost anchored on the formats every testbed measured.
    pub cost: Estimate,
    /// 1 = cheapest among those formats on this testbed; null for a format some testbed lacks.
    pub rank: Option<usize>,
    /// This testbed's own figures: they compare only within it.
    pub ns_per_op: f64,
    pub p99_ns: f64,
    pub bytes_per_record: f64,
}

/// One testbed's results: its parts (one per language) and their files.
pub struct Group {
    pub testbed: Testbed,
    pub files: Vec<String>,
    pub parts: Vec<Results>,
}

impl Across {
    pub fn of(groups: &[Group]) -> Across {
        let first = &groups[0].parts[0].workload;
        let mut rows: Vec<AcrossRow> = Vec::new();
        for (direction, pick) in DIRECTIONS {
            let mut keys: Vec<(String, String)> = Vec::new();
            for group in groups {
                for part in &group.parts {
                    for format in part.formats.iter().filter(|f| !f.baseline) {
                        let key = (part.runner.language.clone(), format.name.clone());
                        if !keys.contains(&key) {
                            keys.push(key);
                        }
                    }
                }
            }
            fn find<'g>(
                group: &'g Group,
                (language, format): &(String, String),
            ) -> Option<&'g FormatResult> {
                group
                    .parts
                    .iter()
                    .filter(|p| &p.runner.language == language)
                    .find_map(|p| p.formats.iter().find(|f| !f.baseline && &f.name == format))
            }
            let common = |key: &(String, String)| groups.iter().all(|g| find(g, key).is_some());
            let languages: Vec<String> =
                keys.iter().map(|(l, _)| l.clone()).fold(Vec::new(), |mut all, l| {
                    if !all.contains(&l) {
                        all.push(l);
                    }
                    all
                });
            for language in languages {
                let ours: Vec<&(String, String)> =
                    keys.iter().filter(|(l, _)| *l == language).collect();
                // Each testbed's anchor: the geometric mean of the shared formats' costs.
                let anchors: Vec<f64> = groups
                    .iter()
                    .map(|g| {
                        let logs: Vec<f64> = ours
                            .iter()
                            .filter(|k| common(k))
                            .filter_map(|k| find(g, k))
                            .map(|f| pick(f).relative.cost.value.ln())
                            .collect();
                        match logs.len() {
                            0 => 1.0,
                            n => (logs.iter().sum::<f64>() / n as f64).exp(),
                        }
                    })
                    .collect();
                let mut block: Vec<AcrossRow> = ours
                    .iter()
                    .map(|key| AcrossRow {
                        language: key.0.clone(),
                        format: key.1.clone(),
                        direction,
                        cells: groups
                            .iter()
                            .zip(&anchors)
                            .map(|(g, anchor)| {
                                find(g, key).map(|f| {
                                    let d = pick(f);
                                    let cost = d.relative.cost;
                                    Cell {
                                        cost: Estimate {
                                            value: cost.value / anchor,
                                            interval: Interval {
                                                low: cost.interval.low / anchor,
                                                high: cost.interval.high / anchor,
                                            },
                                        },
                                        rank: None,
                                        ns_per_op: d.summary.ns_per_op.median,
                                        p99_ns: d.summary.p99_ns.median,
                                        bytes_per_record: f.bytes_per_record,
                                    }
                                })
                            })
                            .collect(),
                    })
                    .collect();
                for t in 0..groups.len() {
                    let mut ranked: Vec<usize> = (0..block.len())
                        .filter(|&r| block[r].cells.iter().all(Option::is_some))
                        .collect();
                    let cost = |r: usize| block[r].cells[t].map_or(f64::INFINITY, |c| c.cost.value);
                    ranked.sort_by(|&a, &b| cost(a).total_cmp(&cost(b)));
                    for (rank, r) in ranked.into_iter().enumerate() {
                        if let Some(cell) = &mut block[r].cells[t] {
                            cell.rank = Some(rank + 1);
                        }
                    }
                }
                rows.extend(block);
            }
        }
        let labels: Vec<String> = groups.iter().map(|g| g.testbed.label()).collect();
        let rank_changes = rank_changes(&rows, &labels);
        Across {
            schema: SCHEMA,
            workload: first.name.clone(),
            records: first.records,
            testbeds: groups
                .iter()
                .map(|g| Column {
                    label: g.testbed.label(),
                    description: g.testbed.description(),
                    testbed: g.testbed.clone(),
                    files: g.files.clone(),
                })
                .collect(),
            rows,
            rank_changes,
        }
    }
}

/// `go protobuf decode: #2 on x86, #4 on arm (decided: …)` for every row whose rank differs.
fn rank_changes(rows: &[AcrossRow], labels: &[String]) -> Vec<String> {
    let ranks =
        |row: &AcrossRow| row.cells.iter().map(|c| c.and_then(|c| c.rank)).collect::<Vec<_>>();
    rows.iter()
        .filter(|row| {
            let ranks = ranks(row);
            ranks.iter().all(Option::is_some) && ranks.windows(2).any(|w| w[0] != w[1])
        })
        .map(|row| {
            let shown: Vec<String> = ranks(row)
                .iter()
                .zip(labels)
                .map(|(rank, label)| format!("#{} on {label}", rank.unwrap_or_default()))
                .collect();
            let swapped: Vec<&str> = rows
                .iter()
                .filter(|other| {
                    other.language == row.language
                        && other.direction == row.direction
                        && other.format != row.format
                })
                .filter(|other| decided_swap(row, other))
                .map(|other| other.format.as_str())
                .collect();
            let verdict = match swapped.is_empty() {
                true => "within the intervals: may be the runs' noise".to_owned(),
                false => format!(
                    "decided: swaps order with {} beyond both intervals",
                    swapped.join(", ")
                ),
            };
            format!(
                "{} {} {}: {} ({verdict})",
                row.language,
                row.format,
                row.direction,
                shown.join(", ")
            )
        })
        .collect()
}

/// Whether `a` is cheaper than `b` on one testbed and dearer on another, with
/// their intervals apart on both.
fn decided_swap(a: &AcrossRow, b: &AcrossRow) -> bool {
    let order = |t: usize| match (a.cells[t], b.cells[t]) {
        (Some(x), Some(y)) if x.cost.interval.high < y.cost.interval.low => Some(-1),
        (Some(x), Some(y)) if x.cost.interval.low > y.cost.interval.high => Some(1),
        _ => None,
    };
    let orders: Vec<i32> = (0..a.cells.len()).filter_map(order).collect();
    orders.contains(&-1) && orders.contains(&1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::TestbedSource;

    fn testbed(name: &str) -> Testbed {
        Testbed::of_environment(&serde_json::json!({}), Some(name.into()), TestbedSource::Run)
    }

    /// A results file whose formats cost as given (ns/op in three runs each).
    fn part(costs: &[(&str, f64)]) -> Results {
        let mut results = crate::export::tests::fixture_timed(1.0);
        let template = results.formats[0].clone();
        results.formats = costs
            .iter()
            .map(|&(name, scale)| {
                let mut format = template.clone();
                format.name = name.into();
                for direction in [&mut format.encode, &mut format.decode] {
                    for run in &mut direction.runs {
                        run.stats.total_ns = (run.stats.total_ns as f64 * scale) as u64;
                        run.stats.round_ns = vec![run.stats.total_ns];
                        run.stats.ns_per_op *= scale;
                    }
                }
                format
            })
            .collect();
        results.derive_again();
        results
    }

    fn group(name: &str, costs: &[(&str, f64)]) -> Group {
        Group {
            testbed: testbed(name),
            files: vec![format!("{name}.json")],
            parts: vec![part(costs)],
        }
    }

    #[test]
    fn costs_are_anchored_on_the_formats_every_testbed_measured() {
        let groups = [
            group("x86", &[("a", 1.0), ("b", 4.0), ("only-x86", 100.0)]),
            group("arm", &[("a", 1.0), ("b", 4.0)]),
        ];
        let across = Across::of(&groups);
        let row = |format: &str| {
            across.rows.iter().find(|r| r.format == format && r.direction == "decode").unwrap()
        };
        for t in 0..2 {
            let (a, b) = (row("a").cells[t].unwrap(), row("b").cells[t].unwrap());
            assert!((a.cost.value - 0.5).abs() < 1e-6, "{}", a.cost.value);
            assert!((b.cost.value - 2.0).abs() < 1e-6, "{}", b.cost.value);
            assert_eq!((a.rank, b.rank), (Some(1), Some(2)));
        }
        assert!(row("only-x86").cells[1].is_none());
        assert_eq!(row("only-x86").cells[0].unwrap().rank, None);
        assert!(across.rank_changes.is_empty(), "{:?}", across.rank_changes);
    }

    #[test]
    fn a_swap_of_order_is_a_rank_change() {
        let groups =
            [group("x86", &[("a", 1.0), ("b", 4.0)]), group("arm", &[("a", 4.0), ("b", 1.0)])];
        let across = Across::of(&groups);
        assert_eq!(across.rank_changes.len(), 4, "{:?}", across.rank_changes);
        let line = &across.rank_changes[0];
        assert!(line.starts_with("rust a encode: #1 on x86, #2 on arm"), "{line}");
    }
}
