//! The Rust types of v1 and of each change's v2, shared by the serde-based and
//! derive-based formats, and the one experiment they all run: write with one
//! version, read with the other.
//!
//! Every version derives every library's traits. Each library reads only its
//! own attributes, so the serde attributes (`default`, `alias`) are the serde
//! formats' evolution rules and invisible to bincode, borsh, bitcode, fory,
//! musli, rkyv, speedy, wincode and zerompk; speedy's `default_on_eof` is invisible to the
//! rest.

use anyhow::Result;
use rkyv::api::high::{HighDeserializer, HighSerializer, HighValidator};
use rkyv::bytecheck::CheckBytes;
use rkyv::rancor;
use rkyv::ser::allocator::ArenaHandle;
use rkyv::util::AlignedVec;
use serde::Serialize;
use serde::de::DeserializeOwned;
use speedy::LittleEndian;

use super::trial::{Version, VersionType, Versions, version_type};
use super::{Change, Direction, UserV1, View, email_of};

/// One version of the record, as a type every library here can write and read.
pub trait Record:
    VersionType
    + Serialize
    + DeserializeOwned
    + bincode::Encode
    + bincode::Decode<()>
    + bitcode::Encode
    + bitcode::DecodeOwned
    + borsh::BorshSerialize
    + borsh::BorshDeserialize
    + speedy::Writable<LittleEndian>
    + for<'a> speedy::Readable<'a, LittleEndian>
    + wincode::SchemaWrite<wincode::config::DefaultConfig, Src = Self>
    + for<'a> wincode::SchemaRead<'a, wincode::config::DefaultConfig, Dst = Self>
    + musli::Encode<musli::mode::Binary>
    + for<'a> musli::Decode<'a, musli::mode::Binary, musli::alloc::Global>
    + fory::Serializer<Target = Self>
    + fory::StructSerializer
    + zerompk::ToMessagePack
    + for<'a> zerompk::FromMessagePack<'a>
    + Archivable
{
}

/// rkyv's bounds for its high-level API, gathered so [`Record`] can require them.
pub trait Archivable: Sized {
    fn archive(&self) -> Result<AlignedVec, rancor::Error>;
    fn unarchive(bytes: &[u8]) -> Result<Self, rancor::Error>;
}

impl<T> Archivable for T
where
    T: rkyv::Archive
        + for<'a> rkyv::Serialize<HighSerializer<AlignedVec, ArenaHandle<'a>, rancor::Error>>,
    T::Archived: for<'a> CheckBytes<HighValidator<'a, rancor::Error>>
        + rkyv::Deserialize<T, HighDeserializer<rancor::Error>>,
{
    fn archive(&self) -> Result<AlignedVec, rancor::Error> {
        rkyv::to_bytes::<rancor::Error>(self)
    }

    fn unarchive(bytes: &[u8]) -> Result<Self, rancor::Error> {
        // rkyv reads in place and needs the archive aligned.
        let mut aligned = AlignedVec::<16>::with_capacity(bytes.len());
        aligned.extend_from_slice(bytes);
        rkyv::from_bytes::<T, rancor::Error>(&aligned)
    }
}

/// A library's whole-buffer calls: one record per buffer.
pub trait Library {
    fn encode<T: Record>(value: &T) -> Result<Vec<u8>>;
    fn decode<T: Record>(bytes: &[u8]) -> Result<T>;
}

/// A [`Library`] named `$library`, from its two calls written as closures (one
/// encoding a value of any [`Record`] type, one decoding it from bytes), and the
/// [`Evolving`](super::Evolving) format `$format` that puts it to the trial.
macro_rules! library {
    ($format:ident = $library:ident {
        name: $name:literal,
        family: $family:expr,
        rules: $rules:expr,
        encode: |$value:ident| $encode:expr,
        decode: |$bytes:ident| $decode:expr $(,)?
    }) => {
        struct $library;

        impl $crate::evolution::versions::Library for $library {
            fn encode<T: $crate::evolution::versions::Record>(
                $value: &T,
            ) -> anyhow::Result<Vec<u8>> {
                $encode
            }

            fn decode<T: $crate::evolution::versions::Record>($bytes: &[u8]) -> anyhow::Result<T> {
                $decode
            }
        }

        pub const $format: $crate::evolution::Evolving = $crate::evolution::Evolving {
            name: $name,
            family: $family,
            rules: $rules,
            trial: $crate::evolution::versions::trial::<$library>,
        };
    };
}

pub(super) use library;

/// The experiment for library `L`: `records` written by the writer's version
/// of `change` and read back, one by one, by the reader's.
pub fn trial<L: Library>(
    change: Change,
    direction: Direction,
    records: &[UserV1],
) -> Result<Vec<View>> {
    Versions {
        v1: version::<L, V1>(),
        add_field: version::<L, AddFieldV2>(),
        remove_field: version::<L, RemoveFieldV2>(),
        rename_field: version::<L, RenameFieldV2>(),
        widen_int: version::<L, WidenIntV2>(),
        reorder_fields: version::<L, ReorderFieldsV2>(),
    }
    .trial(change, direction, records)
}

/// Version `T` as library `L` writes and reads it.
fn version<L: Library, T: Record>() -> Version {
    Version {
        write: |record| L::encode(&<T as VersionType>::write(record)),
        read: |bytes| Ok(L::decode::<T>(bytes)?.view()),
    }
}

/// A version of the record: its fields in declaration order, each with its
/// attributes and what a writer of this version puts there (`from |r|` names
/// the v1 record in those expressions).
macro_rules! version {
    (
        $(#[$doc:meta])*
        $name:ident from |$record:ident| {
            $($(#[$attr:meta])* $field:ident: $ty:ty = $value:expr,)+
        }
    ) => {
        crate::workload::derive_libraries! {
            [
                bincode::Encode,
                bincode::Decode,
                bitcode::Decode,
                speedy::Readable,
                wincode::SchemaRead,
                musli::Decode,
                fory::ForyStruct,
                zerompk::FromMessagePack,
            ]

            $(#[$doc])*
            pub struct $name {
                $($(#[$attr])* pub $field: $ty,)+
            }
        }

        version_type!($name, |$record| { $($field: $value,)+ });

        impl Record for $name {}
    };
}

version! {
    /// v1: `user` with `tutorial` as an int32.
    V1 from |r| {
        uid: i64 = r.uid,
        muid: String = r.muid.clone(),
        status: String = r.status.clone(),
        tutorial: i32 = r.tutorial,
        nickname: String = r.nickname.clone(),
        total_login_num: i64 = r.total_login_num,
        opened_at: String = r.opened_at.clone(),
        created_at: String = r.created_at.clone(),
        updated_at: String = r.updated_at.clone(),
    }
}

version! {
    /// v2 appends an optional `email`: serde fills a missing one with its
    /// default (`None`); speedy documents `default_on_eof` for a field added
    /// at the end.
    AddFieldV2 from |r| {
        uid: i64 = r.uid,
        muid: String = r.muid.clone(),
        status: String = r.status.clone(),
        tutorial: i32 = r.tutorial,
        nickname: String = r.nickname.clone(),
        total_login_num: i64 = r.total_login_num,
        opened_at: String = r.opened_at.clone(),
        created_at: String = r.created_at.clone(),
        updated_at: String = r.updated_at.clone(),
        #[serde(default)]
        #[speedy(default_on_eof)]
        email: Option<String> = Some(email_of(r)),
    }
}

version! {
    /// v2 drops `nickname`. Serde readers ignore unknown fields unless told
    /// otherwise, so nothing more is needed for new readers of old data.
    RemoveFieldV2 from |r| {
        uid: i64 = r.uid,
        muid: String = r.muid.clone(),
        status: String = r.status.clone(),
        tutorial: i32 = r.tutorial,
        total_login_num: i64 = r.total_login_num,
        opened_at: String = r.opened_at.clone(),
        created_at: String = r.created_at.clone(),
        updated_at: String = r.updated_at.clone(),
    }
}

version! {
    /// v2 renames `total_login_num` to `login_count`; serde's `alias` lets the
    /// new reader accept the old name too.
    RenameFieldV2 from |r| {
        uid: i64 = r.uid,
        muid: String = r.muid.clone(),
        status: String = r.status.clone(),
        tutorial: i32 = r.tutorial,
        nickname: String = r.nickname.clone(),
        #[serde(alias = "total_login_num")]
        login_count: i64 = r.total_login_num,
        opened_at: String = r.opened_at.clone(),
        created_at: String = r.created_at.clone(),
        updated_at: String = r.updated_at.clone(),
    }
}

version! {
    /// v2 widens `tutorial` to an int64.
    WidenIntV2 from |r| {
        uid: i64 = r.uid,
        muid: String = r.muid.clone(),
        status: String = r.status.clone(),
        tutorial: i64 = r.tutorial.into(),
        nickname: String = r.nickname.clone(),
        total_login_num: i64 = r.total_login_num,
        opened_at: String = r.opened_at.clone(),
        created_at: String = r.created_at.clone(),
        updated_at: String = r.updated_at.clone(),
    }
}

version! {
    /// v2 declares v1's fields in reverse order.
    ReorderFieldsV2 from |r| {
        updated_at: String = r.updated_at.clone(),
        created_at: String = r.created_at.clone(),
        opened_at: String = r.opened_at.clone(),
        total_login_num: i64 = r.total_login_num,
        nickname: String = r.nickname.clone(),
        tutorial: i32 = r.tutorial,
        status: String = r.status.clone(),
        muid: String = r.muid.clone(),
        uid: i64 = r.uid,
    }
}
