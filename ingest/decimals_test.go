package ingest

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/ingest/table"
)

// TestColumnDecimals: a column of averages written "2.0", "4.5" keeps its
// decimals on the page, though 2 is also a count of games another column
// writes "2": one entity, two forms, each its column's; a column of
// attendances written "78,040" keeps its groups, and so does one of
// grosses written "$ 424,208,848"; one of turnouts written "47,7%" keeps
// its decimal comma, and one of shares written "43.0%" its decimal.
func TestColumnDecimals(t *testing.T) {
	tb := mk([]string{"Player", "GP", "APG", "Team", "Attendance", "Gross", "Turnout", "Share"}, [][]string{
		{"@Ada Smith", "2", "2.0", "@Berlin", "78,040", "$ 424,208,848", "47,7%", "43.0%"},
		{"@Bob Jones", "4", "4.5", "@Paris", "812", "$ 812", "52,0%", "24.7%"},
		{"@Cleo Brown", "7", "1.5", "@Oslo", "9,500", "$ 9,500", "38,1%", "37.0%"},
		{"@Dan White", "5", "2.5", "@Rome", "12,001", "$ 12,001", "61,4%", "17.8 %"},
	})
	g, tr := buildOne(t, tb)
	var apg, att, gross, turnout, share string
	for _, c := range tr.Columns {
		switch c.Header {
		case "APG":
			apg = c.Name
		case "Attendance":
			att = c.Name
		case "Gross":
			gross = c.Name
		case "Turnout":
			turnout = c.Name
		case "Share":
			share = c.Name
		}
	}
	// "47,7%": a decimal comma, kept as the column writes it
	// "43.0%": the percent the column's mark, the decimal the figure's
	if want := map[string]int{apg: 1, turnout: 1, share: 1}; !reflect.DeepEqual(tr.Decimals, want) {
		t.Errorf("Decimals = %v, want %v", tr.Decimals, want)
	}
	// "$ 424,208,848": the currency is the column's mark, the groups the figure's
	if want := map[string]bool{att: true, gross: true}; !reflect.DeepEqual(tr.Grouped, want) {
		t.Errorf("Grouped = %v, want %v", tr.Grouped, want)
	}
	p, err := g.Page(tb.PageURL)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, s := range p.Segments {
		text.WriteString(s.Text + "\n")
	}
	if want := map[string]bool{turnout: true}; !reflect.DeepEqual(tr.Comma, want) {
		t.Errorf("Comma = %v, want %v", tr.Comma, want)
	}
	if !strings.Contains(text.String(), "| Ada Smith | 2 | 2.0 | Berlin | 78,040 | 424,208,848 | 47,7 | 43.0 |") || !strings.Contains(text.String(), "| 52,0 |") {
		t.Errorf("the page does not write Ada Smith's 2 games and 2.0 assists as the table does:\n%s", text.String())
	}
	if got, ok := tr.FigureIn(apg, "2"); !ok || got != "2.0" {
		t.Errorf("FigureIn(APG, 2) = %q, %v", got, ok)
	}
	if _, ok := tr.FigureIn(apg, "2.25"); ok {
		t.Error("2.25 is not a figure the column writes with one decimal")
	}
}

// buildOne builds a store of table tb alone (three rows suffice) and
// returns it with tb's tree.
func buildOne(t *testing.T, tb *table.Table) (*graph.Store, *graph.Tree) {
	t.Helper()
	g, err := graph.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	b, err := g.NewBuilder()
	if err != nil {
		t.Fatal(err)
	}
	clean := DefaultCleanOptions()
	clean.MinRows = 3
	tr, rej, err := b.AddPrepared(Prepare(tb, clean))
	if err != nil || rej != nil {
		t.Fatal(err, rej)
	}
	if err := b.Finalize(context.Background(), nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	return g, tr
}

// keyEntities returns the entities of tree tr's keys in g.
func keyEntities(t *testing.T, g *graph.Store, tr *graph.Tree) []*graph.Entity {
	t.Helper()
	ids := make([]uint32, len(tr.Rows))
	for i, r := range tr.Rows {
		ids[i] = r.Key
	}
	es, err := g.Entities(ids)
	if err != nil {
		t.Fatal(err)
	}
	return es
}
