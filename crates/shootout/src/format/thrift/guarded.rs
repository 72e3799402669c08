//! A bounded-allocation guard for any Thrift `TInputProtocol`: the `thrift`
//! crate's readers and the code its compiler generates trust the sizes they
//! read, so untrusted bytes can make them allocate without bound or panic. This
//! wrapper checks what the inner protocol is about to act on against the bytes
//! actually left, and turns the rest into errors.

use std::cell::Cell;
use std::io::{self, Read};
use std::marker::PhantomData;

use ::thrift::protocol::{
    TFieldIdentifier, TInputProtocol, TListIdentifier, TMapIdentifier, TMessageIdentifier,
    TSetIdentifier, TStructIdentifier, TType,
};
use ::thrift::{ProtocolError, ProtocolErrorKind};

use super::Protocol;

/// Reads from a byte slice, advancing a position shared with [`Guarded`].
pub struct Transport<'a> {
    bytes: &'a [u8],
    pos: &'a Cell<usize>,
}

impl<'a> Transport<'a> {
    pub fn new(bytes: &'a [u8], pos: &'a Cell<usize>) -> Self {
        Transport { bytes, pos }
    }
}

impl Read for Transport<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let pos = self.pos.get();
        let rest = &self.bytes[pos..];
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.pos.set(pos + n);
        Ok(n)
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        let pos = self.pos.get();
        let Some(src) = self.bytes.get(pos..pos + buf.len()) else {
            return Err(io::ErrorKind::UnexpectedEof.into());
        };
        buf.copy_from_slice(src);
        self.pos.set(pos + buf.len());
        Ok(())
    }
}

/// A pass-through input protocol that checks sizes and field ids before the
/// wrapped protocol (or the generated code) acts on them.
pub struct Guarded<'a, I, P> {
    inner: I,
    bytes: &'a [u8],
    pos: &'a Cell<usize>,
    /// How many structs deep the reader is (the record itself is depth 1).
    depth: u32,
    protocol: PhantomData<P>,
}

impl<'a, I: TInputProtocol, P: Protocol> Guarded<'a, I, P> {
    /// Guards `inner`, a `P` reader over a [`Transport`] of `bytes` advancing `pos`.
    pub fn new(inner: I, bytes: &'a [u8], pos: &'a Cell<usize>) -> Self {
        Guarded { inner, bytes, pos, depth: 0, protocol: PhantomData }
    }
}

/// The generated reader reads the `Body` union (and nothing else) at this depth:
/// MultiMessage, Message, Body.
const UNION_DEPTH: u32 = 3;

/// The depth limit of the default `TInputProtocol::skip` (thrift 0.17).
const MAXIMUM_SKIP_DEPTH: i8 = 64;

fn invalid(kind: ProtocolErrorKind, message: &str) -> ::thrift::Error {
    ::thrift::Error::Protocol(ProtocolError::new(kind, message))
}

impl<I: TInputProtocol, P: Protocol> Guarded<'_, I, P> {
    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos.get()
    }

    /// Every element takes at least one byte, so a count beyond the bytes left is bad.
    fn check_count(&self, count: i32) -> ::thrift::Result<()> {
        if count < 0 {
            return Err(invalid(ProtocolErrorKind::NegativeSize, "negative container size"));
        }
        if count as usize > self.remaining() {
            return Err(invalid(ProtocolErrorKind::SizeLimit, "container larger than the input"));
        }
        Ok(())
    }

    fn check_string(&self) -> ::thrift::Result<()> {
        let rest = &self.bytes[self.pos.get()..];
        if let Some((len, prefix)) = P::peek_len(rest) {
            if len < 0 {
                return Err(invalid(ProtocolErrorKind::NegativeSize, "negative string length"));
            }
            if len as u64 > (rest.len() - prefix) as u64 {
                return Err(invalid(ProtocolErrorKind::SizeLimit, "string longer than the input"));
            }
        }
        Ok(())
    }
}

impl<I: TInputProtocol, P: Protocol> TInputProtocol for Guarded<'_, I, P> {
    fn read_message_begin(&mut self) -> ::thrift::Result<TMessageIdentifier> {
        self.inner.read_message_begin()
    }
    fn read_message_end(&mut self) -> ::thrift::Result<()> {
        self.inner.read_message_end()
    }
    fn read_struct_begin(&mut self) -> ::thrift::Result<Option<TStructIdentifier>> {
        self.depth += 1;
        self.inner.read_struct_begin()
    }
    fn read_struct_end(&mut self) -> ::thrift::Result<()> {
        self.depth -= 1;
        self.inner.read_struct_end()
    }
    /// Generated code calls `skip` (not `skip_till_depth`) for a field it does not
    /// know, at the depth of the struct it is reading. The generated union reader
    /// panics when the only field it saw was such a one, so unknown fields in the
    /// union are rejected; others are skipped as the default `skip` does.
    fn skip(&mut self, field_type: TType) -> ::thrift::Result<()> {
        if self.depth == UNION_DEPTH {
            return Err(invalid(ProtocolErrorKind::InvalidData, "unknown field in union Body"));
        }
        self.skip_till_depth(field_type, MAXIMUM_SKIP_DEPTH)
    }
    fn read_field_begin(&mut self) -> ::thrift::Result<TFieldIdentifier> {
        let field = self.inner.read_field_begin()?;
        // The compact reader adds the next field's delta (at most 15) to this id.
        if P::COMPACT && field.id.is_some_and(|id| id > i16::MAX - 15) {
            return Err(invalid(ProtocolErrorKind::InvalidData, "field id out of range"));
        }
        Ok(field)
    }
    fn read_field_end(&mut self) -> ::thrift::Result<()> {
        self.inner.read_field_end()
    }
    fn read_bool(&mut self) -> ::thrift::Result<bool> {
        self.inner.read_bool()
    }
    fn read_bytes(&mut self) -> ::thrift::Result<Vec<u8>> {
        self.check_string()?;
        self.inner.read_bytes()
    }
    fn read_i8(&mut self) -> ::thrift::Result<i8> {
        self.inner.read_i8()
    }
    fn read_i16(&mut self) -> ::thrift::Result<i16> {
        self.inner.read_i16()
    }
    fn read_i32(&mut self) -> ::thrift::Result<i32> {
        self.inner.read_i32()
    }
    fn read_i64(&mut self) -> ::thrift::Result<i64> {
        self.inner.read_i64()
    }
    fn read_double(&mut self) -> ::thrift::Result<f64> {
        self.inner.read_double()
    }
    fn read_string(&mut self) -> ::thrift::Result<String> {
        self.check_string()?;
        self.inner.read_string()
    }
    fn read_list_begin(&mut self) -> ::thrift::Result<TListIdentifier> {
        let list = self.inner.read_list_begin()?;
        self.check_count(list.size)?;
        Ok(list)
    }
    fn read_list_end(&mut self) -> ::thrift::Result<()> {
        self.inner.read_list_end()
    }
    fn read_set_begin(&mut self) -> ::thrift::Result<TSetIdentifier> {
        let set = self.inner.read_set_begin()?;
        self.check_count(set.size)?;
        Ok(set)
    }
    fn read_set_end(&mut self) -> ::thrift::Result<()> {
        self.inner.read_set_end()
    }
    fn read_map_begin(&mut self) -> ::thrift::Result<TMapIdentifier> {
        let map = self.inner.read_map_begin()?;
        self.check_count(map.size)?;
        Ok(map)
    }
    fn read_map_end(&mut self) -> ::thrift::Result<()> {
        self.inner.read_map_end()
    }
    fn read_byte(&mut self) -> ::thrift::Result<u8> {
        self.inner.read_byte()
    }
}
