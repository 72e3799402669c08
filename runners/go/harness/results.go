package harness

import "shootout/codec"

const Schema = "shootout-results/3"

// Results is the results file, schema shootout-results/3: raw figures per
// run; the Rust CLI computes every statistic from them.
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

// Direction is one direction's measured runs.
type Direction struct {
	Runs []Run `json:"runs"`
}

// Run is one measured run of one direction: raw figures only.
type Run struct {
	// The timed window loops of every throughput round, summed, and the
	// operations in them: records × rounds.
	TotalNs int64 `json:"total_ns"`
	// TotalNs round by round (they add up to it).
	RoundNs []int64 `json:"round_ns"`
	Ops     uint64  `json:"ops"`
	// The latency pass's HdrHistogram, V2 compressed, base64.
	Histogram string `json:"histogram"`
	// Over the allocation pass's operations (one round).
	AllocationsPerOp    float64 `json:"allocations_per_op"`
	AllocatedBytesPerOp float64 `json:"allocated_bytes_per_op"`
	// The format's mean position in the windows' shuffled order, from 0.
	OrderPosition float64 `json:"order_position"`
}

// Build turns measurements into the formats and failed sections.
// versions maps a library (module path, or "std") to the version linked.
func Build(m *Measured, versions func(string) string) ([]FormatResult, []FailedFormat) {
	var results []FormatResult
	var failed []FailedFormat
	for _, f := range m.Formats {
		if f.Failure != nil {
			failed = append(failed, FailedFormat{Name: f.Info.Name, Family: f.Info.Family, Library: f.Info.Library,
				LibraryVersion: versions(f.Info.Library), Failure: *f.Failure})
			continue
		}
		r := FormatResult{Name: f.Info.Name, Family: f.Info.Family, Library: f.Info.Library,
			LibraryVersion: versions(f.Info.Library), Baseline: f.Info.Name == BaselineName, Labels: f.Info.Labels,
			Tags: f.Info.Labels.Tags(), Notes: f.Info.Notes, EncodedBytes: f.EncodedBytes,
			BytesPerRecord: float64(f.EncodedBytes) / float64(max(m.Operations, 1)),
			ZstdBytes:      f.ZstdBytes, ZstdLevel: ZstdLevel, ZstdRatio: float64(f.EncodedBytes) / float64(max(f.ZstdBytes, 1))}
		for _, run := range f.Runs {
			r.Encode.Runs = append(r.Encode.Runs, run.Encode)
			r.Decode.Runs = append(r.Decode.Runs, run.Decode)
		}
		results = append(results, r)
	}
	return results, failed
}
