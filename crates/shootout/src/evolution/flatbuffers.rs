//! FlatBuffers through the official `flatbuffers` crate and flatc-generated
//! code (schemas/evolution/user.fbs), one buffer per record, verified on read
//! (`flatbuffers::root`). A table field is found through the vtable slot its id
//! gives (ids follow declaration order unless set with `id`); a reader takes a
//! slot the writer left empty as the field's default (or None for a string) and
//! never looks at slots it has no field for.

use anyhow::{Context, Result};
use flatbuffers::{FlatBufferBuilder, WIPOffset};

use super::{Change, Direction, Evolving, UserV1, Value, View, email_of};
use crate::format::features;

/// The code the pinned compiler generates from schemas/evolution/user.fbs
/// (scripts/regenerate.sh); never edited by hand.
#[allow(
    clippy::all,
    clippy::pedantic,
    dead_code,
    deprecated,
    missing_docs,
    non_camel_case_types,
    non_snake_case,
    unused_imports,
    unsafe_op_in_unsafe_fn
)]
#[rustfmt::skip]
#[path = "generated/user_generated.rs"]
mod user_generated;

use user_generated::evolution as fb;

pub const EVOLVING: Evolving = Evolving {
    name: "flatbuffers",
    family: features::FLATBUFFERS.family,
    rules: "One finished buffer per record, verified on read (flatbuffers::root). v1 is the \
            registry's UserResponse (strings `required`), tutorial an int. By the evolution \
            rules: the added email goes at the end (next id), not required; the removed \
            nickname stays in its slot marked `deprecated` (no accessor, never written), \
            which drops v1's `required` from it; the rename keeps the slot; the reorder \
            declares the fields in reverse with explicit `id`s, keeping every slot. A field's \
            type may only change to one of the same size: the widened tutorial is the plain \
            change the rules forbid, the same slot from int to long.",
    trial,
};

/// One version of the record: what its writer makes of a record, and what its
/// reader reports of a buffer.
struct Version {
    write: fn(&UserV1) -> Vec<u8>,
    read: fn(&[u8]) -> Result<View>,
}

fn trial(change: Change, direction: Direction, records: &[UserV1]) -> Result<Vec<View>> {
    let old = Version {
        write: write_v1,
        read: read_v1,
    };
    let new = match change {
        Change::AddField => Version {
            write: write_add_field,
            read: read_add_field,
        },
        Change::RemoveField => Version {
            write: write_remove_field,
            read: read_remove_field,
        },
        Change::RenameField => Version {
            write: write_rename_field,
            read: read_rename_field,
        },
        Change::WidenInt => Version {
            write: write_widen_int,
            read: read_widen_int,
        },
        Change::ReorderFields => Version {
            write: write_reorder_fields,
            read: read_reorder_fields,
        },
    };
    let (writer, reader) = match direction {
        Direction::OldToNew => (old, new),
        Direction::NewToOld => (new, old),
    };
    records
        .iter()
        .map(|record| (reader.read)(&(writer.write)(record)).context("the reader failed"))
        .collect()
}

/// A field's value as a table's `…Args` takes it.
trait Put {
    type Arg<'a>;
    fn put<'a>(self, builder: &mut FlatBufferBuilder<'a>) -> Self::Arg<'a>;
}

impl Put for i64 {
    type Arg<'a> = i64;
    fn put(self, _: &mut FlatBufferBuilder<'_>) -> i64 {
        self
    }
}

impl Put for i32 {
    type Arg<'a> = i32;
    fn put(self, _: &mut FlatBufferBuilder<'_>) -> i32 {
        self
    }
}

impl Put for &str {
    type Arg<'a> = Option<WIPOffset<&'a str>>;
    fn put<'a>(self, builder: &mut FlatBufferBuilder<'a>) -> Self::Arg<'a> {
        Some(builder.create_string(self))
    }
}

/// A field's value as the reader reports it.
trait IntoValue {
    fn into_value(self) -> Value;
}

impl IntoValue for i64 {
    fn into_value(self) -> Value {
        Value::Int(self)
    }
}

impl IntoValue for i32 {
    fn into_value(self) -> Value {
        Value::Int(self.into())
    }
}

impl IntoValue for &str {
    fn into_value(self) -> Value {
        Value::Text(self.to_owned())
    }
}

impl IntoValue for Option<&str> {
    fn into_value(self) -> Value {
        self.map_or(Value::Absent, |text| Value::Text(text.to_owned()))
    }
}

/// A version's writer and reader: each field the version uses and what the
/// writer puts there (`|r|` names the v1 record).
macro_rules! version {
    (
        $write:ident, $read:ident, $table:ident, $args:ident, |$record:ident| {
            $($field:ident: $value:expr,)+
        }
    ) => {
        fn $write($record: &UserV1) -> Vec<u8> {
            let mut builder = FlatBufferBuilder::new();
            let args = fb::$args { $($field: $value.put(&mut builder),)+ };
            let user = fb::$table::create(&mut builder, &args);
            builder.finish(user, None);
            builder.finished_data().to_vec()
        }

        fn $read(bytes: &[u8]) -> Result<View> {
            let user = flatbuffers::root::<fb::$table>(bytes)?;
            Ok(View::from([$((stringify!($field), user.$field().into_value()),)+]))
        }
    };
}

version!(write_v1, read_v1, UserV1, UserV1Args, |r| {
    uid: r.uid,
    muid: r.muid.as_str(),
    status: r.status.as_str(),
    tutorial: r.tutorial,
    nickname: r.nickname.as_str(),
    total_login_num: r.total_login_num,
    opened_at: r.opened_at.as_str(),
    created_at: r.created_at.as_str(),
    updated_at: r.updated_at.as_str(),
});

version!(write_add_field, read_add_field, UserAddField, UserAddFieldArgs, |r| {
    uid: r.uid,
    muid: r.muid.as_str(),
    status: r.status.as_str(),
    tutorial: r.tutorial,
    nickname: r.nickname.as_str(),
    total_login_num: r.total_login_num,
    opened_at: r.opened_at.as_str(),
    created_at: r.created_at.as_str(),
    updated_at: r.updated_at.as_str(),
    email: email_of(r).as_str(),
});

// The deprecated nickname has neither an argument nor an accessor.
version!(write_remove_field, read_remove_field, UserRemoveField, UserRemoveFieldArgs, |r| {
    uid: r.uid,
    muid: r.muid.as_str(),
    status: r.status.as_str(),
    tutorial: r.tutorial,
    total_login_num: r.total_login_num,
    opened_at: r.opened_at.as_str(),
    created_at: r.created_at.as_str(),
    updated_at: r.updated_at.as_str(),
});

version!(write_rename_field, read_rename_field, UserRenameField, UserRenameFieldArgs, |r| {
    uid: r.uid,
    muid: r.muid.as_str(),
    status: r.status.as_str(),
    tutorial: r.tutorial,
    nickname: r.nickname.as_str(),
    login_count: r.total_login_num,
    opened_at: r.opened_at.as_str(),
    created_at: r.created_at.as_str(),
    updated_at: r.updated_at.as_str(),
});

version!(write_widen_int, read_widen_int, UserWidenInt, UserWidenIntArgs, |r| {
    uid: r.uid,
    muid: r.muid.as_str(),
    status: r.status.as_str(),
    tutorial: i64::from(r.tutorial),
    nickname: r.nickname.as_str(),
    total_login_num: r.total_login_num,
    opened_at: r.opened_at.as_str(),
    created_at: r.created_at.as_str(),
    updated_at: r.updated_at.as_str(),
});

version!(write_reorder_fields, read_reorder_fields, UserReorderFields, UserReorderFieldsArgs, |r| {
    updated_at: r.updated_at.as_str(),
    created_at: r.created_at.as_str(),
    opened_at: r.opened_at.as_str(),
    total_login_num: r.total_login_num,
    nickname: r.nickname.as_str(),
    tutorial: r.tutorial,
    status: r.status.as_str(),
    muid: r.muid.as_str(),
    uid: r.uid,
});

#[cfg(test)]
mod tests {
    use super::super::protobuf::cells;
    use super::*;

    #[test]
    fn every_cell_is_as_observed() {
        cells::assert_cells(
            &EVOLVING,
            [
                ["ok", "ok"],
                ["ok", "error"],
                ["ok", "ok"],
                ["error", "ok"],
                ["ok", "ok"],
            ],
        );
    }
}
