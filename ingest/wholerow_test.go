package ingest

import (
	"fmt"
	"testing"

	"github.com/leaper-dev/leaper/ingest/table"
)

// TestWholeRowStated: the row of the whole a list page divides is dropped
// and its figures are the table's stated totals, both where it is ranked
// among its parts, its "No" empty, and as the List of districts of
// Maharashtra writes it, "Maharashtra" under "No" and "-" under the key
// (round 167: its districts' areas add up to 306,160.7, the row says
// 307,713).
func TestWholeRowStated(t *testing.T) {
	names := []string{"Ahmednagar", "Akola", "Amravati", "Aurangabad", "Beed", "Bhandara", "Buldhana", "Chandrapur", "Dhule", "Gadchiroli"}
	rows := rowsOf(len(names), func(i int) []string {
		return []string{fmt.Sprint(i + 1), "@" + names[i] + " district", "@" + names[i], fmt.Sprintf("%d,%03d", 5+i, 100+i), fmt.Sprintf("%d,000,000", 1+i)}
	})
	tb := mk([]string{"No", "Name", "Headquarters", "Area (km²)", "Population"}, append(rows, []string{"", "Maharashtra", "-", "307,713", "96,878,627"}))
	tb.PageTitle, tb.PageURL = "List of districts of Maharashtra", table.URL("List of districts of Maharashtra")
	clean := DefaultCleanOptions()
	clean.MinRows = 3
	s, rej := Shape(tb, clean)
	if rej != nil {
		t.Fatal(rej)
	}
	if len(s.Keys) != 10 {
		t.Errorf("%d keys, want the 10 districts", len(s.Keys))
	}
	if got := s.Stated["has_area_km"]; got != "307,713" {
		t.Errorf("stated area %q, want 307,713 (stated %v)", got, s.Stated)
	}
	// As the page writes it: "Maharashtra" under "No", the Name "-".
	tb.Rows[len(tb.Rows)-1] = []table.Cell{{Text: "Maharashtra"}, {Text: "-"}, {Text: "-"}, {Text: "307,713"}, {Text: "96,878,627"}}
	s, rej = Shape(tb, clean)
	if rej != nil {
		t.Fatal(rej)
	}
	if got := s.Stated["has_area_km"]; len(s.Keys) != 10 || got != "307,713" {
		t.Errorf("keyless whole: %d keys, stated area %q, want 10 and 307,713", len(s.Keys), got)
	}
}

// TestTotalCountRow: a closing row keyed "Total: 13 NOCs" (a Games'
// qualification summary, round 169) is the table's total, not a 14th
// nation, and its figures are stated.
func TestTotalCountRow(t *testing.T) {
	nocs := []string{"Australia", "Brazil", "Canada", "China", "France", "Germany", "Japan", "Mexico", "Russia", "Spain", "Trinidad and Tobago", "Ukraine", "United States"}
	rows := rowsOf(len(nocs), func(i int) []string { return []string{"@" + nocs[i], fmt.Sprint(i + 1), fmt.Sprint(2 * (i + 1))} })
	tb := mk([]string{"NOC", "Men", "Total"}, append(rows, []string{"Total: 13 NOCs", "91", "182"}))
	clean := DefaultCleanOptions()
	clean.MinRows = 3
	s, rej := Shape(tb, clean)
	if rej != nil {
		t.Fatal(rej)
	}
	if len(s.Keys) != len(nocs) {
		t.Errorf("%d keys, want the %d NOCs", len(s.Keys), len(nocs))
	}
	if got := s.Stated["has_men"]; got != "91" {
		t.Errorf("stated men %q, want 91 (%v)", got, s.Stated)
	}
	for _, n := range []string{"total: 13 nocs", "total (24 nations)", "totals 5 teams"} {
		if !totalCount.MatchString(n) {
			t.Errorf("%q not taken for a total", n)
		}
	}
	if totalCount.MatchString("total recall") || totalCount.MatchString("13 nocs") {
		t.Error("a name taken for a total")
	}
}
