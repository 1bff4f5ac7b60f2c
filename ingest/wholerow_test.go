package ingest

import (
	"fmt"
	"slices"
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

// TestCombinedRows: the largest islands of Estonia list "Saaremaa and
// Muhu" unranked beside Saaremaa and Muhu, its area their sum (OTT-QA
// line 5989, round 202), and "Pakri Islands" beside Väike-Pakri and
// Suur-Pakri (rounds 195 and 203): two islands together are no island of
// the list, and they are left out; a ranked duet stays, and so does an
// island whose name and area no two others make.
func TestCombinedRows(t *testing.T) {
	rows := [][]string{
		{"-", "Saaremaa and Muhu", "2,871", "West Estonian archipelago"},
		{"1", "Saaremaa", "2,673", "West Estonian archipelago"},
		{"-", "Hiiumaa and Kassari", "1,008", "West Estonian archipelago"},
		{"2", "Hiiumaa", "989", "West Estonian archipelago"},
		{"3", "Muhu", "198", "West Estonian archipelago"},
		{"4", "Vormsi", "93", "West Estonian archipelago"},
		{"-", "Pakri Islands", "24.7", "Gulf of Finland"},
		{"5", "Kassari", "19.3", "West Estonian archipelago"},
		{"6", "Naissaar", "18.6", "Gulf of Finland"},
		{"7", "Kihnu", "16.4", "Gulf of Riga"},
		{"8", "Väike-Pakri", "12.9", "Gulf of Finland"},
		{"9", "Suur-Pakri", "11.6", "Gulf of Finland"},
		{"10", "Ruhnu", "11.4", "Gulf of Riga"},
		{"11", "Abruka", "8.8", "West Estonian archipelago"},
		{"12", "Vilsandi", "8.8", "West Estonian archipelago"},
	}
	tb := mk([]string{"#", "Name", "Area (km²)", "Location"}, rows)
	tb.PageTitle, tb.PageURL = "List of islands of Estonia", table.URL("List of islands of Estonia")
	s, rej := Shape(tb, DefaultCleanOptions())
	if rej != nil {
		t.Fatal(rej)
	}
	var names []string
	for _, k := range s.Keys {
		names = append(names, k.Name)
	}
	if len(names) != 12 || slices.Contains(names, "Saaremaa and Muhu") || slices.Contains(names, "Hiiumaa and Kassari") || slices.Contains(names, "Pakri Islands") {
		t.Errorf("keys %q, want the twelve islands without the three pairs", names)
	}
	if fresh := mk([]string{"#", "Name", "Area (km²)", "Location"}, rows); combines(fresh.Rows, 8) || !combines(fresh.Rows, 6) {
		t.Errorf("%s taken for two islands together, or %s not", fresh.Rows[8][1].Text, fresh.Rows[6][1].Text)
	}
	// Where the column ranks every row, a pair is a row of its own (a
	// duet among singers).
	for i := range rows {
		rows[i][0] = fmt.Sprint(i + 1)
	}
	duets := mk([]string{"#", "Name", "Area (km²)", "Location"}, rows)
	if got := combinedRows(duets.Rows); len(got) != 0 {
		t.Errorf("ranked pairs dropped: rows %v", got)
	}
}

// TestCombinedRowsDotted: sts-csv's export of the same list ranks its
// islands "1.", "2.", … with a tie ("20.", "20.", "21.", "23."), and
// marks the pairs "–" (round 203): the pairs go all the same.
func TestCombinedRowsDotted(t *testing.T) {
	ranks := []string{"–", "1.", "–", "2.", "3.", "4.", "–", "5.", "6.", "7.", "8.", "9.", "10.", "10.", "11.", "13."}
	names := []string{"Saaremaa and Muhu", "Saaremaa", "Hiiumaa and Kassari", "Hiiumaa", "Muhu", "Vormsi", "Pakri Islands",
		"Kassari", "Naissaar", "Kihnu", "Väike-Pakri", "Suur-Pakri", "Ruhnu", "Abruka", "Vilsandi", "Piirissaar"}
	areas := []string{"2,871", "2,673", "1,008", "989", "198", "93", "24.7", "19.3", "18.6", "16.4", "12.9", "11.6", "11.4", "8.8", "8.8", "7.8"}
	var rows [][]string
	for i := range ranks {
		rows = append(rows, []string{ranks[i], names[i], areas[i]})
	}
	tb := mk([]string{"#", "Name", "Area (km2)"}, rows)
	if got := combinedRows(tb.Rows); !slices.Equal(got, []int{0, 2, 6}) {
		t.Errorf("combined rows %v, want the three pairs, rows 0, 2 and 6", got)
	}
	// A column of ones beside a blank ranks nothing: its rows are no
	// ties of a ranking.
	for i := range rows {
		rows[i][0] = "1"
	}
	rows[0][0] = ""
	if got := unrankedRows(mk([]string{"Seats", "Name", "Area (km2)"}, rows).Rows); got != nil {
		t.Errorf("a column of ones ranks the rows: unranked %v", got)
	}
}
