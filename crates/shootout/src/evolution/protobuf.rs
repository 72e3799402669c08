//! Protocol Buffers (proto3) through prost: each version is a prost message
//! derived with explicit tags, the same code prost-build generates from a
//! .proto file (the .proto text is on each message below). Field numbers, not
//! names or declaration order, identify fields on the wire; a reader skips the
//! numbers it does not know and gives a missing scalar its default.

use anyhow::Result;

use super::trial::{Version, VersionType, Versions, version_type};
use super::{Change, Direction, Evolving, UserV1, View, email_of};
use crate::format::features;

pub const EVOLVING: Evolving = Evolving {
    name: "protobuf-prost",
    family: features::PROTOBUF.family,
    rules: "proto3 messages with prost (v1 is the registry's UserResponse, tutorial an int32). \
            Every v2 keeps v1's field numbers: the added email takes the next number as \
            `optional string` (explicit presence); the removed nickname leaves its number \
            (`reserved 5; reserved \"nickname\";`, so it is never reused); the rename keeps \
            number 6; the widened tutorial keeps number 4 as int64, which the proto3 guide \
            lists as compatible with int32 (an int64 too big for an int32 reader is truncated, \
            by prost as by C++); the reordered message keeps every number.",
    trial,
};

fn trial(change: Change, direction: Direction, records: &[UserV1]) -> Result<Vec<View>> {
    Versions {
        v1: version::<V1>(),
        add_field: version::<AddFieldV2>(),
        remove_field: version::<RemoveFieldV2>(),
        rename_field: version::<RenameFieldV2>(),
        widen_int: version::<WidenIntV2>(),
        reorder_fields: version::<ReorderFieldsV2>(),
    }
    .trial(change, direction, records)
}

/// Message `M` as a version: encoded and decoded by prost.
fn version<M: prost::Message + Default + VersionType>() -> Version {
    Version {
        write: |record| Ok(M::write(record).encode_to_vec()),
        read: |bytes| Ok(M::decode(bytes)?.view()),
    }
}

/// A version of the record: its fields with their prost attributes, and what
/// a writer of this version puts in each (`from |r|` names the v1 record).
macro_rules! version {
    (
        $(#[$doc:meta])*
        $name:ident from |$record:ident| {
            $(#[prost($($attr:tt)*)] $field:ident: $ty:ty = $value:expr,)+
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, prost::Message)]
        struct $name {
            $(#[prost($($attr)*)] $field: $ty,)+
        }

        version_type!($name, |$record| { $($field: $value,)+ });
    };
}

version! {
    /// ```proto
    /// message User {
    ///   int64 uid = 1; string muid = 2; string status = 3; int32 tutorial = 4;
    ///   string nickname = 5; int64 total_login_num = 6; string opened_at = 7;
    ///   string created_at = 8; string updated_at = 9;
    /// }
    /// ```
    V1 from |r| {
        #[prost(int64, tag = "1")] uid: i64 = r.uid,
        #[prost(string, tag = "2")] muid: String = r.muid.clone(),
        #[prost(string, tag = "3")] status: String = r.status.clone(),
        #[prost(int32, tag = "4")] tutorial: i32 = r.tutorial,
        #[prost(string, tag = "5")] nickname: String = r.nickname.clone(),
        #[prost(int64, tag = "6")] total_login_num: i64 = r.total_login_num,
        #[prost(string, tag = "7")] opened_at: String = r.opened_at.clone(),
        #[prost(string, tag = "8")] created_at: String = r.created_at.clone(),
        #[prost(string, tag = "9")] updated_at: String = r.updated_at.clone(),
    }
}

version! {
    /// v1 plus `optional string email = 10;`.
    AddFieldV2 from |r| {
        #[prost(int64, tag = "1")] uid: i64 = r.uid,
        #[prost(string, tag = "2")] muid: String = r.muid.clone(),
        #[prost(string, tag = "3")] status: String = r.status.clone(),
        #[prost(int32, tag = "4")] tutorial: i32 = r.tutorial,
        #[prost(string, tag = "5")] nickname: String = r.nickname.clone(),
        #[prost(int64, tag = "6")] total_login_num: i64 = r.total_login_num,
        #[prost(string, tag = "7")] opened_at: String = r.opened_at.clone(),
        #[prost(string, tag = "8")] created_at: String = r.created_at.clone(),
        #[prost(string, tag = "9")] updated_at: String = r.updated_at.clone(),
        #[prost(string, optional, tag = "10")] email: Option<String> = Some(email_of(r)),
    }
}

version! {
    /// v1 without nickname: `reserved 5; reserved "nickname";` (prost's
    /// derive has no `reserved`; tag 5 is simply absent).
    RemoveFieldV2 from |r| {
        #[prost(int64, tag = "1")] uid: i64 = r.uid,
        #[prost(string, tag = "2")] muid: String = r.muid.clone(),
        #[prost(string, tag = "3")] status: String = r.status.clone(),
        #[prost(int32, tag = "4")] tutorial: i32 = r.tutorial,
        #[prost(int64, tag = "6")] total_login_num: i64 = r.total_login_num,
        #[prost(string, tag = "7")] opened_at: String = r.opened_at.clone(),
        #[prost(string, tag = "8")] created_at: String = r.created_at.clone(),
        #[prost(string, tag = "9")] updated_at: String = r.updated_at.clone(),
    }
}

version! {
    /// v1 with `int64 login_count = 6;`.
    RenameFieldV2 from |r| {
        #[prost(int64, tag = "1")] uid: i64 = r.uid,
        #[prost(string, tag = "2")] muid: String = r.muid.clone(),
        #[prost(string, tag = "3")] status: String = r.status.clone(),
        #[prost(int32, tag = "4")] tutorial: i32 = r.tutorial,
        #[prost(string, tag = "5")] nickname: String = r.nickname.clone(),
        #[prost(int64, tag = "6")] login_count: i64 = r.total_login_num,
        #[prost(string, tag = "7")] opened_at: String = r.opened_at.clone(),
        #[prost(string, tag = "8")] created_at: String = r.created_at.clone(),
        #[prost(string, tag = "9")] updated_at: String = r.updated_at.clone(),
    }
}

version! {
    /// v1 with `int64 tutorial = 4;`.
    WidenIntV2 from |r| {
        #[prost(int64, tag = "1")] uid: i64 = r.uid,
        #[prost(string, tag = "2")] muid: String = r.muid.clone(),
        #[prost(string, tag = "3")] status: String = r.status.clone(),
        #[prost(int64, tag = "4")] tutorial: i64 = r.tutorial.into(),
        #[prost(string, tag = "5")] nickname: String = r.nickname.clone(),
        #[prost(int64, tag = "6")] total_login_num: i64 = r.total_login_num,
        #[prost(string, tag = "7")] opened_at: String = r.opened_at.clone(),
        #[prost(string, tag = "8")] created_at: String = r.created_at.clone(),
        #[prost(string, tag = "9")] updated_at: String = r.updated_at.clone(),
    }
}

version! {
    /// v1's fields declared in reverse, each keeping its number (prost writes
    /// them in declaration order, so the bytes are in reverse too).
    ReorderFieldsV2 from |r| {
        #[prost(string, tag = "9")] updated_at: String = r.updated_at.clone(),
        #[prost(string, tag = "8")] created_at: String = r.created_at.clone(),
        #[prost(string, tag = "7")] opened_at: String = r.opened_at.clone(),
        #[prost(int64, tag = "6")] total_login_num: i64 = r.total_login_num,
        #[prost(string, tag = "5")] nickname: String = r.nickname.clone(),
        #[prost(int32, tag = "4")] tutorial: i32 = r.tutorial,
        #[prost(string, tag = "3")] status: String = r.status.clone(),
        #[prost(string, tag = "2")] muid: String = r.muid.clone(),
        #[prost(int64, tag = "1")] uid: i64 = r.uid,
    }
}

#[cfg(test)]
mod tests {
    use super::super::Value;
    use super::super::matrix::records;
    use super::super::trial::every_cell_is_as_observed;
    use super::*;

    every_cell_is_as_observed!(["ok ok", "ok ok", "ok ok", "ok ok", "ok ok"]);

    #[test]
    fn a_new_reader_of_old_data_sees_no_email_and_an_old_reader_skips_it() {
        let records = records();
        let views = trial(Change::AddField, Direction::OldToNew, &records).unwrap();
        assert!(views.iter().all(|view| view["email"] == Value::Absent));
        let views = trial(Change::AddField, Direction::NewToOld, &records).unwrap();
        assert!(views.iter().all(|view| !view.contains_key("email")));
    }

    #[test]
    fn an_old_reader_gives_the_removed_field_its_default() {
        let views = trial(Change::RemoveField, Direction::NewToOld, &records()).unwrap();
        assert!(views.iter().all(|view| view["nickname"] == Value::Text(String::new())));
    }
}
