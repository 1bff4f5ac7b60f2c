package task

import (
	"testing"

	"github.com/leaper-dev/leaper/graph"
)

// TestBears: a target is named by the entity's name or an alias, up to
// case, spacing and a trailing parenthesis of either ("Thai elephant" of
// the alias "Thai elephant (Elephas maximus)" of Asian elephant), and a
// figure or date by its column's form ("342,551,365"); not by another
// name.
func TestBears(t *testing.T) {
	e := &graph.Entity{Name: "Asian elephant", Aliases: []string{"Asian Elephant", "Thai elephant (Elephas maximus)"}}
	film := &graph.Entity{Name: "Hereafter (film)"}
	gross, pts, day := &graph.Entity{Name: "342551365"}, &graph.Entity{Name: "2"}, &graph.Entity{Name: "2015-06-10"}
	for _, c := range []struct {
		e    *graph.Entity
		name string
		want bool
	}{
		{e, "Asian elephant", true},
		{e, "asian  ELEPHANT", true},
		{e, "Thai elephant (Elephas maximus)", true},
		{e, "Thai elephant", true},
		{e, "African elephant", false},
		{film, "Hereafter", true},
		{film, "Hereafter (film)", true},
		{film, "Here", false},
		// a figure or date as its column writes it
		{gross, "342,551,365", true},
		{gross, "342,551,366", false},
		{pts, "2.0", true},
		{pts, "2.5", false},
		{day, "10 June 2015", true},
		{day, "10 June 2016", false},
	} {
		if got := bears(c.e, c.name); got != c.want {
			t.Errorf("bears(%q, %q) = %v, want %v", c.e.Name, c.name, got, c.want)
		}
	}
}
