//! `object`: a small record of ten mixed fields: shootout's own POJO of many
//! fields, where the thin-client study's (IEP-75) JMH POJO held one int
//! (`shootout study ignite-iep75` runs that one as it did).

use rand::RngExt;

use super::Dataset;
use super::fields::{FieldRecord, FieldSink, Fields, field_record};

field_record! {
    pub struct SmallObject {
        #[n(0)]
        pub id: i64,
        #[n(1)]
        pub name: String,
        #[n(2)]
        pub email: String,
        #[n(3)]
        pub age: i32,
        #[n(4)]
        pub score: f64,
        #[n(5)]
        pub ratio: f32,
        #[n(6)]
        pub active: bool,
        #[n(7)]
        pub level: u8,
        #[n(8)]
        pub created_at: i64,
        #[n(9)]
        pub tags: Vec<String>,
    }
}

impl FieldRecord for SmallObject {
    const WORKLOAD: &'static str = "object";
    const FIELDS: &'static [&'static str] =
        &["id", "name", "email", "age", "score", "ratio", "active", "level", "created_at", "tags"];

    fn visit(&self, sink: &mut FieldSink) {
        sink.record();
        sink.int(0, self.id);
        sink.text(1, self.name.as_bytes());
        sink.text(2, self.email.as_bytes());
        sink.int(3, i64::from(self.age));
        sink.float(4, self.score);
        sink.float(5, f64::from(self.ratio));
        sink.bool(6, self.active);
        sink.int(7, i64::from(self.level));
        sink.int(8, self.created_at);
        self.tags.iter().for_each(|t| sink.text(9, t.as_bytes()));
    }
}

pub type Object = Fields<SmallObject>;

pub const POOL: usize = 1_000;

pub fn generate(operations: usize, seed: u64) -> Dataset<Object> {
    let source = format!("generated: {POOL} objects, {operations} random picks, seed {seed}");
    Dataset::from_pool(seed, POOL, operations, source, |r| {
        let len = r.rng().random_range(4..=16);
        let name = r.alnum(len);
        SmallObject {
            id: r.rng().random(),
            email: format!("{}@example.com", name.to_lowercase()),
            name,
            age: r.rng().random_range(18..90),
            score: r.rng().random_range(0.0..100.0),
            ratio: r.rng().random(),
            active: r.rng().random(),
            level: r.rng().random(),
            created_at: r.rng().random_range(1_420_070_400_000..1_735_689_600_000),
            tags: (0..r.rng().random_range(0..=3)).map(|_| r.alnum(6)).collect(),
        }
    })
}

/// Generated objects plus one with extreme values and no tags.
#[cfg(test)]
pub fn sample() -> Dataset<Object> {
    let edge = SmallObject {
        id: i64::MIN,
        name: String::new(),
        email: "ü@example.com".into(),
        age: i32::MIN,
        score: f64::MIN_POSITIVE,
        ratio: f32::MAX,
        active: false,
        level: u8::MAX,
        created_at: i64::MAX,
        tags: vec![],
    };
    generate(40, 3).with_edges([edge], [POOL as u32, 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregate_counts_tags_and_sums_scores_in_order() {
        let dataset = generate(300, 2);
        let picked = || dataset.order.iter().map(|&i| &dataset.records[i as usize]);
        let agg = &dataset.reference;
        assert_eq!(agg.fields["tags"].present, picked().map(|o| o.tags.len() as u64).sum::<u64>());
        assert_eq!(agg.fields["score"].float_sum, picked().fold(0.0, |sum, o| sum + o.score));
        assert_eq!(agg.fields["level"].int_sum, picked().map(|o| i64::from(o.level)).sum::<i64>());
        assert_eq!(agg.fields["id"].present, 300);
    }
}
