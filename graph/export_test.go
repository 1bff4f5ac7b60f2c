package graph_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/store"
)

// TestBuildCSVExport builds real sts-csv tables: untitled trees, title
// cells as linked entities, the cleaning report.
func TestBuildCSVExport(t *testing.T) {
	dir := t.TempDir()
	rep, err := ingest.Run(context.Background(), dir, []string{filepath.Join("..", "ingest", "table", "testdata", "sts-csv")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Trees == 0 {
		t.Fatalf("no tree built: %+v", rep.BuildCounts)
	}
	c := rep.Cleaned
	if c.Links == 0 || c.Templates == 0 || c.HeaderRows == 0 || c.Footnotes == 0 {
		t.Errorf("cleaning report %+v: want links, templates, header rows and footnotes counted", c)
	}
	g, err := graph.Open(store.GraphPath(dir), &graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	err = g.EachTree(context.Background(), func(tr *graph.Tree) error {
		if !tr.Untitled || tr.PageTitle != "" || !strings.HasPrefix(tr.PageURL, "https://en.wikipedia.org/?curid=") {
			t.Errorf("tree %d from %s: untitled %v, title %q, url %q", tr.ID, tr.Source, tr.Untitled, tr.PageTitle, tr.PageURL)
		}
		if strings.Contains(tr.Title(), "-") && strings.ContainsAny(tr.Title(), "0123456789") {
			t.Errorf("tree %d is titled %q, a file name", tr.ID, tr.Title())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	e, err := g.EntityByKey("w:Avogadro (software)")
	if err != nil {
		t.Fatalf("linked cell Avogadro_(software) is no entity: %v", err)
	}
	if e.Name != "Avogadro (software)" || e.Type != graph.TypeEntity || e.URL != "https://en.wikipedia.org/wiki/Avogadro_(software)" {
		t.Errorf("entity %+v", e)
	}
	if _, err := g.EntityByKey("t:avogadro_(software)"); err == nil {
		t.Error("the underscored title is also a text entity")
	}
}
