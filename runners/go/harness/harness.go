// Package harness measures codecs the way crates/shootout/src/benchmark does:
// each run is one pass over the dataset, window by window; in each window
// every format, in a shuffled order, encodes the window into one reused
// stream and decodes it back three times: a throughput pass timed as a whole,
// a latency pass timed per record, an allocation pass. In a measured run each
// further throughput round, in a new shuffled order, times the throughput pass
// again. Every pass's aggregate is checked against the dataset's reference at
// the end of every run.
package harness

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"shootout/codec"
	"shootout/workload"
)

// Settings cover one runner process; the Rust CLI (`shootout run`) decides how
// many processes to start, and so how many runs there are in all.
type Settings struct {
	WarmupRuns int `json:"warmup_runs"`
	// Exactly this many measured runs, after the warm-up runs.
	Runs int `json:"runs"`
	// Throughput passes over each window in a measured run: the first round
	// makes every pass of every format, each further one, in a new shuffled
	// order, times the throughput pass again. A run's ns/op is over all
	// rounds. Warm-up runs make one.
	ThroughputRounds int    `json:"throughput_rounds"`
	Window           int    `json:"window"`
	OrderSeed        uint64 `json:"order_seed"`
}

// Entry is one registry line for a workload: a codec constructor, or the
// reason the format does not run.
type Entry[R any, S any] struct {
	Info   codec.Info
	New    func() codec.Codec[R, S]
	NotRun string
}

// Source opens the input afresh for every pass.
type Source[R any] interface {
	Open() (Windows[R], error)
}

// Windows yields the input's records; an empty window is the end.
type Windows[R any] interface {
	Next(n int) ([]R, error)
	Close() error
}

type Failure struct {
	Reason    string  `json:"reason"`
	Run       int     `json:"run"`
	Operation *uint64 `json:"operation"`
	Position  *string `json:"position"`
}

// direction is one direction's accumulators over one run.
type direction struct {
	// The timed loops of every throughput round, and the operations in them.
	loopNs int64
	ops    uint64
	// loopNs round by round: in each round every format ran once, so the
	// statistics can take the machine's speed out of each.
	roundNs []int64
	latency *hdrhistogram.Histogram
	// The allocation pass's counts and operations: it makes one round.
	allocs, allocBytes, allocOps uint64
}

func newDirection(rounds int) direction {
	return direction{latency: hdrhistogram.New(1, 10_000_000_000, 3), roundNs: make([]int64, rounds)}
}

// timed adds one timed loop of round round (from 0).
func (d *direction) timed(round int, ns int64) {
	d.loopNs += ns
	d.roundNs[round] += ns
}

func (d *direction) record(ns int64) { Record(d.latency, ns) }

// Record adds ns to h, as h's highest trackable value when it is above it.
func Record(h *hdrhistogram.Histogram, ns int64) {
	if err := h.RecordValue(ns); err != nil {
		h.RecordValue(h.HighestTrackableValue())
	}
}

// EncodeHistogram is h as results files hold it: the base64 text of its V2
// compressed encoding (hdrhistogram-go's Encode writes the base64 itself).
func EncodeHistogram(h *hdrhistogram.Histogram) string {
	encoded, _ := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	return string(encoded)
}

// finish is the run's raw figures; the Rust CLI derives every statistic from them.
func (d *direction) finish(orderPosition float64) Run {
	allocOps := float64(max(d.allocOps, 1))
	return Run{TotalNs: d.loopNs, RoundNs: d.roundNs, Ops: d.ops, Histogram: EncodeHistogram(d.latency),
		AllocationsPerOp: float64(d.allocs) / allocOps, AllocatedBytesPerOp: float64(d.allocBytes) / allocOps,
		OrderPosition: orderPosition}
}

type runState[S any] struct {
	// The throughput, latency and allocation passes each decode into their own sink.
	sinks [3]S
	// The further throughput rounds' sinks (round 2 first), each its own too.
	roundSinks     []S
	encode, decode direction
	encodedBytes   uint64
	// Set in the first run only: every encoded window, fed to one compressor.
	compressed  *zstdCounter
	positionSum uint64
	windows     uint64
}

// Measurement is one measured run of one format.
type Measurement struct {
	Encode, Decode Run
}

type FormatRuns struct {
	Info         codec.Info
	Runs         []Measurement
	EncodedBytes uint64
	// The encoded windows through one zstd encoder at ZstdLevel.
	ZstdBytes uint64
	Failure   *Failure
}

type RunInfo struct {
	Index   int     `json:"index"`
	Warmup  bool    `json:"warmup"`
	Started string  `json:"started"`
	WallMs  float64 `json:"wall_ms"`
}

type Measured struct {
	Formats    []FormatRuns
	Runs       []RunInfo
	Operations uint64
}

var passes = [3]string{"throughput", "latency", "allocation"}

type windowError struct {
	op  int // -1: no single record to blame
	err error
}

type bench[R any, S any] struct {
	c     codec.Codec[R, S]
	timer Timer
	alloc allocCounter
}

// prepare makes the window's models of a codec.Preparer, untimed, before
// each of its passes over the window: another format's may have replaced
// them since.
func (b *bench[R, S]) prepare(records []R) {
	if p, ok := b.c.(codec.Preparer[R]); ok {
		p.Prepare(records)
	}
}

// decodeStream decodes the whole stream into sink; it must hold exactly n records.
func (b *bench[R, S]) decodeStream(stream []byte, sink S, n int, each func(body []byte, sink S) (int, error)) *windowError {
	off, decoded := 0, 0
	for off < len(stream) {
		used, err := each(stream[off:], sink)
		if err != nil {
			return &windowError{decoded, fmt.Errorf("decoding the window's stream at byte %d failed: %w", off, err)}
		}
		if used <= 0 || used > len(stream)-off {
			return &windowError{decoded, fmt.Errorf("decode reported %d bytes used at stream byte %d of %d", used, off, len(stream))}
		}
		off += used
		decoded++
	}
	if decoded != n {
		return &windowError{-1, fmt.Errorf("decoded %d records from a window of %d", decoded, n)}
	}
	return nil
}

func encodeErr(i int, err error) *windowError {
	return &windowError{i, fmt.Errorf("encoding failed: %w", err)}
}

// recovered, deferred, turns a panic in the codec, a bug in it, into a
// failure so the other formats go on.
func recovered(werr **windowError) {
	if p := recover(); p != nil {
		*werr = &windowError{-1, fmt.Errorf("codec panicked: %v", p)}
	}
}

// throughput is the throughput pass: the window encoded into s, emptied
// first, then decoded into sink, each loop timed as a whole, no clock inside.
// It returns the stream.
func (b *bench[R, S]) throughput(records []R, s []byte, sink S, st *runState[S], round int) ([]byte, *windowError) {
	c, n := b.c, len(records)
	s = s[:0]
	var err error
	start := time.Now()
	for i := range records {
		if s, err = c.Encode(s, &records[i]); err != nil {
			return s, encodeErr(i, err)
		}
	}
	st.encode.timed(round, int64(time.Since(start)))
	start = time.Now()
	if werr := b.decodeStream(s, sink, n, c.Decode); werr != nil {
		return s, werr
	}
	st.decode.timed(round, int64(time.Since(start)))
	st.encode.ops += uint64(n)
	st.decode.ops += uint64(n)
	return s, nil
}

// round is further throughput round round (from 1) over the window,
// decoding into that round's own sink.
func (b *bench[R, S]) round(records []R, stream *[]byte, round int, st *runState[S]) (werr *windowError) {
	defer recovered(&werr)
	b.prepare(records)
	*stream, werr = b.throughput(records, *stream, st.roundSinks[round-1], st, round)
	return werr
}

// window runs the three passes over one window: the first throughput round,
// the only one whose stream is counted and compressed.
func (b *bench[R, S]) window(records []R, stream *[]byte, st *runState[S]) (werr *windowError) {
	defer recovered(&werr)
	b.prepare(records)
	c, timer := b.c, b.timer
	n := len(records)

	s, werr := b.throughput(records, *stream, st.sinks[0], st, 0)
	if werr != nil {
		return werr
	}
	st.encodedBytes += uint64(len(s))
	if st.compressed != nil {
		if err := st.compressed.write(s); err != nil {
			return &windowError{-1, err}
		}
	}

	// Latency: one sample per record.
	s = s[:0]
	var err error
	for i := range records {
		start := time.Now()
		s, err = c.Encode(s, &records[i])
		ns := timer.Sample(start)
		if err != nil {
			return encodeErr(i, err)
		}
		st.encode.record(ns)
	}
	if werr := b.decodeStream(s, st.sinks[1], n, func(body []byte, sink S) (int, error) {
		start := time.Now()
		used, err := c.Decode(body, sink)
		st.decode.record(timer.Sample(start))
		return used, err
	}); werr != nil {
		return werr
	}

	// Allocations: counted around the whole loops, in their own pass.
	s = s[:0]
	before := b.alloc.read()
	for i := range records {
		if s, err = c.Encode(s, &records[i]); err != nil {
			return encodeErr(i, err)
		}
	}
	between := b.alloc.read()
	werr = b.decodeStream(s, st.sinks[2], n, c.Decode)
	after := b.alloc.read()
	*stream = s
	if werr != nil {
		return werr
	}
	st.encode.allocs += between.objects - before.objects
	st.encode.allocBytes += between.bytes - before.bytes
	st.decode.allocs += after.objects - between.objects
	st.decode.allocBytes += after.bytes - between.bytes
	st.encode.allocOps += uint64(n)
	st.decode.allocOps += uint64(n)
	return nil
}

// allocCounter reads the runtime's cumulative heap allocation counters.
// runtime.ReadMemStats, not runtime/metrics: metrics counts small objects only
// when their span leaves the P's cache, so a window's figure can be off by a
// span's worth per size class; ReadMemStats flushes the caches first (at the
// cost of stopping the world, outside every timed loop). The counters cover
// every goroutine, so the benchmark runs nothing else meanwhile.
type allocCounter struct{ stats *runtime.MemStats }

type allocs struct{ objects, bytes uint64 }

func newAllocCounter() allocCounter { return allocCounter{stats: new(runtime.MemStats)} }

func (a allocCounter) read() allocs {
	runtime.ReadMemStats(a.stats)
	return allocs{objects: a.stats.Mallocs, bytes: a.stats.TotalAlloc}
}

// Measure runs every runnable entry: settings.WarmupRuns warm-up runs, then
// exactly settings.Runs measured runs of settings.ThroughputRounds throughput
// rounds each. A format that fails is withheld from then on, with its
// failure; the others go on. Errors are the input's or the harness's, never a
// format's.
func Measure[R any, S any](src Source[R], spec workload.Spec[R, S], check func(S) string, entries []Entry[R, S],
	settings Settings, timer Timer, position func(uint64) string, progress func(string)) (*Measured, error) {
	if settings.Runs < 1 || settings.ThroughputRounds < 1 || settings.Window < 1 || settings.WarmupRuns < 0 {
		return nil, fmt.Errorf("runs %d, throughput rounds %d, window %d, warm-up runs %d: runs, rounds and window must be at least 1, warm-up runs at least 0",
			settings.Runs, settings.ThroughputRounds, settings.Window, settings.WarmupRuns)
	}
	ops, err := scan(src, spec, check, settings.Window)
	if err != nil {
		return nil, err
	}
	var benches []*bench[R, S]
	var results []FormatRuns
	for _, e := range entries {
		if e.New == nil {
			continue
		}
		benches = append(benches, &bench[R, S]{c: e.New(), timer: timer, alloc: newAllocCounter()})
		results = append(results, FormatRuns{Info: e.Info})
	}
	rng := rand.New(rand.NewPCG(settings.OrderSeed, 0x5eed))
	var stream []byte
	m := &Measured{Operations: ops}
	if settings.WarmupRuns == 0 {
		// Without a warm-up run each format does the first window once,
		// unmeasured, so the first measured window does not pay for growing buffers.
		if err := prime(src, spec, benches, results, &stream, settings.Window, position); err != nil {
			return nil, err
		}
	}
	order := make([]int, len(benches))
	shuffle := func() { rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] }) }
	total := settings.WarmupRuns + settings.Runs
	for run := range total {
		warmup := run < settings.WarmupRuns
		// A warm-up run brings caches and allocators to their steady state; more rounds would add nothing.
		rounds := settings.ThroughputRounds
		if warmup {
			rounds = 1
		}
		started := time.Now()
		states := make([]*runState[S], len(benches))
		for i := range states {
			states[i] = newRunState(spec, rounds)
			if run == 0 {
				states[i].compressed = newZstdCounter()
			}
		}
		in, err := src.Open()
		if err != nil {
			return nil, err
		}
		var done uint64
		for i := range order {
			order[i] = i
		}
		for {
			records, err := in.Next(settings.Window)
			if err != nil {
				in.Close()
				return nil, err
			}
			if len(records) == 0 {
				break
			}
			shuffle()
			pos := uint64(0)
			for _, f := range order {
				if results[f].Failure != nil {
					continue
				}
				st := states[f]
				st.positionSum += pos
				st.windows++
				pos++
				if werr := benches[f].window(records, &stream, st); werr != nil {
					results[f].Failure = failure(werr, run, done, position)
				}
			}
			for r := range rounds - 1 {
				shuffle()
				for _, f := range order {
					if results[f].Failure != nil {
						continue
					}
					if werr := benches[f].round(records, &stream, r+1, states[f]); werr != nil {
						results[f].Failure = failure(werr, run, done, position)
					}
				}
			}
			done += uint64(len(records))
		}
		in.Close()
		if done != ops {
			return nil, fmt.Errorf("the input changed during the benchmark (run %d read %d records, not %d)", run, done, ops)
		}
		for f := range results {
			r := &results[f]
			if r.Failure != nil {
				continue
			}
			st := states[f]
			if reason := st.mismatch(check); reason != "" {
				r.Failure = &Failure{Reason: reason, Run: run}
				continue
			}
			if run == 0 {
				r.EncodedBytes = st.encodedBytes
				if r.ZstdBytes, err = st.compressed.finish(); err != nil {
					return nil, err
				}
			}
			if !warmup {
				position := float64(st.positionSum) / float64(max(st.windows, 1))
				r.Runs = append(r.Runs, Measurement{Encode: st.encode.finish(position), Decode: st.decode.finish(position)})
			}
		}
		wall := time.Since(started)
		if progress != nil {
			progress(fmt.Sprintf("run %d of %d done (%s)", run+1, total,
				map[bool]string{true: "warm-up", false: "measured"}[warmup]))
		}
		m.Runs = append(m.Runs, RunInfo{Index: run, Warmup: warmup, Started: started.UTC().Format(time.RFC3339),
			WallMs: float64(wall.Nanoseconds()) / 1e6})
		runtime.GC()
	}
	m.Formats = results
	return m, nil
}

func newRunState[R any, S any](spec workload.Spec[R, S], rounds int) *runState[S] {
	st := &runState[S]{sinks: [3]S{spec.NewSink(), spec.NewSink(), spec.NewSink()}, encode: newDirection(rounds), decode: newDirection(rounds)}
	for range rounds - 1 {
		st.roundSinks = append(st.roundSinks, spec.NewSink())
	}
	return st
}

// mismatch checks every pass's aggregate, each further throughput round's
// too, against the reference: the first difference, described, or "".
func (st *runState[S]) mismatch(check func(S) string) string {
	for i, sink := range append(st.sinks[:], st.roundSinks...) {
		if d := check(sink); d != "" {
			pass := fmt.Sprintf("throughput round %d", i-len(passes)+2)
			if i < len(passes) {
				pass = passes[i]
			}
			return fmt.Sprintf("decoded data does not match the reference aggregate (%s pass): %s", pass, d)
		}
	}
	return ""
}

func failure(werr *windowError, run int, done uint64, position func(uint64) string) *Failure {
	f := &Failure{Reason: werr.err.Error(), Run: run}
	if werr.op >= 0 {
		op := done + uint64(werr.op)
		p := position(op)
		f.Operation, f.Position = &op, &p
	}
	return f
}

// scan is the first pass, no format: it checks that the records as read add
// up to the header's reference, so a reader bug cannot pass for a format's.
func scan[R any, S any](src Source[R], spec workload.Spec[R, S], check func(S) string, window int) (uint64, error) {
	in, err := src.Open()
	if err != nil {
		return 0, err
	}
	defer in.Close()
	sink := spec.NewSink()
	var n uint64
	for {
		records, err := in.Next(window)
		if err != nil {
			return 0, err
		}
		if len(records) == 0 {
			break
		}
		for i := range records {
			spec.Feed(&records[i], sink)
		}
		n += uint64(len(records))
	}
	if n == 0 {
		return 0, errors.New("no records to benchmark")
	}
	if d := check(sink); d != "" {
		return 0, fmt.Errorf("the records as read do not add up to the header's reference aggregate: %s", d)
	}
	return n, nil
}

func prime[R any, S any](src Source[R], spec workload.Spec[R, S], benches []*bench[R, S], results []FormatRuns, stream *[]byte, window int, position func(uint64) string) error {
	in, err := src.Open()
	if err != nil {
		return err
	}
	defer in.Close()
	records, err := in.Next(window)
	if err != nil {
		return err
	}
	for i, b := range benches {
		if werr := b.window(records, stream, newRunState(spec, 1)); werr != nil {
			results[i].Failure = failure(werr, 0, 0, position)
		}
	}
	return nil
}
