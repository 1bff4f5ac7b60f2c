package synth_test

import (
	"context"
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
	n := 0
	for seed := int64(1); seed <= 12; seed++ {
		if _, err := synth.Run(context.Background(), g, &synth.Options{Variant: "basic", N: 5, Seed: seed, Aggregate: true}, func(tk *task.Task) error {
			n++
			if ag := tk.Answer.Aggregate; ag != nil && (ag.Op == task.AggSum || ag.Op == task.AggAvg) && ag.Column == "FirstSeason" {
				t.Errorf("%s: %s", tk.ID, tk.Question)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if n == 0 {
		t.Fatal("no aggregate task of the clubs")
	}
}
