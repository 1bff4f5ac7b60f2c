package synth_test

import (
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/synth"
)

// TestNamesakeKeepsTitle: the 2013 Indonesian Premier League's "Persija
// ( Jakarta FC )" links Persija Jakarta (IPL), and the store holds the
// other club, Persija Jakarta, linked by a list of stadiums. The answer
// gives the title whole, as the auditor accepts; without its "(IPL)" it
// would name the other club (round 182; testdata/synth/namesake).
func TestNamesakeKeepsTitle(t *testing.T) {
	g := storetest.BuildGraph(t, "synth", "namesake")
	for key, want := range map[string]bool{
		"w:Persija Jakarta (IPL)": true,  // its bare name is the other club's title
		"w:Persija Jakarta":       false, // no disambiguator
		"w:Persijap Jepara":       false,
	} {
		e, err := g.EntityByKey(key)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := audit.Namesake(g, e); err != nil || got != want {
			t.Errorf("Namesake(%s) = %v, %v; want %v", key, got, err, want)
		}
	}
	var asked bool
	for _, tk := range seeded(t, g, synth.Options{Variant: "basic", N: 10}, 5) {
		if !strings.Contains(tk.Question, "Indonesian Premier League") {
			continue
		}
		for _, r := range tk.Answer.Rows {
			switch r[0] {
			case "Persija Jakarta (IPL)":
				asked = true
			case "Persija Jakarta":
				t.Errorf("%s: the IPL club given by the other club's name", tk.ID)
			}
		}
	}
	if !asked {
		t.Error("no task gives the IPL club by its title")
	}
}
