//! What the formats' trials share: a version of the record as a writer and a
//! reader of bytes, the one experiment (records written by one version and read
//! back, one record per buffer, by the other) and the values a reader reports.

use anyhow::{Context, Result};

use super::{Change, Direction, UserV1, Value, View};

/// One version of the record in one format: what its writer makes of a
/// record, and what its reader reports of the bytes.
#[derive(Clone, Copy)]
pub struct Version {
    pub write: fn(&UserV1) -> Result<Vec<u8>>,
    pub read: fn(&[u8]) -> Result<View>,
}

/// A format's v1 and, for each change, the v2 its rules give.
pub struct Versions {
    pub v1: Version,
    pub add_field: Version,
    pub remove_field: Version,
    pub rename_field: Version,
    pub widen_int: Version,
    pub reorder_fields: Version,
}

impl Versions {
    /// The format's [`Evolving::trial`](super::Evolving::trial): `records`
    /// written by the writer's version of `change` and read back, one by one,
    /// by the reader's.
    pub fn trial(
        &self,
        change: Change,
        direction: Direction,
        records: &[UserV1],
    ) -> Result<Vec<View>> {
        let v2 = match change {
            Change::AddField => self.add_field,
            Change::RemoveField => self.remove_field,
            Change::RenameField => self.rename_field,
            Change::WidenInt => self.widen_int,
            Change::ReorderFields => self.reorder_fields,
        };
        let (writer, reader) = match direction {
            Direction::OldToNew => (self.v1, v2),
            Direction::NewToOld => (v2, self.v1),
        };
        records
            .iter()
            .map(|record| {
                let bytes = (writer.write)(record).context("the writer failed")?;
                (reader.read)(&bytes).context("the reader failed")
            })
            .collect()
    }
}

/// One version of the record as a Rust type, derived or generated: what a
/// writer of that version makes of a v1 record, and what its reader reports.
pub trait VersionType {
    fn write(record: &UserV1) -> Self;
    fn view(self) -> View;
}

/// Implements [`VersionType`] for `$ty` from every one of its fields and what
/// a writer of it puts there (`|r|` names the v1 record); the reader reports
/// each field by its name. `..rest` after the fields fills the type's other
/// fields (generated code's bookkeeping, such as buffa's unknown fields).
macro_rules! version_type {
    ($ty:ty, |$record:ident| { $($field:ident: $value:expr,)+ } $(..$rest:expr)?) => {
        impl $crate::evolution::trial::VersionType for $ty {
            fn write($record: &$crate::evolution::UserV1) -> Self {
                Self { $($field: $value,)+ $(..$rest)? }
            }

            fn view(self) -> $crate::evolution::View {
                use $crate::evolution::trial::IntoValue;
                $crate::evolution::View::from([
                    $((stringify!($field), self.$field.into_value()),)+
                ])
            }
        }
    };
}

pub(super) use version_type;

/// [`VersionType`] for the six versions a schema compiler generates from
/// schemas/evolution/user.* into module `$module` (Thrift's and buffa's name
/// them `UserV1`, `UserAddField`, `UserRemoveField`, `UserRenameField`,
/// `UserWidenInt` and `UserReorderFields`), each v2 as its change has it;
/// `..rest` fills their other fields.
macro_rules! generated_versions {
    ($module:ident $(, ..$rest:expr)?) => {
        $crate::evolution::trial::version_type!($module::UserV1, |r| {
            uid: r.uid,
            muid: r.muid.clone(),
            status: r.status.clone(),
            tutorial: r.tutorial,
            nickname: r.nickname.clone(),
            total_login_num: r.total_login_num,
            opened_at: r.opened_at.clone(),
            created_at: r.created_at.clone(),
            updated_at: r.updated_at.clone(),
        } $(..$rest)?);

        $crate::evolution::trial::version_type!($module::UserAddField, |r| {
            uid: r.uid,
            muid: r.muid.clone(),
            status: r.status.clone(),
            tutorial: r.tutorial,
            nickname: r.nickname.clone(),
            total_login_num: r.total_login_num,
            opened_at: r.opened_at.clone(),
            created_at: r.created_at.clone(),
            updated_at: r.updated_at.clone(),
            email: Some($crate::evolution::email_of(r)),
        } $(..$rest)?);

        $crate::evolution::trial::version_type!($module::UserRemoveField, |r| {
            uid: r.uid,
            muid: r.muid.clone(),
            status: r.status.clone(),
            tutorial: r.tutorial,
            total_login_num: r.total_login_num,
            opened_at: r.opened_at.clone(),
            created_at: r.created_at.clone(),
            updated_at: r.updated_at.clone(),
        } $(..$rest)?);

        $crate::evolution::trial::version_type!($module::UserRenameField, |r| {
            uid: r.uid,
            muid: r.muid.clone(),
            status: r.status.clone(),
            tutorial: r.tutorial,
            nickname: r.nickname.clone(),
            login_count: r.total_login_num,
            opened_at: r.opened_at.clone(),
            created_at: r.created_at.clone(),
            updated_at: r.updated_at.clone(),
        } $(..$rest)?);

        $crate::evolution::trial::version_type!($module::UserWidenInt, |r| {
            uid: r.uid,
            muid: r.muid.clone(),
            status: r.status.clone(),
            tutorial: r.tutorial.into(),
            nickname: r.nickname.clone(),
            total_login_num: r.total_login_num,
            opened_at: r.opened_at.clone(),
            created_at: r.created_at.clone(),
            updated_at: r.updated_at.clone(),
        } $(..$rest)?);

        $crate::evolution::trial::version_type!($module::UserReorderFields, |r| {
            updated_at: r.updated_at.clone(),
            created_at: r.created_at.clone(),
            opened_at: r.opened_at.clone(),
            total_login_num: r.total_login_num,
            nickname: r.nickname.clone(),
            tutorial: r.tutorial,
            status: r.status.clone(),
            muid: r.muid.clone(),
            uid: r.uid,
        } $(..$rest)?);
    };
}

pub(super) use generated_versions;

/// A field's value as the reader reports it.
pub trait IntoValue {
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

impl IntoValue for &str {
    fn into_value(self) -> Value {
        Value::Text(self.to_owned())
    }
}

impl<T: IntoValue> IntoValue for Option<T> {
    fn into_value(self) -> Value {
        self.map_or(Value::Absent, IntoValue::into_value)
    }
}

/// The test pinning the row of the invoking module's `EVOLVING` to the cells
/// observed, as [`assert_cells`] reads them.
#[cfg(test)]
macro_rules! every_cell_is_as_observed {
    ($observed:expr) => {
        #[test]
        fn every_cell_is_as_observed() {
            $crate::evolution::trial::assert_cells(&EVOLVING, $observed);
        }
    };
}
#[cfg(test)]
pub(crate) use every_cell_is_as_observed;

/// Asserts every cell of `format` as the matrix classifies it on its records:
/// per change in `Change::ALL` order, the old-to-new and the new-to-old class
/// ("ok error"). The formats' own tests pin their rows this way.
#[cfg(test)]
pub fn assert_cells(format: &super::Evolving, observed: [&str; 5]) {
    let row = super::matrix::run(&[format], &super::matrix::records()).remove(0);
    let got: Vec<(Change, &str)> =
        row.cells.iter().map(|c| (c.change, c.outcome.class())).collect();
    let want: Vec<(Change, &str)> = Change::ALL
        .into_iter()
        .zip(observed)
        .flat_map(|(change, cells)| cells.split(' ').map(move |class| (change, class)))
        .collect();
    assert_eq!(got, want, "{}", format.name);
}
