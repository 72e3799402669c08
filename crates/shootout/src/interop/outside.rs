//! `shootout interop --decode DIR`: streams written outside shootout (by a
//! Python service, another team's library), each beside its manifest in the
//! `--keep` layout, checked strictly and added to the matrix as producers.
//! docs/interop.md, "Checking your own producer", is the user's side of this.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail, ensure};
use serde::Deserialize;

use super::stream::Stream;
use super::wire::Wire;
use super::{MANIFEST_SCHEMA, Manifest};
use crate::format::Framing;
use crate::input::source::{MANIFEST_FILE, read_whole};
use crate::runners::Language;
use crate::sanitize::{elide, excerpt, json_error, listing};

/// One stream from outside, checked and cut into its records.
pub struct Outside {
    pub manifest: Manifest,
    /// The wire format it is written in.
    pub wire: &'static str,
    pub stream: Stream,
}

/// An outside manifest as given: every field the project's own manifests
/// have, and `wire`; no other (a misspelt field is an error, not a default).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Given {
    schema: String,
    language: String,
    format: String,
    #[serde(default)]
    wire: Option<String>,
    #[serde(default)]
    family: String,
    #[serde(default)]
    library: String,
    #[serde(default)]
    version: String,
    workload: String,
    records: u64,
    framing: Framing,
    stream: String,
    #[serde(default)]
    bytes: Option<u64>,
    #[serde(default)]
    sha256: Option<String>,
    #[serde(default)]
    error: Option<String>,
}

/// The longest language or format name a manifest may give: each is shown
/// whole in the matrix, where shootout's own are under 40 characters.
const NAME_CHARS: usize = 100;

/// The names shootout's own languages go by, as producers and as `--lang`
/// values: an outside stream may not pass for one of theirs.
fn own_languages() -> Vec<&'static str> {
    let mut names = vec!["rust"];
    for language in Language::expand(&[Language::All]) {
        if let Some(external) = language.external() {
            // A runner's name and its --lang value, once each: Go's are both "go".
            for name in [external.name, external.flag] {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
    }
    names
}

/// The wire format `name` names: a wire format's own name, or a member
/// format's in any language.
pub fn resolve<'a>(wires: &'a [Wire], name: &str) -> Option<&'a Wire> {
    wires
        .iter()
        .find(|w| w.name == name)
        .or_else(|| wires.iter().find(|w| w.members.iter().any(|(_, f)| *f == name)))
}

/// Every manifest (`*.json`) in `dir`, checked against this run (`workload`,
/// its `records`), with its stream read; those of a wire format not in
/// `chosen` are left out, with a line on stderr. The first fault found is the
/// error, one line naming the file.
pub fn read(dir: &Path, workload: &str, records: u64, chosen: &[&Wire]) -> Result<Vec<Outside>> {
    // Absolute: a stream may be handed as it is to another language's
    // runner, which runs in its own folder.
    let dir = &std::path::absolute(dir)
        .with_context(|| format!("--decode {}: cannot resolve", dir.display()))?;
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("--decode {}: cannot read", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    ensure!(
        !paths.is_empty(),
        "--decode {}: no manifest (*.json) in it; docs/interop.md, \"Checking your own producer\"",
        dir.display()
    );
    let mut taken: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut out = Vec::new();
    for path in paths {
        let outside =
            one(dir, &path, workload, records).with_context(|| format!("{}", path.display()))?;
        let id = outside.manifest.id();
        if let Some(first) = taken.get(&id) {
            bail!("{}: a second stream of {id} (the first: {})", path.display(), first.display());
        }
        taken.insert(id.clone(), path);
        if chosen.iter().any(|w| w.name == outside.wire) {
            out.push(outside);
        } else {
            eprintln!(
                "{}: left out, its wire format {} is not among --formats",
                crate::sanitize::terminal(&id),
                outside.wire
            );
        }
    }
    Ok(out)
}

/// One manifest at `path`, checked, and its stream; errors are said without
/// the manifest's path, which the caller puts in front.
fn one(dir: &Path, path: &Path, workload: &str, records: u64) -> Result<Outside> {
    let text = read_whole(path, "the manifest", &MANIFEST_FILE)?;
    let given: Given = serde_json::from_slice(&text)
        .map_err(|e| anyhow!(json_error(&e, &format!("a {MANIFEST_SCHEMA} manifest"))))?;
    ensure!(
        given.schema == MANIFEST_SCHEMA,
        "schema {}, expected {MANIFEST_SCHEMA}",
        excerpt(&given.schema)
    );
    ensure!(
        given.workload == workload,
        "written for workload {}, this run's is {workload} (--workload)",
        excerpt(&given.workload)
    );
    let own = own_languages();
    ensure!(
        given.language.len() <= NAME_CHARS && given.format.len() <= NAME_CHARS,
        "language {} and format {}: names of at most {NAME_CHARS} characters",
        excerpt(&given.language),
        excerpt(&given.format)
    );
    ensure!(
        !given.language.is_empty()
            && given.language.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)),
        "language {}: a name of letters, digits, '.', '_' and '-' (e.g. \"python\")",
        excerpt(&given.language)
    );
    ensure!(
        !own.contains(&given.language.as_str()),
        "language {} is one of shootout's own ({}): name the outside producer otherwise (e.g. \"{}-mine\")",
        excerpt(&given.language),
        own.join(", "),
        given.language
    );
    ensure!(
        !given.format.is_empty() && !given.format.contains('/'),
        "format {}: a name without '/'",
        excerpt(&given.format)
    );
    if let Some(error) = &given.error {
        bail!("records an encoder error, so there is no stream to decode: {}", elide(error));
    }
    let wires = super::wire::wires()?;
    let named = given.wire.as_deref().unwrap_or(&given.format);
    let Some(wire) = resolve(wires, named) else {
        let names = listing(wires.iter().map(|w| w.name));
        match &given.wire {
            Some(_) => {
                bail!("wire {} is no wire format; wire formats: {names}", excerpt(named))
            }
            None => bail!(
                "format {} is no wire format nor a member of one: name the wire format in a \
                 \"wire\" field; wire formats: {names}",
                excerpt(named)
            ),
        }
    };
    ensure!(
        given.records == records,
        "{} records, this run's input has {records} (give the producer's --workload, --input or --records, and \
         --max-records)",
        given.records
    );
    let mut parts = Path::new(&given.stream).components();
    ensure!(
        matches!((parts.next(), parts.next()), (Some(Component::Normal(_)), None))
            && !given.stream.contains('\\'),
        "stream {} is not a file name: the stream must lie in {} itself",
        excerpt(&given.stream),
        dir.display()
    );
    let bin = dir.join(&given.stream);
    let bytes = match given.bytes {
        Some(bytes) => bytes,
        None => std::fs::metadata(&bin)
            .with_context(|| format!("stream {}: cannot read", bin.display()))?
            .len(),
    };
    let manifest = Manifest {
        schema: given.schema,
        language: given.language,
        format: given.format,
        wire: Some(wire.name.to_owned()),
        family: given.family,
        library: given.library,
        version: given.version,
        workload: given.workload,
        records: given.records,
        framing: Some(given.framing),
        stream: Some(given.stream),
        bytes,
        sha256: given.sha256,
        error: None,
    };
    let stream = Stream::open(dir, &manifest)?;
    if let Some(expected) = &manifest.sha256 {
        let got = stream.sha256()?;
        ensure!(
            expected.eq_ignore_ascii_case(&got),
            "sha256 {expected}, the stream's is {got} (leave the field out to skip the check)"
        );
    }
    Ok(Outside { manifest, wire: wire.name, stream })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wire_is_named_by_itself_or_by_a_member() {
        let wires = super::super::wire::wires().unwrap();
        assert_eq!(resolve(wires, "msgpack-map").unwrap().name, "msgpack-map");
        assert_eq!(resolve(wires, "json-serde_json").unwrap().name, "json");
        assert_eq!(resolve(wires, "protobuf-prost").unwrap().name, "protobuf");
        assert!(resolve(wires, "msgpack-python").is_none());
    }

    #[test]
    fn a_manifest_is_checked_field_by_field() {
        let dir = tempfile::tempdir().unwrap();
        // Three u32le records of 2, 0 and 1 body bytes, and no .ends: derived.
        let stream = [2, 0, 0, 0, 1, 2, 0, 0, 0, 0, 1, 0, 0, 0, 3];
        std::fs::write(dir.path().join("py.bin"), stream).unwrap();
        let manifest = |fields: &str| {
            format!(
                r#"{{"schema": "shootout-interop/1", "workload": "user", "records": 3,
                "framing": "u32le", "stream": "py.bin", {fields}}}"#
            )
        };
        let check = |fields: &str| {
            let path = dir.path().join("py.json");
            std::fs::write(&path, manifest(fields)).unwrap();
            one(dir.path(), &path, "user", 3).map(|o| o.wire).map_err(|e| format!("{e:#}"))
        };
        assert_eq!(check(r#""language": "python", "format": "msgpack-map""#), Ok("msgpack-map"));
        assert_eq!(
            check(r#""language": "python", "format": "ormsgpack", "wire": "msgpack-array""#),
            Ok("msgpack-array")
        );
        let refused = [
            (r#""language": "python", "format": "ormsgpack""#, "no wire format nor a member"),
            (r#""language": "python", "format": "json", "wire": "jsn""#, "is no wire format"),
            (r#""language": "rust", "format": "json""#, "one of shootout's own"),
            (r#""language": "py/thon", "format": "json""#, "a name of letters"),
            (r#""language": "python", "format": "json", "sha256": "00""#, "sha256 00"),
            (
                r#""language": "python", "format": "json", "bytes": 14"#,
                "the manifest says 14 bytes",
            ),
            (r#""language": "python", "format": "json", "framming": "none""#, "unknown field"),
            (r#""language": "python", "format": "json", "error": "boom""#, "encoder error"),
        ];
        for (fields, said) in refused {
            let error = check(fields).unwrap_err();
            assert!(error.contains(said), "{fields}: {error}");
        }
        let path = dir.path().join("py.json");
        let escaping = manifest(r#""language": "python", "format": "json""#)
            .replace("\"py.bin\"", "\"../py.bin\"");
        std::fs::write(&path, escaping).unwrap();
        let error = format!("{:#}", one(dir.path(), &path, "user", 3).err().unwrap());
        assert!(error.contains("not a file name"), "{error}");
        std::fs::write(&path, manifest(r#""language": "python", "format": "json""#)).unwrap();
        let error = format!("{:#}", one(dir.path(), &path, "user", 4).err().unwrap());
        assert!(error.contains("3 records, this run's input has 4"), "{error}");
        let error = format!("{:#}", one(dir.path(), &path, "iex", 3).err().unwrap());
        assert!(error.contains("workload \"user\""), "{error}");
    }
}
