package serve

import (
	"container/list"
	"context"
	"sync"
	"sync/atomic"
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
// admitted in the order they came. It is golang.org/x/sync/semaphore's
// Weighted for units of one, which also counts its waiters (for tests
// and /stats).
type gate struct {
	mu      sync.Mutex
	free    int
	waiters list.List // of chan struct{}, closed to admit
	n       int
	// running and peak count the evaluations in the gate, for tests.
	running, peak atomic.Int64
}

func newGate(n int) *gate {
	return &gate{free: n, n: n}
}

// do runs fn once a slot is free and every earlier waiter is admitted,
// or returns ctx's error if the context ends first. The slot is given
// back even if fn panics.
func (g *gate) do(ctx context.Context, fn func() error) error {
	if err := g.acquire(ctx); err != nil {
		return err
	}
	defer g.release()
	r := g.running.Add(1)
	defer g.running.Add(-1)
	for {
		p := g.peak.Load()
		if r <= p || g.peak.CompareAndSwap(p, r) {
			break
		}
	}
	return fn()
}

func (g *gate) acquire(ctx context.Context) error {
	g.mu.Lock()
	if g.free > 0 && g.waiters.Len() == 0 {
		g.free--
		g.mu.Unlock()
		return nil
	}
	ready := make(chan struct{})
	e := g.waiters.PushBack(ready)
	g.mu.Unlock()
	select {
	case <-ready:
		return nil
	case <-ctx.Done():
		g.mu.Lock()
		select {
		case <-ready:
			// Admitted meanwhile: pass the slot on.
			g.mu.Unlock()
			g.release()
		default:
			g.waiters.Remove(e)
			g.mu.Unlock()
		}
		return ctx.Err()
	}
}

// release gives a slot to the first waiter, or back.
func (g *gate) release() {
	g.mu.Lock()
	if e := g.waiters.Front(); e != nil {
		g.waiters.Remove(e)
		close(e.Value.(chan struct{}))
	} else {
		g.free++
	}
	g.mu.Unlock()
}

// waiting is the number of evaluations waiting for a slot.
func (g *gate) waiting() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.waiters.Len()
}
