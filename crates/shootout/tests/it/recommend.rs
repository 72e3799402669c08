//! `shootout recommend`: constraints in, shortlist out.

use crate::common::*;

#[test]
fn schemaless_streaming_on_sql_keeps_messagepack_and_cbor_and_explains_every_exclusion() {
    let dir = tempfile::tempdir().unwrap();
    let results = sql_results(&dir, "sql.json", "");
    let text = stdout_of(
        shootout()
            .args(["recommend", "--need", "schemaless,streaming", "--results"])
            .arg(&results)
            .output()
            .unwrap(),
    );
    let (meets, excluded) = text.split_once("\nexcluded").unwrap();
    for survivor in ["msgpack-array", "msgpack-map", "cbor-ciborium", "cbor-minicbor"] {
        assert!(meets.contains(survivor), "{survivor} not among\n{meets}");
    }
    let reasons: Vec<&str> = excluded.lines().skip(1).filter(|l| !l.is_empty()).collect();
    assert!(reasons.len() > 5, "{excluded}");
    for line in reasons {
        assert!(
            line.ends_with("not schemaless") || line.ends_with("not streaming"),
            "no reason in {line:?}"
        );
    }
}

#[test]
fn unknown_needs_and_figures_without_results_are_one_line_errors() {
    let output = shootout().args(["recommend", "--need", "speed"]).output().unwrap();
    let error = one_line_error(&output);
    assert!(
        error.contains("unknown need 'speed'") && error.contains("schemaless, self-describing"),
        "{error}"
    );

    let output = shootout()
        .args(["recommend", "--need", "zero-copy", "--max-p99-ns", "500"])
        .output()
        .unwrap();
    assert!(one_line_error(&output).contains("--max-p99-ns needs measured formats"));

    let text = stdout_of(
        shootout().args(["recommend", "--need", "zero-copy,cross-language"]).output().unwrap(),
    );
    assert!(
        text.contains("FlatBuffers") && text.contains("bincode") && text.contains("not zero-copy"),
        "{text}"
    );
}

/// `--need maintained` drops a measured library labelled unmaintained, with
/// the label's evidence, though its family is maintained; without results it
/// names those libraries after the families.
#[test]
fn maintained_excludes_the_libraries_labelled_unmaintained() {
    let dir = tempfile::tempdir().unwrap();
    let results = sql_results(&dir, "sql.json", "bincode,speedy,postcard");
    let text = stdout_of(
        shootout()
            .args(["recommend", "--need", "maintained", "--results"])
            .arg(&results)
            .output()
            .unwrap(),
    );
    let (meets, excluded) = text.split_once("\nexcluded").unwrap();
    assert!(meets.contains("postcard"), "{text}");
    let line = |name: &str| excluded.lines().find(|l| l.contains(name)).unwrap_or_default();
    assert!(line("bincode").contains("unmaintained library bincode: RUSTSEC-2025-0141"), "{text}");
    assert!(line("speedy").contains("unmaintained library speedy: no release since"), "{text}");

    // A results file from before the label: the registry's row of the same name says it.
    let unlabelled = edited(&dir, &results, "old.json", |value| {
        for format in value["formats"].as_array_mut().unwrap() {
            format["labels"].as_object_mut().unwrap().remove("unmaintained");
        }
    });
    let text = stdout_of(
        shootout()
            .args(["recommend", "--need", "maintained", "--results"])
            .arg(&unlabelled)
            .output()
            .unwrap(),
    );
    assert!(text.contains("unmaintained library bincode: RUSTSEC-2025-0141"), "{text}");

    let text = stdout_of(shootout().args(["recommend", "--need", "maintained"]).output().unwrap());
    let (_, listed) = text.split_once("libraries labelled unmaintained").unwrap();
    assert!(listed.contains("bincode (rust, bincode): RUSTSEC-2025-0141"), "{text}");
    assert!(listed.contains("speedy (rust, speedy)"), "{text}");
}
