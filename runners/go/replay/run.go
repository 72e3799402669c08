package replay

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"shootout/harness"
	"shootout/registry"
	"shootout/workload"
)

// epoch is the origin of now. time.Since of a time.Time with a monotonic
// reading reads the monotonic clock only, so every time in a run is Go's
// monotonic clock, the same for both goroutines.
var epoch = time.Now()

// now is ns since epoch on the monotonic clock.
func now() int64 { return int64(time.Since(epoch)) }

const (
	// startWait is the producer's wait for the consumer after reading start.
	startWait = int64(time.Millisecond)
	// quiet ends a run whose last records never come: this long after the
	// producer has sent everything with nothing more arriving.
	quiet = int64(200 * time.Millisecond)
	// highestNs is the histograms' top: 3,600 s.
	highestNs = int64(3600 * time.Second)
)

// sizeClasses are the payload size classes' upper bounds, in bytes; a
// larger payload is in the last class, which has none.
var sizeClasses = [...]int{63, 127, 255, 511, 1023, 2047, 4095}

func sizeClass(payload int) int {
	for i, most := range sizeClasses {
		if payload <= most {
			return i
		}
	}
	return len(sizeClasses)
}

func newHistogram() *hdrhistogram.Histogram { return hdrhistogram.New(1, highestNs, 3) }

// link is a transport between the run's two goroutines. The producer calls
// buffer and send, the consumer poll and done; neither end ever blocks.
type link interface {
	// buffer is what the producer encodes the next record into (appending to
	// it: a transport's header is already there); false when the run stopped
	// while it waited for one.
	buffer(st *shared) ([]byte, bool)
	// send hands the encoded buffer over: record index, released at release
	// (ns since start).
	send(buf []byte, index int, release int64) error
	// poll returns the next record's payload, index and release time, or ok
	// false when none has come yet.
	poll() (payload []byte, index int, release int64, ok bool, err error)
	// done gives back the buffer of the record poll returned last.
	done()
}

// shared is what the producer and the consumer both touch during a run.
type shared struct {
	// released counts the records the producer has released.
	released atomic.Int64
	// start is the producer's reading of the clock (ns since epoch), -1 until read.
	start         atomic.Int64
	consumerReady atomic.Bool
	// sentAll is when the producer had sent every record (ns since
	// start), -1 until then.
	sentAll atomic.Int64
	stopped atomic.Bool
	// yieldCPU: with a single P, a spinning goroutine would hold it until
	// preempted, so every spin gives it up.
	yieldCPU bool

	mu  sync.Mutex
	err error
}

// fail records the run's first error and stops both goroutines.
func (st *shared) fail(err error) {
	st.mu.Lock()
	if st.err == nil {
		st.err = err
	}
	st.mu.Unlock()
	st.stopped.Store(true)
}

func (st *shared) spin() {
	if st.yieldCPU {
		runtime.Gosched()
	}
}

// run is one replay of the records span at speed (0: max) over link.
type run struct {
	shared
	records []workload.MultiMessage
	sendNs  []int64
	span    Span
	speed   float64
	busiest Span
	link    link
	pins    *pinner

	// The producer's.
	sent         uint64
	firstRelease int64
	allocStart   []metrics.Sample
	allocRead    bool
	// The consumer's.
	sink          *workload.IexSink
	got           []bool
	received      uint64
	lastDone      int64
	maxBacklog    int64
	latency, busy *hdrhistogram.Histogram
	sizes         [len(sizeClasses) + 1]*hdrhistogram.Histogram

	allocEnd []metrics.Sample
	gc       *GC
}

func newRun(records []workload.MultiMessage, plan *Plan, span Span, speed Speed, l link, pins *pinner) *run {
	r := &run{records: records, sendNs: plan.SendTimeNs, span: span, speed: speed.Factor, busiest: plan.Busiest,
		link: l, pins: pins, sink: workload.NewIexSink(), got: make([]bool, span.len()), latency: newHistogram(),
		allocStart: allocSamples(), allocEnd: allocSamples(), lastDone: -1}
	r.start.Store(-1)
	r.sentAll.Store(-1)
	r.yieldCPU = runtime.GOMAXPROCS(0) < 2
	if span.overlaps(plan.Busiest) {
		r.busy = newHistogram()
	}
	for i := range r.sizes {
		r.sizes[i] = newHistogram()
	}
	return r
}

// execute replays the run with fresh codecs, then validates what the sink
// received against the reference of exactly the records received.
func (r *run) execute(newCodec func() registry.IexCodec) {
	producer, consumer := newCodec(), newCodec()
	// The previous run's garbage is collected here, outside the run.
	runtime.GC()
	before := readGC()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		r.produce(producer)
	}()
	go func() {
		defer wg.Done()
		r.consume(consumer)
	}()
	wg.Wait()
	metrics.Read(r.allocEnd)
	r.gc = gcBetween(before, readGC())
	if r.err != nil {
		return
	}
	reference := workload.NewIexSink()
	for k, got := range r.got {
		if got {
			workload.IexSpec.Feed(&r.records[r.span.First+k], reference)
		}
	}
	if d := reference.Finish().FirstDifference(r.sink.Finish()); d != "" {
		r.err = fmt.Errorf("decoded data does not match the reference aggregate of the %d records received: %s", r.received, d)
	}
}

// thread locks the calling goroutine to its OS thread, for good: when the
// goroutine ends, so does the thread, and the core it was pinned to with it.
func (r *run) thread(role int) {
	runtime.LockOSThread()
	r.pins.pin(role)
}

// recovered, deferred, turns a panic in a codec into the run's error.
func (r *run) recovered(what string, index *int) {
	if p := recover(); p != nil {
		r.fail(fmt.Errorf("%s: the codec panicked %s it: %v", workload.Position(uint64(*index)), what, p))
	}
}

// produce releases each record at its time, encodes it into a transport
// buffer and hands it over.
func (r *run) produce(c registry.IexCodec) {
	r.thread(producer)
	index := r.span.First
	defer r.recovered("encoding", &index)
	for !r.consumerReady.Load() {
		r.spin()
	}
	start := now()
	r.start.Store(start)
	for now()-start < startWait {
		r.spin()
	}
	base, mid := r.sendNs[r.span.First], r.span.First+r.span.len()/2
	for ; index < r.span.End; index++ {
		if r.stopped.Load() {
			return
		}
		if index == mid {
			// The second half's allocations are counted from here; read
			// before the record's release time, which at a finite speed is
			// usually still to come.
			metrics.Read(r.allocStart)
			r.allocRead = true
		}
		var release int64
		if r.speed > 0 {
			release = startWait + int64(float64(r.sendNs[index]-base)/r.speed)
			// Busy-wait: a sleeping thread wakes tens of microseconds late.
			for now()-start < release {
				if r.stopped.Load() {
					return
				}
				r.spin()
			}
		} else {
			release = now() - start
		}
		if index == r.span.First {
			r.firstRelease = release
		}
		r.released.Add(1)
		buf, ok := r.link.buffer(&r.shared)
		if !ok {
			return
		}
		buf, err := c.Encode(buf, &r.records[index])
		if err != nil {
			r.fail(fmt.Errorf("%s: encoding failed: %w", workload.Position(uint64(index)), err))
			return
		}
		if err := r.link.send(buf, index, release); err != nil {
			r.fail(fmt.Errorf("%s: %w", workload.Position(uint64(index)), err))
			return
		}
		r.sent++
	}
	r.sentAll.Store(now() - start)
}

// consume busy-polls the link, decodes each record into the run's sink and
// records its latency, from its release to the end of its decode.
func (r *run) consume(c registry.IexCodec) {
	r.thread(consumer)
	index := r.span.First
	defer r.recovered("decoding", &index)
	r.consumerReady.Store(true)
	for r.start.Load() < 0 {
		if r.stopped.Load() {
			return
		}
		r.spin()
	}
	start := r.start.Load()
	for {
		payload, i, release, ok, err := r.link.poll()
		if err != nil {
			r.fail(err)
			return
		}
		if !ok {
			if r.stopped.Load() {
				return
			}
			// The last activity is the last record's done, a decode after
			// it arrived: close enough for a 200 ms silence.
			if sent := r.sentAll.Load(); sent >= 0 && now()-start-max(sent, r.lastDone) >= quiet {
				return
			}
			r.spin()
			continue
		}
		if !r.span.contains(i) || r.got[i-r.span.First] {
			r.fail(fmt.Errorf("received record %d: expected each record of %s at most once", i, r.span))
			return
		}
		index = i
		used, err := c.Decode(payload, r.sink)
		done := now() - start
		if err != nil {
			r.fail(fmt.Errorf("%s: decoding failed: %w", workload.Position(uint64(i)), err))
			return
		}
		if used != len(payload) {
			r.fail(fmt.Errorf("%s: decode used %d of the record's %d bytes", workload.Position(uint64(i)), used, len(payload)))
			return
		}
		latency := done - release
		harness.Record(r.latency, latency)
		if r.busiest.contains(i) {
			harness.Record(r.busy, latency)
		}
		harness.Record(r.sizes[sizeClass(len(payload))], latency)
		r.got[i-r.span.First] = true
		r.received++
		r.maxBacklog = max(r.maxBacklog, r.released.Load()-int64(r.received))
		r.lastDone = done
		r.link.done()
		if i == r.span.End-1 {
			return
		}
	}
}
