//! Where a run's records come from: an input opened once per pass and read in
//! windows, so memory stays bounded whatever its size.

use crate::document::{CsvSize, InputFile};
use crate::workload::jsonl::schema::RecordSchemas;
use crate::workload::{Dataset, Workload};
use anyhow::Result;

/// A window of operations: indices into `records`, in operation order.
pub struct Window<'a, W: Workload> {
    pub records: &'a [W::Record],
    pub order: &'a [u32],
}

/// A source of records that can be read several times (one pass per run).
/// `Sync`: the validation pass reads an input from several threads at once.
pub trait Input<W: Workload>: Sync {
    /// For the results: the file, or how the data was generated.
    fn name(&self) -> String;
    fn open(&self) -> Result<Box<dyn Reader<W> + '_>>;
    /// Where operation `op` (0-based, in input order) came from, for failure messages.
    fn position(&self, op: u64) -> String {
        format!("record {op}")
    }
    /// The schemas its records are typed by (`jsonl` with `--schema`, `csv`),
    /// for the hand-off; `None` when there are none.
    fn record_schemas(&self) -> Option<RecordSchemas> {
        None
    }
}

pub trait Reader<W: Workload> {
    /// The next window of at most `max` operations; `None` after the last.
    fn next_window(&mut self, max: usize) -> Result<Option<Window<'_, W>>>;
    /// Input bytes read so far, and the total when known.
    fn progress(&self) -> (u64, Option<u64>);
    /// After the last window: the reference aggregate, computed from the
    /// source and not through any format, and what the pass learnt of the input.
    fn finish(self: Box<Self>) -> Result<Scanned<W>>;
}

/// What one whole pass over the input found.
pub struct Scanned<W: Workload> {
    pub reference: W::Aggregate,
    pub operations: u64,
    pub file: Option<InputFile>,
    pub warnings: Vec<String>,
    /// The source CSV's size, for tabular workloads.
    pub csv: Option<CsvSize>,
}

/// Generated records held in memory: a pool the operations pick from.
/// Windows are slices of the operation order.
pub struct InMemory<W: Workload> {
    pub dataset: Dataset<W>,
}

impl<W: Workload> InMemory<W> {
    pub fn generated(dataset: Dataset<W>) -> Self {
        InMemory { dataset }
    }
}

impl<W: Workload> Input<W> for InMemory<W>
where
    W::Aggregate: Clone,
{
    fn name(&self) -> String {
        self.dataset.source.clone()
    }

    fn open(&self) -> Result<Box<dyn Reader<W> + '_>> {
        Ok(Box::new(InMemoryReader { input: self, next: 0 }))
    }
}

struct InMemoryReader<'a, W: Workload> {
    input: &'a InMemory<W>,
    next: usize,
}

impl<W: Workload> Reader<W> for InMemoryReader<'_, W>
where
    W::Aggregate: Clone,
{
    fn next_window(&mut self, max: usize) -> Result<Option<Window<'_, W>>> {
        let order = &self.input.dataset.order;
        if self.next >= order.len() {
            return Ok(None);
        }
        let end = (self.next + max.max(1)).min(order.len());
        let window = Window { records: &self.input.dataset.records, order: &order[self.next..end] };
        self.next = end;
        Ok(Some(window))
    }

    fn progress(&self) -> (u64, Option<u64>) {
        (self.next as u64, Some(self.input.dataset.order.len() as u64))
    }

    fn finish(self: Box<Self>) -> Result<Scanned<W>> {
        let input = self.input;
        Ok(Scanned {
            reference: input.dataset.reference.clone(),
            operations: input.dataset.order.len() as u64,
            file: None,
            warnings: Vec::new(),
            csv: None,
        })
    }
}

/// The first `max` operations of another input (`--max-records`). Its
/// reference is fed from the records delivered, since the input's own covers them all.
pub struct Limited<'a, W: Workload> {
    pub inner: &'a dyn Input<W>,
    pub max: u64,
}

impl<'a, W: Workload> Limited<'a, W> {
    /// `input` itself, or its first `max` records when a maximum is given (the
    /// wrapper kept in `slot`, which the caller owns).
    pub fn first<'s>(
        input: &'a dyn Input<W>,
        max: Option<u64>,
        slot: &'s mut Option<Limited<'a, W>>,
    ) -> &'s dyn Input<W>
    where
        'a: 's,
    {
        match max {
            Some(max) => slot.insert(Limited { inner: input, max }),
            None => input,
        }
    }
}

impl<W: Workload> Input<W> for Limited<'_, W> {
    fn name(&self) -> String {
        format!("the first {} records of {}", self.max, self.inner.name())
    }

    fn open(&self) -> Result<Box<dyn Reader<W> + '_>> {
        let reference = W::new_sink(&W::Aggregate::default());
        Ok(Box::new(LimitedReader {
            inner: self.inner.open()?,
            left: self.max,
            delivered: 0,
            reference,
        }))
    }

    fn position(&self, op: u64) -> String {
        self.inner.position(op)
    }

    fn record_schemas(&self) -> Option<RecordSchemas> {
        self.inner.record_schemas()
    }
}

struct LimitedReader<'a, W: Workload> {
    inner: Box<dyn Reader<W> + 'a>,
    left: u64,
    delivered: u64,
    reference: W::Sink,
}

impl<W: Workload> Reader<W> for LimitedReader<'_, W> {
    fn next_window(&mut self, max: usize) -> Result<Option<Window<'_, W>>> {
        if self.left == 0 {
            return Ok(None);
        }
        let max = max.min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let Some(window) = self.inner.next_window(max)? else {
            return Ok(None);
        };
        let order = &window.order[..window.order.len().min(max)];
        for &i in order {
            W::feed(&window.records[i as usize], &mut self.reference);
        }
        self.left -= order.len() as u64;
        self.delivered += order.len() as u64;
        Ok(Some(Window { records: window.records, order }))
    }

    fn progress(&self) -> (u64, Option<u64>) {
        self.inner.progress()
    }

    fn finish(self: Box<Self>) -> Result<Scanned<W>> {
        let reference = W::finish(self.reference);
        Ok(Scanned {
            reference,
            operations: self.delivered,
            file: None,
            warnings: Vec::new(),
            csv: None,
        })
    }
}

/// Operation order `0..n` for windows read straight from a file, grown once.
pub fn in_file_order(order: &mut Vec<u32>, n: usize) -> &[u32] {
    if order.len() < n {
        order.extend(order.len() as u32..n as u32);
    }
    &order[..n]
}
