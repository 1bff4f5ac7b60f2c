package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/agenttest"
	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/agent/export"
	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/web/webtest"
)

func init() {
	// Other test files of the package may define -update too.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

func updateGolden() bool { return flag.Lookup("update").Value.String() == "true" }

// leaperIn runs the command tree in process.
func leaperIn(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var o, e bytes.Buffer
	f := cmdutil.NewFactoryIO(IO{In: strings.NewReader(""), Out: &o, ErrOut: &e})
	root := NewRootCmd(f)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	f.Close()
	return o.String(), e.String(), err
}

func writeTasks(t *testing.T, n int) (string, int) {
	t.Helper()
	w := webtest.OpenWeb(t)
	tasks := agenttest.Tasks(t, w.Store().Graph(), n)
	var b bytes.Buffer
	for _, task := range tasks {
		line, err := json.Marshal(task)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	p := filepath.Join(t.TempDir(), "tasks.jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, len(tasks)
}

func TestRolloutFlags(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_API_KEY", "")
	tests := []struct {
		args  []string
		env   string
		usage bool
		check func(*RolloutOptions) bool
	}{
		{args: []string{"--policy", "oracle"}, usage: true},
		{args: []string{"--tasks", "t", "--policy", "random"}, usage: true},
		{args: []string{"--tasks", "t", "--policy", "llm"}, usage: true},
		{args: []string{"--tasks", "t", "--policy", "llm", "--model", "m"}, usage: true},
		{args: []string{"--tasks", "t", "--cache-mode", "replay"}, usage: true},
		{args: []string{"--tasks", "t", "--workers", "0"}, usage: true},
		{args: []string{"--tasks", "t", "--protocol", "xml"}, usage: true},
		{args: []string{"--tasks", "t"}, check: func(o *RolloutOptions) bool {
			return o.Policy == "oracle" && o.MaxSteps == 60 && o.Workers == 1 && o.CacheMode == agent.CacheOff && o.Temperature == 0.6
		}},
		{args: []string{"--tasks", "t", "--policy", "llm", "--model", "m"}, env: "http://x/v1", check: func(o *RolloutOptions) bool {
			return o.BaseURL == "http://x/v1"
		}},
		{args: []string{"--tasks", "t", "--policy", "llm", "--model", "m", "--cache", "c", "--cache-mode", "replay"}, check: func(o *RolloutOptions) bool {
			return o.CacheMode == agent.CacheReplay && o.BaseURL == ""
		}},
		{args: []string{"--tasks", "t", "--cache", "c", "-o", "out", "--seed", "3", "--deterministic"}, check: func(o *RolloutOptions) bool {
			return o.CacheMode == agent.CacheRecord && o.Output == "out" && o.Seed == 3 && o.Deterministic
		}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Setenv("OPENAI_BASE_URL", tc.env)
			f := &Factory{IO: IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
			var got *RolloutOptions
			c := newRolloutCmd(f, func(_ context.Context, o *RolloutOptions) error { got = o; return nil })
			c.SetArgs(tc.args)
			c.SetOut(&bytes.Buffer{})
			c.SetErr(&bytes.Buffer{})
			err := c.Execute()
			if tc.usage != cmdutil.IsUsage(err) {
				t.Fatalf("err %v, usage error wanted: %v", err, tc.usage)
			}
			if tc.check != nil && (got == nil || !tc.check(got)) {
				t.Errorf("options %+v", got)
			}
		})
	}
}

func TestRolloutOracleEvalFilterExport(t *testing.T) {
	store := storetest.SampleStore(t)
	tasks, n := writeTasks(t, 5)
	out := filepath.Join(t.TempDir(), "traj.jsonl")
	_, stderr, err := leaperIn(t, "--store", store, "rollout", "--tasks", tasks, "--policy", "oracle", "--workers", "2", "--deterministic", "-o", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	first, _ := os.ReadFile(out)
	if got := bytes.Count(first, []byte("\n")); got != n {
		t.Fatalf("%d trajectories for %d tasks", got, n)
	}
	// Resume: a torn last line is cut, finished tasks are skipped.
	torn := append([]byte(nil), first[:bytes.LastIndexByte(first[:len(first)-1], '\n')+1]...)
	os.WriteFile(out, append(torn, `{"task_id":"x`...), 0o644)
	_, stderr, err = leaperIn(t, "--store", store, "rollout", "--tasks", tasks, "--policy", "oracle", "--deterministic", "-o", out)
	if err != nil || !strings.Contains(stderr, "1 trajectories") || !strings.Contains(stderr, "already in") {
		t.Fatalf("resume: %v %s", err, stderr)
	}
	again, _ := os.ReadFile(out)
	if !bytes.Equal(first, again) {
		t.Errorf("resumed output differs: %d vs %d bytes, %d vs %d lines", len(first), len(again), bytes.Count(first, []byte("\n")), bytes.Count(again, []byte("\n")))
	}

	js, _, err := leaperIn(t, "--store", store, "eval", "--tasks", tasks, out, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep eval.Report
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	all := rep.Groups[len(rep.Groups)-1]
	if all.N != n || all.ISR.Mean != 1 || all.SuccessRate != 1 || all.ISE.Median < 5 {
		t.Errorf("oracle eval: %+v", all)
	}
	text, _, err := leaperIn(t, "--store", store, "eval", "--tasks", tasks, out)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "eval_oracle.golden", text)

	kept, stderr, err := leaperIn(t, "filter", "--alpha", "0.3", "--beta", "0.1", out)
	if err != nil || strings.Count(kept, "\n") != n || !strings.Contains(stderr, "kept") {
		t.Errorf("filter: %v %s", err, stderr)
	}
	none, _, _ := leaperIn(t, "filter", "--alpha", "1", out)
	if none != "" {
		t.Errorf("ISR > 1 kept something")
	}

	sft, _, err := leaperIn(t, "export", "--format", "sft", out)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Messages []map[string]string `json:"messages"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(sft, "\n", 2)[0]), &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Messages) < 4 || rec.Messages[0]["role"] != "system" || !strings.Contains(rec.Messages[len(rec.Messages)-1]["content"], "<answer>") {
		t.Errorf("sft record %v", rec.Messages)
	}
	bcp, _, err := leaperIn(t, "export", "--format", "browsecomp-plus", out)
	if err != nil {
		t.Fatal(err)
	}
	var run export.BCPRun
	if err := json.Unmarshal([]byte(strings.SplitN(bcp, "\n", 2)[0]), &run); err != nil {
		t.Fatal(err)
	}
	if run.QueryID == "" || len(run.RetrievedDocs) == 0 || run.ToolCallCounts["visit"] == 0 || run.Status != "completed" {
		t.Errorf("browsecomp-plus record %+v", run)
	}
	if _, _, err := leaperIn(t, "export", "--format", "csv", out); err == nil {
		t.Errorf("bad format accepted")
	}

	// Datasets: tasks to files, and the browsecomp-plus directory with the
	// runs of these trajectories.
	dir := t.TempDir()
	for _, name := range []string{"verl", "search-r1", "skyrl", "asearcher", "widesearch"} {
		p := filepath.Join(dir, name+".out")
		js, _, err := leaperIn(t, "--store", store, "export", "--format", name, "--tasks", tasks, "--out", p, "--json")
		if err != nil {
			t.Fatalf("export %s: %v", name, err)
		}
		var sum struct{ Tasks int }
		if json.Unmarshal([]byte(js), &sum); sum.Tasks != n {
			t.Errorf("export %s: %s", name, js)
		}
		if name == "widesearch" {
			p = filepath.Join(p, "widesearch.jsonl")
		}
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("export %s wrote nothing: %v", name, err)
		}
	}
	bdir := filepath.Join(dir, "bcp")
	if _, _, err := leaperIn(t, "--store", store, "export", "--format", "browsecomp-plus", "--tasks", tasks, "--out", bdir, out); err != nil {
		t.Fatal(err)
	}
	runs, _ := filepath.Glob(filepath.Join(bdir, "runs", "run_*.json"))
	if len(runs) != n {
		t.Errorf("browsecomp-plus directory: %d runs, want %d", len(runs), n)
	}
	for _, f := range []string{"queries.tsv", "qrel_evidence.txt", "corpus.jsonl", "ground_truth.jsonl"} {
		if st, err := os.Stat(filepath.Join(bdir, f)); err != nil || st.Size() == 0 {
			t.Errorf("browsecomp-plus %s: %v", f, err)
		}
	}
	for _, args := range [][]string{
		{"export", "--format", "verl", "--tasks", tasks},                           // no --out
		{"export", "--format", "verl", "--out", dir + "/x"},                        // no --tasks
		{"export", "--format", "verl", "--tasks", tasks, "--out", dir + "/x", out}, // trajectories to a task format
		{"export", "--format", "sft"},                                              // no trajectories
	} {
		if _, _, err := leaperIn(t, append([]string{"--store", store}, args...)...); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

func TestRolloutLLMRecordReplayCLI(t *testing.T) {
	store := storetest.SampleStore(t)
	tasks, n := writeTasks(t, 2)
	s := agenttest.NewServer(t)
	s.Func = func(r *agenttest.Request) agenttest.Action {
		if len(r.Messages) == 2 {
			return agenttest.Action{Content: "<think>look</think>\n<tool_call>{\"name\": \"search\", \"arguments\": {\"query\": [\"table\"]}}</tool_call>"}
		}
		return agenttest.Action{Content: "<answer>\n| A |\n| --- |\n| b |\n</answer>"}
	}
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache.jsonl")
	rec, stderr, err := leaperIn(t, "--store", store, "rollout", "--tasks", tasks, "--policy", "llm", "--model", "m",
		"--base-url", s.BaseURL(), "--cache", cache, "--deterministic", "--seed", "1")
	if err != nil {
		t.Fatalf("%v %s", err, stderr)
	}
	if s.Count() != 2*n {
		t.Errorf("%d requests", s.Count())
	}
	rep, stderr, err := leaperIn(t, "--store", store, "rollout", "--tasks", tasks, "--policy", "llm", "--model", "m",
		"--cache", cache, "--cache-mode", "replay", "--deterministic", "--seed", "1")
	if err != nil {
		t.Fatalf("%v %s", err, stderr)
	}
	if rec != rep || rec == "" {
		t.Errorf("replay differs:\n%s\n%s", rec, rep)
	}
	// A failing endpoint: every task ends in error, all are written, exit 3.
	bad := agenttest.NewServer(t)
	bad.Func = func(*agenttest.Request) agenttest.Action { return agenttest.Action{Status: 400} }
	out, _, err := leaperIn(t, "--store", store, "rollout", "--tasks", tasks, "--policy", "llm", "--model", "m",
		"--base-url", bad.BaseURL(), "--retries", "0")
	if !cmdutil.IsPartial(err) || strings.Count(out, "\n") != n || !strings.Contains(out, `"end":"error"`) {
		t.Errorf("failing model: %v\n%s", err, out)
	}
	// With -o, the cause is said once, and the same command once the
	// endpoint works runs the failed tasks again in place of their errors.
	trajs := filepath.Join(dir, "traj.jsonl")
	args := []string{"--store", store, "rollout", "--tasks", tasks, "--policy", "llm", "--model", "m", "--retries", "0", "-o", trajs}
	_, stderr, err = leaperIn(t, append(args, "--base-url", bad.BaseURL())...)
	if !cmdutil.IsPartial(err) || strings.Count(stderr, "scripted 400") != 1 || !strings.Contains(err.Error(), "the same command runs them again") {
		t.Errorf("failing model with -o: %v\n%s", err, stderr)
	}
	_, stderr, err = leaperIn(t, append(args, "--base-url", s.BaseURL())...)
	if err != nil || !strings.Contains(stderr, fmt.Sprintf("%d trajectories in %s had ended in error", n, trajs)) {
		t.Fatalf("rerun: %v\n%s", err, stderr)
	}
	// A transient failure is retried, and said on stderr.
	flaky := agenttest.NewServer(t, agenttest.Action{Status: 503})
	flaky.Func = s.Func
	_, stderr, err = leaperIn(t, "--store", store, "rollout", "--tasks", tasks, "--policy", "llm", "--model", "m", "--base-url", flaky.BaseURL())
	if err != nil || !strings.Contains(stderr, "503") || !strings.Contains(stderr, "retry 1 of 5 in") {
		t.Errorf("transient failure: %v\n%s", err, stderr)
	}
	got, err := agent.ReadTrajectories(trajs)
	if err != nil || len(got) != n {
		t.Fatalf("rerun wrote %d trajectories: %v", len(got), err)
	}
	for _, tr := range got {
		if tr.End != agent.EndAnswer {
			t.Errorf("%s ended %s after the rerun", tr.TaskID, tr.End)
		}
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join(graphtest.RepoRoot(), "testdata", "agent", name)
	if updateGolden() {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run with -update to accept):\n%s", name, got)
	}
}

// TestOutputsSpareInputs: rollout appends only to a file of trajectories,
// export does not write over its input, and readers of trajectories refuse
// other files (tasks, an SFT export) by name; no file is changed by a
// refused command.
func TestOutputsSpareInputs(t *testing.T) {
	store := storetest.SampleStore(t)
	tasks, _ := writeTasks(t, 2)
	dir := t.TempDir()
	trajs := filepath.Join(dir, "traj.jsonl")
	if _, stderr, err := leaperIn(t, "--store", store, "rollout", "--tasks", tasks, "--policy", "naive", "-o", trajs); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	sft := filepath.Join(dir, "sft.jsonl")
	if _, stderr, err := leaperIn(t, "export", "--format", "sft", "--out", sft, trajs); err != nil {
		t.Fatalf("export sft: %v\n%s", err, stderr)
	}
	csv := filepath.Join(dir, "data.csv")
	writeFile(t, csv, []byte("a,b\n1,2")) // no newline at the end
	snapshot := func() map[string]string {
		m := map[string]string{}
		for _, p := range []string{tasks, trajs, sft, csv} {
			b, _ := os.ReadFile(p)
			m[p] = string(b)
		}
		return m
	}
	before := snapshot()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--store", store, "rollout", "--tasks", tasks, "--policy", "naive", "-o", tasks}, "this is a tasks file"},
		{[]string{"--store", store, "rollout", "--tasks", tasks, "--policy", "naive", "-o", csv}, "data.csv:1: "},
		{[]string{"--store", store, "rollout", "--tasks", tasks, "--policy", "naive", "-o", sft}, `no "task_id"`},
		{[]string{"export", "--format", "sft", "--out", trajs, trajs}, "is an input of the export"},
		{[]string{"export", "--format", "leaper", "--out", filepath.Join(dir, "x.jsonl"), sft}, `sft.jsonl:1: not a trajectory`},
		{[]string{"filter", tasks}, "this is a tasks file"},
		{[]string{"filter", sft}, `sft.jsonl:1: not a trajectory`},
		{[]string{"--store", store, "eval", "--tasks", tasks, sft}, `sft.jsonl:1: not a trajectory`},
	} {
		_, stderr, err := leaperIn(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v (want %q)\n%s", c.args, err, c.want, stderr)
		}
	}
	after := snapshot()
	for p, b := range before {
		if after[p] != b {
			t.Errorf("%s changed by a refused command", filepath.Base(p))
		}
	}
}

// TestRolloutRecordsStoreAndReplays: each trajectory names the store;
// --replay takes the recorded turns again over the same store, observing
// the same; a trajectory of another store, or of none, is refused with
// both ids named.
func TestRolloutRecordsStoreAndReplays(t *testing.T) {
	dir := storetest.SampleStore(t)
	tasks, _ := writeTasks(t, 3)
	st := storetest.Open(t)
	id, err := st.ID()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	first := filepath.Join(tmp, "first.jsonl")
	if _, errOut, err := leaperIn(t, "rollout", "--store", dir, "--tasks", tasks, "--policy", "oracle", "--deterministic", "-o", first); err != nil {
		t.Fatalf("rollout: %v\n%s", err, errOut)
	}
	trs, err := agent.ReadTrajectories(first)
	if err != nil || len(trs) == 0 {
		t.Fatalf("read trajectories: %d, %v", len(trs), err)
	}
	for _, tr := range trs {
		if tr.Store != id {
			t.Fatalf("trajectory of %s records store %q, want %q", tr.TaskID, tr.Store, id)
		}
	}
	again := filepath.Join(tmp, "again.jsonl")
	if _, errOut, err := leaperIn(t, "rollout", "--store", dir, "--tasks", tasks, "--replay", first, "--deterministic", "-o", again); err != nil {
		t.Fatalf("rollout --replay: %v\n%s", err, errOut)
	}
	re, err := agent.ReadTrajectories(again)
	if err != nil || len(re) != len(trs) {
		t.Fatalf("replayed %d trajectories (%v), want %d", len(re), err, len(trs))
	}
	for i := range trs {
		a, _ := json.Marshal([]any{trs[i].Messages, trs[i].Steps, trs[i].Answer, trs[i].Metrics, trs[i].Store})
		b, _ := json.Marshal([]any{re[i].Messages, re[i].Steps, re[i].Answer, re[i].Metrics, re[i].Store})
		if !bytes.Equal(a, b) {
			t.Errorf("task %s: the replay differs from the recording", trs[i].TaskID)
		}
	}
	// The same trajectories, as if recorded against another store, and
	// against none.
	raw, _ := os.ReadFile(first)
	const other = "v4-0123456789abcdef"
	for _, c := range []struct{ name, store string }{{"other.jsonl", other}, {"none.jsonl", ""}} {
		repl := `"store":"` + c.store + `",`
		if c.store == "" {
			repl = ""
		}
		p := filepath.Join(tmp, c.name)
		writeFile(t, p, bytes.ReplaceAll(raw, []byte(`"store":"`+id+`",`), []byte(repl)))
		_, _, err := leaperIn(t, "rollout", "--store", dir, "--tasks", tasks, "--replay", p, "-o", filepath.Join(tmp, "out-"+c.name))
		if err == nil {
			t.Errorf("%s: replay against %s accepted", c.name, id)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, id) || (c.store != "" && !strings.Contains(msg, other)) || !strings.Contains(msg, c.name+":1") {
			t.Errorf("%s: error %q should name %s:1, this store's id %s and the recorded one", c.name, msg, c.name, id)
		}
	}
}
