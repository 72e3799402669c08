// Package study measures the published Go studies as their documents did,
// one file per study, and answers `shootout study` with a
// shootout-study-figures/1 object (spec/studies/README.md).
package study

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"shootout/harness"
)

// Figures is the shootout-study-figures/1 answer.
type Figures struct {
	Schema      string             `json:"schema"`
	Study       string             `json:"study"`
	Language    string             `json:"language"`
	Environment map[string]any     `json:"environment"`
	Variants    []Variant          `json:"variants"`
	Facts       map[string]float64 `json:"facts"`
	Departures  []string           `json:"departures"`
}

// Variant is one way of measuring: the study's own ("study", always first)
// or the project's practice beside it.
type Variant struct {
	ID     string  `json:"id"`
	Title  string  `json:"title"`
	Tables []Table `json:"tables"`
}

type Table struct {
	ID   string `json:"id"`
	Rows []Row  `json:"rows"`
}

type Row struct {
	Label  string             `json:"label"`
	Values map[string]float64 `json:"values"`
	// Runs are each repetition's value of a figure, whose spread decides a
	// comparison in `shootout study`.
	Runs map[string][]float64 `json:"runs,omitempty"`
}

// measurement is what a study's measuring function returns: Measure adds
// the schema, names and environment.
type measurement struct {
	// libraries are the versions of the modules measured, by module path
	// ("std" for the standard library's), for the environment.
	libraries  map[string]string
	variants   []Variant
	facts      map[string]float64
	departures []string
}

// studies are the studies this runner measures, by the name
// spec/studies/<name>.json has.
var studies = map[string]func(environment map[string]any) (measurement, error){
	"go-flatbuffers-json": flatbufJSON,
}

// Names are the known studies, sorted.
func Names() []string {
	return slices.Sorted(maps.Keys(studies))
}

// UsageError is a request the command line got wrong: an unknown study or a
// benchtime `go test` would not take.
type UsageError struct{ error }

// Measure runs the named study, each benchmark for benchtime (as `go test
// -benchtime` takes it: a duration, or Nx for N iterations; "" is Go's 1s).
func Measure(name, benchtime string) (*Figures, error) {
	measure, ok := studies[name]
	if !ok {
		return nil, UsageError{fmt.Errorf("--study: unknown study %q (known: %s)", name, strings.Join(Names(), ", "))}
	}
	started := time.Now()
	if benchtime != "" {
		restore, err := setBenchtime(benchtime)
		if err != nil {
			return nil, UsageError{fmt.Errorf("--benchtime: %w", err)}
		}
		defer restore()
	}
	env := harness.Environment(started)
	m, err := measure(env)
	if err != nil {
		return nil, err
	}
	env["libraries"] = m.libraries
	if benchtime != "" {
		m.departures = append(m.departures, fmt.Sprintf("Each benchmark ran for --benchtime %s, not go test's default 1s.", benchtime))
	}
	return &Figures{
		Schema: "shootout-study-figures/1", Study: name, Language: "go",
		Environment: env, Variants: m.variants, Facts: m.facts, Departures: m.departures,
	}, nil
}

// setBenchtime sets what testing.Benchmark runs each benchmark for: it reads
// only the -test.benchtime flag, registered by testing.Init. restore puts
// the previous value back, so a test binary's own benchmarks keep theirs.
func setBenchtime(value string) (restore func(), err error) {
	testing.Init()
	f := flag.Lookup("test.benchtime")
	previous := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		return nil, err
	}
	return func() { _ = f.Value.Set(previous) }, nil
}

// benchmark is one row of a table: its label and its go test benchmark.
type benchmark struct {
	label string
	run   func(b *testing.B)
}

// Repetitions is how many times each benchmark runs (go test -count): the
// study ran each once, which gives no spread to weigh a ratio against.
const Repetitions = 5

// table runs each benchmark Repetitions times with testing.Benchmark, the
// benchmarks in turn within each repetition (so a slow minute of the
// machine falls on all of them), keeping the statistic `go test -bench
// -benchmem` prints of each run: ns/op (here unrounded), and B/op and
// allocs/op as its integers. A row's values are the median of its runs.
func table(id string, benchmarks []benchmark) (Table, error) {
	t := Table{ID: id}
	runs := make([]map[string][]float64, len(benchmarks))
	for range Repetitions {
		for i, bm := range benchmarks {
			r := testing.Benchmark(bm.run)
			if r.N == 0 {
				// testing.Benchmark discards a failed benchmark's message; the
				// tests run every operation outside it and say what failed.
				return t, errors.New(bm.label + ": the benchmark failed (go test ./study says why)")
			}
			if runs[i] == nil {
				runs[i] = map[string][]float64{}
			}
			runs[i]["ns_per_op"] = append(runs[i]["ns_per_op"], float64(r.T.Nanoseconds())/float64(r.N))
			runs[i]["bytes_per_op"] = append(runs[i]["bytes_per_op"], float64(r.AllocedBytesPerOp()))
			runs[i]["allocs_per_op"] = append(runs[i]["allocs_per_op"], float64(r.AllocsPerOp()))
		}
	}
	for i, bm := range benchmarks {
		medians := map[string]float64{}
		for key, each := range runs[i] {
			medians[key] = median(each)
		}
		t.Rows = append(t.Rows, Row{Label: bm.label, Values: medians, Runs: runs[i]})
	}
	return t, nil
}

// median is the middle value, or the mean of the middle two.
func median(values []float64) float64 {
	sorted := slices.Sorted(slices.Values(values))
	mid := len(sorted) / 2
	if len(sorted)%2 == 1 {
		return sorted[mid]
	}
	return (sorted[mid-1] + sorted[mid]) / 2
}
