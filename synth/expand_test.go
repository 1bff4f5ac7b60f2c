package synth

import (
	"context"
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"
)

// TestCutRel: a page's relations that a tree its source cut has are
// known: "the urban area whose region is Marlborough Region" singles out
// Blenheim only as far as OTT-QA's first 20 rows of the page's "1,000 to
// 9,999" table go (round 159; testdata/audit/cut).
func TestCutRel(t *testing.T) {
	g := storetest.BuildGraph(t, "audit", "cut")
	s, err := newSynth(context.Background(), g, &Options{Variant: "basic", N: 1})
	if err != nil {
		t.Fatal(err)
	}
	page := "https://en.wikipedia.org/wiki/List_of_cities_and_towns_in_the_South_Island_by_population"
	if !s.cutRel(page, "has_region") {
		t.Error("the page's cut table has a Region, not seen")
	}
	if s.cutRel(page, "has_town") || s.cutRel("https://en.wikipedia.org/wiki/Elsewhere", "has_region") {
		t.Error("a relation no cut table of the page has, taken for one")
	}
}
