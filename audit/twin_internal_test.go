package audit

import (
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/task"
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

// TestFormerOfPage: a list of the page's defunct things, headed alike, is a
// twin of a table titled by the page alone, not of one whose section says
// which ("Current members").
func TestFormerOfPage(t *testing.T) {
	cols := []graph.Column{{Header: "Location"}, {Header: "Type"}}
	main := &graph.Tree{PageTitle: "List of airports in Queensland", Section: "List of airports", KeyHeader: "Airport name", Columns: cols}
	defunct := &graph.Tree{PageTitle: "List of airports in Queensland", Section: "Defunct airports", KeyHeader: "Airport name", Columns: cols}
	current := &graph.Tree{PageTitle: "List of airports in Queensland", Section: "Current airports", KeyHeader: "Airport name", Columns: cols}
	other := &graph.Tree{PageTitle: "List of airports in Queensland", Section: "Heliports", KeyHeader: "Airport name", Columns: cols}
	if !formerOfPage(main, defunct) {
		t.Error("the defunct airports are a twin of the page's list of airports")
	}
	if formerOfPage(current, defunct) {
		t.Error(`"Current airports" says which`)
	}
	if formerOfPage(main, other) {
		t.Error("heliports are no former airports")
	}
	captioned := *main
	captioned.Caption = "Regular airports"
	if formerOfPage(&captioned, defunct) {
		t.Error("a caption says which")
	}
}

// TestTellsApart: a disambiguator that tells two keys of one answer apart
// is kept ("Fifth Third Center (Columbus)" beside "(Cleveland)"); one
// that tells nothing is a defect.
func TestTellsApart(t *testing.T) {
	tk := &task.Task{Targets: []task.Target{
		{Entity: 1, Name: "Fifth Third Center (Columbus)", Layer: 2},
		{Entity: 2, Name: "Fifth Third Center (Cleveland)", Layer: 2},
		{Entity: 3, Name: "Hereafter (film)", Layer: 2},
		{Entity: 4, Name: "Columbus (city)", Layer: 3},
	}}
	for i, want := range []bool{true, true, false, false} {
		if got := tellsApart(tk, tk.Targets[i]); got != want {
			t.Errorf("tellsApart(%q) = %v, want %v", tk.Targets[i].Name, got, want)
		}
	}
}

// TestWithoutEditions: the kept editions cut a title as the regexp's own
// replacement does.
func TestWithoutEditions(t *testing.T) {
	for _, title := range []string{"1962 International Cross Country Championships", "2011–12 Premier League", "List of 30th Academy Awards", "Kibi Line", "1955 NFL Draft, 1969 season"} {
		want := editionRe.ReplaceAllString(title, " ")
		for range 2 { // the second from the kept editions
			if got := withoutEditions(title); got != want {
				t.Errorf("withoutEditions(%q) = %q, want %q", title, got, want)
			}
		}
	}
}

// TestSameItems: two texts that list the same things in another order
// are one value to a reader (round 183: a Reverse-Union of LGBT-related
// films whose shared genre, "Comedy, drama, romance", missed the films
// written "Romance, comedy, drama").
func TestSameItems(t *testing.T) {
	for _, c := range []struct {
		x, y string
		want bool
	}{
		{"Comedy, drama, romance", "Romance, comedy, drama", true},
		{"Comedy, Drama, romance", "Comedy, drama, romance", true},
		{"Comedy, drama", "Comedy, drama, romance", false},
		{"Drama", "Drama", false}, // no list: names compare these
		{"Portland, Oregon", "Portland, Maine", false},
	} {
		if got := sameItems(c.x, c.y); got != c.want {
			t.Errorf("sameItems(%q, %q) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}
