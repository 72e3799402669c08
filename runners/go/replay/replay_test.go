package replay

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/HdrHistogram/hdrhistogram-go"

	"shootout/internal/spec"
	"shootout/registry"
	"shootout/workload"
)

// fixtureRecords are spec/fixtures/iex.jsonl's records (184).
func fixtureRecords(t *testing.T) []workload.MultiMessage {
	t.Helper()
	records, err := loadDataset(spec.Fixture(t, "iex"))
	if err != nil {
		t.Fatal(err)
	}
	return records
}

// planOf is a plan of n records sent every spacing, as JSON's values.
func planOf(n int, spacing time.Duration, busiest [2]int, transports []string, warmup int, runs ...map[string]any) map[string]any {
	send := make([]int64, n)
	for i := range send {
		send[i] = 1_700_000_000_000_000_000 + int64(i)*int64(spacing)
	}
	return map[string]any{"schema": PlanSchema, "send_time_ns": send,
		"busiest_second": map[string]any{"first": busiest[0], "end": busiest[1]},
		"transports":     transports, "warmup_records": warmup, "runs": runs}
}

func runOf(speed any, first, end int) map[string]any {
	return map[string]any{"speed": speed, "first": first, "end": end}
}

func writeJSON(t *testing.T, plan any) string { return spec.WriteJSON(t, "plan.json", plan) }

// readPlan writes plan and reads it back against the fixture's 184 records.
func readPlan(t *testing.T, plan map[string]any) *Plan {
	t.Helper()
	p, err := ReadPlan(writeJSON(t, plan), "iex.jsonl", 184)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// logTo is a progress function writing to the test's log.
func logTo(t *testing.T) func(string) { return func(s string) { t.Log(s) } }

func decodeHistogram(t *testing.T, what string, s *string) *hdrhistogram.Histogram {
	t.Helper()
	if s == nil {
		t.Fatalf("%s: no histogram", what)
	}
	h, err := hdrhistogram.Decode([]byte(*s))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if h.LowestTrackableValue() != 1 || h.HighestTrackableValue() < highestNs || h.SignificantFigures() != 3 {
		t.Fatalf("%s: histogram of %d to %d ns, %d figures; want 1 ns to 3,600 s, 3 figures", what,
			h.LowestTrackableValue(), h.HighestTrackableValue(), h.SignificantFigures())
	}
	return h
}

// validate checks results against spec/replay-runs.schema.json, the
// schema every language's replay output is held to, as JSON.
func validate(t *testing.T, results *Results) {
	t.Helper()
	b, err := json.Marshal(results)
	if err != nil {
		t.Fatal(err)
	}
	spec.Validate(t, "replay-runs.schema.json", b)
}

func TestReplayWritesEveryRunOfEveryFormatAndTransport(t *testing.T) {
	// 184 records 20 µs apart: 3.7 ms of feed, 1.8 ms at speed 2.
	const speed = 2.0
	spacing := 20 * time.Microsecond
	busiest := Span{40, 120}
	plan := planOf(184, spacing, [2]int{busiest.First, busiest.End}, []string{Ring, UDP}, 50,
		runOf(speed, 0, 184), runOf("max", 20, 184))
	formats := []string{"json-std", "protobuf", "flatbuffers"}
	results, err := Replay(Options{Dataset: spec.Fixture(t, "iex"), Plan: writeJSON(t, plan), Formats: formats}, logTo(t))
	if err != nil {
		t.Fatal(err)
	}
	validate(t, results)
	if results.Language != "go" || results.Clock != "time.Now (monotonic)" || results.Pinning == "" {
		t.Fatalf("language %q, clock %q, pinning %q", results.Language, results.Clock, results.Pinning)
	}
	if !strings.Contains(results.Transports[UDP], "granted") || results.Transports[Ring] == "" {
		t.Fatalf("transports %v", results.Transports)
	}
	for _, library := range []string{"std", "google.golang.org/protobuf", "github.com/google/flatbuffers"} {
		if results.Versions[library] == "" || results.Versions[library] == "unknown" {
			t.Errorf("versions %v: no %s", results.Versions, library)
		}
	}
	if len(results.Runs) != len(formats)*2*2 {
		t.Fatalf("%d runs, want 3 formats × 2 transports × 2 runs", len(results.Runs))
	}
	i := 0
	for _, f := range formats {
		for _, transport := range []string{Ring, UDP} {
			for _, want := range []Span{{0, 184}, {20, 184}} {
				r := results.Runs[i]
				i++
				what := f + " " + transport + " " + r.Speed.String()
				if r.Format != f || r.Transport != transport || r.First != want.First || r.End != want.End {
					t.Fatalf("run %d is %s %s %d..%d, want %s %s %s in the plan's order", i, r.Format, r.Transport, r.First, r.End, f, transport, want)
				}
				if r.Error != nil {
					t.Fatalf("%s: %s", what, *r.Error)
				}
				n := uint64(want.len())
				if r.Sent != n || r.Received > r.Sent || (transport == Ring && r.Received != n) {
					t.Fatalf("%s: sent %d, received %d, of %d records (the ring loses none)", what, r.Sent, r.Received, n)
				}
				if r.Received == 0 || r.DurationNs <= 0 {
					t.Fatalf("%s: received %d, duration %d ns", what, r.Received, r.DurationNs)
				}
				if latency := decodeHistogram(t, what, r.Latency); uint64(latency.TotalCount()) != r.Received {
					t.Fatalf("%s: %d latencies of %d records received", what, latency.TotalCount(), r.Received)
				}
				busy := decodeHistogram(t, what+" busiest", r.Busiest)
				if transport == Ring && busy.TotalCount() != int64(busiest.len()) {
					t.Fatalf("%s: %d latencies in the busiest second, which has %d records", what, busy.TotalCount(), busiest.len())
				}
				var sized int64
				for k, c := range r.Sizes {
					h := decodeHistogram(t, what+" size class", &c.Histogram)
					if h.TotalCount() == 0 {
						t.Fatalf("%s: size class %v is empty, and listed", what, c.MaxBytes)
					}
					if k > 0 && (r.Sizes[k-1].MaxBytes == nil || (c.MaxBytes != nil && *c.MaxBytes <= *r.Sizes[k-1].MaxBytes)) {
						t.Fatalf("%s: size classes out of order", what)
					}
					sized += h.TotalCount()
				}
				if uint64(sized) != r.Received {
					t.Fatalf("%s: the size classes hold %d latencies, %d records were received", what, sized, r.Received)
				}
				half := uint64(want.End - (want.First + want.len()/2))
				if len(r.Allocations) != 1 || r.Allocations[0].Who != "process" || r.Allocations[0].Records != half ||
					r.Allocations[0].Count == nil || r.Allocations[0].Bytes == nil {
					t.Fatalf("%s: allocations %+v, want the process's over the second half's %d records", what, r.Allocations, half)
				}
				if r.GC == nil || r.GC.PauseMaxNs > r.GC.PauseTotalNs || (r.GC.Collections == 0 && r.GC.PauseTotalNs != 0) {
					t.Fatalf("%s: gc %+v", what, r.GC)
				}
				if r.Speed.Max() {
					continue
				}
				// The last record is not released before its time: from the
				// first release to its done is at least the feed's span, scaled.
				if span := float64(int64(want.len()-1)*int64(spacing)) / speed; float64(r.DurationNs) < span && r.Received == r.Sent {
					t.Fatalf("%s: duration %d ns, shorter than the schedule's %.0f ns", what, r.DurationNs, span)
				}
			}
		}
	}
}

// stalling wraps a codec: its decode of record stallAt (counted from 0)
// takes stall longer, once, and each decode's own time is kept: what a
// closed loop would time.
type stalling struct {
	registry.IexCodec
	stallAt, calls int
	stall          time.Duration
	service        []time.Duration
}

func (s *stalling) Decode(b []byte, sink *workload.IexSink) (int, error) {
	start := time.Now()
	if s.calls == s.stallAt {
		time.Sleep(s.stall)
	}
	s.calls++
	n, err := s.IexCodec.Decode(b, sink)
	s.service = append(s.service, time.Since(start))
	return n, err
}

func protobufCodec(t *testing.T) func() registry.IexCodec {
	for _, e := range registry.Entries(workload.IexSpec) {
		if e.Info.Name == "protobuf" {
			return e.New
		}
	}
	t.Fatal("no protobuf iex codec")
	return nil
}

// Records released every millisecond queue behind one decode that stalls
// 30 ms: each carries its wait in its latency, where a closed loop, timing
// each decode alone, sees one slow record.
func TestAStallShowsInTheLatencyOfEveryRecordQueuedBehindIt(t *testing.T) {
	const n = 60
	records := fixtureRecords(t)
	plan := readPlan(t, planOf(184, time.Millisecond, [2]int{0, 184}, []string{Ring, UDP}, 0, runOf(1, 0, n)))
	var mu sync.Mutex
	var codecs []*stalling
	newCodec := protobufCodec(t)
	f := format{name: "protobuf-stalling", library: "google.golang.org/protobuf", new: func() registry.IexCodec {
		c := &stalling{IexCodec: newCodec(), stallAt: 10, stall: 30 * time.Millisecond}
		mu.Lock()
		codecs = append(codecs, c)
		mu.Unlock()
		return c
	}}
	results := replay(records, plan, []format{f}, logTo(t))
	validate(t, results)
	for _, r := range results.Runs {
		if r.Error != nil {
			t.Fatalf("%s: %s", r.Transport, *r.Error)
		}
		h := decodeHistogram(t, r.Transport, r.Latency)
		var slow int64
		for _, bar := range h.Distribution() {
			if bar.From > int64(10*time.Millisecond) {
				slow += bar.Count
			}
		}
		// The decoding codec of this run: the producer's never decodes.
		var service []time.Duration
		for _, c := range codecs {
			if len(c.service) > 0 && len(service) == 0 {
				service = c.service
				c.service = nil
			}
		}
		slowAlone := 0
		for _, d := range service {
			if d > 10*time.Millisecond {
				slowAlone++
			}
		}
		t.Logf("%s: %d records above 10 ms from release to decoded; %d decodes above 10 ms alone", r.Transport, slow, slowAlone)
		if slowAlone < 1 || slow < 10 || slow < int64(slowAlone)+9 {
			t.Fatalf("%s: %d records with latency above 10 ms, %d decodes above 10 ms on their own: the stall must spread over the records queued behind it",
				r.Transport, slow, slowAlone)
		}
	}
}

// lossy decodes into a sink of its own; short reports a byte fewer than
// the record; panicky panics on its third decode; padded sends records too
// large for a datagram.
type (
	lossy   struct{ registry.IexCodec }
	short   struct{ registry.IexCodec }
	panicky struct {
		registry.IexCodec
		calls int
	}
	padded struct{ registry.IexCodec }
)

func (c lossy) Decode(b []byte, sink *workload.IexSink) (int, error) {
	return c.IexCodec.Decode(b, workload.NewIexSink())
}

func (c short) Decode(b []byte, sink *workload.IexSink) (int, error) {
	n, err := c.IexCodec.Decode(b, sink)
	return n - 1, err
}

func (c *panicky) Decode(b []byte, sink *workload.IexSink) (int, error) {
	if c.calls++; c.calls == 3 {
		panic("boom")
	}
	return c.IexCodec.Decode(b, sink)
}

func (c padded) Encode(b []byte, r *workload.MultiMessage) ([]byte, error) {
	b, err := c.IexCodec.Encode(b, r)
	return append(b, make([]byte, maxPayload)...), err
}

func TestAFailedRunSaysWhyAndTheOthersGoOn(t *testing.T) {
	records := fixtureRecords(t)
	plan := readPlan(t, planOf(184, time.Microsecond, [2]int{0, 184}, []string{Ring, UDP}, 0, runOf("max", 5, 25), runOf(1000, 30, 40)))
	newCodec := protobufCodec(t)
	wrap := func(name string, c func(registry.IexCodec) registry.IexCodec) format {
		return format{name: name, new: func() registry.IexCodec { return c(newCodec()) }}
	}
	formats := []format{
		wrap("lossy", func(c registry.IexCodec) registry.IexCodec { return lossy{c} }),
		wrap("short", func(c registry.IexCodec) registry.IexCodec { return short{c} }),
		wrap("panicky", func(c registry.IexCodec) registry.IexCodec { return &panicky{IexCodec: c} }),
		wrap("padded", func(c registry.IexCodec) registry.IexCodec { return padded{c} }),
		{name: "bson", notRun: "format bson does not run the iex workload"},
	}
	results := replay(records, plan, formats, logTo(t))
	validate(t, results)
	want := map[string][]string{
		"lossy":   {"decoded data does not match the reference aggregate of the", "symbol"},
		"short":   {"record 5 (line 7): decode used", "of the record's"},
		"panicky": {"record 7 (line 9): the codec panicked decoding it: boom"},
		"padded":  {"record 5 (line 7):", "payload bytes do not fit one UDP datagram"},
		"bson":    {"does not run the iex workload"},
	}
	if len(results.Runs) != len(formats)*2*2 {
		t.Fatalf("%d runs, want every format × transport × run", len(results.Runs))
	}
	for _, r := range results.Runs {
		if r.Error == nil {
			t.Fatalf("%s %s %s: no error", r.Format, r.Transport, r.Speed)
		}
		expected := want[r.Format]
		if r.Format == "padded" && r.Transport == Ring {
			// A ring slot has no datagram's limit: the padding reaches
			// the decoder, which leaves it.
			expected = want["short"]
		}
		for _, w := range expected {
			if r.First == 30 {
				w = strings.NewReplacer("record 5 (line 7)", "record 30 (line 32)", "record 7 (line 9)", "record 32 (line 34)").Replace(w)
			}
			if !strings.Contains(*r.Error, w) {
				t.Fatalf("%s %s %s: error %q, want %q", r.Format, r.Transport, r.Speed, *r.Error, w)
			}
		}
		if r.Format == "bson" && (r.Latency != nil || r.Sent != 0 || r.GC != nil) {
			t.Fatalf("bson never ran, yet has figures: %+v", r)
		}
	}
}

// dropping is the udp link, but it never sends the record drop while
// saying it did: a datagram lost on the way.
type dropping struct {
	*udpLink
	drop int
}

func (d dropping) send(buf []byte, index int, release int64) error {
	if index == d.drop {
		return nil
	}
	return d.udpLink.send(buf, index, release)
}

func TestADroppedLastDatagramEndsTheRunAfterTheQuietTimeAndCounts(t *testing.T) {
	records := fixtureRecords(t)
	plan := readPlan(t, planOf(184, time.Microsecond, [2]int{0, 184}, []string{UDP}, 0, runOf("max", 0, 30)))
	u, err := newUDPLink()
	if err != nil {
		t.Fatal(err)
	}
	defer u.close()
	r := newRun(records, plan, plan.Runs[0].Span, plan.Runs[0].Speed, dropping{u, 29}, newPinner())
	started := time.Now()
	r.execute(protobufCodec(t))
	e := r.entry("protobuf", UDP, plan.Runs[0].Speed)
	if e.Error != nil {
		t.Fatal(*e.Error)
	}
	// Validated against the 29 records received, not the 30 sent.
	if e.Sent != 30 || e.Received != 29 {
		t.Fatalf("sent %d, received %d; want 30 and 29", e.Sent, e.Received)
	}
	if took := time.Since(started); took < time.Duration(quiet) {
		t.Fatalf("the run ended %v after it started, before the quiet time", took)
	}
}

func TestRefusals(t *testing.T) {
	good := func() map[string]any {
		return planOf(184, time.Microsecond, [2]int{10, 20}, []string{Ring, UDP}, 10, runOf(2, 0, 184), runOf("max", 0, 100))
	}
	with := func(change func(map[string]any)) map[string]any {
		p := good()
		change(p)
		return p
	}
	for _, c := range []struct {
		name string
		plan map[string]any
		want string
	}{
		{"another schema", with(func(p map[string]any) { p["schema"] = "shootout-replay-plan/2" }),
			`schema "shootout-replay-plan/2", expected "shootout-replay-plan/1"`},
		{"no schema", with(func(p map[string]any) { delete(p, "schema") }), `no "schema": expected "shootout-replay-plan/1"`},
		{"no runs", with(func(p map[string]any) { delete(p, "runs") }), `no "runs"`},
		{"a send time less", with(func(p map[string]any) { p["send_time_ns"] = p["send_time_ns"].([]int64)[1:] }),
			"send_time_ns has 183 entries, expected one per record of iex.jsonl (184)"},
		{"decreasing send times", with(func(p map[string]any) { p["send_time_ns"].([]int64)[5] -= 10_000 }),
			"send_time_ns[5] = 1699999999999995000 is before send_time_ns[4] = 1700000000000004000: expected non-decreasing send times"},
		{"a run past the end", with(func(p map[string]any) { p["runs"].([]map[string]any)[1]["end"] = 185 }),
			"runs[1] is records [0, 185), expected 0 <= first < end <= 184"},
		{"an empty run", with(func(p map[string]any) { p["runs"].([]map[string]any)[0]["first"] = 184 }),
			"runs[0] is records [184, 184), expected 0 <= first < end <= 184"},
		{"a negative index", with(func(p map[string]any) { p["busiest_second"] = map[string]any{"first": -1, "end": 3} }),
			"busiest_second is records [-1, 3), expected 0 <= first < end <= 184"},
		{"a speed of 0", with(func(p map[string]any) { p["runs"].([]map[string]any)[0]["speed"] = 0 }),
			`runs[0]: speed 0: expected a positive number or "max"`},
		{"a speed by name", with(func(p map[string]any) { p["runs"].([]map[string]any)[0]["speed"] = "fast" }),
			`runs[0]: speed "fast": expected a positive number or "max"`},
		{"a speed too slow to schedule", with(func(p map[string]any) { p["runs"].([]map[string]any)[0]["speed"] = 1e-300 }),
			"runs[0]: at speed 1e-300 its records span"},
		{"another transport", with(func(p map[string]any) { p["transports"] = []string{"ring", "tcp"} }),
			`transports[1] is "tcp": expected one of ring, udp`},
		{"a negative warm-up", with(func(p map[string]any) { p["warmup_records"] = -1 }), "warmup_records is -1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeJSON(t, c.plan)
			_, err := ReadPlan(path, "iex.jsonl", 184)
			if err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one naming %s and saying %q", err, path, c.want)
			}
		})
	}
	if _, err := ReadPlan(writeJSON(t, good()), "iex.jsonl", 184); err != nil {
		t.Fatalf("the good plan: %v", err)
	}

	t.Run("another workload", func(t *testing.T) {
		user := spec.Fixture(t, "user")
		_, err := Replay(Options{Dataset: user, Plan: writeJSON(t, good())}, logTo(t))
		if err == nil || !strings.Contains(err.Error(), user+`: workload "user", expected "iex"`) {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("an unknown format", func(t *testing.T) {
		_, err := Replay(Options{Dataset: spec.Fixture(t, "iex"), Plan: writeJSON(t, good()), Formats: []string{"protobuf", "nope"}}, logTo(t))
		var usage UsageError
		if !errors.As(err, &usage) || !strings.Contains(err.Error(), `no format "nope"`) {
			t.Fatalf("error %v, want a usage error naming it", err)
		}
	})
}

func TestEveryIexFormatIsReplayedByDefaultAndANamedOneThatCannotRunSaysWhy(t *testing.T) {
	all, err := choose(nil)
	if err != nil {
		t.Fatal(err)
	}
	var iex []string
	for _, f := range registry.Formats {
		if slices.Contains(registry.RunsOn(f), "iex") {
			iex = append(iex, f.Info.Name)
		}
	}
	var names []string
	for _, f := range all {
		names = append(names, f.name)
		if f.new == nil {
			t.Fatalf("%s chosen by default, and cannot run", f.name)
		}
	}
	if !slices.Equal(names, iex) {
		t.Fatalf("chosen %v, the formats with an iex codec are %v", names, iex)
	}
	named, err := choose([]string{"bson", "protobuf", "baseline", "fory"})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"BSON has no unsigned 64-bit integer", "", "nothing to send", "not served"} {
		if f := named[i]; (want == "") != (f.new != nil) || !strings.Contains(f.notRun, want) {
			t.Fatalf("%s: runnable %v, not run %q; want %q", f.name, f.new != nil, f.notRun, want)
		}
	}
}

// indexCodec sends a record's index only, and its decode feeds the sink the
// record at that index: no format's allocations, so a run's count is the
// hand-off's and the harness's own.
type indexCodec struct{ records []workload.MultiMessage }

func (c indexCodec) Encode(b []byte, r *workload.MultiMessage) ([]byte, error) {
	i := (uintptr(unsafe.Pointer(r)) - uintptr(unsafe.Pointer(&c.records[0]))) / unsafe.Sizeof(*r)
	return binary.LittleEndian.AppendUint32(b, uint32(i)), nil
}

func (c indexCodec) Decode(b []byte, sink *workload.IexSink) (int, error) {
	c.records[binary.LittleEndian.Uint32(b)].Feed(sink)
	return 4, nil
}

func TestOnceWarmTheHandOffAllocatesNothing(t *testing.T) {
	var records []workload.MultiMessage
	for range 12 {
		records = append(records, fixtureRecords(t)...)
	}
	n := len(records)
	plan := planOf(n, 0, [2]int{0, n}, []string{Ring, UDP}, 1024, runOf("max", 0, n))
	p, err := ReadPlan(writeJSON(t, plan), "12 × iex.jsonl", n)
	if err != nil {
		t.Fatal(err)
	}
	f := format{name: "index", new: func() registry.IexCodec { return indexCodec{records} }}
	for _, r := range replay(records, p, []format{f}, logTo(t)).Runs {
		if r.Error != nil {
			t.Fatalf("%s: %s", r.Transport, *r.Error)
		}
		a := r.Allocations[0]
		t.Logf("%s: %d objects, %d bytes over %d records", r.Transport, *a.Count, *a.Bytes, a.Records)
		// The runtime counts a P's small objects when its cache refills, so
		// a few may be other goroutines' from before: far below one per record.
		if *a.Count > a.Records/100 {
			t.Fatalf("%s: %d allocations over %d records: the hand-off allocates", r.Transport, *a.Count, a.Records)
		}
	}
}
