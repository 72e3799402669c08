//! `--export-html`: the report renders in a real browser (headless Chromium)
//! with no script or console error, every chart has data, and every matrix
//! (interop, evolution, robustness) and study result is a section of it.

use std::path::Path;

use crate::common::{chromium_dom, shootout};
use serde_json::{Value, json};

#[test]
fn the_html_report_renders_in_chromium_with_every_chart_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    shootout()
        .args([
            "run",
            "--packets",
            "400",
            "--runs",
            "2",
            "--warmup",
            "0",
            "--throughput-rounds",
            "1",
        ])
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
            .args(["--runs", "2", "--warmup", "0", "--throughput-rounds", "1", "--lang", language])
            .arg("--export-json")
            .arg(&path)
            .assert()
            .success();
        path
    };
    let (rust, go) = (run("rust"), run("go"));
    let page = dir.path().join("both.html");
    shootout().arg("report").args([&rust, &go]).arg("--export-html").arg(&page).assert().success();
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

/// `report --attach` adds the interop, evolution and robustness matrices and
/// study results as sections of their own, drawn without error.
#[test]
fn attached_matrices_are_sections_of_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    user_results(&path("results.json"));
    shootout()
        .args(["interop", "--workload", "user", "--records", "200", "--lang", "rust"])
        .arg("--export-json")
        .arg(path("interop.json"))
        .assert()
        .success();
    shootout().arg("evolution").arg("--export-json").arg(path("evolution.json")).assert().success();
    robustness(dir.path(), "protobuf-prost,bincode")
        .arg("--export-json")
        .arg(path("robustness.json"))
        .assert()
        .success();
    iex_study(dir.path()).arg("--export-json").arg(path("study.json")).assert().success();
    replay(dir.path()).arg("--export-json").arg(path("replay.json")).assert().success();
    // The same study again under another name: a section each.
    let study = json_file(&path("study.json"));
    let mut again = study.clone();
    again["study"] = "iex-2019-again".into();
    std::fs::write(path("again.json"), again.to_string()).unwrap();
    shootout()
        .arg("report")
        .arg(path("results.json"))
        .arg("--attach")
        .arg(path("interop.json"))
        .arg("--attach")
        .arg(path("evolution.json"))
        .arg("--attach")
        .arg(path("robustness.json"))
        .arg("--attach")
        .arg(path("study.json"))
        .arg("--attach")
        .arg(path("again.json"))
        .arg("--attach")
        .arg(path("replay.json"))
        .arg("--export-html")
        .arg(path("page.html"))
        .assert()
        .success();
    if let Some(dom) = check_in_chromium(&path("page.html")) {
        assert_replay_section(&dom, &json_file(&path("replay.json")));
        for section in [
            "<section id=\"interop\"",
            "<section id=\"evolution\"",
            "<section id=\"robustness\"",
            "id=\"interop-protobuf\"",
            "<a href=\"#study-iex-2019\">",
            "<a href=\"#study-iex-2019-again\">",
        ] {
            assert!(dom.contains(section), "no {section} in the page");
        }
        assert!(dom.contains("silent ["), "the evolution matrix shows its silent cells with notes");
        assert_study_section(&dom, &study);
        assert_study_section(&dom, &again);
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

/// `interop`, `evolution`, `robustness`, `study` and `replay --export-html` write the report page
/// with their matrix or result, exactly as `--export-json` writes it, as its
/// one section.
#[test]
fn a_matrix_or_study_alone_is_a_page_of_its_one_section() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    // Each page named after the section it should hold.
    let export_both = |mut command: assert_cmd::Command, section: &str| {
        command
            .arg("--export-json")
            .arg(path(&format!("{section}.json")))
            .arg("--export-html")
            .arg(path(&format!("{section}.html")))
            .assert()
            .success();
    };
    let mut interop = shootout();
    interop.args(["interop", "--lang", "rust", "--formats", "protobuf", "--max-records", "20"]);
    export_both(interop, "interop");
    let mut evolution = shootout();
    evolution.args(["evolution", "--formats", "rkyv,bson"]);
    export_both(evolution, "evolution");
    export_both(robustness(dir.path(), "protobuf-prost,bincode"), "robustness");
    export_both(iex_study(dir.path()), "study-iex-2019");
    export_both(replay(dir.path()), "replay");
    for matrix in ["interop", "evolution", "robustness", "study-iex-2019", "replay"] {
        let page = path(&format!("{matrix}.html"));
        let exported = json_file(&path(&format!("{matrix}.json")));
        let data = embedded_data(&page);
        assert_eq!(data["attachments"], json!([exported]), "{matrix}");
        assert_eq!(data.get("formats"), None, "{matrix}: a page without results");
        let Some(dom) = rendered_in_chromium(&page) else {
            continue;
        };
        assert!(
            dom.contains(&format!("<title>shootout: {matrix}</title>"))
                && dom.contains(&format!("<section id=\"{matrix}\"")),
            "{matrix}: no section of its own"
        );
        assert!(
            !dom.contains("<section id=\"throughput\""),
            "{matrix}: a results section on a page without results"
        );
        if matrix == "evolution" {
            let links = dom.matches("href=\"#evolution-finding-").count();
            assert!(links > 0, "rkyv's findings are shown");
            for number in 1..=links {
                assert!(
                    dom.contains(&format!("id=\"evolution-finding-{number}\"")),
                    "finding {number} is linked to, and spelled out"
                );
            }
        }
        if matrix == "study-iex-2019" {
            assert_study_section(&dom, &exported);
        }
        if matrix == "replay" {
            assert_replay_section(&dom, &exported);
        }
    }
}

/// An attached matrix is a file from anywhere: its names, rules, messages and
/// paths are drawn as text, so they can neither end the page's data nor add
/// markup. Either would run the hostile `reportError`, which the check sees.
#[test]
fn hostile_strings_in_attached_matrices_are_drawn_as_text() {
    const HOSTILE: &str = "</script><script>reportError('left the data')</script>\
                           <img src=x onerror=\"reportError('ran markup')\">";
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    user_results(&path("results.json"));
    shootout()
        .args(["evolution", "--formats", "rkyv"])
        .arg("--export-json")
        .arg(path("evolution.json"))
        .assert()
        .success();
    robustness(dir.path(), "bincode")
        .arg("--export-json")
        .arg(path("robustness.json"))
        .assert()
        .success();
    iex_study(dir.path()).arg("--export-json").arg(path("study.json")).assert().success();
    replay(dir.path()).arg("--export-json").arg(path("replay.json")).assert().success();
    let hostile = |name: &str, edit: &dyn Fn(&mut Value)| {
        let mut matrix = json_file(&path(name));
        edit(&mut matrix);
        let hostile = path(&format!("hostile-{name}"));
        std::fs::write(&hostile, matrix.to_string()).unwrap();
        hostile
    };
    let evolution = hostile("evolution.json", &|m| {
        m["changes"][0]["description"] = HOSTILE.into();
        // Every record an error, as the outcome says: an attached matrix must add up.
        let errors = serde_json::json!({ "ok": 0, "error": m["records"], "silent": 0, "panic": 0 });
        let format = &mut m["formats"][0];
        format["name"] = HOSTILE.into();
        format["rules"] = HOSTILE.into();
        for cell in format["cells"].as_array_mut().unwrap() {
            cell["outcome"] = "error".into();
            cell["message"] = HOSTILE.into();
            cell["records"] = errors.clone();
        }
    });
    let robustness = hostile("robustness.json", &|m| {
        m["source"] = HOSTILE.into();
        m["reproducers"] = HOSTILE.into();
        m["formats"][0]["name"] = HOSTILE.into();
    });
    // Strings from every part of the study's section.
    let study_strings = [
        "/published/title",
        "/published/method",
        "/published/tables/0/title",
        "/published/tables/0/rows/0/label",
        "/published/tables/0/columns/0/title",
        "/published/tables/0/columns/3/incomparable",
        "/figures/variants/0/tables/0/columns/0/title",
        "/figures/variants/0/tables/2/rows/0/values/study_reads_in_place",
        "/verdicts",
        "/figures/variants/1/title",
        "/figures/variants/1/tables/0/rows/0/label",
        "/checks/0/claim",
        "/checks/0/evidence",
        "/answers/0/answer",
        "/figures/departures/0",
        "/command/0",
    ];
    let study = hostile("study.json", &|m| {
        for pointer in study_strings {
            *m.pointer_mut(pointer).unwrap_or_else(|| panic!("no {pointer}")) = HOSTILE.into();
        }
        m["checks"][1]["verdict"] = HOSTILE.into();
    });
    let replay = hostile("replay.json", &|m| {
        m["input"]["name"] = HOSTILE.into();
        // Into the runs the rows are computed from, as `report` computes them again.
        m["languages"][0]["runs"][0]["format"] = HOSTILE.into();
        m["languages"][0]["runs"][1]["error"] = HOSTILE.into();
        m["languages"][0]["clock"] = HOSTILE.into();
        m["not_run"] =
            serde_json::json!([{ "language": HOSTILE, "format": HOSTILE, "reason": HOSTILE }]);
    });
    shootout()
        .arg("report")
        .arg(path("results.json"))
        .arg("--attach")
        .arg(&replay)
        .arg("--attach")
        .arg(&evolution)
        .arg("--attach")
        .arg(&robustness)
        .arg("--attach")
        .arg(&study)
        .arg("--export-html")
        .arg(path("page.html"))
        .assert()
        .success();
    if let Some(dom) = check_in_chromium(&path("page.html")) {
        // Chromium writes `<` as `&lt;` in text and, since version 138, in attributes too.
        let text = without_scripts(&dom);
        assert!(!text.contains("<img"), "markup from a matrix reached the page");
        assert!(
            text.matches("&lt;img src=x").count() >= 4,
            "the hostile strings are shown, as text"
        );
        let section = section_of(&text, "replay").expect("the replay's section");
        assert!(
            section.matches("&lt;img src=x").count() >= 7,
            "the replay's hostile strings are shown, as text: {section}"
        );
        let section = section_of(&text, "study-iex-2019").expect("the study's section");
        assert!(
            section.matches("&lt;img src=x").count() > study_strings.len(),
            "each of the study's hostile strings is shown, as text: {section}"
        );
    }
}

/// One quick run's results file, of every format on a few `user` records.
fn user_results(path: &Path) {
    shootout()
        .args(["run", "--workload", "user", "--records", "200"])
        .args(["--runs", "1", "--warmup", "0", "--throughput-rounds", "1"])
        .arg("--export-json")
        .arg(path)
        .assert()
        .success();
}

/// `shootout robustness` on a few `user` records, its reproducers in `dir`.
fn robustness(dir: &Path, formats: &str) -> assert_cmd::Command {
    let mut command = shootout();
    command
        .args(["robustness", "--workload", "user", "--records", "200"])
        .args(["--formats", formats, "--cases", "200", "--sample", "20"])
        .arg("--reproducers")
        .arg(dir.join("reproducers"));
    command
}

/// A quick `shootout replay` of two formats on a small generated capture, written in `dir`.
fn replay(dir: &Path) -> assert_cmd::Command {
    let capture = dir.join("replayed.pcap");
    std::fs::write(&capture, crate::common::generated_capture(2_000)).unwrap();
    let mut command = shootout();
    command
        .args(["replay", "--formats", "bincode,json-serde_json", "--speed", "20,100,max"])
        .args(["--seconds", "0.1", "--max-records", "1000", "--warmup-records", "100", "--input"])
        .arg(capture);
    command
}

/// `shootout study iex-2019 --quick` on a small generated capture, written in `dir`.
fn iex_study(dir: &Path) -> assert_cmd::Command {
    let capture = dir.join("capture.pcap");
    std::fs::write(&capture, crate::common::generated_capture(2_000)).unwrap();
    let mut command = shootout();
    command.args(["study", "iex-2019", "--quick", "--input"]).arg(capture);
    command
}

/// A rendered study's section holds, from its `study --export-json`: every
/// published table with each of its rows, our other variants labelled as
/// ours, each conclusion beside its verdict's marker, each answer and each
/// departure.
fn assert_study_section(dom: &str, study: &Value) {
    let name = study["study"].as_str().unwrap();
    let section = section_of(dom, &format!("study-{name}"))
        .unwrap_or_else(|| panic!("no section for study {name}"));
    // Text as Chromium writes it in the DOM.
    let text = |value: &Value| {
        value.as_str().unwrap().replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
    };
    let array = |value: &Value| value.as_array().unwrap().clone();
    for table in array(&study["published"]["tables"]) {
        let heading =
            format!("<h4>{}: the study's figure, ours, ours/study</h4>", text(&table["title"]));
        assert!(section.contains(&heading), "{name}: no {heading}");
        for row in array(&table["rows"]) {
            let label = format!("<tr><th>{}</th>", text(&row["label"]));
            assert!(section.contains(&label), "{name}: no row {label}");
        }
    }
    for variant in &array(&study["figures"]["variants"])[1..] {
        let heading = format!(
            "<h3><span class=\"ours-mark\">ours</span> variant: {}</h3>",
            text(&variant["id"])
        );
        assert!(section.contains(&heading), "{name}: no {heading}");
    }
    let marks = [
        ("reproduced", "✓ reproduced"),
        ("reversed", "✗ reversed"),
        ("not-reproduced", "≠ not reproduced"),
        ("not-decided", "? not decided"),
    ];
    for check in array(&study["checks"]) {
        let verdict = check["verdict"].as_str().unwrap();
        let (_, mark) = marks.iter().find(|(v, _)| *v == verdict).unwrap();
        let row = format!(
            "<tr><td><span class=\"verdict {verdict}\">{mark}</span></td><td>{}",
            text(&check["claim"])
        );
        assert!(section.contains(&row), "{name}: no {row}");
        assert!(section.contains(&format!("<td>{}</td>", text(&check["evidence"]))));
    }
    for answer in array(&study["answers"]) {
        assert!(section.contains(&format!("<dd>{}</dd>", text(&answer["answer"]))));
    }
    let departures = array(&study["figures"]["departures"]);
    assert!(!departures.is_empty());
    for departure in departures {
        assert!(section.contains(&format!("<li>{}</li>", text(&departure))));
    }
}

/// The section `id` of a DOM, from its start tag to its end.
/// A rendered replay section: both charts drawn with every run that has a
/// point on them, and a row of the runs table per run.
fn assert_replay_section(dom: &str, replay: &Value) {
    let section = section_of(dom, "replay").expect("the replay's section");
    let points: serde_json::Map<String, Value> =
        serde_json::from_str(&root_attribute(dom, "data-chart-points").expect("charts drawn"))
            .unwrap();
    let rows = replay["rows"].as_array().unwrap();
    // The default pick is every series of so few; points are counted whether shown or not.
    let finite_ring_or_udp = rows.iter().filter(|r| r["speed"] != "max").count() as u64;
    assert_eq!(points.get("replay-rate").and_then(Value::as_u64), Some(finite_ring_or_udp / 2));
    assert!(points.get("replay-percentiles").and_then(Value::as_u64) > Some(0), "{points:?}");
    for row in rows {
        let format = row["format"].as_str().unwrap();
        assert!(section.contains(&format!("<td>{format}</td>")), "no row of {format}");
    }
    assert_eq!(
        section.matches("<tr><td>rust</td>").count(),
        rows.len() + 2,
        "a row per run and per format's sustainable rate"
    );
}

fn section_of<'a>(dom: &'a str, id: &str) -> Option<&'a str> {
    let start = dom.find(&format!("<section id=\"{id}\""))?;
    let end = dom[start..].find("</section>")?;
    Some(&dom[start..start + end])
}

fn json_file(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The figures a page embeds for its script.
fn embedded_data(page: &Path) -> Value {
    let html = std::fs::read_to_string(page).unwrap();
    let start = html
        .find(r#"<script id="report-data" type="application/json">"#)
        .expect("the page embeds its data");
    let data = &html[start..];
    let data = &data[data.find('>').unwrap() + 1..data.find("</script>").unwrap()];
    serde_json::from_str(data).unwrap()
}

/// The page needs no network, renders with no error, and writes no object
/// as text. The DOM, when rendered.
pub(crate) fn rendered_in_chromium(page: &Path) -> Option<String> {
    let html = std::fs::read_to_string(page).unwrap();
    assert!(
        !html.contains("src=\"http") && !html.contains("href=\"http"),
        "the report must need no network to view"
    );
    let dom = chromium_dom(page)?;
    assert_eq!(root_attribute(&dom, "data-errors"), None, "the page reported errors");
    assert_eq!(root_attribute(&dom, "data-rendered").as_deref(), Some("yes"));
    assert!(!without_scripts(&dom).contains("[object "), "an element was written as text");
    Some(dom)
}

/// A rendered page of results: every chart has data, and the
/// speed-against-size chart names its front. The DOM, when rendered.
fn check_in_chromium(page: &Path) -> Option<String> {
    let dom = rendered_in_chromium(page)?;
    let points: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&root_attribute(&dom, "data-chart-points").expect("charts drawn"))
            .unwrap();
    for chart in
        ["throughput-encode", "throughput-decode", "latency", "size", "speed-size", "allocations"]
    {
        let drawn = points.get(chart).and_then(|n| n.as_u64());
        assert!(drawn > Some(0), "chart {chart} has no data: {points:?}");
    }
    assert!(
        dom.contains("Pareto front (decode): "),
        "the speed-against-size chart names its front"
    );
    let verdict = section_of(&dom, "verdict").expect("the page opens with the verdict");
    assert!(verdict.contains("<li>fastest decode: "), "the verdict names the fastest: {verdict}");
    let verdict_at = dom.find("<section id=\"verdict\"").unwrap();
    assert!(
        dom.find("<section id=\"throughput\"").is_some_and(|charts| verdict_at < charts),
        "the verdict comes before the charts"
    );
    assert!(
        dom.contains("<details class=\"method\"><summary>How these figures were taken</summary>"),
        "the method is folded beneath the verdict"
    );
    Some(dom)
}

/// An attribute of the page's root element as the DOM dump writes it.
fn root_attribute(dom: &str, name: &str) -> Option<String> {
    let root = &dom[dom.find("<html")?..];
    let root = &root[..root.find('>')?];
    let start = root.find(&format!(" {name}=\""))? + name.len() + 3;
    let value = &root[start..];
    Some(value[..value.find('"')?].replace("&quot;", "\"").replace("&amp;", "&"))
}

/// The DOM without its script elements (the chart library's source among them).
fn without_scripts(dom: &str) -> String {
    let mut rest = dom;
    let mut out = String::new();
    while let Some(start) = rest.find("<script") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("</script>").map_or(rest.len(), |e| start + e + 9);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The page's "library maintained" filter: it names how many rows it hides
/// and lists each row labelled unmaintained with its evidence, as text even
/// when a results file's label is markup.
#[test]
fn the_page_filters_on_libraries_labelled_unmaintained() {
    const HOSTILE: &str = "<img src=x onerror=\"reportError('ran markup')\">";
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("sql.json");
    shootout()
        .args(["run", "--workload", "sql", "--records", "200", "--runs", "1", "--warmup", "0"])
        .args(["--throughput-rounds", "1"])
        .args(["--formats", "bincode,speedy,postcard"])
        .arg("--export-json")
        .arg(&results)
        .assert()
        .success();
    let mut value = json_file(&results);
    let speedy = value["formats"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|f| f["name"] == "speedy")
        .expect("a speedy row");
    speedy["labels"]["unmaintained"] = HOSTILE.into();
    std::fs::write(&results, value.to_string()).unwrap();
    let page = dir.path().join("page.html");
    shootout().arg("report").arg(&results).arg("--export-html").arg(&page).assert().success();
    let data = embedded_data(&page);
    let unmaintained: Vec<(&str, &str)> = data["formats"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| Some((f["name"].as_str()?, f["unmaintained"].as_str()?)))
        .collect();
    assert_eq!(unmaintained.len(), 2, "{unmaintained:?}");
    assert!(unmaintained.contains(&("speedy", HOSTILE)), "{unmaintained:?}");
    assert!(
        unmaintained
            .iter()
            .any(|(name, why)| *name == "bincode" && why.starts_with("RUSTSEC-2025-0141"))
    );
    if let Some(dom) = rendered_in_chromium(&page) {
        let text = without_scripts(&dom);
        assert!(text.contains("maintained only (hides 2)"), "the filter counts what it hides");
        let listed = &text[text.find("id=\"unmaintained-rows\"").expect("the list of evidence")..];
        let listed = &listed[..listed.find("</p>").unwrap()];
        assert!(listed.contains("bincode (bincode): RUSTSEC-2025-0141"), "{listed}");
        assert!(listed.contains("speedy (speedy): &lt;img src=x"), "{listed}");
        assert!(!text.contains("<img"), "markup from a results file reached the page");
    }
}
