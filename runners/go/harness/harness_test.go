package harness

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"

	"shootout/codec"
	"shootout/workload"
)

type memory []workload.User

type memWindows struct {
	recs memory
	at   int
}

func (m memory) Open() (Windows[workload.User], error) { return &memWindows{recs: m}, nil }

func (w *memWindows) Next(n int) ([]workload.User, error) {
	end := min(w.at+n, len(w.recs))
	out := w.recs[w.at:end]
	w.at = end
	return out, nil
}

func (w *memWindows) Close() error { return nil }

func users(n int) memory {
	out := make(memory, n)
	for i := range out {
		out[i] = workload.User{UID: int64(i + 1), MUID: "m", Status: "activ", Nickname: strings.Repeat("n", i%7), OpenedAt: "o", CreatedAt: "c", UpdatedAt: "u"}
	}
	return out
}

func referenceOf(recs memory) func(*workload.FieldSink) string {
	sink := workload.UserSpec.NewSink()
	for i := range recs {
		recs[i].Visit(sink)
	}
	want := sink.Finish(workload.UserFields)
	return func(s *workload.FieldSink) string {
		return want.FirstDifference(s.Finish(workload.UserFields), workload.UserFields)
	}
}

// forgetful carries only the uid: its decode is wrong.
type forgetful struct{}

func (forgetful) Encode(s []byte, u *workload.User) ([]byte, error) {
	return binary.LittleEndian.AppendUint64(s, uint64(u.UID)), nil
}

func (forgetful) Decode(s []byte, sink *workload.FieldSink) (int, error) {
	if len(s) < 8 {
		return 0, errors.New("short")
	}
	u := workload.User{UID: int64(binary.LittleEndian.Uint64(s))}
	u.Visit(sink)
	return 8, nil
}

// picky cannot carry uid 5 (operation 4).
type picky struct {
	codec.Codec[workload.User, *workload.FieldSink]
}

func (p picky) Encode(s []byte, u *workload.User) ([]byte, error) {
	if u.UID == 5 {
		return s, errors.New("cannot carry uid 5")
	}
	return p.Codec.Encode(s, u)
}

// allocating makes one heap object per record it encodes.
type allocating struct {
	codec.Codec[workload.User, *workload.FieldSink]
}

var escaped *[64]byte

func (a allocating) Encode(s []byte, u *workload.User) ([]byte, error) {
	escaped = new([64]byte)
	return a.Codec.Encode(s, u)
}

// lapsing decodes its first `from` records, then only pretends to.
type lapsing struct {
	codec.Codec[workload.User, *workload.FieldSink]
	from, calls int
}

func (l *lapsing) Decode(s []byte, sink *workload.FieldSink) (int, error) {
	l.calls++
	if l.calls > l.from {
		return 4, nil
	}
	return l.Codec.Decode(s, sink)
}

type (
	userCodec = codec.Codec[workload.User, *workload.FieldSink]
	userEntry = Entry[workload.User, *workload.FieldSink]
)

func entry(name string, c func() userCodec) userEntry {
	return userEntry{Info: codec.Info{Name: name}, New: c}
}

func baselineEntry() userEntry {
	return entry(BaselineName, func() userCodec { return Baseline((*workload.User).Visit) })
}

// measureUsers measures the entries on ten users.
func measureUsers(s Settings, entries ...userEntry) (*Measured, error) {
	recs := users(10)
	return Measure(recs, workload.UserSpec, referenceOf(recs), entries, s, Calibrate(), pos, nil)
}

func pos(op uint64) string { return workload.Position(op) }

func TestAWrongDecodeIsWithheldNamingThePassAndTheField(t *testing.T) {
	m, err := measureUsers(Settings{Runs: 1, ThroughputRounds: 1, Window: 3, OrderSeed: 7},
		entry("forgetful", func() userCodec { return forgetful{} }), baselineEntry())
	if err != nil {
		t.Fatal(err)
	}
	f := m.Formats[0].Failure
	if f == nil || !strings.HasPrefix(f.Reason, "decoded data does not match the reference aggregate (throughput pass): field muid") {
		t.Fatalf("failure %+v", f)
	}
	if len(m.Formats[0].Runs) != 0 || m.Formats[1].Failure != nil || len(m.Formats[1].Runs) != 1 {
		t.Fatalf("the failed format must be withheld, the other measured: %+v", m.Formats)
	}
}

func TestAnEncodeErrorNamesTheOperationAndSparesTheOthers(t *testing.T) {
	m, err := measureUsers(Settings{WarmupRuns: 1, Runs: 2, ThroughputRounds: 1, Window: 3, OrderSeed: 7},
		entry("picky", func() userCodec { return picky{Baseline((*workload.User).Visit)} }), baselineEntry())
	if err != nil {
		t.Fatal(err)
	}
	f := m.Formats[0].Failure
	if f == nil || f.Operation == nil || *f.Operation != 4 || *f.Position != "record 4 (line 6)" || !strings.Contains(f.Reason, "cannot carry uid 5") {
		t.Fatalf("failure %+v", f)
	}
	if len(m.Formats[1].Runs) != 2 {
		t.Fatalf("baseline: %d measured runs, want 2", len(m.Formats[1].Runs))
	}
}

func TestEveryRunCoversEveryRecordInEveryPass(t *testing.T) {
	m, err := measureUsers(Settings{WarmupRuns: 1, Runs: 3, ThroughputRounds: 1, Window: 4, OrderSeed: 1}, baselineEntry())
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Runs) != 4 || !m.Runs[0].Warmup || m.Runs[1].Warmup {
		t.Fatalf("runs %+v", m.Runs)
	}
	f := m.Formats[0]
	if f.Failure != nil || len(f.Runs) != 3 || f.EncodedBytes != 40 {
		t.Fatalf("%+v", f)
	}
	for _, r := range f.Runs {
		for _, s := range []Run{r.Encode, r.Decode} {
			if s.Ops != 10 || s.TotalNs <= 0 || s.OrderPosition != 0 {
				t.Fatalf("%+v", s)
			}
			h, err := hdrhistogram.Decode([]byte(s.Histogram))
			if err != nil || h.TotalCount() != 10 {
				t.Fatalf("the histogram must decode to one sample per record: %v, %v", h, err)
			}
		}
	}
	formats, failed := Build(m, func(string) string { return "v" })
	if len(failed) != 0 || len(formats) != 1 || !formats[0].Baseline || len(formats[0].Encode.Runs) != 3 || len(formats[0].Decode.Runs) != 3 {
		t.Fatalf("%+v", formats)
	}
}

func TestInputThatDisagreesWithItsReferenceIsAnError(t *testing.T) {
	recs := users(5)
	check := referenceOf(users(6))
	_, err := Measure(recs, workload.UserSpec, check, []userEntry{baselineEntry()}, Settings{Runs: 1, ThroughputRounds: 1, Window: 2}, Calibrate(), pos, nil)
	if err == nil || !strings.Contains(err.Error(), "do not add up to the header's reference") {
		t.Fatalf("got %v", err)
	}
}

func TestMeasureMakesExactlyTheWarmUpAndMeasuredRunsAskedFor(t *testing.T) {
	for _, s := range []Settings{{WarmupRuns: 0, Runs: 1, ThroughputRounds: 1, Window: 4}, {WarmupRuns: 2, Runs: 3, ThroughputRounds: 2, Window: 4}} {
		m, err := measureUsers(s, baselineEntry())
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Runs) != s.WarmupRuns+s.Runs || len(m.Formats[0].Runs) != s.Runs {
			t.Fatalf("%+v: %d runs, %d measured; want %d, %d", s, len(m.Runs), len(m.Formats[0].Runs), s.WarmupRuns+s.Runs, s.Runs)
		}
		for i, r := range m.Runs {
			if r.Index != i || r.Warmup != (i < s.WarmupRuns) {
				t.Fatalf("%+v: run %d is %+v", s, i, r)
			}
		}
	}
}

func TestMeasureRefusesRunCountsItCannotMake(t *testing.T) {
	for _, s := range []Settings{{Runs: 0, ThroughputRounds: 1, Window: 4}, {Runs: 1, ThroughputRounds: 0, Window: 4}, {Runs: 1, ThroughputRounds: 1, Window: 0}, {WarmupRuns: -1, Runs: 2, ThroughputRounds: 1, Window: 4}} {
		m, err := measureUsers(s, baselineEntry())
		if err == nil || m != nil {
			t.Errorf("%+v: %+v, %v; want an error and no measurements", s, m, err)
		}
	}
}

func TestFurtherThroughputRoundsAddToTheThroughputFiguresOnly(t *testing.T) {
	m, err := measureUsers(Settings{WarmupRuns: 1, Runs: 2, ThroughputRounds: 3, Window: 4, OrderSeed: 3},
		entry("allocating", func() userCodec { return allocating{Baseline((*workload.User).Visit)} }), baselineEntry())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Formats {
		// Every round's sink is validated: a round decoding into another pass's sink would fail it.
		if f.Failure != nil || len(f.Runs) != 2 || f.EncodedBytes != 40 {
			t.Fatalf("%s: %+v; want 2 runs, validated, and the bytes of one round", f.Info.Name, f)
		}
		for _, r := range f.Runs {
			for _, s := range []Run{r.Encode, r.Decode} {
				h, err := hdrhistogram.Decode([]byte(s.Histogram))
				if s.Ops != 30 || err != nil || h.TotalCount() != 10 {
					t.Fatalf("%s: ops %d, latency samples %v (%v); want 3 rounds of 10 records, one latency pass", f.Info.Name, s.Ops, h, err)
				}
				var sum int64
				for _, ns := range s.RoundNs {
					sum += ns
				}
				if len(s.RoundNs) != 3 || sum != s.TotalNs || slices.Contains(s.RoundNs, 0) {
					t.Fatalf("%s: round_ns %v, total_ns %d; want 3 rounds, each timed, adding up to it", f.Info.Name, s.RoundNs, s.TotalNs)
				}
			}
		}
	}
	for _, r := range m.Formats[0].Runs {
		if a := r.Encode.AllocationsPerOp; a < 1 || a >= 2 {
			t.Fatalf("allocating: %v allocations per encode, want one per record of the allocation pass", a)
		}
	}
}

func TestAWrongFurtherRoundIsWithheldNamingTheRound(t *testing.T) {
	// One window a run; the warm-up run makes its three passes (30 decodes),
	// the measured run its three passes (30 more), then rounds 2 and 3.
	for from, pass := range map[int]string{30: "throughput pass", 60: "throughput round 2 pass", 70: "throughput round 3 pass"} {
		m, err := measureUsers(Settings{WarmupRuns: 1, Runs: 1, ThroughputRounds: 3, Window: 10, OrderSeed: 5},
			entry("lapsing", func() userCodec { return &lapsing{Codec: Baseline((*workload.User).Visit), from: from} }), baselineEntry())
		if err != nil {
			t.Fatal(err)
		}
		f := m.Formats[0].Failure
		if f == nil || f.Run != 1 || !strings.HasPrefix(f.Reason, "decoded data does not match the reference aggregate ("+pass+"): ") {
			t.Errorf("wrong from decode %d: failure %+v, want one in run 1 naming the %s", from, f, pass)
		}
		if m.Formats[1].Failure != nil || len(m.Formats[1].Runs) != 1 {
			t.Errorf("wrong from decode %d: the baseline must be measured: %+v", from, m.Formats[1])
		}
	}
}

// preparing stands for a codec that encodes a model made before the timed
// loops (codec.Preparer), held in one slot per record that every such
// codec shares (as workload.JSONRecord's): it refuses to encode a record
// whose slot another codec, or none, filled last.
type preparing struct {
	codec.Codec[workload.User, *workload.FieldSink]
	slot     map[*workload.User]*preparing
	prepares int
}

func (p *preparing) Prepare(records []workload.User) {
	p.prepares++
	for i := range records {
		p.slot[&records[i]] = p
	}
}

func (p *preparing) Encode(s []byte, u *workload.User) ([]byte, error) {
	if p.slot[u] != p {
		return s, errors.New("encoding a record this codec did not prepare")
	}
	return p.Codec.Encode(s, u)
}

func TestAPreparerPreparesEachWindowBeforeEachOfItsPasses(t *testing.T) {
	slot := map[*workload.User]*preparing{}
	var made []*preparing
	newPreparing := func() userCodec {
		p := &preparing{Codec: Baseline((*workload.User).Visit), slot: slot}
		made = append(made, p)
		return p
	}
	m, err := measureUsers(Settings{WarmupRuns: 0, Runs: 2, ThroughputRounds: 3, Window: 4, OrderSeed: 11},
		entry("a", newPreparing), entry("b", newPreparing), baselineEntry())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Formats {
		if f.Failure != nil {
			t.Fatalf("%s: %+v", f.Info.Name, f.Failure)
		}
	}
	// 10 records in windows of 4: 3 windows; the priming window, then per
	// run each window's first round and its 2 further rounds.
	for _, p := range made {
		if p.prepares != 1+2*3*3 {
			t.Errorf("%d prepares, want %d", p.prepares, 1+2*3*3)
		}
	}
}
