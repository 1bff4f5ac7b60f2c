package synth_test

import (
	"context"
	"os"
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/internal/cputime"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/synth"
	"github.com/leaper-dev/leaper/task"
)

// benchGraph opens LEAPER_BENCH_STORE (a store built from the shared
// corpus, e.g. leaper build --store /tmp/full ../shared/corpus), or the
// sample store.
func benchGraph(b *testing.B) *graph.Store {
	dir := os.Getenv("LEAPER_BENCH_STORE")
	if dir == "" {
		return storetest.OpenGraph(b)
	}
	g, err := graph.Open(store.GraphPath(dir), &graph.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { g.Close() })
	return g
}

// BenchmarkSynth reports tasks/s per variant, plain, with one expansion
// and with aggregates (loading the trees and mining included), and the
// share of candidates dropped; tasks/cpu-s divides by the process's CPU
// time instead of the wall clock, which a loaded machine stretches.
func BenchmarkSynth(b *testing.B) {
	g := benchGraph(b)
	for _, c := range configs {
		b.Run(c.name, func(b *testing.B) {
			o := c.opts
			o.N, o.Seed = 50, 1
			tasks, cands, targets := 0, 0, 0
			cpu0 := cputime.Process()
			for b.Loop() {
				st, err := synth.Run(context.Background(), g, &o, func(t *task.Task) error {
					targets += len(t.Targets)
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
				tasks += st.Emitted
				cands += st.Candidates
			}
			b.ReportMetric(float64(tasks)/b.Elapsed().Seconds(), "tasks/s")
			if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
				b.ReportMetric(float64(tasks)/cpu, "tasks/cpu-s")
			}
			b.ReportMetric(1-float64(tasks)/float64(max(1, cands)), "dropped/candidate")
			b.ReportMetric(float64(targets)/float64(max(1, tasks)), "targets/task")
		})
	}
}
