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
