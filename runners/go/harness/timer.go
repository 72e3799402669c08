package harness

import (
	"slices"
	"time"
)

// Timer is Go's monotonic clock (time.Now, a vDSO clock_gettime on Linux).
// Go offers no fenced TSC read, so latency samples carry the cost of two
// time.Now calls; its median is measured at start-up and subtracted.
type Timer struct {
	EmptyNs      uint64
	ResolutionNs uint64
}

func Calibrate() Timer {
	const n = 20_000
	costs := make([]int64, n)
	resolution := int64(1 << 62)
	for i := range costs {
		t := time.Now()
		costs[i] = int64(time.Since(t))
		if costs[i] > 0 && costs[i] < resolution {
			resolution = costs[i]
		}
	}
	slices.Sort(costs)
	if resolution == 1<<62 {
		resolution = 1
	}
	return Timer{EmptyNs: uint64(costs[n/2]), ResolutionNs: uint64(resolution)}
}

// Sample is the time since t minus the empty region's cost, at least 0.
func (t Timer) Sample(start time.Time) int64 {
	ns := int64(time.Since(start)) - int64(t.EmptyNs)
	return max(ns, 0)
}
