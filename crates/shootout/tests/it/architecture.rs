//! The crate's dependency arrows point one way: each top-level module imports
//! only modules of the layers below its own ([`LAYERS`]), and the modules inside
//! one import each other without a loop. Read from the sources as text (`use`
//! paths, `crate::…` and `super::…` references outside comments and test
//! modules), so a new upward import fails here with the file that made it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crate's top-level modules, top layer first. A module may import any
/// module of a later layer, none of its own layer or an earlier one.
const LAYERS: &[&[&str]] = &[
    // The command line: parses arguments and calls a command.
    &["main", "cli"],
    // `report` shows the other commands' exports together.
    &["report"],
    // `study` reruns published studies; one checks its conclusion with `recommend`.
    &["study"],
    // The commands.
    &["run", "interop", "replay", "robustness", "evolution", "compare", "recommend"],
    // The dataset hand-off file (`export-dataset`, and the other languages' input).
    &["dataset"],
    // Writing results out: files, then terminal tables.
    &["export"],
    &["output"],
    // Measuring in other processes: the Go and JVM runners, Rust's own children,
    // Rust's instruction count under Valgrind.
    &["runners", "processes", "instructions"],
    // Results files read back, then several runners' results shown as one set.
    &["saved"],
    &["results"],
    // Results of several testbeds side by side: relative costs only.
    &["testbeds"],
    // What there is to run: workloads and the format × workload registry.
    &["catalog"],
    // Rust's harness: its timing loops, and the document it builds of them.
    &["benchmark"],
    // Codecs, and reading input into records.
    &["format", "input"],
    // Record types and their aggregates.
    &["workload"],
    // Three runners → one document → one statistics engine → views: the
    // results document (every type of the schema), then the engine beneath it.
    &["document"],
    &["stats"],
    // The machine a run is on (which allocator counts, among much else).
    &["environment"],
    // Leaves, used anywhere.
    &["sanitize", "temporary", "caught", "alloc"],
];

/// One source file: its module path (`["input", "capture"]`) and its code.
struct Source {
    file: PathBuf,
    module: Vec<String>,
    code: String,
}

fn sources() -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(&root).unwrap().with_extension("");
            let shown = Path::new("src").join(file.strip_prefix(&root).unwrap());
            let mut module: Vec<String> =
                relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
            if module.last().is_some_and(|m| m == "mod" || m == "lib") {
                module.pop();
            }
            let text = std::fs::read_to_string(&file).unwrap();
            Source { module, code: without_comments_and_tests(&text), file: shown }
        })
        .collect()
}

/// Every `.rs` file below `dir`, generated code excepted (it imports only its runtime crates).
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().unwrap() != "generated" {
                collect(&path, files);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The code a build without tests compiles, near enough: line comments
/// dropped, and everything from a file's `#[cfg(test)] mod tests` on.
fn without_comments_and_tests(text: &str) -> String {
    let mut code = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed == "#[cfg(test)]"
            && lines.peek().is_some_and(|next| next.trim_start().starts_with("mod tests"))
        {
            break;
        }
        let code_part = match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        };
        code.push_str(code_part);
        code.push('\n');
    }
    code
}

/// The modules `source` refers to, as paths from the crate root: each
/// `crate::a::b` and each `super::a` (resolved), cut to `depth` segments.
fn references(source: &Source, depth: usize) -> BTreeSet<Vec<String>> {
    let mut found = BTreeSet::new();
    let code = &source.code;
    for (at, _) in code.match_indices("crate::") {
        if code[..at].ends_with(char::is_alphanumeric) || code[..at].ends_with('_') {
            continue;
        }
        found.insert(path_after(&code[at + "crate::".len()..], Vec::new(), depth));
    }
    // In a file `a/b.rs` (module a::b), `super` is `a`; in `a/mod.rs` (module a), it is the root.
    let parent: Vec<String> = source.module[..source.module.len().saturating_sub(1)].to_vec();
    for (at, _) in code.match_indices("super::") {
        if code[..at].ends_with("::") {
            continue;
        }
        let rest = &code[at + "super::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let item = item.trim();
                if !item.is_empty() && item != "self" && item != "*" {
                    found.insert(path_after(item, parent.clone(), depth));
                }
            }
        } else {
            found.insert(path_after(rest, parent.clone(), depth));
        }
    }
    found.retain(|path| !path.is_empty());
    found
}

/// `prefix` followed by the `::`-separated identifiers at the start of `rest`,
/// at most `depth` segments in all.
fn path_after(rest: &str, mut prefix: Vec<String>, depth: usize) -> Vec<String> {
    for segment in rest.split("::") {
        let name: String =
            segment.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() || prefix.len() == depth {
            break;
        }
        let ends = name.len() < segment.len();
        prefix.push(name);
        if ends {
            break;
        }
    }
    prefix
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

#[test]
fn every_top_level_module_imports_only_layers_below_its_own() {
    let mut upward = Vec::new();
    let mut unlisted = BTreeSet::new();
    for source in sources() {
        // lib.rs only declares the modules.
        let Some(from) = source.module.first().cloned() else {
            continue;
        };
        let Some(from_layer) = layer_of(&from) else {
            unlisted.insert(from);
            continue;
        };
        for to in references(&source, 1) {
            let to = &to[0];
            if *to == from {
                continue;
            }
            match layer_of(to) {
                Some(to_layer) if to_layer > from_layer => {}
                Some(_) => upward.push(format!(
                    "{}: {from} imports {to}, which is not in a layer below it",
                    source.file.display()
                )),
                None => {
                    unlisted.insert(to.clone());
                }
            }
        }
    }
    assert!(unlisted.is_empty(), "top-level modules missing from LAYERS: {unlisted:?}");
    assert!(upward.is_empty(), "{}", upward.join("\n"));
}

/// The views show documents through the engine's figures; how the Rust
/// harness measured is none of theirs, as Go's and the JVM's harnesses are not.
const VIEWS: &[&str] = &["output", "export"];

#[test]
fn views_import_the_document_and_the_engine_never_the_harness() {
    let climbs: Vec<String> = sources()
        .iter()
        .filter(|source| source.module.first().is_some_and(|m| VIEWS.contains(&m.as_str())))
        .flat_map(|source| {
            references(source, 1)
                .into_iter()
                .filter(|to| to[0] == "benchmark")
                .map(|_| format!("{} imports benchmark", source.file.display()))
        })
        .collect();
    assert!(climbs.is_empty(), "{}", climbs.join("\n"));
}

#[test]
fn no_module_imports_itself_in_a_loop() {
    // Edges between modules two levels deep (`input::capture` → `input::source`);
    // an item of a `mod.rs` (`benchmark::Registered`) stands for its module.
    let sources = sources();
    let modules: BTreeSet<Vec<String>> =
        sources.iter().map(|source| source.module.iter().take(2).cloned().collect()).collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for source in &sources {
        let from: Vec<String> = source.module.iter().take(2).cloned().collect();
        for mut to in references(source, 2) {
            if !modules.contains(&to) {
                to.truncate(1);
            }
            if to != from && !from.starts_with(&to) && !to.starts_with(&from) {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    let mut loops = Vec::new();
    for (from, targets) in &edges {
        for to in targets {
            if let Some(back) = path_between(&edges, to, from) {
                loops.push(format!(
                    "{} -> {}",
                    from.join("::"),
                    back.iter().map(|m| m.join("::")).collect::<Vec<_>>().join(" -> ")
                ));
            }
        }
    }
    assert!(loops.is_empty(), "import loops:\n{}", loops.join("\n"));
}

/// A path of modules from `from` to `to` along `edges`, both ends included.
fn path_between(
    edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    from: &Vec<String>,
    to: &Vec<String>,
) -> Option<Vec<Vec<String>>> {
    let mut came_from: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([from.clone()]);
    while let Some(at) = queue.pop_front() {
        if &at == to {
            let mut path = vec![at.clone()];
            let mut step = &at;
            while let Some(previous) = came_from.get(step) {
                path.push(previous.clone());
                step = previous;
            }
            path.reverse();
            return Some(path);
        }
        for next in edges.get(&at).into_iter().flatten() {
            if next != from && !came_from.contains_key(next) {
                came_from.insert(next.clone(), at.clone());
                queue.push_back(next.clone());
            }
        }
    }
    None
}

#[test]
fn the_reader_sees_imports_as_written() {
    let source = Source {
        file: PathBuf::from("src/input/csv.rs"),
        module: vec!["input".into(), "csv".into()],
        code: without_comments_and_tests(
            "use crate::workload::tabular::{HEADER, Row};\n\
             use super::{source::Raw, window};\n\
             // crate::cli is only mentioned in a comment\n\
             let n = crate::input::DEFAULT_WINDOW;\n\
             #[cfg(test)]\nmod tests {\n    use crate::benchmark::Settings;\n}\n",
        ),
    };
    let found: Vec<String> =
        references(&source, 2).into_iter().map(|path| path.join("::")).collect();
    assert_eq!(
        found,
        ["input::DEFAULT_WINDOW", "input::source", "input::window", "workload::tabular"]
    );
}
