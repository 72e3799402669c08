//! UBJSON (Universal Binary JSON, Draft 12) for serde.
//!
//! No maintained Rust crate implements UBJSON, so this crate is a small,
//! spec-complete serde `Serializer` ([`ser`]) and `Deserializer` ([`de`]) written
//! from the Draft 12 specification (ubjson.org): every value type (null `Z`,
//! no-op `N`, `T`/`F`, int8 `i`, uint8 `U`, int16 `I`, int32 `l`, int64 `L`,
//! float32 `d`, float64 `D`, high-precision `H`, char `C`, string `S`), arrays
//! `[ ]` and objects `{ }`, and the optimized container forms (`#` count, `$`
//! type with count). Numbers are big-endian, as the spec requires. The mapping
//! to serde is described in [`ser`] and [`de`]; in short it is the JSON-like one
//! serde_json uses, with UBJSON's number types. UBJSON has no unsigned 64-bit
//! integer: a `u64` above `i64::MAX` is written as a high-precision number (its
//! decimal digits), which reads back exactly.
//!
//! ```
//! let bytes = ubjson::to_vec(&(1u8, "a")).unwrap();
//! // A tuple is a counted array: `[#`, the count 2 as an int8, the int8 1, the string "a".
//! assert_eq!(bytes, b"[#i\x02i\x01Si\x01a");
//! assert_eq!(ubjson::from_slice::<(u8, String)>(&bytes).unwrap(), (1, "a".to_owned()));
//! ```

pub mod de;
mod error;
pub mod ser;

use serde::Serialize;

pub use de::{Deserializer, from_slice, take_from_slice};
pub use error::Error;
pub use ser::Serializer;

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

#[cfg(test)]
mod tests;
