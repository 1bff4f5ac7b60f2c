package synth_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/synth"
	"github.com/leaper-dev/leaper/task"
)

// TestSplitSectionsLastTable: where a sampled page's sections run over
// several tables ("Family Pitheciidae" in two), its last table given may
// go on in one the sample dropped: "Family Atelidae" gives the howler
// monkeys only, and "every species" of the family is not on record
// (round 170; testdata/audit/split). synth asks of it with --cut only,
// and the auditor flags a task of it as cut.
func TestSplitSectionsLastTable(t *testing.T) {
	g := storetest.BuildGraph(t, "audit", "split")
	var atelidae, aotidae uint32
	if err := g.EachTree(context.Background(), func(tr *graph.Tree) error {
		switch {
		case strings.Contains(tr.Section, "Atelidae"):
			atelidae = tr.ID
		case strings.Contains(tr.Section, "Aotidae"):
			aotidae = tr.ID
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if atelidae == 0 || aotidae == 0 {
		t.Fatal("the New World monkeys' Atelidae or Aotidae table not built")
	}
	ask := func(cut bool) []*task.Task {
		tasks, _ := run(t, g, synth.Options{Variant: "basic", N: 40, Seed: 1, Cut: cut})
		return tasks
	}
	of := func(ts []*task.Task, id uint32) []*task.Task {
		var out []*task.Task
		for _, tk := range ts {
			if slices.Contains(tk.Trees, id) {
				out = append(out, tk)
			}
		}
		return out
	}
	exact := ask(false)
	if n := len(of(exact, atelidae)); n > 0 {
		t.Errorf("%d tasks ask for every species of Family Atelidae, whose spider monkeys the source dropped", n)
	}
	if len(of(exact, aotidae)) == 0 {
		t.Error("no task of Family Aotidae, a section of one table with tables given after it")
	}
	cut := of(ask(true), atelidae)
	if len(cut) == 0 {
		t.Fatal("--cut asks nothing of Family Atelidae")
	}
	a, err := audit.New(g)
	if err != nil {
		t.Fatal(err)
	}
	r, err := a.Audit(context.Background(), cut[0])
	if err != nil {
		t.Fatal(err)
	}
	if !r.Has(audit.CutTable) {
		t.Errorf("%s, of Family Atelidae, not flagged as cut: %v", cut[0].Question, r)
	}
}
