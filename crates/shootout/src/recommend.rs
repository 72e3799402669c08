//! `shootout recommend`: the formats that meet every constraint (needs from
//! the feature matrix, limits on measured figures, languages), best first by
//! a chosen figure, and for every other format each constraint it failed.

use std::io::{self, Write};
use std::path::Path;

use anyhow::{Result, bail};

use crate::catalog::registry;
use crate::document::{FormatResult, Results};
use crate::format::features::{self, Features, Schema};
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
    Need {
        name: "nested",
        meaning: "records inside records and lists of records",
        met_by: |f| f.traits.nested,
    },
    Need {
        name: "primitives",
        meaning: "a bare int, string or UUID written and read alone, unwrapped",
        met_by: |f| f.traits.standalone_primitives,
    },
    Need {
        name: "extensions",
        meaning: "the application's own types tagged in the bytes (MessagePack ext, CBOR tags)",
        met_by: |f| f.traits.extension_types,
    },
    Need {
        name: "maintained",
        meaning: "a release or maintainers' commits in two years, development not ended; \
                  a measured library labelled unmaintained fails it too",
        met_by: |f| f.traits.maintained,
    },
];

/// `shootout recommend --help`'s list of needs: each with its meaning, from [`NEEDS`].
pub fn needs_help() -> String {
    let width = NEEDS.iter().map(|need| need.name.len()).max().unwrap_or(0);
    let needs: String =
        NEEDS.iter().map(|need| format!("\n  {:<width$}  {}", need.name, need.meaning)).collect();
    format!(
        "Needs (feature-matrix columns; `shootout formats` shows each family's facts):{needs}\n\n\
         Without --results: the matrix's format families, feature needs only. With --results: every \
         measured format of every language in the file, ordered by --by (default decode)."
    )
}

/// IEP-75's requirements (Apache Ignite choosing its thin-client format; the
/// document is in the studies' index) as needs, in its order: binary; nested
/// object graphs; primitives, not only objects; streaming; schemaless; works
/// without classes (self-describing); extensible (custom types); well-supported
/// implementations in the languages of interest (cross-language, maintained).
/// "Fast and compact" is measured, not a need; "compatible license" is read
/// from each family's `licenses`.
pub const IEP75_NEEDS: &[&str] = &[
    "binary",
    "nested",
    "primitives",
    "streaming",
    "schemaless",
    "self-describing",
    "extensions",
    "cross-language",
    "maintained",
];

/// The feature matrix's families split by needs: those that meet every one,
/// and every other with the needs it fails, both in the matrix's order.
#[derive(Debug)]
pub struct Shortlist {
    pub meet: Vec<&'static str>,
    /// (family, every need it fails, in the order asked).
    pub excluded: Vec<(&'static str, Vec<&'static str>)>,
}

/// [`Shortlist`] of the matrix's families for `needs`, named as `--need` names
/// them (e.g. [`IEP75_NEEDS`]); an unknown name is an error.
pub fn families_meeting(needs: &[&str]) -> Result<Shortlist> {
    let needs = needs_named(needs)?;
    let mut shortlist = Shortlist { meet: Vec::new(), excluded: Vec::new() };
    for features in features::FEATURES {
        let failed: Vec<&str> =
            needs.iter().filter(|need| !(need.met_by)(features)).map(|need| need.name).collect();
        match failed.is_empty() {
            true => shortlist.meet.push(features.family),
            false => shortlist.excluded.push((features.family, failed)),
        }
    }
    Ok(shortlist)
}

/// The [`NEEDS`] named, in the order given.
fn needs_named(names: &[impl AsRef<str>]) -> Result<Vec<&'static Need>> {
    names
        .iter()
        .map(|name| {
            let name = name.as_ref();
            match NEEDS.iter().find(|need| need.name == name) {
                Some(need) => Ok(need),
                None => bail!(
                    "unknown need '{name}'; the needs are: {}",
                    NEEDS.iter().map(|n| n.name).collect::<Vec<_>>().join(", ")
                ),
            }
        })
        .collect()
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
    let needs = needs_named(&constraints.needs)?;
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
    write(&parts, results, &needs, by, &meets, &excluded, out)?;
    if results.is_none() && needs.iter().any(|need| need.name == MAINTAINED) {
        writeln!(out, "\nlibraries labelled unmaintained (excluded wherever they are measured):")?;
        for info in registry::formats() {
            if let Some(why) = info.labels.unmaintained {
                writeln!(out, "      {} (rust, {}): {why}", info.name, info.library)?;
            }
        }
    }
    Ok(())
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
    if let Some(f) = candidate.measured
        && needs.iter().any(|need| need.name == MAINTAINED)
        && let Some(why) = crate::results::unmaintained(f, candidate.language)
    {
        failed.push(format!("unmaintained library {}: {why}", f.library));
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

/// The `--need` whose families' fact a library row's `unmaintained` label narrows.
const MAINTAINED: &str = "maintained";

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The study concluded "MessagePack and CBOR satisfy all requirements"; the
    /// matrix agrees, though it excludes the study's other candidates on
    /// capabilities where the study also judged popularity, purpose or upkeep.
    #[test]
    fn iep75_requirements_keep_exactly_messagepack_and_cbor() {
        let shortlist = families_meeting(IEP75_NEEDS).unwrap();
        assert_eq!(shortlist.meet, ["MessagePack", "CBOR"]);
        let first_failure = |family: &str| {
            shortlist
                .excluded
                .iter()
                .find(|(excluded, _)| *excluded == family)
                .map(|(_, needs)| needs[0])
        };
        // The study: BSON is "more verbose", built for storage; the matrix: its
        // top level is always a document, so no lone primitive.
        assert_eq!(first_failure("BSON"), Some("primitives"));
        // The study: FlexBuffers "can't serialize arbitrary objects" in Java and C#
        // and "has not gained traction"; the matrix: its root sits at the buffer's
        // end, so a concatenation cannot be read without added framing.
        assert_eq!(first_failure("FlexBuffers"), Some("streaming"));
        // The study: UBJSON "seems to be abandoned"; the matrix agrees (not
        // maintained) but fails it earlier on the study's order: no extension types.
        assert_eq!(first_failure("UBJSON"), Some("extensions"));
        let unmaintained = families_meeting(&["maintained"]).unwrap().excluded;
        assert!(unmaintained.contains(&("UBJSON", vec!["maintained"])), "{unmaintained:?}");
        // Every need a family fails is named, not only the first.
        let ubjson = shortlist.excluded.iter().find(|(family, _)| *family == "UBJSON").unwrap();
        assert_eq!(ubjson.1, ["extensions", "cross-language", "maintained"]);
        // Not among the study's candidates, but a schemaless binary JSON too.
        assert_eq!(first_failure("Smile"), Some("extensions"));
        assert_eq!(first_failure("JSON"), Some("binary"));
        // The format the study replaced needs its types registered first.
        assert_eq!(first_failure("Ignite binary"), Some("schemaless"));
        assert_eq!(shortlist.meet.len() + shortlist.excluded.len(), features::FEATURES.len());
    }

    #[test]
    fn an_unknown_need_is_an_error_naming_the_needs() {
        let error = families_meeting(&["binary", "speed"]).unwrap_err().to_string();
        assert!(error.contains("unknown need 'speed'") && error.contains("maintained"), "{error}");
    }

    #[test]
    fn the_help_lists_every_need() {
        let help = needs_help();
        for need in NEEDS {
            assert!(help.contains(need.name) && help.contains(need.meaning), "{}", need.name);
        }
    }
}
