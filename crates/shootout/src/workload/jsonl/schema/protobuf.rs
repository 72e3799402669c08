//! A protobuf schema read at run time: the record message, records built
//! into prost-reflect's dynamic messages, and the walk that projects a
//! message back to a canonical value (docs/dataset-format.md, "With a schema").

use std::collections::HashSet;

use prost_reflect::{
    Cardinality, DescriptorPool, DynamicMessage, FieldDescriptor, Kind, MapKey, MessageDescriptor,
    OneofDescriptor, ReflectMessage as _, Value as Field,
};

use super::{
    Emit, Path, Value, Violation, base64_bytes, base64_text, integer, number, number32, shown, text,
};

/// A compiled `.proto` and the message each record is.
pub struct ProtobufSchema {
    /// The `.proto` file's name, as results and messages show it.
    pub file: String,
    pub message: MessageDescriptor,
    /// The `FileDescriptorSet` (the file and its imports) the Go and JVM
    /// runners build their descriptors from.
    pub descriptor_set: Vec<u8>,
}

impl ProtobufSchema {
    /// The schema of `descriptor_set` whose record is the message `name`, or
    /// the one top-level message of `proto` (the file's name in the set) that
    /// no other message uses.
    pub fn new(
        file: String,
        descriptor_set: Vec<u8>,
        proto: &str,
        name: Option<&str>,
    ) -> Result<ProtobufSchema, String> {
        let pool = DescriptorPool::decode(descriptor_set.as_slice())
            .map_err(|e| format!("{file}: {e}"))?;
        let defined = pool
            .get_file_by_name(proto)
            .ok_or_else(|| format!("{file}: not in its own descriptor set"))?;
        let message = match name {
            Some(name) => defined
                .messages()
                .chain(pool.all_messages().filter(|m| m.parent_file().name() == proto))
                .find(|m| m.full_name() == name || m.name() == name)
                .ok_or_else(|| format!("{file}: no message {name} in the file"))?,
            None => {
                let used: HashSet<String> = pool
                    .all_messages()
                    .filter(|m| m.parent_file().name() == proto)
                    .flat_map(|m| m.fields().collect::<Vec<_>>())
                    .filter_map(|f| f.kind().as_message().map(|m| m.full_name().to_owned()))
                    .collect();
                let roots: Vec<MessageDescriptor> =
                    defined.messages().filter(|m| !used.contains(m.full_name())).collect();
                match roots.as_slice() {
                    [root] => root.clone(),
                    [] => {
                        return Err(format!(
                            "{file}: no message to be the record: every top-level message is used by another; name one with --schema {file}#Message"
                        ));
                    }
                    _ => {
                        let names = roots.iter().map(|m| crate::sanitize::elide(m.name()));
                        return Err(format!(
                            "{file}: {} messages could be the record ({}); name one with --schema {file}#Message",
                            roots.len(),
                            crate::sanitize::listing(names)
                        ));
                    }
                }
            }
        };
        unsupported(&message, &mut HashSet::new()).map_err(|e| format!("{file}: {e}"))?;
        Ok(ProtobufSchema { file, message, descriptor_set })
    }

    /// The message `record` is, or everything in it that does not fit.
    pub fn build(&self, record: &Value) -> Result<DynamicMessage, Vec<Violation>> {
        let mut violations = Vec::new();
        let message = build_message(&self.message, record, &Path::Record, &mut violations);
        match message {
            Some(message) if violations.is_empty() => Ok(message),
            _ => Err(violations),
        }
    }
}

/// What the mapping does not cover, in the messages the record reaches.
fn unsupported(message: &MessageDescriptor, seen: &mut HashSet<String>) -> Result<(), String> {
    if !seen.insert(message.full_name().to_owned()) {
        return Ok(());
    }
    for field in message.fields() {
        if field.is_group() {
            return Err(format!(
                "{}.{} is a group, which the mapping does not cover",
                message.name(),
                field.name()
            ));
        }
        if let Kind::Message(inner) = field.kind() {
            if inner.full_name().starts_with("google.protobuf.") {
                return Err(format!(
                    "{}.{} is a {}: well-known types have JSON forms of their own, which the mapping does not cover yet",
                    message.name(),
                    field.name(),
                    inner.full_name()
                ));
            }
            unsupported(&inner, seen)?;
        }
    }
    Ok(())
}

/// The type of a field as violations name it.
fn type_name(field: &FieldDescriptor) -> String {
    if field.is_map() {
        let entry = field.kind();
        let entry = entry.as_message().expect("a map field's kind is its entry message");
        format!(
            "map<{}, {}>",
            kind_name(&entry.map_entry_key_field().kind()),
            kind_name(&entry.map_entry_value_field().kind())
        )
    } else if field.is_list() {
        format!("repeated {}", kind_name(&field.kind()))
    } else {
        kind_name(&field.kind())
    }
}

fn kind_name(kind: &Kind) -> String {
    match kind {
        Kind::Message(m) => format!("message {}", m.full_name()),
        Kind::Enum(e) => format!("enum {}", e.full_name()),
        Kind::Double => "double".into(),
        Kind::Float => "float".into(),
        Kind::Int32 => "int32".into(),
        Kind::Int64 => "int64".into(),
        Kind::Uint32 => "uint32".into(),
        Kind::Uint64 => "uint64".into(),
        Kind::Sint32 => "sint32".into(),
        Kind::Sint64 => "sint64".into(),
        Kind::Fixed32 => "fixed32".into(),
        Kind::Fixed64 => "fixed64".into(),
        Kind::Sfixed32 => "sfixed32".into(),
        Kind::Sfixed64 => "sfixed64".into(),
        Kind::Bool => "bool".into(),
        Kind::String => "string".into(),
        Kind::Bytes => "bytes".into(),
    }
}

fn build_message(
    descriptor: &MessageDescriptor,
    value: &Value,
    path: &Path<'_>,
    violations: &mut Vec<Violation>,
) -> Option<DynamicMessage> {
    let Value::Object(members) = value else {
        violations.push(Violation::at(
            path,
            format!("{}, the field is message {}", shown(value), descriptor.full_name()),
        ));
        return None;
    };
    let mut message = DynamicMessage::new(descriptor.clone());
    let field_of = |key: &str| {
        descriptor.get_field_by_name(key).or_else(|| descriptor.get_field_by_json_name(key))
    };
    // The numbers given, sorted once at the end to find a repeat: a search
    // per member would take time quadratic in a wide message's members.
    let mut given: Vec<u32> = Vec::with_capacity(members.len());
    let mut oneofs: Vec<(OneofDescriptor, FieldDescriptor)> = Vec::new();
    for (key, value) in members {
        let path = Path::Member(path, key);
        let Some(field) = field_of(key) else {
            violations.push(Violation {
                path: path.to_string(),
                problem: format!("no such field in message {}", descriptor.full_name()),
            });
            continue;
        };
        given.push(field.number());
        if matches!(value, Value::Null) {
            continue;
        }
        if let Some(oneof) = field.containing_oneof().filter(|o| !o.is_synthetic()) {
            // A repeat of the same member is said once, as a repeat.
            if let Some((_, other)) =
                oneofs.iter().find(|(set, other)| *set == oneof && *other != field)
            {
                violations.push(Violation {
                    path: path.to_string(),
                    problem: format!("oneof {} already has {}", oneof.name(), other.name()),
                });
                continue;
            }
            oneofs.push((oneof, field.clone()));
        }
        if let Some(value) = build_field(&field, value, &path, violations) {
            message.set_field(&field, value);
        }
    }
    given.sort_unstable();
    if given.windows(2).any(|pair| pair[0] == pair[1]) {
        let mut seen = std::collections::HashSet::new();
        for (key, _) in members {
            if field_of(key).is_some_and(|field| !seen.insert(field.number())) {
                violations
                    .push(Violation::at(&Path::Member(path, key), "the field is given twice"));
            }
        }
    }
    for field in descriptor.fields() {
        if field.cardinality() == Cardinality::Required && !message.has_field(&field) {
            violations.push(Violation {
                path: Path::Member(path, field.name()).to_string(),
                problem: format!("missing: a required {}", type_name(&field)),
            });
        }
    }
    Some(message)
}

fn build_field(
    field: &FieldDescriptor,
    value: &Value,
    path: &Path<'_>,
    violations: &mut Vec<Violation>,
) -> Option<Field> {
    let wrong = |violations: &mut Vec<Violation>| {
        violations.push(Violation {
            path: path.to_string(),
            problem: format!("{}, the field is {}", shown(value), type_name(field)),
        });
        None
    };
    if field.is_map() {
        let Value::Object(members) = value else { return wrong(violations) };
        let entry = field.kind();
        let entry = entry.as_message().expect("a map field's kind is its entry message");
        let (key_field, value_field) = (entry.map_entry_key_field(), entry.map_entry_value_field());
        let mut map = std::collections::HashMap::new();
        for (key, value) in members {
            let path = Path::Entry(path, key);
            let Some(key) = map_key(&key_field.kind(), key) else {
                violations.push(Violation {
                    path: path.to_string(),
                    problem: format!("the key is not a {}", kind_name(&key_field.kind())),
                });
                continue;
            };
            if let Some(value) = build_single(&value_field.kind(), value, &path, violations) {
                map.insert(key, value);
            }
        }
        Some(Field::Map(map))
    } else if field.is_list() {
        let Value::Array(elements) = value else { return wrong(violations) };
        let list = elements
            .iter()
            .enumerate()
            .filter_map(|(i, element)| {
                build_single(&field.kind(), element, &Path::Element(path, i), violations)
            })
            .collect();
        Some(Field::List(list))
    } else {
        build_single(&field.kind(), value, path, violations)
    }
}

fn map_key(kind: &Kind, text: &str) -> Option<MapKey> {
    Some(match kind {
        Kind::String => MapKey::String(text.to_owned()),
        Kind::Bool => MapKey::Bool(match text {
            "true" => true,
            "false" => false,
            _ => return None,
        }),
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => MapKey::I32(text.parse().ok()?),
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => MapKey::I64(text.parse().ok()?),
        Kind::Uint32 | Kind::Fixed32 => MapKey::U32(text.parse().ok()?),
        Kind::Uint64 | Kind::Fixed64 => MapKey::U64(text.parse().ok()?),
        _ => return None,
    })
}

fn build_single(
    kind: &Kind,
    value: &Value,
    path: &Path<'_>,
    violations: &mut Vec<Violation>,
) -> Option<Field> {
    let mut problem = |problem: String| {
        violations.push(Violation::at(path, problem));
        None
    };
    let wrong = || format!("{}, the field is {}", shown(value), kind_name(kind));
    let out_of_range = |v: i128| format!("{v} is beyond {}'s range", kind_name(kind));
    match kind {
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => match integer(value) {
            Some(v) => {
                i32::try_from(v).map(Field::I32).map_or_else(|_| problem(out_of_range(v)), Some)
            }
            None => problem(wrong()),
        },
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => match integer(value) {
            Some(v) => {
                i64::try_from(v).map(Field::I64).map_or_else(|_| problem(out_of_range(v)), Some)
            }
            None => problem(wrong()),
        },
        Kind::Uint32 | Kind::Fixed32 => match integer(value) {
            Some(v) => {
                u32::try_from(v).map(Field::U32).map_or_else(|_| problem(out_of_range(v)), Some)
            }
            None => problem(wrong()),
        },
        Kind::Uint64 | Kind::Fixed64 => match integer(value) {
            Some(v) => {
                u64::try_from(v).map(Field::U64).map_or_else(|_| problem(out_of_range(v)), Some)
            }
            None => problem(wrong()),
        },
        Kind::Double => number(value).map(Field::F64).or_else(|| problem(wrong())),
        Kind::Float => match number32(value) {
            Some(Ok(v)) => Some(Field::F32(v)),
            Some(Err(())) => problem(format!("{} is beyond float's range", text(value))),
            None => problem(wrong()),
        },
        Kind::Bool => match value {
            Value::Bool(b) => Some(Field::Bool(*b)),
            _ => problem(wrong()),
        },
        Kind::String => match value {
            Value::String(s) => Some(Field::String(s.clone())),
            _ => problem(wrong()),
        },
        Kind::Bytes => match value {
            Value::String(s) => match base64_bytes(s) {
                Some(bytes) => Some(Field::Bytes(bytes.into())),
                None => problem(format!("{} is not base64, the field is bytes", text(value))),
            },
            _ => problem(wrong()),
        },
        Kind::Enum(descriptor) => match value {
            Value::String(name) => match descriptor.get_value_by_name(name) {
                Some(v) => Some(Field::EnumNumber(v.number())),
                None => problem(format!("{} names no value of {}", text(value), kind_name(kind))),
            },
            _ => match integer(value) {
                Some(v) => i32::try_from(v)
                    .map(Field::EnumNumber)
                    .map_or_else(|_| problem(out_of_range(v)), Some),
                None => problem(wrong()),
            },
        },
        Kind::Message(descriptor) => {
            build_message(descriptor, value, path, violations).map(Field::Message)
        }
    }
}

/// The projection of `message`: a member per field it has, by the field's name.
///
/// Whether a field without presence has a value is decided here, by the
/// spec's rule (not its default, floats bit by bit, as protobuf-go and
/// protobuf-java serialize them), not by prost-reflect's `has_field`, which
/// takes -0.0 for the default 0.0 and so would drop it from the projection.
pub fn walk(message: &DynamicMessage, out: &mut impl Emit) {
    out.begin_object();
    for field in message.descriptor().fields() {
        if field.supports_presence() && !message.has_field(&field) {
            continue;
        }
        let value = message.get_field(&field);
        if !field.supports_presence() && is_default(&value) {
            continue;
        }
        out.key(field.name());
        if field.is_map() {
            let entry = field.kind();
            let entry = entry.as_message().expect("a map field's kind is its entry message");
            walk_value(&entry.map_entry_value_field().kind(), &value, out);
        } else {
            walk_value(&field.kind(), &value, out);
        }
    }
    out.end_object();
}

/// Whether a field without presence holds its default: zero (+0.0 only, bit
/// for bit), `false`, empty, the enum's zero, or an empty list or map.
fn is_default(value: &Field) -> bool {
    match value {
        Field::Bool(b) => !b,
        Field::I32(v) => *v == 0,
        Field::I64(v) => *v == 0,
        Field::U32(v) => *v == 0,
        Field::U64(v) => *v == 0,
        Field::F32(v) => v.to_bits() == 0,
        Field::F64(v) => v.to_bits() == 0,
        Field::String(s) => s.is_empty(),
        Field::Bytes(b) => b.is_empty(),
        Field::EnumNumber(n) => *n == 0,
        Field::Message(_) => false,
        Field::List(elements) => elements.is_empty(),
        Field::Map(entries) => entries.is_empty(),
    }
}

fn walk_value(kind: &Kind, value: &Field, out: &mut impl Emit) {
    match value {
        Field::Bool(b) => out.bool(*b),
        Field::I32(v) => out.int(i64::from(*v)),
        Field::I64(v) => out.int(*v),
        Field::U32(v) => out.int(i64::from(*v)),
        Field::U64(v) => out.uint(*v),
        Field::F32(v) => out.float(f64::from(*v)),
        Field::F64(v) => out.float(*v),
        Field::String(s) => out.string(s),
        Field::Bytes(bytes) => out.string(&base64_text(bytes)),
        Field::EnumNumber(number) => match kind.as_enum().and_then(|e| e.get_value(*number)) {
            Some(declared) => out.string(declared.name()),
            None => out.int(i64::from(*number)),
        },
        Field::Message(message) => walk(message, out),
        Field::List(elements) => {
            out.begin_array();
            for element in elements {
                walk_value(kind, element, out);
            }
            out.end_array();
        }
        Field::Map(entries) => {
            // In key order: a map's own order is its hash table's, which
            // would make the same record's projection differ run to run.
            let mut entries: Vec<_> = entries.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.begin_object();
            for (key, value) in entries {
                match key {
                    MapKey::String(s) => out.key(s),
                    MapKey::Bool(b) => out.key(if *b { "true" } else { "false" }),
                    MapKey::I32(v) => out.key(&v.to_string()),
                    MapKey::I64(v) => out.key(&v.to_string()),
                    MapKey::U32(v) => out.key(&v.to_string()),
                    MapKey::U64(v) => out.key(&v.to_string()),
                }
                walk_value(kind, value, out);
            }
            out.end_object();
        }
    }
}
