package replay

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
)

// The two goroutines of a run, as pinner.pin's role.
const (
	producer = iota
	consumer
)

// pinner pins each run's producer and consumer threads to a core of their
// own where the process may use two or more (Linux's sched_setaffinity; Go
// has no portable affinity API), and says what was done.
type pinner struct {
	// cpus are the producer's and the consumer's, nil when not pinning.
	cpus []int
	// why not, when cpus is nil.
	why string

	mu     sync.Mutex
	failed string
}

func newPinner() *pinner {
	cpus, err := allowedCPUs()
	switch {
	case err != nil:
		return &pinner{why: err.Error()}
	case len(cpus) < 2:
		return &pinner{why: fmt.Sprintf("the process may use %d CPU", len(cpus))}
	}
	return &pinner{cpus: cpus[:2]}
}

// pin pins the calling thread (its goroutine locked to it) to role's core.
func (p *pinner) pin(role int) {
	if p.cpus == nil {
		return
	}
	if err := pinThread(p.cpus[role]); err != nil {
		p.mu.Lock()
		if p.failed == "" {
			p.failed = err.Error()
		}
		p.mu.Unlock()
	}
}

// String is the results' pinning.
func (p *pinner) String() string {
	var b strings.Builder
	b.WriteString("producer and consumer goroutines each locked to an OS thread of its own (runtime.LockOSThread, for the run: the thread ends with it); ")
	switch {
	case p.cpus == nil:
		fmt.Fprintf(&b, "not pinned to cores (%s)", p.why)
	case p.failed != "":
		fmt.Fprintf(&b, "pinning them to CPUs %d and %d with sched_setaffinity failed at least once (%s), so some runs were not pinned", p.cpus[0], p.cpus[1], p.failed)
	default:
		fmt.Fprintf(&b, "pinned with sched_setaffinity (golang.org/x/sys/unix): producer to CPU %d, consumer to CPU %d", p.cpus[0], p.cpus[1])
	}
	fmt.Fprintf(&b, "; GOMAXPROCS %d", runtime.GOMAXPROCS(0))
	if runtime.GOMAXPROCS(0) < 2 {
		b.WriteString(", so every busy-wait yields the P (runtime.Gosched) for the other goroutine")
	}
	return b.String()
}
