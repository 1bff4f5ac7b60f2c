package serve

import (
	"context"
	"sync/atomic"

	"golang.org/x/sync/semaphore"
)

// Query evaluation is CPU-bound. With many requests in flight on few
// cores, Go's scheduler shares the CPU among all of them, so a query
// that needs 10 ms of CPU takes the time of everyone else's share as
// well, and one expensive query ahead of a cheap one stretches both.
// A gate of about one evaluation per core, taken in arrival order,
// turns that into a queue: a request waits for the ones before it, then
// runs at a core's speed. Throughput does not change; the spread of
// latencies does (in a closed loop of C clients the median is about C
// over the throughput, whatever the policy).

// gate bounds the query evaluations running at once; waiters are
// admitted in the order they came (semaphore.Weighted is FIFO).
type gate struct {
	sem *semaphore.Weighted
	n   int
	// running and peak count the evaluations in the gate, for tests.
	running, peak atomic.Int64
	// admitted, when set (tests), runs in the slot before fn.
	admitted func()
}

func newGate(n int) *gate {
	return &gate{sem: semaphore.NewWeighted(int64(n)), n: n}
}

// do runs fn once a slot is free, or returns ctx's error if the context
// ends first. The slot is given back even if fn panics.
func (g *gate) do(ctx context.Context, fn func() error) error {
	if err := g.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer g.sem.Release(1)
	r := g.running.Add(1)
	defer g.running.Add(-1)
	for {
		p := g.peak.Load()
		if r <= p || g.peak.CompareAndSwap(p, r) {
			break
		}
	}
	if g.admitted != nil {
		g.admitted()
	}
	return fn()
}
