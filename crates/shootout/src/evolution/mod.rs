//! Schema evolution, executed: for each format, a v1 record and, per kind of
//! change, a v2 written by the format's own evolution rules; records written by
//! one version are read by the other, both ways, and what the reader saw is
//! classified against what it should have seen.
//!
//! The record is `user`'s (workload/user.rs) with `tutorial` narrowed to an
//! int32 in v1, so that widening an int32 to an int64 is one of the changes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The kinds of change a v2 makes to the v1 record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// v2 appends `email`, an optional text field (written as
    /// [`email_of`] by a v2 writer).
    AddField,
    /// v2 drops `nickname`.
    RemoveField,
    /// v2 renames `total_login_num` to `login_count` (same position and type).
    RenameField,
    /// v2 widens `tutorial` from int32 to int64.
    WidenInt,
    /// v2 declares the same fields in reverse order (keeping each field's
    /// number or id where the format has them).
    ReorderFields,
}

impl Change {
    pub const ALL: [Change; 5] = [
        Change::AddField,
        Change::RemoveField,
        Change::RenameField,
        Change::WidenInt,
        Change::ReorderFields,
    ];
}

/// Who writes and who reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// Records written with v1, read with v2 (a new reader of old data).
    OldToNew,
    /// Records written with v2, read with v1 (an old reader of new data).
    NewToOld,
}

impl Direction {
    pub const ALL: [Direction; 2] = [Direction::OldToNew, Direction::NewToOld];
}

/// The v1 record.
#[derive(Clone, Debug, PartialEq)]
pub struct UserV1 {
    pub uid: i64,
    pub muid: String,
    pub status: String,
    pub tutorial: i32,
    pub nickname: String,
    pub total_login_num: i64,
    pub opened_at: String,
    pub created_at: String,
    pub updated_at: String,
}

/// The email a v2 writer of [`Change::AddField`] gives a record.
pub fn email_of(record: &UserV1) -> String {
    format!("user{}@example.com", record.uid)
}

/// One decoded field as the reader saw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Int(i64),
    Text(String),
    /// The reader has the field but the data did not carry it (an optional
    /// left empty); a format that fills in its default ("" or 0) reports that
    /// value instead.
    Absent,
}

/// What a reader decoded from one record: each of the reader version's fields,
/// by the reader's own field names, to its value.
pub type View = BTreeMap<&'static str, Value>;

/// One format's side of the experiment.
pub struct Evolving {
    /// As in the registry (`protobuf-prost`, `msgpack-map`, …).
    pub name: &'static str,
    pub family: &'static str,
    /// How this format's v2s follow its documented evolution rules (field
    /// numbers kept, `sinceVersion`, reader/writer schemas, `#[serde(default)]`,
    /// aliases, …), or that it has none and v2 is the plain changed type.
    pub rules: &'static str,
    /// Writes `records` with the writer's version of `change` and reads each
    /// back with the reader's, one record per buffer; returns the reader's view
    /// of every record, or the first error (the decoder's message). The caller
    /// catches panics, and passes one record at a time so that one record's
    /// error cannot hide another's silent misreading.
    pub trial: fn(Change, Direction, &[UserV1]) -> anyhow::Result<Vec<View>>,
}

mod avro;
mod bebop;
mod buffa;
mod capnp;
mod derive_formats;
mod flatbuffers;
pub mod matrix;
mod protobuf;
mod sbe;
mod serde_formats;
mod show;
mod thrift;
mod trial;
mod versions;

pub use show::{Export, Options, SCHEMA, evolution, help};

/// Every format the matrix runs, in the order it lists them: the schema-bearing
/// formats, then the schemaless ones with named fields, then the derive-based.
pub const FORMATS: &[Evolving] = &[
    protobuf::EVOLVING,
    buffa::EVOLVING,
    thrift::BINARY,
    thrift::COMPACT,
    avro::EVOLVING,
    capnp::EVOLVING,
    flatbuffers::EVOLVING,
    bebop::EVOLVING,
    sbe::EVOLVING,
    serde_formats::MSGPACK_MAP,
    serde_formats::CBOR_CIBORIUM,
    serde_formats::JSON_SERDE_JSON,
    serde_formats::BSON,
    serde_formats::UBJSON,
    serde_formats::FLEXBUFFERS,
    derive_formats::BINCODE,
    derive_formats::WINCODE,
    derive_formats::MUSLI,
    derive_formats::ZEROMPK,
    derive_formats::FORY,
    derive_formats::POSTCARD,
    derive_formats::BORSH,
    derive_formats::SPEEDY,
    derive_formats::BITCODE,
    derive_formats::RKYV,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::registry;
    use crate::format::features::{FEATURES, Trial};

    /// The registry is the authority on formats: the matrix runs registered
    /// formats, under the family the registry gives them, and each family says
    /// whether the matrix tries it (and why not), truly.
    #[test]
    fn the_matrix_runs_registered_formats_and_every_family_is_decided() {
        let registered = registry::formats();
        let mut tried = Vec::new();
        for evolving in FORMATS {
            let info = registered
                .iter()
                .find(|f| f.name == evolving.name)
                .unwrap_or_else(|| panic!("{} is not a registered format", evolving.name));
            assert_eq!(evolving.family, info.family.name(), "{}", evolving.name);
            tried.push(evolving.family);
        }
        let families = registered.iter().filter_map(|f| f.family.features());
        for features in FEATURES.iter().chain(families) {
            let family = features.family;
            match features.evolution_trial {
                Trial::Tried => assert!(
                    tried.contains(&family),
                    "{family} says Trial::Tried, but evolution::FORMATS has none of its formats: \
                     add one, or say why not with Trial::NotTried"
                ),
                Trial::NotTried(why) => assert!(
                    !tried.contains(&family),
                    "{family} says Trial::NotTried ({why}), but evolution::FORMATS runs one of its formats"
                ),
            }
        }
    }
}
