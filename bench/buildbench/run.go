package buildbench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Options configure Run.
type Options struct {
	// Inputs is the corpus: built as it is when Sizes is empty, else
	// replayed (CSV tables) to each size.
	Inputs []string
	// Sizes are the table counts to replay the corpus to.
	Sizes []int
	// Work is the scratch directory for replayed corpora and stores
	// (required).
	Work string
	// Keep keeps each size's replayed corpus and store.
	Keep bool
	// Measure configures the builds.
	Measure MeasureOptions
	// Log, if set, receives a line per step.
	Log io.Writer
	// ResumeAt, when in (0, 1), also checks resume at each size: a second
	// build is killed (SIGKILL) at this fraction of the measured build's
	// wall time and run again, and its counts are compared.
	ResumeAt float64
	// Against, with ResumeAt, holds earlier results of some sizes (as
	// leaper-bench build --json printed them), by size: those sizes are
	// not measured again; the resume check is made against their wall
	// times and counts, and the result is theirs, marked Earlier.
	Against map[int]Result
}

// Run measures one build of the corpus, or one per size of its replay,
// in turn (never side by side: each has the machine).
func Run(ctx context.Context, opts *Options) ([]Result, error) {
	if opts == nil || opts.Work == "" || len(opts.Inputs) == 0 {
		return nil, fmt.Errorf("buildbench: run: want inputs and a work directory")
	}
	logf := func(format string, a ...any) {
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, format+"\n", a...)
		}
	}
	if len(opts.Sizes) == 0 {
		dir := filepath.Join(opts.Work, "store-corpus")
		logf("building %v into %s", opts.Inputs, dir)
		r, err := Measure(ctx, dir, opts.Inputs, &opts.Measure)
		if err != nil {
			return nil, err
		}
		r.Label = "corpus"
		if !opts.Keep {
			os.RemoveAll(dir)
		}
		return []Result{*r}, nil
	}
	var out []Result
	for _, n := range opts.Sizes {
		corpus := filepath.Join(opts.Work, fmt.Sprintf("replay-%d", n))
		dir := filepath.Join(opts.Work, fmt.Sprintf("store-%d", n))
		logf("replaying %v to %d tables in %s", opts.Inputs, n, corpus)
		os.RemoveAll(corpus)
		rep, err := Replay(ctx, opts.Inputs, n, corpus, nil)
		if err != nil {
			return nil, err
		}
		logf("replayed %d tables (%d replicas, %.0f MiB) in %.1fs",
			rep.Tables, rep.Replicas, float64(rep.Bytes)/(1<<20), rep.Took.Seconds())
		var r *Result
		if ref, ok := opts.Against[n]; ok && opts.ResumeAt > 0 {
			logf("not built again: the uninterrupted build is the earlier run's (%.0fs)", ref.Wall.Seconds())
			r = &ref
			r.Earlier = true
		} else {
			logf("building into %s", dir)
			if r, err = Measure(ctx, dir, []string{corpus}, &opts.Measure); err != nil {
				return nil, err
			}
		}
		r.Label = fmt.Sprintf("replay-%d", n)
		if opts.ResumeAt > 0 {
			rdir := dir + "-resume"
			kill := time.Duration(opts.ResumeAt * float64(r.Wall))
			logf("checking resume: building into %s, killed after %s, then again", rdir, kill.Round(time.Second))
			rr, err := Resume(ctx, rdir, []string{corpus}, kill, r.Counts, &opts.Measure)
			if err != nil {
				return nil, err
			}
			logf("resume: killed %v at %q; completed in %.1fs; same counts: %v", rr.Killed, rr.Stage, rr.Wall.Seconds(), rr.Same)
			r.Resume = rr
			os.RemoveAll(rdir)
		}
		out = append(out, *r)
		if !opts.Keep {
			os.RemoveAll(dir)
			os.RemoveAll(corpus)
		}
	}
	return out, nil
}
