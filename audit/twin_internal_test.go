package audit

import (
	"testing"

	"github.com/leaper-dev/leaper/graph"
)

// TestUntitledLike: a table its source gives no section is titled like the
// page's other tables of the same key; a titled one is not.
func TestUntitledLike(t *testing.T) {
	defunct := &graph.Tree{PageTitle: "Buffalo Public Schools", KeyHeader: "School"}
	if !untitledLike(defunct, "School") {
		t.Error("an untitled table of schools is titled like the page's other school tables")
	}
	if untitledLike(defunct, "Principal") {
		t.Error("a table keyed otherwise is no twin")
	}
	if untitledLike(&graph.Tree{Section: "Defunct Schools", KeyHeader: "School"}, "School") {
		t.Error("a titled table is told apart by its title")
	}
}

// TestContinues: a table headed alike under a section of the rest ("Other
// picks") goes on with the named one; one headed otherwise, or under a
// section of its own ("Round 2"), does not.
func TestContinues(t *testing.T) {
	cols := func(hs ...string) []graph.Column {
		var out []graph.Column
		for _, h := range hs {
			out = append(out, graph.Column{Header: h})
		}
		return out
	}
	first := &graph.Tree{Section: "Draft", KeyHeader: "Player", Columns: cols("Team", "College")}
	other := &graph.Tree{Section: "Other picks", KeyHeader: "Player", Columns: cols("Team", "College")}
	round := &graph.Tree{Section: "Round 2", KeyHeader: "Player", Columns: cols("Team", "College")}
	coaches := &graph.Tree{Section: "Other staff", KeyHeader: "Coach", Columns: cols("Team", "College")}
	if !continues(first, other) {
		t.Error(`"Other picks" headed alike goes on with "Draft"`)
	}
	if continues(first, round) || continues(first, coaches) {
		t.Error("a round of its own, or a table keyed otherwise, is no continuation")
	}
}
