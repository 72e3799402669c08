//! Bebop through the `bebop` crate and bebopc-generated code
//! (schemas/evolution/user.bop): every version a message, Bebop's evolvable
//! record, one per buffer. A message is its length, then each present field
//! behind its index; a reader skips indices it does not know (to the end of
//! the message) and reports a field the bytes lack as absent (`None`).

use anyhow::Result;
use bebop::Record;

use super::trial::{IntoValue, Version, Versions};
use super::{Change, Direction, Evolving, UserV1, View, email_of};
use crate::format::features;

crate::format::generated_code! {
    /// The code the pinned compiler generates from schemas/evolution/user.bop
    /// (scripts/regenerate.sh); never edited by hand.
    #[path = "generated/user_bebop.rs"]
    mod user_bebop;
}

pub const EVOLVING: Evolving = Evolving {
    name: "bebop",
    family: features::BEBOP.family,
    rules: "One message per record (Record::serialize / deserialize); v1 is the registry's \
            UserResponse as a message (a struct, as the registry has it, can take no change), \
            tutorial an int32. By the rules: the added email takes the next index; the \
            removed nickname keeps its index marked @deprecated and is never written; the \
            rename keeps index 6; the reorder declares the fields in reverse, each keeping its \
            index. A field's type never changes: the widened tutorial is the plain change the \
            rules forbid, the same index from int32 to int64.",
    trial,
};

fn trial(change: Change, direction: Direction, records: &[UserV1]) -> Result<Vec<View>> {
    VERSIONS.trial(change, direction, records)
}

/// A version: the writer and reader of the generated message `$message`, each
/// field the version uses and what the writer puts there (`|r|` names the v1
/// record), and the rest of the message (`..` an expression) when it has
/// fields the writer leaves out.
macro_rules! version {
    ($message:ident, |$record:ident| { $($field:ident: $value:expr,)+ } $(, ..$rest:expr)?) => {{
        fn write($record: &UserV1) -> Result<Vec<u8>> {
            let mut bytes = Vec::new();
            // One statement, so that temporaries the values borrow (the email) live through it.
            user_bebop::$message { $($field: Some($value),)+ $(..$rest)? }
                .serialize(&mut bytes)?;
            Ok(bytes)
        }

        fn read(bytes: &[u8]) -> Result<View> {
            let message = user_bebop::$message::deserialize(bytes)?;
            Ok(View::from([$((stringify!($field), message.$field.into_value()),)+]))
        }

        Version { write, read }
    }};
}

const VERSIONS: Versions = Versions {
    v1: version!(UserV1, |r| {
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

    add_field: version!(UserAddField, |r| {
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

    remove_field: version!(UserRemoveField, |r| {
        uid: r.uid,
        muid: r.muid.as_str(),
        status: r.status.as_str(),
        tutorial: r.tutorial,
        total_login_num: r.total_login_num,
        opened_at: r.opened_at.as_str(),
        created_at: r.created_at.as_str(),
        updated_at: r.updated_at.as_str(),
    }, ..Default::default()), // The deprecated nickname, named nowhere: None, never written.

    rename_field: version!(UserRenameField, |r| {
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

    widen_int: version!(UserWidenInt, |r| {
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

    reorder_fields: version!(UserReorderFields, |r| {
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

    every_cell_is_as_observed!(["ok ok", "ok ok", "ok ok", "error silent", "ok ok"]);
}
