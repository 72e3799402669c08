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
}
