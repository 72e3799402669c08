//! `shootout report`: results files merged into the tables and exports `run`
//! shows, so runs in several processes (languages, repeated invocations) read
//! as one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::document::Results;
use crate::export::Target;
use crate::output::table::Columns;
use crate::results::Merged;

/// One runner's results and the file they came from.
struct Part {
    file: PathBuf,
    results: Results,
}

/// `columns`: `--columns`, or `None` to fit the terminal; `verbose`: the
/// whole method before the tables.
pub fn report(
    files: &[PathBuf],
    allow_mismatch: bool,
    attach: &[PathBuf],
    targets: &[Target],
    columns: Option<&Columns>,
    verbose: bool,
) -> Result<()> {
    let sets = merge(files, allow_mismatch, attach, !targets.is_empty())?;
    let several = sets.len() > 1;
    for (title, merged) in sets {
        if several {
            println!("\n== {} ==", crate::sanitize::terminal(&title));
        }
        crate::run::show(&merged, targets, columns, verbose)?;
    }
    Ok(())
}

/// The files' results as the sets `report` shows, each with its title: one
/// per workload and record count (several only with `allow_mismatch`, and
/// none of them exported), each with the attached matrices.
pub fn merge(
    files: &[PathBuf],
    allow_mismatch: bool,
    attach: &[PathBuf],
    exporting: bool,
) -> Result<Vec<(String, Merged)>> {
    let mut parts = Vec::new();
    for file in files {
        for results in crate::saved::read(file)? {
            parts.push(Part { file: file.clone(), results });
        }
    }
    let attachments =
        attach.iter().map(|path| read_attachment(path)).collect::<Result<Vec<_>>>()?;
    label_repeated_languages(&mut parts);
    let groups = by_workload(parts);
    if let [first, second, ..] = &groups[..] {
        let (a, b) = (&first[0], &second[0]);
        if !allow_mismatch {
            bail!(
                "{} holds {} records of {}, {} holds {} records of {}: {}; pass --allow-mismatch to show each apart",
                a.file.display(),
                a.results.workload.records,
                a.results.workload.name,
                b.file.display(),
                b.results.workload.records,
                b.results.workload.name,
                if a.results.workload.name == b.results.workload.name {
                    "different record counts"
                } else {
                    "different workloads"
                }
            );
        }
        if exporting {
            bail!(
                "the files hold {} workloads (or record counts) and an export holds one: export each workload's files in a report of its own",
                groups.len()
            );
        }
    }
    groups
        .into_iter()
        .map(|group| {
            let workload = &group[0].results.workload;
            let mut files: Vec<String> =
                group.iter().map(|p| p.file.display().to_string()).collect();
            files.dedup();
            let title =
                format!("{}, {} records: {}", workload.name, workload.records, files.join(", "));
            let mut merged = Merged::new(group.into_iter().map(|p| p.results).collect())?;
            merged.attachments = attachments.clone();
            Ok((title, merged))
        })
        .collect()
}

/// The matrices, study results and replays an HTML page can show beside the results, by their `schema`.
pub const ATTACHABLE: &[&str] = &[
    crate::interop::MATRIX_SCHEMA,
    crate::evolution::SCHEMA,
    crate::robustness::SCHEMA,
    crate::study::RESULT_SCHEMA,
    crate::replay::SCHEMA,
];

/// An attached matrix, study result or replay, read as boundedly as a
/// results file; a matrix or replay then typed and checked by the command
/// that writes it, its derived figures computed again, before the page draws it.
fn read_attachment(path: &Path) -> Result<serde_json::Value> {
    let name = path.display().to_string();
    let document = crate::saved::Document::open(path, &name, &crate::saved::ATTACHMENT)?;
    match document.schema.as_deref() {
        Some(crate::interop::MATRIX_SCHEMA) => document.attachment::<crate::interop::Matrix>(),
        Some(crate::evolution::SCHEMA) => document.attachment::<crate::evolution::Export>(),
        Some(crate::robustness::SCHEMA) => document.attachment::<crate::robustness::Results>(),
        // A study's result is drawn as the study and our figures say, any text in it as text.
        Some(crate::study::RESULT_SCHEMA) => document.parse(),
        Some(crate::replay::SCHEMA) => document.attachment::<crate::replay::Document>(),
        other => bail!(
            "{name}: --attach takes {}, not {}",
            ATTACHABLE.join(", "),
            other.map_or("a file without a schema".to_owned(), |s| format!(
                "schema {}",
                crate::sanitize::excerpt(s)
            ))
        ),
    }
}

/// A language that more than one part holds (the same command run twice) is
/// labelled `language@file-stem` in every part, and `#N` (its position among
/// those) is added where that still repeats, so the tables tell the rows apart.
fn label_repeated_languages(parts: &mut [Part]) {
    let count = |parts: &[Part], label: &dyn Fn(&Part) -> String| {
        let mut counts: HashMap<String, usize> = HashMap::new();
        for part in parts {
            *counts.entry(label(part)).or_default() += 1;
        }
        counts
    };
    let languages = count(parts, &|p| p.results.runner.language.clone());
    let label = |p: &Part| match languages[&p.results.runner.language] {
        1 => p.results.runner.language.clone(),
        _ => format!("{}@{}", p.results.runner.language, stem(&p.file)),
    };
    let labels = count(parts, &label);
    let mut seen: HashMap<String, usize> = HashMap::new();
    for part in parts.iter_mut() {
        let mut name = label(part);
        if labels[&name] > 1 {
            let n = seen.entry(name.clone()).or_default();
            *n += 1;
            name = format!("{name}#{n}");
        }
        part.results.runner.language = name;
    }
}

fn stem(file: &Path) -> String {
    file.file_stem()
        .map_or_else(|| file.display().to_string(), |s| s.to_string_lossy().into_owned())
}

/// The parts grouped by workload and record count, in the order first seen.
fn by_workload(parts: Vec<Part>) -> Vec<Vec<Part>> {
    let mut groups: Vec<Vec<Part>> = Vec::new();
    for part in parts {
        let key = |p: &Part| (p.results.workload.name.clone(), p.results.workload.records);
        match groups.iter_mut().find(|g| key(&g[0]) == key(&part)) {
            Some(group) => group.push(part),
            None => groups.push(vec![part]),
        }
    }
    groups
}
