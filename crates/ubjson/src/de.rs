//! A serde `Deserializer` that reads UBJSON (Draft 12) from a byte slice,
//! borrowing strings (and binary data) from the input.
//!
//! Everything the spec defines is read: all value types (`Z N T F i U I l L d D
//! H C S`), arrays and objects with end markers, with a count (`#`), and with a
//! type and a count (`$` then `#`), including strongly typed containers of
//! payload-less types (`[$Z#...`, `[$T#...`) and of containers (`[$[#...`).
//! No-ops (`N`) are skipped wherever a value or key may start; a container
//! typed `$N` holds no values (an object typed `$N` holds names only, which are
//! read and dropped).
//!
//! Mapping to serde: integers go to the `visit_*` of their exact UBJSON type;
//! a high-precision number `H` is checked against JSON's number grammar, then
//! given as an integer when it is one that fits 128 bits, else as its text
//! (a float target parses that text); `C` is a char; a strongly typed `uint8`
//! array is borrowed bytes for `deserialize_bytes`; enums are read from a
//! string (unit variants) or a one-entry object `{variant: value}`.
//!
//! Guards against hostile input: counts must fit in the remaining input (a
//! container of payload-less values may claim at most 2^24 of them), and
//! containers nest at most 128 deep.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Visitor};

use super::error::{Error, Result};
use super::marker;

const MAX_DEPTH: usize = 128;
/// Most values a strongly typed container of `Z`, `T` or `F` (whose values take
/// no bytes) may claim.
const MAX_PAYLOADLESS_COUNT: usize = 1 << 24;

/// Reads UBJSON values from the start of a slice.
pub struct Deserializer<'de> {
    input: &'de [u8],
    pos: usize,
    /// The marker of the next value inside a strongly typed container, where
    /// values carry none.
    pending: Option<u8>,
    depth: usize,
}

/// The optional `$type` and `#count` after a container's start marker.
#[derive(Clone, Copy)]
struct Header {
    elem: Option<u8>,
    count: Option<usize>,
}

fn is_int(m: u8) -> bool {
    matches!(m, marker::INT8 | marker::UINT8 | marker::INT16 | marker::INT32 | marker::INT64)
}

fn is_value_type(m: u8) -> bool {
    is_int(m)
        || matches!(
            m,
            marker::NULL
                | marker::NOOP
                | marker::TRUE
                | marker::FALSE
                | marker::FLOAT32
                | marker::FLOAT64
                | marker::HIGH_PRECISION
                | marker::CHAR
                | marker::STRING
                | marker::ARRAY_START
                | marker::OBJECT_START
        )
}

/// JSON's number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
/// Returns whether `s` is one and whether it is an integer (no fraction or exponent).
fn json_number(s: &str) -> Option<bool> {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return None,
    }
    let mut integer = true;
    if b.get(i) == Some(&b'.') {
        i += 1;
        integer = false;
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        integer = false;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    (i == b.len()).then_some(integer)
}

impl<'de> Deserializer<'de> {
    pub fn from_slice(input: &'de [u8]) -> Self {
        Deserializer { input, pos: 0, pending: None, depth: 0 }
    }

    /// Bytes read so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Skips trailing no-ops and fails if anything else is left.
    pub fn end(&mut self) -> Result<()> {
        while self.input.get(self.pos) == Some(&marker::NOOP) {
            self.pos += 1;
        }
        if self.pos == self.input.len() {
            Ok(())
        } else {
            Err(Error::TrailingBytes { offset: self.pos })
        }
    }

    fn invalid(&self, offset: usize, what: &'static str) -> Error {
        Error::Invalid { offset, what }
    }

    #[inline]
    fn byte(&mut self) -> Result<u8> {
        let b = *self.input.get(self.pos).ok_or(Error::Eof)?;
        self.pos += 1;
        Ok(b)
    }

    #[inline]
    fn take(&mut self, n: usize) -> Result<&'de [u8]> {
        let end = self.pos.checked_add(n).ok_or(Error::Eof)?;
        let bytes = self.input.get(self.pos..end).ok_or(Error::Eof)?;
        self.pos = end;
        Ok(bytes)
    }

    #[inline]
    fn fixed<const N: usize>(&mut self) -> Result<[u8; N]> {
        let bytes =
            self.input.get(self.pos..).and_then(<[u8]>::first_chunk::<N>).ok_or(Error::Eof)?;
        self.pos += N;
        Ok(*bytes)
    }

    fn skip_noops(&mut self) {
        while self.input.get(self.pos) == Some(&marker::NOOP) {
            self.pos += 1;
        }
    }

    /// The next value's marker: the pending one in a typed container, else the
    /// next byte that is not a no-op.
    #[inline]
    fn marker(&mut self) -> Result<u8> {
        if let Some(m) = self.pending.take() {
            return Ok(m);
        }
        loop {
            let b = self.byte()?;
            if b != marker::NOOP {
                return Ok(b);
            }
        }
    }

    /// The payload of integer marker `m`.
    #[inline]
    fn int(&mut self, m: u8) -> Result<i64> {
        Ok(match m {
            marker::INT8 => i8::from_be_bytes(self.fixed()?).into(),
            marker::UINT8 => self.byte()?.into(),
            marker::INT16 => i16::from_be_bytes(self.fixed()?).into(),
            marker::INT32 => i32::from_be_bytes(self.fixed()?).into(),
            marker::INT64 => i64::from_be_bytes(self.fixed()?),
            other => {
                return Err(Error::Marker {
                    offset: self.pos - 1,
                    marker: other,
                    expected: "an integer",
                });
            }
        })
    }

    /// A length or count: an integer value, not negative.
    #[inline]
    fn length(&mut self) -> Result<usize> {
        let at = self.pos;
        let m = self.byte()?;
        if !is_int(m) {
            return Err(Error::Marker {
                offset: at,
                marker: m,
                expected: "an integer length or count",
            });
        }
        let v = self.int(m)?;
        usize::try_from(v).map_err(|_| self.invalid(at, "negative length or count"))
    }

    /// A string payload (after `S` or `H`, or an object key): length, UTF-8 bytes.
    #[inline]
    fn str(&mut self) -> Result<&'de str> {
        let len = self.length()?;
        let at = self.pos;
        let bytes = self.take(len)?;
        std::str::from_utf8(bytes).map_err(|_| self.invalid(at, "string is not UTF-8"))
    }

    /// A high-precision number's text, checked against JSON's number grammar;
    /// returns it and whether it is an integer.
    fn high_precision(&mut self) -> Result<(&'de str, bool)> {
        let at = self.pos;
        let s = self.str()?;
        let integer = json_number(s)
            .ok_or_else(|| self.invalid(at, "high-precision number is not a JSON number"))?;
        Ok((s, integer))
    }

    /// The optional type and count after `[` or `{`.
    fn header(&mut self) -> Result<Header> {
        let mut elem = None;
        if self.input.get(self.pos) == Some(&marker::TYPE) {
            self.pos += 1;
            let at = self.pos;
            let m = self.byte()?;
            if !is_value_type(m) {
                return Err(Error::Marker {
                    offset: at,
                    marker: m,
                    expected: "a container's value type",
                });
            }
            elem = Some(m);
            let at = self.pos;
            let b = self.byte()?;
            if b != marker::COUNT {
                return Err(Error::Marker {
                    offset: at,
                    marker: b,
                    expected: "'#' (a typed container needs a count)",
                });
            }
        } else if self.input.get(self.pos) == Some(&marker::COUNT) {
            self.pos += 1;
        } else {
            return Ok(Header { elem, count: None });
        }
        let at = self.pos;
        let count = self.length()?;
        let limit = match elem {
            Some(marker::NOOP) => usize::MAX,
            Some(marker::NULL | marker::TRUE | marker::FALSE) => MAX_PAYLOADLESS_COUNT,
            // Every other value, and every object entry, takes at least one byte.
            _ => self.input.len() - self.pos,
        };
        if count > limit {
            return Err(self.invalid(at, "container count exceeds what the input can hold"));
        }
        Ok(Header { elem, count: Some(count) })
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.invalid(self.pos, "containers nested more than 128 deep"));
        }
        Ok(())
    }

    /// In a container without a count: skips no-ops, then consumes `end` if it is next.
    fn at_end(&mut self, end: u8) -> Result<bool> {
        self.skip_noops();
        match self.input.get(self.pos) {
            Some(&b) if b == end => {
                self.pos += 1;
                Ok(true)
            }
            Some(_) => Ok(false),
            None => Err(Error::Eof),
        }
    }

    fn array<V: Visitor<'de>>(&mut self, header: Header, visitor: V) -> Result<V::Value> {
        self.enter()?;
        let remaining = if header.elem == Some(marker::NOOP) { Some(0) } else { header.count };
        let mut seq =
            Seq { de: self, elem: header.elem, items: Items::new(remaining, marker::ARRAY_END) };
        let value = visitor.visit_seq(&mut seq)?;
        seq.items.finish(seq.de, "array holds more values than expected")?;
        self.depth -= 1;
        Ok(value)
    }

    fn object<V: Visitor<'de>>(&mut self, header: Header, visitor: V) -> Result<V::Value> {
        self.enter()?;
        let mut remaining = header.count;
        if header.elem == Some(marker::NOOP) {
            // Names whose values are no-ops: no entries.
            for _ in 0..header.count.unwrap_or(0) {
                self.skip_noops();
                self.str()?;
            }
            remaining = Some(0);
        }
        let mut map =
            Map { de: self, elem: header.elem, items: Items::new(remaining, marker::OBJECT_END) };
        let value = visitor.visit_map(&mut map)?;
        map.items.finish(map.de, "object holds more entries than expected")?;
        self.depth -= 1;
        Ok(value)
    }

    /// The value after marker `m`.
    fn value<V: Visitor<'de>>(&mut self, m: u8, visitor: V) -> Result<V::Value> {
        match m {
            marker::NULL => visitor.visit_unit(),
            marker::TRUE => visitor.visit_bool(true),
            marker::FALSE => visitor.visit_bool(false),
            marker::INT8 => visitor.visit_i8(i8::from_be_bytes(self.fixed()?)),
            marker::UINT8 => visitor.visit_u8(self.byte()?),
            marker::INT16 => visitor.visit_i16(i16::from_be_bytes(self.fixed()?)),
            marker::INT32 => visitor.visit_i32(i32::from_be_bytes(self.fixed()?)),
            marker::INT64 => visitor.visit_i64(i64::from_be_bytes(self.fixed()?)),
            marker::FLOAT32 => visitor.visit_f32(f32::from_be_bytes(self.fixed()?)),
            marker::FLOAT64 => visitor.visit_f64(f64::from_be_bytes(self.fixed()?)),
            marker::HIGH_PRECISION => {
                let (s, integer) = self.high_precision()?;
                if integer {
                    if let Ok(v) = s.parse::<i64>() {
                        return visitor.visit_i64(v);
                    } else if let Ok(v) = s.parse::<u64>() {
                        return visitor.visit_u64(v);
                    } else if let Ok(v) = s.parse::<i128>() {
                        return visitor.visit_i128(v);
                    } else if let Ok(v) = s.parse::<u128>() {
                        return visitor.visit_u128(v);
                    }
                }
                visitor.visit_borrowed_str(s)
            }
            marker::CHAR => {
                let at = self.pos;
                let c = self.byte()?;
                if c > 127 {
                    return Err(self.invalid(at, "char value above 127"));
                }
                visitor.visit_char(c as char)
            }
            marker::STRING => visitor.visit_borrowed_str(self.str()?),
            marker::ARRAY_START => {
                let header = self.header()?;
                self.array(header, visitor)
            }
            marker::OBJECT_START => {
                let header = self.header()?;
                self.object(header, visitor)
            }
            other => Err(Error::Marker {
                offset: self.pos.saturating_sub(1),
                marker: other,
                expected: "a value",
            }),
        }
    }

    fn float<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.marker()? {
            marker::HIGH_PRECISION => {
                let at = self.pos;
                let (s, _) = self.high_precision()?;
                visitor.visit_f64(
                    s.parse().map_err(|_| {
                        self.invalid(at, "high-precision number out of float range")
                    })?,
                )
            }
            m => self.value(m, visitor),
        }
    }
}

/// Reads one value from the start of `input`; returns it and the bytes it took.
pub fn take_from_slice<'de, T: de::Deserialize<'de>>(input: &'de [u8]) -> Result<(T, usize)> {
    let mut de = Deserializer::from_slice(input);
    let value = T::deserialize(&mut de)?;
    Ok((value, de.position()))
}

/// Reads the one value `input` holds (trailing no-ops allowed).
pub fn from_slice<'de, T: de::Deserialize<'de>>(input: &'de [u8]) -> Result<T> {
    let mut de = Deserializer::from_slice(input);
    let value = T::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let m = self.marker()?;
        self.value(m, visitor)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.float(visitor)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.float(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.marker()? {
            marker::HIGH_PRECISION => visitor.visit_borrowed_str(self.high_precision()?.0),
            m => self.value(m, visitor),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.marker()? {
            marker::ARRAY_START => {
                let header = self.header()?;
                match header {
                    Header { elem: Some(marker::UINT8), count: Some(count) } => {
                        visitor.visit_borrowed_bytes(self.take(count)?)
                    }
                    _ => self.array(header, visitor),
                }
            }
            marker::STRING => visitor.visit_borrowed_bytes(self.str()?.as_bytes()),
            m => self.value(m, visitor),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.marker()? {
            marker::NULL => visitor.visit_none(),
            m => {
                self.pending = Some(m);
                visitor.visit_some(self)
            }
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let at = self.pos;
        match self.marker()? {
            marker::STRING => visitor.visit_enum(BorrowedStrDeserializer::new(self.str()?)),
            marker::OBJECT_START => {
                let header = self.header()?;
                if header.elem == Some(marker::NOOP) || header.count.is_some_and(|n| n != 1) {
                    return Err(self.invalid(at, "an enum object must hold exactly one entry"));
                }
                self.enter()?;
                let value = visitor.visit_enum(Enum { de: self, elem: header.elem })?;
                if header.count.is_none() && !self.at_end(marker::OBJECT_END)? {
                    return Err(
                        self.invalid(self.pos, "an enum object must hold exactly one entry")
                    );
                }
                self.depth -= 1;
                Ok(value)
            }
            m => Err(Error::Marker {
                offset: at,
                marker: m,
                expected: "an enum (a string or a one-entry object)",
            }),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 char unit unit_struct seq tuple
        tuple_struct map struct identifier
    }
}

/// Where a reader is among a container's items: the count still to read (count
/// form), or whether the end marker has been read (end-marker form).
struct Items {
    remaining: Option<usize>,
    ended: bool,
    /// The end marker of the end-marker form: `]` or `}`.
    end: u8,
}

impl Items {
    fn new(count: Option<usize>, end: u8) -> Self {
        Items { remaining: count, ended: false, end }
    }

    /// Whether another item follows; in the end-marker form, reads the end
    /// marker when it comes next.
    #[inline]
    fn next(&mut self, de: &mut Deserializer<'_>) -> Result<bool> {
        match &mut self.remaining {
            Some(0) => Ok(false),
            Some(n) => {
                *n -= 1;
                Ok(true)
            }
            None if self.ended => Ok(false),
            None => {
                self.ended = de.at_end(self.end)?;
                Ok(!self.ended)
            }
        }
    }

    /// Checks the visitor read every item; `surplus` says what is wrong if not.
    fn finish(&mut self, de: &mut Deserializer<'_>, surplus: &'static str) -> Result<()> {
        if self.next(de)? { Err(de.invalid(de.pos, surplus)) } else { Ok(()) }
    }
}

struct Seq<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    elem: Option<u8>,
    items: Items,
}

impl<'de> de::SeqAccess<'de> for Seq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.items.next(self.de)? {
            return Ok(None);
        }
        self.de.pending = self.elem;
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        self.items.remaining
    }
}

struct Map<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    elem: Option<u8>,
    items: Items,
}

impl<'de> de::MapAccess<'de> for Map<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.items.next(self.de)? {
            return Ok(None);
        }
        // A key has no marker of its own, so the no-ops before it are skipped
        // here (in the end-marker form, looking for the end did it already).
        self.de.skip_noops();
        seed.deserialize(Key { de: &mut *self.de }).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.de.pending = self.elem;
        seed.deserialize(&mut *self.de)
    }

    fn size_hint(&self) -> Option<usize> {
        self.items.remaining
    }
}

struct Enum<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    elem: Option<u8>,
}

impl<'de> de::EnumAccess<'de> for Enum<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        self.de.skip_noops();
        let variant = seed.deserialize(Key { de: &mut *self.de })?;
        self.de.pending = self.elem;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for Enum<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.de)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(&mut *self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_any(&mut *self.de, visitor)
    }
}

/// An object key: a string without its `S` marker. Integer targets parse it
/// (the serializer writes integer keys as decimal text).
struct Key<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

macro_rules! integer_key {
    ($($method:ident => $visit:ident $ty:ty,)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
                let at = self.de.pos;
                let key = self.de.str()?;
                let v: $ty = key.parse().map_err(|_| self.de.invalid(at, "object key is not an integer"))?;
                visitor.$visit(v)
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for Key<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.de.str()?)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(BorrowedStrDeserializer::new(self.de.str()?))
    }

    integer_key! {
        deserialize_i8 => visit_i8 i8,
        deserialize_i16 => visit_i16 i16,
        deserialize_i32 => visit_i32 i32,
        deserialize_i64 => visit_i64 i64,
        deserialize_i128 => visit_i128 i128,
        deserialize_u8 => visit_u8 u8,
        deserialize_u16 => visit_u16 u16,
        deserialize_u32 => visit_u32 u32,
        deserialize_u64 => visit_u64 u64,
        deserialize_u128 => visit_u128 u128,
    }

    serde::forward_to_deserialize_any! {
        bool f32 f64 char str string bytes byte_buf option unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}
