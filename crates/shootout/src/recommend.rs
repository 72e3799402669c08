//! `shootout recommend`: the formats that meet every constraint (needs from
//! the feature matrix, limits on measured figures, languages), best first by
//! a chosen figure, and for every other format each constraint it failed.

use std::io::{self, Write};
use std::path::Path;

use anyhow::{Result, bail};

use crate::format::features::{self, Features, Schema};
use crate::results::{FormatResult, Results};
use crate::sanitize::terminal;

/// A feature-matrix column a format must have: its `--need` name, what it
/// means, and the test of a family's row.
pub struct Need {
    pub name: &'static str,
    pub meaning: &'static str,
    pub met_by: fn(&Features) -> bool,
}

pub const NEEDS: &[Need] = &[
    Need {
        name: "schema",
        meaning: "a schema: IDL or derived from the program's types",
        met_by: |f| f.schema != Schema::None,
    },
    Need {
        name: "idl",
        meaning: "a schema in an interface definition language (shared across languages)",
        met_by: |f| f.schema == Schema::Idl,
    },
    Need {
        name: "schemaless",
        meaning: "no schema: the data describes itself",
        met_by: |f| f.schema == Schema::None,
    },
    Need {
        name: "self-describing",
        meaning: "bytes readable without the schema or classes (inspectable)",
        met_by: |f| f.self_describing,
    },
    Need {
        name: "zero-copy",
        meaning: "fields read in place from the encoded bytes",
        met_by: |f| f.zero_copy,
    },
    Need {
        name: "streaming",
        meaning: "messages delimit themselves in a plain concatenation",
        met_by: |f| f.traits.streaming,
    },
    Need {
        name: "unions",
        meaning: "tagged unions or variants in the data model",
        met_by: |f| f.traits.unions,
    },
    Need {
        name: "evolution",
        meaning: "a field can be added without breaking old readers",
        met_by: |f| f.traits.evolution,
    },
    Need {
        name: "cross-language",
        meaning: "maintained implementations in more than one language",
        met_by: |f| f.traits.cross_language,
    },
    Need { name: "binary", meaning: "bytes, not text", met_by: |f| f.traits.binary },
];

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
    /// `--need` as given; [`recommend`] checks each against [`NEEDS`].
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
    recommend_on(results, constraints, &mut io::stdout().lock())
}

/// [`recommend`] written to `out`.
pub fn recommend_on(
    results: Option<&Path>,
    constraints: &Constraints,
    out: &mut dyn Write,
) -> Result<()> {
    let mut needs = Vec::new();
    for name in &constraints.needs {
        match NEEDS.iter().find(|need| need.name == name) {
            Some(need) => needs.push(need),
            None => bail!(
                "unknown need '{name}'; the needs are: {}",
                NEEDS.iter().map(|n| n.name).collect::<Vec<_>>().join(", ")
            ),
        }
    }
    let parts = match results {
        Some(path) => crate::saved::read(path)?,
        None => {
            let measured = [
                (constraints.max_p99_ns.is_some(), "--max-p99-ns"),
                (constraints.max_bytes_per_record.is_some(), "--max-bytes-per-record"),
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
        match failures(&candidate, &needs, constraints) {
            failed if failed.is_empty() => meets.push(candidate),
            failed => excluded.push((candidate, failed)),
        }
    }
    if results.is_some() {
        meets.sort_by(|a, b| figure(a, by).total_cmp(&figure(b, by)));
    }
    write(&parts, results, &needs, by, &meets, &excluded, out)
}

/// Every constraint the candidate fails, in the order given.
fn failures(candidate: &Candidate, needs: &[&Need], constraints: &Constraints) -> Vec<String> {
    let Some(features) = features::of_family(candidate.family) else {
        return vec![format!("no feature-matrix row for its family {}", candidate.family)];
    };
    let mut failed: Vec<String> = needs
        .iter()
        .filter(|need| !(need.met_by)(features))
        .map(|need| format!("not {}", need.name))
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
    f.encode.summary.p99_ns.median.max(f.decode.summary.p99_ns.median)
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
    needs: &[&Need],
    by: By,
    meets: &[Candidate],
    excluded: &[(Candidate, Vec<String>)],
    out: &mut dyn Write,
) -> Result<()> {
    let needs = match needs.is_empty() {
        true => "none".to_owned(),
        false => needs
            .iter()
            .map(|n| format!("{} ({})", n.name, n.meaning))
            .collect::<Vec<_>>()
            .join(", "),
    };
    // Names, families, languages and the workload come from the results file: shown, never obeyed.
    let label = |c: &Candidate| {
        terminal(&match c.language {
            Some(language) => format!("{} ({language})", c.name),
            None => c.name.clone(),
        })
        .into_owned()
    };
    match (results, parts.first()) {
        (Some(path), Some(first)) => {
            let order = match by {
                By::Decode => "decode ns/op",
                By::Encode => "encode ns/op",
                By::Size => "bytes/record",
                By::P99 => "p99 ns (the larger direction)",
            };
            let line = format!(
                "{}: workload {}, {} records; needs: {needs}; ordered by {order}",
                path.display(),
                first.workload.name,
                first.workload.records
            );
            writeln!(out, "{}", terminal(&line))?;
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
                terminal(candidate.family),
                f.decode.summary.ns_per_op.median,
                f.encode.summary.ns_per_op.median,
                p99(f),
                f.bytes_per_record
            )
        });
        let line = format!("  {:>2}. {:<width$}{rest}", rank + 1, label(candidate));
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(out, "\nexcluded ({}):", excluded.len())?;
    for (candidate, failed) in excluded {
        writeln!(out, "      {:<width$}  {}", label(candidate), terminal(&failed.join("; ")))?;
    }
    Ok(())
}
