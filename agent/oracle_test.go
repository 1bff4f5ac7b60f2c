package agent_test

import (
	"context"
	"testing"

	"github.com/leaper-dev/leaper/agent/eval"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/agenttest"
	"github.com/leaper-dev/leaper/web/webtest"
)

func TestRolloutOracleReachesFullISR(t *testing.T) {
	w := webtest.OpenWeb(t)
	tasks := agenttest.Tasks(t, w.Store().Graph(), 1000) // every tree of the sample store
	if len(tasks) < 2 {
		t.Fatalf("only %d tasks from the sample store", len(tasks))
	}
	b := w
	p := &agent.Oracle{Graph: w.Store().Graph(), Probe: b}
	for _, task := range tasks {
		tr, err := agent.Run(context.Background(), task, p, b, &agent.Options{Deterministic: true})
		if err != nil {
			t.Fatal(err)
		}
		m := tr.Metrics
		if testing.Verbose() {
			t.Logf("%s: |R|=%d steps=%d ISR=%.3f ISE=%.2f valid=%.2f end=%s", task.ID, m.Targets, m.Steps, m.ISR, m.ISE, m.ValidRate, tr.End)
		}
		if m.ISR != 1 {
			t.Errorf("%s: oracle ISR = %.3f, want 1", task.ID, m.ISR)
		}
		if tr.End != agent.EndAnswer {
			t.Errorf("%s: end %s", task.ID, tr.End)
		}
		sc := eval.Score(task, tr.Answer, tr)
		if !sc.Success || task.Variant == "basic" && sc.F < 0.999 {
			t.Errorf("%s: oracle answer scores %+v", task.ID, sc)
		}
	}
}
