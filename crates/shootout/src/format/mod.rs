//! Formats: one module per format library, each implementing [`Codec`] for the
//! workloads it can express, plus one line in that workload's registry below.

pub mod apache_avro;
pub mod bebop;
pub mod bincode;
pub mod bitcode;
pub mod borsh;
pub mod bson;
pub mod buffa;
pub mod capnp;
pub mod ciborium;
pub mod dbn;
pub mod features;
pub mod flatbuffers;
pub mod flexbuffers;
pub mod fory;
pub mod iex_tp;
pub mod minicbor;
pub mod musli;
pub mod planus;
pub mod postcard;
pub mod prost;
pub mod prost_reflect;
mod protobuf_records;
pub mod releases;
pub mod rkyv;
pub mod rmp_serde;
pub mod sbe;
pub mod serde_decode;
pub mod serde_json;
pub mod simd_json;
pub mod sonic_rs;
pub mod spec;
pub mod speedy;
pub mod thrift;
pub mod ubjson;
pub mod upb;
pub mod wincode;
pub mod zerompk;

#[cfg(test)]
pub(crate) mod codec_tests;
#[cfg(test)]
pub(crate) mod conformance;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::workload::Workload;
use features::Features;

/// Mounts a module of compiler output (committed under a `generated/` folder,
/// never edited by hand): rustfmt leaves it alone, and the lints that
/// generated code cannot meet are off, the union of what the pinned
/// compilers' outputs need.
macro_rules! generated_code {
    ($(#[$attribute:meta])* mod $name:ident $($body:tt)*) => {
        #[allow(
            clippy::all,
            clippy::pedantic,
            dead_code,
            deprecated,
            missing_docs,
            non_camel_case_types,
            non_snake_case,
            unsafe_op_in_unsafe_fn,
            unused_extern_crates,
            unused_imports,
            unused_parens,
        )]
        #[rustfmt::skip]
        $(#[$attribute])*
        mod $name $($body)*
    };
}
pub(crate) use generated_code;

/// What a format variant is and how it uses its library; shown beside every number.
#[derive(Debug)]
pub struct FormatInfo {
    /// Unique CLI name, e.g. `capnp-packed`.
    pub name: &'static str,
    /// Family the variant belongs to, e.g. `Cap'n Proto`.
    pub family: Family,
    /// The crate that implements the format; its locked version is recorded in results.
    pub library: &'static str,
    pub labels: Labels,
    /// Layout choices and anything a reader of the numbers should know.
    pub notes: &'static str,
    /// The wire format its bytes are: formats of any language with the same
    /// wire read each other's records (`shootout interop`, docs/interop.md).
    /// `None` only for what is not a format (the baseline, test fixtures).
    pub wire: Option<&'static str>,
    /// How its codec delimits one record in the stream it encodes.
    pub framing: Framing,
}

/// How a codec delimits one record inside its stream (spec/formats.json).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Framing {
    /// A 4-byte little-endian length, then the body.
    U32le,
    /// A protobuf base-128 varint length, then the body.
    Varint,
    /// No prefix: the body is a self-delimiting message.
    None,
    /// The body, then a newline (`\n`): JSON Lines.
    Newline,
}

/// A format's family: its row of the feature matrix, named by constant
/// (`Family::Format(&features::CAPNP)`), so a format cannot name a family the
/// matrix lacks.
#[derive(Debug, Clone, Copy)]
pub enum Family {
    Format(&'static Features),
    /// Not a format (the harness's baseline, test fixtures): a name with no row.
    NotAFormat(&'static str),
}

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::Format(features) => features.family,
            Family::NotAFormat(name) => name,
        }
    }

    pub fn features(self) -> Option<&'static Features> {
        match self {
            Family::Format(features) => Some(features),
            Family::NotAFormat(_) => None,
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Labels {
    /// Builders and scratch buffers are reused across records.
    pub buffer_reuse: bool,
    pub decode: DecodeStyle,
    pub access: Access,
    pub api: Api,
    /// How the mapping loses information, if it does.
    pub lossy: Option<&'static str>,
    /// Why the library counts as unmaintained (an advisory, its maintainers'
    /// word), if it does: a fact of the library row, not of its family (whose
    /// other libraries may be kept). Left out of the JSON when `None`, so the
    /// rows of other languages and older results need not carry it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmaintained: Option<&'static str>,
    /// Why the allocation pass cannot count this codec's allocations (a
    /// library allocating outside Rust's global allocator, as C code calling
    /// malloc does), if it cannot: its allocation figures are then left out,
    /// never shown short. Left out of the JSON when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uncounted_allocations: Option<&'static str>,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecodeStyle {
    /// Fields are read in place from the encoded bytes.
    ZeroCopy,
    /// Decoding builds owned values.
    Owned,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Access {
    /// The library checks the bytes before or while reading them.
    Validated,
    /// Reads skip validation (not what a default user would do).
    Unchecked,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Api {
    /// Generated code or the library's own API.
    Native,
    Serde,
    /// The library's runtime API over a user's schema read at run time (`--schema`).
    Dynamic,
}

impl Api {
    /// A user's schema read at run time: the formats `--schema` adds.
    pub fn is_dynamic(self) -> bool {
        matches!(self, Api::Dynamic)
    }
}

/// The label sets formats share, so a format file names what it is; every one reuses
/// its buffers, since a codec that does not is a finding worth spelling out in full.
impl Labels {
    /// Generated code or the library's own derives, decoding into owned values.
    pub const OWNED_NATIVE: Labels =
        Labels::new(DecodeStyle::Owned, Access::Validated, Api::Native);
    /// Serde, decoding into owned values.
    pub const OWNED_SERDE: Labels = Labels::new(DecodeStyle::Owned, Access::Validated, Api::Serde);
    /// Generated code or the library's own API, reading verified bytes in place.
    pub const ZERO_COPY_NATIVE: Labels =
        Labels::new(DecodeStyle::ZeroCopy, Access::Validated, Api::Native);
    /// Serde over a reader that borrows from the bytes.
    pub const ZERO_COPY_SERDE: Labels =
        Labels::new(DecodeStyle::ZeroCopy, Access::Validated, Api::Serde);
    /// A user's schema read at run time, decoding into the library's dynamic values.
    pub const OWNED_DYNAMIC: Labels =
        Labels::new(DecodeStyle::Owned, Access::Validated, Api::Dynamic);
    /// Reads in place and skips the library's validation.
    pub const ZERO_COPY_UNCHECKED: Labels =
        Labels::new(DecodeStyle::ZeroCopy, Access::Unchecked, Api::Native);

    const fn new(decode: DecodeStyle, access: Access, api: Api) -> Labels {
        Labels {
            buffer_reuse: true,
            decode,
            access,
            api,
            lossy: None,
            unmaintained: None,
            uncounted_allocations: None,
        }
    }

    /// These labels, for a codec that reuses nothing across records (a
    /// finding its notes spell out: why the library's API allows no reuse).
    pub const fn fresh_buffers(self) -> Labels {
        Labels { buffer_reuse: false, ..self }
    }

    /// These labels, for a mapping that loses information as `how` says.
    pub const fn lossy(self, how: &'static str) -> Labels {
        Labels { lossy: Some(how), ..self }
    }

    /// These labels, for a library that is no longer maintained, as `evidence` says.
    pub const fn unmaintained(self, evidence: &'static str) -> Labels {
        Labels { unmaintained: Some(evidence), ..self }
    }

    /// These labels, for a library whose allocations the counting allocator
    /// cannot see, as `why` says.
    pub const fn uncounted_allocations(self, why: &'static str) -> Labels {
        Labels { uncounted_allocations: Some(why), ..self }
    }

    /// The short tags printed beside a format's name.
    pub fn tags(&self) -> Vec<&'static str> {
        let mut tags = vec![
            if self.buffer_reuse { "reuse" } else { "fresh-buffers" },
            match self.decode {
                DecodeStyle::ZeroCopy => "zero-copy",
                DecodeStyle::Owned => "owned",
            },
            match self.access {
                Access::Validated => "validated",
                Access::Unchecked => "UNCHECKED",
            },
            match self.api {
                Api::Native => "native",
                Api::Serde => "serde",
                Api::Dynamic => "dynamic",
            },
        ];
        if self.lossy.is_some() {
            tags.push("lossy");
        }
        if self.unmaintained.is_some() {
            tags.push("unmaintained");
        }
        tags
    }
}

/// Format metadata, shared by all workloads a format supports.
pub trait Format {
    const INFO: FormatInfo;
}

/// Encodes records of workload `W` into one stream and decodes them back.
///
/// `encode` appends one record with the format's native framing (or a length
/// prefix where it has none) to `stream`; `decode` reads the record at the start
/// of `stream`, feeds its values to `sink`, and returns the bytes it consumed.
/// Both are called once per record inside the timed region, so they should reuse
/// whatever `self` holds between calls.
pub trait Codec<W: Workload>: Format + Sized {
    /// How this codec uses its library on `W`; differs from the format's own
    /// labels only where the workload changes that (e.g. an owned decode).
    const LABELS: Labels = Self::INFO.labels;

    fn new() -> Self;
    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()>;
    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize>;
}

/// What the harness calls on a codec of `W`, however it was made: every
/// [`Codec`], and the codecs made from what a run reads at run time (a
/// user's schema, `format::protobuf_dynamic`), which have no `new()`.
pub trait Coding<W: Workload>: Format {
    const LABELS: Labels = Self::INFO.labels;

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()>;
    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize>;
}

impl<W: Workload, C: Codec<W>> Coding<W> for C {
    const LABELS: Labels = <C as Codec<W>>::LABELS;

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        Codec::encode(self, record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        Codec::decode(self, stream, sink)
    }
}

/// Makes `list` `len` long for an encoder refilling a kept record: elements
/// past `len` are parked in `spare`, and new ones come from there first
/// (`blank` only when it is empty), so their Strings keep their capacity.
pub fn resize_from_spare<T>(
    list: &mut Vec<T>,
    spare: &mut Vec<T>,
    len: usize,
    mut blank: impl FnMut() -> T,
) {
    if list.len() > len {
        spare.extend(list.drain(len..));
    }
    while list.len() < len {
        list.push(spare.pop().unwrap_or_else(&mut blank));
    }
}

/// Room reserved at a stream's end for a library that writes into a caller's
/// slice rather than a growing `Vec` (bincode's `encode_into_slice`,
/// zerompk's `to_msgpack`): 128 bytes at first, doubled whenever a record
/// does not fit, and kept, so a stream of big records stops retrying.
pub struct SliceRoom {
    bytes: usize,
}

impl Default for SliceRoom {
    fn default() -> SliceRoom {
        SliceRoom { bytes: Self::FIRST }
    }
}

impl SliceRoom {
    const FIRST: usize = 128;

    /// Appends what `write` writes into the room at `stream`'s end, the
    /// stream then cut to the bytes written (their count returned). An error
    /// `too_small` accepts doubles the room and the write is retried, up to
    /// 4 GiB of room; on any other error the stream is left as it was.
    pub fn append<E>(
        &mut self,
        stream: &mut Vec<u8>,
        mut write: impl FnMut(&mut [u8]) -> Result<usize, E>,
        too_small: impl Fn(&E) -> bool,
    ) -> Result<usize, E> {
        let start = stream.len();
        loop {
            stream.resize(start + self.bytes, 0);
            match write(&mut stream[start..]) {
                Ok(written) => {
                    stream.truncate(start + written);
                    return Ok(written);
                }
                Err(error) if too_small(&error) && self.bytes <= u32::MAX as usize => {
                    self.bytes *= 2;
                }
                Err(error) => {
                    stream.truncate(start);
                    return Err(error);
                }
            }
        }
    }
}

/// Untimed encode-all/decode-all, for tests of individual codecs.
#[cfg(test)]
pub fn assert_round_trip<W: Workload, C: Codec<W>>(dataset: &crate::workload::Dataset<W>)
where
    W::Aggregate: std::fmt::Debug,
{
    let mut codec = C::new();
    let mut stream = Vec::new();
    // Twice, so that reused builders and buffers are exercised in their second life.
    for _ in 0..2 {
        stream.clear();
        for record in dataset.operations() {
            codec.encode(record, &mut stream).expect("encode");
        }
        let mut sink = W::new_sink(&dataset.reference);
        let mut offset = 0;
        let mut decoded = 0;
        while offset < stream.len() {
            let used = codec.decode(&stream[offset..], &mut sink).expect("decode");
            assert!(used > 0, "{}: decode consumed no bytes", C::INFO.name);
            offset += used;
            decoded += 1;
        }
        assert_eq!(offset, stream.len());
        assert_eq!(decoded, dataset.order.len(), "{}: record count", C::INFO.name);
        let aggregate = W::finish(sink);
        assert_eq!(W::first_difference(&dataset.reference, &aggregate), None, "{}", C::INFO.name);
    }
}
