//! What a `jsonl` record set adds up to (docs/dataset-format.md): the value
//! hash summed over records, and a count of every kind of value, so that a
//! format which loses something is told what it lost.

use serde::Serialize;

use crate::workload::fields::text_hash;

const OFF: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;
/// Beyond this magnitude a double no longer holds every integer.
const DOUBLE_EXACT: u64 = 1 << 53;

#[inline]
fn step(hash: u64, word: u64) -> u64 {
    (hash ^ word).wrapping_mul(PRIME)
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct JsonlAggregate {
    pub records: u64,
    pub hash: u64,
    pub nulls: u64,
    pub booleans: u64,
    pub integers: u64,
    pub big_integers: u64,
    pub huge_integers: u64,
    pub floats: u64,
    pub negative_zeros: u64,
    pub integral_floats: u64,
    pub strings: u64,
    pub text_bytes: u64,
    pub arrays: u64,
    pub elements: u64,
    pub objects: u64,
    pub members: u64,
    /// What the input holds, for the finding; not compared.
    pub duplicate_keys: u64,
}

/// Every figure but `duplicate_keys`, which only the input knows.
impl PartialEq for JsonlAggregate {
    fn eq(&self, other: &Self) -> bool {
        first_difference(self, other).is_none()
    }
}

/// The first figure that differs, named as the loss it shows, in the order
/// docs/dataset-format.md gives.
pub fn first_difference(expected: &JsonlAggregate, actual: &JsonlAggregate) -> Option<String> {
    let (e, a) = (expected, actual);
    let both = |what: &str, x: u64, y: u64| format!("{what}: {x} in the input, {y} decoded");
    if e.records != a.records {
        return Some(format!("expected {} records, decoded {}", e.records, a.records));
    }
    if e.members != a.members {
        let mut finding = both("members", e.members, a.members);
        if e.duplicate_keys > 0 {
            let keys = if e.duplicate_keys == 1 { "key" } else { "keys" };
            finding.push_str(&format!(
                " (the input has {} duplicate {keys}: the library keeps one value per key)",
                e.duplicate_keys
            ));
        }
        return Some(finding);
    }
    if e.huge_integers != a.huge_integers {
        return Some(both("integers beyond 64 bits", e.huge_integers, a.huge_integers));
    }
    if e.big_integers != a.big_integers {
        return Some(both("integers beyond ±2^53", e.big_integers, a.big_integers));
    }
    if e.negative_zeros != a.negative_zeros {
        return Some(both("-0.0", e.negative_zeros, a.negative_zeros));
    }
    if e.integers != a.integers || e.floats != a.floats {
        let kinds = format!(
            "{}; {}",
            both("integers", e.integers, a.integers),
            both("floats", e.floats, a.floats)
        );
        // One kind lost exactly what the other gained: values changed kind.
        let moved = e.integers + e.floats == a.integers + a.floats;
        return Some(if moved && a.integers < e.integers {
            format!("integers read back as floats: {kinds}")
        } else if moved && a.floats < e.floats {
            format!("floats with integral values read back as integers: {kinds}")
        } else {
            kinds
        });
    }
    let counts = [
        ("nulls", e.nulls, a.nulls),
        ("booleans", e.booleans, a.booleans),
        ("integral_floats", e.integral_floats, a.integral_floats),
        ("strings", e.strings, a.strings),
        ("text_bytes", e.text_bytes, a.text_bytes),
        ("arrays", e.arrays, a.arrays),
        ("elements", e.elements, a.elements),
        ("objects", e.objects, a.objects),
    ];
    if let Some((what, x, y)) = counts.into_iter().find(|(_, x, y)| x != y) {
        return Some(both(what, x, y));
    }
    (e.hash != a.hash)
        .then(|| format!("a value changed: hash {} in the input, {} decoded", e.hash, a.hash))
}

/// An open array or object: its hash so far.
#[derive(Debug, Clone, Copy)]
enum Frame {
    Array { hash: u64, len: u64 },
    Object { sum: u64, len: u64, key: u64 },
}

/// Receives decoded values in document order, as a format's walk of its own
/// value model reports them, and adds them up; the frames are reused, so it
/// allocates nothing once the deepest record has been seen.
#[derive(Debug, Default)]
pub struct ValueSink {
    totals: JsonlAggregate,
    open: Vec<Frame>,
}

impl ValueSink {
    pub fn finish(self) -> JsonlAggregate {
        self.totals
    }

    /// Counts duplicate keys: only the input's reader knows them.
    pub fn duplicate_keys(&mut self, n: u64) {
        self.totals.duplicate_keys += n;
    }

    /// A value is complete: it is an element, a member's value, or a record.
    #[inline]
    fn done(&mut self, hash: u64) {
        match self.open.last_mut() {
            None => {
                self.totals.records += 1;
                self.totals.hash = self.totals.hash.wrapping_add(hash);
            }
            Some(Frame::Array { hash: h, len }) => {
                *h = step(*h, hash);
                *len += 1;
            }
            Some(Frame::Object { sum, len, key }) => {
                *sum = sum.wrapping_add(step(step(*key, hash), 10));
                *len += 1;
            }
        }
    }

    #[inline]
    pub fn null(&mut self) {
        self.totals.nulls += 1;
        self.done(step(OFF, 1));
    }

    #[inline]
    pub fn bool(&mut self, value: bool) {
        self.totals.booleans += 1;
        self.done(step(OFF, if value { 3 } else { 2 }));
    }

    #[inline]
    pub fn int(&mut self, value: i64) {
        self.totals.integers += 1;
        self.totals.big_integers += u64::from(value.unsigned_abs() > DOUBLE_EXACT);
        self.done(step(step(OFF, 4), value as u64));
    }

    #[inline]
    pub fn uint(&mut self, value: u64) {
        match i64::try_from(value) {
            Ok(value) => self.int(value),
            Err(_) => {
                self.totals.integers += 1;
                self.totals.big_integers += 1;
                self.done(step(step(OFF, 5), value));
            }
        }
    }

    /// An integer of any size, as its decimal text (`-` before a negative, no
    /// leading zeros), for the ones beyond 64 bits.
    pub fn big(&mut self, decimal: &str) {
        if let Ok(value) = decimal.parse::<i64>() {
            return self.int(value);
        }
        if let Ok(value) = decimal.parse::<u64>() {
            return self.uint(value);
        }
        self.totals.integers += 1;
        self.totals.big_integers += 1;
        self.totals.huge_integers += 1;
        self.done(step(text_hash(decimal.as_bytes()), 6));
    }

    #[inline]
    pub fn int128(&mut self, value: i128) {
        if let Ok(value) = i64::try_from(value) {
            self.int(value)
        } else if let Ok(value) = u64::try_from(value) {
            self.uint(value)
        } else {
            self.big(&value.to_string())
        }
    }

    #[inline]
    pub fn float(&mut self, value: f64) {
        self.totals.floats += 1;
        self.totals.negative_zeros += u64::from(value == 0.0 && value.is_sign_negative());
        self.totals.integral_floats += u64::from(value.is_finite() && value.fract() == 0.0);
        self.done(step(step(OFF, 7), value.to_bits()));
    }

    #[inline]
    pub fn string(&mut self, value: &[u8]) {
        self.totals.strings += 1;
        self.totals.text_bytes += value.len() as u64;
        self.done(step(text_hash(value), 8));
    }

    #[inline]
    pub fn begin_array(&mut self) {
        self.totals.arrays += 1;
        self.open.push(Frame::Array { hash: step(OFF, 9), len: 0 });
    }

    /// Closes the innermost array; an unbalanced close is a walker's bug.
    #[inline]
    pub fn end_array(&mut self) {
        let Some(Frame::Array { hash, len }) = self.open.pop() else {
            panic!("end_array without an open array")
        };
        self.totals.elements += len;
        self.done(step(hash, len));
    }

    #[inline]
    pub fn begin_object(&mut self) {
        self.totals.objects += 1;
        self.open.push(Frame::Object { sum: 0, len: 0, key: 0 });
    }

    /// The key of the member whose value comes next.
    #[inline]
    pub fn key(&mut self, key: &[u8]) {
        let Some(Frame::Object { key: slot, .. }) = self.open.last_mut() else {
            panic!("key outside an object")
        };
        *slot = text_hash(key);
    }

    #[inline]
    pub fn end_object(&mut self) {
        let Some(Frame::Object { sum, len, .. }) = self.open.pop() else {
            panic!("end_object without an open object")
        };
        self.totals.members += len;
        self.done(step(step(step(OFF, 11), sum), len));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::jsonl::{Value, visit, visit_input};

    fn hash(json: &str) -> u64 {
        let mut sink = ValueSink::default();
        visit(&Value::parse(json.as_bytes()).unwrap(), &mut sink);
        sink.finish().hash
    }

    /// spec/vectors.json's `jsonl_hash`: values every language must hash alike.
    #[test]
    fn spec_vectors_hash_alike() {
        #[derive(serde::Deserialize)]
        struct Vector {
            json: String,
            hash: String,
        }
        let spec: serde_json::Value =
            serde_json::from_str(include_str!("../../../../../spec/vectors.json")).unwrap();
        let vectors: Vec<Vector> =
            serde_json::from_value(spec["jsonl_hash"]["vectors"].clone()).unwrap();
        assert!(vectors.len() > 20);
        for v in vectors {
            assert_eq!(hash(&v.json).to_string(), v.hash, "{}", v.json);
        }
    }

    #[test]
    fn member_order_does_not_count_and_duplicates_do() {
        assert_eq!(hash(r#"{"a":1,"b":2}"#), hash(r#"{"b":2,"a":1}"#));
        assert_ne!(hash(r#"{"a":1}"#), hash(r#"{"a":1,"a":1}"#));
        assert_ne!(hash("[1,2]"), hash("[2,1]"));
        assert_ne!(hash("1"), hash("1.0"));
    }

    fn totals(json: &str) -> JsonlAggregate {
        let mut sink = ValueSink::default();
        visit_input(&Value::parse(json.as_bytes()).unwrap(), &mut sink);
        sink.finish()
    }

    #[test]
    fn each_loss_is_named() {
        let finding = |input: &str, decoded: &str| {
            first_difference(&totals(input), &totals(decoded)).unwrap_or_default()
        };
        assert_eq!(finding("[1]", "[1]"), "");
        assert_eq!(
            finding(r#"{"a":1,"a":2}"#, r#"{"a":2}"#),
            "members: 2 in the input, 1 decoded (the input has 1 duplicate key: the library keeps one value per key)"
        );
        assert_eq!(
            finding("[123456789012345678901234567890]", "[1.2345678901234568e29]"),
            "integers beyond 64 bits: 1 in the input, 0 decoded"
        );
        assert_eq!(
            finding("[1152921504606846976]", "[1.152921504606847e18]"),
            "integers beyond ±2^53: 1 in the input, 0 decoded"
        );
        assert_eq!(finding("[-0.0]", "[0.0]"), "-0.0: 1 in the input, 0 decoded");
        assert_eq!(
            finding("[1]", "[1.0]"),
            "integers read back as floats: integers: 1 in the input, 0 decoded; floats: 0 in the input, 1 decoded"
        );
        assert_eq!(
            finding("[1.0]", "[1]"),
            "floats with integral values read back as integers: integers: 0 in the input, 1 decoded; floats: 1 in the input, 0 decoded"
        );
        assert_eq!(finding(r#"["é"]"#, r#"["e"]"#), "text_bytes: 2 in the input, 1 decoded");
        assert!(finding("[1]", "[2]").starts_with("a value changed"));
    }
}
