//! The passes `run --instructions` counts: each format, window by window,
//! encodes the window and decodes it back, each pass inside a call to
//! [`shootout_counted_region`], the one function Callgrind is told to count
//! (`--toggle-collect`) and to dump after (`--dump-after`): one dump per
//! pass, in the order of the [`Region`]s returned. Outside Valgrind the
//! region is a plain call, so this runs (uncounted) anywhere.

use anyhow::{Result, ensure};
use serde::{Deserialize, Serialize};

use super::{Bench, Registered, scan};
use crate::input::Input;
use crate::workload::Workload;

/// The function whose every call Callgrind counts on its own: its name is
/// what `--toggle-collect` and `--dump-after` match, so it is not mangled.
pub const REGION_FUNCTION: &str = "shootout_counted_region";

/// Runs `pass`; under Callgrind with [`REGION_FUNCTION`] toggled, only the
/// instructions executed in here are collected, and a dump follows each call.
/// Never inlined: the call is what Callgrind sees.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn shootout_counted_region(pass: &mut dyn FnMut()) {
    pass();
}

/// Encode or decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pass {
    Encode,
    Decode,
}

/// One call of the counted region: which format made which pass over how many records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    pub format: String,
    pub pass: Pass,
    pub ops: u64,
}

/// A format the passes could not count, and why (it failed to encode, to
/// decode, or decoded wrong values).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Uncounted {
    pub format: String,
    pub reason: String,
}

/// What the counted passes made: every region in call order (one Callgrind
/// dump each), and the formats whose regions are to be set aside.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Counted {
    pub regions: Vec<Region>,
    pub failed: Vec<Uncounted>,
}

/// Every runnable format's encode and decode passes over `input`, window by
/// window, each pass inside [`shootout_counted_region`]. Before its first
/// counted pass, each format encodes and decodes the first window once
/// outside the region, so lazy initialisation and buffer growth are not
/// counted. The counted decodes are validated against the reference at the end.
pub fn count<W: Workload>(
    input: &dyn Input<W>,
    formats: &[Registered<W>],
    window: usize,
) -> Result<Counted> {
    ensure!(window > 0, "--window must be at least 1");
    let (scanned, _) = scan(input, window, &mut |_| {})?;
    ensure!(scanned.operations > 0, "{}: no records to count", input.name());
    let reference = &scanned.reference;
    let mut formats: Vec<Counting<W>> = formats
        .iter()
        .filter_map(|f| {
            let make = f.make.as_ref().ok()?;
            Some(Counting {
                name: f.info.name,
                bench: make(),
                sink: W::new_sink(reference),
                stream: Vec::new(),
                warmed: false,
                failure: None,
            })
        })
        .collect();
    let mut counted = Counted::default();
    let mut reader = input.open()?;
    while let Some(window) = reader.next_window(window)? {
        let records = window.order.len();
        for format in formats.iter_mut().filter(|f| f.failure.is_none()) {
            let Counting { name, bench, sink, stream, warmed, failure } = format;
            if !*warmed {
                *warmed = true;
                let mut warm_sink = W::new_sink(reference);
                let warm_up = bench
                    .encode_window(&window, stream)
                    .and_then(|()| bench.decode_window(stream, records, &mut warm_sink));
                if let Err(e) = warm_up {
                    *failure = Some(format!("{:#}", e.error));
                    continue;
                }
            }
            let mut outcome = Ok(());
            shootout_counted_region(&mut || outcome = bench.encode_window(&window, stream));
            counted.regions.push(Region {
                format: name.to_string(),
                pass: Pass::Encode,
                ops: records as u64,
            });
            if let Err(e) = outcome {
                *failure = Some(format!("{:#}", e.error));
                continue;
            }
            shootout_counted_region(&mut || outcome = bench.decode_window(stream, records, sink));
            counted.regions.push(Region {
                format: name.to_string(),
                pass: Pass::Decode,
                ops: records as u64,
            });
            if let Err(e) = outcome {
                *failure = Some(format!("{:#}", e.error));
            }
        }
    }
    reader.finish()?;
    for format in formats {
        let failure = format.failure.or_else(|| {
            W::first_difference(reference, &W::finish(format.sink)).map(|difference| {
                format!("decoded data does not match the reference aggregate: {difference}")
            })
        });
        if let Some(reason) = failure {
            counted.failed.push(Uncounted { format: format.name.to_owned(), reason });
        }
    }
    Ok(counted)
}

/// One format's state over the counted passes.
struct Counting<W: Workload> {
    name: &'static str,
    bench: Box<dyn Bench<W>>,
    /// Every counted decode's aggregate, checked at the end.
    sink: W::Sink,
    stream: Vec<u8>,
    /// The first window was encoded and decoded once, uncounted.
    warmed: bool,
    failure: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmark::baseline::Baseline;
    use crate::input::InMemory;
    use crate::workload::iex::{Iex, sample_dataset};

    #[test]
    fn every_window_of_every_format_is_one_encode_region_then_one_decode_region() {
        let input = InMemory::generated(sample_dataset());
        let records = sample_dataset().order.len() as u64;
        let formats =
            [Registered::of::<crate::format::sbe::Sbe>(), Registered::of::<Baseline<Iex>>()];
        let counted = count(&input, &formats, 2).unwrap();
        assert!(counted.failed.is_empty(), "{:?}", counted.failed);
        for name in ["sbe", "baseline"] {
            for pass in [Pass::Encode, Pass::Decode] {
                let ops: u64 = counted
                    .regions
                    .iter()
                    .filter(|r| r.format == name && r.pass == pass)
                    .map(|r| r.ops)
                    .sum();
                assert_eq!(ops, records, "{name} {pass:?}");
            }
        }
        // Window by window, each format's encode region comes just before its decode region.
        for pair in counted.regions.chunks(2) {
            assert_eq!((pair[0].pass, pair[1].pass), (Pass::Encode, Pass::Decode));
            assert_eq!(pair[0].format, pair[1].format);
        }
    }
}
