package agent

import (
	"context"
	"sync"

	"github.com/leaper-dev/leaper/task"
	"golang.org/x/sync/errgroup"
)

// RunAll runs tasks on up to opts.Workers goroutines (default 1) over one
// backend and emits each trajectory in task order as soon as the ones
// before it are done, so output can be written progressively. A task whose
// model fails ends with End "error" and is emitted like the others; RunAll
// stops at the first emit error or when ctx is cancelled. Cancelled, it
// still emits the trajectories that finished behind an unfinished one (in
// task order, after the others): a rollout stopped while one task waits on
// a slow model keeps every task that was done.
func RunAll(ctx context.Context, tasks []*task.Task, p Policy, b Backend, opts *Options,
	emit func(i int, t *Trajectory) error) error {
	o, err := opts.withDefaults()
	if err != nil {
		return err
	}
	parent := ctx
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(o.Workers)
	var mu sync.Mutex
	done := make([]*Trajectory, len(tasks))
	next := 0
	for i, t := range tasks {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			tr, err := Run(ctx, t, p, b, opts)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			done[i] = tr
			for next < len(done) && done[next] != nil {
				if err := emit(next, done[next]); err != nil {
					return err
				}
				done[next] = nil
				next++
			}
			return nil
		})
	}
	err = g.Wait()
	if parent.Err() != nil {
		mu.Lock()
		defer mu.Unlock()
		for j := next; j < len(done); j++ {
			if done[j] != nil {
				if err := emit(j, done[j]); err != nil {
					return err
				}
				done[j] = nil
			}
		}
		return parent.Err()
	}
	return err
}
