//! `sql`: a thin-client SQL request, a query string and its arguments, from the
//! database client study in which MessagePack won the wire protocol.

use super::Dataset;
use super::fields::{FieldRecord, FieldSink, Fields, field_record};

field_record! {
    pub struct SqlRequest {
        #[n(0)]
        pub query: String,
        /// Fory: a dense int64 array (Java's `long[]`), not a list.
        #[n(1)]
        #[fory(array)]
        pub args: Vec<i64>,
    }
}

impl FieldRecord for SqlRequest {
    const WORKLOAD: &'static str = "sql";
    const FIELDS: &'static [&'static str] = &["query", "args"];

    fn visit(&self, sink: &mut FieldSink) {
        sink.record();
        sink.text(0, self.query.as_bytes());
        for &arg in &self.args {
            sink.int(1, arg);
        }
    }
}

pub type Sql = Fields<SqlRequest>;

/// The study's one request, sent `operations` times.
pub fn generate(operations: usize) -> Dataset<Sql> {
    let request = SqlRequest {
        query: "select * from cars where year > ? and seats = ?".into(),
        args: vec![2005, 2],
    };
    let source = format!("the study's request, {operations} times");
    Dataset::of_records(vec![request], vec![0; operations], source)
}

/// The study's request plus an empty and a long one.
#[cfg(test)]
pub fn sample() -> Dataset<Sql> {
    let empty = SqlRequest { query: String::new(), args: vec![] };
    let long = SqlRequest {
        query: "select 'é' from t where a in (?)".repeat(20),
        args: vec![i64::MIN, 0, i64::MAX, -1],
    };
    generate(3).with_edges([empty, long], [1, 2, 0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregate_counts_the_query_and_sums_the_arguments() {
        let dataset = generate(3);
        let query = &dataset.records[0].query;
        let agg = &dataset.reference;
        assert_eq!(agg.records, 3);
        assert_eq!(agg.fields["query"].present, 3);
        assert_eq!(agg.fields["query"].text_bytes, 3 * query.len() as u64);
        assert_eq!(agg.fields["args"].present, 6);
        assert_eq!(agg.fields["args"].int_sum, 3 * (2005 + 2));
    }
}
