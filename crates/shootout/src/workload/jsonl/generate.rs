//! Generated JSON Lines: events as a web API returns them, nested objects and
//! arrays of several shapes, so `--workload jsonl` runs on a fresh clone.
//! Integers stay within ±2^53 and no key repeats: the sample shows the formats
//! working; edge cases are the tests' and the user's.

use rand::RngExt;

use super::Value;
use crate::workload::random::Random;

const KINDS: [&str; 3] = ["order.created", "user.login", "payment.captured"];
const CURRENCIES: [&str; 3] = ["USD", "EUR", "JPY"];
const ROLES: [&str; 4] = ["admin", "buyer", "seller", "support"];

fn object(members: Vec<(&str, Value)>) -> Value {
    Value::Object(members.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

fn text(s: impl Into<String>) -> Value {
    Value::String(s.into())
}

/// A price-like float: two decimals, as the JSON of an API writes it.
fn cents(r: &mut Random, max: f64) -> Value {
    Value::Float((r.rng().random_range(0.0..max) * 100.0).round() / 100.0)
}

/// `records` events from `seed`.
pub fn generate(records: usize, seed: u64) -> Vec<Value> {
    events(seed).take(records).collect()
}

/// The endless stream of events from `seed`, so any number can be written
/// in bounded memory.
pub fn events(seed: u64) -> impl Iterator<Item = Value> {
    let mut r = Random::new(seed);
    (0..).map(move |i| event(&mut r, i))
}

fn event(r: &mut Random, i: i64) -> Value {
    let kind = KINDS[r.rng().random_range(0..KINDS.len())];
    let roles = (0..r.rng().random_range(0..3))
        .map(|_| text(ROLES[r.rng().random_range(0..ROLES.len())]))
        .collect();
    let name_len = r.rng().random_range(3..16);
    let user = object(vec![
        ("id", text(r.hex(16))),
        ("name", text(r.alnum(name_len))),
        ("verified", Value::Bool(r.rng().random_bool(0.7))),
        ("roles", Value::Array(roles)),
        ("manager", if r.rng().random_bool(0.5) { Value::Null } else { text(r.hex(16)) }),
    ]);
    let payload = match kind {
        "order.created" => {
            let items = (0..r.rng().random_range(1..6))
                .map(|_| {
                    object(vec![
                        ("sku", text(format!("SKU-{}", r.alnum(6)))),
                        ("qty", Value::Int(r.rng().random_range(1..10))),
                        ("price", cents(r, 500.0)),
                        (
                            "tags",
                            Value::Array(
                                (0..r.rng().random_range(0..3)).map(|_| text(r.alnum(5))).collect(),
                            ),
                        ),
                    ])
                })
                .collect();
            object(vec![
                ("items", Value::Array(items)),
                ("currency", text(CURRENCIES[r.rng().random_range(0..CURRENCIES.len())])),
                ("total", cents(r, 2500.0)),
                ("coupon", if r.rng().random_bool(0.2) { text(r.alnum(8)) } else { Value::Null }),
            ])
        }
        "user.login" => object(vec![
            (
                "ip",
                text(format!(
                    "10.{}.{}.{}",
                    r.rng().random_range(0..256),
                    r.rng().random_range(0..256),
                    r.rng().random_range(0..256)
                )),
            ),
            ("agent", text(format!("Mozilla/5.0 ({})", r.alnum(12)))),
            ("mfa", Value::Bool(r.rng().random_bool(0.5))),
            ("attempt", Value::Int(r.rng().random_range(1..4))),
        ]),
        _ => object(vec![
            ("amount", cents(r, 10_000.0)),
            (
                "card",
                object(vec![
                    ("last4", text(format!("{:04}", r.rng().random_range(0..10_000)))),
                    (
                        "expires",
                        text(format!(
                            "{:02}/{}",
                            r.rng().random_range(1..13),
                            r.rng().random_range(26..32)
                        )),
                    ),
                ]),
            ),
            ("risk", Value::Float(r.rng().random_range(0.0..1.0))),
        ]),
    };
    object(vec![
        ("id", Value::Int(1_700_000_000_000 + i)),
        ("type", text(kind)),
        ("at", text(r.datetime())),
        ("user", user),
        ("payload", payload),
        (
            "meta",
            object(vec![
                ("trace", text(r.hex(32))),
                ("retries", Value::Int(r.rng().random_range(0..3))),
                ("latency_ms", Value::Float(r.rng().random_range(0.1..250.0))),
            ]),
        ),
    ])
}

/// The records as JSON Lines text, one canonical line each.
pub fn render(records: &[Value]) -> String {
    let mut out = Vec::new();
    for record in records {
        record.write(&mut out);
        out.push(b'\n');
    }
    String::from_utf8(out).expect("JSON text is UTF-8")
}

/// Writes `records` as [`render`] does, a line at a time; returns the bytes written.
pub fn write(
    records: impl IntoIterator<Item = Value>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<u64> {
    let mut written = 0;
    let mut line = Vec::new();
    for record in records {
        line.clear();
        record.write(&mut line);
        line.push(b'\n');
        out.write_all(&line)?;
        written += line.len() as u64;
    }
    Ok(written)
}

/// The header of the generated orders CSV.
pub const ORDERS_HEADER: &str =
    "order_id,customer,email,amount,quantity,paid,coupon,created_at,weight_kg";

/// A generated CSV with named columns of every type, some cells empty: the
/// `csv` workload's default, orders as a shop's export lists them.
pub fn orders_csv(records: usize, seed: u64) -> String {
    let mut out = format!("{ORDERS_HEADER}\n");
    orders(seed).take(records).for_each(|row| out.push_str(&row));
    out
}

/// The endless rows (each ended by a newline) of the orders CSV from
/// `seed`, so any number can be written in bounded memory.
pub fn orders(seed: u64) -> impl Iterator<Item = String> {
    let mut r = Random::new(seed);
    (0..).map(move |i| order(&mut r, 100_000 + i))
}

fn order(r: &mut Random, id: u64) -> String {
    let name_len = r.rng().random_range(4..14);
    let customer = r.alnum(name_len);
    let email = if r.rng().random_bool(0.8) {
        format!("{}@example.com", customer.to_lowercase())
    } else {
        String::new()
    };
    let amount = (r.rng().random_range(0.0..2000.0f64) * 100.0).round() / 100.0;
    let quantity = r.rng().random_range(1..20);
    let paid = r.rng().random_bool(0.6);
    let coupon = if r.rng().random_bool(0.15) { r.alnum(8) } else { String::new() };
    let created = r.datetime();
    let weight = if r.rng().random_bool(0.7) {
        format!("{}", (r.rng().random_range(0.05..40.0f64) * 1000.0).round() / 1000.0)
    } else {
        String::new()
    };
    format!("{id},{customer},{email},{amount},{quantity},{paid},{coupon},{created},{weight}\n")
}
