//! `--export-html`: one self-contained page (no network at view time) that
//! opens with the verdict (the method folded beneath it), then has the
//! warnings, throughput, latency curves, sizes, speed against
//! size with its Pareto front, allocations and a filterable feature matrix, and
//! the interop, evolution and robustness matrices and the studies' results as
//! sections of their own.
//!
//! The figures are computed here and embedded as JSON; the page's script only
//! draws them, as text of the elements it makes, so no string of the data is
//! ever markup and nothing here escapes HTML. Charts are drawn in the browser
//! by Chart.js (html/chart.umd.min.js, vendored by scripts/vendor-chartjs.sh): a
//! maintained, MIT-licensed library in one file, whose legend toggling and
//! logarithmic axes the latency chart needs to let a reader pick formats, which
//! server-side SVG would have had to re-implement.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use anyhow::Result;
use hdrhistogram::Histogram;
use serde::Serialize;

use crate::document::{
    Calibration, Direction, InputFile, Settings, Summary, WorkloadInfo, decode_histogram,
};
use crate::output::{table, verdict};
use crate::results::{Merged, Row};
use crate::stats::{Interval, percentile_curve};

const TEMPLATE: &str = include_str!("html/template.html");
const STYLE: &str = include_str!("html/report.css");
const SCRIPT: &str = include_str!("html/report.js");
const CHART_JS: &str = include_str!("html/chart.umd.min.js");
/// The release scripts/vendor-chartjs.sh pins.
const CHART_JS_VERSION: &str = "4.6.1";

/// The page of a run or of `report`: its results, then the matrices attached.
pub fn write(merged: &Merged, out: &mut dyn Write) -> Result<()> {
    write_page(Some(Measured::of(merged)), &merged.attachments, out)
}

/// The page of one matrix or study result alone (`evolution`, `robustness` or
/// `study --export-html`): its section as `report --attach` would add it, and
/// no results.
pub fn write_alone(document: &impl Serialize, out: &mut dyn Write) -> Result<()> {
    let document = serde_json::to_value(document)?;
    write_page(None, std::slice::from_ref(&document), out)
}

/// The page of sections alone, each drawn by its `schema` (`report` across
/// testbeds: the testbeds side by side, then any attached matrices).
pub fn write_sections(sections: &[serde_json::Value], out: &mut dyn Write) -> Result<()> {
    write_page(None, sections, out)
}

fn write_page(
    results: Option<Measured>,
    attachments: &[serde_json::Value],
    out: &mut dyn Write,
) -> Result<()> {
    let page = Page {
        generator: format!(
            "shootout {} --export-html, charts by Chart.js {CHART_JS_VERSION}",
            env!("CARGO_PKG_VERSION")
        ),
        results,
        attachments,
    };
    let html = fill(
        TEMPLATE,
        &[
            ("STYLE", STYLE),
            ("DATA", &script_json(&page)?),
            ("CHART_JS", CHART_JS),
            ("REPORT_JS", SCRIPT),
        ],
    );
    out.write_all(html.as_bytes())?;
    Ok(())
}

/// Everything the page shows, as the script reads it.
#[derive(Serialize)]
struct Page<'a> {
    /// What made the page, with versions.
    generator: String,
    /// Absent on the page of a matrix alone.
    #[serde(flatten)]
    results: Option<Measured<'a>>,
    /// Matrices and study results (`report --attach`, or the one of a page of
    /// its own), each drawn by its `schema`.
    attachments: &'a [serde_json::Value],
}

/// A run's or a report's figures.
#[derive(Serialize)]
struct Measured<'a> {
    workload: &'a WorkloadInfo,
    /// The answer first, as the terminal prints it (`output::verdict`) but
    /// unclipped (the page wraps), its title line left to the page.
    verdict: Vec<String>,
    /// Who measured what, and how far to trust it: the terminal's header.
    header: Vec<String>,
    /// How the figures were taken: the text `--verbose` prints, folded on the page.
    method: Vec<String>,
    warnings: Vec<String>,
    /// Formats whose numbers are withheld or that could not run, one line each.
    withheld: Vec<String>,
    several_languages: bool,
    runners: Vec<Runner<'a>>,
    formats: Vec<Format<'a>>,
    /// Indices into `formats` of the Pareto front of ns/op against bytes/record,
    /// over every language…
    pareto: Pareto,
    /// …and within each language, when there are several.
    pareto_by_language: BTreeMap<&'a str, Pareto>,
}

#[derive(Serialize)]
struct Runner<'a> {
    language: &'a str,
    name: &'a str,
    command_line: &'a [String],
    input: Option<&'a InputFile>,
    dataset: Option<&'a InputFile>,
    settings: &'a Settings,
    timer: &'a Calibration,
    environment: &'a serde_json::Value,
}

#[derive(Serialize)]
struct Format<'a> {
    language: &'a str,
    name: &'a str,
    family: &'a str,
    library: &'a str,
    library_version: &'a str,
    baseline: bool,
    labels: &'a serde_json::Value,
    tags: &'a [String],
    notes: &'a str,
    /// Why the library is unmaintained, if it is (`results::unmaintained`).
    unmaintained: Option<String>,
    features: &'a serde_json::Value,
    bytes_per_record: f64,
    zstd_bytes_per_record: Option<f64>,
    /// Latency figures below this are within the clock's quantisation.
    flag_below_ns: u64,
    encode: Figures,
    decode: Figures,
}

#[derive(Serialize)]
struct Figures {
    ns_per_op: f64,
    ci: Interval,
    /// Spread across runs: (max − min) / median.
    spread: f64,
    relative: f64,
    indistinguishable_from_fastest: bool,
    p50_ns: f64,
    p90_ns: f64,
    p99_ns: f64,
    p999_ns: f64,
    max_ns: f64,
    allocations_per_op: Option<f64>,
    allocated_bytes_per_op: Option<f64>,
    latency: Curve,
}

/// A latency percentile curve: points (1 / (1 − q), ns), the x of HdrHistogram's
/// plots, so 10 is p90, 100 p99, 1000 p99.9.
#[derive(Debug, PartialEq, Serialize)]
struct Curve {
    /// From every measured run's histogram merged; false when a histogram could
    /// not be read and the curve is the summary's few percentiles.
    from_histograms: bool,
    points: Vec<(f64, u64)>,
}

#[derive(Serialize)]
struct Pareto {
    encode: Vec<usize>,
    decode: Vec<usize>,
}

impl<'a> Measured<'a> {
    fn of(merged: &'a Merged) -> Measured<'a> {
        let formats: Vec<Format> = merged.rows.iter().map(Format::of).collect();
        let pareto = Pareto::of(&formats, None);
        let pareto_by_language = match merged.several_languages() {
            true => {
                let languages: BTreeSet<&str> = formats.iter().map(|f| f.language).collect();
                languages
                    .into_iter()
                    .map(|language| (language, Pareto::of(&formats, Some(language))))
                    .collect()
            }
            false => BTreeMap::new(),
        };
        let mut warnings = merged.warnings();
        warnings.extend(merged.imprecise());
        Measured {
            workload: &merged.first().workload,
            verdict: verdict::verdict(merged, verdict::UNCLIPPED).into_iter().skip(1).collect(),
            header: verdict::header(merged, verdict::UNCLIPPED),
            method: table::preamble(merged),
            warnings,
            withheld: table::not_run(merged),
            several_languages: merged.several_languages(),
            runners: merged
                .parts
                .iter()
                .map(|p| Runner {
                    language: &p.runner.language,
                    name: &p.runner.name,
                    command_line: &p.invocation.command_line,
                    input: p.workload.input.as_ref(),
                    dataset: p.workload.dataset.as_ref(),
                    settings: &p.settings,
                    timer: &p.timer,
                    environment: &p.environment,
                })
                .collect(),
            formats,
            pareto,
            pareto_by_language,
        }
    }
}

impl Pareto {
    /// The fronts of `formats`, or of one language's.
    fn of(formats: &[Format], language: Option<&str>) -> Pareto {
        let front = |ns: fn(&Format) -> f64| {
            let points: Vec<(f64, f64)> = formats
                .iter()
                .map(|f| {
                    // The floor row moves no bytes: it is no choice to trade against.
                    let excluded = f.baseline || language.is_some_and(|l| l != f.language);
                    match excluded {
                        true => (f64::INFINITY, f64::INFINITY),
                        false => (ns(f), f.bytes_per_record),
                    }
                })
                .collect();
            pareto_front(&points)
        };
        Pareto { encode: front(|f| f.encode.ns_per_op), decode: front(|f| f.decode.ns_per_op) }
    }
}

impl<'a> Format<'a> {
    fn of(row: &'a Row) -> Format<'a> {
        let f = &row.format;
        Format {
            language: &row.language,
            name: &f.name,
            family: &f.family,
            library: &f.library,
            library_version: &f.library_version,
            baseline: f.baseline,
            labels: &f.labels,
            tags: &f.tags,
            notes: &f.notes,
            unmaintained: crate::results::unmaintained(f, Some(&row.language)),
            features: &f.features,
            bytes_per_record: f.bytes_per_record,
            zstd_bytes_per_record: f
                .zstd_bytes
                .map(|z| z as f64 * f.bytes_per_record / f.encoded_bytes.max(1) as f64),
            flag_below_ns: row.timer.flag_below_ns,
            encode: Figures::of(&f.encode),
            decode: Figures::of(&f.decode),
        }
    }
}

impl Figures {
    fn of(direction: &Direction) -> Figures {
        let s = &direction.summary;
        Figures {
            ns_per_op: s.ns_per_op.median,
            ci: s.ns_per_op_ci,
            spread: (s.ns_per_op.max - s.ns_per_op.min) / s.ns_per_op.median,
            relative: direction.relative.ratio,
            indistinguishable_from_fastest: direction.relative.indistinguishable_from_fastest,
            p50_ns: s.p50_ns.median,
            p90_ns: s.p90_ns.median,
            p99_ns: s.p99_ns.median,
            p999_ns: s.p999_ns.median,
            max_ns: s.max_ns.median,
            allocations_per_op: s.allocations_per_op.map(|a| a.median),
            allocated_bytes_per_op: s.allocated_bytes_per_op.map(|a| a.median),
            latency: Curve::of(direction),
        }
    }
}

impl Curve {
    fn of(direction: &Direction) -> Curve {
        // Decoded one at a time into the first: a direction read from a
        // file can have many runs, each histogram as large as its limits allow.
        let mut histograms =
            direction.runs.iter().map(|run| decode_histogram(&run.stats.histogram).ok());
        let merged = histograms.next().flatten().and_then(|mut all| {
            for h in histograms {
                all.add(&h?).ok()?;
            }
            Some(all)
        });
        match merged {
            Some(h) if !h.is_empty() => Curve::of_histogram(&h),
            _ => Curve::of_summary(&direction.summary),
        }
    }

    fn of_histogram(h: &Histogram<u64>) -> Curve {
        Curve { from_histograms: true, points: percentile_curve(h) }
    }

    fn of_summary(s: &Summary) -> Curve {
        let points = [
            (2.0, s.p50_ns.median),
            (10.0, s.p90_ns.median),
            (100.0, s.p99_ns.median),
            (1000.0, s.p999_ns.median),
        ];
        Curve { from_histograms: false, points: points.map(|(x, ns)| (x, ns as u64)).to_vec() }
    }
}

/// Indices of the points no other point beats on both coordinates (lower is
/// better on each), in order of the first coordinate.
fn pareto_front(points: &[(f64, f64)]) -> Vec<usize> {
    let mut order: Vec<usize> =
        (0..points.len()).filter(|&i| points[i].0.is_finite() && points[i].1.is_finite()).collect();
    order.sort_by(|&a, &b| {
        points[a].0.total_cmp(&points[b].0).then(points[a].1.total_cmp(&points[b].1))
    });
    let mut front = Vec::new();
    let mut best_second = f64::INFINITY;
    for i in order {
        if points[i].1 < best_second {
            best_second = points[i].1;
            front.push(i);
        }
    }
    front
}

/// The template with each `{{NAME}}` replaced by its value, in one pass, so
/// no value's own text is searched for placeholders.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let end = rest[start..].find("}}").map(|e| start + e + 2);
        let value = end.and_then(|end| {
            let name = &rest[start + 2..end - 2];
            values.iter().find(|(n, _)| *n == name).map(|(_, v)| (*v, end))
        });
        match value {
            Some((value, end)) => {
                out.push_str(&rest[..start]);
                out.push_str(value);
                rest = &rest[end..];
            }
            None => {
                out.push_str(&rest[..start + 2]);
                rest = &rest[start + 2..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The page's data as a script element's text: JSON with every `<` escaped, so
/// no string in it (a note, a path) can close the element.
fn script_json(value: &impl Serialize) -> Result<String> {
    Ok(serde_json::to_string(value)?.replace('<', "\\u003c"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pareto_front_keeps_exactly_the_undominated_points() {
        let points = [
            (10.0, 50.0),         // fastest
            (20.0, 20.0),         // front
            (25.0, 20.0),         // as small as the previous, slower: dominated
            (30.0, 40.0),         // dominated by (20, 20)
            (40.0, 10.0),         // smallest
            (f64::INFINITY, 1.0), // the baseline: never on the front
        ];
        assert_eq!(pareto_front(&points), vec![0, 1, 4]);
    }

    #[test]
    fn the_vendored_chart_library_is_the_pinned_release() {
        assert!(CHART_JS[..200].contains(&format!("Chart.js v{CHART_JS_VERSION}\n")));
    }

    #[test]
    fn placeholders_are_filled_once_and_values_are_not_searched() {
        let filled = fill("<{{A}}|{{B}}|{{C}}>", &[("A", "{{B}}"), ("B", "b")]);
        assert_eq!(filled, "<{{B}}|b|{{C}}>");
    }

    #[test]
    fn embedded_text_cannot_close_the_script_element() {
        let text = script_json(&"</script><b>").unwrap();
        assert!(!text.contains('<'));
        assert_eq!(serde_json::from_str::<String>(&text).unwrap(), "</script><b>");
    }
}
