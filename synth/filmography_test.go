package synth_test

import (
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/synth"
)

// TestFilmographyOfTelevision: a filmography that lists television
// series and serials asks for its works, not its films (round 171;
// testdata/synth/filmography).
func TestFilmographyOfTelevision(t *testing.T) {
	g := storetest.BuildGraph(t, "synth", "filmography")
	tasks, _ := run(t, g, synth.Options{Variant: "basic", N: 5, Seed: 1})
	if len(tasks) == 0 {
		t.Fatal("no task of Tom Hooper's filmography")
	}
	for _, tk := range tasks {
		if strings.Contains(tk.Question, "film ") || strings.Contains(tk.Question, "films") || !strings.Contains(tk.Question, "work") {
			t.Errorf("%q: his television asked as films", tk.Question)
		}
	}
}
