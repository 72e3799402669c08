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
    /// The family's name, as printed and exported (`FormatInfo::family` names the row itself).
    pub family: &'static str,
    pub schema: Schema,
    /// What the schema is written in, e.g. ".capnp IDL" or "Rust derive".
    pub schema_detail: &'static str,
    /// Bytes carry enough type information to be read without a schema.
    pub self_describing: bool,
    /// Fields can be read in place from the encoded bytes, without decoding the message.
    pub zero_copy: bool,
    /// Yes-or-no answers read off the text columns below, for `shootout recommend --need`.
    pub traits: Traits,
    /// How tagged unions / variants are expressed (or "no").
    pub unions: &'static str,
    /// How a field can be absent.
    pub optional_fields: &'static str,
    /// How messages are delimited in a stream.
    pub framing: &'static str,
    /// What changes keep old and new readers and writers compatible.
    pub evolution: &'static str,
    /// Whether `shootout evolution` puts those changes to the test; a test
    /// holds `evolution::FORMATS` to it, so a new family is a decision.
    #[serde(skip)]
    pub evolution_trial: Trial,
    /// Languages with maintained implementations from the format's own project.
    pub languages: &'static str,
    /// License of the format's reference implementation.
    pub license: &'static str,
    /// Where the non-obvious facts above come from.
    pub sources: &'static [&'static str],
}

/// What `shootout recommend` filters on besides the schema kind, self-description
/// and zero-copy: each a judgment of the text columns, kept beside them.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Traits {
    /// Bytes, not text (JSON is the one text format).
    pub binary: bool,
    /// Each message delimits itself, so a reader takes one after another from a
    /// plain concatenation with no framing added (see `framing`).
    pub streaming: bool,
    /// Tagged unions or variants in the data model (see `unions`).
    pub unions: bool,
    /// A field can be added without breaking old readers (see `evolution`);
    /// for schemaless formats, as far as the application tolerates.
    pub evolution: bool,
    /// Maintained implementations in more than one language (see `languages`).
    pub cross_language: bool,
}

/// A [`Traits`] with the traits named true and the others false: a row lists
/// what its format has, e.g. `traits![binary, streaming]`.
macro_rules! traits {
    ($($name:ident),* $(,)?) => {{
        let mut traits = Traits {
            binary: false,
            streaming: false,
            unions: false,
            evolution: false,
            cross_language: false,
        };
        $(traits.$name = true;)*
        traits
    }};
}

/// Whether `shootout evolution` runs a format of a family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trial {
    /// One of the family's Rust formats has its v1 and v2s in `evolution::FORMATS`.
    Tried,
    /// None has, for this reason.
    NotTried(&'static str),
}

/// Why the families only other languages measure are not tried.
const NO_RUST_FORMAT: &str = "no Rust format: shootout evolution runs Rust codecs only";

pub const CAPNP: Features = Features {
    family: "Cap'n Proto",
    schema: Schema::Idl,
    schema_detail: ".capnp IDL; `capnp compile` drives per-language code-generator plugins",
    self_describing: false,
    zero_copy: true,
    traits: traits![binary, streaming, unions, evolution, cross_language],
    unions: "Tagged unions inside structs (named or anonymous `union`, 16-bit discriminant); groups",
    optional_fields: "No presence bit for scalars (unset reads the default); pointer fields can be null (has_*); a union with Void models absence",
    framing: "Stream framing: a segment table (segment count, then each segment's size in words) precedes the segments",
    evolution: "Add fields/enumerants with the next @N ordinal; renames are safe; never remove, renumber or retype fields or change defaults",
    evolution_trial: Trial::Tried,
    languages: "C++ reference implementation only; Rust, Go, Java, Python, C# and others are community ports (otherlang page)",
    license: "MIT",
    sources: &[
        "https://capnproto.org/language.html",
        "https://capnproto.org/encoding.html",
        "https://capnproto.org/otherlang.html",
        "https://github.com/capnproto/capnproto",
    ],
};

pub const FLATBUFFERS: Features = Features {
    family: "FlatBuffers",
    schema: Schema::Idl,
    schema_detail: ".fbs IDL compiled by flatc",
    self_describing: false,
    zero_copy: true,
    traits: traits![binary, unions, evolution, cross_language],
    unions: "`union` of tables: a hidden u8 `<field>_type` tag field plus an offset to the value",
    optional_fields: "Table fields may be omitted (reader gets the schema default); scalars declared `= null` read as absent (Option in Rust)",
    framing: "Not self-delimiting; optional 4-byte little-endian size prefix (finish_size_prefixed / size_prefixed_root)",
    evolution: "Append table fields (or pin them with `id:`); never remove (mark `deprecated`) or retype; renames safe; structs are frozen",
    evolution_trial: Trial::Tried,
    languages: "In google/flatbuffers: C++, C#, Dart, Go, Java, JS/TS, Kotlin, Lobster, Lua, Nim, PHP, Python, Rust, Swift; C via flatcc",
    license: "Apache-2.0",
    sources: &[
        "https://flatbuffers.dev/schema/",
        "https://flatbuffers.dev/evolution/",
        "https://github.com/google/flatbuffers",
        "https://docs.rs/flatbuffers/latest/flatbuffers/fn.size_prefixed_root.html",
    ],
};

pub const SBE: Features = Features {
    family: "SBE (Simple Binary Encoding)",
    schema: Schema::Idl,
    schema_detail: "XML message schema (FIX SBE standard); codecs generated by SbeTool",
    self_describing: false,
    zero_copy: true,
    traits: traits![binary, evolution, cross_language],
    unions: "None; enums and bitsets (`set`/`choice`) only",
    optional_fields: "presence=\"optional\" reserves a null sentinel per type (nullValue, e.g. max uint); presence=\"constant\" is never sent",
    framing: "Message header (blockLength, templateId, schemaId, version) but no total length; streams add framing, e.g. FIX SOFH",
    evolution: "Append fields at the end of a block with sinceVersion; old decoders skip them via blockLength; no removals or retyping",
    evolution_trial: Trial::Tried,
    languages: "Reference generators (aeron-io/simple-binary-encoding, formerly real-logic): Java, C, C++, C#, Go, Rust",
    license: "Apache-2.0",
    sources: &[
        "https://github.com/FIXTradingCommunity/fix-simple-binary-encoding",
        "https://github.com/aeron-io/simple-binary-encoding",
        "https://github.com/aeron-io/simple-binary-encoding/wiki/Message-Versioning",
        "https://github.com/FIXTradingCommunity/fix-simple-open-framing-header",
    ],
};

pub const PROTOBUF: Features = Features {
    family: "Protocol Buffers",
    schema: Schema::Idl,
    schema_detail: ".proto IDL (proto2, proto3 or editions) compiled by protoc",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, unions, evolution, cross_language],
    unions: "`oneof`: at most one member is set; setting one clears the others",
    optional_fields: "proto3 scalars have implicit presence unless marked `optional` (explicit, 3.15+); messages, oneofs, proto2 track presence",
    framing: "Not self-delimiting; streams prefix each message with its size (e.g. varint length, writeDelimitedTo)",
    evolution: "Field numbers on the wire: add fields freely, old readers ignore unknown ones; never reuse or renumber (mark `reserved`)",
    evolution_trial: Trial::Tried,
    languages: "Google-maintained: C++, C#, Dart, Go, Java, Kotlin, Objective-C, PHP, Python, Ruby, Rust",
    license: "BSD-3-Clause",
    sources: &[
        "https://protobuf.dev/programming-guides/field_presence/",
        "https://protobuf.dev/programming-guides/techniques/",
        "https://protobuf.dev/programming-guides/proto3/",
        "https://protobuf.dev/reference/",
        "https://protobuf.dev/reference/rust/",
        "https://github.com/protocolbuffers/protobuf/blob/main/LICENSE",
    ],
};

pub const MESSAGEPACK: Features = Features {
    family: "MessagePack",
    schema: Schema::None,
    schema_detail: "None (JSON-like type system carried in the bytes)",
    self_describing: true,
    zero_copy: false,
    traits: traits![binary, streaming, evolution, cross_language],
    unions: "No; every value carries its type; ext types (signed 8-bit type id, -1 = timestamp) for app-defined types",
    optional_fields: "Omit the map key or write nil",
    framing: "Every object is self-delimiting; a stream is a plain concatenation of objects",
    evolution: "Schemaless: whatever the application tolerates (e.g. ignoring unknown map keys)",
    evolution_trial: Trial::Tried,
    languages: "Spec only; the msgpack GitHub org hosts C/C++, Java, Python, Ruby, JavaScript, C# and more; msgpack.org lists others",
    license: "No reference implementation; msgpack-c (C/C++) is BSL-1.0",
    sources: &[
        "https://github.com/msgpack/msgpack/blob/master/spec.md",
        "https://msgpack.org/",
        "https://github.com/msgpack/msgpack-c",
    ],
};

pub const CBOR: Features = Features {
    family: "CBOR",
    schema: Schema::None,
    schema_detail: "None (self-describing); CDDL (RFC 8610) can optionally describe data",
    self_describing: true,
    zero_copy: false,
    traits: traits![binary, streaming, evolution, cross_language],
    unions: "No; tags (major type 6) attach semantics to data items",
    optional_fields: "Omit the map key, or use the null/undefined simple values",
    framing: "Each data item is self-delimiting (indefinite-length items end with a break byte); RFC 8742 CBOR Sequences concatenate items",
    evolution: "Schemaless: whatever the application tolerates",
    evolution_trial: Trial::Tried,
    languages: "IETF standard (RFC 8949); no reference implementation, many independent ones",
    license: "n/a: IETF standard, no reference implementation",
    sources: &[
        "https://www.rfc-editor.org/rfc/rfc8949",
        "https://www.rfc-editor.org/rfc/rfc8742",
        "https://www.rfc-editor.org/rfc/rfc8610",
    ],
};

pub const JSON: Features = Features {
    family: "JSON",
    schema: Schema::None,
    schema_detail: "None; JSON Schema exists but is separate and optional",
    self_describing: true,
    zero_copy: false,
    traits: traits![streaming, evolution, cross_language],
    unions: "No; by convention only (e.g. a tag member)",
    optional_fields: "Omit the member or use null",
    framing: "A JSON text is one value; streams use JSON Lines (one value per line) or RFC 7464 JSON text sequences",
    evolution: "Schemaless: app-defined. Interop is only assured for integers within ±(2^53−1) (RFC 8259 §6); many parsers round u64",
    evolution_trial: Trial::Tried,
    languages: "Standard (RFC 8259 / ECMA-404); implemented everywhere, no reference implementation",
    license: "n/a: IETF/Ecma standard, no reference implementation",
    sources: &[
        "https://www.rfc-editor.org/rfc/rfc8259",
        "https://ecma-international.org/publications-and-standards/standards/ecma-404/",
        "https://jsonlines.org/",
        "https://www.rfc-editor.org/rfc/rfc7464",
    ],
};

pub const BSON: Features = Features {
    family: "BSON",
    schema: Schema::None,
    schema_detail: "None (self-describing documents)",
    self_describing: true,
    zero_copy: true,
    traits: traits![binary, streaming, evolution, cross_language],
    unions: "No; every element carries a type byte",
    optional_fields: "Omit the element, or store a null element (type 0x0A)",
    framing: "int32 total-length prefix per document; length-prefixed strings/subdocs let raw APIs read fields in place by linear scan",
    evolution: "Schemaless: whatever the application tolerates",
    evolution_trial: Trial::Tried,
    languages: "MongoDB drivers maintain BSON libraries: C (libbson), C++, C#, Go, Java, Node.js, PHP, Python, Ruby, Rust and more",
    license: "No single reference implementation; libbson (mongo-c-driver) is Apache-2.0",
    sources: &[
        "https://bsonspec.org/spec.html",
        "https://bsonspec.org/",
        "https://docs.rs/bson/latest/bson/raw/index.html",
        "https://www.mongodb.com/docs/drivers/",
        "https://github.com/mongodb/mongo-c-driver",
    ],
};

pub const FLEXBUFFERS: Features = Features {
    family: "FlexBuffers",
    schema: Schema::None,
    schema_detail: "None (schemaless sibling of FlatBuffers)",
    self_describing: true,
    zero_copy: true,
    traits: traits![binary, evolution, cross_language],
    unions: "No; every value carries its type",
    optional_fields: "Omit the map key or store null",
    framing: "Not self-delimiting: root type and width sit in the last bytes, so the buffer's length must be known",
    evolution: "Schemaless: whatever the application tolerates",
    evolution_trial: Trial::Tried,
    languages: "In google/flatbuffers: C++, Java, Dart, JavaScript/TypeScript, Rust (flexbuffers crate)",
    license: "Apache-2.0",
    sources: &[
        "https://flatbuffers.dev/flexbuffers/",
        "https://flatbuffers.dev/internals/",
        "https://docs.rs/flexbuffers",
    ],
};

pub const AVRO: Features = Features {
    family: "Avro",
    schema: Schema::Idl,
    schema_detail: "JSON schema (.avsc) or Avro IDL (.avdl); code generation optional (generic readers use the schema at run time)",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, unions, evolution, cross_language],
    unions: "Union types (JSON array of branches), encoded as the branch index then the value",
    optional_fields: "A union with \"null\", usually [\"null\", T] with default null",
    framing: "Datums carry no framing or types; container files embed the writer schema + sync markers; single-object: C3 01 + fingerprint",
    evolution: "Reader/writer schema resolution by field name: new reader fields need defaults, writer-only fields skipped, numeric promotions",
    evolution_trial: Trial::Tried,
    languages: "Apache Avro SDKs: C, C++, C#, Java, JavaScript, Perl, PHP, Python, Ruby; Rust in apache/avro-rs",
    license: "Apache-2.0",
    sources: &[
        "https://avro.apache.org/docs/1.12.0/specification/",
        "https://github.com/apache/avro",
        "https://github.com/apache/avro-rs",
    ],
};

pub const THRIFT: Features = Features {
    family: "Thrift",
    schema: Schema::Idl,
    schema_detail: ".thrift IDL compiled by the thrift compiler",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, streaming, unions, evolution, cross_language],
    unions: "`union`: a struct with exactly one field set",
    optional_fields: "`optional` fields are omitted when unset; `required` must be present; default requiredness is normally written",
    framing: "Binary/compact protocols carry field ids and types (skippable), no message length; TFramedTransport adds a 4-byte size",
    evolution: "Field ids on the wire: add optional/default fields, unknown ids skipped; never reuse or retype ids; avoid `required`",
    evolution_trial: Trial::Tried,
    languages: "apache/thrift: C++, Java, Python, Go, C# (.NET), Rust, JS/Node.js, PHP, Ruby, Erlang, Haskell, Swift and more",
    license: "Apache-2.0",
    sources: &[
        "https://thrift.apache.org/docs/idl",
        "https://github.com/apache/thrift/blob/master/LANGUAGES.md",
        "https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md",
        "https://github.com/apache/thrift/blob/master/doc/specs/thrift-rpc.md",
    ],
};

pub const UBJSON: Features = Features {
    family: "UBJSON",
    schema: Schema::None,
    schema_detail: "None (1:1 binary mapping of JSON's types)",
    self_describing: true,
    zero_copy: false,
    traits: traits![binary, streaming, evolution, cross_language],
    unions: "No; every value starts with a 1-byte type marker",
    optional_fields: "Omit the key, or store null (Z)",
    framing: "Values are self-delimiting; containers end with ]/} or declare a count (#) and optionally one element type ($)",
    evolution: "Schemaless: whatever the application tolerates",
    evolution_trial: Trial::Tried,
    languages: "Spec only (ubjson.org); libraries are listed there, mostly community-written",
    license: "n/a: spec, no reference implementation",
    sources: &["https://ubjson.org/", "https://github.com/ubjson/universal-binary-json"],
};

pub const BINCODE: Features = Features {
    family: "bincode",
    schema: Schema::Derive,
    schema_detail: "Rust types: bincode's own derive (Encode/Decode) or serde",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, streaming, unions],
    unions: "Rust enums: variant index (varint by default) then the variant's fields",
    optional_fields: "Option<T>: 1-byte tag (0 = None, 1 = Some) then the value",
    framing: "No header or length; a decoder that knows the type reads exactly one value (decode_from_slice returns bytes read)",
    evolution: "None: no field ids or names; any change to the types breaks old data",
    evolution_trial: Trial::Tried,
    languages: "Rust only; development ceased in Dec 2025 (RUSTSEC-2025-0141), 1.3.3 declared complete",
    license: "MIT",
    sources: &[
        "https://docs.rs/crate/bincode/2.0.1/source/docs/spec.md",
        "https://docs.rs/bincode/2.0.1/bincode/",
        "https://rustsec.org/advisories/RUSTSEC-2025-0141.html",
    ],
};

pub const POSTCARD: Features = Features {
    family: "postcard",
    schema: Schema::Derive,
    schema_detail: "Rust types via serde derive (Serialize/Deserialize)",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, streaming, unions],
    unions: "Rust enums: varint discriminant then the variant's fields",
    optional_fields: "Option<T>: 1-byte tag (0 = None, 1 = Some) then the value",
    framing: "No length header; take_from_bytes returns the unused rest; the COBS flavor delimits messages with a 0x00 byte",
    evolution: "None beyond a stable, documented wire format since 1.0: no field ids or names, both sides need the same types",
    evolution_trial: Trial::Tried,
    languages: "Rust (the wire format spec is language-neutral)",
    license: "MIT OR Apache-2.0",
    sources: &[
        "https://docs.rs/postcard/latest/postcard/",
        "https://postcard.jamesmunns.com/",
        "https://docs.rs/postcard/latest/postcard/fn.take_from_bytes_cobs.html",
    ],
};

pub const RKYV: Features = Features {
    family: "rkyv",
    schema: Schema::Derive,
    schema_detail: "Rust types via #[derive(Archive, Serialize, Deserialize)]",
    self_describing: false,
    zero_copy: true,
    traits: traits![binary, unions],
    unions: "Rust enums archived as a tag plus the variant's fields",
    optional_fields: "Option<T> archived as ArchivedOption<T>",
    framing: "Root object stored at the end of the buffer by default; not self-delimiting, buffer length and alignment must be known",
    evolution: "None built in: the archive mirrors the Rust types' layout; changes need app-level versioning",
    evolution_trial: Trial::Tried,
    languages: "Rust only; untrusted bytes are validated with bytecheck (CheckBytes) before access",
    license: "MIT",
    sources: &["https://docs.rs/rkyv/latest/rkyv/", "https://github.com/rkyv/rkyv"],
};

pub const BORSH: Features = Features {
    family: "Borsh",
    schema: Schema::Derive,
    schema_detail: "Rust types via #[derive(BorshSerialize, BorshDeserialize)]; optional BorshSchema",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, streaming, unions, cross_language],
    unions: "Rust enums: u8 variant index then the variant's fields",
    optional_fields: "Option<T>: 1-byte tag (0 = None, 1 = Some) then the value",
    framing: "No header or length; fixed little-endian integers and u32 length prefixes; the type determines where a value ends",
    evolution: "None: the specified encoding is bijective and positional; no field ids or names",
    evolution_trial: Trial::Tried,
    languages: "Near maintains Rust (borsh-rs) and JS/TS (borsh-js); Go, Python, Java etc. ports are listed in the borsh README",
    license: "borsh-rs: MIT OR Apache-2.0",
    sources: &[
        "https://borsh.io/",
        "https://github.com/near/borsh",
        "https://github.com/near/borsh-rs",
        "https://github.com/near/borsh-js",
    ],
};

pub const SPEEDY: Features = Features {
    family: "speedy",
    schema: Schema::Derive,
    schema_detail: "Rust types via #[derive(Readable, Writable)]",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, streaming, unions, evolution],
    unions: "Rust enums: u32 tag by default (tag_type = u8, u16, u64_varint, …) then the variant's fields",
    optional_fields: "Option<T>: 1-byte tag then the value",
    framing: "No header; lengths are u32 by default (length_type); endianness is chosen by the caller",
    evolution: "Only #[speedy(default_on_eof)]: fields appended at the end read as Default when old data ends early",
    evolution_trial: Trial::Tried,
    languages: "Rust only",
    license: "MIT OR Apache-2.0",
    sources: &["https://github.com/koute/speedy", "https://docs.rs/speedy"],
};

pub const BITCODE: Features = Features {
    family: "bitcode",
    schema: Schema::Derive,
    schema_detail: "Rust types via #[derive(Encode, Decode)] or serde",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, unions],
    unions: "Rust enums via derive or serde; the encoding is internal, not a published spec",
    optional_fields: "Option<T> (encoding internal, not a published spec)",
    framing: "No header; decode takes one whole buffer (each field's values are grouped together), so messages need external framing",
    evolution: "None: format not stable across major versions and not self-describing (stated non-goals)",
    evolution_trial: Trial::Tried,
    languages: "Rust only (compatibility with other languages is a stated non-goal)",
    license: "MIT OR Apache-2.0",
    sources: &[
        "https://docs.rs/bitcode/latest/bitcode/",
        "https://github.com/SoftbearStudios/bitcode",
    ],
};

// Families that only the Go and JVM runners measure: their rows let those
// runners' formats be filtered and shortlisted like Rust's.

pub const JAVA_SERIALIZATION: Features = Features {
    family: "Java serialization",
    schema: Schema::Derive,
    schema_detail: "The Java classes themselves (`implements Serializable`); no separate schema",
    self_describing: true,
    zero_copy: false,
    traits: traits![binary, streaming, unions, evolution],
    unions: "Subclass polymorphism: each object's class descriptor is in the stream",
    optional_fields: "Null references; primitive fields are always written",
    framing: "Stream header (magic 0xACED, version 5), then objects one after another (ObjectInputStream.readObject); back-references within a stream",
    evolution: "serialVersionUID decides compatibility; adding fields (read as defaults) and removing them are compatible changes, changing a field's type or the class hierarchy is not (spec ch. 5)",
    evolution_trial: Trial::NotTried(NO_RUST_FORMAT),
    languages: "JVM only",
    license: "GPL-2.0 with Classpath Exception (OpenJDK)",
    sources: &[
        "https://docs.oracle.com/en/java/javase/17/docs/specs/serialization/protocol.html",
        "https://docs.oracle.com/en/java/javase/17/docs/specs/serialization/version.html",
    ],
};

pub const SMILE: Features = Features {
    family: "Smile",
    schema: Schema::None,
    schema_detail: "None: a binary encoding of the JSON data model (Jackson's dataformat-smile)",
    self_describing: true,
    zero_copy: false,
    traits: traits![binary, streaming, evolution, cross_language],
    unions: "No; by convention only, as JSON",
    optional_fields: "Omit the key or write null, as JSON",
    framing: "Optional 4-byte header (`:)\\n` + flags); values delimit themselves; optional 0xFF end-of-content marker between documents",
    evolution: "Schemaless: app-defined, as JSON; back-referenced (shared) key names are per document",
    evolution_trial: Trial::NotTried(NO_RUST_FORMAT),
    languages: "Java (Jackson, the reference); libsmile (C), Python and others from the community",
    license: "Apache-2.0 (Jackson); the specification is BSD-2-Clause",
    sources: &[
        "https://github.com/FasterXML/smile-format-specification",
        "https://github.com/FasterXML/jackson-dataformats-binary/tree/2.x/smile",
    ],
};

pub const KRYO: Features = Features {
    family: "Kryo",
    schema: Schema::Derive,
    schema_detail: "The Java classes, registered with the Kryo instance (registration order gives class IDs)",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, streaming, unions],
    unions: "Subclass polymorphism by registered class ID (writeClassAndObject)",
    optional_fields: "Null references (a null flag per reference field)",
    framing: "None added: objects are read one after another from an Input over a stream, given the same registrations",
    evolution: "The default FieldSerializer supports no change; CompatibleFieldSerializer, TaggedFieldSerializer and VersionFieldSerializer add or remove fields at a cost in size",
    evolution_trial: Trial::NotTried(NO_RUST_FORMAT),
    languages: "JVM only",
    license: "BSD-3-Clause",
    sources: &[
        "https://github.com/EsotericSoftware/kryo#compatibility",
        "https://github.com/EsotericSoftware/kryo#registration",
    ],
};

pub const FORY: Features = Features {
    family: "Fory",
    schema: Schema::Derive,
    schema_detail: "The program's own classes, registered; cross-language mode shares type names or IDs instead of a schema file",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, streaming, unions, evolution, cross_language],
    unions: "Subclass polymorphism by registered type",
    optional_fields: "Nullable references (a null flag per reference)",
    framing: "A header per serialized object; objects read one after another from a buffer or stream",
    evolution: "Schema-consistent mode (the default) supports no change; compatible mode (CompatibleMode.COMPATIBLE) adds and removes fields by sharing type metadata",
    evolution_trial: Trial::NotTried(NO_RUST_FORMAT),
    languages: "Apache Fory: Java, Python, C++, Go, JavaScript, Rust, Scala, Kotlin; the row format (not measured here) reads in place",
    license: "Apache-2.0",
    sources: &[
        "https://fory.apache.org/docs/guide/java_serialization_guide",
        "https://github.com/apache/fory",
    ],
};

pub const IGNITE_BINARY: Features = Features {
    family: "Ignite binary",
    schema: Schema::Derive,
    schema_detail: "Java classes or BinaryObjectBuilder; type metadata (type ID, field names and IDs) registered with the cluster",
    self_describing: true,
    zero_copy: true,
    traits: traits![binary, streaming, evolution, cross_language],
    unions: "No",
    optional_fields: "A field can be absent from an object (its schema lists the fields present) or null",
    framing: "Each object's header carries its total length, type ID and schema ID; a footer holds field offsets",
    evolution: "Fields are added and removed at runtime without restarts (new schema IDs); a field's type cannot change",
    evolution_trial: Trial::NotTried(NO_RUST_FORMAT),
    languages: "Apache Ignite: Java, .NET and C++ nodes; thin clients in Python, Node.js, PHP and others speak the binary protocol",
    license: "Apache-2.0",
    sources: &[
        "https://ignite.apache.org/docs/latest/key-value-api/binary-objects",
        "https://ignite.apache.org/docs/latest/binary-client-protocol/data-format",
    ],
};

pub const GOB: Features = Features {
    family: "gob",
    schema: Schema::Derive,
    schema_detail: "The Go types themselves; the stream carries their descriptions",
    self_describing: true,
    zero_copy: false,
    traits: traits![binary, streaming, unions, evolution],
    unions: "Interface values whose concrete types were registered (gob.Register)",
    optional_fields: "Zero values are not sent; pointers are flattened (nil reads as the zero value)",
    framing: "A stream of length-prefixed messages; each type is described once per stream, before its first value",
    evolution: "Fields match by name: fields added or removed on one side are ignored; a field's type must stay compatible",
    evolution_trial: Trial::NotTried(NO_RUST_FORMAT),
    languages: "Go only (encoding/gob)",
    license: "BSD-3-Clause (Go)",
    sources: &["https://pkg.go.dev/encoding/gob"],
};

/// Every row, in the order `shootout formats` prints families.
pub const FEATURES: &[Features] = &[
    CAPNP,
    FLATBUFFERS,
    SBE,
    PROTOBUF,
    MESSAGEPACK,
    CBOR,
    JSON,
    BSON,
    FLEXBUFFERS,
    AVRO,
    THRIFT,
    UBJSON,
    BINCODE,
    POSTCARD,
    RKYV,
    BORSH,
    SPEEDY,
    BITCODE,
    JAVA_SERIALIZATION,
    SMILE,
    KRYO,
    FORY,
    IGNITE_BINARY,
    GOB,
];

pub fn of_family(family: &str) -> Option<&'static Features> {
    FEATURES.iter().find(|f| f.family == family)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn families_are_unique() {
        let mut seen = HashSet::new();
        for f in FEATURES {
            assert!(seen.insert(f.family), "duplicate family {:?}", f.family);
        }
    }

    #[test]
    fn every_entry_cites_https_sources() {
        for f in FEATURES {
            assert!(!f.sources.is_empty(), "{} has no source", f.family);
            for s in f.sources {
                assert!(s.starts_with("https://"), "{}: source {s:?} is not https", f.family);
            }
        }
    }

    #[test]
    fn of_family_finds_rows() {
        assert_eq!(of_family("FlatBuffers").map(|f| f.schema), Some(Schema::Idl));
        assert!(of_family("no such format").is_none());
    }
}
