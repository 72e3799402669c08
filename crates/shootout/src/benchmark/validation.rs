//! The validation pass that precedes a sample's timed runs: every record of
//! the input encoded and decoded once by every format and checked against the
//! reference, untimed. On a large input it is most of a run's time (a
//! 5,000,000-packet capture: minutes of encoding and decoding), so the formats
//! are shared out among the machine's cores, each core reading the input for
//! itself; it is over before the first timed pass starts. It also feeds the
//! streams to zstd: every window of an input of up to
//! [`Sampled::COMPRESSED_WHOLE_UP_TO`] windows; beyond, compressing every
//! format's whole stream would take as long again as encoding it, so only a
//! block of windows from each sampled one on, whose ratio the whole input's
//! bytes are given at.

use std::io::Write;
use std::thread;

use anyhow::{Result, bail};

use super::{Bench, MakeBench, RunState, Timer, validate};
use crate::document::{Failure, Sampled};
use crate::input::Input;
use crate::workload::Workload;

/// What the validation pass found of one format.
pub struct Validated {
    /// The whole input's stream, summed over windows.
    pub encoded_bytes: u64,
    /// The streams of the windows compressed, summed, and what one zstd
    /// compressor fed them window by window made of them.
    compressed_bytes: u64,
    zstd_bytes: u64,
    pub failure: Option<Failure>,
}

impl Validated {
    /// The whole stream's zstd size: measured when every window was
    /// compressed, else at the ratio of those that were.
    pub fn zstd_bytes(&self) -> u64 {
        if self.compressed_bytes == self.encoded_bytes {
            return self.zstd_bytes;
        }
        let ratio = self.zstd_bytes as f64 / self.compressed_bytes.max(1) as f64;
        (self.encoded_bytes as f64 * ratio).round() as u64
    }
}

/// What the validation pass reads: the input, its reference and how many
/// records it holds, in `windows` windows of `window` records, of which
/// `sampled` (in input order) are the ones the timed passes run on.
pub struct Whole<'i, W: Workload> {
    pub input: &'i dyn Input<W>,
    pub reference: &'i W::Aggregate,
    pub operations: u64,
    pub window: usize,
    pub windows: u64,
    pub sampled: &'i [u64],
}

/// Whether window `index` of `windows` goes to zstd, `sampled` being the timed ones.
fn compressed(windows: u64, sampled: &[u64], index: u64) -> bool {
    windows <= Sampled::COMPRESSED_WHOLE_UP_TO
        || sampled.iter().any(|&w| (w..w + Sampled::COMPRESSED_BLOCK).contains(&index))
}

/// Every format of `makes` over every record of `whole`, one result per
/// format in the same order. `on_window`: the records of each window done
/// (by the formats of the calling thread's share).
pub fn validate_whole<W: Workload>(
    whole: &Whole<'_, W>,
    makes: &[&MakeBench<W>],
    timer: &Timer,
    mut on_window: impl FnMut(u64),
) -> Result<Vec<Validated>> {
    let threads =
        thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, makes.len().max(1));
    // Round robin, so that each share holds formats from every part of the registry.
    let shares: Vec<Vec<usize>> =
        (0..threads).map(|t| (t..makes.len()).step_by(threads).collect()).collect();
    let found = thread::scope(|scope| {
        let helpers: Vec<_> = shares[1..]
            .iter()
            .map(|share| scope.spawn(move || validate_share(whole, makes, share, timer, |_| {})))
            .collect();
        let mut found = vec![validate_share(whole, makes, &shares[0], timer, &mut on_window)];
        for helper in helpers {
            found.push(helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        found
    });
    let mut by_format: Vec<Option<Validated>> = makes.iter().map(|_| None).collect();
    for (share, found) in shares.iter().zip(found) {
        for (&f, validated) in share.iter().zip(found?) {
            by_format[f] = Some(validated);
        }
    }
    Ok(by_format.into_iter().map(|v| v.expect("every format is in one share")).collect())
}

/// One thread's share: its formats made afresh (the timed passes' own stay
/// untouched), the input read once, every window through every format.
fn validate_share<W: Workload>(
    whole: &Whole<'_, W>,
    makes: &[&MakeBench<W>],
    share: &[usize],
    timer: &Timer,
    mut on_window: impl FnMut(u64),
) -> Result<Vec<Validated>> {
    let mut benches: Vec<Box<dyn Bench<W>>> = share.iter().map(|&f| makes[f]()).collect();
    let mut states: Vec<RunState<W>> =
        share.iter().map(|_| RunState::new(whole.reference, false, 1)).collect::<Result<_>>()?;
    let mut compressors = share
        .iter()
        .map(|_| zstd::stream::write::Encoder::new(super::ByteCount::default(), super::ZSTD_LEVEL))
        .collect::<std::io::Result<Vec<_>>>()?;
    let mut compressed_bytes = vec![0u64; share.len()];
    let mut failures: Vec<Option<Failure>> = share.iter().map(|_| None).collect();
    let mut stream = Vec::new();
    let mut reader = whole.input.open()?;
    let (mut done, mut index) = (0u64, 0u64);
    while let Some(window) = reader.next_window(whole.window)? {
        let compressed = compressed(whole.windows, whole.sampled, index);
        for (k, bench) in benches.iter_mut().enumerate() {
            if failures[k].is_some() {
                continue;
            }
            if let Err(e) = bench.validation(&window, &mut stream, &mut states[k], timer) {
                failures[k] = Some(e.into_failure(whole.input, 0, done));
                continue;
            }
            // `stream` holds the window as this format encoded it.
            if compressed {
                compressed_bytes[k] += stream.len() as u64;
                compressors[k].write_all(&stream)?;
            }
        }
        done += window.order.len() as u64;
        index += 1;
        on_window(window.order.len() as u64);
    }
    let read = reader.finish()?;
    if W::first_difference(whole.reference, &read.reference).is_some()
        || read.operations != whole.operations
    {
        bail!(
            "{}: the input changed during the benchmark (the validation pass read different records)",
            whole.input.name()
        );
    }
    let mut found = Vec::with_capacity(share.len());
    for ((state, compressor), (failure, compressed_bytes)) in
        states.into_iter().zip(compressors).zip(failures.into_iter().zip(compressed_bytes))
    {
        let encoded_bytes = state.encoded_bytes;
        let failure = failure
            .or_else(|| validate::<W>(state.sinks, state.round_sinks, true, whole.reference, 0));
        found.push(Validated {
            encoded_bytes,
            compressed_bytes,
            zstd_bytes: compressor.finish()?.0,
            failure,
        });
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_input_is_compressed_whole_a_large_one_from_each_sampled_window_on() {
        let small = Sampled::COMPRESSED_WHOLE_UP_TO;
        assert!((0..small).all(|index| compressed(small, &[3], index)));
        let large = small + 1;
        let from: Vec<u64> =
            (0..large).filter(|&index| compressed(large, &[3, 200], index)).collect();
        let block = Sampled::COMPRESSED_BLOCK;
        assert_eq!(from, (3..3 + block).chain(200..200 + block).collect::<Vec<_>>());
    }

    #[test]
    fn zstd_bytes_are_measured_when_every_window_was_compressed_else_at_their_ratio() {
        let found = |compressed_bytes, zstd_bytes| Validated {
            encoded_bytes: 1_000,
            compressed_bytes,
            zstd_bytes,
            failure: None,
        };
        assert_eq!(found(1_000, 333).zstd_bytes(), 333);
        assert_eq!(found(100, 25).zstd_bytes(), 250);
    }
}
