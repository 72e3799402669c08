//! `shootout recommend`: the formats that meet every constraint (needs from
//! the feature matrix, limits on measured figures, languages), best first by
//! a chosen figure, and for every other format each constraint it failed.

use std::io::{self, Write};
use std::path::Path;

use anyhow::{Result, bail};

use crate::format::features::{self, Features, Schema};
use crate::results::{FormatResult, Results};

/// A feature-matrix column a format must have, as `--need` names it.
pub const NEEDS: &[(&str, &str)] = &[
    (
        "schema",
        "a schema: IDL or derived from the program's types",
    ),
    (
        "idl",
        "a schema in an interface definition language (shared across languages)",
    ),
    ("schemaless", "no schema: the data describes itself"),
    (
        "self-describing",
        "bytes readable without the schema or classes (inspectable)",
    ),
    ("zero-copy", "fields read in place from the encoded bytes"),
    (
        "streaming",
        "messages delimit themselves in a plain concatenation",
    ),
    ("unions", "tagged unions or variants in the data model"),
    (
        "evolution",
        "a field can be added without breaking old readers",
    ),
    (
        "cross-language",
        "maintained implementations in more than one language",
    ),
    ("binary", "bytes, not text"),
];

fn has(need: &str, f: &Features) -> bool {
    match need {
        "schema" => f.schema != Schema::None,
        "idl" => f.schema == Schema::Idl,
        "schemaless" => f.schema == Schema::None,
        "self-describing" => f.self_describing,
        "zero-copy" => f.zero_copy,
        "streaming" => f.traits.streaming,
        "unions" => f.traits.unions,
        "evolution" => f.traits.evolution,
        "cross-language" => f.traits.cross_language,
        "binary" => f.traits.binary,
        _ => unreachable!("needs are checked against NEEDS first"),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum By {
    /// Decode ns/op, fastest first.
    Decode,
    /// Encode ns/op, fastest first.
    Encode,
    /// Encoded bytes per record, smallest first.
    Size,
    /// The larger of encode's and decode's p99 latency, lowest first.
    P99,
}

pub struct Constraints {
    pub needs: Vec<String>,
    pub max_p99_ns: Option<f64>,
    pub max_bytes_per_record: Option<f64>,
    /// Languages as results name them (`java` for the JVM runner).
    pub languages: Vec<String>,
    pub by: Option<By>,
}

/// A candidate: a measured format, or without results a family of the matrix.
struct Candidate<'a> {
    name: String,
    language: Option<&'a str>,
    family: &'a str,
    measured: Option<&'a FormatResult>,
}

pub fn recommend(results: Option<&Path>, constraints: &Constraints) -> Result<()> {
    if let Some(unknown) = constraints
        .needs
        .iter()
        .find(|n| !NEEDS.iter().any(|(name, _)| name == n))
    {
        bail!(
            "unknown need '{unknown}'; the needs are: {}",
            NEEDS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
        );
    }
    let parts = match results {
        Some(path) => crate::saved::read(path)?,
        None => {
            let measured = [
                (constraints.max_p99_ns.is_some(), "--max-p99-ns"),
                (
                    constraints.max_bytes_per_record.is_some(),
                    "--max-bytes-per-record",
                ),
                (!constraints.languages.is_empty(), "--lang"),
                (constraints.by.is_some(), "--by"),
            ];
            if let Some((_, option)) = measured.iter().find(|(given, _)| *given) {
                bail!("{option} needs measured formats: give a results file with --results FILE");
            }
            Vec::new()
        }
    };
    let candidates: Vec<Candidate> = match results {
        Some(_) => parts
            .iter()
            .flat_map(|p| {
                p.formats.iter().filter(|f| !f.baseline).map(|f| Candidate {
                    name: f.name.clone(),
                    language: Some(p.runner.language.as_str()),
                    family: f.family.as_str(),
                    measured: Some(f),
                })
            })
            .collect(),
        None => features::FEATURES
            .iter()
            .map(|f| Candidate {
                name: f.family.to_owned(),
                language: None,
                family: f.family,
                measured: None,
            })
            .collect(),
    };
    let by = constraints.by.unwrap_or(By::Decode);
    let mut meets = Vec::new();
    let mut excluded = Vec::new();
    for candidate in candidates {
        match failures(&candidate, constraints) {
            failed if failed.is_empty() => meets.push(candidate),
            failed => excluded.push((candidate, failed)),
        }
    }
    if results.is_some() {
        meets.sort_by(|a, b| figure(a, by).total_cmp(&figure(b, by)));
    }
    write(
        &parts,
        results,
        constraints,
        by,
        &meets,
        &excluded,
        &mut io::stdout().lock(),
    )
}

/// Every constraint the candidate fails, in the order given.
fn failures(candidate: &Candidate, constraints: &Constraints) -> Vec<String> {
    let Some(features) = features::of_family(candidate.family) else {
        return vec![format!(
            "no feature-matrix row for its family {}",
            candidate.family
        )];
    };
    let mut failed: Vec<String> = constraints
        .needs
        .iter()
        .filter(|need| !has(need, features))
        .map(|need| format!("not {need}"))
        .collect();
    if let Some(language) = candidate.language
        && !constraints.languages.is_empty()
        && !constraints.languages.iter().any(|l| l == language)
    {
        failed.push(format!("language {language} not asked for"));
    }
    if let Some(f) = candidate.measured {
        if let Some(max) = constraints.max_p99_ns {
            let p99 = p99(f);
            if p99 > max {
                failed.push(format!("p99 {p99:.0} ns > {max}"));
            }
        }
        if let Some(max) = constraints.max_bytes_per_record
            && f.bytes_per_record > max
        {
            failed.push(format!("{:.1} bytes/record > {max}", f.bytes_per_record));
        }
    }
    failed
}

fn p99(f: &FormatResult) -> f64 {
    f.encode
        .summary
        .p99_ns
        .median
        .max(f.decode.summary.p99_ns.median)
}

fn figure(candidate: &Candidate, by: By) -> f64 {
    let Some(f) = candidate.measured else {
        return 0.0;
    };
    match by {
        By::Decode => f.decode.summary.ns_per_op.median,
        By::Encode => f.encode.summary.ns_per_op.median,
        By::Size => f.bytes_per_record,
        By::P99 => p99(f),
    }
}

fn write(
    parts: &[Results],
    results: Option<&Path>,
    constraints: &Constraints,
    by: By,
    meets: &[Candidate],
    excluded: &[(Candidate, Vec<String>)],
    out: &mut dyn Write,
) -> Result<()> {
    let needs = match constraints.needs.is_empty() {
        true => "none".to_owned(),
        false => constraints.needs.join(", "),
    };
    let label = |c: &Candidate| match c.language {
        Some(language) => format!("{} ({language})", c.name),
        None => c.name.clone(),
    };
    match (results, parts.first()) {
        (Some(path), Some(first)) => {
            let order = match by {
                By::Decode => "decode ns/op",
                By::Encode => "encode ns/op",
                By::Size => "bytes/record",
                By::P99 => "p99 ns (the larger direction)",
            };
            writeln!(
                out,
                "{}: workload {}, {} records; needs: {needs}; ordered by {order}",
                path.display(),
                first.workload.name,
                first.workload.records
            )?;
        }
        _ => writeln!(
            out,
            "format families of the feature matrix (no results file: features only); needs: {needs}"
        )?,
    }
    writeln!(out, "\nmeet every constraint ({}):", meets.len())?;
    let width = meets
        .iter()
        .chain(excluded.iter().map(|(c, _)| c))
        .map(|c| label(c).len())
        .max()
        .unwrap_or(0);
    let family_width = meets.iter().map(|c| c.family.len()).max().unwrap_or(0);
    for (rank, candidate) in meets.iter().enumerate() {
        // Without results the name is the family: the figures column is all there is to add.
        let rest = candidate.measured.map_or_else(String::new, |f| {
            format!(
                "  {:<family_width$}  decode {:>6.0} ns/op  encode {:>6.0} ns/op  p99 {:>6.0} ns  {:>7.1} B/record",
                candidate.family,
                f.decode.summary.ns_per_op.median,
                f.encode.summary.ns_per_op.median,
                p99(f),
                f.bytes_per_record
            )
        });
        writeln!(out, "  {:>2}. {:<width$}{rest}", rank + 1, label(candidate))?;
    }
    writeln!(out, "\nexcluded ({}):", excluded.len())?;
    for (candidate, failed) in excluded {
        writeln!(
            out,
            "      {:<width$}  {}",
            label(candidate),
            failed.join("; ")
        )?;
    }
    Ok(())
}
