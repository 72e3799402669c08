package replay

import (
	"math"
	"runtime/metrics"
)

// Go cannot attribute allocations to a goroutine, so a run counts the
// process's, from runtime/metrics: its Read does not stop the world
// (runtime.ReadMemStats does, which would stall both goroutines mid-run).
// The runtime adds a P's small allocations to these counters when the P's
// cache of that size class is refilled, not one by one, so a count can be off
// by up to a span's worth per size class per P: over a run's second half of
// many records that is noise, over a few records it is not. Tiny objects
// (below 16 bytes, no pointers) count as the 16-byte blocks they share.
const (
	allocObjects = "/gc/heap/allocs:objects"
	allocBytes   = "/gc/heap/allocs:bytes"
	gcCycles     = "/gc/cycles/total:gc-cycles"
	gcPauses     = "/sched/pauses/total/gc:seconds"
)

// allocSamples is a fresh sample set for the allocation counters: made before
// the run, so reading it allocates nothing.
func allocSamples() []metrics.Sample {
	return []metrics.Sample{{Name: allocObjects}, {Name: allocBytes}}
}

// allocations is the process's allocations between two readings, over
// records records; null figures where the runtime has no such metric.
func allocations(from, to []metrics.Sample, records int) Allocation {
	a := Allocation{Who: "process", Records: uint64(records)}
	diff := func(i int) *uint64 {
		if from[i].Value.Kind() != metrics.KindUint64 || to[i].Value.Kind() != metrics.KindUint64 {
			return nil
		}
		d := to[i].Value.Uint64() - from[i].Value.Uint64()
		return &d
	}
	a.Count, a.Bytes = diff(0), diff(1)
	return a
}

type gcReading struct {
	ok      bool
	cycles  uint64
	counts  []uint64
	buckets []float64
}

// readGC reads the GC cycle count and the GC pause histogram (each call's
// own samples, so the histogram is not reused by a later Read).
func readGC() gcReading {
	s := []metrics.Sample{{Name: gcCycles}, {Name: gcPauses}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindFloat64Histogram {
		return gcReading{}
	}
	h := s[1].Value.Float64Histogram()
	return gcReading{ok: true, cycles: s[0].Value.Uint64(), counts: h.Counts, buckets: h.Buckets}
}

// gcBetween is the collections and pauses between two readings, or nil
// when the runtime has not the metrics. runtime/metrics keeps pauses as a
// histogram only (4 buckets per power of two), so each pause counts as its
// bucket's upper bound: pause_max_ns is the upper bound of the highest
// non-empty bucket and pause_total_ns the sum of the upper bounds, each at
// most a quarter above the true figure.
func gcBetween(a, b gcReading) *GC {
	if !a.ok || !b.ok || len(a.counts) != len(b.counts) || len(b.buckets) != len(b.counts)+1 {
		return nil
	}
	g := &GC{Collections: b.cycles - a.cycles}
	for i := range b.counts {
		n := b.counts[i] - a.counts[i]
		if n == 0 {
			continue
		}
		upper := b.buckets[i+1]
		if math.IsInf(upper, 1) {
			upper = b.buckets[i]
		}
		ns := uint64(math.Ceil(upper * 1e9))
		g.PauseTotalNs += n * ns
		g.PauseMaxNs = ns // the buckets ascend
	}
	return g
}
