//! The aggregate every iex decode must reproduce: totals over records, and per
//! symbol a fold of every field a message carries, so a codec that drops or
//! alters any one field (not only the traded volume) fails validation.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use serde::Serialize;

use super::record::{Body, Side};

/// Sums wrap: they only need to change when a value does, not to mean anything.
/// Prices are raw wire values (4 implied decimals); a side with no update is `None`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SymbolStats {
    pub trades: u64,
    pub trade_volume: u64,
    pub trade_price_sum: u64,
    pub level_updates: u64,
    pub buy_updates: u64,
    pub level_size_sum: u64,
    /// Min and max alone would miss a changed price strictly between them.
    pub level_price_sum: u64,
    pub flags_sum: u64,
    pub ts_sum: i64,
    pub bid_low: Option<i64>,
    pub bid_high: Option<i64>,
    pub ask_low: Option<i64>,
    pub ask_high: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Aggregate {
    pub records: u64,
    /// The message counts records declared; the per-symbol counts are of the
    /// messages actually fed, so a decoder losing messages shows in either.
    pub messages: u64,
    pub seq_no_sum: u64,
    pub symbols: BTreeMap<String, SymbolStats>,
}

/// Accumulates decoded records. Symbols are UTF-8 bytes of the record's symbol
/// string; they key the map as bytes so the steady state never allocates: a
/// symbol's first sighting is the only insertion.
#[derive(Debug, Default)]
pub struct Aggregator {
    records: u64,
    messages: u64,
    seq_no_sum: u64,
    symbols: FxHashMap<SymbolKey, SymbolStats>,
}

/// A symbol as a map key that hashes and compares as two integers, not a
/// byte string: every decode feeds every message through this map. Up to 16
/// bytes (8 Latin-1 characters) pack into the integer; longer ones (no wire
/// symbol is) keep their bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum SymbolKey {
    Packed(u128, u8),
    Long(Box<[u8]>),
}

impl SymbolKey {
    #[inline]
    fn packed(symbol: &[u8]) -> Option<SymbolKey> {
        let mut bytes = [0u8; 16];
        bytes.get_mut(..symbol.len())?.copy_from_slice(symbol);
        Some(SymbolKey::Packed(u128::from_le_bytes(bytes), symbol.len() as u8))
    }

    fn bytes(&self) -> Vec<u8> {
        match self {
            SymbolKey::Packed(packed, len) => packed.to_le_bytes()[..usize::from(*len)].to_vec(),
            SymbolKey::Long(bytes) => bytes.to_vec(),
        }
    }
}

impl Aggregator {
    pub fn with_capacity(symbols: usize) -> Self {
        Aggregator {
            symbols: FxHashMap::with_capacity_and_hasher(symbols, Default::default()),
            ..Default::default()
        }
    }

    fn stats(&mut self, symbol: &[u8]) -> &mut SymbolStats {
        let key = SymbolKey::packed(symbol).unwrap_or_else(|| SymbolKey::Long(symbol.into()));
        self.symbols.entry(key).or_default()
    }

    /// Once per record, with the number of messages it holds.
    #[inline]
    pub fn packet(&mut self, seq_no: u64, messages: usize) {
        self.records += 1;
        self.messages += messages as u64;
        self.seq_no_sum = self.seq_no_sum.wrapping_add(seq_no);
    }

    #[inline]
    pub fn trade(&mut self, ts: i64, symbol: &[u8], price: u64, size: u32) {
        let stats = self.stats(symbol);
        stats.trades += 1;
        stats.trade_volume += u64::from(size);
        stats.trade_price_sum = stats.trade_price_sum.wrapping_add(price);
        stats.ts_sum = stats.ts_sum.wrapping_add(ts);
    }

    /// Every update counts, size-0 deletions included.
    #[inline]
    pub fn level_update(
        &mut self,
        ts: i64,
        symbol: &[u8],
        side: Side,
        flags: u8,
        price: u64,
        size: u32,
    ) {
        let stats = self.stats(symbol);
        stats.level_updates += 1;
        stats.buy_updates += u64::from(side == Side::Buy);
        stats.level_size_sum += u64::from(size);
        stats.level_price_sum = stats.level_price_sum.wrapping_add(price);
        stats.flags_sum += u64::from(flags);
        stats.ts_sum = stats.ts_sum.wrapping_add(ts);
        // Records carry the wire's i64 price as u64; this cast is its exact inverse.
        let price = price as i64;
        let (low, high) = match side {
            Side::Buy => (&mut stats.bid_low, &mut stats.bid_high),
            Side::Sell => (&mut stats.ask_low, &mut stats.ask_high),
        };
        *low = Some(low.map_or(price, |p| p.min(price)));
        *high = Some(high.map_or(price, |p| p.max(price)));
    }

    /// For decoders that hold a decoded [`Body`].
    #[inline]
    pub fn message(&mut self, ts: i64, symbol: &[u8], body: &Body) {
        match *body {
            Body::Trade { price, size } => self.trade(ts, symbol, price, size),
            Body::LevelUpdate { price, size, flags, side } => {
                self.level_update(ts, symbol, side, flags, price, size)
            }
        }
    }

    pub fn finish(self) -> Aggregate {
        Aggregate {
            records: self.records,
            messages: self.messages,
            seq_no_sum: self.seq_no_sum,
            symbols: self
                .symbols
                .into_iter()
                .map(|(symbol, stats)| {
                    (String::from_utf8_lossy(&symbol.bytes()).into_owned(), stats)
                })
                .collect(),
        }
    }
}

/// Names the first differing field: per symbol (in sorted order) first, then
/// the totals, e.g. `symbol MSFT: ts_sum expected 123, decoded 0`.
pub fn first_difference(expected: &Aggregate, actual: &Aggregate) -> Option<String> {
    // Symbols may hold quotes and control characters; escaped, the message stays one line.
    let name = |symbol: &str| symbol.escape_debug().to_string();
    for (symbol, want) in &expected.symbols {
        match actual.symbols.get(symbol) {
            None => {
                return Some(format!("symbol {}: missing from decoded aggregate", name(symbol)));
            }
            Some(got) => {
                if let Some(field) = first_field_difference(want, got) {
                    return Some(format!("symbol {}: {field}", name(symbol)));
                }
            }
        }
    }
    if let Some(symbol) =
        actual.symbols.keys().find(|symbol| !expected.symbols.contains_key(*symbol))
    {
        return Some(format!("symbol {}: decoded but absent from the reference", name(symbol)));
    }
    [
        ("records", expected.records, actual.records),
        ("messages", expected.messages, actual.messages),
        ("seq_no_sum", expected.seq_no_sum, actual.seq_no_sum),
    ]
    .into_iter()
    .find(|(_, want, got)| want != got)
    .map(|(field, want, got)| format!("{field} expected {want}, decoded {got}"))
}

/// `field expected x, decoded y` for the first field (by name) that differs;
/// through serde so that a field added to `SymbolStats` is compared without
/// being listed here.
fn first_field_difference(want: &SymbolStats, got: &SymbolStats) -> Option<String> {
    if want == got {
        return None;
    }
    let fields = |stats| match serde_json::to_value(stats) {
        Ok(serde_json::Value::Object(fields)) => fields,
        other => unreachable!("SymbolStats serializes as an object, not {other:?}"),
    };
    let (want, got) = (fields(want), fields(got));
    want.iter()
        .find(|(field, value)| got.get(*field) != Some(value))
        .map(|(field, value)| format!("{field} expected {value}, decoded {}", got[field]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_that_differ_only_in_trailing_zero_bytes_or_are_long_stay_apart() {
        let mut agg = Aggregator::default();
        let long = "\u{e9}".repeat(9);
        for symbol in ["A", "A\0", "A\0\0", long.as_str(), ""] {
            agg.trade(1, symbol.as_bytes(), 2, 3);
        }
        agg.trade(1, long.as_bytes(), 2, 3);
        let out = agg.finish();
        assert_eq!(out.symbols.len(), 5);
        assert_eq!(out.symbols[&long].trades, 2);
        assert_eq!(out.symbols["A\0"].trades, 1);
    }

    #[test]
    fn updates_track_min_and_max_per_side_and_every_field_sums() {
        let mut agg = Aggregator::default();
        agg.packet(7, 4);
        agg.trade(10, b"MSFT", 1_000_000, 100);
        agg.trade(11, b"MSFT", 1_000_100, 50);
        agg.level_update(12, b"MSFT", Side::Buy, 1, 900_000, 0);
        agg.level_update(13, b"MSFT", Side::Buy, 2, 950_000, 10);
        agg.packet(8, 1);
        agg.level_update(-1, b"AAPL", Side::Sell, 0, 1_500_000, 5);
        let out = agg.finish();
        assert_eq!((out.records, out.messages, out.seq_no_sum), (2, 5, 15));
        assert_eq!(
            out.symbols["MSFT"],
            SymbolStats {
                trades: 2,
                trade_volume: 150,
                trade_price_sum: 2_000_100,
                level_updates: 2,
                buy_updates: 2,
                level_size_sum: 10,
                level_price_sum: 1_850_000,
                flags_sum: 3,
                ts_sum: 46,
                bid_low: Some(900_000),
                bid_high: Some(950_000),
                ask_low: None,
                ask_high: None
            }
        );
        assert_eq!(out.symbols["AAPL"].ask_low, Some(1_500_000));
        assert_eq!(out.symbols["AAPL"].trade_volume, 0);
        assert_eq!(out.symbols["AAPL"].ts_sum, -1);
    }

    #[test]
    fn sums_wrap_instead_of_overflowing() {
        let mut agg = Aggregator::default();
        agg.packet(u64::MAX, 0);
        agg.packet(2, 0);
        agg.trade(i64::MAX, b"A", u64::MAX, 1);
        agg.trade(1, b"A", 2, 1);
        let out = agg.finish();
        assert_eq!(out.seq_no_sum, 1);
        assert_eq!((out.symbols["A"].ts_sum, out.symbols["A"].trade_price_sum), (i64::MIN, 1));
    }

    #[test]
    fn first_difference_names_the_symbol_and_the_field() {
        let run = |ts: i64, seq_no: u64| {
            let mut agg = Aggregator::default();
            agg.packet(seq_no, 2);
            agg.trade(1, b"A", 1, 1);
            agg.trade(ts, b"B\"", 1, 1);
            agg.finish()
        };
        let expected = run(123, 5);
        assert_eq!(first_difference(&expected, &expected), None);
        assert_eq!(
            first_difference(&expected, &run(0, 5)).unwrap(),
            "symbol B\\\": ts_sum expected 123, decoded 0"
        );
        assert_eq!(
            first_difference(&expected, &run(123, 4)).unwrap(),
            "seq_no_sum expected 5, decoded 4"
        );
        let mut extra = run(123, 5);
        extra.symbols.insert("C".into(), SymbolStats::default());
        assert_eq!(
            first_difference(&expected, &extra).unwrap(),
            "symbol C: decoded but absent from the reference"
        );
        assert_eq!(
            first_difference(&extra, &expected).unwrap(),
            "symbol C: missing from decoded aggregate"
        );
    }
}
