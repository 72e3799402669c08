//! Which formats of which languages write the same bytes: one row per wire
//! format, naming its members in every language, and how each Rust codec
//! delimits records in its stream. docs/interop.md says how each wire format
//! maps the records (the iex union, optional fields) and why.

use serde::{Deserialize, Serialize};

/// How a codec delimits one record inside its stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Framing {
    /// A 4-byte little-endian length, then the body.
    U32le,
    /// A protobuf base-128 varint length, then the body.
    Varint,
    /// No prefix: the body is a self-delimiting message.
    None,
}

/// One wire format and the codecs, in every language, that read and write it.
pub struct Wire {
    pub name: &'static str,
    /// (language as results name it, format name in that language's registry).
    pub members: &'static [(&'static str, &'static str)],
}

impl Wire {
    /// The members of `language`.
    pub fn of<'a>(&'a self, language: &'a str) -> impl Iterator<Item = &'static str> + 'a {
        self.members
            .iter()
            .filter(move |(l, _)| *l == language)
            .map(|(_, f)| *f)
    }

    pub fn languages(&self) -> Vec<&'static str> {
        let mut languages: Vec<&str> = self.members.iter().map(|(l, _)| *l).collect();
        languages.dedup();
        languages
    }
}

const RUST: &str = "rust";
const GO: &str = "go";
const JAVA: &str = "java";

pub const WIRES: &[Wire] = &[
    Wire {
        name: "protobuf",
        members: &[
            (RUST, "protobuf-prost"),
            (GO, "protobuf"),
            (JAVA, "protobuf"),
        ],
    },
    Wire {
        name: "flatbuffers",
        members: &[
            (RUST, "flatbuffers"),
            (RUST, "flatbuffers-unchecked"),
            (RUST, "flatbuffers-planus"),
            (GO, "flatbuffers"),
            (GO, "flatbuffers-copy"),
            (JAVA, "flatbuffers"),
        ],
    },
    Wire {
        name: "capnp-unpacked",
        members: &[(RUST, "capnp-unpacked"), (GO, "capnp-unpacked")],
    },
    Wire {
        name: "capnp-packed",
        members: &[(RUST, "capnp-packed"), (GO, "capnp-packed")],
    },
    Wire {
        name: "thrift-binary",
        members: &[
            (RUST, "thrift-binary"),
            (GO, "thrift-binary"),
            (JAVA, "thrift-binary"),
        ],
    },
    Wire {
        name: "thrift-compact",
        members: &[
            (RUST, "thrift-compact"),
            (GO, "thrift-compact"),
            (JAVA, "thrift-compact"),
        ],
    },
    Wire {
        name: "avro",
        members: &[
            (RUST, "avro-datum"),
            (GO, "avro-hamba"),
            (JAVA, "avro-reflect"),
        ],
    },
    Wire {
        name: "sbe",
        members: &[(RUST, "sbe"), (GO, "sbe"), (JAVA, "sbe")],
    },
    Wire {
        name: "msgpack-map",
        members: &[
            (RUST, "msgpack-map"),
            (GO, "msgpack-map"),
            (GO, "msgpack-msgp"),
            (JAVA, "msgpack-jackson-map"),
        ],
    },
    Wire {
        name: "msgpack-array",
        members: &[
            (RUST, "msgpack-array"),
            (GO, "msgpack-array"),
            (JAVA, "msgpack-jackson-array"),
        ],
    },
    Wire {
        name: "msgpack-fields",
        members: &[(JAVA, "msgpack-raw")],
    },
    Wire {
        name: "cbor-map",
        members: &[
            (RUST, "cbor-ciborium"),
            (GO, "cbor-fxamacker"),
            (JAVA, "cbor-jackson"),
        ],
    },
    Wire {
        name: "cbor-array",
        members: &[(RUST, "cbor-minicbor")],
    },
    Wire {
        name: "json",
        members: &[
            (RUST, "json-serde_json"),
            (RUST, "json-simd-json-serde"),
            (RUST, "json-simd-json"),
            (RUST, "json-sonic-rs"),
            (GO, "json-std"),
            (GO, "json-goccy"),
            (GO, "json-sonic"),
            (JAVA, "json-jackson"),
        ],
    },
    Wire {
        name: "bson",
        members: &[(RUST, "bson"), (GO, "bson"), (JAVA, "bson")],
    },
    Wire {
        name: "ubjson",
        members: &[(RUST, "ubjson"), (JAVA, "ubjson")],
    },
    Wire {
        name: "flexbuffers",
        members: &[(RUST, "flexbuffers"), (JAVA, "flexbuffers")],
    },
    Wire {
        name: "smile",
        members: &[(JAVA, "smile-jackson")],
    },
    Wire {
        name: "bincode",
        members: &[(RUST, "bincode")],
    },
    Wire {
        name: "bitcode",
        members: &[(RUST, "bitcode")],
    },
    Wire {
        name: "borsh",
        members: &[(RUST, "borsh")],
    },
    Wire {
        name: "postcard",
        members: &[(RUST, "postcard")],
    },
    Wire {
        name: "speedy",
        members: &[(RUST, "speedy")],
    },
    Wire {
        name: "rkyv",
        members: &[(RUST, "rkyv"), (RUST, "rkyv-unchecked")],
    },
    Wire {
        name: "gob",
        members: &[(GO, "gob")],
    },
    Wire {
        name: "java-serialization",
        members: &[(JAVA, "java-serialization")],
    },
    Wire {
        name: "kryo",
        members: &[(JAVA, "kryo")],
    },
    Wire {
        name: "fory",
        members: &[(JAVA, "fory")],
    },
    Wire {
        name: "ignite-binary",
        members: &[(JAVA, "ignite-binary"), (JAVA, "ignite-raw")],
    },
];

/// The wire format of `format` in `language`.
pub fn wire_of(language: &str, format: &str) -> Option<&'static Wire> {
    WIRES
        .iter()
        .find(|w| w.members.contains(&(language, format)))
}

/// How each Rust codec delimits its records (checked against the codecs'
/// streams by a test in `interop`). rkyv's prefix is followed by alignment
/// padding, so its whole record counts as the body: only Rust reads it.
pub fn rust_framing(format: &str) -> Framing {
    match format {
        "protobuf-prost" => Framing::Varint,
        "avro-datum"
        | "bitcode"
        | "flatbuffers"
        | "flatbuffers-unchecked"
        | "flatbuffers-planus"
        | "flexbuffers"
        | "sbe" => Framing::U32le,
        _ => Framing::None,
    }
}
