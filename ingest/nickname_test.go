package ingest

import (
	"slices"
	"testing"
)

// TestNicknameAlias: a player the table writes unlinked with a nickname in
// quotes (Sune "Mona-Lisa" Andersson, as 1947–48 in Swedish football does)
// is also called without it, as the linked rows beside it are named by
// their articles; his name stays as the table writes it.
func TestNicknameAlias(t *testing.T) {
	tb := mk([]string{"Name", "Pos.", "Caps", "Club"}, [][]string{
		{"@Olle Åhlund", "MF", "1", "@Degerfors IF"},
		{`Sune "Mona-Lisa" Andersson`, "MF", "5", "@AIK Solna"},
		{`Nils "Lidas"/"Greven" Liedholm`, "MF", "3", "@IFK Norrköping"},
		{"Thure Grahn", "DF", "1", "@AIK Solna"},
		{"@Gunnar Gren", "FW", "5", "@IFK Norrköping"},
	})
	g, tr := buildOne(t, tb)
	es := keyEntities(t, g, tr)
	want := map[string][]string{
		`Sune "Mona-Lisa" Andersson`:     {"Sune Andersson"},
		`Nils "Lidas"/"Greven" Liedholm`: {"Nils Liedholm"},
		"Thure Grahn":                    nil,
	}
	seen := 0
	for _, e := range es {
		w, ok := want[e.Name]
		if !ok {
			continue
		}
		seen++
		if !slices.Equal(e.Aliases, w) {
			t.Errorf("%s: aliases %q, want %q", e.Name, e.Aliases, w)
		}
	}
	if seen != len(want) {
		for _, e := range es {
			t.Logf("%+v", *e)
		}
		t.Errorf("found %d of the %d unlinked names", seen, len(want))
	}
}
