//! SBE (Simple Binary Encoding) through sbe-tool's Rust generator, one module
//! per schema version (schemas/evolution/sbe/). A message is a header
//! (blockLength, templateId, schemaId, version), a root block of fixed-size
//! fields at the offsets the reader's schema gives, then the var data in schema
//! order. A reader starts the var data at the writer's blockLength (so it skips
//! root fields it does not know) and gives a field newer than the writer's
//! version (`sinceVersion`) its null or empty value.

use anyhow::{Context, Result};

use super::trial::{Version, Versions};
use super::{Change, Direction, Evolving, UserV1, Value, View, email_of};
use crate::format::features;

// The code the pinned sbe-tool generates from schemas/evolution/sbe/*.xml
// (scripts/regenerate.sh); never edited by hand.
#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "generated/sbe/user_v1/mod.rs"]
mod user_v1;
#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "generated/sbe/user_add_field/mod.rs"]
mod user_add_field;
#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "generated/sbe/user_remove_field/mod.rs"]
mod user_remove_field;
#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "generated/sbe/user_rename_field/mod.rs"]
mod user_rename_field;
#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "generated/sbe/user_widen_int/mod.rs"]
mod user_widen_int;
#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "generated/sbe/user_reorder_fields/mod.rs"]
mod user_reorder_fields;

pub const EVOLVING: Evolving = Evolving {
    name: "sbe",
    family: features::SBE.family,
    rules: "sbe-tool's Rust codecs, one message per record. v1 (schema version 0) is the \
            registry's UserResponse, tutorial an int32: uid, tutorial, totalLoginNum in the \
            root block, the six strings as var data. Every v2 is schema version 1. By the \
            rules (extension at the end of a block only; no field removed, moved or \
            retyped): email is var data appended with sinceVersion=\"1\"; nickname cannot be \
            removed, so it is marked deprecated=\"1\" and v2 writes it empty; the rename \
            changes only a name, which is not on the wire. The widened tutorial (int32 to \
            int64, moving totalLoginNum and lengthening the block) and the reorder (fields \
            are positional; ids are not on the wire) are the plain changes the rules forbid.",
    trial,
};

fn trial(change: Change, direction: Direction, records: &[UserV1]) -> Result<Vec<View>> {
    VERSIONS.trial(change, direction, records)
}

/// The text at the (offset, length) a var data decoder returned.
fn text(bytes: &[u8], (offset, length): (usize, usize)) -> Result<Value> {
    let slice = bytes
        .get(offset..offset + length)
        .with_context(|| format!("var data at {offset}..+{length} is beyond the message"))?;
    Ok(Value::Text(std::str::from_utf8(slice)?.to_owned()))
}

/// A version: the writer and reader of the generated `$module`, its fields in
/// schema order (root block, then var data): each one's kind (`int`: a root
/// block field; `text`: var data; `deprecated`: var data still written, empty,
/// and skipped on read), its name in the view, its encoder / decoder method and
/// what the writer puts there (`|r|` names the v1 record).
macro_rules! version {
    (
        $module:ident, |$record:ident| {
            $($kind:ident $name:literal: $set:ident / $get:ident ($value:expr),)+
        }
    ) => {{
        fn write($record: &UserV1) -> Result<Vec<u8>> {
            use $module::WriteBuf;
            use $module::message_header_codec::ENCODED_LENGTH;
            use $module::user_codec::{SBE_BLOCK_LENGTH, UserEncoder};
            let mut length = ENCODED_LENGTH + usize::from(SBE_BLOCK_LENGTH);
            $(length += version!(@length $kind $value);)+
            let mut bytes = vec![0; length];
            let mut user = UserEncoder::default()
                .wrap(WriteBuf::new(&mut bytes), ENCODED_LENGTH)
                .header(0)
                .parent()?;
            $(user.$set($value);)+
            Ok(bytes)
        }

        fn read(bytes: &[u8]) -> Result<View> {
            use $module::ReadBuf;
            use $module::message_header_codec::MessageHeaderDecoder;
            use $module::user_codec::UserDecoder;
            let header = MessageHeaderDecoder::default().wrap(ReadBuf::new(bytes), 0);
            let mut user = UserDecoder::default().header(header, 0);
            let mut view = View::new();
            $(version!(@read $kind view user bytes $name $get);)+
            Ok(view)
        }

        Version { write, read }
    }};
    (@length int $value:expr) => { 0 };
    (@length $var_data:ident $value:expr) => { 4 + $value.len() };
    (@read int $view:ident $user:ident $bytes:ident $name:literal $get:ident) => {
        $view.insert($name, Value::Int($user.$get().into()));
    };
    (@read text $view:ident $user:ident $bytes:ident $name:literal $get:ident) => {
        $view.insert($name, text($bytes, $user.$get())?);
    };
    (@read deprecated $view:ident $user:ident $bytes:ident $name:literal $get:ident) => {
        $user.$get();
    };
}

const VERSIONS: Versions = Versions {
    v1: version!(user_v1, |r| {
        int "uid": uid / uid(r.uid),
        int "tutorial": tutorial / tutorial(r.tutorial),
        int "total_login_num": total_login_num / total_login_num(r.total_login_num),
        text "muid": muid / muid_decoder(&r.muid),
        text "status": status / status_decoder(&r.status),
        text "nickname": nickname / nickname_decoder(&r.nickname),
        text "opened_at": opened_at / opened_at_decoder(&r.opened_at),
        text "created_at": created_at / created_at_decoder(&r.created_at),
        text "updated_at": updated_at / updated_at_decoder(&r.updated_at),
    }),

    add_field: version!(user_add_field, |r| {
        int "uid": uid / uid(r.uid),
        int "tutorial": tutorial / tutorial(r.tutorial),
        int "total_login_num": total_login_num / total_login_num(r.total_login_num),
        text "muid": muid / muid_decoder(&r.muid),
        text "status": status / status_decoder(&r.status),
        text "nickname": nickname / nickname_decoder(&r.nickname),
        text "opened_at": opened_at / opened_at_decoder(&r.opened_at),
        text "created_at": created_at / created_at_decoder(&r.created_at),
        text "updated_at": updated_at / updated_at_decoder(&r.updated_at),
        text "email": email / email_decoder(&email_of(r)),
    }),

    remove_field: version!(user_remove_field, |r| {
        int "uid": uid / uid(r.uid),
        int "tutorial": tutorial / tutorial(r.tutorial),
        int "total_login_num": total_login_num / total_login_num(r.total_login_num),
        text "muid": muid / muid_decoder(&r.muid),
        text "status": status / status_decoder(&r.status),
        deprecated "nickname": nickname / nickname_decoder(""),
        text "opened_at": opened_at / opened_at_decoder(&r.opened_at),
        text "created_at": created_at / created_at_decoder(&r.created_at),
        text "updated_at": updated_at / updated_at_decoder(&r.updated_at),
    }),

    rename_field: version!(user_rename_field, |r| {
        int "uid": uid / uid(r.uid),
        int "tutorial": tutorial / tutorial(r.tutorial),
        int "login_count": login_count / login_count(r.total_login_num),
        text "muid": muid / muid_decoder(&r.muid),
        text "status": status / status_decoder(&r.status),
        text "nickname": nickname / nickname_decoder(&r.nickname),
        text "opened_at": opened_at / opened_at_decoder(&r.opened_at),
        text "created_at": created_at / created_at_decoder(&r.created_at),
        text "updated_at": updated_at / updated_at_decoder(&r.updated_at),
    }),

    widen_int: version!(user_widen_int, |r| {
        int "uid": uid / uid(r.uid),
        int "tutorial": tutorial / tutorial(r.tutorial.into()),
        int "total_login_num": total_login_num / total_login_num(r.total_login_num),
        text "muid": muid / muid_decoder(&r.muid),
        text "status": status / status_decoder(&r.status),
        text "nickname": nickname / nickname_decoder(&r.nickname),
        text "opened_at": opened_at / opened_at_decoder(&r.opened_at),
        text "created_at": created_at / created_at_decoder(&r.created_at),
        text "updated_at": updated_at / updated_at_decoder(&r.updated_at),
    }),

    reorder_fields: version!(user_reorder_fields, |r| {
        int "total_login_num": total_login_num / total_login_num(r.total_login_num),
        int "tutorial": tutorial / tutorial(r.tutorial),
        int "uid": uid / uid(r.uid),
        text "updated_at": updated_at / updated_at_decoder(&r.updated_at),
        text "created_at": created_at / created_at_decoder(&r.created_at),
        text "opened_at": opened_at / opened_at_decoder(&r.opened_at),
        text "nickname": nickname / nickname_decoder(&r.nickname),
        text "status": status / status_decoder(&r.status),
        text "muid": muid / muid_decoder(&r.muid),
    }),
};

#[cfg(test)]
mod tests {
    use super::super::matrix::records;
    use super::super::trial::every_cell_is_as_observed;
    use super::*;

    every_cell_is_as_observed!(["ok ok", "ok ok", "ok ok", "silent silent", "silent silent"]);

    #[test]
    fn a_new_reader_of_old_data_gets_an_empty_email() {
        let views = trial(Change::AddField, Direction::OldToNew, &records()).unwrap();
        assert!(views.iter().all(|view| view["email"] == Value::Text(String::new())));
    }
}
