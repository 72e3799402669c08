//! The answer before the details: what a results set says about choosing a
//! format, in at most [`MOST_LINES`] lines, each clipped to a width (a
//! terminal's [`WIDTH`] columns; a page wraps instead), and a header of at
//! most three lines in place of the method text (`--verbose` prints that
//! whole).

use crate::processes::Drift;
use crate::results::{Imprecise, Merged, Row};

/// A terminal's columns.
pub const WIDTH: usize = 80;
/// No clipping: for a page, which wraps its lines.
pub const UNCLIPPED: usize = usize::MAX;
pub const MOST_LINES: usize = 12;

/// Who measured what, on what, and how far the figures can be trusted.
pub fn header(merged: &Merged, width: usize) -> Vec<String> {
    let first = merged.first();
    let w = &first.workload;
    let sampled = w.sampled.map_or_else(String::new, |s| {
        format!(" ({} of {} windows timed)", s.windows, s.of_windows)
    });
    let processes: Vec<String> = merged
        .parts
        .iter()
        .map(|p| {
            let made = p.runs.iter().map(|r| r.process + 1).max().unwrap_or(0);
            format!("{} {made}", p.runner.language)
        })
        .collect();
    let load = first.invocation.load_before.map_or_else(String::new, |[one, ..]| {
        format!(", load {one:.2} on {} cores", first.environment_text("cores"))
    });
    vec![
        clip(format!("{}: {} records from {}", w.name, w.records, w.source), width),
        clip(
            format!(
                "processes: {}{sampled}{load}; {}",
                processes.join(", "),
                first.environment_text("cpu")
            ),
            width,
        ),
        clip(
            "cost = ns/op ÷ the run's geometric mean (what reproduces); --verbose: the method"
                .to_owned(),
            width,
        ),
    ]
}

/// The verdict: per direction the fastest formats (with those the run cannot
/// tell from them), the smallest, the best p99, the speed × size front, any
/// format that failed, and one line on precision.
pub fn verdict(merged: &Merged, width: usize) -> Vec<String> {
    let rows: Vec<&Row> = merged.rows.iter().filter(|r| !r.format.baseline).collect();
    let several = merged.several_languages();
    let name = |r: &Row| match several {
        true => format!("{}:{}", r.language, r.format.name),
        false => r.format.name.clone(),
    };
    let mut lines = vec!["verdict".to_owned()];
    if rows.is_empty() {
        lines.push("no format was measured".to_owned());
    }
    for (direction, pick) in DIRECTIONS {
        let Some(fastest) = rows.iter().find(|r| pick(r).relative.fastest) else { continue };
        let tied: Vec<String> = rows
            .iter()
            .filter(|r| {
                !pick(r).relative.fastest && pick(r).relative.indistinguishable_from_fastest
            })
            .map(|r| name(r))
            .collect();
        let ns = pick(fastest).summary.ns_per_op.median;
        let head = format!("fastest {direction}: {} {}", name(fastest), ns_text(ns));
        lines.push(match tied.is_empty() {
            true => clip(head, width),
            false => list(&format!("{head}; not told apart: "), &tied, width),
        });
    }
    if let Some(smallest) =
        rows.iter().min_by(|a, b| a.format.bytes_per_record.total_cmp(&b.format.bytes_per_record))
    {
        let zstd = rows
            .iter()
            .filter_map(|r| {
                Some((
                    r,
                    r.format.zstd_bytes? as f64 / merged.first().workload.records.max(1) as f64,
                ))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or_else(String::new, |(r, bytes)| {
                format!("; after zstd: {} {bytes:.1} B", name(r))
            });
        lines.push(clip(
            format!(
                "smallest: {} {:.1} B/record{zstd}",
                name(smallest),
                smallest.format.bytes_per_record
            ),
            width,
        ));
    }
    let tails: Vec<String> = DIRECTIONS
        .iter()
        .filter_map(|(direction, pick)| {
            let best = rows.iter().min_by_key(|r| pick(r).summary.p99_ns.median as u64)?;
            Some(format!(
                "{direction} {} {}",
                name(best),
                ns_text(pick(best).summary.p99_ns.median)
            ))
        })
        .collect();
    if !tails.is_empty() {
        lines.push(clip(format!("best p99: {}", tails.join(", ")), width));
    }
    let front: Vec<String> = pareto_front(&rows).into_iter().map(name).collect();
    if !front.is_empty() {
        lines.push(list("speed×size front (enc+dec ns, bytes): ", &front, width));
    }
    let failed: Vec<String> = merged
        .failed()
        .map(|(language, f)| match several {
            true => format!("{language}:{}", f.name),
            false => f.name.clone(),
        })
        .collect();
    if !failed.is_empty() {
        lines.push(list("FAILED validation, numbers withheld: ", &failed, width));
    }
    lines.push(clip(trust(merged), width));
    lines.truncate(MOST_LINES);
    lines
}

type Pick = fn(&Row) -> &crate::document::Direction;

const DIRECTIONS: [(&str, Pick); 2] =
    [("encode", |r| &r.format.encode), ("decode", |r| &r.format.decode)];

/// The rows no other row beats on both a round trip's ns (encode + decode)
/// and bytes per record, fastest first.
fn pareto_front<'a>(rows: &[&'a Row]) -> Vec<&'a Row> {
    let speed = |r: &Row| {
        r.format.encode.summary.ns_per_op.median + r.format.decode.summary.ns_per_op.median
    };
    let size = |r: &Row| r.format.bytes_per_record;
    let mut front: Vec<&Row> = rows
        .iter()
        .copied()
        .filter(|r| {
            !rows.iter().any(|o| {
                speed(o) <= speed(r)
                    && size(o) <= size(r)
                    && (speed(o) < speed(r) || size(o) < size(r))
            })
        })
        .collect();
    front.sort_by(|a, b| speed(a).total_cmp(&speed(b)));
    front
}

/// How far the figures hold: rows within the precision target, and the drift taken out.
fn trust(merged: &Merged) -> String {
    let rows = 2 * merged.rows.len();
    let missed: usize =
        merged.parts.iter().map(|p| Imprecise::find(&p.formats, p.settings.precision).len()).sum();
    let target = merged.first().settings.precision;
    let drifts: Vec<Drift> = merged.parts.iter().filter_map(Drift::find).collect();
    let drift = match drifts.iter().map(|d| (d.high / d.low - 1.0).abs()).reduce(f64::max) {
        Some(spread) => {
            format!("; host drift {:.0}% across processes, taken out", 100.0 * spread)
        }
        None => String::new(),
    };
    format!(
        "trust: {} of {rows} costs within ±{:.1}%{}{drift}",
        rows - missed.min(rows),
        100.0 * target,
        if missed > 0 { " (!)" } else { "" }
    )
}

fn ns_text(ns: f64) -> String {
    match ns {
        ns if ns < 10.0 => format!("{ns:.1} ns"),
        ns if ns < 10_000.0 => format!("{ns:.0} ns"),
        ns => format!("{:.1} µs", ns / 1e3),
    }
}

/// `prefix` then as many of `items` as fit in [`WIDTH`], and how many did not.
fn list(prefix: &str, items: &[String], width: usize) -> String {
    let columns = |text: &str| text.chars().count();
    let mut line = prefix.to_owned();
    for (i, item) in items.iter().enumerate() {
        let separator = if i == 0 { "" } else { ", " };
        let after = items.len() - i - 1;
        let suffix = if after > 0 { columns(&format!(" +{after} more")) } else { 0 };
        if i > 0 && columns(&line) + separator.len() + columns(item) + suffix > width {
            line.push_str(&format!(" +{} more", items.len() - i));
            return clip(line, width);
        }
        line.push_str(separator);
        line.push_str(item);
    }
    clip(line, width)
}

/// `line` cut to `width` columns, with an ellipsis when cut.
fn clip(line: String, width: usize) -> String {
    match line.chars().count() <= width {
        true => line,
        false => line.chars().take(width - 1).chain(['…']).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::fixture_timed;

    #[test]
    fn the_verdict_fits_twelve_lines_of_eighty_columns() {
        let merged = Merged::new(vec![fixture_timed(1.0)]).unwrap();
        let lines = verdict(&merged, WIDTH);
        assert!(lines.len() <= MOST_LINES, "{lines:#?}");
        assert!(lines.iter().all(|l| l.chars().count() <= WIDTH), "{lines:#?}");
        assert!(lines.iter().any(|l| l.starts_with("fastest encode: ")), "{lines:#?}");
        assert!(lines.iter().any(|l| l.starts_with("smallest: ")), "{lines:#?}");
        assert!(lines.last().unwrap().starts_with("trust: "), "{lines:#?}");
        let header = header(&merged, WIDTH);
        assert!(
            header.len() <= 3 && header.iter().all(|l| l.chars().count() <= WIDTH),
            "{header:#?}"
        );
    }

    #[test]
    fn a_long_list_says_how_many_it_left_out() {
        let items: Vec<String> = (0..40).map(|i| format!("format-{i}")).collect();
        let line = list("not told apart: ", &items, WIDTH);
        assert!(line.chars().count() <= WIDTH, "{line}");
        let shown = line.matches("format-").count();
        assert!(line.ends_with(&format!(" +{} more", 40 - shown)), "{line}");
        assert_eq!(clip("x".repeat(100), WIDTH).chars().count(), WIDTH);
        // A page wraps: nothing cut.
        assert_eq!(list("not told apart: ", &items, UNCLIPPED).matches("format-").count(), 40);
        assert_eq!(clip("x".repeat(100), UNCLIPPED).chars().count(), 100);
    }
}
