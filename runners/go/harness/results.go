package harness

import (
	"fmt"
	"reflect"
	"slices"

	"shootout/codec"
)

// Results is the results file, schema shootout-results/2.
type Results struct {
	Schema      string         `json:"schema"`
	Runner      map[string]any `json:"runner"`
	Invocation  map[string]any `json:"invocation"`
	Environment map[string]any `json:"environment"`
	Timer       map[string]any `json:"timer"`
	Settings    Settings       `json:"settings"`
	Workload    map[string]any `json:"workload"`
	Runs        []RunInfo      `json:"runs"`
	Formats     []FormatResult `json:"formats"`
	Failed      []FailedFormat `json:"failed"`
	NotRun      []NotRun       `json:"not_run"`
	Warnings    []string       `json:"warnings"`
	// Every format and direction whose ns/op varied across runs by more than 5 % of its median.
	Noisy []string `json:"noisy"`
}

type FormatResult struct {
	Name           string       `json:"name"`
	Family         string       `json:"family"`
	Library        string       `json:"library"`
	LibraryVersion string       `json:"library_version"`
	Baseline       bool         `json:"baseline"`
	Labels         codec.Labels `json:"labels"`
	Tags           []string     `json:"tags"`
	Notes          string       `json:"notes"`
	EncodedBytes   uint64       `json:"encoded_bytes"`
	BytesPerRecord float64      `json:"bytes_per_record"`
	ZstdBytes      uint64       `json:"zstd_bytes"`
	ZstdLevel      int          `json:"zstd_level"`
	ZstdRatio      float64      `json:"zstd_ratio"`
	Features       any          `json:"features"`
	Encode         Direction    `json:"encode"`
	Decode         Direction    `json:"decode"`
}

type FailedFormat struct {
	Name           string `json:"name"`
	Family         string `json:"family"`
	Library        string `json:"library"`
	LibraryVersion string `json:"library_version"`
	Failure
}

type NotRun struct {
	Name   string `json:"name"`
	Family string `json:"family"`
	Reason string `json:"reason"`
}

type Direction struct {
	Summary  map[string]any `json:"summary"`
	Relative *Relative      `json:"relative"`
	Runs     []RunEntry     `json:"runs"`
}

type RunEntry struct {
	RunStats
	OrderPosition float64 `json:"order_position"`
}

type Relative struct {
	Fastest                      bool     `json:"fastest"`
	Ratio                        float64  `json:"ratio"`
	Interval                     Interval `json:"interval"`
	IndistinguishableFromFastest bool     `json:"indistinguishable_from_fastest"`
}

// summaryKeys are RunStats' numbers, summarised as {median, min, max}.
var summaryKeys = func() []int {
	t := reflect.TypeFor[RunStats]()
	var keys []int
	for i := range t.NumField() {
		switch t.Field(i).Type.Kind() {
		case reflect.Float64, reflect.Int64, reflect.Uint64:
			keys = append(keys, i)
		}
	}
	return keys
}()

func summarise(runs []RunStats) map[string]any {
	out := map[string]any{}
	t := reflect.TypeFor[RunStats]()
	for _, i := range summaryKeys {
		xs := make([]float64, len(runs))
		for r := range runs {
			v := reflect.ValueOf(runs[r]).Field(i)
			switch v.Kind() {
			case reflect.Float64:
				xs[r] = v.Float()
			case reflect.Int64:
				xs[r] = float64(v.Int())
			default:
				xs[r] = float64(v.Uint())
			}
		}
		tag := t.Field(i).Tag.Get("json")
		out[tag] = map[string]float64{"median": median(xs), "min": slices.Min(xs), "max": slices.Max(xs)}
	}
	ns := nsPerOp(runs)
	out["ns_per_op_ci"] = bootstrapMedian(ns)
	var o Outliers
	for _, r := range runs {
		o.Low += r.Outliers.Low
		o.High += r.Outliers.High
	}
	out["outliers"] = o
	return out
}

func nsPerOp(runs []RunStats) []float64 {
	xs := make([]float64, len(runs))
	for i, r := range runs {
		xs[i] = r.NsPerOp
	}
	return xs
}

// Build turns measurements into the formats, failed and noisy sections.
// versions maps a library (module path, or "std") to the version linked.
func Build(m *Measured, versions func(string) string) ([]FormatResult, []FailedFormat, []string) {
	var failed []FailedFormat
	var noisy []string
	type dir struct {
		name string
		get  func(Measurement) RunStats
		set  func(*FormatResult) *Direction
	}
	dirs := []dir{
		{"encode", func(m Measurement) RunStats { return m.Encode }, func(f *FormatResult) *Direction { return &f.Encode }},
		{"decode", func(m Measurement) RunStats { return m.Decode }, func(f *FormatResult) *Direction { return &f.Decode }},
	}
	var measured []FormatRuns
	for _, f := range m.Formats {
		if f.Failure != nil {
			failed = append(failed, FailedFormat{Name: f.Info.Name, Family: f.Info.Family, Library: f.Info.Library,
				LibraryVersion: versions(f.Info.Library), Failure: *f.Failure})
			continue
		}
		measured = append(measured, f)
	}
	results := make([]FormatResult, len(measured))
	for i, f := range measured {
		results[i] = FormatResult{Name: f.Info.Name, Family: f.Info.Family, Library: f.Info.Library,
			LibraryVersion: versions(f.Info.Library), Baseline: f.Info.Name == BaselineName, Labels: f.Info.Labels,
			Tags: f.Info.Labels.Tags(), Notes: f.Info.Notes, EncodedBytes: f.EncodedBytes,
			BytesPerRecord: float64(f.EncodedBytes) / float64(max(m.Operations, 1)),
			ZstdBytes:      f.ZstdBytes, ZstdLevel: ZstdLevel, ZstdRatio: float64(f.EncodedBytes) / float64(max(f.ZstdBytes, 1))}
	}
	for _, d := range dirs {
		fastest := -1
		for i, f := range measured {
			if results[i].Baseline {
				continue
			}
			if fastest < 0 || median(nsPerOp(stats(f.Runs, d.get))) < median(nsPerOp(stats(measured[fastest].Runs, d.get))) {
				fastest = i
			}
		}
		for i, f := range measured {
			runs := stats(f.Runs, d.get)
			out := d.set(&results[i])
			out.Summary = summarise(runs)
			for j, r := range runs {
				out.Runs = append(out.Runs, RunEntry{RunStats: r, OrderPosition: f.Runs[j].OrderPosition})
			}
			ns := nsPerOp(runs)
			if fastest >= 0 {
				best := nsPerOp(stats(measured[fastest].Runs, d.get))
				a, b := bootstrapMedian(ns), bootstrapMedian(best)
				out.Relative = &Relative{Fastest: i == fastest, Ratio: median(ns) / median(best), Interval: bootstrapRatio(ns, best),
					IndistinguishableFromFastest: a.Low <= b.High && b.Low <= a.High}
			}
			if spread := (slices.Max(ns) - slices.Min(ns)) / median(ns); len(ns) > 1 && spread > 0.05 {
				noisy = append(noisy, fmt.Sprintf("%s %s: ns/op varied %.1f%% across runs (%.1f–%.1f, median %.1f); more --runs or a quieter machine would tighten it",
					f.Info.Name, d.name, spread*100, slices.Min(ns), slices.Max(ns), median(ns)))
			}
		}
	}
	return results, failed, noisy
}

func stats(ms []Measurement, get func(Measurement) RunStats) []RunStats {
	out := make([]RunStats, len(ms))
	for i, m := range ms {
		out[i] = get(m)
	}
	return out
}
