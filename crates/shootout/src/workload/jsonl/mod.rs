//! `jsonl`: the user's own JSON Lines, one record per line, any JSON value.
//! Each schemaless format encodes the records and decodes them into its
//! library's dynamic value model, whose walk feeds a [`ValueSink`]; the
//! aggregate names whatever a model lost (docs/dataset-format.md, `jsonl`).

pub mod aggregate;
mod generate;
pub mod schema;
mod value;

pub use aggregate::{JsonlAggregate, ValueSink};
pub use generate::{ORDERS_HEADER, events, generate, orders, orders_csv, render, write};
pub use value::{MAX_DEPTH, MAX_DIGITS, Value, nested_too_deep};

use std::marker::PhantomData;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Dataset, Workload};

/// A workload whose records are JSON values: where they come from is all
/// that tells `jsonl` from `csv` apart, so every codec serves both.
pub struct JsonValues<O>(PhantomData<O>);

/// Where a [`JsonValues`] workload's records come from: its name.
pub trait Origin: 'static {
    const NAME: &'static str;
    /// Why the records' types are known only at run time ([`Workload::TYPED_AT_RUN_TIME`]).
    const TYPED_AT_RUN_TIME: &'static str;
}

/// A JSON Lines file, one value per line.
pub struct JsonLines;

impl Origin for JsonLines {
    const NAME: &'static str = "jsonl";
    const TYPED_AT_RUN_TIME: &'static str = "JSON Lines records come with no schema";
}

/// A CSV file with a header, each row an object of typed cells.
pub struct CsvRows;

impl Origin for CsvRows {
    const NAME: &'static str = "csv";
    const TYPED_AT_RUN_TIME: &'static str = "a CSV's columns are known only at run time";
}

pub type Jsonl = JsonValues<JsonLines>;
pub type Csv = JsonValues<CsvRows>;

impl<O: Origin> Workload for JsonValues<O> {
    const NAME: &'static str = O::NAME;
    const TYPED_AT_RUN_TIME: Option<&'static str> = Some(O::TYPED_AT_RUN_TIME);
    type Record = Value;
    type Sink = ValueSink;
    type Aggregate = JsonlAggregate;

    fn new_sink(_reference: &JsonlAggregate) -> ValueSink {
        ValueSink::default()
    }

    fn feed(record: &Value, sink: &mut ValueSink) {
        visit(record, sink);
    }

    fn finish(sink: ValueSink) -> JsonlAggregate {
        sink.finish()
    }

    fn first_difference(expected: &JsonlAggregate, actual: &JsonlAggregate) -> Option<String> {
        aggregate::first_difference(expected, actual)
    }

    fn handoff_line(record: &Value, out: &mut Vec<u8>) {
        record.write(out);
    }

    fn non_finite_field(record: &Value) -> Option<&'static str> {
        record.has_non_finite().then_some("(a value of the record)")
    }
}

/// Feeds a canonical value to the sink: what a decoder's walk of the same
/// value feeds it.
pub fn visit(value: &Value, sink: &mut ValueSink) {
    match value {
        Value::Null => sink.null(),
        Value::Bool(b) => sink.bool(*b),
        Value::Int(v) => sink.int(*v),
        Value::UInt(v) => sink.uint(*v),
        Value::Big(v) => sink.big(&v.to_string()),
        Value::Float(v) => sink.float(*v),
        Value::String(s) => sink.string(s.as_bytes()),
        Value::Array(elements) => {
            sink.begin_array();
            for element in elements {
                visit(element, sink);
            }
            sink.end_array();
        }
        Value::Object(members) => {
            sink.begin_object();
            for (key, value) in members {
                sink.key(key.as_bytes());
                visit(value, sink);
            }
            sink.end_object();
        }
    }
}

/// Feeds an input record to the reference: its values, and its duplicate
/// keys, which only the input knows (so the baseline's `feed`, timed, does
/// not count them).
pub fn visit_input(value: &Value, sink: &mut ValueSink) {
    visit(value, sink);
    sink.duplicate_keys(duplicate_keys(value));
}

/// Members, at any depth, whose key appeared earlier in the same object.
fn duplicate_keys(value: &Value) -> u64 {
    match value {
        Value::Array(elements) => elements.iter().map(duplicate_keys).sum(),
        Value::Object(members) => {
            let inner: u64 = members.iter().map(|(_, v)| duplicate_keys(v)).sum();
            let mut keys: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
            keys.sort_unstable();
            inner + keys.windows(2).filter(|pair| pair[0] == pair[1]).count() as u64
        }
        _ => 0,
    }
}

/// The generated sample: nested API events, read back through the JSON
/// Lines reader as `--workload jsonl` without `--input` reads them.
pub fn sample() -> Dataset<Jsonl> {
    let text = render(&generate(300, 1));
    let records: Vec<Value> =
        text.lines().map(|line| Value::parse(line.as_bytes()).expect("generated JSON")).collect();
    let mut sink = ValueSink::default();
    for record in &records {
        visit_input(record, &mut sink);
    }
    Dataset::in_order(records, sink.finish(), "generated: 300 events, seed 1".to_string())
}

/// Deserializes one value of any self-describing serde format straight into
/// the sink (serde's dynamic model, `deserialize_any`), for the libraries
/// without a value type of their own.
pub struct IntoSink<'s>(pub &'s mut ValueSink);

impl<'de> DeserializeSeed<'de> for IntoSink<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for IntoSink<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        self.0.null();
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        self.0.null();
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_bool<E>(self, v: bool) -> Result<(), E> {
        self.0.bool(v);
        Ok(())
    }

    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.0.int(v);
        Ok(())
    }

    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.0.uint(v);
        Ok(())
    }

    fn visit_i128<E>(self, v: i128) -> Result<(), E> {
        self.0.int128(v);
        Ok(())
    }

    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<(), E> {
        self.0.big(&v.to_string());
        Ok(())
    }

    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        self.0.float(v);
        Ok(())
    }

    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.0.string(v.as_bytes());
        Ok(())
    }

    fn visit_bytes<E: serde::de::Error>(self, _v: &[u8]) -> Result<(), E> {
        Err(E::custom("decoded a byte string, which JSON has no kind for"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.begin_array();
        while seq.next_element_seed(IntoSink(self.0))?.is_some() {}
        self.0.end_array();
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.begin_object();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            self.0.key(key.as_bytes());
            map.next_value_seed(IntoSink(self.0))?;
        }
        self.0.end_object();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_are_counted_once_per_repeat() {
        let count = |json: &str| {
            let mut sink = ValueSink::default();
            visit_input(&Value::parse(json.as_bytes()).unwrap(), &mut sink);
            sink.finish().duplicate_keys
        };
        assert_eq!(count(r#"{"a":1,"b":{"c":1,"c":2,"c":3},"a":2}"#), 3);
        assert_eq!(count(r#"{"a":1,"b":2}"#), 0);
    }

    #[test]
    fn serde_formats_walk_into_the_sink_as_the_value_does() {
        let line = r#"{"a":[1,-2,18446744073709551615,1.5,-0.0,"x",null,true],"b":{}}"#;
        let value = Value::parse(line.as_bytes()).unwrap();
        let mut expected = ValueSink::default();
        visit(&value, &mut expected);
        let mut sink = ValueSink::default();
        let mut de = serde_json::Deserializer::from_str(line);
        IntoSink(&mut sink).deserialize(&mut de).unwrap();
        assert_eq!(aggregate::first_difference(&expected.finish(), &sink.finish()), None);
    }
}
