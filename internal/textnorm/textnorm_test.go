package textnorm

import "testing"

func TestFoldDashes(t *testing.T) {
	for in, want := range map[string]string{
		"Joint Base Langley–Eustis":        "Joint Base Langley-Eustis",
		"Border - Gavaskar Trophy":         "Border-Gavaskar Trophy",
		"GTR 2 — FIA GT Racing Game":       "GTR 2-FIA GT Racing Game",
		"−5":                               "-5",
		"no dash at all":                   "no dash at all",
		"Joint Base McGuire–Dix–Lakehurst": "Joint Base McGuire-Dix-Lakehurst",
	} {
		if got := FoldDashes(in); got != want {
			t.Errorf("FoldDashes(%q) = %q, want %q", in, got, want)
		}
	}
}
