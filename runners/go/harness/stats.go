package harness

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/HdrHistogram/hdrhistogram-go"
)

type Outliers struct {
	Low  uint64 `json:"low"`
	High uint64 `json:"high"`
}

// RunStats is one measured run of one direction (docs/results-schema.md).
type RunStats struct {
	NsPerOp             float64  `json:"ns_per_op"`
	TotalNs             int64    `json:"total_ns"`
	Ops                 uint64   `json:"ops"`
	OpsPerS             float64  `json:"ops_per_s"`
	MBPerS              float64  `json:"mb_per_s"`
	P50Ns               int64    `json:"p50_ns"`
	P90Ns               int64    `json:"p90_ns"`
	P99Ns               int64    `json:"p99_ns"`
	P999Ns              int64    `json:"p999_ns"`
	MaxNs               int64    `json:"max_ns"`
	LatencyMeanNs       float64  `json:"latency_mean_ns"`
	Outliers            Outliers `json:"outliers"`
	Histogram           string   `json:"histogram"`
	AllocationsPerOp    float64  `json:"allocations_per_op"`
	AllocatedBytesPerOp float64  `json:"allocated_bytes_per_op"`
}

func finish(d *direction) RunStats {
	h := d.latency
	ops := float64(max(d.ops, 1))
	secs := float64(max(d.loopNs, 1)) / 1e9
	// Encode's output is already the base64 text form of a V2 compressed histogram.
	encoded, _ := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	return RunStats{
		NsPerOp: float64(d.loopNs) / ops, TotalNs: d.loopNs, Ops: d.ops,
		OpsPerS: float64(d.ops) / secs, MBPerS: float64(d.bytes) / 1e6 / secs,
		P50Ns: h.ValueAtQuantile(50), P90Ns: h.ValueAtQuantile(90), P99Ns: h.ValueAtQuantile(99), P999Ns: h.ValueAtQuantile(99.9),
		MaxNs: h.Max(), LatencyMeanNs: h.Mean(), Outliers: tukey(h),
		Histogram:           string(encoded),
		AllocationsPerOp:    float64(d.allocs) / ops,
		AllocatedBytesPerOp: float64(d.allocBytes) / ops,
	}
}

// tukey counts samples beyond Q1 − 1.5·IQR and Q3 + 1.5·IQR.
func tukey(h *hdrhistogram.Histogram) Outliers {
	q1, q3 := float64(h.ValueAtQuantile(25)), float64(h.ValueAtQuantile(75))
	lo, hi := q1-1.5*(q3-q1), q3+1.5*(q3-q1)
	var o Outliers
	for _, bar := range h.Distribution() {
		switch {
		case float64(bar.To) < lo:
			o.Low += uint64(bar.Count)
		case float64(bar.From) > hi:
			o.High += uint64(bar.Count)
		}
	}
	return o
}

// median of an even count is the mean of the middle two.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

const resamples = 2000

func resample(rng *rand.Rand, xs, into []float64) []float64 {
	into = into[:0]
	for range xs {
		into = append(into, xs[rng.IntN(len(xs))])
	}
	return into
}

func percentileInterval(stats []float64) Interval {
	slices.Sort(stats)
	at := func(q float64) float64 { return stats[int(math.Round(q*float64(len(stats)-1)))] }
	return Interval{at(0.025), at(0.975)}
}

// bootstrapMedian is the 95 % interval of the median (fixed seed).
func bootstrapMedian(xs []float64) Interval {
	rng := rand.New(rand.NewPCG(1, 2))
	stats := make([]float64, resamples)
	var buf []float64
	for i := range stats {
		buf = resample(rng, xs, buf)
		stats[i] = median(buf)
	}
	return percentileInterval(stats)
}

// bootstrapRatio is the 95 % interval of median(xs) / median(ys), both resampled.
func bootstrapRatio(xs, ys []float64) Interval {
	rng := rand.New(rand.NewPCG(3, 4))
	stats := make([]float64, resamples)
	var a, b []float64
	for i := range stats {
		a, b = resample(rng, xs, a), resample(rng, ys, b)
		stats[i] = median(a) / median(b)
	}
	return percentileInterval(stats)
}
