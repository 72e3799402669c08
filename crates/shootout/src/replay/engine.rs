//! One replay run: a producer thread releases records at their scheduled
//! times and hands their bytes over a transport to a consumer thread, which
//! decodes each and times it from its scheduled release to the end of its
//! decode, so a record queued behind a slow one carries the wait
//! (docs/replay.md, "Replaying one run").

use std::hint::spin_loop;
use std::net::UdpSocket;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Barrier, Mutex, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use crate::alloc::{self, Allocations};
use crate::benchmark::{DynCodec, Registered};
use crate::caught::quietly;
use crate::document::HISTOGRAM_LIMITS;
use crate::workload::Workload;

/// How records travel from the producer thread to the consumer thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// `rtrb` single-producer single-consumer rings between two threads.
    Ring,
    /// One datagram per record over loopback UDP.
    Udp,
}

impl Transport {
    pub fn name(self) -> &'static str {
        match self {
            Transport::Ring => "ring",
            Transport::Udp => "udp",
        }
    }
}

/// When each record is released.
#[derive(Clone, Copy)]
pub enum Schedule<'a> {
    /// Nanoseconds after the run's origin, one per record, non-decreasing.
    Paced(&'a [u64]),
    /// Each record as soon as the producer gets to it.
    Max,
}

/// Payload sizes at which one size class ends; larger payloads form the last class.
pub const SIZE_CLASSES: [u64; 7] = [63, 127, 255, 511, 1023, 2047, 4095];

/// Records the ring holds at once (buffers in flight).
const RING_RECORDS: usize = 1024;
/// What a ring buffer is sized for up front, so its growth is not counted
/// as the codec's allocations: the largest datagram.
const BUFFER_BYTES: usize = 64 * 1024;
/// Index (u32 LE) and release time (u64 LE) before each datagram's payload.
const UDP_HEADER: usize = 12;
/// The largest IPv4 UDP payload.
const MAX_DATAGRAM: usize = 65_507;
/// What the receiving socket asks for.
pub const UDP_RECEIVE_BUFFER: usize = 4 << 20;
/// How long the consumer waits for more datagrams once everything was sent.
const UDP_QUIET: Duration = Duration::from_millis(200);
/// Between the threads being ready and the first release.
const LEAD: Duration = Duration::from_millis(1);

/// What the threads are pinned to.
pub struct Pinning {
    producer: Option<core_affinity::CoreId>,
    consumer: Option<core_affinity::CoreId>,
    pub description: String,
}

impl Pinning {
    pub fn for_this_machine() -> Pinning {
        match core_affinity::get_core_ids() {
            Some(ids) if ids.len() >= 2 => Pinning {
                description: format!(
                    "producer on core {}, consumer on core {} (core_affinity)",
                    ids[0].id, ids[1].id
                ),
                producer: Some(ids[0]),
                consumer: Some(ids[1]),
            },
            Some(ids) => Pinning {
                producer: None,
                consumer: None,
                description: format!("not pinned: {} core available", ids.len()),
            },
            None => Pinning {
                producer: None,
                consumer: None,
                description: "not pinned: the core list is not readable here".to_owned(),
            },
        }
    }

    fn pin(core: Option<core_affinity::CoreId>) {
        if let Some(core) = core {
            // A refusal leaves the thread where the OS put it; the figures stay valid.
            core_affinity::set_for_current(core);
        }
    }
}

/// One run's setting: which records, when, over what.
pub struct Run<'a, W: Workload> {
    pub format: &'a Registered<W>,
    pub records: &'a [W::Record],
    pub schedule: Schedule<'a>,
    /// The busiest second's records, as indices into `records`.
    pub busiest: Range<usize>,
    pub transport: Transport,
    /// [`reference()`] of `records`, computed once for all the runs over them.
    pub reference: &'a W::Aggregate,
}

/// What one run recorded (docs/replay.md, `shootout-replay-runs/1`).
pub struct Recorded {
    pub sent: u64,
    pub received: u64,
    pub duration_ns: u64,
    pub max_backlog: u64,
    pub latency: Histogram<u64>,
    /// None when the run holds none of the busiest second's records.
    pub busiest: Option<Histogram<u64>>,
    /// One per class of [`SIZE_CLASSES`] plus the last, empty ones included.
    pub sizes: Vec<Histogram<u64>>,
    /// Each thread's allocations in steady state: the run's second half.
    pub producer: Steady,
    pub consumer: Steady,
    pub error: Option<String>,
}

/// Allocations over the records of a run's second half that a thread handled.
#[derive(Debug, Clone, Copy, Default)]
pub struct Steady {
    pub records: u64,
    pub allocations: Allocations,
}

pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(HISTOGRAM_LIMITS.lowest_ns, HISTOGRAM_LIMITS.highest_ns, 3)
        .expect("valid histogram bounds")
}

fn size_class(bytes: usize) -> usize {
    SIZE_CLASSES.iter().position(|&top| bytes as u64 <= top).unwrap_or(SIZE_CLASSES.len())
}

/// What both threads share.
#[derive(Default)]
struct Shared {
    origin: OnceLock<Instant>,
    released: AtomicU64,
    abort: AtomicBool,
    producer_done: AtomicBool,
    /// The run's error, and whether it is a thread's panic.
    error: Mutex<Option<(String, bool)>>,
}

impl Shared {
    fn fail(&self, error: String) {
        self.record(error, false);
    }

    /// A panic is the cause of what the other thread sees next (its socket
    /// closed as the panicking thread unwound, before this is recorded), so it
    /// takes the place of an error recorded before it.
    fn fail_panicked(&self, error: String) {
        self.record(error, true);
    }

    fn record(&self, error: String, panic: bool) {
        let mut first = self.error.lock().unwrap_or_else(|e| e.into_inner());
        if first.as_ref().is_none_or(|(_, earlier_panic)| panic && !earlier_panic) {
            *first = Some((error, panic));
        }
        self.abort.store(true, Ordering::SeqCst);
    }

    fn since_origin(origin: Instant) -> u64 {
        Instant::now().saturating_duration_since(origin).as_nanos() as u64
    }
}

/// Replays `run` once and returns what it recorded, validated against the
/// reference aggregate of the records that arrived.
pub fn replay<W>(run: &Run<'_, W>, pinning: &Pinning) -> Recorded
where
    W: Workload,
    W::Record: Sync,
    W::Aggregate: Send + Sync,
{
    let shared = Shared::default();
    let (outbox, inbox) = match open(run.transport) {
        Ok(ends) => ends,
        Err(error) => return Recorded::failed(format!("{error:#}")),
    };
    let barrier = Barrier::new(2);
    let _counting = alloc::Counting::start();
    // Each thread meets the other at the barrier whatever its codec does, and
    // a panic in either (a library's, on hostile bytes) is the run's error
    // and stops the other, which would otherwise wait for it forever.
    let (produced, consumed) = std::thread::scope(|scope| {
        let producer = scope.spawn(|| {
            Pinning::pin(pinning.producer);
            let codec = quietly(|| run.format.codec());
            barrier.wait();
            let produced = codec
                .and_then(|codec| quietly(|| produce(run, codec, outbox, &shared)))
                .unwrap_or_else(|panic| {
                    shared.fail_panicked(format!("the producer panicked: {panic}"));
                    Produced::default()
                });
            shared.producer_done.store(true, Ordering::SeqCst);
            produced
        });
        let consumer = scope.spawn(|| {
            Pinning::pin(pinning.consumer);
            let codec = quietly(|| run.format.codec());
            barrier.wait();
            codec.and_then(|codec| quietly(|| consume(run, codec, inbox, &shared))).unwrap_or_else(
                |panic| {
                    shared.fail_panicked(format!("the consumer panicked: {panic}"));
                    Consumed::new(run.records.len())
                },
            )
        });
        (producer.join(), consumer.join())
    });
    let (Ok(produced), Ok(consumed)) = (produced, consumed) else {
        return Recorded::failed("a replay thread panicked".to_owned());
    };
    let error =
        shared.error.into_inner().unwrap_or_else(|e| e.into_inner()).map(|(error, _)| error);
    let mut recorded = Recorded {
        sent: produced.sent,
        received: consumed.received,
        duration_ns: consumed.last_done_ns.saturating_sub(produced.first_release_ns),
        max_backlog: consumed.max_backlog,
        latency: consumed.latency,
        busiest: (!run.busiest.is_empty()).then_some(consumed.busiest),
        sizes: consumed.sizes,
        producer: produced.steady,
        consumer: consumed.steady,
        error,
    };
    if recorded.error.is_none() {
        recorded.error = validate(run, &consumed.arrived, consumed.aggregate);
    }
    recorded
}

impl Recorded {
    pub fn failed(error: String) -> Recorded {
        Recorded {
            sent: 0,
            received: 0,
            duration_ns: 0,
            max_backlog: 0,
            latency: new_histogram(),
            busiest: None,
            sizes: Vec::new(),
            producer: Steady::default(),
            consumer: Steady::default(),
            error: Some(error),
        }
    }
}

/// The aggregate a correct consumer reaches on `records`.
pub fn reference<'a, W: Workload>(records: impl IntoIterator<Item = &'a W::Record>) -> W::Aggregate
where
    W::Record: 'a,
{
    let mut sink = W::new_sink(&W::Aggregate::default());
    for record in records {
        W::feed(record, &mut sink);
    }
    W::finish(sink)
}

/// The consumer's aggregate against the reference of exactly the records that
/// arrived: the run's own when all of them did.
fn validate<W: Workload>(
    run: &Run<'_, W>,
    arrived: &[bool],
    aggregate: Option<W::Aggregate>,
) -> Option<String> {
    let aggregate = aggregate?;
    let partial;
    let reference = if arrived.iter().all(|a| *a) {
        run.reference
    } else {
        let records = run.records.iter().zip(arrived).filter(|(_, a)| **a).map(|(r, _)| r);
        partial = reference::<W>(records);
        &partial
    };
    W::first_difference(reference, &aggregate).map(|d| format!("validation: {d}"))
}

#[derive(Default)]
struct Produced {
    sent: u64,
    first_release_ns: u64,
    steady: Steady,
}

fn produce<W: Workload>(
    run: &Run<'_, W>,
    codec: Option<Box<dyn DynCodec<W>>>,
    mut outbox: Outbox,
    shared: &Shared,
) -> Produced {
    let origin = Instant::now() + LEAD;
    shared.origin.set(origin).expect("only the producer sets the origin");
    let mut produced = Produced { sent: 0, first_release_ns: 0, steady: Steady::default() };
    let Some(mut codec) = codec else {
        shared.fail(format!("{} does not run on {}", run.format.info.name, W::NAME));
        return produced;
    };
    let half = run.records.len() / 2;
    let mut steady_from = alloc::snapshot();
    while Instant::now() < origin {
        spin_loop();
    }
    for (index, record) in run.records.iter().enumerate() {
        if shared.abort.load(Ordering::Relaxed) {
            break;
        }
        if index == half {
            steady_from = alloc::snapshot();
        }
        let release_ns = match run.schedule {
            Schedule::Paced(offsets) => {
                let due = offsets[index];
                while Shared::since_origin(origin) < due && !shared.abort.load(Ordering::Relaxed) {
                    spin_loop();
                }
                due
            }
            Schedule::Max => Shared::since_origin(origin),
        };
        if index == 0 {
            produced.first_release_ns = release_ns;
        }
        shared.released.fetch_add(1, Ordering::Relaxed);
        if let Err(error) = outbox.send(index as u32, release_ns, codec.as_mut(), record, shared) {
            shared.fail(format!("record {index}: {error:#}"));
            break;
        }
        produced.sent += 1;
    }
    produced.steady = Steady {
        records: produced.sent.saturating_sub(half as u64),
        allocations: alloc::snapshot() - steady_from,
    };
    produced
}

struct Consumed<W: Workload> {
    received: u64,
    last_done_ns: u64,
    max_backlog: u64,
    latency: Histogram<u64>,
    busiest: Histogram<u64>,
    sizes: Vec<Histogram<u64>>,
    arrived: Vec<bool>,
    steady_received: u64,
    steady: Steady,
    /// None when the run failed before the end.
    aggregate: Option<W::Aggregate>,
}

impl<W: Workload> Consumed<W> {
    /// Nothing consumed yet of a run of `n` records.
    fn new(n: usize) -> Consumed<W> {
        Consumed {
            received: 0,
            last_done_ns: 0,
            max_backlog: 0,
            latency: new_histogram(),
            busiest: new_histogram(),
            sizes: (0..=SIZE_CLASSES.len()).map(|_| new_histogram()).collect(),
            arrived: vec![false; n],
            steady_received: 0,
            steady: Steady::default(),
            aggregate: None,
        }
    }
}

fn consume<W: Workload>(
    run: &Run<'_, W>,
    codec: Option<Box<dyn DynCodec<W>>>,
    mut inbox: Inbox,
    shared: &Shared,
) -> Consumed<W> {
    let n = run.records.len();
    let mut consumed = Consumed::<W>::new(n);
    let reference = W::Aggregate::default();
    let mut sink = W::new_sink(&reference);
    let Some(mut codec) = codec else { return consumed };
    let origin = loop {
        if let Some(origin) = shared.origin.get() {
            break *origin;
        }
        if shared.abort.load(Ordering::Relaxed) {
            return consumed;
        }
        spin_loop();
    };
    let half = n / 2;
    let mut steady_from = None;
    let mut quiet_since: Option<Instant> = None;
    // A run of no records has none to wait for.
    let mut last_arrived = n == 0;
    while !last_arrived {
        // Read before polling: whatever the producer sent before it was done is then in the inbox.
        let producer_done = shared.producer_done.load(Ordering::SeqCst);
        let polled = inbox.poll(|index, release_ns, payload| {
            let index = index as usize;
            if index >= n {
                bail!("a record numbered {index} arrived; the run has {n}");
            }
            if index >= half && steady_from.is_none() {
                steady_from = Some(alloc::snapshot());
            }
            let used =
                codec.decode(payload, &mut sink).with_context(|| format!("record {index}"))?;
            let done = Instant::now();
            if used != payload.len() {
                bail!("record {index}: decode used {used} of its {} bytes", payload.len());
            }
            let done_ns = done.saturating_duration_since(origin).as_nanos() as u64;
            let latency = done_ns.saturating_sub(release_ns).max(1);
            consumed.latency.saturating_record(latency);
            if run.busiest.contains(&index) {
                consumed.busiest.saturating_record(latency);
            }
            consumed.sizes[size_class(payload.len())].saturating_record(latency);
            consumed.received += 1;
            consumed.arrived[index] = true;
            consumed.last_done_ns = done_ns;
            let backlog = shared.released.load(Ordering::Relaxed).saturating_sub(consumed.received);
            consumed.max_backlog = consumed.max_backlog.max(backlog);
            if index >= half {
                consumed.steady_received += 1;
            }
            last_arrived = index + 1 == n;
            Ok(())
        });
        match polled {
            Ok(true) => quiet_since = None,
            Ok(false) => {
                if shared.abort.load(Ordering::Relaxed) {
                    break;
                }
                if producer_done && !inbox.may_lose() {
                    // The ring is empty and its producer gone: nothing more will come.
                    shared.fail(format!(
                        "the producer stopped; {} of the {n} records arrived",
                        consumed.received
                    ));
                    break;
                }
                if producer_done {
                    let since = *quiet_since.get_or_insert_with(Instant::now);
                    if since.elapsed() > UDP_QUIET {
                        break;
                    }
                }
                spin_loop();
            }
            Err(error) => {
                shared.fail(format!("{error:#}"));
                break;
            }
        }
    }
    consumed.steady = Steady {
        records: consumed.steady_received,
        allocations: steady_from.map_or_else(Allocations::default, |from| alloc::snapshot() - from),
    };
    if !shared.abort.load(Ordering::SeqCst) {
        consumed.aggregate = Some(W::finish(sink));
    }
    consumed
}

/// The producer's and the consumer's ends of a new transport.
fn open(transport: Transport) -> Result<(Outbox, Inbox)> {
    match transport {
        Transport::Ring => {
            let (to_consumer, filled) = rtrb::RingBuffer::<Filled>::new(RING_RECORDS);
            let (mut free, from_consumer) = rtrb::RingBuffer::<Vec<u8>>::new(RING_RECORDS);
            for _ in 0..RING_RECORDS {
                free.push(Vec::with_capacity(BUFFER_BYTES)).expect("the ring holds every buffer");
            }
            Ok((
                Outbox::Ring { free: from_consumer, filled: to_consumer },
                Inbox::Ring { filled, free },
            ))
        }
        Transport::Udp => {
            let receiver =
                UdpSocket::bind("127.0.0.1:0").context("cannot bind a UDP socket on 127.0.0.1")?;
            socket2::SockRef::from(&receiver)
                .set_recv_buffer_size(UDP_RECEIVE_BUFFER)
                .context("cannot size the UDP receive buffer")?;
            receiver.set_nonblocking(true).context("cannot make the UDP socket non-blocking")?;
            let sender =
                UdpSocket::bind("127.0.0.1:0").context("cannot bind a UDP socket on 127.0.0.1")?;
            sender
                .connect(receiver.local_addr()?)
                .context("cannot connect the UDP sender to its receiver")?;
            Ok((
                Outbox::Udp {
                    socket: sender,
                    record: Vec::with_capacity(BUFFER_BYTES),
                    datagram: Vec::with_capacity(BUFFER_BYTES),
                },
                Inbox::Udp { socket: receiver, datagram: vec![0; BUFFER_BYTES] },
            ))
        }
    }
}

/// What the UDP receive buffer was granted, for the results.
pub fn granted_udp_receive_buffer() -> Result<usize> {
    let socket = UdpSocket::bind("127.0.0.1:0").context("cannot bind a UDP socket")?;
    let socket = socket2::SockRef::from(&socket);
    socket.set_recv_buffer_size(UDP_RECEIVE_BUFFER)?;
    Ok(socket.recv_buffer_size()?)
}

struct Filled {
    index: u32,
    release_ns: u64,
    bytes: Vec<u8>,
}

enum Outbox {
    Ring {
        free: rtrb::Consumer<Vec<u8>>,
        filled: rtrb::Producer<Filled>,
    },
    /// `record`: the record alone, encoded into an empty buffer as on the ring.
    Udp {
        socket: UdpSocket,
        record: Vec<u8>,
        datagram: Vec<u8>,
    },
}

impl Outbox {
    /// Encodes `record` into a transport buffer and hands it over.
    fn send<W: Workload>(
        &mut self,
        index: u32,
        release_ns: u64,
        codec: &mut dyn DynCodec<W>,
        record: &W::Record,
        shared: &Shared,
    ) -> Result<()> {
        match self {
            Outbox::Ring { free, filled } => {
                let mut bytes = loop {
                    match free.pop() {
                        Ok(bytes) => break bytes,
                        Err(_) if shared.abort.load(Ordering::Relaxed) => bail!("run aborted"),
                        Err(_) => spin_loop(),
                    }
                };
                bytes.clear();
                codec.encode(record, &mut bytes)?;
                // Never full: it has a slot for every buffer there is.
                if filled.push(Filled { index, release_ns, bytes }).is_err() {
                    unreachable!("the ring has a slot for every buffer");
                }
                Ok(())
            }
            Outbox::Udp { socket, record: alone, datagram } => {
                // Into an empty buffer first, as on the ring: a codec that
                // starts a window on an empty stream (DBN's symbol mappings)
                // then makes each datagram stand alone.
                alone.clear();
                codec.encode(record, alone)?;
                datagram.clear();
                datagram.extend_from_slice(&index.to_le_bytes());
                datagram.extend_from_slice(&release_ns.to_le_bytes());
                datagram.extend_from_slice(alone);
                if datagram.len() > MAX_DATAGRAM {
                    bail!(
                        "{} bytes encoded, more than one datagram carries ({} after the {UDP_HEADER}-byte header)",
                        datagram.len() - UDP_HEADER,
                        MAX_DATAGRAM - UDP_HEADER
                    );
                }
                socket.send(datagram).context("cannot send the datagram")?;
                Ok(())
            }
        }
    }
}

enum Inbox {
    Ring { filled: rtrb::Consumer<Filled>, free: rtrb::Producer<Vec<u8>> },
    Udp { socket: UdpSocket, datagram: Vec<u8> },
}

impl Inbox {
    /// Hands the next record, if one is there, to `handle` (index, release
    /// time, payload); `Ok(false)` when nothing had arrived.
    fn poll(&mut self, handle: impl FnOnce(u32, u64, &[u8]) -> Result<()>) -> Result<bool> {
        match self {
            Inbox::Ring { filled, free } => {
                let Ok(Filled { index, release_ns, bytes }) = filled.pop() else {
                    return Ok(false);
                };
                let handled = handle(index, release_ns, &bytes);
                // Room for it: every buffer came from this ring.
                let _ = free.push(bytes);
                handled.map(|()| true)
            }
            Inbox::Udp { socket, datagram } => match socket.recv(datagram) {
                Ok(len) if len < UDP_HEADER => {
                    bail!(
                        "a datagram of {len} bytes arrived, shorter than the {UDP_HEADER}-byte header"
                    )
                }
                Ok(len) => {
                    let index = u32::from_le_bytes(datagram[..4].try_into().expect("4 bytes"));
                    let release_ns =
                        u64::from_le_bytes(datagram[4..12].try_into().expect("8 bytes"));
                    handle(index, release_ns, &datagram[UDP_HEADER..len]).map(|()| true)
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => Ok(false),
                Err(e) => Err(e).context("cannot receive a datagram"),
            },
        }
    }

    /// Whether records may be lost on the way, so the consumer must stop on silence.
    fn may_lose(&self) -> bool {
        matches!(self, Inbox::Udp { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::bincode::Bincode;
    use crate::format::{Codec, Family, Format, FormatInfo, Framing};
    use crate::workload::iex::{Iex, MultiMessage};

    /// Bincode, whose decode stalls once, for `STALL`, on the `STALLED`th record.
    struct Stalling {
        inner: Bincode,
        decoded: usize,
    }

    const STALL: Duration = Duration::from_millis(30);
    const STALLED: usize = 20;

    impl Format for Stalling {
        const INFO: FormatInfo = FormatInfo {
            name: "stalling",
            family: Family::NotAFormat("test"),
            library: "bincode",
            labels: Bincode::INFO.labels,
            notes: "bincode, stalling once",
            wire: None,
            framing: Framing::U32le,
        };
    }

    impl Codec<Iex> for Stalling {
        fn new() -> Self {
            Stalling { inner: <Bincode as Codec<Iex>>::new(), decoded: 0 }
        }

        fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
            <Bincode as Codec<Iex>>::encode(&mut self.inner, record, stream)
        }

        fn decode(&mut self, stream: &[u8], sink: &mut <Iex as Workload>::Sink) -> Result<usize> {
            if self.decoded == STALLED {
                std::thread::sleep(STALL);
            }
            self.decoded += 1;
            <Bincode as Codec<Iex>>::decode(&mut self.inner, stream, sink)
        }
    }

    /// Bincode, whose encode (or decode) panics on the `PANICKED`th record,
    /// as a library may on hostile bytes.
    struct Panicking<const IN_DECODE: bool> {
        inner: Bincode,
        records: usize,
    }

    const PANICKED: usize = 30;

    impl<const IN_DECODE: bool> Format for Panicking<IN_DECODE> {
        const INFO: FormatInfo = FormatInfo {
            name: "panicking",
            family: Family::NotAFormat("test"),
            library: "bincode",
            labels: Bincode::INFO.labels,
            notes: "bincode, panicking once",
            wire: None,
            framing: Framing::U32le,
        };
    }

    impl<const IN_DECODE: bool> Codec<Iex> for Panicking<IN_DECODE> {
        fn new() -> Self {
            Panicking { inner: <Bincode as Codec<Iex>>::new(), records: 0 }
        }

        fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
            self.records += usize::from(!IN_DECODE);
            assert!(IN_DECODE || self.records != PANICKED, "encode gave up");
            <Bincode as Codec<Iex>>::encode(&mut self.inner, record, stream)
        }

        fn decode(&mut self, stream: &[u8], sink: &mut <Iex as Workload>::Sink) -> Result<usize> {
            self.records += usize::from(IN_DECODE);
            assert!(!IN_DECODE || self.records != PANICKED, "decode gave up");
            <Bincode as Codec<Iex>>::decode(&mut self.inner, stream, sink)
        }
    }

    /// A thread that dies leaves none spinning: the run ends, failed with
    /// the panic's message, on either transport.
    #[test]
    fn a_panic_in_either_thread_ends_the_run_with_its_message() {
        let records = records(200);
        let offsets: Vec<u64> = (0..records.len() as u64).map(|i| i * 10_000).collect();
        for (format, said) in [
            (Registered::of::<Panicking<false>>(), "the producer panicked: encode gave up"),
            (Registered::of::<Panicking<true>>(), "the consumer panicked: decode gave up"),
        ] {
            for transport in [Transport::Ring, Transport::Udp] {
                for schedule in [Schedule::Max, Schedule::Paced(&offsets)] {
                    let recorded = run(&format, &records, schedule, transport);
                    let error = recorded.error.unwrap_or_default();
                    assert!(error.starts_with(said), "{transport:?}: {error}");
                    assert!(recorded.received < 200, "{transport:?}");
                }
            }
        }
    }

    /// The consumer's panic closes its socket as it unwinds, and the producer's
    /// next send can fail before the panic is recorded: the panic is the
    /// run's error all the same, and a later error does not replace it.
    #[test]
    fn a_panic_takes_the_place_of_the_error_it_caused() {
        let shared = Shared::default();
        shared.fail("record 123: cannot send the datagram".to_owned());
        shared.fail_panicked("the consumer panicked: decode gave up".to_owned());
        shared.fail("record 124: cannot send the datagram".to_owned());
        shared.fail_panicked("the producer panicked: later".to_owned());
        let error = shared.error.into_inner().unwrap().map(|(error, _)| error);
        assert_eq!(error.as_deref(), Some("the consumer panicked: decode gave up"));
        assert!(shared.abort.into_inner());
    }

    /// A run of no records ends at once: the consumer waits for no last one.
    #[test]
    fn a_run_of_no_records_ends() {
        let format = Registered::of::<Bincode>();
        for transport in [Transport::Ring, Transport::Udp] {
            let recorded = run(&format, &[], Schedule::Max, transport);
            assert_eq!((recorded.error, recorded.received), (None, 0), "{transport:?}");
        }
    }

    fn records(n: usize) -> Vec<MultiMessage> {
        let sample = crate::workload::iex::sample_dataset().records;
        sample.iter().cycle().take(n).cloned().collect()
    }

    fn run<'a>(
        format: &'a Registered<Iex>,
        records: &'a [MultiMessage],
        schedule: Schedule<'a>,
        transport: Transport,
    ) -> Recorded {
        let reference = reference::<Iex>(records);
        let run = Run {
            format,
            records,
            schedule,
            busiest: 0..records.len(),
            transport,
            reference: &reference,
        };
        replay(&run, &Pinning::for_this_machine())
    }

    /// Records released every millisecond; one decode stalls 30 ms. The
    /// records released during the stall waited behind it, and their
    /// latencies say so: about 30 of them over 10 ms, where a closed loop
    /// (timing each decode alone) would show one slow record.
    #[test]
    fn a_stall_is_spread_over_the_records_that_queued_behind_it() {
        let format = Registered::of::<Stalling>();
        let records = records(100);
        let offsets: Vec<u64> = (0..records.len() as u64).map(|i| i * 1_000_000).collect();
        for transport in [Transport::Ring, Transport::Udp] {
            let recorded = run(&format, &records, Schedule::Paced(&offsets), transport);
            assert_eq!(recorded.error, None, "{transport:?}");
            assert_eq!(recorded.received, 100, "{transport:?}");
            let slow = recorded.latency.count_between(10_000_000, u64::MAX);
            assert!(
                slow >= 10,
                "{transport:?}: {slow} records over 10 ms, expected the stall spread over 10 or more"
            );
            assert!(recorded.latency.max() >= STALL.as_nanos() as u64, "{transport:?}");
        }
    }

    #[test]
    fn a_run_records_every_record_once_and_validates() {
        let format = Registered::of::<Bincode>();
        let records = records(500);
        for transport in [Transport::Ring, Transport::Udp] {
            let recorded = run(&format, &records, Schedule::Max, transport);
            assert_eq!(recorded.error, None, "{transport:?}");
            assert_eq!(recorded.sent, 500);
            if transport == Transport::Ring {
                assert_eq!(recorded.received, 500);
            }
            assert_eq!(recorded.latency.len(), recorded.received);
            assert_eq!(recorded.busiest.as_ref().map(Histogram::len), Some(recorded.received));
            let by_size: u64 = recorded.sizes.iter().map(Histogram::len).sum();
            assert_eq!(by_size, recorded.received);
            assert!(recorded.max_backlog >= 1 && recorded.max_backlog <= 500);
            assert_eq!(recorded.producer.records, 250);
        }
    }

    #[test]
    fn a_wrong_decode_fails_the_run_with_its_first_difference() {
        // Stalling's records, read back by plain bincode: the same bytes, so
        // valid; a codec that loses a field is caught by the aggregate instead.
        let format = Registered::of::<Bincode>();
        let mut records = records(50);
        let recorded = run(&format, &records, Schedule::Max, Transport::Ring);
        assert_eq!(recorded.error, None);
        // Validation against changed records: the aggregate of the records
        // sent no longer matches, whether all of them arrived (the run's own
        // reference) or one was lost (the reference of those that arrived),
        // and that of exactly the records that arrived does.
        let (all_sent, also_all_sent) = (reference::<Iex>(&records), reference::<Iex>(&records));
        records[3].seq_no += 1;
        let changed = reference::<Iex>(&records);
        let run = Run {
            format: &format,
            records: &records,
            schedule: Schedule::Max,
            busiest: 0..0,
            transport: Transport::Ring,
            reference: &changed,
        };
        let mut arrived = vec![true; records.len()];
        let error = validate(&run, &arrived, Some(all_sent)).expect("a difference");
        assert!(error.starts_with("validation: "), "{error}");
        arrived[10] = false;
        let error = validate(&run, &arrived, Some(also_all_sent)).expect("a difference");
        assert!(error.starts_with("validation: "), "{error}");
        let but_the_lost = records.iter().enumerate().filter(|(i, _)| *i != 10).map(|(_, r)| r);
        let consumed = reference::<Iex>(but_the_lost);
        assert_eq!(validate(&run, &arrived, Some(consumed)), None, "the records that arrived");
    }
}
