//! `--schema`: a `jsonl` or `csv` run's records as messages of a protobuf or
//! Avro schema (docs/dataset-format.md, "With a schema"). Each record is
//! checked against the schema and replaced by its *projection*, the canonical
//! value of the message or generic record built from it, which is also what
//! the schema formats' decoders yield by walking what they decoded: so every
//! format, schemaless or not, runs and is validated on the same values.

pub mod avro;
pub mod protobuf;

use std::fmt;
use std::sync::Arc;

use super::{Value, ValueSink};
use crate::sanitize::{elide, excerpt};

pub use avro::AvroSchema;
pub use protobuf::ProtobufSchema;

/// The schemas a run has, each or the reason it has none.
#[derive(Clone)]
pub struct RecordSchemas {
    pub protobuf: Result<Arc<ProtobufSchema>, String>,
    pub avro: Result<Arc<AvroSchema>, String>,
}

/// Why a run has no protobuf schema when the user gave none.
pub const NO_PROTOBUF: &str =
    "no protobuf schema: run with --schema FILE.proto (a csv run builds one from its columns)";
/// Why a run has no Avro schema when the user gave none.
pub const NO_AVRO: &str =
    "no Avro schema: run with --schema FILE.avsc (a csv run builds one from its columns)";

impl Default for RecordSchemas {
    fn default() -> Self {
        RecordSchemas { protobuf: Err(NO_PROTOBUF.to_owned()), avro: Err(NO_AVRO.to_owned()) }
    }
}

impl RecordSchemas {
    /// The header's `record_schemas` (docs/dataset-format.md): each schema
    /// as the Go and JVM runners build theirs from it, or why there is none.
    pub fn handoff(&self) -> serde_json::Value {
        use base64::Engine as _;
        let protobuf = match &self.protobuf {
            Ok(schema) => serde_json::json!({
                "file": schema.file,
                "message": schema.message.full_name(),
                "descriptor_set": base64::engine::general_purpose::STANDARD.encode(&schema.descriptor_set),
            }),
            Err(reason) => serde_json::json!({ "reason": reason }),
        };
        let avro = match &self.avro {
            Ok(schema) => serde_json::json!({ "file": schema.file, "schema": schema.text }),
            Err(reason) => serde_json::json!({ "reason": reason }),
        };
        serde_json::json!({ "protobuf": protobuf, "avro": avro })
    }
}

impl RecordSchemas {
    /// The schemas [`RecordSchemas::handoff`] wrote.
    pub fn from_handoff(handoff: &serde_json::Value) -> Result<RecordSchemas, String> {
        use base64::Engine as _;
        let text = |value: &serde_json::Value, key: &str| {
            value[key].as_str().map(str::to_owned).ok_or_else(|| format!("{key} is not a string"))
        };
        let protobuf = &handoff["protobuf"];
        let protobuf = match protobuf.get("reason") {
            _ if protobuf.is_null() => Err(NO_PROTOBUF.to_owned()),
            Some(reason) => Err(reason.as_str().unwrap_or_default().to_owned()),
            None => {
                let file = text(protobuf, "file")?;
                let set = base64::engine::general_purpose::STANDARD
                    .decode(text(protobuf, "descriptor_set")?)
                    .map_err(|e| format!("descriptor_set: {e}"))?;
                let message = text(protobuf, "message")?;
                Ok(Arc::new(ProtobufSchema::new(file.clone(), set, &file, Some(&message))?))
            }
        };
        let avro = &handoff["avro"];
        let avro = match avro.get("reason") {
            _ if avro.is_null() => Err(NO_AVRO.to_owned()),
            Some(reason) => Err(reason.as_str().unwrap_or_default().to_owned()),
            None => Ok(Arc::new(AvroSchema::new(text(avro, "file")?, text(avro, "schema")?)?)),
        };
        Ok(RecordSchemas { protobuf, avro })
    }
}

/// The schema `--schema` names: the one records are checked against and typed by.
#[derive(Clone)]
pub enum Given {
    Protobuf(Arc<ProtobufSchema>),
    Avro(Arc<AvroSchema>),
}

impl Given {
    /// The record as the schema types it, or everything in it that does not fit.
    pub fn project(&self, record: &Value) -> Result<Value, Vec<Violation>> {
        let mut builder = ValueBuilder::default();
        match self {
            Given::Protobuf(schema) => protobuf::walk(&schema.build(record)?, &mut builder),
            Given::Avro(schema) => avro::walk(&schema.build(record)?, &mut builder),
        }
        Ok(builder.finish())
    }

    /// The file and the record type, as messages name them.
    pub fn describe(&self) -> String {
        match self {
            Given::Protobuf(schema) => {
                format!("{} (message {})", schema.file, schema.message.full_name())
            }
            Given::Avro(schema) => format!("{} (record {})", schema.file, schema.name()),
        }
    }

    /// The run's schemas: this one, and the reason for the other kind.
    pub fn schemas(&self) -> RecordSchemas {
        match self {
            Given::Protobuf(schema) => {
                RecordSchemas { protobuf: Ok(schema.clone()), ..RecordSchemas::default() }
            }
            Given::Avro(schema) => {
                RecordSchemas { avro: Ok(schema.clone()), ..RecordSchemas::default() }
            }
        }
    }
}

/// One thing in a record that does not fit the schema: where, and what.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The field's path from the record (`user.roles[1]`), empty for the record itself.
    pub path: String,
    pub problem: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "the record: {}", self.problem)
        } else {
            write!(f, "{}: {}", self.path, self.problem)
        }
    }
}

/// Where a value is in its record, built only when a violation names it, so
/// a conforming record's build (which the schema formats' encode times)
/// allocates no paths. Each name and key is shown cut, as a value is.
#[derive(Clone, Copy)]
pub enum Path<'a> {
    Record,
    Member(&'a Path<'a>, &'a str),
    Element(&'a Path<'a>, usize),
    Entry(&'a Path<'a>, &'a str),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Record => Ok(()),
            Path::Member(Path::Record, name) => write!(f, "{}", elide(name)),
            Path::Member(parent, name) => write!(f, "{parent}.{}", elide(name)),
            Path::Element(parent, index) => write!(f, "{parent}[{index}]"),
            Path::Entry(parent, key) => write!(f, "{parent}[{}]", excerpt(key)),
        }
    }
}

impl Violation {
    fn at(path: &Path<'_>, problem: impl Into<String>) -> Violation {
        Violation { path: path.to_string(), problem: problem.into() }
    }
}

/// A value's text in a violation, cut short.
fn text(value: &Value) -> String {
    let mut text = value.text();
    if text.chars().count() > 40 {
        text = text.chars().take(37).collect::<String>() + "...";
    }
    text
}

/// How a value of the wrong kind reads in a violation: its text and kind.
fn shown(value: &Value) -> String {
    let kind = match value {
        Value::Null => return "null".to_owned(),
        Value::Bool(_) => "a boolean",
        Value::Int(_) | Value::UInt(_) | Value::Big(_) => "an integer",
        Value::Float(_) => "a float",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    format!("{} is {kind}", text(value))
}

/// What a walk of a decoded message or record says, in order: the events a
/// [`ValueSink`] counts and a [`ValueBuilder`] assembles, so a decoder feeds
/// the sink directly and the projection is the same walk.
pub trait Emit {
    fn null(&mut self);
    fn bool(&mut self, value: bool);
    fn int(&mut self, value: i64);
    fn uint(&mut self, value: u64);
    fn float(&mut self, value: f64);
    fn string(&mut self, value: &str);
    fn begin_array(&mut self);
    fn end_array(&mut self);
    fn begin_object(&mut self);
    fn key(&mut self, key: &str);
    fn end_object(&mut self);
}

impl Emit for ValueSink {
    fn null(&mut self) {
        ValueSink::null(self)
    }
    fn bool(&mut self, value: bool) {
        ValueSink::bool(self, value)
    }
    fn int(&mut self, value: i64) {
        ValueSink::int(self, value)
    }
    fn uint(&mut self, value: u64) {
        ValueSink::uint(self, value)
    }
    fn float(&mut self, value: f64) {
        ValueSink::float(self, value)
    }
    fn string(&mut self, value: &str) {
        ValueSink::string(self, value.as_bytes())
    }
    fn begin_array(&mut self) {
        ValueSink::begin_array(self)
    }
    fn end_array(&mut self) {
        ValueSink::end_array(self)
    }
    fn begin_object(&mut self) {
        ValueSink::begin_object(self)
    }
    fn key(&mut self, key: &str) {
        ValueSink::key(self, key.as_bytes())
    }
    fn end_object(&mut self) {
        ValueSink::end_object(self)
    }
}

/// Assembles the canonical value a walk describes.
#[derive(Default)]
pub struct ValueBuilder {
    /// The containers open, innermost last, each with the key its value will take.
    open: Vec<(Option<String>, Value)>,
    key: Option<String>,
    done: Option<Value>,
}

impl ValueBuilder {
    fn put(&mut self, value: Value) {
        match self.open.last_mut() {
            Some((_, Value::Array(elements))) => elements.push(value),
            Some((_, Value::Object(members))) => {
                members.push((self.key.take().expect("a key before each member"), value))
            }
            _ => self.done = Some(value),
        }
    }

    fn close(&mut self) {
        let (key, value) = self.open.pop().expect("a container to close");
        self.key = key;
        self.put(value);
    }

    pub fn finish(self) -> Value {
        self.done.expect("a walk emits one value")
    }
}

impl Emit for ValueBuilder {
    fn null(&mut self) {
        self.put(Value::Null)
    }
    fn bool(&mut self, value: bool) {
        self.put(Value::Bool(value))
    }
    fn int(&mut self, value: i64) {
        self.put(Value::Int(value))
    }
    fn uint(&mut self, value: u64) {
        self.put(i64::try_from(value).map_or(Value::UInt(value), Value::Int))
    }
    fn float(&mut self, value: f64) {
        self.put(Value::Float(value))
    }
    fn string(&mut self, value: &str) {
        self.put(Value::String(value.to_owned()))
    }
    fn begin_array(&mut self) {
        self.open.push((self.key.take(), Value::Array(Vec::new())))
    }
    fn end_array(&mut self) {
        self.close()
    }
    fn begin_object(&mut self) {
        self.open.push((self.key.take(), Value::Object(Vec::new())))
    }
    fn key(&mut self, key: &str) {
        self.key = Some(key.to_owned())
    }
    fn end_object(&mut self) {
        self.close()
    }
}

/// Bytes as a projection writes them: standard base64 with padding.
fn base64_text(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Base64 as a record may give it: the standard or URL-safe alphabet, padded or not.
fn base64_bytes(text: &str) -> Option<Vec<u8>> {
    use base64::Engine as _;
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    [STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD]
        .iter()
        .find_map(|engine| engine.decode(text).ok())
}

/// An integer value as i128 (every protobuf and Avro integer type fits), or
/// `None` for any other value or one beyond 128 bits.
fn integer(value: &Value) -> Option<i128> {
    match value {
        Value::Int(v) => Some(i128::from(*v)),
        Value::UInt(v) => Some(i128::from(*v)),
        Value::Big(v) => i128::try_from(v.as_ref()).ok(),
        _ => None,
    }
}

/// A number as the float nearest it, for a float field.
fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Float(v) => Some(*v),
        Value::Int(v) => Some(*v as f64),
        Value::UInt(v) => Some(*v as f64),
        Value::Big(v) => v.to_string().parse().ok(),
        _ => None,
    }
}

/// A number as an f32, when it stays finite at 32 bits.
fn number32(value: &Value) -> Option<Result<f32, ()>> {
    number(value).map(|v| {
        let narrow = v as f32;
        if narrow.is_finite() { Ok(narrow) } else { Err(()) }
    })
}

/// Whether `name` can name a protobuf or Avro field: `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builder_assembles_what_a_walk_says() {
        let mut builder = ValueBuilder::default();
        builder.begin_object();
        builder.key("a");
        builder.begin_array();
        builder.int(1);
        builder.uint(u64::MAX);
        builder.begin_object();
        builder.end_object();
        builder.end_array();
        builder.key("b");
        builder.string("x");
        builder.end_object();
        assert_eq!(
            builder.finish(),
            Value::parse(br#"{"a":[1,18446744073709551615,{}],"b":"x"}"#).unwrap()
        );
    }

    #[test]
    fn base64_is_read_in_any_alphabet_and_written_padded() {
        assert_eq!(base64_bytes("+/8=").unwrap(), [0xfb, 0xff]);
        assert_eq!(base64_bytes("-_8").unwrap(), [0xfb, 0xff]);
        assert!(base64_bytes("a").is_none());
        assert_eq!(base64_text(&[0xfb, 0xff]), "+/8=");
    }

    #[test]
    fn identifiers_are_what_both_schema_languages_accept() {
        assert!(is_identifier("weight_kg") && is_identifier("_a1"));
        assert!(!is_identifier("weight kg") && !is_identifier("1a") && !is_identifier(""));
    }
}
