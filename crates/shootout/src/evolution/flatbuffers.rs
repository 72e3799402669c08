//! FlatBuffers through the official `flatbuffers` crate and flatc-generated
//! code (schemas/evolution/user.fbs), one buffer per record, verified on read
//! (`flatbuffers::root`). A table field is found through the vtable slot its id
//! gives (ids follow declaration order unless set with `id`); a reader takes a
//! slot the writer left empty as the field's default (or None for a string) and
//! never looks at slots it has no field for.

use anyhow::Result;
use flatbuffers::{FlatBufferBuilder, WIPOffset};

use super::trial::{IntoValue, Version, Versions};
use super::{Change, Direction, Evolving, UserV1, View, email_of};
use crate::format::features;

crate::format::generated_code! {
    /// The code the pinned compiler generates from schemas/evolution/user.fbs
    /// (scripts/regenerate.sh); never edited by hand.
    #[path = "generated/user_generated.rs"]
    mod user_generated;
}

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

fn trial(change: Change, direction: Direction, records: &[UserV1]) -> Result<Vec<View>> {
    VERSIONS.trial(change, direction, records)
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

/// A version: the writer and reader of the generated `$table`, each field the
/// version uses and what the writer puts there (`|r|` names the v1 record).
macro_rules! version {
    (
        $table:ident, $args:ident, |$record:ident| {
            $($field:ident: $value:expr,)+
        }
    ) => {{
        fn write($record: &UserV1) -> Result<Vec<u8>> {
            let mut builder = FlatBufferBuilder::new();
            let args = fb::$args { $($field: $value.put(&mut builder),)+ };
            let user = fb::$table::create(&mut builder, &args);
            builder.finish(user, None);
            Ok(builder.finished_data().to_vec())
        }

        fn read(bytes: &[u8]) -> Result<View> {
            let user = flatbuffers::root::<fb::$table>(bytes)?;
            Ok(View::from([$((stringify!($field), user.$field().into_value()),)+]))
        }

        Version { write, read }
    }};
}

const VERSIONS: Versions = Versions {
    v1: version!(UserV1, UserV1Args, |r| {
        uid: r.uid,
        muid: r.muid.as_str(),
        status: r.status.as_str(),
        tutorial: r.tutorial,
        nickname: r.nickname.as_str(),
        total_login_num: r.total_login_num,
        opened_at: r.opened_at.as_str(),
        created_at: r.created_at.as_str(),
        updated_at: r.updated_at.as_str(),
    }),

    add_field: version!(UserAddField, UserAddFieldArgs, |r| {
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
    }),

    // The deprecated nickname has neither an argument nor an accessor.
    remove_field: version!(UserRemoveField, UserRemoveFieldArgs, |r| {
        uid: r.uid,
        muid: r.muid.as_str(),
        status: r.status.as_str(),
        tutorial: r.tutorial,
        total_login_num: r.total_login_num,
        opened_at: r.opened_at.as_str(),
        created_at: r.created_at.as_str(),
        updated_at: r.updated_at.as_str(),
    }),

    rename_field: version!(UserRenameField, UserRenameFieldArgs, |r| {
        uid: r.uid,
        muid: r.muid.as_str(),
        status: r.status.as_str(),
        tutorial: r.tutorial,
        nickname: r.nickname.as_str(),
        login_count: r.total_login_num,
        opened_at: r.opened_at.as_str(),
        created_at: r.created_at.as_str(),
        updated_at: r.updated_at.as_str(),
    }),

    widen_int: version!(UserWidenInt, UserWidenIntArgs, |r| {
        uid: r.uid,
        muid: r.muid.as_str(),
        status: r.status.as_str(),
        tutorial: i64::from(r.tutorial),
        nickname: r.nickname.as_str(),
        total_login_num: r.total_login_num,
        opened_at: r.opened_at.as_str(),
        created_at: r.created_at.as_str(),
        updated_at: r.updated_at.as_str(),
    }),

    reorder_fields: version!(UserReorderFields, UserReorderFieldsArgs, |r| {
        updated_at: r.updated_at.as_str(),
        created_at: r.created_at.as_str(),
        opened_at: r.opened_at.as_str(),
        total_login_num: r.total_login_num,
        nickname: r.nickname.as_str(),
        tutorial: r.tutorial,
        status: r.status.as_str(),
        muid: r.muid.as_str(),
        uid: r.uid,
    }),
};

#[cfg(test)]
mod tests {
    use super::super::trial::every_cell_is_as_observed;
    use super::*;

    every_cell_is_as_observed!(["ok ok", "ok error", "ok ok", "error ok", "ok ok"]);
}
