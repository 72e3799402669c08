//! A serde `Serializer` that writes UBJSON (Draft 12) into a `Vec<u8>`.
//!
//! Mapping (the JSON-like one serde_json uses, in UBJSON's types):
//! - `bool` → `T`/`F`; unit, unit structs and `None` → `Z`; `Some(v)` → `v`.
//! - Integers → the smallest of `i` (int8), `U` (uint8), `I` (int16), `l` (int32),
//!   `L` (int64) that holds the value, as the spec recommends. UBJSON has no
//!   unsigned 64-bit type: an integer beyond `i64` (a `u64` above `i64::MAX`, a
//!   wide `i128`/`u128`) is written as a high-precision number `H`, its decimal
//!   digits, which this crate's reader (and other readers that map `H` to a big
//!   number) gives back exactly.
//! - `f32` → `d`, `f64` → `D`; infinities and NaN → `Z`, per the spec ("numeric
//!   values of infinity are encoded as a null value"); reading them back into a
//!   float is then an error, as with JSON.
//! - `char` → `C` when ASCII, else a one-character string `S`; strings → `S`.
//! - Byte slices (`serialize_bytes`) → the spec's binary form, a strongly typed
//!   `uint8` array `[$U#<count><bytes>`.
//! - Sequences and tuples → arrays; maps and structs → objects (keys must be
//!   strings, chars or integers; integers are written as their decimal text).
//! - Enums are externally tagged like JSON: a unit variant is its name as a
//!   string, any other variant a one-entry object `{name: value}`.
//!
//! Containers whose length is known up front use the optimized count form
//! (`[#<count>` / `{#<count>`, no end marker) unless the serializer is built
//! with [`Serializer::streaming`], which always writes end markers.

use serde::ser::{self, Serialize};

use super::error::{Error, Result};
use super::marker;

/// Writes UBJSON into `out` (appending).
pub struct Serializer<'a> {
    out: &'a mut Vec<u8>,
    counted: bool,
}

impl<'a> Serializer<'a> {
    /// Containers of known length get the count form (`[#`, `{#`).
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        Serializer { out, counted: true }
    }

    /// Every container is written with start and end markers, no counts.
    pub fn streaming(out: &'a mut Vec<u8>) -> Self {
        Serializer { out, counted: false }
    }

    fn open(&mut self, start: u8, end: u8, len: Option<usize>) -> Result<Compound<'_, 'a>> {
        self.out.push(start);
        match len {
            Some(len) if self.counted => {
                self.out.push(marker::COUNT);
                write_length(self.out, len)?;
                Ok(Compound { ser: self, end: None, variant: false })
            }
            _ => Ok(Compound { ser: self, end: Some(end), variant: false }),
        }
    }

    /// `{name: ...`: the one-entry object around a non-unit enum variant.
    fn open_variant(&mut self, variant: &str) -> Result<()> {
        self.out.push(marker::OBJECT_START);
        if self.counted {
            self.out.extend_from_slice(&[marker::COUNT, marker::INT8, 1]);
        }
        write_key(self.out, variant)
    }

    fn close_variant(&mut self) {
        if !self.counted {
            self.out.push(marker::OBJECT_END);
        }
    }
}

/// The smallest integer type holding `v`: marker and big-endian payload.
pub(crate) fn write_int(out: &mut Vec<u8>, v: i64) {
    if let Ok(v) = i8::try_from(v) {
        out.extend_from_slice(&[marker::INT8, v as u8]);
    } else if let Ok(v) = u8::try_from(v) {
        out.extend_from_slice(&[marker::UINT8, v]);
    } else if let Ok(v) = i16::try_from(v) {
        out.push(marker::INT16);
        out.extend_from_slice(&v.to_be_bytes());
    } else if let Ok(v) = i32::try_from(v) {
        out.push(marker::INT32);
        out.extend_from_slice(&v.to_be_bytes());
    } else {
        out.push(marker::INT64);
        out.extend_from_slice(&v.to_be_bytes());
    }
}

/// A float: its marker `kind` and big-endian bytes, or null when it is not finite
/// (the spec: "numeric values of infinity are encoded as a null value").
#[inline]
fn write_float<const N: usize>(out: &mut Vec<u8>, finite: bool, kind: u8, bytes: [u8; N]) {
    if finite {
        out.push(kind);
        out.extend_from_slice(&bytes);
    } else {
        out.push(marker::NULL);
    }
}

/// A length or count: an integer value (marker and payload), never negative.
pub(crate) fn write_length(out: &mut Vec<u8>, len: usize) -> Result<()> {
    let len =
        i64::try_from(len).map_err(|_| Error::Custom(format!("length {len} exceeds int64")))?;
    write_int(out, len);
    Ok(())
}

/// An object key: a string without its `S` marker.
pub(crate) fn write_key(out: &mut Vec<u8>, key: &str) -> Result<()> {
    write_length(out, key.len())?;
    out.extend_from_slice(key.as_bytes());
    Ok(())
}

/// `n` in decimal into the end of `buffer`; returns the digits (with sign).
fn decimal(negative: bool, mut n: u128, buffer: &mut [u8; 40]) -> &[u8] {
    let mut start = buffer.len();
    loop {
        start -= 1;
        buffer[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if negative {
        start -= 1;
        buffer[start] = b'-';
    }
    &buffer[start..]
}

/// Any integer: a UBJSON integer if it fits int64, else a high-precision number.
fn write_wide(out: &mut Vec<u8>, negative: bool, magnitude: u128) {
    let fits = if negative { magnitude <= 1 << 63 } else { magnitude <= i64::MAX as u128 };
    if fits {
        let v = if negative { (magnitude as i128).wrapping_neg() as i64 } else { magnitude as i64 };
        write_int(out, v);
    } else {
        let mut buffer = [0; 40];
        let digits = decimal(negative, magnitude, &mut buffer);
        out.push(marker::HIGH_PRECISION);
        write_int(out, digits.len() as i64);
        out.extend_from_slice(digits);
    }
}

fn write_str(out: &mut Vec<u8>, s: &str) -> Result<()> {
    out.push(marker::STRING);
    write_key(out, s)
}

/// The `serialize_*` of the integer types `i64` holds: the smallest UBJSON
/// integer type that holds the value.
macro_rules! int_within_i64 {
    ($($method:ident: $t:ty),+ $(,)?) => {$(
        fn $method(self, v: $t) -> Result<()> {
            write_int(self.out, v.into());
            Ok(())
        }
    )+};
}

impl<'s, 'a> ser::Serializer for &'s mut Serializer<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'s, 'a>;
    type SerializeTuple = Compound<'s, 'a>;
    type SerializeTupleStruct = Compound<'s, 'a>;
    type SerializeTupleVariant = Compound<'s, 'a>;
    type SerializeMap = Compound<'s, 'a>;
    type SerializeStruct = Compound<'s, 'a>;
    type SerializeStructVariant = Compound<'s, 'a>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.out.push(if v { marker::TRUE } else { marker::FALSE });
        Ok(())
    }

    int_within_i64! {
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
    }

    fn serialize_i128(self, v: i128) -> Result<()> {
        write_wide(self.out, v < 0, v.unsigned_abs());
        Ok(())
    }

    fn serialize_u64(self, v: u64) -> Result<()> {
        match i64::try_from(v) {
            Ok(v) => write_int(self.out, v),
            Err(_) => write_wide(self.out, false, v.into()),
        }
        Ok(())
    }

    fn serialize_u128(self, v: u128) -> Result<()> {
        write_wide(self.out, false, v);
        Ok(())
    }

    fn serialize_f32(self, v: f32) -> Result<()> {
        write_float(self.out, v.is_finite(), marker::FLOAT32, v.to_be_bytes());
        Ok(())
    }

    fn serialize_f64(self, v: f64) -> Result<()> {
        write_float(self.out, v.is_finite(), marker::FLOAT64, v.to_be_bytes());
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<()> {
        if v.is_ascii() {
            self.out.extend_from_slice(&[marker::CHAR, v as u8]);
            Ok(())
        } else {
            write_str(self.out, v.encode_utf8(&mut [0; 4]))
        }
    }

    fn serialize_str(self, v: &str) -> Result<()> {
        write_str(self.out, v)
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.out.extend_from_slice(&[
            marker::ARRAY_START,
            marker::TYPE,
            marker::UINT8,
            marker::COUNT,
        ]);
        write_length(self.out, v.len())?;
        self.out.extend_from_slice(v);
        Ok(())
    }

    fn serialize_none(self) -> Result<()> {
        self.out.push(marker::NULL);
        Ok(())
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<()> {
        self.out.push(marker::NULL);
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        write_str(self.out, variant)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.open_variant(variant)?;
        value.serialize(&mut *self)?;
        self.close_variant();
        Ok(())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'s, 'a>> {
        self.open(marker::ARRAY_START, marker::ARRAY_END, len)
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'s, 'a>> {
        self.open(marker::ARRAY_START, marker::ARRAY_END, Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'s, 'a>> {
        self.open(marker::ARRAY_START, marker::ARRAY_END, Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'s, 'a>> {
        self.open_variant(variant)?;
        let mut compound = self.open(marker::ARRAY_START, marker::ARRAY_END, Some(len))?;
        compound.variant = true;
        Ok(compound)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'s, 'a>> {
        self.open(marker::OBJECT_START, marker::OBJECT_END, len)
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'s, 'a>> {
        self.open(marker::OBJECT_START, marker::OBJECT_END, Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'s, 'a>> {
        self.open_variant(variant)?;
        let mut compound = self.open(marker::OBJECT_START, marker::OBJECT_END, Some(len))?;
        compound.variant = true;
        Ok(compound)
    }
}

/// An open array or object; writes its end marker (if it has one) on `end`.
pub struct Compound<'s, 'a> {
    ser: &'s mut Serializer<'a>,
    end: Option<u8>,
    /// Inside the one-entry object of an enum variant, which closes too.
    variant: bool,
}

impl Compound<'_, '_> {
    fn finish(self) -> Result<()> {
        if let Some(end) = self.end {
            self.ser.out.push(end);
        }
        if self.variant {
            self.ser.close_variant();
        }
        Ok(())
    }
}

/// The element-by-element containers: each element is a plain value, and `end`
/// closes the container as it was opened.
macro_rules! values_compound {
    ($($container:ident::$element:ident),+) => {$(
        impl ser::$container for Compound<'_, '_> {
            type Ok = ();
            type Error = Error;

            fn $element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
                value.serialize(&mut *self.ser)
            }

            fn end(self) -> Result<()> {
                self.finish()
            }
        }
    )+};
}

values_compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        key.serialize(KeySerializer { out: self.ser.out })
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.ser)
    }

    fn end(self) -> Result<()> {
        self.finish()
    }
}

/// The field-by-field containers: each field is its name as an object key,
/// then its value.
macro_rules! fields_compound {
    ($($container:ident),+) => {$(
        impl ser::$container for Compound<'_, '_> {
            type Ok = ();
            type Error = Error;

            fn serialize_field<T: ?Sized + Serialize>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<()> {
                write_key(self.ser.out, key)?;
                value.serialize(&mut *self.ser)
            }

            fn end(self) -> Result<()> {
                self.finish()
            }
        }
    )+};
}

fields_compound!(SerializeStruct, SerializeStructVariant);

/// Writes a map key: UBJSON object names are strings (without the `S` marker).
struct KeySerializer<'a> {
    out: &'a mut Vec<u8>,
}

impl KeySerializer<'_> {
    fn integer(self, negative: bool, magnitude: u128) -> Result<()> {
        let mut buffer = [0; 40];
        let digits = decimal(negative, magnitude, &mut buffer);
        write_length(self.out, digits.len())?;
        self.out.extend_from_slice(digits);
        Ok(())
    }
}

fn key_must_be_a_string() -> Error {
    Error::Custom("object keys must be strings, chars or integers".into())
}

impl ser::Serializer for KeySerializer<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_str(self, v: &str) -> Result<()> {
        write_key(self.out, v)
    }

    fn serialize_char(self, v: char) -> Result<()> {
        write_key(self.out, v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        write_key(self.out, variant)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_i8(self, v: i8) -> Result<()> {
        self.serialize_i128(v.into())
    }

    fn serialize_i16(self, v: i16) -> Result<()> {
        self.serialize_i128(v.into())
    }

    fn serialize_i32(self, v: i32) -> Result<()> {
        self.serialize_i128(v.into())
    }

    fn serialize_i64(self, v: i64) -> Result<()> {
        self.serialize_i128(v.into())
    }

    fn serialize_i128(self, v: i128) -> Result<()> {
        self.integer(v < 0, v.unsigned_abs())
    }

    fn serialize_u8(self, v: u8) -> Result<()> {
        self.serialize_u128(v.into())
    }

    fn serialize_u16(self, v: u16) -> Result<()> {
        self.serialize_u128(v.into())
    }

    fn serialize_u32(self, v: u32) -> Result<()> {
        self.serialize_u128(v.into())
    }

    fn serialize_u64(self, v: u64) -> Result<()> {
        self.serialize_u128(v.into())
    }

    fn serialize_u128(self, v: u128) -> Result<()> {
        self.integer(false, v)
    }

    fn serialize_bool(self, _v: bool) -> Result<()> {
        Err(key_must_be_a_string())
    }

    fn serialize_f32(self, _v: f32) -> Result<()> {
        Err(key_must_be_a_string())
    }

    fn serialize_f64(self, _v: f64) -> Result<()> {
        Err(key_must_be_a_string())
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<()> {
        Err(key_must_be_a_string())
    }

    fn serialize_none(self) -> Result<()> {
        Err(key_must_be_a_string())
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _value: &T) -> Result<()> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit(self) -> Result<()> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        Err(key_must_be_a_string())
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(key_must_be_a_string())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(key_must_be_a_string())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(key_must_be_a_string())
    }
}
