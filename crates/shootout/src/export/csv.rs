//! `--export-csv`: one row per format and direction; each statistic as its
//! median, min and max across runs. Text cells (names, libraries, versions,
//! tags) come from results files and runners: each is shown as a CSV shows
//! text from outside ([`sanitize::csv`]) and quoted as RFC 4180 asks.

use std::io::Write;

use anyhow::Result;

use crate::stats::Spread;

use crate::document::Summary;
use crate::results::Merged;
use crate::sanitize;

/// A statistic's column name and where it sits in a [`Summary`] (`None`: the runner did not measure it).
type Statistic = (&'static str, fn(&Summary) -> Option<Spread>);

const STATISTICS: [Statistic; 10] = [
    ("ns_per_op", |s| Some(s.ns_per_op)),
    ("total_ns", |s| Some(s.total_ns)),
    ("ops_per_s", |s| Some(s.ops_per_s)),
    ("p50_ns", |s| Some(s.p50_ns)),
    ("p90_ns", |s| Some(s.p90_ns)),
    ("p99_ns", |s| Some(s.p99_ns)),
    ("p999_ns", |s| Some(s.p999_ns)),
    ("max_ns", |s| Some(s.max_ns)),
    ("allocations_per_op", |s| s.allocations_per_op),
    ("allocated_bytes_per_op", |s| s.allocated_bytes_per_op),
];

pub fn write(merged: &Merged, out: &mut dyn Write) -> Result<()> {
    let mut csv = sanitize::csv_writer(out);
    let mut header: Vec<String> = [
        "language",
        "workload",
        "format",
        "baseline",
        "library",
        "library_version",
        "tags",
        "direction",
        "encoded_bytes",
        "bytes_per_record",
        "zstd_bytes",
        "zstd_ratio",
        "ns_per_op_ci_low",
        "ns_per_op_ci_high",
        "cost",
        "cost_ci_low",
        "cost_ci_high",
        "relative",
        "relative_ci_low",
        "relative_ci_high",
        "indistinguishable_from_fastest",
        "instructions_per_op",
    ]
    .map(String::from)
    .to_vec();
    for (name, _) in STATISTICS {
        header.extend(["median", "min", "max"].map(|part| format!("{name}_{part}")));
    }
    csv.write_record(&header)?;
    let workload = &merged.first().workload.name;
    for row in &merged.rows {
        let format = &row.format;
        for (name, direction) in [("encode", &format.encode), ("decode", &format.decode)] {
            let (summary, relative) = (&direction.summary, &direction.relative);
            let optional = |v: Option<String>| v.unwrap_or_default();
            let text = |v: &str| sanitize::csv(v).into_owned();
            let mut cells = vec![
                text(&row.language),
                text(workload),
                text(&format.name),
                format.baseline.to_string(),
                text(&format.library),
                text(&format.library_version),
                text(&format.tags.join(" ")),
                name.to_owned(),
                format.encoded_bytes.to_string(),
                format.bytes_per_record.to_string(),
                optional(format.zstd_bytes.map(|z| z.to_string())),
                optional(format.zstd_ratio.map(|r| r.to_string())),
                summary.ns_per_op_ci.low.to_string(),
                summary.ns_per_op_ci.high.to_string(),
                relative.cost.value.to_string(),
                relative.cost.interval.low.to_string(),
                relative.cost.interval.high.to_string(),
                relative.ratio.to_string(),
                relative.interval.low.to_string(),
                relative.interval.high.to_string(),
                relative.indistinguishable_from_fastest.to_string(),
                optional(summary.instructions_per_op.map(|i| i.to_string())),
            ];
            for (_, pick) in STATISTICS {
                match pick(summary) {
                    Some(s) => cells.extend([s.median, s.min, s.max].map(|v| v.to_string())),
                    None => cells.extend([String::new(), String::new(), String::new()]),
                }
            }
            csv.write_record(&cells)?;
        }
    }
    csv.flush()?;
    Ok(())
}
