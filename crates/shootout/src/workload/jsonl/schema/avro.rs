//! An Avro schema read at run time: records built into apache-avro's generic
//! values, and the walk that projects one back to a canonical value
//! (docs/dataset-format.md, "With a schema").

use std::collections::HashMap;

use apache_avro::Schema;
use apache_avro::schema::{Name, RecordField, UnionSchema};
use apache_avro::types::Value as Datum;

use super::{
    Emit, Path, Value, Violation, base64_bytes, base64_text, integer, number, number32, shown, text,
};

/// A parsed `.avsc` whose top-level type is the record each record is.
pub struct AvroSchema {
    /// The `.avsc` file's name, as results and messages show it.
    pub file: String,
    pub schema: Schema,
    /// The schema's text, as the Go and JVM runners parse it.
    pub text: String,
    /// Every named type, by full name, for the references inside the schema.
    named: HashMap<String, Schema>,
}

impl AvroSchema {
    pub fn new(file: String, text: String) -> Result<AvroSchema, String> {
        // Read as JSON first, so text that is not JSON is named by its line
        // and column (apache-avro says only that it failed).
        let json: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| format!("{file}: {}", crate::sanitize::json_error(&e, "JSON")))?;
        let schema = Schema::parse(&json).map_err(|e| format!("{file}: {e}"))?;
        if !matches!(schema, Schema::Record(_)) {
            return Err(format!("{file}: the top-level type is not a record"));
        }
        let mut named = HashMap::new();
        collect(&schema, &mut named).map_err(|e| format!("{file}: {e}"))?;
        Ok(AvroSchema { file, schema, text, named })
    }

    /// The record type's full name.
    pub fn name(&self) -> String {
        match &self.schema {
            Schema::Record(record) => record.name.fullname(None),
            _ => unreachable!("checked in new"),
        }
    }

    /// The generic record `record` is, or everything in it that does not fit.
    pub fn build(&self, record: &Value) -> Result<Datum, Vec<Violation>> {
        let mut violations = Vec::new();
        let datum = self.build_value(&self.schema, record, &Path::Record, &mut violations);
        match datum {
            Some(datum) if violations.is_empty() => Ok(datum),
            _ => Err(violations),
        }
    }

    fn resolve<'a>(&'a self, schema: &'a Schema) -> &'a Schema {
        match schema {
            Schema::Ref { name } => &self.named[&name.fullname(None)],
            other => other,
        }
    }

    fn build_value(
        &self,
        schema: &Schema,
        value: &Value,
        path: &Path<'_>,
        violations: &mut Vec<Violation>,
    ) -> Option<Datum> {
        let schema = self.resolve(schema);
        let mut problem = |problem: String| {
            violations.push(Violation::at(path, problem));
            None
        };
        let wrong = || format!("{}, the field is {}", shown(value), type_name(schema));
        let out_of_range = |v: i128| format!("{v} is beyond {}'s range", type_name(schema));
        match (schema, value) {
            (Schema::Null, Value::Null) => Some(Datum::Null),
            (Schema::Boolean, Value::Bool(b)) => Some(Datum::Boolean(*b)),
            (Schema::Int, _) if integer(value).is_some() => {
                let v = integer(value).expect("an integer");
                i32::try_from(v).map(Datum::Int).map_or_else(|_| problem(out_of_range(v)), Some)
            }
            (Schema::Long, _) if integer(value).is_some() => {
                let v = integer(value).expect("an integer");
                i64::try_from(v).map(Datum::Long).map_or_else(|_| problem(out_of_range(v)), Some)
            }
            (Schema::Float, _) if number32(value).is_some() => match number32(value) {
                Some(Ok(v)) => Some(Datum::Float(v)),
                _ => problem(format!("{} is beyond float's range", text(value))),
            },
            (Schema::Double, _) if number(value).is_some() => number(value).map(Datum::Double),
            (Schema::String, Value::String(s)) => Some(Datum::String(s.clone())),
            (Schema::Bytes, Value::String(s)) => match base64_bytes(s) {
                Some(bytes) => Some(Datum::Bytes(bytes)),
                None => problem(format!("{} is not base64, the field is bytes", text(value))),
            },
            (Schema::Fixed(fixed), Value::String(s)) => match base64_bytes(s) {
                Some(bytes) if bytes.len() == fixed.size => Some(Datum::Fixed(fixed.size, bytes)),
                _ => problem(format!(
                    "{} is not the base64 of {} bytes, the field is {}",
                    text(value),
                    fixed.size,
                    type_name(schema)
                )),
            },
            (Schema::Enum(e), Value::String(s)) => match e.symbols.iter().position(|x| x == s) {
                Some(index) => Some(Datum::Enum(index as u32, s.clone())),
                None => {
                    problem(format!("{} names no symbol of {}", text(value), type_name(schema)))
                }
            },
            (Schema::Array(array), Value::Array(elements)) => Some(Datum::Array(
                elements
                    .iter()
                    .enumerate()
                    .filter_map(|(i, element)| {
                        self.build_value(&array.items, element, &Path::Element(path, i), violations)
                    })
                    .collect(),
            )),
            (Schema::Map(map), Value::Object(members)) => {
                let mut entries = HashMap::new();
                for (key, element) in members {
                    let path = Path::Entry(path, key);
                    if entries.contains_key(key) {
                        violations.push(Violation {
                            path: path.to_string(),
                            problem: "the key is given twice".into(),
                        });
                        continue;
                    }
                    if let Some(datum) = self.build_value(&map.types, element, &path, violations) {
                        entries.insert(key.clone(), datum);
                    }
                }
                Some(Datum::Map(entries))
            }
            (Schema::Union(union), _) => {
                let (index, inner) = nullable(union).expect("checked in new");
                match value {
                    Value::Null => Some(Datum::Union(1 - index as u32, Box::new(Datum::Null))),
                    _ => self
                        .build_value(inner, value, path, violations)
                        .map(|datum| Datum::Union(index as u32, Box::new(datum))),
                }
            }
            (Schema::Record(record), Value::Object(members)) => {
                // Each field's member, found by one lookup per member: a
                // search per field would take time quadratic in a wide record.
                let mut given: Vec<Option<&Value>> = vec![None; record.fields.len()];
                for (key, value) in members {
                    let path = Path::Member(path, key);
                    match record.lookup.get(key) {
                        None => violations.push(Violation {
                            path: path.to_string(),
                            problem: format!(
                                "no such field in record {}",
                                record.name.fullname(None)
                            ),
                        }),
                        Some(&index) if given[index].is_some() => violations.push(Violation {
                            path: path.to_string(),
                            problem: "the field is given twice".into(),
                        }),
                        // A member named by one of the field's aliases counts
                        // as given, but its value is not the field's: as absent.
                        Some(&index) if record.fields[index].name != *key => {
                            given[index] = Some(&Value::Null)
                        }
                        Some(&index) => given[index] = Some(value),
                    }
                }
                let fields = record
                    .fields
                    .iter()
                    .zip(given)
                    .map(|(field, member)| {
                        let datum = match member {
                            Some(value) if !matches!(value, Value::Null) => self.build_value(
                                &field.schema,
                                value,
                                &Path::Member(path, &field.name),
                                violations,
                            ),
                            _ => self.absent(field, &Path::Member(path, &field.name), violations),
                        };
                        datum.map(|datum| (field.name.clone(), datum))
                    })
                    .collect::<Option<Vec<_>>>()?;
                Some(Datum::Record(fields))
            }
            _ => problem(wrong()),
        }
    }

    /// The value of a field the record does not give (or gives as null).
    fn absent(
        &self,
        field: &RecordField,
        path: &Path<'_>,
        violations: &mut Vec<Violation>,
    ) -> Option<Datum> {
        let schema = self.resolve(&field.schema);
        if let Some(default) = &field.default {
            // Read by the same table as a record's values (so a bytes default is
            // base64 here, where Avro's JSON writes bytes as Latin-1 text).
            let default = Value::parse(default.to_string().as_bytes())
                .expect("serde_json writes JSON that reads back");
            return self.build_value(&field.schema, &default, path, violations);
        }
        match schema {
            Schema::Null => Some(Datum::Null),
            Schema::Union(union) => {
                let (index, _) = nullable(union).expect("checked in new");
                Some(Datum::Union(1 - index as u32, Box::new(Datum::Null)))
            }
            _ => {
                violations.push(Violation {
                    path: path.to_string(),
                    problem: format!(
                        "missing, and the field ({}) has no default",
                        type_name(schema)
                    ),
                });
                None
            }
        }
    }
}

/// The branch of a `["null", T]` union that is not null, and its index.
fn nullable(union: &UnionSchema) -> Option<(usize, &Schema)> {
    match union.variants() {
        [Schema::Null, other] if !matches!(other, Schema::Null) => Some((1, other)),
        [other, Schema::Null] if !matches!(other, Schema::Null) => Some((0, other)),
        _ => None,
    }
}

/// Collects the named types, refusing what the mapping does not cover.
fn collect(schema: &Schema, named: &mut HashMap<String, Schema>) -> Result<(), String> {
    let mut name = |n: &Name| {
        named.insert(n.fullname(None), schema.clone());
    };
    match schema {
        Schema::Null
        | Schema::Boolean
        | Schema::Int
        | Schema::Long
        | Schema::Float
        | Schema::Double
        | Schema::Bytes
        | Schema::String
        | Schema::Ref { .. } => Ok(()),
        Schema::Enum(e) => {
            name(&e.name);
            Ok(())
        }
        Schema::Fixed(f) => {
            name(&f.name);
            Ok(())
        }
        Schema::Array(array) => collect(&array.items, named),
        Schema::Map(map) => collect(&map.types, named),
        Schema::Union(union) => match nullable(union) {
            Some((_, inner)) => collect(inner, named),
            None => Err(format!(
                "the union {} is not null and one other type, which the mapping does not cover",
                type_name(schema)
            )),
        },
        Schema::Record(record) => {
            name(&record.name);
            record.fields.iter().try_for_each(|field| collect(&field.schema, named))
        }
        other => Err(format!(
            "the logical type {} has a JSON form of its own, which the mapping does not cover yet",
            type_name(other)
        )),
    }
}

/// A type as violations name it.
fn type_name(schema: &Schema) -> String {
    match schema {
        Schema::Record(r) => format!("record {}", r.name.fullname(None)),
        Schema::Enum(e) => format!("enum {}", e.name.fullname(None)),
        Schema::Fixed(f) => format!("fixed {} ({} bytes)", f.name.fullname(None), f.size),
        Schema::Ref { name } => name.fullname(None),
        Schema::Array(a) => format!("array of {}", type_name(&a.items)),
        Schema::Map(m) => format!("map of {}", type_name(&m.types)),
        Schema::Union(u) => {
            let names: Vec<String> = u.variants().iter().map(type_name).collect();
            format!("[{}]", names.join(", "))
        }
        other => {
            let text = serde_json::to_string(other).unwrap_or_default();
            text.trim_matches(|c| c == '"' || c == '{' || c == '}').to_owned()
        }
    }
}

/// The projection of a generic value: records without their null fields.
pub fn walk(datum: &Datum, out: &mut impl Emit) {
    match datum {
        Datum::Null => out.null(),
        Datum::Boolean(b) => out.bool(*b),
        Datum::Int(v) => out.int(i64::from(*v)),
        Datum::Long(v) => out.int(*v),
        Datum::Float(v) => out.float(f64::from(*v)),
        Datum::Double(v) => out.float(*v),
        Datum::Bytes(bytes) | Datum::Fixed(_, bytes) => out.string(&base64_text(bytes)),
        Datum::String(s) | Datum::Enum(_, s) => out.string(s),
        Datum::Union(_, inner) => walk(inner, out),
        Datum::Array(elements) => {
            out.begin_array();
            for element in elements {
                walk(element, out);
            }
            out.end_array();
        }
        Datum::Map(entries) => {
            // In key order: a map's own order is its hash table's, which
            // would make the same record's projection differ run to run.
            let mut entries: Vec<_> = entries.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.begin_object();
            for (key, value) in entries {
                out.key(key);
                walk(value, out);
            }
            out.end_object();
        }
        Datum::Record(fields) => {
            out.begin_object();
            for (name, value) in fields {
                if matches!(value, Datum::Null)
                    || matches!(value, Datum::Union(_, inner) if matches!(**inner, Datum::Null))
                {
                    continue;
                }
                out.key(name);
                walk(value, out);
            }
            out.end_object();
        }
        other => unreachable!("a logical type the schema refused: {other:?}"),
    }
}
