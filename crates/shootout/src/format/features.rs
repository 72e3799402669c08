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
    /// What one message can be on its own: any value (a bare int, string or UUID),
    /// or only a record of the schema (see `traits.standalone_primitives`).
    pub top_level: &'static str,
    /// How the application's own types travel in the format itself, or "No" and why
    /// (see `traits.extension_types`).
    pub extension_types: &'static str,
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
    /// The license of each language's implementation, at least the languages
    /// IEP-75 asks for (Java, C#, C++, Python, JavaScript, PHP) and those shootout
    /// runs (Rust, Go): the project's own where it has one, else a named library;
    /// "none" where the language has none, "not checked" where it was not established.
    pub licenses: &'static str,
    /// "Maintained", "Not maintained" or "Abandoned", with the evidence: the newest
    /// release of the reference implementation (or, without one, of the main
    /// implementations) and where it was seen (see `traits.maintained`).
    pub maintenance: &'static str,
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
    /// Records inside records and lists of records in the data model.
    pub nested: bool,
    /// A bare primitive (an int, a string, a UUID) is written and read alone,
    /// without a wrapping message or record (see `top_level`).
    pub standalone_primitives: bool,
    /// Values of the application's own types carry an identity of its choosing
    /// in the bytes (a tag, type id or class name), as MessagePack ext types and
    /// CBOR tags do (see `extension_types`).
    pub extension_types: bool,
    /// A release, or the maintainers' commits, within the two years before the
    /// facts were gathered (November 2026), and no announcement that
    /// development ended (see `maintenance`).
    pub maintained: bool,
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
            nested: false,
            standalone_primitives: false,
            extension_types: false,
            maintained: false,
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
    traits: traits![binary, streaming, unions, evolution, cross_language, nested, maintained],
    unions: "Tagged unions inside structs (named or anonymous `union`, 16-bit discriminant); groups",
    optional_fields: "No presence bit for scalars (unset reads the default); pointer fields can be null (has_*); a union with Void models absence",
    top_level: "A struct: a message's root pointer always points to a struct",
    extension_types: "No: structs, lists, blobs and AnyPointer; type ids live in schemas, not in the bytes",
    framing: "Stream framing: a segment table (segment count, then each segment's size in words) precedes the segments",
    evolution: "Add fields/enumerants with the next @N ordinal; renames are safe; never remove, renumber or retype fields or change defaults",
    evolution_trial: Trial::Tried,
    languages: "C++ reference implementation only; Rust, Go, Java, Python, C# and others are community ports (otherlang page)",
    licenses: "C++ (reference): MIT; Rust (capnproto-rust): MIT; Go (go-capnp): MIT; Java (capnproto-java): BSD-2-Clause; C# (capnproto-dotnetcore): MIT; Python (pycapnp): BSD-2-Clause; JavaScript (node-capnp, Node.js only): BSD-2-Clause; PHP: none on the otherlang page",
    maintenance: "Maintained: C++ v1.4.0 tagged 2026-03-12; capnproto-rust capnp-v0.27.0 tagged 2026-08-02, 0.27.3 in Cargo.lock",
    sources: &[
        "https://capnproto.org/language.html",
        "https://capnproto.org/encoding.html",
        "https://capnproto.org/otherlang.html",
        "https://github.com/capnproto/capnproto",
        "https://github.com/capnproto/capnproto/tags",
        "https://github.com/capnproto/capnproto-rust/tags",
        "https://github.com/capnproto/go-capnp/blob/main/LICENSE",
        "https://github.com/capnproto/capnproto-java/blob/master/LICENSE",
        "https://github.com/c80k/capnproto-dotnetcore/blob/master/LICENSE",
        "https://github.com/capnproto/pycapnp/blob/master/LICENSE.md",
        "https://github.com/capnproto/node-capnp/blob/master/LICENSE",
    ],
};

pub const FLATBUFFERS: Features = Features {
    family: "FlatBuffers",
    schema: Schema::Idl,
    schema_detail: ".fbs IDL compiled by flatc",
    self_describing: false,
    zero_copy: true,
    traits: traits![binary, unions, evolution, cross_language, nested, maintained],
    unions: "`union` of tables: a hidden u8 `<field>_type` tag field plus an offset to the value",
    optional_fields: "Table fields may be omitted (reader gets the schema default); scalars declared `= null` read as absent (Option in Rust)",
    top_level: "A table (`root_type`); a lone scalar needs a wrapping table",
    extension_types: "No: tables, structs, enums, unions and vectors of the schema; a union's tag picks among the schema's own tables",
    framing: "Not self-delimiting; optional 4-byte little-endian size prefix (finish_size_prefixed / size_prefixed_root)",
    evolution: "Append table fields (or pin them with `id:`); never remove (mark `deprecated`) or retype; renames safe; structs are frozen",
    evolution_trial: Trial::Tried,
    languages: "In google/flatbuffers: C++, C#, Dart, Go, Java, JS/TS, Kotlin, Lobster, Lua, Nim, PHP, Python, Rust, Swift; C via flatcc",
    licenses: "Apache-2.0 for every language in google/flatbuffers: C++, C#, Java, Python, JavaScript/TypeScript, PHP, Rust, Go; planus (the other Rust implementation here): MIT OR Apache-2.0",
    maintenance: "Maintained: v25.12.19 released 2025-12-19 (the version is its date)",
    sources: &[
        "https://flatbuffers.dev/schema/",
        "https://flatbuffers.dev/evolution/",
        "https://github.com/google/flatbuffers",
        "https://docs.rs/flatbuffers/latest/flatbuffers/fn.size_prefixed_root.html",
        "https://github.com/google/flatbuffers/releases/tag/v25.12.19",
        "https://docs.rs/crate/planus/1.3.0",
    ],
};

pub const SBE: Features = Features {
    family: "SBE (Simple Binary Encoding)",
    schema: Schema::Idl,
    schema_detail: "XML message schema (FIX SBE standard); codecs generated by SbeTool",
    self_describing: false,
    zero_copy: true,
    traits: traits![binary, streaming, evolution, cross_language, nested, maintained],
    unions: "None; enums and bitsets (`set`/`choice`) only",
    optional_fields: "presence=\"optional\" reserves a null sentinel per type (nullValue, e.g. max uint); presence=\"constant\" is never sent",
    top_level: "A message (header and root block); a lone value is a one-field message",
    extension_types: "No: composites, enums and sets of the schema; `semanticType` is documentation, not on the wire",
    framing: "Self-delimiting for a reader with the writer's schema: the header (blockLength, templateId, schemaId, version) names the message, then the root block's, each group's and each var-data field's own lengths lead to its end, so messages follow one another with nothing added (SBE 1.0: no delimiter, but a message can be walked to its limit); no total length, so the standard suggests external framing (FIX SOFH) to resynchronize after a malformed message",
    evolution: "Append fields at the end of a block with sinceVersion; old decoders skip them via blockLength; no removals or retyping",
    evolution_trial: Trial::Tried,
    languages: "Reference generators (aeron-io/simple-binary-encoding, formerly real-logic): Java, C, C++, C#, Go, Rust",
    licenses: "Java, C++, C#, Go, Rust (aeron-io/simple-binary-encoding's generators and runtime): Apache-2.0; Python, JavaScript, PHP: none in that project (community ports not checked)",
    maintenance: "Maintained: aeron-io/simple-binary-encoding 1.40.1 tagged 2026-08-21; the FIX standard is 1.0 (errata 2020), 2.0 at release candidate",
    sources: &[
        "https://github.com/FIXTradingCommunity/fix-simple-binary-encoding",
        "https://github.com/aeron-io/simple-binary-encoding",
        "https://github.com/aeron-io/simple-binary-encoding/wiki/Message-Versioning",
        "https://github.com/FIXTradingCommunity/fix-simple-open-framing-header",
        "https://github.com/aeron-io/simple-binary-encoding/tags",
        "https://github.com/FIXTradingCommunity/fix-simple-binary-encoding/blob/master/v1-0-STANDARD/doc/03MessageStructure.md",
    ],
};

pub const PROTOBUF: Features = Features {
    family: "Protocol Buffers",
    schema: Schema::Idl,
    schema_detail: ".proto IDL (proto2, proto3 or editions) compiled by protoc",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, unions, evolution, cross_language, nested, extension_types, maintained],
    unions: "`oneof`: at most one member is set; setting one clears the others",
    optional_fields: "proto3 scalars have implicit presence unless marked `optional` (explicit, 3.15+); messages, oneofs, proto2 track presence",
    top_level: "A message; wrappers.proto's Int32Value, StringValue and the like wrap one scalar in a message",
    extension_types: "google.protobuf.Any: a type URL of the application's choosing plus the packed message's bytes",
    framing: "Not self-delimiting; streams prefix each message with its size (e.g. varint length, writeDelimitedTo)",
    evolution: "Field numbers on the wire: add fields freely, old readers ignore unknown ones; never reuse or renumber (mark `reserved`)",
    evolution_trial: Trial::Tried,
    languages: "Google-maintained: C++, C#, Dart, Go, Java, Kotlin, Objective-C, PHP, Python, Ruby, Rust",
    licenses: "BSD-3-Clause for Google's C++, C#, Java, Python, PHP, Rust (protobuf crate), Go (google.golang.org/protobuf) and JavaScript (protobuf-javascript); Rust implementations here: prost Apache-2.0, buffa Apache-2.0, Google's protobuf crate (upb kernel, C) BSD-3-Clause",
    maintenance: "Maintained: v36.0 tagged 2026-08-20",
    sources: &[
        "https://protobuf.dev/programming-guides/field_presence/",
        "https://protobuf.dev/programming-guides/techniques/",
        "https://protobuf.dev/programming-guides/proto3/",
        "https://protobuf.dev/reference/",
        "https://protobuf.dev/reference/rust/",
        "https://github.com/protocolbuffers/protobuf/blob/main/LICENSE",
        "https://protobuf.dev/reference/protobuf/google.protobuf/",
        "https://github.com/protocolbuffers/protobuf/tags",
        "https://github.com/protocolbuffers/protobuf-javascript",
        "https://docs.rs/crate/prost/0.14.4",
        "https://docs.rs/crate/buffa/0.9.2",
        "https://docs.rs/crate/protobuf/4.36.2-release",
    ],
};

pub const MESSAGEPACK: Features = Features {
    family: "MessagePack",
    schema: Schema::None,
    schema_detail: "None (JSON-like type system carried in the bytes)",
    self_describing: true,
    zero_copy: false,
    traits: traits![
        binary,
        streaming,
        evolution,
        cross_language,
        nested,
        standalone_primitives,
        extension_types,
        maintained
    ],
    unions: "No; every value carries its type (application types: see extension types)",
    optional_fields: "Omit the map key or write nil",
    top_level: "Any value: a lone int, string or ext (e.g. a UUID as 16 bytes) is a complete message",
    extension_types: "Ext types: a signed 8-bit type id (0 to 127 for the application, negative ones reserved; -1 is timestamp) plus bytes",
    framing: "Every object is self-delimiting; a stream is a plain concatenation of objects",
    evolution: "Schemaless: whatever the application tolerates (e.g. ignoring unknown map keys)",
    evolution_trial: Trial::Tried,
    languages: "Spec only; the msgpack GitHub org hosts C/C++, Java, Python, Ruby, JavaScript, C# and more; msgpack.org lists others",
    licenses: "Java (msgpack-java): Apache-2.0; C# (MessagePack-CSharp): MIT; C++: msgpack-c BSL-1.0, nlohmann/json MIT (IEP-75's pick); Python (msgpack): Apache-2.0; JavaScript (@msgpack/msgpack): ISC; PHP: MIT (per IEP-75); Rust: rmp-serde MIT, zerompk MIT; Go: vmihailenco/msgpack BSD-2-Clause, tinylib/msgp MIT",
    maintenance: "Maintained: the spec's last change is from 2021 (no reference implementation); msgpack-java v0.9.12 tagged 2026-05-03, tinylib/msgp v1.6.5 published 2026-09-30, rmp-serde 1.3.1 (Cargo.lock)",
    sources: &[
        "https://github.com/msgpack/msgpack/blob/master/spec.md",
        "https://msgpack.org/",
        "https://github.com/msgpack/msgpack-c",
        "https://cwiki.apache.org/confluence/display/IGNITE/IEP-75+Thin+Client+MsgPack+Serialization",
        "https://github.com/msgpack/msgpack-java/tags",
        "https://github.com/MessagePack-CSharp/MessagePack-CSharp",
        "https://www.npmjs.com/package/@msgpack/msgpack",
        "https://pkg.go.dev/github.com/tinylib/msgp?tab=versions",
        "https://github.com/vmihailenco/msgpack",
        "https://docs.rs/crate/zerompk/0.8.0",
    ],
};

pub const CBOR: Features = Features {
    family: "CBOR",
    schema: Schema::None,
    schema_detail: "None (self-describing); CDDL (RFC 8610) can optionally describe data",
    self_describing: true,
    zero_copy: false,
    traits: traits![
        binary,
        streaming,
        evolution,
        cross_language,
        nested,
        standalone_primitives,
        extension_types,
        maintained
    ],
    unions: "No; every data item carries its major type (application types: see extension types)",
    optional_fields: "Omit the map key, or use the null/undefined simple values",
    top_level: "Any data item: a lone integer, string or tagged UUID (tag 37) is a complete message",
    extension_types: "Tags (major type 6): a tag number from the IANA registry (first-come-first-served ranges are open to applications) wraps any data item",
    framing: "Each data item is self-delimiting (indefinite-length items end with a break byte); RFC 8742 CBOR Sequences concatenate items",
    evolution: "Schemaless: whatever the application tolerates",
    evolution_trial: Trial::Tried,
    languages: "IETF standard (RFC 8949); no reference implementation, many independent ones",
    licenses: "Per IEP-75: Java Apache-2.0 (Jackson), C# CC0 (and .NET's System.Formats.Cbor, MIT), C++ MIT, Python MIT (cbor2), JavaScript MIT (cbor), PHP: PHP License (outdated, IEP-75 says); Rust: ciborium Apache-2.0, minicbor BlueOak-1.0.0; Go (fxamacker/cbor): MIT",
    maintenance: "Maintained: RFC 8949 (2020) is the standard, no reference implementation; fxamacker/cbor v2.10.0 published 2026-10-28, jackson-dataformat-cbor 2.23.0 built 2026-11-07 and tools.jackson 3.3.0 built 2026-11-08 (the JVM runner pins both)",
    sources: &[
        "https://www.rfc-editor.org/rfc/rfc8949",
        "https://www.rfc-editor.org/rfc/rfc8742",
        "https://www.rfc-editor.org/rfc/rfc8610",
        "https://www.iana.org/assignments/cbor-tags/cbor-tags.xhtml",
        "https://cwiki.apache.org/confluence/display/IGNITE/IEP-75+Thin+Client+MsgPack+Serialization",
        "https://pkg.go.dev/github.com/fxamacker/cbor/v2?tab=versions",
        "https://repo1.maven.org/maven2/com/fasterxml/jackson/dataformat/jackson-dataformat-cbor/2.23.0/",
        "https://repo1.maven.org/maven2/tools/jackson/dataformat/jackson-dataformat-cbor/3.3.0/",
        "https://docs.rs/crate/ciborium/0.2.2",
        "https://docs.rs/crate/minicbor/2.3.1",
    ],
};

pub const JSON: Features = Features {
    family: "JSON",
    schema: Schema::None,
    schema_detail: "None; JSON Schema exists but is separate and optional",
    self_describing: true,
    zero_copy: false,
    traits: traits![
        streaming,
        evolution,
        cross_language,
        nested,
        standalone_primitives,
        maintained
    ],
    unions: "No; by convention only (e.g. a tag member)",
    optional_fields: "Omit the member or use null",
    top_level: "Any value: RFC 8259 lets a JSON text be a bare number or string",
    extension_types: "No: six types (object, array, string, number, true/false, null); others by convention only",
    framing: "A JSON text is one value; streams use JSON Lines (one value per line) or RFC 7464 JSON text sequences",
    evolution: "Schemaless: app-defined. Interop is only assured for integers within ±(2^53−1) (RFC 8259 §6); many parsers round u64",
    evolution_trial: Trial::Tried,
    languages: "Standard (RFC 8259 / ECMA-404); implemented everywhere, no reference implementation",
    licenses: "Java (Jackson): Apache-2.0; C# (System.Text.Json): MIT; C++ (nlohmann/json): MIT; Python (json, standard library): PSF-2.0; JavaScript: built into the language; PHP (ext/json, bundled): PHP License; Rust (serde_json): MIT OR Apache-2.0; Go (encoding/json): BSD-3-Clause",
    maintenance: "Maintained: RFC 8259 (2017) is the standard, no reference implementation; every language's standard library or main library keeps releasing (serde_json 1.0.154 in Cargo.lock)",
    sources: &[
        "https://www.rfc-editor.org/rfc/rfc8259",
        "https://ecma-international.org/publications-and-standards/standards/ecma-404/",
        "https://jsonlines.org/",
        "https://www.rfc-editor.org/rfc/rfc7464",
        "https://github.com/FasterXML/jackson-databind",
        "https://github.com/dotnet/runtime/blob/main/LICENSE.TXT",
        "https://github.com/nlohmann/json/blob/develop/LICENSE.MIT",
        "https://docs.python.org/3/license.html",
        "https://www.php.net/license/",
        "https://docs.rs/crate/serde_json/latest",
        "https://go.dev/LICENSE",
    ],
};

pub const BSON: Features = Features {
    family: "BSON",
    schema: Schema::None,
    schema_detail: "None (self-describing documents)",
    self_describing: true,
    zero_copy: true,
    traits: traits![
        binary,
        streaming,
        evolution,
        cross_language,
        nested,
        extension_types,
        maintained
    ],
    unions: "No; every element carries a type byte",
    optional_fields: "Omit the element, or store a null element (type 0x0A)",
    top_level: "A document: the top level is always a key/value document, so a lone value needs a wrapping key",
    extension_types: "Binary subtypes 0x80 to 0xFF are user-defined: a type byte of the application's choosing on a byte string",
    framing: "int32 total-length prefix per document; length-prefixed strings/subdocs let raw APIs read fields in place by linear scan",
    evolution: "Schemaless: whatever the application tolerates",
    evolution_trial: Trial::Tried,
    languages: "MongoDB drivers maintain BSON libraries: C (libbson), C++, C#, Go, Java, Node.js, PHP, Python, Ruby, Rust and more",
    licenses: "MongoDB's libraries: Java (org.mongodb:bson), C# (MongoDB.Bson), C++ (bsoncxx), Python (pymongo's bson), JavaScript (bson), PHP (mongodb extension), Go (mongo-driver), C (libbson): Apache-2.0; Rust (bson crate): MIT",
    maintenance: "Maintained: libbson (mongo-c-driver) 2.5.0 tagged 2026-08-21; bson-rust v3.1.0 tagged 2025-11-20",
    sources: &[
        "https://bsonspec.org/spec.html",
        "https://bsonspec.org/",
        "https://docs.rs/bson/latest/bson/raw/index.html",
        "https://www.mongodb.com/docs/drivers/",
        "https://github.com/mongodb/mongo-c-driver",
        "https://github.com/mongodb/mongo-c-driver/tags",
        "https://github.com/mongodb/bson-rust/tags",
        "https://www.npmjs.com/package/bson",
        "https://github.com/mongodb/mongo-csharp-driver",
        "https://github.com/mongodb/mongo-cxx-driver",
        "https://github.com/mongodb/mongo-python-driver",
        "https://github.com/mongodb/mongo-php-driver",
    ],
};

pub const FLEXBUFFERS: Features = Features {
    family: "FlexBuffers",
    schema: Schema::None,
    schema_detail: "None (schemaless sibling of FlatBuffers)",
    self_describing: true,
    zero_copy: true,
    traits: traits![binary, evolution, cross_language, nested, standalone_primitives, maintained],
    unions: "No; every value carries its type",
    optional_fields: "Omit the map key or store null",
    top_level: "Any value: the root may be a lone int (a 3-byte buffer)",
    extension_types: "No: a fixed set of types; a blob carries opaque bytes with no type tag",
    framing: "Not self-delimiting: root type and width sit in the last bytes, so the buffer's length must be known",
    evolution: "Schemaless: whatever the application tolerates",
    evolution_trial: Trial::Tried,
    languages: "In google/flatbuffers: C++, Java, Dart, JavaScript/TypeScript, Rust (flexbuffers crate)",
    licenses: "Apache-2.0 in google/flatbuffers: C++, Java, Python, JavaScript/TypeScript, Rust (flexbuffers crate); C#, PHP, Go: none in the project",
    maintenance: "Maintained: ships in google/flatbuffers, v25.12.19 released 2025-12-19",
    sources: &[
        "https://flatbuffers.dev/flexbuffers/",
        "https://flatbuffers.dev/internals/",
        "https://docs.rs/flexbuffers",
        "https://github.com/google/flatbuffers/tree/master/python/flatbuffers",
    ],
};

pub const AVRO: Features = Features {
    family: "Avro",
    schema: Schema::Idl,
    schema_detail: "JSON schema (.avsc) or Avro IDL (.avdl); code generation optional (generic readers use the schema at run time)",
    self_describing: false,
    zero_copy: false,
    traits: traits![
        binary,
        unions,
        evolution,
        cross_language,
        nested,
        standalone_primitives,
        maintained
    ],
    unions: "Union types (JSON array of branches), encoded as the branch index then the value",
    optional_fields: "A union with \"null\", usually [\"null\", T] with default null",
    top_level: "Any schema, primitives included: the schema \"string\" or \"int\" encodes a lone value",
    extension_types: "No: logical types (decimal, uuid, date, time, timestamp, duration) annotate an underlying type, but the spec lists them; custom ones (Java's LogicalTypes.register) are an implementation extension others ignore",
    framing: "Datums carry no framing or types; container files embed the writer schema + sync markers; single-object: C3 01 + fingerprint",
    evolution: "Reader/writer schema resolution by field name: new reader fields need defaults, writer-only fields skipped, numeric promotions",
    evolution_trial: Trial::Tried,
    languages: "Apache Avro SDKs: C, C++, C#, Java, JavaScript, Perl, PHP, Python, Ruby; Rust in apache/avro-rs",
    licenses: "Apache-2.0 for the Apache Avro SDKs: Java, C#, C++, C, Python, JavaScript, PHP, Perl, Ruby, Rust (apache/avro-rs); Go: none in the project (hamba/avro, used here: MIT)",
    maintenance: "Maintained: Java 1.12.2 (the JVM runner pins it; its last release candidate was tagged 2026-08-07); avro-rs 0.22.0 tagged 2026-08-10",
    sources: &[
        "https://avro.apache.org/docs/1.12.0/specification/",
        "https://github.com/apache/avro",
        "https://github.com/apache/avro-rs",
        "https://github.com/apache/avro/tags",
        "https://github.com/apache/avro-rs/tags",
        "https://github.com/hamba/avro",
    ],
};

pub const THRIFT: Features = Features {
    family: "Thrift",
    schema: Schema::Idl,
    schema_detail: ".thrift IDL compiled by the thrift compiler",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, streaming, unions, evolution, cross_language, nested, maintained],
    unions: "`union`: a struct with exactly one field set",
    optional_fields: "`optional` fields are omitted when unset; `required` must be present; default requiredness is normally written",
    top_level: "A struct (TSerializer takes a TBase); call arguments travel wrapped in a struct",
    extension_types: "No: typedefs only alias; types are the IDL's structs, unions, exceptions, enums and containers",
    framing: "Binary/compact protocols carry field ids and types (skippable), no message length; TFramedTransport adds a 4-byte size",
    evolution: "Field ids on the wire: add optional/default fields, unknown ids skipped; never reuse or retype ids; avoid `required`",
    evolution_trial: Trial::Tried,
    languages: "apache/thrift: C++, Java, Python, Go, C# (.NET), Rust, JS/Node.js, PHP, Ruby, Erlang, Haskell, Swift and more",
    licenses: "Apache-2.0 for every library in apache/thrift: Java, C# (netstd), C++, Python, JavaScript (Node.js and browser), PHP, Rust, Go",
    maintenance: "Maintained: v0.24.0 tagged 2026-07-11",
    sources: &[
        "https://thrift.apache.org/docs/idl",
        "https://github.com/apache/thrift/blob/master/LANGUAGES.md",
        "https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md",
        "https://github.com/apache/thrift/blob/master/doc/specs/thrift-rpc.md",
        "https://github.com/apache/thrift/tags",
        "https://github.com/apache/thrift/blob/master/LICENSE",
    ],
};

pub const UBJSON: Features = Features {
    family: "UBJSON",
    schema: Schema::None,
    schema_detail: "None (1:1 binary mapping of JSON's types)",
    self_describing: true,
    zero_copy: false,
    // Libraries in several languages, none maintained (see `maintenance`): not cross-language.
    traits: traits![binary, streaming, evolution, nested, standalone_primitives],
    unions: "No; every value starts with a 1-byte type marker",
    optional_fields: "Omit the key, or store null (Z)",
    top_level: "Any value: a lone int or string is a complete message",
    extension_types: "No: JSON's types plus sized ints, char and high-precision numbers; no type tag for the application",
    framing: "Values are self-delimiting; containers end with ]/} or declare a count (#) and optionally one element type ($)",
    evolution: "Schemaless: whatever the application tolerates",
    evolution_trial: Trial::Tried,
    languages: "Spec only (ubjson.org); libraries are listed there, mostly community-written",
    licenses: "Java (com.dev-smart:ubjson): MIT; Python (py-ubjson): Apache-2.0; C#, C++, JavaScript, PHP, Go: not checked (community libraries listed on ubjson.org; IEP-75 found C#'s unmaintained); Rust: no maintained crate (shootout's own crates/ubjson)",
    maintenance: "Abandoned (IEP-75: \"seems to be abandoned, implementations (e.g. C#) are not maintained\"): spec Draft 12, last edited 2018 (a typo fix in 2021); com.dev-smart:ubjson 0.1.8 tagged 2018-05-03; py-ubjson v0.16.1 tagged 2020-04-18",
    sources: &[
        "https://ubjson.org/",
        "https://github.com/ubjson/universal-binary-json",
        "https://cwiki.apache.org/confluence/display/IGNITE/IEP-75+Thin+Client+MsgPack+Serialization",
        "https://github.com/ubjson/universal-binary-json/commits/master",
        "https://github.com/dinocore1/ubjson/tags",
        "https://github.com/Iotic-Labs/py-ubjson/tags",
    ],
};

pub const BINCODE: Features = Features {
    family: "bincode",
    schema: Schema::Derive,
    schema_detail: "Rust types: bincode's own derive (Encode/Decode) or serde; wincode's derive (SchemaWrite/SchemaRead)",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, streaming, unions, nested, standalone_primitives],
    unions: "Rust enums: variant index (varint by default) then the variant's fields",
    optional_fields: "Option<T>: 1-byte tag (0 = None, 1 = Some) then the value",
    top_level: "Any type that implements Encode/Decode or serde, a bare u32 or String included",
    extension_types: "No: the bytes carry no types; an application type is whatever its Encode implementation writes",
    framing: "No header or length; a decoder that knows the type reads exactly one value (decode_from_slice returns bytes read)",
    evolution: "None: no field ids or names; any change to the types breaks old data",
    evolution_trial: Trial::Tried,
    languages: "Rust only",
    licenses: "Rust: MIT (bincode), Apache-2.0 (wincode); no other language",
    maintenance: "Not maintained: development ceased 2025-12-16 (RUSTSEC-2025-0141); 1.3.3 declared complete; the last release, 3.0.0, holds only a compile_error! saying so; 3.0.0's README names wincode (Anza) the bincode-compatible alternative (0.6.3 here; its default configuration writes bincode 1's bytes)",
    sources: &[
        "https://docs.rs/crate/bincode/2.0.1/source/docs/spec.md",
        "https://docs.rs/bincode/2.0.1/bincode/",
        "https://rustsec.org/advisories/RUSTSEC-2025-0141.html",
        "https://git.sr.ht/~stygianentity/bincode/tree/v3.0/item/README.md",
        "https://docs.rs/crate/bincode/3.0.0/source/README.md",
        "https://docs.rs/wincode/0.6.3/wincode/",
    ],
};

pub const POSTCARD: Features = Features {
    family: "postcard",
    schema: Schema::Derive,
    schema_detail: "Rust types via serde derive (Serialize/Deserialize)",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, streaming, unions, nested, standalone_primitives, maintained],
    unions: "Rust enums: varint discriminant then the variant's fields",
    optional_fields: "Option<T>: 1-byte tag (0 = None, 1 = Some) then the value",
    top_level: "Any serde type, a bare u32 or String included",
    extension_types: "No: the bytes carry no types; an application type is whatever its serde implementation writes",
    framing: "No length header; take_from_bytes returns the unused rest; the COBS flavor delimits messages with a 0x00 byte",
    evolution: "None beyond a stable, documented wire format since 1.0: no field ids or names, both sides need the same types",
    evolution_trial: Trial::Tried,
    languages: "Rust (the wire format spec is language-neutral)",
    licenses: "Rust: MIT OR Apache-2.0; no other language from the project",
    maintenance: "Maintained: v1.1.2 released 2025-06-25 (repository history), 1.2.0 the newest on crates.io",
    sources: &[
        "https://docs.rs/postcard/latest/postcard/",
        "https://postcard.jamesmunns.com/",
        "https://docs.rs/postcard/latest/postcard/fn.take_from_bytes_cobs.html",
        "https://github.com/jamesmunns/postcard/releases",
        "https://crates.io/crates/postcard",
    ],
};

pub const RKYV: Features = Features {
    family: "rkyv",
    schema: Schema::Derive,
    schema_detail: "Rust types via #[derive(Archive, Serialize, Deserialize)]",
    self_describing: false,
    zero_copy: true,
    traits: traits![binary, unions, nested, standalone_primitives, maintained],
    unions: "Rust enums archived as a tag plus the variant's fields",
    optional_fields: "Option<T> archived as ArchivedOption<T>",
    top_level: "Any Archive type, a bare u32 or String included",
    extension_types: "No: the archive mirrors the Rust types' layout; no type tags",
    framing: "Root object stored at the end of the buffer by default; not self-delimiting, buffer length and alignment must be known",
    evolution: "None built in: the archive mirrors the Rust types' layout; changes need app-level versioning",
    evolution_trial: Trial::Tried,
    languages: "Rust only; untrusted bytes are validated with bytecheck (CheckBytes) before access",
    licenses: "Rust: MIT; no other language",
    maintenance: "Maintained: 0.8.16 released 2026-04-22 (repository history); 0.8.18 in Cargo.lock",
    sources: &[
        "https://docs.rs/rkyv/latest/rkyv/",
        "https://github.com/rkyv/rkyv",
        "https://github.com/rkyv/rkyv/commits/main",
        "https://docs.rs/crate/rkyv/0.8.18",
    ],
};

pub const BORSH: Features = Features {
    family: "Borsh",
    schema: Schema::Derive,
    schema_detail: "Rust types via #[derive(BorshSerialize, BorshDeserialize)]; optional BorshSchema",
    self_describing: false,
    zero_copy: false,
    traits: traits![
        binary,
        streaming,
        unions,
        cross_language,
        nested,
        standalone_primitives,
        maintained
    ],
    unions: "Rust enums: u8 variant index then the variant's fields",
    optional_fields: "Option<T>: 1-byte tag (0 = None, 1 = Some) then the value",
    top_level: "Any type that implements BorshSerialize, a bare u32 or String included",
    extension_types: "No: the bytes carry no types; an application type is whatever its BorshSerialize writes",
    framing: "No header or length; fixed little-endian integers and u32 length prefixes; the type determines where a value ends",
    evolution: "None: the specified encoding is bijective and positional; no field ids or names",
    evolution_trial: Trial::Tried,
    languages: "Near maintains Rust (borsh-rs) and JS/TS (borsh-js); Go, Python, Java etc. ports are listed in the borsh README",
    licenses: "Rust (borsh-rs): MIT OR Apache-2.0; JavaScript (borsh-js): Apache-2.0; Java, C#, C++, Python, PHP, Go: not checked (community ports only)",
    maintenance: "Maintained: borsh-rs borsh-v1.7.0 tagged 2026-06-18; 1.8.1 in Cargo.lock",
    sources: &[
        "https://borsh.io/",
        "https://github.com/near/borsh",
        "https://github.com/near/borsh-rs",
        "https://github.com/near/borsh-js",
        "https://github.com/near/borsh-rs/tags",
        "https://www.npmjs.com/package/borsh",
    ],
};

pub const SPEEDY: Features = Features {
    family: "speedy",
    schema: Schema::Derive,
    schema_detail: "Rust types via #[derive(Readable, Writable)]",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, streaming, unions, evolution, nested, standalone_primitives],
    unions: "Rust enums: u32 tag by default (tag_type = u8, u16, u64_varint, …) then the variant's fields",
    optional_fields: "Option<T>: 1-byte tag then the value",
    top_level: "Any Readable/Writable type, a bare u32 or String included",
    extension_types: "No: the bytes carry no types; an application type is whatever its Writable writes",
    framing: "No header; lengths are u32 by default (length_type); endianness is chosen by the caller",
    evolution: "Only #[speedy(default_on_eof)]: fields appended at the end read as Default when old data ends early",
    evolution_trial: Trial::Tried,
    languages: "Rust only",
    licenses: "Rust: MIT OR Apache-2.0; no other language",
    maintenance: "Not maintained: 0.8.7 (tagged 2024-01-14) is still the newest on crates.io; last commit 2024-10-16; rust_serialization_benchmark dropped it as unmaintained (PR #156, 2026-08-21)",
    sources: &[
        "https://github.com/koute/speedy",
        "https://docs.rs/speedy",
        "https://github.com/koute/speedy/tags",
        "https://crates.io/crates/speedy",
        "https://github.com/djkoloski/rust_serialization_benchmark/pull/156",
    ],
};

pub const BITCODE: Features = Features {
    family: "bitcode",
    schema: Schema::Derive,
    schema_detail: "Rust types via #[derive(Encode, Decode)] or serde",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, unions, nested, standalone_primitives, maintained],
    unions: "Rust enums via derive or serde; the encoding is internal, not a published spec",
    optional_fields: "Option<T> (encoding internal, not a published spec)",
    top_level: "Any Encode/Decode or serde type, a bare u32 or String included",
    extension_types: "No: the encoding is internal; an application type is whatever its Encode writes",
    framing: "No header; decode takes one whole buffer (each field's values are grouped together), so messages need external framing",
    evolution: "None: format not stable across major versions and not self-describing (stated non-goals)",
    evolution_trial: Trial::Tried,
    languages: "Rust only (compatibility with other languages is a stated non-goal)",
    licenses: "Rust: MIT OR Apache-2.0; no other language",
    maintenance: "Maintained: 0.6.9 released 2025-12-18 (repository history); commits to 2026-06-27",
    sources: &[
        "https://docs.rs/bitcode/latest/bitcode/",
        "https://github.com/SoftbearStudios/bitcode",
        "https://github.com/SoftbearStudios/bitcode/commits/main",
    ],
};

pub const MUSLI: Features = Features {
    family: "Müsli",
    schema: Schema::Derive,
    schema_detail: "Rust types via musli's own #[derive(Encode, Decode)] (attributes per mode: packed, name, default, ...); musli::serde for serde types",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, streaming, unions, nested, standalone_primitives, maintained],
    unions: "Rust enums: the variant's index (or #[musli(name)]) then its fields; tag/content and untagged representations by attribute",
    optional_fields: "storage: Option<T> as a 1-byte tag then the value; packed encoding and inside #[musli(packed)] structs: nothing for None, Some while input remains (optional fields only at the end); absent fields with #[musli(default)] in storage, wire and descriptive",
    top_level: "Any Encode/Decode type, a bare u32 or String included",
    extension_types: "No: storage and packed carry no types; descriptive tags only musli's data model (numbers, strings, sequences, maps, variants)",
    framing: "No header or length; a decoder that knows the type reads exactly one value from a Reader and stops (Encoding::decode leaves the rest unread)",
    evolution: "Per encoding: packed (and #[musli(packed)] structs) none; storage reads missing #[musli(default)] fields but cannot skip unknown ones; wire and descriptive skip unknown fields (full upgrade stability)",
    evolution_trial: Trial::Tried,
    languages: "Rust only",
    licenses: "Rust: MIT OR Apache-2.0; no other language",
    maintenance: "Maintained: 0.2.1 released 2026-10-23 (crates.io index pubtime; 0.2.0 2026-10-21), the newest on crates.io (cargo info musli)",
    sources: &[
        "https://docs.rs/musli/0.2.1/musli/",
        "https://docs.rs/musli/0.2.1/musli/storage/",
        "https://docs.rs/musli/0.2.1/musli/packed/",
        "https://docs.rs/musli/0.2.1/musli/_help/derives/",
        "https://github.com/udoprog/musli",
        "https://crates.io/crates/musli",
    ],
};

pub const DBN: Features = Features {
    family: "DBN (Databento Binary Encoding)",
    schema: Schema::Idl,
    schema_detail: "No IDL or compiler: a fixed set of C-layout record structs (one per Databento schema: trades, MBP-1, MBP-10, MBO, OHLCV, status, symbol mapping, ...) defined by the reference implementation, the dbn crate, and mirrored by hand in databento-cpp",
    self_describing: false,
    zero_copy: true,
    traits: traits![binary, streaming, unions, cross_language, maintained],
    unions: "An rtype byte in every record's header selects its struct (0x00 trade, 0x01 MBP-1, 0xA0 MBO, 0x16 symbol mapping, ...), so one stream mixes record types; the set is DBN's",
    optional_fields: "None: every field of a record is always present; absence is a sentinel (UNDEF_PRICE = i64::MAX, UNDEF_TIMESTAMP = u64::MAX, UNDEF_ORDER_SIZE = u32::MAX, side and action 'N')",
    top_level: "A record of one of DBN's record types; files and streams open with a metadata header (dataset, schema, time range, symbology, symbol mappings)",
    extension_types: "No: DBN's record types only, each rtype assigned by Databento",
    framing: "Self-delimiting records: a 16-byte header (length in 4-byte words, rtype, publisher_id, instrument_id, ts_event) then fixed little-endian fields, so records follow one another with nothing added; a file or stream starts with a metadata header (\"DBN\", version, length); nothing groups records into a larger message",
    evolution: "Versioned as a whole, not field by field: the metadata names the DBN version (1, 2, 3; 4 in development), record layouts change between versions (v2 widened symbols to 71 bytes, v3 changed instrument definitions and statistics), and decoders upgrade older versions' records to the current one (VersionUpgradePolicy); a reader cannot read a version newer than it knows, and within a version no field is added",
    evolution_trial: Trial::NotTried(
        "a market-data encoding of fixed record types, iex records only: shootout evolution's records (user v1/v2) have no DBN form",
    ),
    languages: "Databento's: Rust (the dbn crate, the reference implementation), Python (databento-dbn, the crate's bindings), C++ (databento-cpp, its own implementation)",
    licenses: "Rust (dbn), Python (databento-dbn), C++ (databento-cpp): Apache-2.0; Go: none from Databento (NimbleMarkets/dbn-go, unaffiliated: Apache-2.0); Java, C#, JavaScript, PHP: none from Databento (community wrappers not checked)",
    maintenance: "Maintained: dbn 0.73.0 published 2026-10-27 (crates.io index pubtime; 0.69.0 to 0.73.0 two to three weeks apart since 2026-09-01); databento-cpp 0.65.0 tagged 2026-08-18",
    sources: &[
        "https://databento.com/docs/standards-and-conventions/databento-binary-encoding",
        "https://databento.com/docs/schemas/mbp-1",
        "https://databento.com/docs/schemas/trades",
        "https://docs.rs/dbn/0.73.0/dbn/",
        "https://github.com/databento/dbn",
        "https://github.com/databento/databento-cpp",
        "https://pypi.org/project/databento-dbn/",
        "https://github.com/NimbleMarkets/dbn-go",
    ],
};

pub const BEBOP: Features = Features {
    family: "Bebop",
    schema: Schema::Idl,
    schema_detail: ".bop IDL compiled by bebopc (enums, structs, messages, unions, constants, services); a runtime library per language",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, unions, evolution, cross_language, nested, maintained],
    unions: "`union` of structs or messages: a u32 length, a u8 discriminator, then the branch; an unknown discriminator is skipped by its length (Rust: Body::Unknown)",
    optional_fields: "Message fields may each be absent (left out of the bytes; Option in Rust); struct fields are always present",
    top_level: "A record: a struct, message or union; a lone value needs a wrapping struct",
    extension_types: "No: structs, messages, unions, enums, arrays and maps of the schema; an `[opcode]` is a 4-byte type id an application may send before a record, outside its bytes, and a union's discriminator picks among the schema's own branches",
    framing: "None defined: a message and a union start with their u32 length, but a struct carries none (a reader walks it with the schema); an opcode names a record's type, not its length. Rust's Record::deserialize does not report the bytes it read, so a stream needs a length prefix",
    evolution: "Messages: add fields with new indices (readers skip unknown indices), mark removed ones [deprecated] and never reuse an index; structs are frozen (never add, remove or reorder fields: define a new struct); unions: add branches with new discriminators",
    evolution_trial: Trial::Tried,
    languages: "6over3/bebop (formerly betwixt-labs, RainwayApp): bebopc and runtimes for C#, TypeScript/JavaScript, Rust, C++ and Python (bebopc 3.2.3 also emits C); Go: 200sc/bebop, a separate compiler and runtime; no Java or PHP",
    licenses: "Apache-2.0 for bebopc and the C#, C++, JavaScript/TypeScript and Rust (the bebop crate) runtimes; Python (Runtime/Python): MIT; Go (200sc/bebop): Apache-2.0; Java: none; PHP: none",
    maintenance: "Maintained: bebop 3.2.3 (crate and npm bebop-tools) published 2025-09-16 (crates.io index pubtime), the newest of both; 6over3/bebop-next, a rewrite, at 2026.0.0-alpha.5",
    sources: &[
        "https://docs.bebop.sh/reference/wire-format",
        "https://docs.bebop.sh/reference/struct",
        "https://docs.bebop.sh/reference/message",
        "https://docs.bebop.sh/reference/binary-schema",
        "https://rainway.com/blog/2021/05/26/schema-language-unions/",
        "https://github.com/6over3/bebop",
        "https://crates.io/crates/bebop/3.2.3",
        "https://www.npmjs.com/package/bebop-tools/v/3.2.3",
        "https://github.com/6over3/bebop/blob/main/Runtime/Python/LICENSE",
        "https://github.com/200sc/bebop/blob/main/LICENSE",
        "https://github.com/6over3/bebop-next",
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
    traits: traits![
        binary,
        streaming,
        unions,
        evolution,
        nested,
        standalone_primitives,
        extension_types,
        maintained
    ],
    unions: "Subclass polymorphism: each object's class descriptor is in the stream",
    optional_fields: "Null references; primitive fields are always written",
    top_level: "Any Serializable object (boxed primitives and Strings included); writeInt and the like write bare primitives",
    extension_types: "Every object's class descriptor (class name, serialVersionUID, fields) is in the stream; writeObject, readResolve and Externalizable set a class's own form",
    framing: "Stream header (magic 0xACED, version 5), then objects one after another (ObjectInputStream.readObject); back-references within a stream",
    evolution: "serialVersionUID decides compatibility; adding fields (read as defaults) and removing them are compatible changes, changing a field's type or the class hierarchy is not (spec ch. 5)",
    evolution_trial: Trial::NotTried(NO_RUST_FORMAT),
    languages: "JVM only",
    licenses: "Java (OpenJDK): GPL-2.0 with Classpath Exception; no other language",
    maintenance: "Maintained: part of the JDK, released every six months (JDK 26: March 2026)",
    sources: &[
        "https://docs.oracle.com/en/java/javase/17/docs/specs/serialization/protocol.html",
        "https://docs.oracle.com/en/java/javase/17/docs/specs/serialization/version.html",
        "https://openjdk.org/projects/jdk/26/",
        "https://openjdk.org/legal/gplv2+ce.html",
    ],
};

pub const SMILE: Features = Features {
    family: "Smile",
    schema: Schema::None,
    schema_detail: "None: a binary encoding of the JSON data model (Jackson's dataformat-smile)",
    self_describing: true,
    zero_copy: false,
    traits: traits![
        binary,
        streaming,
        evolution,
        cross_language,
        nested,
        standalone_primitives,
        maintained
    ],
    unions: "No; by convention only, as JSON",
    optional_fields: "Omit the key or write null, as JSON",
    top_level: "Any JSON value",
    extension_types: "No: JSON's data model plus raw binary; no type tag for the application",
    framing: "Optional 4-byte header (`:)\\n` + flags); values delimit themselves; optional 0xFF end-of-content marker between documents",
    evolution: "Schemaless: app-defined, as JSON; back-referenced (shared) key names are per document",
    evolution_trial: Trial::NotTried(NO_RUST_FORMAT),
    languages: "Java (Jackson, the reference); libsmile (C), Python and others from the community",
    licenses: "Java (Jackson): Apache-2.0, the specification BSD-2-Clause; C (libsmile), JavaScript (smile-js), Python (PySmile): not checked (community libraries); C#, C++, PHP, Rust, Go: none listed by the specification",
    maintenance: "Maintained: jackson-dataformat-smile 2.23.0 built 2026-11-07, tools.jackson 3.3.0 built 2026-11-08 (the JVM runner pins both)",
    sources: &[
        "https://github.com/FasterXML/smile-format-specification",
        "https://github.com/FasterXML/jackson-dataformats-binary/tree/2.x/smile",
        "https://repo1.maven.org/maven2/com/fasterxml/jackson/dataformat/jackson-dataformat-smile/2.23.0/",
        "https://repo1.maven.org/maven2/tools/jackson/dataformat/jackson-dataformat-smile/3.3.0/",
    ],
};

pub const KRYO: Features = Features {
    family: "Kryo",
    schema: Schema::Derive,
    schema_detail: "The Java classes, registered with the Kryo instance (registration order gives class IDs)",
    self_describing: false,
    zero_copy: false,
    traits: traits![
        binary,
        streaming,
        unions,
        nested,
        standalone_primitives,
        extension_types,
        maintained
    ],
    unions: "Subclass polymorphism by registered class ID (writeClassAndObject)",
    optional_fields: "Null references (a null flag per reference field)",
    top_level: "Any object (writeObject), boxed primitives and Strings included, or bare primitives (Output.writeInt)",
    extension_types: "Registered classes, each with a serializer of the application's choosing; writeClassAndObject puts the class id in the bytes",
    framing: "None added: objects are read one after another from an Input over a stream, given the same registrations",
    evolution: "The default FieldSerializer supports no change; CompatibleFieldSerializer, TaggedFieldSerializer and VersionFieldSerializer add or remove fields at a cost in size",
    evolution_trial: Trial::NotTried(NO_RUST_FORMAT),
    languages: "JVM only",
    licenses: "Java: BSD-3-Clause; no other language",
    maintenance: "Maintained: 5.6.2 tagged 2024-10-10; maintainer commits (fixes, JDK 26 tests) to 2026-06-24",
    sources: &[
        "https://github.com/EsotericSoftware/kryo#compatibility",
        "https://github.com/EsotericSoftware/kryo#registration",
        "https://github.com/EsotericSoftware/kryo/tags",
        "https://github.com/EsotericSoftware/kryo/commits/master",
    ],
};

pub const FORY: Features = Features {
    family: "Fory",
    schema: Schema::Derive,
    schema_detail: "The program's own classes (Java) or #[derive(ForyStruct)] types (Rust), registered; cross-language mode shares type names or IDs instead of a schema file",
    self_describing: false,
    zero_copy: false,
    traits: traits![
        binary,
        streaming,
        unions,
        evolution,
        cross_language,
        nested,
        standalone_primitives,
        extension_types,
        maintained
    ],
    unions: "Subclass polymorphism by registered type",
    optional_fields: "Nullable references (a null flag per reference)",
    top_level: "Any object, primitives and strings included",
    extension_types: "Registered types (by id or name), with custom serializers; the type is identified in the bytes",
    framing: "A header per serialized object; objects read one after another from a buffer or stream",
    evolution: "Schema-consistent mode (Java's default) supports no change; compatible mode (CompatibleMode.COMPATIBLE; the Rust crate's default) adds and removes fields by sharing type metadata, matching fields by name (a renamed field reads as missing)",
    evolution_trial: Trial::Tried,
    languages: "Apache Fory: Java, Python, C++, Go, JavaScript, Rust, Scala, Kotlin; the row format (not measured here) reads in place",
    licenses: "Apache-2.0 for every language in apache/fory: Java, C#, C++, Python, JavaScript, Rust, Go; PHP: none",
    maintenance: "Maintained: v1.6.1 tagged 2026-08-12; the Rust crate 1.7.7, published 2026-10-12 (crates.io index), is what the Rust row builds; the Java artifact's newest on Maven Central here is 1.6.0, what the JVM runner builds",
    sources: &[
        "https://fory.apache.org/docs/guide/java_serialization_guide",
        "https://github.com/apache/fory",
        "https://github.com/apache/fory/tags",
        "https://docs.rs/fory/1.7.7/fory/",
        "https://crates.io/crates/fory",
    ],
};

pub const IGNITE_BINARY: Features = Features {
    family: "Ignite binary",
    schema: Schema::Derive,
    schema_detail: "Java classes or BinaryObjectBuilder; type metadata (type ID, field names and IDs) registered with the cluster",
    self_describing: true,
    zero_copy: true,
    traits: traits![
        binary,
        streaming,
        evolution,
        cross_language,
        nested,
        standalone_primitives,
        extension_types,
        maintained
    ],
    unions: "No",
    optional_fields: "A field can be absent from an object (its schema lists the fields present) or null",
    top_level: "Primitives, strings, UUIDs and arrays have type codes of their own and are written alone",
    extension_types: "User types by type id (a hash of the type name) in each object's header; Binarylizable and BinarySerializer set a type's own form",
    framing: "Each object's header carries its total length, type ID and schema ID; a footer holds field offsets",
    evolution: "Fields are added and removed at runtime without restarts (new schema IDs); a field's type cannot change",
    evolution_trial: Trial::NotTried(NO_RUST_FORMAT),
    languages: "Apache Ignite: Java, .NET and C++ nodes; thin clients in Python, Node.js, PHP and others speak the binary protocol",
    licenses: "Apache-2.0 for Apache Ignite's Java, C# (.NET) and C++ and its thin clients: Python (pyignite), JavaScript (Node.js), PHP; Rust, Go: none in the project",
    maintenance: "Maintained: Ignite 2.18.0 released April 2026 (its packaging changelog is dated 2026-04-06); Ignite 3 replaced this format by MessagePack for thin clients",
    sources: &[
        "https://ignite.apache.org/docs/latest/key-value-api/binary-objects",
        "https://ignite.apache.org/docs/latest/binary-client-protocol/data-format",
        "https://github.com/apache/ignite/pull/12984",
        "https://ignite.apache.org/docs/latest/thin-clients/getting-started-with-thin-clients",
        "https://pypi.org/project/pyignite/",
    ],
};

pub const GOB: Features = Features {
    family: "gob",
    schema: Schema::Derive,
    schema_detail: "The Go types themselves; the stream carries their descriptions",
    self_describing: true,
    zero_copy: false,
    traits: traits![
        binary,
        streaming,
        unions,
        evolution,
        nested,
        standalone_primitives,
        extension_types,
        maintained
    ],
    unions: "Interface values whose concrete types were registered (gob.Register)",
    optional_fields: "Zero values are not sent; pointers are flattened (nil reads as the zero value)",
    top_level: "Any Go value; a non-struct at the top level is sent as a singleton",
    extension_types: "Types described in the stream by name; interface values carry the name gob.Register gave their concrete type; GobEncoder/BinaryMarshaler set a type's own bytes",
    framing: "A stream of length-prefixed messages; each type is described once per stream, before its first value",
    evolution: "Fields match by name: fields added or removed on one side are ignored; a field's type must stay compatible",
    evolution_trial: Trial::NotTried(NO_RUST_FORMAT),
    languages: "Go only (encoding/gob)",
    licenses: "Go: BSD-3-Clause; no other language from the Go project",
    maintenance: "Maintained: in Go's standard library, released with Go every six months (Go 1.27, August 2026 (go1.27.0 on the Go proxy 2026-08-18), is what the Go runner requires, with toolchain go1.27.3 of 2026-10-19)",
    sources: &["https://pkg.go.dev/encoding/gob", "https://go.dev/doc/devel/release"],
};

pub const MUS: Features = Features {
    family: "MUS",
    schema: Schema::Derive,
    schema_detail: "No IDL: each type's serializer is Go code put together from mus-go's per-type pieces (by hand, or by its generator)",
    self_describing: false,
    zero_copy: false,
    traits: traits![binary, streaming, nested, standalone_primitives, maintained],
    unions: "No union in the format; the mus-format project's DTS adds a type number before a value for the application to switch on",
    optional_fields: "None in the format: a pointer or option is written as a presence byte by the serializer that chose to",
    top_level: "Any value the application has a serializer for, a bare int or string included",
    extension_types: "No: the bytes carry no type identity; a serializer is all there is",
    framing: "Not delimited on its own terms: a reader that knows the type reads exactly one value, so values follow each other with no prefix",
    evolution: "None in the format: the bytes are the fields in the serializer's order; versioning is the application's (DTS, DVS)",
    evolution_trial: Trial::NotTried(NO_RUST_FORMAT),
    languages: "Go (mus-go); ports to other languages not checked",
    licenses: "Go: MIT (mus-go); others not checked",
    maintenance: "Maintained: mus-go v0.7.2 released 2025-10-26 (the Go module proxy's version list)",
    sources: &[
        "https://github.com/mus-format/mus-go",
        "https://pkg.go.dev/github.com/mus-format/mus-go",
    ],
};

pub const CHRONICLE_WIRE: Features = Features {
    family: "Chronicle Wire",
    schema: Schema::Derive,
    schema_detail: "The Java classes (Marshallable), read and written by field name or position as the WireType chooses",
    self_describing: true,
    zero_copy: false,
    traits: traits![binary, nested, standalone_primitives, extension_types, evolution, maintained],
    unions: "Polymorphic fields by type alias (!type tags in the bytes)",
    optional_fields: "Fields may be left out; a missing field keeps its default",
    top_level: "Any Marshallable, or a bare value written through a ValueOut",
    extension_types: "Type aliases: an application class registered under a name the bytes carry (ClassAliasPool)",
    framing: "Documents in a Chronicle Queue or Bytes carry a 4-byte header; a plain stream adds framing (here a u32 LE prefix)",
    evolution: "Fields matched by name in the self-describing wire types: fields added or removed on one side are skipped or defaulted",
    evolution_trial: Trial::NotTried(NO_RUST_FORMAT),
    languages: "JVM (OpenHFT, open source); other languages not checked",
    licenses: "Java: Apache-2.0 (chronicle-wire); other languages not checked",
    maintenance: "Maintained: chronicle-wire 2026.7 on Maven Central (the version the JVM runner pins)",
    sources: &[
        "https://github.com/OpenHFT/Chronicle-Wire",
        "https://github.com/OpenHFT/Chronicle-Wire/blob/ea/LICENSE.adoc",
        "https://central.sonatype.com/artifact/net.openhft/chronicle-wire",
    ],
};

pub const IEX_TP: Features = Features {
    family: "IEX-TP (reference)",
    schema: Schema::Idl,
    schema_detail: "No IDL or compiler: fixed message layouts tabled in IEX's specifications (IEX-TP 1.x transport, DEEP 1.0 and TOPS messages), coded by hand by each reader",
    self_describing: false,
    zero_copy: true,
    traits: traits![binary, streaming, unions, evolution],
    unions: "A type byte selects each message's layout ('T' trade report, '8'/'5' price level update, 'Q' quote update, ...); the set is the specification's",
    optional_fields: "None: every field of a layout is always present (zero, or a flag bit, where it means nothing)",
    top_level: "A segment of the specification's messages; nothing else",
    extension_types: "No: the specification's message types only",
    framing: "Self-delimiting segments: a 40-byte header (protocol id, payload length, message count, first sequence number), then each message behind a u16 LE length",
    evolution: "IEX reserves the right to add message types and lengthen messages without notice: readers skip unknown types and read longer bodies by their known prefix (the length before each message makes that possible); layouts otherwise differ by protocol version (the trade report is 42 bytes in TOPS 1.5, 38 in TOPS 1.6 and DEEP 1.0, as the capture reader here reads them)",
    evolution_trial: Trial::NotTried(
        "a market-data feed's fixed layouts, iex records only: shootout evolution's records (user v1/v2) have no IEX-TP form",
    ),
    languages: "None from IEX: it publishes the specifications (and sample captures), no implementation; readers are written per application",
    licenses: "No implementation from IEX in any language (Java, C#, C++, Python, JavaScript, PHP, Rust, Go: none); the reader here (shootout's workload::iex::wire) is this project's",
    maintenance: "Not maintained: no library to maintain, only IEX's specifications; newest seen here TOPS 1.66, updated 2021-10-19 (DEEP 1.06, 2018-02-27); the feed itself is IEX's production market data",
    sources: &[
        "https://iextrading.com/trading/alerts/2017/011/",
        "https://iextrading.com/trading/alerts/2017/058",
        "https://pdfslide.net/documents/investors-exchange-tops-specification.html",
        "https://vdocuments.site/version-106-updated-february-27-2018-iex-deep-specificationpdf-deep-also.html",
    ],
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
    MUSLI,
    DBN,
    BEBOP,
    IEX_TP,
    JAVA_SERIALIZATION,
    SMILE,
    KRYO,
    FORY,
    IGNITE_BINARY,
    GOB,
    MUS,
    CHRONICLE_WIRE,
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
    fn judgments_agree_with_the_text_they_are_read_from() {
        for f in FEATURES {
            let maintained = f.maintenance.starts_with("Maintained: ");
            assert_eq!(f.traits.maintained, maintained, "{}: {}", f.family, f.maintenance);
            let no_extension_types = f.extension_types.starts_with("No: ");
            assert_eq!(f.traits.extension_types, !no_extension_types, "{}", f.family);
        }
    }

    #[test]
    fn of_family_finds_rows() {
        assert_eq!(of_family("FlatBuffers").map(|f| f.schema), Some(Schema::Idl));
        assert!(of_family("no such format").is_none());
    }
}
