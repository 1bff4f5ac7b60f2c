package graph_test

import (
	"context"
	"os"
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

// TestExportGap builds files named by page and table ids, as sts-csv's:
// a table is whole-page-known only where the ids beside its page's run
// of tables were read and belong to other pages; a rejected table and a
// file that could not be parsed count as read.
func TestExportGap(t *testing.T) {
	in := t.TempDir()
	table := "Name,Team,Goals\n"
	for i := range 12 {
		table += "Player_" + string(rune('A'+i)) + ",Club,1" + string(rune('0'+i%10)) + "\n"
	}
	files := map[string]string{
		"20-3.csv": table, "21-4.csv": table, "21-5.csv": "A,B\nx,y\n", // rejected: too few rows
		"22-6.csv": table, "23-8.csv": table, "24-9.csv": "", "25-10.csv": table,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(in, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	if _, err := ingest.Run(context.Background(), dir, []string{in}, nil); err != nil {
		t.Fatal(err)
	}
	g, err := graph.Open(store.GraphPath(dir), &graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, c := range []struct {
		file string
		gap  uint64
		ok   bool
	}{
		{"20-3.csv", 2, true},  // table 2 was not read
		{"21-4.csv", 0, false}, // 3 is page 20's, 5 its own (rejected), 6 page 22's
		{"22-6.csv", 7, true},
		{"23-8.csv", 7, true},
		{"25-10.csv", 11, true},     // 9, an empty file, was read
		{"List_of_X.csv", 0, false}, // not named by ids
	} {
		gap, ok, err := g.ExportGap(filepath.Join(in, c.file))
		if err != nil {
			t.Fatal(err)
		}
		if gap != c.gap || ok != c.ok {
			t.Errorf("ExportGap(%s) = %d, %v; want %d, %v", c.file, gap, ok, c.gap, c.ok)
		}
	}
	if _, _, ok := graph.ExportIDs("parts.tar.gz!csv_tables_2019/tables_part_8/12774860-633577.csv"); !ok {
		t.Error("a tar member named by ids is not read as one")
	}
}
