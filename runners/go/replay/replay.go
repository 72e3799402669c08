// Package replay is the Go runner's side of `shootout replay`
// (docs/replay.md): it replays an IEX dataset's records at their own send
// times, scaled by each run's speed, from a producer goroutine to a consumer
// goroutine over a ring of channels or loopback UDP, times each record from
// its scheduled release to the end of its decode, and writes the raw
// figures (shootout-replay-runs/1). The Rust command computes every
// statistic from them.
package replay

import (
	"fmt"
	"runtime"
	"slices"

	"shootout/harness"
	"shootout/registry"
	"shootout/workload"
)

// RunsSchema is the results' schema (docs/replay.md).
const RunsSchema = "shootout-replay-runs/1"

// Results is a shootout-replay-runs/1 file.
type Results struct {
	Schema     string            `json:"schema"`
	Language   string            `json:"language"`
	Versions   map[string]string `json:"versions"`
	Clock      string            `json:"clock"`
	Pinning    string            `json:"pinning"`
	Transports map[string]string `json:"transports"`
	Runs       []Run             `json:"runs"`
}

// Run is one format × transport × plan run. A run that never started (the
// format does not run on iex, its warm-up failed, its transport could not
// be set up) has no histograms (null), no sizes, allocations or gc, and its
// error; a run that failed midway has its figures up to the failure.
type Run struct {
	Format      string       `json:"format"`
	Transport   string       `json:"transport"`
	Speed       Speed        `json:"speed"`
	First       int          `json:"first"`
	End         int          `json:"end"`
	Sent        uint64       `json:"sent"`
	Received    uint64       `json:"received"`
	DurationNs  int64        `json:"duration_ns"`
	MaxBacklog  int64        `json:"max_backlog"`
	Latency     *string      `json:"latency"`
	Busiest     *string      `json:"busiest"`
	Sizes       []SizeClass  `json:"sizes"`
	Allocations []Allocation `json:"allocations"`
	GC          *GC          `json:"gc"`
	Error       *string      `json:"error"`
}

// SizeClass is the latencies of the records whose payload is at most
// MaxBytes (nil: the largest class, without bound).
type SizeClass struct {
	MaxBytes  *int   `json:"max_bytes"`
	Histogram string `json:"histogram"`
}

// Allocation is the allocations over a run's second half; Go cannot
// attribute them to a goroutine, so Who is "process".
type Allocation struct {
	Who     string  `json:"who"`
	Records uint64  `json:"records"`
	Count   *uint64 `json:"count"`
	Bytes   *uint64 `json:"bytes"`
}

// GC is the collections during a run and their pauses (see gcBetween).
type GC struct {
	Collections  uint64 `json:"collections"`
	PauseTotalNs uint64 `json:"pause_total_ns"`
	PauseMaxNs   uint64 `json:"pause_max_ns"`
}

// Options are the command line's.
type Options struct {
	Dataset, Plan string
	// Formats are the names asked for, in order; none: every Go format that
	// runs on iex.
	Formats []string
}

// UsageError is a bad command line (exit status 2), as opposed to a bad
// file or an I/O failure.
type UsageError struct{ error }

// format is one format to replay: its codec constructor, or why it cannot run.
type format struct {
	name, library string
	new           func() registry.IexCodec
	notRun        string
}

// Replay reads the dataset and the plan, checks them, and replays every
// format asked for. Errors are the input's or the command line's; a run's
// failure is in its entry.
func Replay(o Options, progress func(string)) (*Results, error) {
	records, err := loadDataset(o.Dataset)
	if err != nil {
		return nil, err
	}
	plan, err := ReadPlan(o.Plan, o.Dataset, len(records))
	if err != nil {
		return nil, err
	}
	formats, err := choose(o.Formats)
	if err != nil {
		return nil, err
	}
	return replay(records, plan, formats, progress), nil
}

// choose is the formats named, in order, or every Go format with an iex codec.
func choose(names []string) ([]format, error) {
	entries := registry.Entries(workload.IexSpec)
	// The baseline is no format: it hands records over in slots its encoder
	// and decoder share, not as bytes, so it has nothing to send.
	entries = slices.DeleteFunc(slices.Clone(entries), func(e harness.Entry[workload.MultiMessage, *workload.IexSink]) bool {
		return e.Info.Name == harness.BaselineName
	})
	var formats []format
	if len(names) == 0 {
		for _, e := range entries {
			formats = append(formats, format{name: e.Info.Name, library: e.Info.Library, new: e.New})
		}
		return formats, nil
	}
	var notRun []harness.NotRun
	for _, w := range registry.Workloads {
		if w.Name == workload.IexSpec.Name {
			notRun = w.NotRun()
		}
	}
	for _, n := range names {
		if i := slices.IndexFunc(entries, func(e harness.Entry[workload.MultiMessage, *workload.IexSink]) bool { return e.Info.Name == n }); i >= 0 {
			formats = append(formats, format{name: n, library: entries[i].Info.Library, new: entries[i].New})
			continue
		}
		f := format{name: n}
		if i := slices.IndexFunc(notRun, func(x harness.NotRun) bool { return x.Name == n }); i >= 0 {
			f.notRun = fmt.Sprintf("format %s does not run the iex workload in the go runner: %s", n, notRun[i].Reason)
		} else if n == harness.BaselineName {
			f.notRun = "the baseline hands records over in slots its encoder and decoder share, not as bytes: it has nothing to send"
		} else {
			return nil, UsageError{fmt.Errorf("--formats: no format %q in the go runner", n)}
		}
		formats = append(formats, f)
	}
	return formats, nil
}

// transportDescriptions say what each transport is, for the results.
func transportDescriptions(names []string) map[string]string {
	out := map[string]string{}
	for _, t := range names {
		switch t {
		case Ring:
			out[t] = fmt.Sprintf("two buffered Go channels of %d transport buffers each, filled ones to the consumer and emptied ones back "+
				"(nothing allocated per record once the buffers have grown); both ends poll with select and default, "+
				"the consumer busy-polling, neither ever blocks", ringCapacity)
		case UDP:
			out[t] = describeUDP()
		}
	}
	return out
}

// replay replays every format on every transport of the plan: a warm-up,
// then every run in order.
func replay(records []workload.MultiMessage, plan *Plan, formats []format, progress func(string)) *Results {
	pins := newPinner()
	res := &Results{Schema: RunsSchema, Language: "go", Clock: "time.Now (monotonic)",
		Versions:   map[string]string{"go": runtime.Version()},
		Transports: transportDescriptions(plan.Transports), Runs: []Run{}}
	for _, library := range []string{"github.com/HdrHistogram/hdrhistogram-go", "golang.org/x/sys"} {
		res.Versions[library] = registry.Version(library)
	}
	for _, f := range formats {
		if f.new != nil {
			res.Versions[f.library] = registry.Version(f.library)
		}
		for _, t := range plan.Transports {
			res.Runs = append(res.Runs, replayFormat(records, plan, f, t, pins, progress)...)
		}
	}
	res.Pinning = pins.String()
	return res
}

// replayFormat is one format's warm-up and runs on one transport.
func replayFormat(records []workload.MultiMessage, plan *Plan, f format, transport string, pins *pinner, progress func(string)) []Run {
	var out []Run
	failAll := func(why string) []Run {
		for _, pr := range plan.Runs {
			out = append(out, unstarted(f.name, transport, pr, why))
		}
		progress(fmt.Sprintf("%s %s: not run: %s", f.name, transport, why))
		return out
	}
	if f.new == nil {
		return failAll(f.notRun)
	}
	var q *ring
	if transport == Ring {
		// One ring for the format's warm-up and runs: its buffers grow once.
		q = newRing()
	}
	// once replays span at speed on a link of its own (the ring, reset).
	once := func(span Span, speed Speed) (*run, error) {
		var l link
		if q != nil {
			q.reset()
			l = q
		} else {
			u, err := newUDPLink()
			if err != nil {
				return nil, err
			}
			defer u.close()
			l = u
		}
		r := newRun(records, plan, span, speed, l, pins)
		r.execute(f.new)
		return r, nil
	}
	if largest := plan.largest(); plan.WarmupRecords > 0 {
		warm := Span{largest.First, largest.First + min(plan.WarmupRecords, largest.len())}
		r, err := once(warm, Speed{raw: []byte(`"max"`)})
		if err == nil {
			err = r.err
		}
		if err != nil {
			return failAll(fmt.Sprintf("the warm-up (records %s at max) failed: %v", warm, err))
		}
	}
	for _, pr := range plan.Runs {
		r, err := once(pr.Span, pr.Speed)
		if err != nil {
			out = append(out, unstarted(f.name, transport, pr, err.Error()))
			progress(fmt.Sprintf("%s %s speed %s %s: not run: %v", f.name, transport, pr.Speed, pr.Span, err))
			continue
		}
		e := r.entry(f.name, transport, pr.Speed)
		line := fmt.Sprintf("%s %s speed %s %s: %d sent, %d received", f.name, transport, pr.Speed, pr.Span, e.Sent, e.Received)
		if e.Error != nil {
			line += ", FAILED: " + *e.Error
		}
		progress(line)
		out = append(out, e)
	}
	return out
}

// unstarted is the entry of a run that never started, and why.
func unstarted(name, transport string, pr PlanRun, why string) Run {
	return Run{Format: name, Transport: transport, Speed: pr.Speed, First: pr.First, End: pr.End,
		Sizes: []SizeClass{}, Allocations: []Allocation{}, Error: &why}
}

// entry is the run's figures as the results hold them.
func (r *run) entry(name, transport string, speed Speed) Run {
	e := Run{Format: name, Transport: transport, Speed: speed, First: r.span.First, End: r.span.End,
		Sent: r.sent, Received: r.received, MaxBacklog: r.maxBacklog,
		Sizes: []SizeClass{}, Allocations: []Allocation{}, GC: r.gc}
	if r.received > 0 {
		e.DurationNs = r.lastDone - r.firstRelease
	}
	latency := harness.EncodeHistogram(r.latency)
	e.Latency = &latency
	if r.busy != nil {
		busiest := harness.EncodeHistogram(r.busy)
		e.Busiest = &busiest
	}
	for i, h := range r.sizes {
		if h.TotalCount() == 0 {
			continue
		}
		c := SizeClass{Histogram: harness.EncodeHistogram(h)}
		if i < len(sizeClasses) {
			most := sizeClasses[i]
			c.MaxBytes = &most
		}
		e.Sizes = append(e.Sizes, c)
	}
	if r.allocRead {
		mid := r.span.First + r.span.len()/2
		e.Allocations = append(e.Allocations, allocations(r.allocStart, r.allocEnd, r.span.End-mid))
	}
	if r.err != nil {
		msg := r.err.Error()
		e.Error = &msg
	}
	return e
}
