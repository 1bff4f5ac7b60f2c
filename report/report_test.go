package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/agenttest"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web/webtest"
)

// sample is the sample store's report input: agenttest's tasks (Basic and
// a union) and two real runs over the offline web, naive and oracle.
type sample struct {
	g     *graph.Store
	opts  *Options
	tasks []*task.Task
}

func newSample(t *testing.T) *sample {
	t.Helper()
	w := webtest.OpenWeb(t)
	g := w.Store().Graph()
	tasks := agenttest.Tasks(t, g, 8)
	if len(tasks) < 3 {
		t.Fatalf("sample: %d tasks", len(tasks))
	}
	opts := &Options{Title: "sample report", Store: "sample", Tasks: tasks, Score: true,
		Synth: []SynthStats{{Variant: "basic", Candidates: 12, Emitted: 8, Dropped: map[string]int{"no_hop": 3, "leak": 1}}}}
	for _, pol := range []agent.Policy{&agent.Naive{}, &agent.Oracle{Graph: g, Probe: w}} {
		trs := make([]*agent.Trajectory, len(tasks))
		err := agent.RunAll(context.Background(), tasks, pol, w, &agent.Options{Deterministic: true, Workers: 2},
			func(i int, tr *agent.Trajectory) error { trs[i] = tr; return nil })
		if err != nil {
			t.Fatal(err)
		}
		opts.Runs = append(opts.Runs, Run{Name: pol.PolicyName(), Trajectories: trs})
	}
	return &sample{g: g, opts: opts, tasks: tasks}
}

func TestWriteDeterministic(t *testing.T) {
	s := newSample(t)
	var a, b bytes.Buffer
	if err := Write(context.Background(), &a, s.g, s.opts); err != nil {
		t.Fatal(err)
	}
	if err := Write(context.Background(), &b, s.g, s.opts); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two writes of the same report differ")
	}
	html := a.String()
	for _, want := range []string{"<title>sample report</title>", "Content-Security-Policy", "Chart.js v4", "soft F", s.tasks[0].ID} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, bad := range []string{"http://cdn", "https://cdn", "<script src", "<link ", "sourceMappingURL"} {
		if strings.Contains(html, bad) {
			t.Errorf("report holds %q: it must load nothing", bad)
		}
	}
}

func TestWriteNoStore(t *testing.T) {
	if err := Write(context.Background(), &bytes.Buffer{}, nil, nil); err != ErrNoStore {
		t.Fatalf("err = %v, want ErrNoStore", err)
	}
}

func TestHandler(t *testing.T) {
	s := newSample(t)
	srv := httptest.NewServer(Handler(s.g, s.opts))
	defer srv.Close()
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	body.ReadFrom(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !strings.Contains(body.String(), "Task cards") {
		t.Fatalf("GET: %d %s, %d bytes", res.StatusCode, res.Header.Get("Content-Type"), body.Len())
	}
	res, err = http.Post(srv.URL, "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST: %d, want 405", res.StatusCode)
	}
}

func TestReadSynthStats(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "synth.json")
	os.WriteFile(good, []byte(`{"variant":"basic","candidates":5,"emitted":3,"dropped":{"leak":2}}
{"variant":"union","candidates":4,"emitted":4,"dropped":{}}`), 0o644)
	st, err := ReadSynthStats(good)
	if err != nil || len(st) != 2 || st[0].Dropped["leak"] != 2 || st[1].Variant != "union" {
		t.Fatalf("ReadSynthStats = %+v, %v", st, err)
	}
	bad := filepath.Join(dir, "tasks.jsonl")
	os.WriteFile(bad, []byte(`{"id":"basic-1","question":"q"}`), 0o644)
	if _, err := ReadSynthStats(bad); err == nil || !strings.Contains(err.Error(), "tasks.jsonl: value 1") {
		t.Fatalf("a task file read as synthesis stats: %v", err)
	}
}

// hits counts the cells of a task's source tables that state a target,
// by the page's rule written again from the store: a key that is a
// layer-2 target; a value cell holding a layer-3 target where it was read
// (its tree and relation), or on a target's row in a column of a relation
// some target was read through.
func hits(t *testing.T, g *graph.Store, tk *task.Task) int {
	t.Helper()
	l2, l3, rels, exact := map[uint32]bool{}, map[uint32]bool{}, map[string]bool{}, map[string]bool{}
	trees := append([]uint32(nil), tk.Trees...)
	seen := map[uint32]bool{}
	for _, id := range trees {
		seen[id] = true
	}
	for _, tg := range tk.Targets {
		if !seen[tg.Tree] {
			seen[tg.Tree] = true
			trees = append(trees, tg.Tree)
		}
		if tg.Layer == 2 {
			l2[tg.Entity] = true
			continue
		}
		l3[tg.Entity], rels[tg.Relation] = true, true
		exact[fmt.Sprintf("%d\x00%s\x00%d", tg.Tree, tg.Relation, tg.Entity)] = true
	}
	n := 0
	for _, id := range trees {
		tr, err := g.Tree(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range tr.Rows {
			if l2[r.Key] {
				n++
			}
			for j, vs := range r.Values {
				rel := tr.Columns[j].Name
				for _, v := range vs {
					if exact[fmt.Sprintf("%d\x00%s\x00%d", id, rel, v)] || l2[r.Key] && rels[rel] && l3[v] {
						n++
						break
					}
				}
			}
		}
	}
	return n
}

func TestReadTrajectories(t *testing.T) {
	s := newSample(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "oracle.jsonl")
	var buf bytes.Buffer
	want := s.opts.Runs[1].Trajectories
	for _, tr := range want {
		if err := agent.WriteTrajectory(&buf, tr); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(path, buf.Bytes(), 0o644)
	got, err := ReadTrajectories(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d trajectories, want %d", len(got), len(want))
	}
	for i, g := range got {
		w := want[i]
		if g.Messages != nil || g.TaskID != w.TaskID || g.Policy != w.Policy || len(g.Steps) != len(w.Steps) ||
			g.Metrics != w.Metrics || g.Answer != w.Answer || g.End != w.End {
			t.Errorf("trajectory %d read back as %+v", i, g)
		}
	}
	tasks := filepath.Join(dir, "tasks.jsonl")
	var tb bytes.Buffer
	for _, tk := range s.tasks {
		b, _ := json.Marshal(tk)
		tb.Write(append(b, '\n'))
	}
	os.WriteFile(tasks, tb.Bytes(), 0o644)
	if _, err := ReadTrajectories(tasks); err == nil || !strings.Contains(err.Error(), "tasks.jsonl:1: this is a tasks file") {
		t.Errorf("a tasks file read as trajectories: %v", err)
	}
}

// TestHardnessOverBackend: without naive and oracle runs, the hardness
// scatter runs both policies over the backend, one point per task.
func TestHardnessOverBackend(t *testing.T) {
	s := newSample(t)
	w := webtest.OpenWeb(t)
	for _, backend := range []agent.Backend{nil, w} {
		o := (&Options{Tasks: s.tasks, Backend: backend}).withDefaults()
		p, err := build(context.Background(), s.g, &o)
		if err != nil {
			t.Fatal(err)
		}
		n := -1
		for _, c := range p.Charts["tasks"] {
			if c.ID == "tasks-hardness" {
				n = c.points()
			}
		}
		switch {
		case backend == nil && n != -1:
			t.Errorf("no runs, no backend: a hardness chart of %d points", n)
		case backend != nil && n != len(s.tasks):
			t.Errorf("over the backend: %d hardness points, want %d", n, len(s.tasks))
		}
	}
}
