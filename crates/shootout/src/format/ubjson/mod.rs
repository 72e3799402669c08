//! UBJSON (Universal Binary JSON, Draft 12) — our own implementation.
//!
//! No maintained Rust crate implements UBJSON, so this module is a small,
//! spec-complete serde `Serializer` ([`ser`]) and `Deserializer` ([`de`]) written
//! for this project from the Draft 12 specification (ubjson.org): every value
//! type (null `Z`, no-op `N`, `T`/`F`, int8 `i`, uint8 `U`, int16 `I`, int32 `l`,
//! int64 `L`, float32 `d`, float64 `D`, high-precision `H`, char `C`, string `S`),
//! arrays `[ ]` and objects `{ }`, and the optimized container forms (`#` count,
//! `$` type with count). Numbers are big-endian, as the spec requires. The
//! mapping to serde is described in [`ser`] and [`de`]; in short it is the
//! JSON-like one serde_json uses, with UBJSON's number types. UBJSON has no
//! unsigned 64-bit integer: a `u64` above `i64::MAX` is written as a
//! high-precision number (its decimal digits), which reads back exactly.
//!
//! The iex codec ([`Ubjson`]) serializes each record as one UBJSON object and
//! reads it back through the iex `DeserializeSeed`, straight into the aggregator. A UBJSON
//! value is self-delimiting, so records follow one another with no prefix.

pub mod de;
mod error;
pub mod ser;

use anyhow::{Context, Result};
use serde::Serialize;

pub use de::{Deserializer, from_slice, take_from_slice};
pub use error::Error;
pub use ser::Serializer;

use super::serde_decode::SerdeDecode;
use super::{Codec, Family, Format, FormatInfo, Labels, features};

/// Type markers and the container markers of Draft 12.
pub mod marker {
    pub const NULL: u8 = b'Z';
    pub const NOOP: u8 = b'N';
    pub const TRUE: u8 = b'T';
    pub const FALSE: u8 = b'F';
    pub const INT8: u8 = b'i';
    pub const UINT8: u8 = b'U';
    pub const INT16: u8 = b'I';
    pub const INT32: u8 = b'l';
    pub const INT64: u8 = b'L';
    pub const FLOAT32: u8 = b'd';
    pub const FLOAT64: u8 = b'D';
    pub const HIGH_PRECISION: u8 = b'H';
    pub const CHAR: u8 = b'C';
    pub const STRING: u8 = b'S';
    pub const ARRAY_START: u8 = b'[';
    pub const ARRAY_END: u8 = b']';
    pub const OBJECT_START: u8 = b'{';
    pub const OBJECT_END: u8 = b'}';
    /// Optimized containers: the values' type follows.
    pub const TYPE: u8 = b'$';
    /// Optimized containers: the count follows.
    pub const COUNT: u8 = b'#';
}

/// Appends `value` as UBJSON to `out`, using the count form for containers of
/// known length.
pub fn to_writer<T: ?Sized + Serialize>(out: &mut Vec<u8>, value: &T) -> Result<(), Error> {
    value.serialize(&mut Serializer::new(out))
}

/// `value` as UBJSON in a new vector.
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    to_writer(&mut out, value)?;
    Ok(out)
}

pub struct Ubjson;

impl Format for Ubjson {
    const INFO: FormatInfo = FormatInfo {
        name: "ubjson",
        family: Family::Format(&features::UBJSON),
        library: "shootout",
        labels: Labels::OWNED_SERDE,
        notes: "Our own UBJSON Draft 12 implementation (no maintained crate exists): a serde \
                Serializer/Deserializer in format/ubjson, spec-complete (all value types, no-op, \
                optimized $type/#count containers). Each record is one object, field names as \
                keys, smallest integer type per value (big-endian), containers in the #count \
                form, Body externally tagged ({\"Trade\": {...}}), Side a string. u64 above \
                i64::MAX (no UBJSON type) is a high-precision H decimal, read back exactly. \
                Self-delimiting: records back to back, no prefix. Encode appends straight to the \
                stream; decode feeds the record through a DeserializeSeed straight into the \
                aggregator, one message at a time, with no message Vec (symbols borrowed, UTF-8 \
                checked). \
                Record-shaped workloads: one object per record, decoded into the owned record, \
                then visited; f32 is float32 d, f64 float64 D (bit-exact), None null Z.",
    };
}

impl<W: SerdeDecode> Codec<W> for Ubjson {
    fn new() -> Self {
        Ubjson
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        to_writer(stream, record).context("ubjson: encode")
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        let mut de = Deserializer::from_slice(stream);
        W::deserialize_into(&mut de, sink).context("ubjson: decode")?;
        Ok(de.position())
    }
}

#[cfg(test)]
mod tests;
