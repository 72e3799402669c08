//! The feature matrix: facts about each format family, as data. Printed by
//! `shootout formats`, included in the JSON export, and checked by a test to
//! cover every registered format.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Schema {
    /// A separate interface definition language and a compiler.
    Idl,
    /// Types derived from the program's own type definitions.
    Derive,
    /// No schema: the data describes itself.
    None,
}

#[derive(Debug, Serialize)]
pub struct Features {
    /// Matches `FormatInfo::family`.
    pub family: &'static str,
    pub schema: Schema,
    /// What the schema is written in, e.g. ".capnp IDL" or "Rust derive".
    pub schema_detail: &'static str,
    /// Bytes carry enough type information to be read without a schema.
    pub self_describing: bool,
    /// Fields can be read in place from the encoded bytes, without decoding the message.
    pub zero_copy: bool,
    /// How tagged unions / variants are expressed (or "no").
    pub unions: &'static str,
    /// How a field can be absent.
    pub optional_fields: &'static str,
    /// How messages are delimited in a stream.
    pub framing: &'static str,
    /// What changes keep old and new readers and writers compatible.
    pub evolution: &'static str,
    /// Languages with maintained implementations from the format's own project.
    pub languages: &'static str,
    /// License of the format's reference implementation.
    pub license: &'static str,
    /// Where the non-obvious facts above come from.
    pub sources: &'static [&'static str],
}

pub const FEATURES: &[Features] = &[];

pub fn of_family(family: &str) -> Option<&'static Features> {
    FEATURES.iter().find(|f| f.family == family)
}
