//! `--export-csv`: one row per format and direction; each statistic as its
//! median, min and max across runs.

use std::io::Write;

use anyhow::Result;

use crate::benchmark::stats::{Spread, Summary};
use crate::results::Results;

/// A statistic's column name and where it sits in a [`Summary`].
type Statistic = (&'static str, fn(&Summary) -> Spread);

const STATISTICS: [Statistic; 11] = [
    ("p50_ns", |s| s.p50_ns),
    ("p90_ns", |s| s.p90_ns),
    ("p99_ns", |s| s.p99_ns),
    ("p999_ns", |s| s.p999_ns),
    ("max_ns", |s| s.max_ns),
    ("mean_ns", |s| s.mean_ns),
    ("total_ns", |s| s.total_ns),
    ("records_per_s", |s| s.records_per_s),
    ("mb_per_s", |s| s.mb_per_s),
    ("allocations_per_record", |s| s.allocations_per_record),
    ("allocated_bytes_per_record", |s| s.allocated_bytes_per_record),
];

pub fn write(results: &Results, out: &mut dyn Write) -> Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    let mut header: Vec<String> = ["workload", "format", "library", "library_version", "tags", "direction", "encoded_bytes", "bytes_per_record", "zstd_bytes", "zstd_ratio"]
        .map(String::from)
        .to_vec();
    for (name, _) in STATISTICS {
        header.extend(["median", "min", "max"].map(|part| format!("{name}_{part}")));
    }
    csv.write_record(&header)?;
    for format in &results.formats {
        for (direction, summary) in [("encode", &format.encode.summary), ("decode", &format.decode.summary)] {
            let mut row = vec![
                results.workload.name.to_owned(),
                format.name.to_owned(),
                format.library.to_owned(),
                format.library_version.to_owned(),
                format.tags.join(" "),
                direction.to_owned(),
                format.encoded_bytes.to_string(),
                format.bytes_per_record.to_string(),
                format.zstd_bytes.to_string(),
                format.zstd_ratio.to_string(),
            ];
            for (_, pick) in STATISTICS {
                let spread = pick(summary);
                row.extend([spread.median, spread.min, spread.max].map(|v| v.to_string()));
            }
            csv.write_record(&row)?;
        }
    }
    csv.flush()?;
    Ok(())
}
