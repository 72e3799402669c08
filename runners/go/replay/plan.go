package replay

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"shootout/workload"
)

// PlanSchema is the only plan version this runner reads (docs/replay.md).
const PlanSchema = "shootout-replay-plan/1"

// The transports docs/replay.md defines, in its order.
const (
	Ring = "ring"
	UDP  = "udp"
)

var transportNames = []string{Ring, UDP}

// Span is the records [First, End) of the dataset.
type Span struct{ First, End int }

func (s Span) len() int                { return s.End - s.First }
func (s Span) contains(i int) bool     { return s.First <= i && i < s.End }
func (s Span) overlaps(o Span) bool    { return s.First < o.End && o.First < s.End }
func (s Span) String() string          { return fmt.Sprintf("[%d, %d)", s.First, s.End) }
func (s Span) within(records int) bool { return 0 <= s.First && s.First < s.End && s.End <= records }

// Speed is a run's speed factor; Factor 0 is "max".
type Speed struct {
	Factor float64
	// raw is the plan's own text of it, which the results repeat.
	raw json.RawMessage
}

func (s Speed) Max() bool { return s.Factor == 0 }

func (s Speed) String() string {
	if s.Max() {
		return "max"
	}
	return string(s.raw)
}

// MarshalJSON writes the speed as the plan wrote it: a number or "max".
func (s Speed) MarshalJSON() ([]byte, error) { return s.raw, nil }

// PlanRun is one entry of the plan's runs.
type PlanRun struct {
	Speed Speed
	Span
}

// Plan is a shootout-replay-plan/1 file, checked against its dataset.
type Plan struct {
	// SendTimeNs is each dataset record's send time, non-decreasing.
	SendTimeNs    []int64
	Busiest       Span
	Transports    []string
	WarmupRecords int
	Runs          []PlanRun
}

// largest is the span of the run with the most records, the first on a tie:
// the warm-up's records are its first ones.
func (p *Plan) largest() Span {
	best := p.Runs[0].Span
	for _, r := range p.Runs[1:] {
		if r.len() > best.len() {
			best = r.Span
		}
	}
	return best
}

type rawSpan struct {
	First *int64 `json:"first"`
	End   *int64 `json:"end"`
}

// rawPlan is the plan as written: a key left out is nil. Keys it does not
// list are ignored (the schema check comes first).
type rawPlan struct {
	SendTimeNs    *[]int64  `json:"send_time_ns"`
	BusiestSecond *rawSpan  `json:"busiest_second"`
	Transports    *[]string `json:"transports"`
	WarmupRecords *int64    `json:"warmup_records"`
	Runs          *[]rawRun `json:"runs"`
}

type rawRun struct {
	Speed json.RawMessage `json:"speed"`
	rawSpan
}

// ReadPlan reads the plan at path and checks it against a dataset (named
// dataset in messages) of records records. Every error names the plan file
// and what was expected.
func ReadPlan(path, dataset string, records int) (*Plan, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) (*Plan, error) {
		return nil, fmt.Errorf("%s: %s", path, fmt.Sprintf(format, args...))
	}
	// The schema first, so that another file is named as such rather than
	// by its first field of the wrong type.
	var head struct {
		Schema *string `json:"schema"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return fail("not a replay plan (expected one JSON object, schema %q): %v", PlanSchema, err)
	}
	switch {
	case head.Schema == nil:
		return fail("no \"schema\": expected %q", PlanSchema)
	case *head.Schema != PlanSchema:
		return fail("schema %q, expected %q", *head.Schema, PlanSchema)
	}
	var raw rawPlan
	if err := json.Unmarshal(b, &raw); err != nil {
		return fail("not a %s object: %v", PlanSchema, err)
	}
	for _, k := range []struct {
		key     string
		missing bool
	}{{"send_time_ns", raw.SendTimeNs == nil}, {"busiest_second", raw.BusiestSecond == nil}, {"transports", raw.Transports == nil},
		{"warmup_records", raw.WarmupRecords == nil}, {"runs", raw.Runs == nil}} {
		if k.missing {
			return fail("no %q: expected every key of %s (docs/replay.md)", k.key, PlanSchema)
		}
	}
	p := &Plan{SendTimeNs: *raw.SendTimeNs}
	if len(p.SendTimeNs) != records {
		return fail("send_time_ns has %d entries, expected one per record of %s (%d)", len(p.SendTimeNs), dataset, records)
	}
	for i := 1; i < len(p.SendTimeNs); i++ {
		if p.SendTimeNs[i] < p.SendTimeNs[i-1] {
			return fail("send_time_ns[%d] = %d is before send_time_ns[%d] = %d: expected non-decreasing send times",
				i, p.SendTimeNs[i], i-1, p.SendTimeNs[i-1])
		}
	}
	span := func(what string, r rawSpan) (Span, error) {
		if r.First == nil || r.End == nil {
			return Span{}, fmt.Errorf("%s: %s needs \"first\" and \"end\"", path, what)
		}
		f, e := *r.First, *r.End
		if f < 0 || f >= e || e > int64(records) {
			return Span{}, fmt.Errorf("%s: %s is records [%d, %d), expected 0 <= first < end <= %d (the records of %s)", path, what, f, e, records, dataset)
		}
		return Span{int(f), int(e)}, nil
	}
	if p.Busiest, err = span("busiest_second", *raw.BusiestSecond); err != nil {
		return nil, err
	}
	p.Transports = *raw.Transports
	if len(p.Transports) == 0 {
		return fail("transports is empty: expected some of %s", strings.Join(transportNames, ", "))
	}
	for i, t := range p.Transports {
		if !slices.Contains(transportNames, t) {
			return fail("transports[%d] is %q: expected one of %s", i, t, strings.Join(transportNames, ", "))
		}
		if slices.Index(p.Transports, t) != i {
			return fail("transports lists %q twice: expected each at most once", t)
		}
	}
	if w := *raw.WarmupRecords; w < 0 || w > math.MaxInt32 {
		return fail("warmup_records is %d, expected a count from 0", w)
	}
	p.WarmupRecords = int(*raw.WarmupRecords)
	if len(*raw.Runs) == 0 {
		return fail("runs is empty: expected at least one run")
	}
	for i, r := range *raw.Runs {
		what := fmt.Sprintf("runs[%d]", i)
		s, err := span(what, r.rawSpan)
		if err != nil {
			return nil, err
		}
		speed, err := parseSpeed(r.Speed)
		if err != nil {
			return fail("%s: %v", what, err)
		}
		if !speed.Max() {
			if ns := (float64(p.SendTimeNs[s.End-1]) - float64(p.SendTimeNs[s.First])) / speed.Factor; ns > 1<<62 {
				return fail("%s: at speed %s its records span %.3g s, expected a schedule of under 2^62 ns", what, speed, ns/1e9)
			}
		}
		p.Runs = append(p.Runs, PlanRun{Speed: speed, Span: s})
	}
	return p, nil
}

// parseSpeed reads a run's speed: a positive finite number, or "max".
func parseSpeed(raw json.RawMessage) (Speed, error) {
	if len(raw) == 0 {
		return Speed{}, fmt.Errorf("no \"speed\": expected a positive number or \"max\"")
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "max" {
			return Speed{raw: raw}, nil
		}
		return Speed{}, fmt.Errorf("speed %s: expected a positive number or \"max\"", raw)
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || !(f > 0) || math.IsInf(f, 0) {
		return Speed{}, fmt.Errorf("speed %s: expected a positive number or \"max\"", raw)
	}
	return Speed{Factor: f, raw: raw}, nil
}

// loadDataset reads every record of an iex dataset and checks that they add
// up to its header's reference (as the harness's first pass does), so a
// reader bug cannot pass for a format's.
func loadDataset(path string) ([]workload.MultiMessage, error) {
	header, err := workload.ReadHeader(path)
	if err != nil {
		return nil, err
	}
	if header.Workload != workload.IexSpec.Name {
		return nil, fmt.Errorf("%s: workload %q, expected %q: replay replays IEX feeds only", path, header.Workload, workload.IexSpec.Name)
	}
	in, err := workload.OpenDataset(path, workload.IexSpec)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	// One more than announced: the reader checks the count at the end of
	// the file, and a longer file shows as an extra record.
	records, err := in.Next(int(min(header.Records, math.MaxInt32)) + 1)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if uint64(len(records)) != header.Records {
		return nil, fmt.Errorf("%s: the header announces %d records, expected the file to hold that many, it holds more", path, header.Records)
	}
	check, err := workload.IexSpec.Checker(header.Reference)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sink := workload.NewIexSink()
	for i := range records {
		workload.IexSpec.Feed(&records[i], sink)
	}
	if d := check(sink); d != "" {
		return nil, fmt.Errorf("%s: the records as read do not add up to the header's reference aggregate: %s", path, d)
	}
	return records, nil
}
