//! The windows a process times when the input holds more than it needs: a
//! stratified sample, one window from each of equal spans of the input, so
//! that its beginning, its end and its busiest stretches (which hold the most
//! windows) are all in. Every record is still encoded, decoded and validated
//! once, by the first process's validation pass; the timed passes then run on
//! the sample, held in memory (memory stays bounded: by the sample, not the input).

use anyhow::Result;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::document::Sampled;
use crate::input::{InMemory, Input};
use crate::workload::{Dataset, Workload};

/// The sample is the same in every process, so that processes differ by the
/// machine alone, not by the records they timed.
const SAMPLE_SEED: u64 = 0x5a3b1e;

/// The indices of the windows to time, in input order: one from each of
/// `wanted` equal stretches of `windows`; all of them when `wanted` is 0 or
/// not below `windows`.
pub fn stratified(windows: u64, wanted: u64) -> Vec<u64> {
    if wanted == 0 || wanted >= windows {
        return (0..windows).collect();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(SAMPLE_SEED);
    (0..wanted)
        .map(|stratum| {
            let start = stratum * windows / wanted;
            let end = (stratum + 1) * windows / wanted;
            rng.random_range(start..end)
        })
        .collect()
}

/// The windows `chosen` (as [`stratified`] gives them) of `input`, read into
/// memory in order, with their own reference aggregate: an input whose
/// windows are exactly those.
pub fn collect<W: Workload>(
    input: &dyn Input<W>,
    window: usize,
    chosen: &[u64],
) -> Result<(InMemory<W>, Sampled)>
where
    W::Record: Clone,
{
    let mut records = Vec::new();
    let mut reference = W::new_sink(&W::Aggregate::default());
    let mut reader = input.open()?;
    let mut index = 0u64;
    let mut wanted = chosen.iter().peekable();
    while let Some(read) = reader.next_window(window)? {
        if wanted.next_if(|&&w| w == index).is_some() {
            for &i in read.order {
                let record = &read.records[i as usize];
                W::feed(record, &mut reference);
                records.push(record.clone());
            }
        }
        index += 1;
    }
    let sampled =
        Sampled { windows: chosen.len() as u64, of_windows: index, records: records.len() as u64 };
    let dataset = Dataset::in_order(records, W::finish(reference), input.name());
    Ok((InMemory::generated(dataset), sampled))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_window_from_each_stretch_the_same_every_time() {
        let sample = stratified(1_000, 8);
        assert_eq!(sample.len(), 8);
        for (stratum, &w) in sample.iter().enumerate() {
            let stratum = stratum as u64;
            assert!((stratum * 125..(stratum + 1) * 125).contains(&w), "{sample:?}");
        }
        assert_eq!(sample, stratified(1_000, 8));
    }

    #[test]
    fn a_sample_as_large_as_the_input_is_the_input() {
        assert_eq!(stratified(5, 8), [0, 1, 2, 3, 4]);
        assert_eq!(stratified(5, 5), [0, 1, 2, 3, 4]);
        assert_eq!(stratified(5, 0), [0, 1, 2, 3, 4]);
        // Fewer stretches than windows: each stretch still holds one.
        let sample = stratified(9, 8);
        assert!(sample.windows(2).all(|w| w[0] < w[1]), "{sample:?}");
    }
}
