//! README.md and the manual in docs/ say what is there: the format table of
//! docs/formats.md is `shootout formats --markdown`, pasted whole between two
//! markers (`SHOOTOUT_UPDATE_EXPECTED=1` pastes it); every relative link of
//! every Markdown file resolves, to a file and, for `#fragment`, to one of its
//! headings; every path the layout table of docs/contributing.md names
//! exists; and README.md stays a page one reads, not a manual.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::{shootout, stdout_of};

const BEGIN: &str = "<!-- shootout formats --markdown: rewritten by SHOOTOUT_UPDATE_EXPECTED=1 cargo test -p shootout --test it -- readme:: -->\n";
const END: &str = "\n<!-- end of shootout formats --markdown -->";

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

#[test]
fn formats_page_table_is_the_formats_command_output() {
    let table = stdout_of(shootout().args(["formats", "--markdown"]).output().unwrap());
    let path = repository().join("docs/formats.md");
    let page = std::fs::read_to_string(&path).unwrap();
    let start = page.find(BEGIN).expect("docs/formats.md has the formats table's opening marker")
        + BEGIN.len();
    let end = start
        + page[start..].find(END).expect("docs/formats.md has the formats table's closing marker");
    if page[start..end] == *table.trim() {
        return;
    }
    if std::env::var_os("SHOOTOUT_UPDATE_EXPECTED").is_some() {
        std::fs::write(&path, format!("{}{}{}", &page[..start], table.trim(), &page[end..]))
            .unwrap();
        return;
    }
    panic!(
        "docs/formats.md's format table differs from `shootout formats --markdown`; \
         rewrite it: SHOOTOUT_UPDATE_EXPECTED=1 cargo test -p shootout --test it -- readme::"
    );
}

#[test]
fn readme_is_at_most_300_lines_and_names_both_commands() {
    let readme = std::fs::read_to_string(repository().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 300, "README.md has {lines} lines; the manual (docs/) takes the rest");
    assert!(readme.contains("cargo run --release -- run\n"), "README.md names the default run");
    assert!(readme.contains("<!-- test-command -->"), "README.md names the test command");
}

/// The repository's Markdown files, outside build output and hidden folders.
fn markdown_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "node_modules" {
                markdown_files(&path, found);
            }
        } else if name.ends_with(".md") {
            found.push(path);
        }
    }
}

/// A Markdown text's lines outside fenced code blocks.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// GitHub's anchors for a page's headings: lower case, punctuation dropped,
/// spaces as hyphens, a repeated heading numbered `-1`, `-2`, ...
fn anchors(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in prose_lines(text) {
        let Some(heading) = line.strip_prefix('#') else { continue };
        let heading = heading.trim_start_matches('#').trim();
        let slug: String = heading
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut anchor = slug.clone();
        let mut n = 0;
        while !found.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{slug}-{n}");
        }
    }
    found
}

/// The targets of a Markdown text's inline links and images, `](target)`,
/// outside code.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for line in prose_lines(text) {
        // Inline code may show a link's syntax without being one.
        let prose: String =
            line.split('`').enumerate().filter(|(i, _)| i % 2 == 0).map(|(_, part)| part).collect();
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            targets.push(target.to_string());
            rest = &rest[end..];
        }
    }
    targets
}

#[test]
fn every_relative_link_resolves() {
    let root = repository();
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    assert!(files.iter().any(|f| f.ends_with("docs/README.md")), "the manual's contents page");
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for target in link_targets(&text) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = match target.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (target.as_str(), None),
            };
            let linked =
                if path.is_empty() { file.clone() } else { file.parent().unwrap().join(path) };
            let shown = file.strip_prefix(&root).unwrap().display();
            if !linked.exists() {
                broken.push(format!("{shown}: {target}: no such file"));
                continue;
            }
            if let Some(fragment) = fragment
                && linked.extension().is_some_and(|e| e == "md")
                && !anchors(&std::fs::read_to_string(&linked).unwrap()).contains(fragment)
            {
                broken.push(format!("{shown}: {target}: no heading with that anchor"));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_path_the_layout_names_exists() {
    let root = repository();
    let page = std::fs::read_to_string(root.join("docs/contributing.md")).unwrap();
    let (_, layout) =
        page.split_once("\n## Layout\n").expect("docs/contributing.md has a Layout section");
    let rows: Vec<&str> = layout
        .lines()
        .take_while(|line| !line.starts_with("## "))
        .filter(|line| line.starts_with("| `"))
        .collect();
    assert!(rows.len() >= 20, "the layout table has a row per room: {} rows", rows.len());
    let mut missing = Vec::new();
    for row in rows {
        let mut cells = row.split(" | ");
        let folder = cells.next().unwrap().trim_start_matches("| ").trim_matches('`');
        if !root.join(folder).exists() {
            missing.push(folder.to_string());
        }
        // Every path-like name in the description is inside the row's folder.
        let description = cells.collect::<Vec<_>>().join(" | ");
        for name in description.split('`').skip(1).step_by(2) {
            let path_like = !name.contains(' ')
                && (name.ends_with('/')
                    || [".rs", ".md", ".sh"].iter().any(|extension| name.ends_with(extension)));
            if path_like && !root.join(folder).join(name).exists() {
                missing.push(format!("{folder}{name}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/contributing.md's layout names what is not there: {missing:?}"
    );
}
