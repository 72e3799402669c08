//! Protocol Buffers (proto3) through prost: each version is a prost message
//! derived with explicit tags, the same code prost-build generates from a
//! .proto file (the .proto text is on each message below). Field numbers, not
//! names or declaration order, identify fields on the wire; a reader skips the
//! numbers it does not know and gives a missing scalar its default.

use anyhow::{Context, Result};
use prost::Message;

use super::{Change, Direction, Evolving, UserV1, Value, View, email_of};
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

/// One version of the record: a prost message, what its writer makes of a
/// record and what its reader reports.
trait Version: Message + Default {
    fn write(record: &UserV1) -> Self;
    fn view(self) -> View;
}

fn trial(change: Change, direction: Direction, records: &[UserV1]) -> Result<Vec<View>> {
    match change {
        Change::AddField => between::<V1, AddFieldV2>(direction, records),
        Change::RemoveField => between::<V1, RemoveFieldV2>(direction, records),
        Change::RenameField => between::<V1, RenameFieldV2>(direction, records),
        Change::WidenInt => between::<V1, WidenIntV2>(direction, records),
        Change::ReorderFields => between::<V1, ReorderFieldsV2>(direction, records),
    }
}

fn between<Old: Version, New: Version>(
    direction: Direction,
    records: &[UserV1],
) -> Result<Vec<View>> {
    match direction {
        Direction::OldToNew => write_then_read::<Old, New>(records),
        Direction::NewToOld => write_then_read::<New, Old>(records),
    }
}

fn write_then_read<Writer: Version, Reader: Version>(records: &[UserV1]) -> Result<Vec<View>> {
    records
        .iter()
        .map(|record| {
            let bytes = Writer::write(record).encode_to_vec();
            let read = Reader::decode(bytes.as_slice()).context("the reader failed")?;
            Ok(read.view())
        })
        .collect()
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

impl IntoValue for String {
    fn into_value(self) -> Value {
        Value::Text(self)
    }
}

impl IntoValue for Option<String> {
    fn into_value(self) -> Value {
        self.map_or(Value::Absent, Value::Text)
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

        impl Version for $name {
            fn write($record: &UserV1) -> Self {
                $name { $($field: $value,)+ }
            }

            fn view(self) -> View {
                View::from([$((stringify!($field), self.$field.into_value()),)+])
            }
        }
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

/// What every format's tests share: records like the matrix's and the
/// classification of a cell, by the same rules as the matrix.
/// The formats' own tests assert their cells as the matrix classifies them.
#[cfg(test)]
pub(super) mod cells {
    use super::super::{Change, Evolving, UserV1, matrix};

    pub fn records() -> Vec<UserV1> {
        matrix::records()
    }

    /// Asserts every cell of `format` (per change in `Change::ALL` order:
    /// old-to-new, new-to-old) as the matrix classifies it on its records.
    pub fn assert_cells(format: &Evolving, observed: [[&str; 2]; 5]) {
        let row = matrix::run(&[format], &records()).remove(0);
        let got: Vec<(Change, &str)> = row
            .cells
            .iter()
            .map(|c| (c.change, c.outcome.class()))
            .collect();
        let want: Vec<(Change, &str)> = Change::ALL
            .into_iter()
            .zip(observed)
            .flat_map(|(change, cells)| cells.map(|class| (change, class)))
            .collect();
        assert_eq!(got, want, "{}", format.name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_is_as_observed() {
        cells::assert_cells(
            &EVOLVING,
            [
                ["ok", "ok"],
                ["ok", "ok"],
                ["ok", "ok"],
                ["ok", "ok"],
                ["ok", "ok"],
            ],
        );
    }

    #[test]
    fn a_new_reader_of_old_data_sees_no_email_and_an_old_reader_skips_it() {
        let records = cells::records();
        let views = trial(Change::AddField, Direction::OldToNew, &records).unwrap();
        assert!(views.iter().all(|view| view["email"] == Value::Absent));
        let views = trial(Change::AddField, Direction::NewToOld, &records).unwrap();
        assert!(views.iter().all(|view| !view.contains_key("email")));
    }

    #[test]
    fn an_old_reader_gives_the_removed_field_its_default() {
        let views = trial(Change::RemoveField, Direction::NewToOld, &cells::records()).unwrap();
        assert!(
            views
                .iter()
                .all(|view| view["nickname"] == Value::Text(String::new()))
        );
    }
}
