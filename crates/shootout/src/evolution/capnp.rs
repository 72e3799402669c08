//! Cap'n Proto through the `capnp` crate and capnpc-generated code
//! (schemas/evolution/user.capnp), one standard (unpacked) message per record.
//! A struct's layout follows its fields' ordinals and types: a reader finds
//! each field at the offset its own schema gives, reads a field beyond the
//! data the writer sent as its default, and ignores what it has no field for.

use anyhow::Result;
use capnp::message::{self, ReaderOptions};
use capnp::serialize;

use super::trial::{Version, Versions};
use super::{Change, Direction, Evolving, UserV1, Value, View, email_of};
use crate::format::features;

crate::format::generated_code! {
    /// The code the pinned compiler generates from schemas/evolution/user.capnp
    /// (scripts/regenerate.sh); never edited by hand.
    #[path = "generated/user_capnp.rs"]
    mod user_capnp;
}

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

fn trial(change: Change, direction: Direction, records: &[UserV1]) -> Result<Vec<View>> {
    VERSIONS.trial(change, direction, records)
}

fn int(value: impl Into<i64>) -> Result<Value> {
    Ok(Value::Int(value.into()))
}

fn text(value: capnp::Result<capnp::text::Reader<'_>>) -> Result<Value> {
    Ok(Value::Text(value?.to_str()?.to_owned()))
}

/// A version: the writer and reader of the generated `$module`, each field the
/// version uses by its name in the view, with its getter, setter and what the
/// writer puts there (`|r|` names the v1 record), read `as` an int or a text.
macro_rules! version {
    (
        $module:ident, |$record:ident| {
            $($name:literal: $get:ident, $set:ident($value:expr) as $kind:ident,)+
        }
    ) => {{
        fn write($record: &UserV1) -> Result<Vec<u8>> {
            let mut message = message::Builder::new_default();
            let mut user = message.init_root::<$module::Builder>();
            $(user.$set($value);)+
            Ok(serialize::write_message_to_words(&message))
        }

        fn read(bytes: &[u8]) -> Result<View> {
            let message =
                serialize::read_message_from_flat_slice(&mut &bytes[..], ReaderOptions::new())?;
            let user = message.get_root::<$module::Reader>()?;
            Ok(View::from([$(($name, $kind(user.$get())?),)+]))
        }

        Version { write, read }
    }};
}

const VERSIONS: Versions = Versions {
    v1: version!(user_v1, |r| {
        "uid": get_uid, set_uid(r.uid) as int,
        "muid": get_muid, set_muid(r.muid.as_str()) as text,
        "status": get_status, set_status(r.status.as_str()) as text,
        "tutorial": get_tutorial, set_tutorial(r.tutorial) as int,
        "nickname": get_nickname, set_nickname(r.nickname.as_str()) as text,
        "total_login_num": get_total_login_num, set_total_login_num(r.total_login_num) as int,
        "opened_at": get_opened_at, set_opened_at(r.opened_at.as_str()) as text,
        "created_at": get_created_at, set_created_at(r.created_at.as_str()) as text,
        "updated_at": get_updated_at, set_updated_at(r.updated_at.as_str()) as text,
    }),

    add_field: version!(user_add_field, |r| {
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
    }),

    // obsoleteNickname (@4) is neither written nor read.
    remove_field: version!(user_remove_field, |r| {
        "uid": get_uid, set_uid(r.uid) as int,
        "muid": get_muid, set_muid(r.muid.as_str()) as text,
        "status": get_status, set_status(r.status.as_str()) as text,
        "tutorial": get_tutorial, set_tutorial(r.tutorial) as int,
        "total_login_num": get_total_login_num, set_total_login_num(r.total_login_num) as int,
        "opened_at": get_opened_at, set_opened_at(r.opened_at.as_str()) as text,
        "created_at": get_created_at, set_created_at(r.created_at.as_str()) as text,
        "updated_at": get_updated_at, set_updated_at(r.updated_at.as_str()) as text,
    }),

    rename_field: version!(user_rename_field, |r| {
        "uid": get_uid, set_uid(r.uid) as int,
        "muid": get_muid, set_muid(r.muid.as_str()) as text,
        "status": get_status, set_status(r.status.as_str()) as text,
        "tutorial": get_tutorial, set_tutorial(r.tutorial) as int,
        "nickname": get_nickname, set_nickname(r.nickname.as_str()) as text,
        "login_count": get_login_count, set_login_count(r.total_login_num) as int,
        "opened_at": get_opened_at, set_opened_at(r.opened_at.as_str()) as text,
        "created_at": get_created_at, set_created_at(r.created_at.as_str()) as text,
        "updated_at": get_updated_at, set_updated_at(r.updated_at.as_str()) as text,
    }),

    widen_int: version!(user_widen_int, |r| {
        "uid": get_uid, set_uid(r.uid) as int,
        "muid": get_muid, set_muid(r.muid.as_str()) as text,
        "status": get_status, set_status(r.status.as_str()) as text,
        "tutorial": get_tutorial, set_tutorial(r.tutorial.into()) as int,
        "nickname": get_nickname, set_nickname(r.nickname.as_str()) as text,
        "total_login_num": get_total_login_num, set_total_login_num(r.total_login_num) as int,
        "opened_at": get_opened_at, set_opened_at(r.opened_at.as_str()) as text,
        "created_at": get_created_at, set_created_at(r.created_at.as_str()) as text,
        "updated_at": get_updated_at, set_updated_at(r.updated_at.as_str()) as text,
    }),

    reorder_fields: version!(user_reorder_fields, |r| {
        "updated_at": get_updated_at, set_updated_at(r.updated_at.as_str()) as text,
        "created_at": get_created_at, set_created_at(r.created_at.as_str()) as text,
        "opened_at": get_opened_at, set_opened_at(r.opened_at.as_str()) as text,
        "total_login_num": get_total_login_num, set_total_login_num(r.total_login_num) as int,
        "nickname": get_nickname, set_nickname(r.nickname.as_str()) as text,
        "tutorial": get_tutorial, set_tutorial(r.tutorial) as int,
        "status": get_status, set_status(r.status.as_str()) as text,
        "muid": get_muid, set_muid(r.muid.as_str()) as text,
        "uid": get_uid, set_uid(r.uid) as int,
    }),
};

#[cfg(test)]
mod tests {
    use super::super::matrix::records;
    use super::super::trial::every_cell_is_as_observed;
    use super::*;

    every_cell_is_as_observed!(["ok ok", "ok ok", "ok ok", "silent ok", "ok ok"]);

    #[test]
    fn a_widening_reader_of_a_negative_int32_sees_it_without_its_sign_extension() {
        let record = UserV1 { tutorial: -1, ..records()[0].clone() };
        let views = trial(Change::WidenInt, Direction::OldToNew, &[record]).unwrap();
        assert_eq!(views[0]["tutorial"], Value::Int(u32::MAX.into()));
    }
}
