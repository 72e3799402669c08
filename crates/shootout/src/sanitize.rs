//! Text from outside on its way to a person: capture symbols, the names,
//! notes and labels of results files and runners, decoders' messages, error
//! values echoed from an input. Each medium has one function, and every such
//! string passes through it where it is drawn, so that no byte of it can act
//! as a terminal command or as markup. HTML needs none: the report page's
//! script draws every string as an element's text (export/html.rs).

use std::borrow::Cow;

/// For a terminal. Control characters (C0 including ESC, which starts escape
/// and OSC sequences; DEL; C1, of which U+009B is a CSI on its own), a line
/// break inside a value (it would forge a line), and the bidirectional
/// overrides and isolates (they reorder the text around them on screen) are
/// shown as escapes: `\x1b`, `\n`, `\u{9b}`, `\u{202e}`. Every other
/// character, printable Unicode included, is kept. A backslash is kept as it
/// is: text already escaped (an error's quoted cell) is shown once, not twice.
pub fn terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_shown(&mut out, c);
    }
    Cow::Owned(out)
}

/// The characters a message line (an error, a warning) keeps: its head and
/// tail, with what lies between them counted.
const LINE_HEAD: usize = 250;
const LINE_TAIL: usize = 120;

/// For a terminal, one line of a message (an error, a warning, a schema
/// violation): shown as [`terminal`] shows it and, however long the values
/// in it, at most about 400 characters: a longer line keeps its head (the
/// file and the place) and its tail (what was expected), and says how many
/// characters it left out between them.
pub fn line(text: &str) -> Cow<'_, str> {
    let shown = terminal(text);
    let length = shown.chars().count();
    if length <= LINE_HEAD + LINE_TAIL + 40 {
        return shown;
    }
    let head: String = shown.chars().take(LINE_HEAD).collect();
    let tail: String = shown.chars().skip(length - LINE_TAIL).collect();
    let left_out = length - LINE_HEAD - LINE_TAIL;
    Cow::Owned(format!("{head} … ({left_out} characters left out) … {tail}"))
}

/// For Markdown, a table cell or running text: shown as [`terminal`] shows
/// it, then every character that can end a cell or start markup made
/// literal: `|`, backslash (so no escape of ours is undone), backticks and
/// brackets (links, images) escaped with a backslash; `<`, `>` and `&` as
/// entities, so `<script>` and `<img onerror>` render as text. Emphasis
/// (`*`, `_`) is left alone: it styles a name, it cannot add to it, and
/// `serde_json` reads better unescaped.
pub fn markdown(text: &str) -> Cow<'_, str> {
    let shown = terminal(text);
    if !shown.contains(MARKDOWN_PUNCTUATION) {
        return shown;
    }
    let mut out = String::with_capacity(shown.len() + 8);
    for c in shown.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            c if MARKDOWN_PUNCTUATION.contains(&c) => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// For JSON text bound for standard output, which may be a terminal. JSON
/// writers escape C0 controls but leave DEL, C1 controls and the
/// bidirectional overrides raw; outside its strings JSON text holds none of
/// them, so each is written as its `\u` escape: the same JSON value, inert.
pub fn json(text: &str) -> Cow<'_, str> {
    // The whitespace between tokens is the writer's own; inside strings it is escaped already.
    let raw = |c: char| hidden(c) && !c.is_ascii_whitespace();
    if !text.chars().any(raw) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if raw(c) {
            use std::fmt::Write;
            write!(out, "\\u{:04x}", u32::from(c)).expect("writing to a String");
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// For a text cell of a CSV export, before the csv writer quotes it (RFC
/// 4180: a cell holding a comma, quote or line break is quoted, its quotes
/// doubled). Control characters are shown as [`terminal`] shows them, so
/// every row stays one line and the file can go to a terminal (`-`); a cell
/// starting with `=`, `+`, `-` or `@` gets a leading `'`, so a spreadsheet
/// opening the file shows it rather than evaluating it as a formula.
pub fn csv(text: &str) -> Cow<'_, str> {
    let shown = terminal(text);
    match shown.starts_with(['=', '+', '-', '@']) {
        true => Cow::Owned(format!("'{shown}")),
        false => shown,
    }
}

/// A CSV writer that quotes as RFC 4180 asks: only the cells that need it.
pub fn csv_writer<W: std::io::Write>(out: W) -> ::csv::Writer<W> {
    ::csv::WriterBuilder::new().quote_style(::csv::QuoteStyle::Necessary).from_writer(out)
}

/// How much of a long value from outside a message quotes; the rest is cut,
/// its length said, so that no value makes a line longer than a screen.
pub const QUOTED_CHARS: usize = 40;

/// A value from outside as a message quotes it: escaped, in quotes, and when
/// long cut at [`QUOTED_CHARS`] characters with its length in characters.
pub fn excerpt(text: &str) -> String {
    let length = text.chars().count();
    match length > QUOTED_CHARS {
        true => format!("\"{}\" ({length} characters)", cut(text)),
        false => format!("\"{}\"", text.escape_debug()),
    }
}

/// The first [`QUOTED_CHARS`] characters of `text`, escaped, with `…` when there were more.
pub fn cut(text: &str) -> String {
    let head: String = text.chars().take(QUOTED_CHARS).collect();
    match head.len() < text.len() {
        true => format!("{}…", head.escape_debug()),
        false => head.escape_debug().to_string(),
    }
}

/// A cell, a name or a line from an input as a message shows it inline:
/// escaped, and when longer than [`QUOTED_CHARS`] bytes cut there with its
/// length in bytes.
pub fn elide(text: &str) -> String {
    if text.len() <= QUOTED_CHARS {
        return text.escape_debug().to_string();
    }
    let mut end = QUOTED_CHARS;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", text[..end].escape_debug(), text.len())
}

/// serde's messages quote the value they refused (`invalid type: string
/// "…", expected u64`), escaped as Rust debug strings: each quoted value
/// longer than [`QUOTED_CHARS`] is cut there, with `…`.
fn cut_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut chars = message.chars();
    while let Some(c) = chars.next() {
        out.push(c);
        if c != '"' {
            continue;
        }
        let mut kept = 0;
        let mut escaped = false;
        for c in chars.by_ref() {
            let closing = c == '"' && !escaped;
            escaped = c == '\\' && !escaped;
            if closing {
                if kept > QUOTED_CHARS {
                    out.push('…');
                }
                out.push('"');
                break;
            }
            kept += 1;
            if kept <= QUOTED_CHARS {
                out.push(c);
            }
        }
    }
    out
}

/// serde_json's message without the ` at line L column C` it ends with,
/// for a message that names the place its own way, each value it quotes cut.
pub fn json_problem(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    cut_quoted(message.strip_suffix(&position).unwrap_or(&message))
}

/// Why a JSON text is not `what` (`a shootout-interop/1 manifest`), as an
/// error says it after the file's name: `line L, column C: not WHAT (PROBLEM)`.
pub fn json_error(error: &serde_json::Error, what: &str) -> String {
    format!(
        "line {}, column {}: not {what} ({})",
        error.line(),
        error.column(),
        json_problem(error)
    )
}

/// The characters a listing in a message takes before it is cut.
const LISTING_CHARS: usize = 200;

/// Items from outside (column names, message names) listed in a message,
/// joined by `, ` and cut after about [`LISTING_CHARS`] characters with the
/// number left out, so a listing of 100,000 names is still a short line.
/// Each item is shown as it comes: cut it first ([`elide`]) if it can be long.
pub fn listing<T: AsRef<str>>(items: impl IntoIterator<Item = T>) -> String {
    let mut shown = String::new();
    let mut left_out = 0u64;
    for item in items {
        let item = item.as_ref();
        if left_out > 0 || shown.chars().count() + item.chars().count() > LISTING_CHARS {
            left_out += 1;
            continue;
        }
        if !shown.is_empty() {
            shown.push_str(", ");
        }
        shown.push_str(item);
    }
    match left_out {
        0 => shown,
        n => format!("{shown}, … ({n} more)"),
    }
}

const MARKDOWN_PUNCTUATION: &[char] = &['|', '\\', '`', '[', ']', '<', '>', '&'];

/// Whether `c` is shown escaped rather than as itself.
fn hidden(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn push_shown(out: &mut String, c: char) {
    use std::fmt::Write;
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if c.is_ascii() && hidden(c) => {
            write!(out, "\\x{:02x}", u32::from(c)).expect("writing to a String");
        }
        c if hidden(c) => write!(out, "\\u{{{:x}}}", u32::from(c)).expect("writing to a String"),
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_terminal_sees_control_characters_as_escapes() {
        assert_eq!(terminal("\x1b]0;owned\x07"), "\\x1b]0;owned\\x07");
        assert_eq!(terminal("\x1b[2J"), "\\x1b[2J");
        assert_eq!(terminal("a\nb\r\tc\x7f"), "a\\nb\\r\\tc\\x7f");
        assert_eq!(terminal("\u{9b}31m \u{85}"), "\\u{9b}31m \\u{85}");
        assert_eq!(terminal("abc\u{202e}fed"), "abc\\u{202e}fed");
    }

    #[test]
    fn the_terminal_keeps_printable_text_and_backslashes_as_they_are() {
        for text in ["AAPL", "é ± ≈ … 日本", "C:\\dir", "a \\n b", ""] {
            assert!(matches!(terminal(text), Cow::Borrowed(t) if t == text), "{text}");
        }
        let once = terminal("\x1bx");
        assert_eq!(terminal(&once), once, "shown twice, shown the same");
    }

    #[test]
    fn markdown_renders_markup_and_cell_breaks_as_text() {
        assert_eq!(markdown("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
        assert_eq!(markdown("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;");
        assert_eq!(markdown("a|b"), "a\\|b");
        assert_eq!(
            markdown("[x](javascript:1) ![i](x) `c` &amp;"),
            "\\[x\\](javascript:1) !\\[i\\](x) \\`c\\` &amp;amp;"
        );
        assert_eq!(markdown("a\\|b"), "a\\\\\\|b", "a backslash cannot undo the escape");
        assert_eq!(markdown("two\nlines\x1b"), "two\\\\nlines\\\\x1b");
        assert!(matches!(markdown("json-serde_json 1.0"), Cow::Borrowed(_)));
    }

    #[test]
    fn json_keeps_its_value_and_shows_no_raw_control() {
        let value = serde_json::json!({ "symbol": "A\u{9b}31m\u{7f}\u{202e}\x1b\n" });
        let text = serde_json::to_string_pretty(&value).unwrap();
        let shown = json(&text);
        assert!(!shown.chars().any(|c| c.is_control() && c != '\n'), "{shown}");
        assert!(shown.contains("\\u009b31m\\u007f\\u202e\\u001b\\n"), "{shown}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&shown).unwrap(), value);
    }

    #[test]
    fn csv_cells_stay_on_one_line_and_are_never_formulas() {
        assert_eq!(csv("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        for lead in ["+1", "-1", "@SUM(A1)"] {
            assert_eq!(csv(lead), format!("'{lead}"));
        }
        assert_eq!(csv("a\r\nb\x1b"), "a\\r\\nb\\x1b");
        assert!(matches!(csv("json-serde_json"), Cow::Borrowed(_)));
    }

    #[test]
    fn the_csv_writer_quotes_as_rfc_4180_asks() {
        let mut writer = csv_writer(Vec::new());
        writer.write_record(["plain", "a,b", "say \"hi\"", &csv("x\ny")]).unwrap();
        let text = String::from_utf8(writer.into_inner().unwrap()).unwrap();
        assert_eq!(text, "plain,\"a,b\",\"say \"\"hi\"\"\",x\\ny\n");
    }

    #[test]
    fn long_or_multiline_text_in_errors_is_cut_and_escaped() {
        assert_eq!(elide("two\nlines, 'quoted'"), "two\\nlines, \\'quoted\\'");
        let long = "é".repeat(1000);
        let shown = elide(&long);
        assert!(shown.ends_with("… (2000 bytes)"), "{shown}");
        assert!(shown.len() < 60, "{shown}");
        assert_eq!(excerpt(&"x".repeat(41)), format!("\"{}…\" (41 characters)", "x".repeat(40)));
        assert_eq!(excerpt("a\"b"), "\"a\\\"b\"");
    }

    #[test]
    fn a_listing_stays_one_short_line_and_counts_what_it_left_out() {
        assert_eq!(listing(["a", "b"]), "a, b");
        let names: Vec<String> = (0..100_000).map(|i| format!("column_{i}")).collect();
        let shown = listing(&names);
        assert!(shown.starts_with("column_0, column_1, "), "{shown}");
        assert!(shown.ends_with(" more)"), "{shown}");
        assert!(shown.len() < 250, "{shown}");
        let kept = shown.matches(", ").count();
        assert!(shown.contains(&format!("({} more)", 100_000 - kept)), "{shown}");
    }

    #[test]
    fn a_message_line_keeps_its_head_and_tail_and_counts_the_rest() {
        assert!(matches!(line("t.csv: line 2: short"), Cow::Borrowed(_)));
        let long =
            format!("t.jsonl: line 1: {}: no such field in message t.R", "z".repeat(200_000));
        let shown = line(&long);
        assert!(shown.starts_with("t.jsonl: line 1: zzz"), "{shown}");
        assert!(shown.ends_with("zzz: no such field in message t.R"), "{shown}");
        assert!(shown.contains(" characters left out) … "), "{shown}");
        assert!(shown.chars().count() < 420, "{}", shown.chars().count());
        assert_eq!(line("a\x1bb"), "a\\x1bb");
    }

    #[test]
    fn long_quoted_values_are_cut_and_escapes_kept_whole() {
        let long = format!("invalid type: string \"{}\", expected u64", "x".repeat(100));
        assert_eq!(
            cut_quoted(&long),
            format!("invalid type: string \"{}…\", expected u64", "x".repeat(40))
        );
        let escaped = r#"invalid value: string "a\"b\\", expected a name"#;
        assert_eq!(cut_quoted(escaped), escaped);
    }
}
