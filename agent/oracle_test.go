package agent_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/leaper-dev/leaper/agent/eval"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/agenttest"
	"github.com/leaper-dev/leaper/web"
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
		checkOracleRules(t, w, task.ID, tr)
		sc := eval.Score(task, tr.Answer, tr)
		if !sc.Success || task.Variant == "basic" && sc.F < 0.999 {
			t.Errorf("%s: oracle answer scores %+v", task.ID, sc)
		}
	}
}

// checkOracleRules: every visit reads one page, whose URL an earlier
// search returned or an earlier visit showed as an entity's page (a link);
// the oracle never guesses a URL.
func checkOracleRules(t *testing.T, w *web.Web, id string, tr *agent.Trajectory) {
	t.Helper()
	allowed := map[string]bool{}
	for i, st := range tr.Steps {
		switch st.Tool {
		case "search":
			for _, u := range st.URLs {
				allowed[web.CanonicalURL(u)] = true
			}
		case "visit":
			var a struct {
				URL []string `json:"url"`
			}
			if err := json.Unmarshal(st.Args, &a); err != nil || len(a.URL) != 1 {
				t.Errorf("%s step %d: visit args %s, want one URL", id, i, st.Args)
				continue
			}
			if !allowed[web.CanonicalURL(a.URL[0])] {
				t.Errorf("%s step %d: visits %s, which no search returned and no visited page links", id, i, a.URL[0])
			}
			obs, err := w.Call(context.Background(), "visit", st.Args)
			if err != nil {
				t.Fatal(err)
			}
			ents, err := w.Store().Graph().Entities(obs.Entities)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ents {
				if e != nil && e.URL != "" {
					allowed[web.CanonicalURL(e.URL)] = true
				}
			}
		}
	}
}
