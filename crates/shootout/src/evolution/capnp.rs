//! Cap'n Proto through the `capnp` crate and capnpc-generated code
//! (schemas/evolution/user.capnp), one standard (unpacked) message per record.
//! A struct's layout follows its fields' ordinals and types: a reader finds
//! each field at the offset its own schema gives, reads a field beyond the
//! data the writer sent as its default, and ignores what it has no field for.

use anyhow::{Context, Result};
use capnp::message::{self, ReaderOptions};
use capnp::serialize;

use super::{Change, Direction, Evolving, UserV1, Value, View, email_of};
use crate::format::features;

/// The code the pinned compiler generates from schemas/evolution/user.capnp
/// (scripts/regenerate.sh); never edited by hand.
#[allow(
    clippy::all,
    clippy::pedantic,
    dead_code,
    missing_docs,
    unused_imports,
    unused_parens
)]
#[rustfmt::skip]
#[path = "generated/user_capnp.rs"]
mod user_capnp;

use user_capnp::{
    user_add_field, user_remove_field, user_rename_field, user_reorder_fields, user_v1,
    user_widen_int,
};

pub const EVOLVING: Evolving = Evolving {
    name: "capnp-unpacked",
    family: features::CAPNP.family,
    rules: "Standard (unpacked) Cap'n Proto messages, read with default ReaderOptions. v1 is \
            the registry's UserResponse, tutorial an Int32. By the language guide's rules, \
            every v2 keeps v1's ordinals: the added email takes the next ordinal, @9 (a reader \
            of old data gets the empty default text); the removed nickname cannot be removed, \
            so it stays as obsoleteNickname @4 and v2 stops setting it (an old reader gets \
            the empty default); the rename keeps @5; the reorder keeps every ordinal (layout \
            follows ordinals, not declaration order). Changing a field's type is not allowed \
            (the rules would add a new Int64 field): the widened tutorial is the plain change \
            the rules forbid, @3 from Int32 to Int64, which moves it to the data word after \
            uid.",
    trial,
};

/// One version of the record: what its writer makes of a record, and what its
/// reader reports of a message.
struct Version {
    write: fn(&UserV1) -> Result<Vec<u8>>,
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
        .map(|record| {
            let bytes = (writer.write)(record).context("the writer failed")?;
            (reader.read)(&bytes).context("the reader failed")
        })
        .collect()
}

fn int(value: impl Into<i64>) -> Result<Value> {
    Ok(Value::Int(value.into()))
}

fn text(value: capnp::Result<capnp::text::Reader<'_>>) -> Result<Value> {
    Ok(Value::Text(value?.to_str()?.to_owned()))
}

/// A version's writer and reader: each field the version uses, by its name in
/// the view, with its getter, setter and what the writer puts there (`|r|`
/// names the v1 record), read `as` an int or a text.
macro_rules! version {
    (
        $write:ident, $read:ident, $module:ident, |$record:ident| {
            $($name:literal: $get:ident, $set:ident($value:expr) as $kind:ident,)+
        }
    ) => {
        fn $write($record: &UserV1) -> Result<Vec<u8>> {
            let mut message = message::Builder::new_default();
            let mut user = message.init_root::<$module::Builder>();
            $(user.$set($value);)+
            Ok(serialize::write_message_to_words(&message))
        }

        fn $read(bytes: &[u8]) -> Result<View> {
            let message =
                serialize::read_message_from_flat_slice(&mut &bytes[..], ReaderOptions::new())?;
            let user = message.get_root::<$module::Reader>()?;
            Ok(View::from([$(($name, $kind(user.$get())?),)+]))
        }
    };
}

version!(write_v1, read_v1, user_v1, |r| {
    "uid": get_uid, set_uid(r.uid) as int,
    "muid": get_muid, set_muid(r.muid.as_str()) as text,
    "status": get_status, set_status(r.status.as_str()) as text,
    "tutorial": get_tutorial, set_tutorial(r.tutorial) as int,
    "nickname": get_nickname, set_nickname(r.nickname.as_str()) as text,
    "total_login_num": get_total_login_num, set_total_login_num(r.total_login_num) as int,
    "opened_at": get_opened_at, set_opened_at(r.opened_at.as_str()) as text,
    "created_at": get_created_at, set_created_at(r.created_at.as_str()) as text,
    "updated_at": get_updated_at, set_updated_at(r.updated_at.as_str()) as text,
});

version!(write_add_field, read_add_field, user_add_field, |r| {
    "uid": get_uid, set_uid(r.uid) as int,
    "muid": get_muid, set_muid(r.muid.as_str()) as text,
    "status": get_status, set_status(r.status.as_str()) as text,
    "tutorial": get_tutorial, set_tutorial(r.tutorial) as int,
    "nickname": get_nickname, set_nickname(r.nickname.as_str()) as text,
    "total_login_num": get_total_login_num, set_total_login_num(r.total_login_num) as int,
    "opened_at": get_opened_at, set_opened_at(r.opened_at.as_str()) as text,
    "created_at": get_created_at, set_created_at(r.created_at.as_str()) as text,
    "updated_at": get_updated_at, set_updated_at(r.updated_at.as_str()) as text,
    "email": get_email, set_email(email_of(r).as_str()) as text,
});

// obsoleteNickname (@4) is neither written nor read.
version!(write_remove_field, read_remove_field, user_remove_field, |r| {
    "uid": get_uid, set_uid(r.uid) as int,
    "muid": get_muid, set_muid(r.muid.as_str()) as text,
    "status": get_status, set_status(r.status.as_str()) as text,
    "tutorial": get_tutorial, set_tutorial(r.tutorial) as int,
    "total_login_num": get_total_login_num, set_total_login_num(r.total_login_num) as int,
    "opened_at": get_opened_at, set_opened_at(r.opened_at.as_str()) as text,
    "created_at": get_created_at, set_created_at(r.created_at.as_str()) as text,
    "updated_at": get_updated_at, set_updated_at(r.updated_at.as_str()) as text,
});

version!(write_rename_field, read_rename_field, user_rename_field, |r| {
    "uid": get_uid, set_uid(r.uid) as int,
    "muid": get_muid, set_muid(r.muid.as_str()) as text,
    "status": get_status, set_status(r.status.as_str()) as text,
    "tutorial": get_tutorial, set_tutorial(r.tutorial) as int,
    "nickname": get_nickname, set_nickname(r.nickname.as_str()) as text,
    "login_count": get_login_count, set_login_count(r.total_login_num) as int,
    "opened_at": get_opened_at, set_opened_at(r.opened_at.as_str()) as text,
    "created_at": get_created_at, set_created_at(r.created_at.as_str()) as text,
    "updated_at": get_updated_at, set_updated_at(r.updated_at.as_str()) as text,
});

version!(write_widen_int, read_widen_int, user_widen_int, |r| {
    "uid": get_uid, set_uid(r.uid) as int,
    "muid": get_muid, set_muid(r.muid.as_str()) as text,
    "status": get_status, set_status(r.status.as_str()) as text,
    "tutorial": get_tutorial, set_tutorial(r.tutorial.into()) as int,
    "nickname": get_nickname, set_nickname(r.nickname.as_str()) as text,
    "total_login_num": get_total_login_num, set_total_login_num(r.total_login_num) as int,
    "opened_at": get_opened_at, set_opened_at(r.opened_at.as_str()) as text,
    "created_at": get_created_at, set_created_at(r.created_at.as_str()) as text,
    "updated_at": get_updated_at, set_updated_at(r.updated_at.as_str()) as text,
});

version!(write_reorder_fields, read_reorder_fields, user_reorder_fields, |r| {
    "updated_at": get_updated_at, set_updated_at(r.updated_at.as_str()) as text,
    "created_at": get_created_at, set_created_at(r.created_at.as_str()) as text,
    "opened_at": get_opened_at, set_opened_at(r.opened_at.as_str()) as text,
    "total_login_num": get_total_login_num, set_total_login_num(r.total_login_num) as int,
    "nickname": get_nickname, set_nickname(r.nickname.as_str()) as text,
    "tutorial": get_tutorial, set_tutorial(r.tutorial) as int,
    "status": get_status, set_status(r.status.as_str()) as text,
    "muid": get_muid, set_muid(r.muid.as_str()) as text,
    "uid": get_uid, set_uid(r.uid) as int,
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
                ["ok", "ok"],
                ["ok", "ok"],
                ["silent", "ok"],
                ["ok", "ok"],
            ],
        );
    }

    #[test]
    fn a_widening_reader_of_a_negative_int32_sees_it_without_its_sign_extension() {
        let record = UserV1 {
            tutorial: -1,
            ..cells::records()[0].clone()
        };
        let views = trial(Change::WidenInt, Direction::OldToNew, &[record]).unwrap();
        assert_eq!(views[0]["tutorial"], Value::Int(u32::MAX.into()));
    }
}
