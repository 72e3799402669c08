//! `--schema FILE.proto[#Message] | FILE.avsc`: the user's schema read and
//! compiled (protox, a protobuf compiler in Rust, so no protoc is needed).
//! The schema and every file it imports are regular files inside the
//! schema's folder, each read whole within [`SCHEMA_FILE`] and all together
//! within [`SCHEMA_FILES`].

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Result, bail};
use protox::file::{ChainFileResolver, File, FileResolver, GoogleFileResolver};

use crate::input::source::{Cap, SCHEMA_FILE, SCHEMA_FILES, open_regular, read_whole};
use crate::sanitize::excerpt;
use crate::workload::jsonl::schema::{AvroSchema, Given, ProtobufSchema};

/// The file and the message `--schema` names: `FILE.proto#Message`, or a file alone.
pub fn split(arg: &str) -> (&Path, Option<&str>) {
    match arg.rsplit_once('#') {
        Some((path, message)) if path.ends_with(".proto") => (Path::new(path), Some(message)),
        _ => (Path::new(arg), None),
    }
}

/// Reads the schema `arg` names: a `.proto` (with `#Message` to name the
/// record message) or an `.avsc`.
pub fn load(arg: &str) -> Result<Given> {
    let (path, message) = split(arg);
    let file = path
        .file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let named = format!("--schema {}", path.display());
    match path.extension().and_then(|e| e.to_str()) {
        Some("proto") => {
            open_regular(path, &named)?;
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let mut resolver = ChainFileResolver::new();
            resolver.add(Folder { dir: dir.to_owned(), read: Cell::new(0) });
            resolver.add(GoogleFileResolver::new());
            let mut compiler = protox::Compiler::with_file_resolver(resolver);
            compiler.include_imports(true);
            if let Err(error) = compiler.open_file(&file) {
                let source = read_whole(path, &named, &SCHEMA_FILE)
                    .ok()
                    .and_then(|text| String::from_utf8(text).ok());
                let named = error.file().is_none_or(|f| f == file);
                bail!("--schema: {}", compiled_error(&error, source.as_deref().filter(|_| named)));
            }
            let schema = ProtobufSchema::new(
                file.clone(),
                compiler.encode_file_descriptor_set(),
                &file,
                message,
            )
            .map_err(anyhow::Error::msg)?;
            Ok(Given::Protobuf(Arc::new(schema)))
        }
        Some("avsc") => {
            let text = utf8(read_whole(path, &named, &SCHEMA_FILE)?, &named)?;
            Ok(Given::Avro(Arc::new(AvroSchema::new(file, text).map_err(anyhow::Error::msg)?)))
        }
        _ => bail!(
            "--schema {}: expected a .proto (FILE.proto or FILE.proto#Message) or an .avsc file",
            crate::sanitize::elide(arg)
        ),
    }
}

/// A schema's text, or one line naming the first byte that is not UTF-8.
fn utf8(bytes: Vec<u8>, name: &str) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!("{name}: byte {}: not UTF-8 text", e.utf8_error().valid_up_to())
    })
}

/// A `.proto`'s folder, as protoc's include path would be, but reading only
/// regular files, each and all within their caps, so no import can read
/// `/dev/zero`, wait on a FIFO or fill memory. No import leaves the folder:
/// protox's parser refuses an absolute one or one with a `..` part first.
struct Folder {
    dir: PathBuf,
    /// Bytes of the files read so far.
    read: Cell<u64>,
}

/// The `.proto` and its imports, together.
const ALL_SCHEMA_FILES: Cap =
    Cap { what: "a schema and its imports together", bytes: SCHEMA_FILES };

impl FileResolver for Folder {
    fn open_file(&self, name: &str) -> Result<File, protox::Error> {
        let path = self.dir.join(name);
        if !path.exists() {
            // Not here: protox's own google/protobuf/*.proto may have it.
            return Err(protox::Error::file_not_found(name));
        }
        let shown = path.display().to_string();
        let failed = |e: anyhow::Error| protox::Error::new(format!("{e:#}"));
        let bytes = read_whole(&path, &shown, &SCHEMA_FILE).map_err(failed)?;
        self.read.set(self.read.get() + bytes.len() as u64);
        if self.read.get() > SCHEMA_FILES {
            let found = format!("more than {SCHEMA_FILES} bytes with the files read before it");
            return Err(failed(ALL_SCHEMA_FILES.exceeded(&shown, &found)));
        }
        File::from_source(name, &utf8(bytes, &shown).map_err(failed)?)
    }
}

/// protox's error, on one line: the file, the line and column it points at
/// (`source`: the text of the file it names, when that is the one compiled),
/// and the message.
fn compiled_error(error: &protox::Error, source: Option<&str>) -> String {
    use miette::Diagnostic as _;
    let label = error.labels().and_then(|mut labels| labels.next());
    let offset = label.as_ref().map(|label| label.offset());
    // protox-parse calls an import it refuses (an absolute path, a `.` or
    // `..` part, a backslash) an "invalid group name"; its help says which.
    let outside = error.help().is_some_and(|help| help.to_string().starts_with("imports may not"));
    let message = match outside {
        true => {
            let literal = label
                .zip(source)
                .and_then(|(label, text)| text.get(label.offset()..label.offset() + label.len()));
            let import = literal.map_or(String::new(), |l| excerpt(l.trim_matches('"')) + " ");
            format!(
                "import {import}is outside the schema's folder: an import is a path below it, without '.' or '..' parts or backslashes"
            )
        }
        false => error.to_string(),
    };
    let place = match (offset, source) {
        (Some(offset), Some(text)) => {
            let before = &text.as_bytes()[..offset.min(text.len())];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let column =
                before.len() - before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) + 1;
            format!("line {line}, column {column}: ")
        }
        _ => String::new(),
    };
    match error.file() {
        Some(file) => format!("{file}: {place}{message}"),
        None => format!("{place}{message}"),
    }
}

/// A `.proto` held in memory, compiled.
pub(super) fn compile_text(name: &'static str, source: String) -> Result<ProtobufSchema, String> {
    struct OneFile(&'static str, String);
    impl FileResolver for OneFile {
        fn open_file(&self, name: &str) -> Result<File, protox::Error> {
            if name == self.0 {
                File::from_source(name, &self.1)
            } else {
                Err(protox::Error::file_not_found(name))
            }
        }
    }
    let mut compiler = protox::Compiler::with_file_resolver(OneFile(name, source.clone()));
    compiler.include_imports(true);
    compiler.open_file(name).map_err(|e| compiled_error(&e, Some(&source)))?;
    ProtobufSchema::new(name.into(), compiler.encode_file_descriptor_set(), name, Some("Row"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::jsonl::Value;

    #[test]
    fn the_schema_argument_is_a_proto_or_an_avsc() {
        let error = |arg: &str| load(arg).err().unwrap().to_string();
        assert!(error("x.json").contains("expected a .proto"), "{}", error("x.json"));
        assert!(
            error("/nonexistent/x.proto").starts_with("--schema /nonexistent/x.proto: cannot read")
        );
        assert!(
            error("/nonexistent/x.avsc").starts_with("--schema /nonexistent/x.avsc: cannot read")
        );
    }

    const EDGES_PROTO: &str = r#"syntax = "proto3";
package t;
enum E { ZERO = 0; ONE = 1; }
message R {
  uint64 big = 1;
  float f = 2;
  double d = 3;
  bytes b = 4;
  E e = 5;
  map<int32, string> m = 6;
  oneof choice { string s = 7; int32 i = 8; }
  optional int32 o = 9;
  repeated R kids = 10;
  sint64 neg = 11;
  int32 my_field = 12;
}
"#;

    fn projected(given: &Given, line: &str) -> Result<String, String> {
        match given.project(&Value::parse(line.as_bytes()).unwrap()) {
            Ok(value) => Ok(value.text()),
            Err(violations) => {
                Err(violations.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
            }
        }
    }

    #[test]
    fn protobuf_records_project_as_the_spec_says() {
        let schema = ProtobufSchema::new(
            "edges.proto".into(),
            {
                let mut compiler =
                    protox::Compiler::with_file_resolver(OneFileForTest(EDGES_PROTO));
                compiler.include_imports(true);
                compiler.open_file("edges.proto").unwrap();
                compiler.encode_file_descriptor_set()
            },
            "edges.proto",
            Some("R"),
        )
        .unwrap();
        let given = Given::Protobuf(Arc::new(schema));
        let cases = [
            (r#"{"big":18446744073709551615}"#, r#"{"big":18446744073709551615}"#),
            (r#"{"f":0.1}"#, r#"{"f":0.10000000149011612}"#),
            (r#"{"d":-0.0}"#, r#"{"d":-0.0}"#),
            (r#"{"d":0.0,"big":0,"e":"ZERO","b":"","kids":[]}"#, "{}"),
            (r#"{"d":5}"#, r#"{"d":5.0}"#),
            (r#"{"b":"-_8"}"#, r#"{"b":"+/8="}"#),
            (r#"{"e":7}"#, r#"{"e":7}"#),
            (r#"{"e":1}"#, r#"{"e":"ONE"}"#),
            (r#"{"m":{"-3":"x"}}"#, r#"{"m":{"-3":"x"}}"#),
            (r#"{"i":0}"#, r#"{"i":0}"#),
            (r#"{"o":0,"s":null}"#, r#"{"o":0}"#),
            (r#"{"kids":[{"neg":-1}]}"#, r#"{"kids":[{"neg":-1}]}"#),
            (r#"{"myField":3}"#, r#"{"my_field":3}"#),
        ];
        for (line, projection) in cases {
            assert_eq!(projected(&given, line).as_deref(), Ok(projection), "{line}");
        }
        let violations = [
            (r#"{"s":"a","i":1}"#, "i: oneof choice already has s"),
            (r#"{"big":-1}"#, "big: -1 is beyond uint64's range"),
            (r#"{"zzz":1}"#, "zzz: no such field in message t.R"),
            (r#"{"o":1,"o":2}"#, "o: the field is given twice"),
            (r#"{"kids":[{"f":1e300}]}"#, "kids[0].f: 1e+300 is beyond float's range"),
            (r#"{"m":{"x":"y"}}"#, r#"m["x"]: the key is not a int32"#),
            (r#"{"e":"TWO"}"#, r#"e: "TWO" names no value of enum t.E"#),
            (r#"{"b":"a"}"#, r#"b: "a" is not base64, the field is bytes"#),
            ("[1]", "the record: [1] is an array, the field is message t.R"),
        ];
        for (line, violation) in violations {
            assert_eq!(projected(&given, line), Err(violation.to_owned()), "{line}");
        }
    }

    struct OneFileForTest(&'static str);
    impl FileResolver for OneFileForTest {
        fn open_file(&self, name: &str) -> Result<File, protox::Error> {
            File::from_source(name, self.0)
        }
    }

    #[test]
    fn avro_records_project_as_the_spec_says() {
        let avsc = r#"{"type": "record", "name": "R", "namespace": "t", "fields": [
            {"name": "n", "type": ["null", "long"], "default": null},
            {"name": "recs", "type": {"type": "array", "items":
                {"type": "record", "name": "Item", "fields": [{"name": "x", "type": "int"}]}}},
            {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A", "B"]}},
            {"name": "fx", "type": {"type": "fixed", "name": "F", "size": 2}},
            {"name": "f", "type": "float", "default": 1.5},
            {"name": "b", "type": "bytes", "default": ""},
            {"name": "m", "type": {"type": "map", "values": ["null", "string"]}, "default": {}},
            {"name": "again", "type": ["null", "Item"], "default": null}
        ]}"#;
        let given =
            Given::Avro(Arc::new(AvroSchema::new("edges.avsc".into(), avsc.into()).unwrap()));
        let cases = [
            (
                r#"{"n":5,"recs":[{"x":1}],"e":"B","fx":"AAE=","f":0.1,"b":"AQ","m":{"k":null,"j":"v"},"again":{"x":2}}"#,
                r#"{"n":5,"recs":[{"x":1}],"e":"B","fx":"AAE=","f":0.10000000149011612,"b":"AQ==","m":{"j":"v","k":null},"again":{"x":2}}"#,
            ),
            (
                r#"{"recs":[],"e":"A","fx":"AAA=","n":null}"#,
                r#"{"recs":[],"e":"A","fx":"AAA=","f":1.5,"b":"","m":{}}"#,
            ),
        ];
        for (line, projection) in cases {
            assert_eq!(projected(&given, line).as_deref(), Ok(projection), "{line}");
        }
        let violations = [
            (
                r#"{"e":"A","fx":"AAA="}"#,
                "recs: missing, and the field (array of record t.Item) has no default",
            ),
            (r#"{"recs":[],"e":"C","fx":"AAA="}"#, r#"e: "C" names no symbol of enum t.E"#),
            (
                r#"{"recs":[],"e":"A","fx":"AAAA"}"#,
                r#"fx: "AAAA" is not the base64 of 2 bytes, the field is fixed t.F (2 bytes)"#,
            ),
            (
                r#"{"recs":[{"x":2147483648}],"e":"A","fx":"AAA="}"#,
                "recs[0].x: 2147483648 is beyond int's range",
            ),
            (r#"{"recs":[],"e":"A","fx":"AAA=","zz":1}"#, "zz: no such field in record t.R"),
        ];
        for (line, violation) in violations {
            assert_eq!(projected(&given, line), Err(violation.to_owned()), "{line}");
        }
    }
}
