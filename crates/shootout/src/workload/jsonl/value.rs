//! The canonical value of a JSON text (docs/dataset-format.md, `jsonl`): what
//! the line says and nothing a parser would round away. Integers keep their
//! exact value up to [`MAX_DIGITS`] digits, floats are the double nearest
//! their text, and objects keep every member in order, duplicate keys included.

use std::io::Write as _;

use jiter::{Jiter, JiterErrorType, JsonErrorType, NumberAny, NumberInt, Peek};
use num_bigint::BigInt;
use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

/// Arrays and objects nested deeper than this are refused when read, so a
/// hostile line cannot exhaust the stack of any reader or walker.
pub const MAX_DEPTH: usize = 512;

/// Digits a number may have before its point or exponent: jiter's limit,
/// as Python's `int` has it, because reading an integer of n digits into a
/// big integer takes time quadratic in n. No format carries an integer
/// beyond 128 bits (39 digits) anyway.
pub const MAX_DIGITS: usize = 4300;

/// The problem of a text nesting deeper than [`MAX_DEPTH`] at `column`.
pub fn nested_too_deep(column: usize) -> String {
    format!("column {column}: arrays and objects nested deeper than {MAX_DEPTH} levels")
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// An integer in the i64 range.
    Int(i64),
    /// An integer with 2^63 ≤ v < 2^64.
    UInt(u64),
    /// Any other integer.
    Big(Box<BigInt>),
    Float(f64),
    String(String),
    Array(Vec<Value>),
    /// Members in order, duplicate keys kept.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// Reads one JSON text (a whole line, surrounding whitespace allowed);
    /// the error says what was wrong and at which column.
    pub fn parse(text: &[u8]) -> Result<Value, String> {
        let mut jiter = Jiter::new(text);
        let describe = |jiter: &Jiter, e: jiter::JiterError| {
            let column = jiter.error_position(e.index).column;
            match e.error_type {
                JiterErrorType::JsonError(JsonErrorType::NumberOutOfRange) => format!(
                    "column {column}: a number of more than {MAX_DIGITS} digits before its point or exponent; integers are kept exactly up to {MAX_DIGITS} digits"
                ),
                problem => format!("column {column}: {problem}"),
            }
        };
        let value = match read(&mut jiter, 0) {
            Ok(value) => value,
            Err(Problem::Json(e)) => return Err(describe(&jiter, e)),
            Err(Problem::TooDeep) => {
                return Err(nested_too_deep(jiter.error_position(jiter.current_index()).column));
            }
            Err(Problem::BeyondDouble) => {
                let column = jiter.error_position(jiter.current_index()).column;
                return Err(format!(
                    "column {column}: number out of range: the float ending here is beyond a 64-bit float's range, so no format can carry it"
                ));
            }
        };
        jiter.finish().map_err(|e| describe(&jiter, e))?;
        Ok(value)
    }

    /// Whether a float in the value is NaN or infinite: a CSV cell can say
    /// so, JSON cannot.
    pub fn has_non_finite(&self) -> bool {
        match self {
            Value::Float(v) => !v.is_finite(),
            Value::Array(elements) => elements.iter().any(Value::has_non_finite),
            Value::Object(members) => members.iter().any(|(_, v)| v.has_non_finite()),
            _ => false,
        }
    }

    /// Appends the canonical text (docs/dataset-format.md): members in order
    /// with duplicates, integers in full, floats in their shortest form with a
    /// `.` or an exponent, so the text reads back to the same value.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            Value::Null => out.extend_from_slice(b"null"),
            Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            Value::Int(v) => write!(out, "{v}").expect("writing to a Vec"),
            Value::UInt(v) => write!(out, "{v}").expect("writing to a Vec"),
            Value::Big(v) => write!(out, "{v}").expect("writing to a Vec"),
            // serde_json's float text (shortest round trip, always a `.` or an
            // exponent) and string escapes, written in place.
            Value::Float(v) => serde_json::to_writer(&mut *out, v).expect("a finite float"),
            Value::String(s) => serde_json::to_writer(&mut *out, s).expect("a string"),
            Value::Array(elements) => {
                out.push(b'[');
                for (i, element) in elements.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    element.write(out);
                }
                out.push(b']');
            }
            Value::Object(members) => {
                out.push(b'{');
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    serde_json::to_writer(&mut *out, key).expect("a string");
                    out.push(b':');
                    value.write(out);
                }
                out.push(b'}');
            }
        }
    }

    /// The canonical text as a String.
    pub fn text(&self) -> String {
        let mut out = Vec::new();
        self.write(&mut out);
        String::from_utf8(out).expect("JSON text is UTF-8")
    }
}

enum Problem {
    Json(jiter::JiterError),
    TooDeep,
    BeyondDouble,
}

impl From<jiter::JiterError> for Problem {
    fn from(e: jiter::JiterError) -> Self {
        Problem::Json(e)
    }
}

fn read(jiter: &mut Jiter, depth: usize) -> Result<Value, Problem> {
    let peek = jiter.peek()?;
    read_known(jiter, peek, depth)
}

fn read_known(jiter: &mut Jiter, peek: Peek, depth: usize) -> Result<Value, Problem> {
    Ok(match peek {
        Peek::Null => {
            jiter.known_null()?;
            Value::Null
        }
        Peek::True | Peek::False => Value::Bool(jiter.known_bool(peek)?),
        Peek::String => Value::String(jiter.known_str()?.to_owned()),
        Peek::Array => {
            if depth == MAX_DEPTH {
                return Err(Problem::TooDeep);
            }
            let mut elements = Vec::new();
            let mut next = jiter.known_array()?;
            while let Some(peek) = next {
                elements.push(read_known(jiter, peek, depth + 1)?);
                next = jiter.array_step()?;
            }
            Value::Array(elements)
        }
        Peek::Object => {
            if depth == MAX_DEPTH {
                return Err(Problem::TooDeep);
            }
            let mut members = Vec::new();
            let mut key = jiter.known_object()?.map(str::to_owned);
            while let Some(k) = key {
                let value = read(jiter, depth + 1)?;
                members.push((k, value));
                key = jiter.next_key()?.map(str::to_owned);
            }
            Value::Object(members)
        }
        _ => match jiter.known_number(peek)? {
            NumberAny::Float(v) if v.is_infinite() => return Err(Problem::BeyondDouble),
            NumberAny::Float(v) => Value::Float(v),
            NumberAny::Int(NumberInt::Int(v)) => Value::Int(v),
            NumberAny::Int(NumberInt::BigInt(v)) => match u64::try_from(&v) {
                Ok(v) => Value::UInt(v),
                Err(_) => Value::Big(Box::new(v)),
            },
        },
    })
}

/// Serde's data model of the value, for the formats that encode through
/// serde: integers beyond 64 bits as i128/u128 where they fit (a format
/// without 128-bit integers refuses them, which is its finding), objects as
/// maps with every member, duplicates included.
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Int(v) => serializer.serialize_i64(*v),
            Value::UInt(v) => serializer.serialize_u64(*v),
            Value::Big(v) => {
                if let Ok(v) = i128::try_from(v.as_ref()) {
                    serializer.serialize_i128(v)
                } else if let Ok(v) = u128::try_from(v.as_ref()) {
                    serializer.serialize_u128(v)
                } else {
                    Err(S::Error::custom(format!(
                        "the integer {v} is beyond 128 bits, which serde cannot carry"
                    )))
                }
            }
            Value::Float(v) => serializer.serialize_f64(*v),
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(elements) => {
                let mut seq = serializer.serialize_seq(Some(elements.len()))?;
                for element in elements {
                    seq.serialize_element(element)?;
                }
                seq.end()
            }
            Value::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(json: &str) -> String {
        Value::parse(json.as_bytes()).unwrap().text()
    }

    #[test]
    fn numbers_keep_their_kind_and_exact_value() {
        assert_eq!(Value::parse(b"1").unwrap(), Value::Int(1));
        assert_eq!(Value::parse(b"-0").unwrap(), Value::Int(0));
        assert_eq!(Value::parse(b"1.0").unwrap(), Value::Float(1.0));
        assert_eq!(Value::parse(b"18446744073709551615").unwrap(), Value::UInt(u64::MAX));
        assert!(matches!(Value::parse(b"-9223372036854775809").unwrap(), Value::Big(_)));
        let Value::Float(z) = Value::parse(b"-0.0").unwrap() else { panic!() };
        assert!(z == 0.0 && z.is_sign_negative());
    }

    #[test]
    fn canonical_text_reads_back_to_the_same_value() {
        let line = r#" {"a":1,"a":[1.0,-0.0,1e300,2.5e-8,123456789012345678901234567890],"é\n":"x\"y","n":null,"t":true} "#;
        let canonical = text(line);
        assert_eq!(
            canonical,
            r#"{"a":1,"a":[1.0,-0.0,1e+300,2.5e-8,123456789012345678901234567890],"é\n":"x\"y","n":null,"t":true}"#
        );
        assert_eq!(
            Value::parse(canonical.as_bytes()).unwrap(),
            Value::parse(line.as_bytes()).unwrap()
        );
    }

    #[test]
    fn what_no_format_can_carry_is_refused_with_its_column() {
        let error = |json: &str| Value::parse(json.as_bytes()).unwrap_err();
        assert!(error("[1e400]").contains("number out of range"), "{}", error("[1e400]"));
        assert_eq!(error(r#""\ud800""#), "column 8: unexpected end of hex escape");
        assert!(error("[1,]").starts_with("column "), "{}", error("[1,]"));
        assert!(error("1 2").contains("trailing"), "{}", error("1 2"));
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert!(error(&deep).contains("deeper than 512"), "{}", error(&deep));
        let fits = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(Value::parse(fits.as_bytes()).is_ok());
    }

    #[test]
    fn integers_are_exact_up_to_max_digits_and_refused_beyond_by_that_limit() {
        let longest = "9".repeat(MAX_DIGITS);
        let Value::Big(kept) = Value::parse(longest.as_bytes()).unwrap() else { panic!() };
        assert_eq!(kept.to_string(), longest);
        let error = Value::parse(format!("[{longest}1]").as_bytes()).unwrap_err();
        assert_eq!(
            error,
            "column 4303: a number of more than 4300 digits before its point or exponent; integers are kept exactly up to 4300 digits"
        );
    }
}
