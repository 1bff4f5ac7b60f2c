package synth_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/synth"
	"github.com/leaper-dev/leaper/task"
)

// TestUntitledTreesLeftOut builds real sts-csv tables, whose files are
// named by page and table ids: without titles no task is made from them
// (a question would name a file); with --titles the same tree gives tasks
// that name the page, never the file, with --cut only: the files are a
// sample of the export's, and a table of the page beside each may be lost.
func TestUntitledTreesLeftOut(t *testing.T) {
	in := filepath.Join(graphtest.RepoRoot(), "ingest", "table", "testdata", "sts-csv")
	for _, titled := range []bool{false, true} {
		dir := t.TempDir()
		opts := &ingest.Options{}
		if titled {
			opts.Titles = map[string][3]string{"20220596-526655.csv": {"Comparison of force-field implementations", ""}}
		}
		if _, err := ingest.Run(context.Background(), dir, []string{in}, opts); err != nil {
			t.Fatal(err)
		}
		g, err := graph.Open(store.GraphPath(dir), &graph.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		// The files are a few of the export's: beside each, a table of
		// its page may be lost, and only --cut asks of them.
		var tasks, exact []*task.Task
		for _, cut := range []bool{false, true} {
			_, err = synth.Run(context.Background(), g, &synth.Options{Variant: "basic", N: 5, Seed: 1, Cut: cut}, func(tk *task.Task) error {
				if cut {
					tasks = append(tasks, tk)
				} else {
					exact = append(exact, tk)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		// The auditor, but with --cut, refuses them by its own path.
		aud, err := audit.New(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range tasks {
			r, err := aud.Audit(context.Background(), tk)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Has(audit.CutTable) {
				t.Errorf("%s: the auditor finds no cut_table in a sample of an export", tk.ID)
			}
		}
		g.Close()
		switch {
		case len(exact) > 0:
			t.Errorf("trees of a sample of an export gave %d tasks without --cut, first %q", len(exact), exact[0].Question)
		case !titled && len(tasks) > 0:
			t.Errorf("untitled trees gave %d tasks, first %q", len(tasks), tasks[0].Question)
		case titled && len(tasks) == 0:
			t.Error("the titled tree gave no task with --cut")
		}
		for _, tk := range tasks {
			if strings.Contains(tk.Question, "20220596") || strings.Contains(tk.Question, "Untitled") {
				t.Errorf("question names the file: %q", tk.Question)
			}
		}
	}
}
