package synth_test

import (
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/synth"
	"github.com/leaper-dev/leaper/task"
)

// TestNoSumOfSeasons: a "First season" column writes years (as links to
// the seasons' articles), which no one adds up or averages (round 173;
// testdata/synth/seasons).
func TestNoSumOfSeasons(t *testing.T) {
	g := storetest.BuildGraph(t, "synth", "seasons")
	tasks := seeded(t, g, synth.Options{Variant: "basic", N: 5, Aggregate: true}, 12)
	for _, tk := range tasks {
		if ag := tk.Answer.Aggregate; ag != nil && (ag.Op == task.AggSum || ag.Op == task.AggAvg) && ag.Column == "FirstSeason" {
			t.Errorf("%s: %s", tk.ID, tk.Question)
		}
	}
	if len(tasks) == 0 {
		t.Fatal("no aggregate task of the clubs")
	}
}
