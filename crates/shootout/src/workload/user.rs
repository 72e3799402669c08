//! `user`: a small API response of strings and longs, from a Go comparison of
//! FlatBuffers and JSON. Each operation picks one of 1,000 generated records
//! pseudo-randomly, as the original benchmark did.

use rand::RngExt;

use super::Dataset;
use super::fields::{FieldRecord, FieldSink, Fields, field_record};

field_record! {
    pub struct UserResponse {
        #[n(0)]
        pub uid: i64,
        /// 32 hex characters.
        #[n(1)]
        pub muid: String,
        /// 5 characters.
        #[n(2)]
        pub status: String,
        #[n(3)]
        pub tutorial: i64,
        /// 20 characters.
        #[n(4)]
        pub nickname: String,
        #[n(5)]
        pub total_login_num: i64,
        /// "YYYY-MM-DD HH:MM:SS".
        #[n(6)]
        pub opened_at: String,
        #[n(7)]
        pub created_at: String,
        #[n(8)]
        pub updated_at: String,
    }
}

/// Feeds a user's fields to `sink` in `FIELDS` order, from the record or from a
/// format's own message with the same field names (read in place, no copy).
macro_rules! visit_user_fields {
    ($user:ident, $sink:ident) => {
        $sink.record();
        $sink.int(0, $user.uid);
        $sink.text(1, $user.muid.as_bytes());
        $sink.text(2, $user.status.as_bytes());
        $sink.int(3, $user.tutorial);
        $sink.text(4, $user.nickname.as_bytes());
        $sink.int(5, $user.total_login_num);
        $sink.text(6, $user.opened_at.as_bytes());
        $sink.text(7, $user.created_at.as_bytes());
        $sink.text(8, $user.updated_at.as_bytes());
    };
}
pub(crate) use visit_user_fields;

impl FieldRecord for UserResponse {
    const WORKLOAD: &'static str = "user";
    const FIELDS: &'static [&'static str] = &[
        "uid",
        "muid",
        "status",
        "tutorial",
        "nickname",
        "total_login_num",
        "opened_at",
        "created_at",
        "updated_at",
    ];

    fn visit(&self, sink: &mut FieldSink) {
        visit_user_fields!(self, sink);
    }
}

pub type User = Fields<UserResponse>;

pub const POOL: usize = 1_000;

const STATUSES: [&str; 4] = ["activ", "guest", "block", "admin"];

pub fn generate(operations: usize, seed: u64) -> Dataset<User> {
    let source = format!("generated: {POOL} users, {operations} random picks, seed {seed}");
    Dataset::from_pool(seed, POOL, operations, source, |r| UserResponse {
        uid: r.rng().random_range(1..1_i64 << 40),
        muid: r.hex(32),
        status: STATUSES[r.rng().random_range(0..STATUSES.len())].to_owned(),
        tutorial: r.rng().random_range(0..100),
        nickname: r.alnum(20),
        total_login_num: r.rng().random_range(0..100_000),
        opened_at: r.datetime(),
        created_at: r.datetime(),
        updated_at: r.datetime(),
    })
}

/// Generated records plus the edges a codec can get wrong: empty strings,
/// extreme integers, non-ASCII text.
#[cfg(test)]
pub fn sample() -> Dataset<User> {
    let edge = UserResponse {
        uid: i64::MIN,
        muid: String::new(),
        status: "ünï".into(),
        tutorial: i64::MAX,
        nickname: "quote\" back\\slash\n".into(),
        total_login_num: -1,
        opened_at: String::new(),
        created_at: "9999-12-31 23:59:59".into(),
        updated_at: "x".repeat(300),
    };
    generate(40, 3).with_edges([edge], [POOL as u32, 0, POOL as u32])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregate_follows_the_random_picks() {
        let dataset = generate(500, 9);
        assert_eq!(dataset.records.len(), POOL);
        let picked = || dataset.order.iter().map(|&i| &dataset.records[i as usize]);
        let agg = &dataset.reference;
        assert_eq!(agg.records, 500);
        assert_eq!(
            agg.fields["uid"].int_sum,
            picked().map(|u| u.uid).fold(0i64, i64::wrapping_add)
        );
        assert_eq!(agg.fields["muid"].text_bytes, 500 * 32);
        assert_eq!(agg.fields["nickname"].text_bytes, 500 * 20);
        assert_eq!(agg.fields["opened_at"].text_bytes, 500 * 19);
        assert!(UserResponse::FIELDS.iter().all(|f| agg.fields[f].present == 500));
        assert!(
            dataset.order.windows(2).any(|w| w[0] != w[1] && w[0] + 1 != w[1]),
            "picks are not sequential"
        );
    }
}
