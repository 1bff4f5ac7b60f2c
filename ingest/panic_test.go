package ingest

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/ingest/table"
	"github.com/leaper-dev/leaper/store"
)

// TestCleaningPanic: a bug met while cleaning one table skips that table
// as a record that could not be read, named by its source; the build goes
// on, reports it, and leaves a store that opens.
func TestCleaningPanic(t *testing.T) {
	corpus := graphtest.Corpus()
	ref, err := Run(context.Background(), t.TempDir(), []string{corpus}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	var victim atomic.Value
	prepareTable = func(tb *table.Table, o CleanOptions) *graph.Prepared {
		if calls.Add(1) == 3 {
			victim.Store(tb.Source)
			var m map[string]int
			m[tb.Source]++ // a bug: assignment to a nil map
		}
		return Prepare(tb, o)
	}
	defer func() { prepareTable = Prepare }()
	var skips []*table.ParseError
	dir := t.TempDir()
	rep, err := Run(context.Background(), dir, []string{corpus}, &Options{OnSkip: func(e *table.ParseError) { skips = append(skips, e) }})
	if err != nil {
		t.Fatalf("build with a panicking table: %v", err)
	}
	if len(skips) != 1 {
		t.Fatalf("%d skips, want 1: %v", len(skips), skips)
	}
	e := skips[0]
	t.Logf("skipped: %v", e)
	if e.Reason != ReasonCleaningFailed || e.File != victim.Load() || !strings.Contains(e.Msg, "nil map") || !strings.Contains(e.Msg, "panic_test.go:") {
		t.Errorf("skip = %v, want %s of %v naming the panic", e, ReasonCleaningFailed, victim.Load())
	}
	if got, want := rep.Tables+rep.Duplicates, ref.Tables+ref.Duplicates-1; got != want || rep.Skipped != 1 {
		t.Errorf("%d tables read and %d skipped, want %d and 1", got, rep.Skipped, want)
	}
	st, err := graph.Open(store.GraphPath(dir), nil)
	if err != nil {
		t.Fatalf("reopening the store: %v", err)
	}
	defer st.Close()
	if c := st.Manifest().Counts; c.Skipped != 1 || c.Trees+c.Rejected != rep.Counts.Trees+rep.Counts.Rejected {
		t.Errorf("reopened store counts %+v", c)
	}
}
