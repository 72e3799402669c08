//! `shootout report`: results files merged into the tables and exports `run`
//! shows, so runs in several processes (languages, repeated invocations) read
//! as one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::document::{Results, ResultsSet, SET_SCHEMA, Testbed};
use crate::export::{Kind, Target};
use crate::output::table::Columns;
use crate::results::Merged;
use crate::testbeds::{Across, Group};

/// One runner's results and the file they came from.
struct Part {
    file: PathBuf,
    results: Results,
}

/// What `report` shows of one workload: one testbed's results as `run`
/// shows its own, or several testbeds' side by side.
pub enum Shown {
    One(Merged),
    /// Each testbed's own tables (absolute figures compare only within
    /// one), then the relative costs across them.
    Testbeds {
        each: Vec<(String, Merged)>,
        across: Across,
        attachments: Vec<serde_json::Value>,
    },
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
    for (title, shown) in sets {
        if several {
            println!("\n== {} ==", crate::sanitize::terminal(&title));
        }
        match shown {
            Shown::One(merged) => crate::run::show(&merged, targets, columns, verbose)?,
            Shown::Testbeds { each, across, attachments } => {
                refuse_single_testbed_exports(targets, &across)?;
                for (heading, merged) in &each {
                    println!("\n== {} ==", crate::sanitize::terminal(heading));
                    crate::run::show(merged, &[], columns, verbose)?;
                }
                println!();
                crate::output::testbeds::terminal(&across, &mut std::io::stdout().lock())?;
                let parts: Vec<Results> =
                    each.into_iter().flat_map(|(_, merged)| merged.parts).collect();
                write_across(targets, parts, &across, &attachments)?;
            }
        }
    }
    Ok(())
}

/// The exports that hold one testbed's results, refused in one line before any is written.
fn refuse_single_testbed_exports(targets: &[Target], across: &Across) -> Result<()> {
    match targets.iter().find(|t| !matches!(t.kind, Kind::Json | Kind::Html)) {
        Some(target) => {
            let labels: Vec<&str> = across.testbeds.iter().map(|t| t.label.as_str()).collect();
            bail!(
                "{}: the files hold results of {} testbeds ({}) and it holds one testbed's: export each testbed's files in a report of their own (--export-json and --export-html take several)",
                target.kind.option(),
                labels.len(),
                labels.join(", ")
            )
        }
        None => Ok(()),
    }
}

/// The JSON (every part, as one results set) and HTML (the testbeds side by
/// side, then the attached matrices) of a report across testbeds, staged and
/// then made visible together.
fn write_across(
    targets: &[Target],
    parts: Vec<Results>,
    across: &Across,
    attachments: &[serde_json::Value],
) -> Result<()> {
    let set = ResultsSet { schema: SET_SCHEMA.to_owned(), results: parts };
    let mut sections = vec![serde_json::to_value(across)?];
    sections.extend(attachments.iter().cloned());
    let staged = targets
        .iter()
        .map(|target| {
            target.stage_with(|out| match target.kind {
                Kind::Html => crate::export::html::write_sections(&sections, out),
                _ => {
                    serde_json::to_writer_pretty(&mut *out, &set)?;
                    Ok(writeln!(out)?)
                }
            })
        })
        .collect::<Result<Vec<_>>>()?;
    for (target, output) in targets.iter().zip(staged) {
        output.finish()?;
        if !target.is_stdout() {
            eprintln!("wrote {}", target.path.display());
        }
    }
    Ok(())
}

/// The files' results as the sets `report` shows, each with its title: one
/// per workload and record count (several only with `allow_mismatch`, and
/// none of them exported), each with the attached matrices; within one,
/// one per testbed when the files come from several.
pub fn merge(
    files: &[PathBuf],
    allow_mismatch: bool,
    attach: &[PathBuf],
    exporting: bool,
) -> Result<Vec<(String, Shown)>> {
    let mut parts = Vec::new();
    for file in files {
        for results in crate::saved::read(file)? {
            parts.push(Part { file: file.clone(), results });
        }
    }
    let attachments =
        attach.iter().map(|path| read_attachment(path)).collect::<Result<Vec<_>>>()?;
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
            let title = format!("{}, {} records: {}", workload.name, workload.records, files_of(&group));
            let mut testbeds = by_testbed(group);
            for testbed in &mut testbeds {
                label_repeated_languages(testbed);
            }
            let shown = match testbeds.len() {
                1 => {
                    let group = testbeds.pop().expect("one testbed");
                    let mut merged = Merged::new(group.into_iter().map(|p| p.results).collect())?;
                    merged.attachments = attachments.clone();
                    Shown::One(merged)
                }
                _ => {
                    let groups: Vec<Group> = testbeds
                        .into_iter()
                        .map(|parts| Group {
                            testbed: parts[0].results.testbed(),
                            files: parts.iter().map(|p| p.file.display().to_string()).fold(
                                Vec::new(),
                                |mut all, file| {
                                    if !all.contains(&file) {
                                        all.push(file);
                                    }
                                    all
                                },
                            ),
                            parts: parts.into_iter().map(|p| p.results).collect(),
                        })
                        .collect();
                    let across = Across::of(&groups);
                    let each = groups
                        .into_iter()
                        .map(|g| {
                            let heading = format!(
                                "testbed {}: {}; {} (its own figures: ns/op compares only within one testbed)",
                                g.testbed.label(),
                                g.testbed.description(),
                                g.files.join(", ")
                            );
                            Ok((heading, Merged::new(g.parts)?))
                        })
                        .collect::<Result<Vec<_>>>()?;
                    Shown::Testbeds { each, across, attachments: attachments.clone() }
                }
            };
            Ok((title, shown))
        })
        .collect()
}

/// The files a group's parts came from, each once, in order.
fn files_of(group: &[Part]) -> String {
    let mut files: Vec<String> = group.iter().map(|p| p.file.display().to_string()).collect();
    files.dedup();
    files.join(", ")
}

/// The parts grouped by testbed (its name when given, else its
/// fingerprint), in the order first seen.
fn by_testbed(parts: Vec<Part>) -> Vec<Vec<Part>> {
    let mut groups: Vec<(Testbed, Vec<Part>)> = Vec::new();
    for part in parts {
        let testbed = part.results.testbed();
        match groups.iter_mut().find(|(t, _)| t.identity() == testbed.identity()) {
            Some((_, group)) => group.push(part),
            None => groups.push((testbed, vec![part])),
        }
    }
    groups.into_iter().map(|(_, group)| group).collect()
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

/// A language that more than one part of a testbed holds (the same command
/// run twice) is labelled `language@file-stem` in every part, and `#N` (its position among
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
