//! `--export-html`: the report renders in a real browser (headless Chromium)
//! with no script or console error, and every chart has data.

mod common;

use common::{chromium_dom, shootout};

#[test]
fn the_html_report_renders_in_chromium_with_every_chart_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    shootout()
        .args(["run", "--packets", "400", "--runs", "2", "--warmup", "0"])
        .arg("--export-html")
        .arg(&page)
        .assert()
        .success();
    check_in_chromium(&page);
}

/// `report` merges a Rust run's results file and a Go run's into one page.
#[test]
fn report_merges_rust_and_go_results_into_one_html_page() {
    let dir = tempfile::tempdir().unwrap();
    let run = |language: &str| {
        let path = dir.path().join(format!("{language}.json"));
        shootout()
            .args(["run", "--workload", "sql", "--records", "300"])
            .args(["--runs", "2", "--warmup", "0", "--lang", language])
            .arg("--export-json")
            .arg(&path)
            .assert()
            .success();
        path
    };
    let (rust, go) = (run("rust"), run("go"));
    let page = dir.path().join("both.html");
    shootout()
        .arg("report")
        .args([&rust, &go])
        .arg("--export-html")
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    for language in ["rust", "go"] {
        let row = format!("\"language\":\"{language}\"");
        assert!(html.contains(&row), "no {language} row in the page");
    }
    if let Some(dom) = check_in_chromium(&page) {
        assert!(
            dom.contains("Within go (dashed): ") && dom.contains("Within rust (dashed): "),
            "each language's own front is named"
        );
    }
}

/// `report --attach` adds the interop, evolution and robustness matrices as sections of
/// their own, drawn without error.
#[test]
fn attached_matrices_are_sections_of_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    shootout()
        .args([
            "run",
            "--workload",
            "user",
            "--records",
            "200",
            "--runs",
            "1",
            "--warmup",
            "0",
        ])
        .arg("--export-json")
        .arg(path("results.json"))
        .assert()
        .success();
    shootout()
        .args([
            "interop",
            "--workload",
            "user",
            "--records",
            "200",
            "--lang",
            "rust",
        ])
        .arg("--export-json")
        .arg(path("interop.json"))
        .assert()
        .success();
    shootout()
        .arg("evolution")
        .arg("--export-json")
        .arg(path("evolution.json"))
        .assert()
        .success();
    shootout()
        .args([
            "robustness",
            "--workload",
            "user",
            "--records",
            "200",
            "--formats",
            "protobuf-prost,bincode",
        ])
        .args(["--cases", "200", "--sample", "20"])
        .arg("--reproducers")
        .arg(path("reproducers"))
        .arg("--export-json")
        .arg(path("robustness.json"))
        .assert()
        .success();
    shootout()
        .arg("report")
        .arg(path("results.json"))
        .arg("--attach")
        .arg(path("interop.json"))
        .arg("--attach")
        .arg(path("evolution.json"))
        .arg("--attach")
        .arg(path("robustness.json"))
        .arg("--export-html")
        .arg(path("page.html"))
        .assert()
        .success();
    if let Some(dom) = check_in_chromium(&path("page.html")) {
        for section in [
            "<section id=\"interop\"",
            "<section id=\"evolution\"",
            "id=\"interop-protobuf\"",
        ] {
            assert!(dom.contains(section), "no {section} in the page");
        }
        assert!(
            dom.contains("silent ["),
            "the evolution matrix shows its silent cells with notes"
        );
    }
    // Anything else is refused in one line.
    let refused = shootout()
        .arg("report")
        .arg(path("results.json"))
        .arg("--attach")
        .arg(path("results.json"))
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("--attach takes shootout-interop-matrix/1")
    );
}

/// The page needs no network, renders with no error, every chart has data,
/// and the speed-against-size chart names its front. The DOM, when rendered.
fn check_in_chromium(page: &std::path::Path) -> Option<String> {
    let html = std::fs::read_to_string(page).unwrap();
    assert!(
        !html.contains("src=\"http") && !html.contains("href=\"http"),
        "the report must need no network to view"
    );
    let dom = chromium_dom(page)?;
    assert_eq!(
        root_attribute(&dom, "data-errors"),
        None,
        "the page reported errors"
    );
    assert_eq!(
        root_attribute(&dom, "data-rendered").as_deref(),
        Some("yes")
    );
    let points: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&root_attribute(&dom, "data-chart-points").expect("charts drawn"))
            .unwrap();
    for chart in [
        "throughput-encode",
        "throughput-decode",
        "latency",
        "size",
        "speed-size",
        "allocations",
    ] {
        let drawn = points.get(chart).and_then(|n| n.as_u64());
        assert!(drawn > Some(0), "chart {chart} has no data: {points:?}");
    }
    assert!(
        dom.contains("Pareto front (decode): "),
        "the speed-against-size chart names its front"
    );
    assert!(
        !without_scripts(&dom).contains("[object "),
        "an element was written as text"
    );
    Some(dom)
}

/// An attribute of the page's root element as the DOM dump writes it.
fn root_attribute(dom: &str, name: &str) -> Option<String> {
    let root = &dom[dom.find("<html")?..];
    let root = &root[..root.find('>')?];
    let start = root.find(&format!(" {name}=\""))? + name.len() + 3;
    let value = &root[start..];
    Some(
        value[..value.find('"')?]
            .replace("&quot;", "\"")
            .replace("&amp;", "&"),
    )
}

/// The DOM without its script elements (the chart library's source among them).
fn without_scripts(dom: &str) -> String {
    let mut rest = dom;
    let mut out = String::new();
    while let Some(start) = rest.find("<script") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find("</script>")
            .map_or(rest.len(), |e| start + e + 9);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}
