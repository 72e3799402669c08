//! What `shootout robustness` found: the terminal table, the JSON export
//! (docs/robustness-schema.md) and the HTML report's page with the results as
//! its one section (export/html.rs).

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};

use anyhow::Result;
use comfy_table::{CellAlignment, Table, presets};
use serde::{Deserialize, Serialize};

use super::mutate::Kind;
use super::worker::{CaseFile, Class, Outcome};
use crate::export::Target;
use crate::format::{FormatInfo, Labels};

/// How the run was made.
#[derive(Serialize, Deserialize)]
pub struct Settings {
    pub schema: String,
    pub command_line: Vec<String>,
    pub workload: String,
    pub source: String,
    pub seed: u64,
    pub sample_records: usize,
    pub cases_per_format: usize,
    pub time_limit_ms: u64,
    pub alloc_cap_bytes: u64,
    /// The input's record schemas as the hand-off writes them, for the case
    /// files, whose workers must decode with the same schemas.
    #[serde(skip)]
    pub record_schemas: Option<serde_json::Value>,
}

#[derive(Serialize, Deserialize)]
pub struct Results {
    #[serde(flatten)]
    pub settings: Settings,
    pub wall_s: f64,
    /// The reproducers' directory, when any was written.
    pub reproducers: Option<String>,
    pub formats: Vec<FormatSummary>,
}

#[derive(Serialize, Deserialize)]
pub struct FormatSummary {
    pub name: String,
    pub family: String,
    pub library: String,
    pub labels: Vec<String>,
    /// Why the format was not tested, if it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_tested: Option<String>,
    /// Sample records the format encoded (the cases' sources).
    pub records: usize,
    pub cases: usize,
    pub counts: BTreeMap<Class, usize>,
    /// Each count over `cases`.
    pub rates: BTreeMap<Class, f64>,
    pub by_mutation: BTreeMap<Kind, BTreeMap<Class, usize>>,
    pub reproducers: Vec<Reproducer>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation: Option<ValidationCost>,
}

/// The first case of one finding class, saved to `file`.
#[derive(Serialize, Deserialize)]
pub struct Reproducer {
    pub class: Class,
    pub case: usize,
    pub kind: Kind,
    pub description: String,
    pub detail: String,
    pub file: String,
}

#[derive(Serialize, Deserialize)]
pub struct ValidationCost {
    pub unchecked_format: String,
    pub validated_ns_per_record: f64,
    pub unchecked_ns_per_record: f64,
    /// validated / unchecked.
    pub ratio: f64,
}

impl ValidationCost {
    pub fn new(unchecked_format: &str, validated: f64, unchecked: f64) -> Self {
        ValidationCost {
            unchecked_format: unchecked_format.to_owned(),
            validated_ns_per_record: validated,
            unchecked_ns_per_record: unchecked,
            ratio: validated / unchecked,
        }
    }
}

impl FormatSummary {
    pub fn new(info: &FormatInfo, labels: &Labels) -> Self {
        FormatSummary {
            name: info.name.to_owned(),
            family: info.family.name().to_owned(),
            library: info.library.to_owned(),
            labels: labels.tags().into_iter().map(str::to_owned).collect(),
            not_tested: None,
            records: 0,
            cases: 0,
            counts: BTreeMap::new(),
            rates: BTreeMap::new(),
            by_mutation: BTreeMap::new(),
            reproducers: Vec::new(),
            validation: None,
        }
    }

    /// Counts the outcomes of `file`'s cases, overall and by mutation.
    pub fn count(&mut self, file: &CaseFile, outcomes: &[Outcome]) {
        self.records = file.records.len();
        self.cases = outcomes.len();
        self.counts = Class::ALL.iter().map(|&c| (c, 0)).collect();
        for (case, outcome) in file.cases.iter().zip(outcomes) {
            *self.counts.entry(outcome.class).or_default() += 1;
            *self.by_mutation.entry(case.kind).or_default().entry(outcome.class).or_default() += 1;
        }
        self.rates = self.rates();
    }

    /// Each count over the cases.
    fn rates(&self) -> BTreeMap<Class, f64> {
        self.counts
            .iter()
            .map(|(&class, &n)| (class, n as f64 / self.cases.max(1) as f64))
            .collect()
    }

    fn findings(&self) -> usize {
        self.counts.iter().filter(|(class, _)| class.is_finding()).map(|(_, n)| n).sum()
    }
}

/// Results given to `report --attach` are consistent within themselves: a
/// format at least; each tested format's cases counted once, overall and
/// by mutation, from no more records than the sample. The rates and ratios
/// drawn from the counts and times are computed again.
impl crate::saved::Attachment for Results {
    fn recompute(&mut self) {
        for format in &mut self.formats {
            format.rates = format.rates();
            if let Some(v) = &format.validation {
                let (validated, unchecked) = (v.validated_ns_per_record, v.unchecked_ns_per_record);
                format.validation =
                    Some(ValidationCost::new(&v.unchecked_format, validated, unchecked));
            }
        }
    }

    fn check(&self) -> std::result::Result<(), (String, String)> {
        if self.formats.is_empty() {
            return Err(("formats".into(), "none; expected the formats tried".into()));
        }
        for (i, f) in self.formats.iter().enumerate() {
            let at = |key: &str| format!("formats[{i}].{key}");
            if f.not_tested.is_none() && Class::ALL.iter().any(|c| !f.counts.contains_key(c)) {
                return Err((
                    at("counts"),
                    "a class missing; expected a count for every class".into(),
                ));
            }
            let counted = sum(f.counts.values());
            if f.not_tested.is_none() && counted != Some(f.cases) {
                let counted = counted.map_or("too many".to_owned(), |n| n.to_string());
                return Err((
                    at("counts"),
                    format!("{counted} cases counted; expected its {} cases, each once", f.cases),
                ));
            }
            for (class, &n) in &f.counts {
                let by_mutation = sum(f.by_mutation.values().filter_map(|m| m.get(class)));
                if by_mutation != Some(n) {
                    let by_mutation = by_mutation.map_or("too many".to_owned(), |n| n.to_string());
                    return Err((
                        at("by_mutation"),
                        format!("{by_mutation} {} cases; expected the {n} of counts", class.name()),
                    ));
                }
            }
            if f.records > self.settings.sample_records {
                return Err((
                    at("records"),
                    format!(
                        "{}; expected at most the {} sample records",
                        f.records, self.settings.sample_records
                    ),
                ));
            }
            if let Some(v) = &f.validation
                && !(v.validated_ns_per_record > 0.0 && v.unchecked_ns_per_record > 0.0)
            {
                return Err((
                    at("validation"),
                    "a time of 0 or less; expected ns per record".into(),
                ));
            }
        }
        Ok(())
    }
}

/// The sum of counts from a file, or none when it overflows.
fn sum<'a>(counts: impl IntoIterator<Item = &'a usize>) -> Option<usize> {
    counts.into_iter().try_fold(0usize, |sum, n| sum.checked_add(*n))
}

const HEADER: [&str; 13] = [
    "format",
    "cases",
    "rejected",
    "same",
    "silent",
    "panic",
    "hang",
    "alloc-bomb",
    "crash",
    "findings",
    "validated ns",
    "unchecked ns",
    "ratio",
];

/// The table's rows: the tested formats, each cell as text.
fn rows(results: &Results) -> Vec<Vec<String>> {
    results
        .formats
        .iter()
        .filter(|f| f.not_tested.is_none())
        .map(|f| {
            let mut row = vec![f.name.clone(), f.cases.to_string()];
            row.extend(Class::ALL.iter().map(|c| f.counts[c].to_string()));
            row.push(format!("{:.1}%", 100.0 * f.findings() as f64 / f.cases.max(1) as f64));
            match &f.validation {
                Some(v) => row.extend([
                    format!("{:.0}", v.validated_ns_per_record),
                    format!("{:.0}", v.unchecked_ns_per_record),
                    format!("{:.2}", v.ratio),
                ]),
                None => row.extend(["-", "-", "-"].map(str::to_owned)),
            }
            row
        })
        .collect()
}

/// The lines under the table: formats not tested, reproducers, what the classes mean.
fn notes(results: &Results) -> Vec<String> {
    let mut lines = Vec::new();
    for f in results.formats.iter() {
        if let Some(why) = &f.not_tested {
            lines.push(format!("not tested: {}: {why}", f.name));
        }
    }
    for f in &results.formats {
        if let Some(v) = &f.validation {
            lines.push(format!(
                "validation cost: {} decodes a clean record in {:.0} ns, its unchecked sibling {} in {:.0} ns (ratio {:.2})",
                f.name, v.validated_ns_per_record, v.unchecked_format, v.unchecked_ns_per_record, v.ratio
            ));
        }
    }
    for f in &results.formats {
        for r in &f.reproducers {
            lines.push(format!(
                "{} {}: case {} ({}): {} -> {}",
                f.name,
                r.class.name(),
                r.case,
                r.description,
                if r.detail.is_empty() { "-" } else { &r.detail },
                r.file
            ));
        }
    }
    if let Some(dir) = &results.reproducers {
        lines.push(format!(
            "reproducers in {dir}: `shootout robustness --replay FILE` runs one again"
        ));
    }
    lines
}

fn table(results: &Results) -> Table {
    let mut table = Table::new();
    table.load_style(presets::UTF8_BORDERS_ONLY);
    table.set_header(HEADER);
    for row in rows(results) {
        table.add_row(row);
    }
    for column in table.column_iter_mut().skip(1) {
        column.set_cell_alignment(CellAlignment::Right);
    }
    table
}

/// Prints the table and its notes, and writes the exports.
pub fn show(results: &Results, targets: &[Target]) -> Result<()> {
    let to_stdout = targets.iter().any(Target::is_stdout);
    let mut out: Box<dyn Write> = match to_stdout {
        true => Box::new(io::stderr().lock()),
        false => Box::new(io::stdout().lock()),
    };
    let s = &results.settings;
    // The source is the user's file name, and the notes quote decoders' messages about hostile bytes.
    let shown = |text: &str| crate::sanitize::terminal(text).into_owned();
    writeln!(
        out,
        "\nRobustness on {} ({}): {} cases per format from {} records, seed {}, at most {} ms and {} MiB per decode",
        s.workload,
        shown(&s.source),
        s.cases_per_format,
        s.sample_records,
        s.seed,
        s.time_limit_ms,
        s.alloc_cap_bytes >> 20
    )?;
    writeln!(out, "{}", table(results))?;
    for line in notes(results) {
        writeln!(out, "{}", shown(&line))?;
    }
    writeln!(
        out,
        "rejected: a clean error; same: accepted with the record's values; silent: accepted with other values; \
         panic, hang, alloc-bomb, crash: the decoder failed the harness. Finished in {:.1} s.",
        results.wall_s
    )?;
    drop(out);
    for target in targets {
        target.write_document(results)?;
        if !target.is_stdout() && io::stderr().is_terminal() {
            eprintln!("wrote {}", target.path.display());
        }
    }
    Ok(())
}
