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
#[cfg(test)]
pub(super) mod cells {
    use std::panic::{self, AssertUnwindSafe};

    use super::super::{Change, Direction, Evolving, UserV1, Value, View};
    use crate::workload::user;

    /// The matrix's records (evolution/matrix.rs): 24 generated `user` records
    /// (tutorial narrowed to an int32) and the edges a reader can get wrong:
    /// extreme and negative integers, empty, non-ASCII and long text.
    pub fn records() -> Vec<UserV1> {
        let mut records: Vec<UserV1> = user::generate(0, 13)
            .records
            .into_iter()
            .take(24)
            .map(|u| UserV1 {
                uid: u.uid,
                muid: u.muid,
                status: u.status,
                tutorial: i32::try_from(u.tutorial).unwrap(),
                nickname: u.nickname,
                total_login_num: u.total_login_num,
                opened_at: u.opened_at,
                created_at: u.created_at,
                updated_at: u.updated_at,
            })
            .collect();
        let edge = |uid, tutorial, total_login_num, text: &str| UserV1 {
            uid,
            muid: text.to_owned(),
            status: text.to_owned(),
            tutorial,
            nickname: text.to_owned(),
            total_login_num,
            opened_at: text.to_owned(),
            created_at: text.to_owned(),
            updated_at: text.to_owned(),
        };
        records.extend([
            edge(0, 0, 0, ""),
            edge(i64::MIN, i32::MIN, i64::MAX, "ünïcödé ✓ 日本語 🦀"),
            edge(i64::MAX, i32::MAX, i64::MIN, &"x".repeat(300)),
            edge(-1, -1, -1, "quote\" back\\slash\nnul\0"),
            UserV1 {
                nickname: String::new(),
                ..edge(1 << 53, 1, 1 << 40, "activ")
            },
        ]);
        records
    }

    /// What the reader should see of `record`, and the field the data did not
    /// carry (which may read as absent or as its default).
    fn expected(
        change: Change,
        direction: Direction,
        record: &UserV1,
    ) -> (View, Option<&'static str>) {
        let mut view = View::from([
            ("uid", Value::Int(record.uid)),
            ("muid", Value::Text(record.muid.clone())),
            ("status", Value::Text(record.status.clone())),
            ("tutorial", Value::Int(record.tutorial.into())),
            ("nickname", Value::Text(record.nickname.clone())),
            ("total_login_num", Value::Int(record.total_login_num)),
            ("opened_at", Value::Text(record.opened_at.clone())),
            ("created_at", Value::Text(record.created_at.clone())),
            ("updated_at", Value::Text(record.updated_at.clone())),
        ]);
        let mut missing = None;
        match (change, direction) {
            (Change::AddField, Direction::OldToNew) => {
                view.insert("email", Value::Absent);
                missing = Some("email");
            }
            (Change::RemoveField, Direction::OldToNew) => {
                view.remove("nickname");
            }
            (Change::RemoveField, Direction::NewToOld) => {
                view.insert("nickname", Value::Absent);
                missing = Some("nickname");
            }
            (Change::RenameField, Direction::OldToNew) => {
                let count = view.remove("total_login_num").unwrap();
                view.insert("login_count", count);
            }
            _ => {}
        }
        (view, missing)
    }

    fn is_default(value: &Value) -> bool {
        matches!(value, Value::Text(text) if text.is_empty()) || *value == Value::Int(0)
    }

    /// One record's class: ok, error, silent (read without complaint into
    /// something else than expected) or panic.
    fn class_of(
        format: &Evolving,
        change: Change,
        direction: Direction,
        record: &UserV1,
    ) -> &'static str {
        let one = std::slice::from_ref(record);
        let views = match panic::catch_unwind(AssertUnwindSafe(|| {
            (format.trial)(change, direction, one)
        })) {
            Err(_) => return "panic",
            Ok(Err(_)) => return "error",
            Ok(Ok(views)) => views,
        };
        let [view] = views.as_slice() else {
            return "silent";
        };
        let (want, missing) = expected(change, direction, record);
        let fields = want
            .keys()
            .chain(view.keys().filter(|k| !want.contains_key(*k)));
        for field in fields {
            let expected = want.get(field).unwrap_or(&Value::Absent);
            let got = view.get(field).unwrap_or(&Value::Absent);
            let defaulted = missing == Some(*field) && (*got == Value::Absent || is_default(got));
            if got != expected && !defaulted {
                return "silent";
            }
        }
        "ok"
    }

    /// A cell's class: its worst record's (silent, then panic, then error).
    pub fn class(format: &Evolving, change: Change, direction: Direction) -> &'static str {
        const WORST_FIRST: [&str; 4] = ["silent", "panic", "error", "ok"];
        let classes: Vec<&str> = records()
            .iter()
            .map(|record| class_of(format, change, direction, record))
            .collect();
        WORST_FIRST
            .into_iter()
            .find(|class| classes.contains(class))
            .unwrap()
    }

    /// Asserts every cell of `format` against `observed` (per change in
    /// `Change::ALL` order: old-to-new, new-to-old), listing every difference.
    pub fn assert_cells(format: &Evolving, observed: [[&str; 2]; 5]) {
        let mut differences = Vec::new();
        for (change, want) in Change::ALL.into_iter().zip(observed) {
            for (direction, want) in Direction::ALL.into_iter().zip(want) {
                let got = class(format, change, direction);
                if got != want {
                    differences.push(format!("{change:?} {direction:?}: {got}, expected {want}"));
                }
            }
        }
        assert!(differences.is_empty(), "{}: {differences:#?}", format.name);
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
