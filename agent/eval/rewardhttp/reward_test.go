package rewardhttp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/agent/eval/rewardhttp"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web"
	"github.com/leaper-dev/leaper/web/serve"
	"github.com/leaper-dev/leaper/web/webtest"
)

// sampleTask is a small basic task over the sample store's first tree: its
// first three subtree roots.
func sampleTask(t *testing.T) *task.Task {
	t.Helper()
	g := storetest.OpenGraph(t)
	var tr *graph.Tree
	g.EachTree(context.Background(), func(x *graph.Tree) error {
		if tr == nil && len(x.Rows) >= 3 {
			tr = x
		}
		return nil
	})
	tk := &task.Task{ID: "t1", Variant: "basic", Question: "Which?", Answer: task.Answer{Columns: []string{tr.KeyHeader}}, Trees: []uint32{tr.ID}}
	for _, r := range tr.Rows[:3] {
		es, err := g.Entities([]uint32{r.Key})
		if err != nil {
			t.Fatal(err)
		}
		tk.Targets = append(tk.Targets, task.Target{Entity: r.Key, Name: es[0].Name, Layer: 2, Tree: tr.ID})
		tk.Answer.Rows = append(tk.Answer.Rows, []string{es[0].Name})
	}
	return tk
}

// fixture is a web/serve Server over the sample store with the reward
// endpoints mounted, as leaper serve mounts them.
type fixture struct {
	w  *web.Web
	ts *httptest.Server
	c  *serve.Client
}

func newFixture(t *testing.T, tasks ...*task.Task) *fixture {
	t.Helper()
	w := webtest.OpenWeb(t)
	srv := serve.NewServer(w, nil)
	e := rewardhttp.NewEndpoints(&rewardhttp.Options{Tasks: tasks})
	srv.MountEndpoint("/reward", e.MaxBody(), e.Reward)
	srv.MountEndpoint("/get_reward", e.MaxBody(), e.GetReward)
	f := &fixture{w: w, ts: httptest.NewServer(srv)}
	t.Cleanup(f.ts.Close)
	f.c = serve.NewClient(f.ts.URL, "")
	return f
}

// post sends a raw body and returns the status and decoded JSON object.
func (f *fixture) post(t *testing.T, path, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(f.ts.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s %s: status %d, body not JSON: %q", path, body, resp.StatusCode, data)
	}
	return resp.StatusCode, m
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestServeReward(t *testing.T) {
	tk := sampleTask(t)
	f := newFixture(t, tk)
	ctx := context.Background()
	var names []string
	for _, r := range tk.Answer.Rows {
		names = append(names, r[0])
	}
	answer := "| " + tk.Answer.Columns[0] + " |\n|---|\n| " + strings.Join(names, " |\n| ") + " |"
	want := (&eval.Scorer{Graph: f.w.Store().Graph()}).Score(tk, answer, nil)

	got, err := rewardhttp.PostReward(ctx, f.c, &rewardhttp.RewardRequest{TaskID: "t1", Answer: &answer})
	if err != nil {
		t.Fatal(err)
	}
	if *got != want || got.Recall < 0.99 {
		t.Errorf("reward by id: %+v, want %+v", got, want)
	}
	got, err = rewardhttp.PostReward(ctx, f.c, &rewardhttp.RewardRequest{Task: tk, Answer: &answer})
	if err != nil || *got != want {
		t.Errorf("reward inline: %+v %v", got, err)
	}

	// A trajectory's metrics are recomputed against the task: ids outside R
	// and a claimed ISR do not count.
	tr := &agent.Trajectory{
		Steps: []agent.Step{
			{Tool: "search", Observed: []uint32{tk.Targets[0].Entity, 999999}},
			{Tool: "visit", Observed: []uint32{tk.Targets[0].Entity, tk.Targets[1].Entity}},
		},
		Metrics: agent.Metrics{ISR: 1, ISE: 5},
	}
	got, err = rewardhttp.PostReward(ctx, f.c, &rewardhttp.RewardRequest{TaskID: "t1", Answer: &answer, Trajectory: tr})
	if err != nil {
		t.Fatal(err)
	}
	if got.ISR < 0.66 || got.ISR > 0.67 || got.ISE != 1 || got.Steps != 2 || got.ValidRate != 1 {
		t.Errorf("reward with trajectory: %+v", got)
	}

	// Without "answer", the trajectory's own answer is scored.
	tr.Answer = answer
	got2, err := rewardhttp.PostReward(ctx, f.c, &rewardhttp.RewardRequest{TaskID: "t1", Trajectory: tr})
	if err != nil || got2.Recall != got.Recall || got2.ISR != got.ISR {
		t.Errorf("reward of the trajectory's answer: %+v %v, want %+v", got2, err, got)
	}

	for _, tc := range []struct {
		body string
		code int
	}{
		{`{"task_id": "t1", "trajectory": {"steps": []}}`, 400},
		{`{"task": {"id": "x"}, "answer": "x"}`, 400},
		{`{"task_id": "nope", "answer": "x"}`, 404},
		{`{"answer": "x"}`, 400},
		{`{"task_id": "t1"}`, 400},
		{`{"task_id": "t1", "task": ` + mustJSON(tk) + `, "answer": "x"}`, 400},
		{`{"task_id": 5, "answer": "x"}`, 400},
		{`{"task_id": "t1", "answer": 5}`, 400},
		{`{"task_id": "t1", "answer": "x", "trajectory": []}`, 400},
		{`{"task_id": "t1"`, 400},
	} {
		code, m := f.post(t, "/reward", tc.body)
		if code != tc.code || m["error"] == nil {
			t.Errorf("reward %.60s: %d %v, want %d", tc.body, code, m, tc.code)
		}
	}
	var sc map[string]any
	_, m := f.post(t, "/reward", `{"task_id": "t1", "answer": ""}`)
	b, _ := json.Marshal(m)
	json.Unmarshal(b, &sc)
	if _, ok := sc["isr"]; !ok {
		t.Errorf("reward shape: %v", m)
	}
}
