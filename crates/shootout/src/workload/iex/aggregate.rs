//! Per-symbol aggregate: traded volume and the lowest/highest quoted price per side.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use serde::Serialize;

use super::record::Side;

/// Prices are raw wire values (4 implied decimals); a side with no update is `None`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SymbolStats {
    pub trade_volume: u64,
    pub bid_low: Option<i64>,
    pub bid_high: Option<i64>,
    pub ask_low: Option<i64>,
    pub ask_high: Option<i64>,
}

pub type Aggregate = BTreeMap<String, SymbolStats>;

/// Accumulates decoded messages. Keyed by symbol bytes so the steady state never
/// allocates: a symbol's first sighting is the only insertion.
#[derive(Debug, Default)]
pub struct Aggregator {
    symbols: FxHashMap<Box<[u8]>, SymbolStats>,
}

impl Aggregator {
    pub fn with_capacity(symbols: usize) -> Self {
        Aggregator { symbols: FxHashMap::with_capacity_and_hasher(symbols, Default::default()) }
    }

    fn stats(&mut self, symbol: &[u8]) -> &mut SymbolStats {
        if !self.symbols.contains_key(symbol) {
            self.symbols.insert(symbol.into(), SymbolStats::default());
        }
        self.symbols.get_mut(symbol).expect("inserted above")
    }

    #[inline]
    pub fn trade(&mut self, symbol: &[u8], _price: u64, size: u32) {
        self.stats(symbol).trade_volume += u64::from(size);
    }

    /// Every update counts, size-0 deletions included.
    #[inline]
    pub fn level_update(&mut self, symbol: &[u8], side: Side, price: u64, _size: u32) {
        // Records carry the wire's i64 price as u64; this cast is its exact inverse.
        let price = price as i64;
        let stats = self.stats(symbol);
        let (low, high) = match side {
            Side::Buy => (&mut stats.bid_low, &mut stats.bid_high),
            Side::Sell => (&mut stats.ask_low, &mut stats.ask_high),
        };
        *low = Some(low.map_or(price, |p| p.min(price)));
        *high = Some(high.map_or(price, |p| p.max(price)));
    }

    pub fn finish(self) -> Aggregate {
        self.symbols
            .into_iter()
            .map(|(symbol, stats)| (String::from_utf8_lossy(&symbol).into_owned(), stats))
            .collect()
    }
}

/// Names the first symbol (in sorted order) whose figures differ.
pub fn first_difference(expected: &Aggregate, actual: &Aggregate) -> Option<String> {
    for (symbol, want) in expected {
        match actual.get(symbol) {
            None => return Some(format!("symbol {symbol}: missing from decoded aggregate")),
            Some(got) if got != want => {
                return Some(format!("symbol {symbol}: expected {want:?}, decoded {got:?}"));
            }
            Some(_) => {}
        }
    }
    actual
        .keys()
        .find(|symbol| !expected.contains_key(*symbol))
        .map(|symbol| format!("symbol {symbol}: decoded but absent from the reference"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_track_min_and_max_per_side_and_trades_sum() {
        let mut agg = Aggregator::default();
        agg.trade(b"MSFT", 1_000_000, 100);
        agg.trade(b"MSFT", 1_000_100, 50);
        agg.level_update(b"MSFT", Side::Buy, 900_000, 0);
        agg.level_update(b"MSFT", Side::Buy, 950_000, 10);
        agg.level_update(b"AAPL", Side::Sell, 1_500_000, 5);
        let out = agg.finish();
        assert_eq!(
            out["MSFT"],
            SymbolStats {
                trade_volume: 150,
                bid_low: Some(900_000),
                bid_high: Some(950_000),
                ask_low: None,
                ask_high: None
            }
        );
        assert_eq!(out["AAPL"].ask_low, Some(1_500_000));
        assert_eq!(out["AAPL"].trade_volume, 0);
    }

    #[test]
    fn first_difference_names_the_symbol() {
        let mut a = Aggregator::default();
        a.trade(b"A", 1, 1);
        a.trade(b"B", 1, 1);
        let expected = a.finish();
        let mut b = Aggregator::default();
        b.trade(b"A", 1, 1);
        b.trade(b"B", 1, 2);
        let actual = b.finish();
        let diff = first_difference(&expected, &actual).unwrap();
        assert!(diff.starts_with("symbol B:"), "{diff}");
        assert_eq!(first_difference(&expected, &expected), None);
    }
}
