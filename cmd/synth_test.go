package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/ingest/storetest"

	"github.com/leaper-dev/leaper/task"
	"github.com/spf13/cobra"
)

func TestSynthFlags(t *testing.T) {
	// Errors and usage are the root command's to print; not here.
	synthCmd := func(f *Factory, run func(context.Context, *SynthOptions) error) *cobra.Command {
		c := newSynthCmd(f, run)
		c.SilenceErrors, c.SilenceUsage = true, true
		return c
	}
	f := &Factory{IO: IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	var got *SynthOptions
	c := synthCmd(f, func(_ context.Context, o *SynthOptions) error { got = o; return nil })
	c.SetArgs([]string{"--variant", "reverse-union", "-n", "7", "--seed", "9", "--expand", "2", "--aggregate", "--min-targets", "20"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Variant != "reverse-union" || got.N != 7 || got.Seed != 9 || got.Expand != 2 || !got.Aggregate || got.MinTargets != 20 {
		t.Errorf("options %+v", got)
	}
	c = synthCmd(f, func(context.Context, *SynthOptions) error { return nil })
	c.SetArgs([]string{"--variant", "nope"})
	if err := c.Execute(); err == nil {
		t.Error("bad variant accepted")
	}
	c = synthCmd(f, func(context.Context, *SynthOptions) error { return nil })
	c.SetArgs([]string{"--llm"})
	if err := c.Execute(); err == nil {
		t.Error("--llm without --model accepted")
	}
	c = synthCmd(f, func(_ context.Context, o *SynthOptions) error { got = o; return nil })
	c.SetArgs([]string{"--variant", "union", "--op", "intersect", "--min-trees", "3", "--hardness=false"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Op != "intersect" || got.MinTrees != 3 || got.Hardness {
		t.Errorf("options %+v", got)
	}
	for _, args := range [][]string{{"--variant", "union", "--op", "nope"}, {"--variant", "basic", "--op", "union"}, {"--min-trees", "-1"}} {
		c = synthCmd(f, func(context.Context, *SynthOptions) error { return nil })
		c.SetArgs(args)
		if err := c.Execute(); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

// TestSynthTaskStats runs leaper synth, task and stats --tasks end to end
// on the sample store.
func TestSynthTaskStats(t *testing.T) {
	store := storetest.SampleStore(t)
	var files []string
	for _, v := range []string{"basic", "union", "reverse-union"} {
		out, errOut, code := run(t, "synth", "--store", store, "--variant", v, "-n", "2", "--seed", "2", "--aggregate", "--cut")
		if code != 0 {
			t.Fatalf("synth %s: exit %d\n%s", v, code, errOut)
		}
		if !strings.Contains(errOut, "2 of 2 tasks") {
			t.Errorf("synth %s summary: %s", v, errOut)
		}
		again, _, _ := run(t, "synth", "--store", store, "--variant", v, "-n", "2", "--seed", "2", "--aggregate", "--cut")
		if out != again {
			t.Errorf("synth %s: output differs between runs", v)
		}
		tasks, err := task.Decode(strings.NewReader(out), v)
		if err != nil || len(tasks) != 2 {
			t.Fatalf("synth %s: %d tasks, %v", v, len(tasks), err)
		}
		p := filepath.Join(t.TempDir(), v+".jsonl")
		writeFile(t, p, []byte(out))
		files = append(files, p)
		show, errOut, code := run(t, "task", "--store", store, "--check", p, tasks[0].ID)
		if code != 0 || !strings.Contains(show, "Question:") || !strings.Contains(show, "evaluates to the answer: ok") {
			t.Errorf("task %s: exit %d\n%s\n%s", tasks[0].ID, code, show, errOut)
		}
	}
	all := filepath.Join(t.TempDir(), "all.jsonl")
	var b bytes.Buffer
	for _, p := range files {
		data, _ := os.ReadFile(p)
		b.Write(data)
	}
	writeFile(t, all, b.Bytes())
	out, errOut, code := run(t, "stats", "--tasks", all, "--json")
	if code != 0 {
		t.Fatalf("stats --tasks: exit %d: %s", code, errOut)
	}
	var st eval.TaskStats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.Tasks != 6 || st.Variants["basic"] != 2 || st.Variants["union"] != 2 || st.Variants["reverse_union"] != 2 {
		t.Errorf("task stats %+v", st)
	}
	// With the store, stats --tasks adds the hardness report (policies run
	// over the offline web); synth prints it on stderr.
	out, errOut, code = run(t, "stats", "--store", store, "--tasks", all, "--json")
	if code != 0 {
		t.Fatalf("stats --tasks --store: exit %d: %s", code, errOut)
	}
	st = eval.TaskStats{}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Hardness) != 3 || st.Hardness[0].OracleISR == nil || st.Hardness[0].OracleISR.Min != 1 {
		t.Errorf("hardness %+v", st.Hardness)
	}
	// The sample store has no sound intersection (its keys' only column
	// beyond two tables is no attribute of their own): synth says so, with
	// the reasons, rather than emit an unsound one.
	if _, errOut, _ := run(t, "synth", "--store", store, "--variant", "union", "-n", "3", "--op", "intersect"); !strings.Contains(errOut, "0 of 3 tasks") || !strings.Contains(errOut, "no_columns") {
		t.Errorf("synth --op intersect report:\n%s", errOut)
	}
	if _, _, code := run(t, "task", "--store", store, all, "no-such-task"); code == 0 {
		t.Error("unknown task id accepted")
	}
}

// TestTasksFromAnotherStore gives tasks whose targets the store names
// otherwise (as tasks synthesised on another store read there) to every
// command that reads tasks with a store: each refuses them, naming the task
// and the target, instead of reporting numbers of the wrong store.
func TestTasksFromAnotherStore(t *testing.T) {
	store := storetest.SampleStore(t)
	out, errOut, code := run(t, "synth", "--store", store, "--variant", "basic", "-n", "2", "--seed", "4", "--hardness=false")
	if code != 0 {
		t.Fatalf("synth: exit %d: %s", code, errOut)
	}
	tasks, err := task.Decode(strings.NewReader(out), "synth")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	writeFile(t, good, []byte(out))
	trajs := filepath.Join(dir, "trajs.jsonl")
	if _, errOut, code := run(t, "--store", store, "rollout", "--tasks", good, "--policy", "naive", "-o", trajs); code != 0 {
		t.Fatalf("rollout: exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		name, want string
		doctor     func(tg *task.Target)
	}{
		{"renamed", "which this store names", func(tg *task.Target) { tg.Name = "Nobody Of That Name" }},
		{"missing", "which this store does not have", func(tg *task.Target) { tg.Entity = 1 << 30 }},
	} {
		bad := *tasks[1]
		bad.Targets = append([]task.Target(nil), bad.Targets...)
		c.doctor(&bad.Targets[0])
		var b bytes.Buffer
		for _, tk := range []*task.Task{tasks[0], &bad} {
			line, _ := json.Marshal(tk)
			b.Write(append(line, '\n'))
		}
		file := filepath.Join(dir, c.name+".jsonl")
		writeFile(t, file, b.Bytes())
		for _, args := range [][]string{
			{"stats", "--tasks", file},
			{"eval", "--tasks", file, trajs},
			{"rollout", "--tasks", file, "--policy", "naive", "-o", filepath.Join(dir, c.name+"-trajs.jsonl")},
			{"task", "--check", file, bad.ID},
			{"export", "--format", "browsecomp-plus", "--tasks", file, "--out", filepath.Join(dir, c.name+"-bcp")},
			{"serve", "--tasks", file, "--addr", "127.0.0.1:0"},
		} {
			errOut, code := runBounded(t, append([]string{"--store", store}, args...)...)
			if code != ExitError || !strings.Contains(errOut, "synthesised on another store") || !strings.Contains(errOut, c.want) ||
				!strings.Contains(errOut, bad.ID) || !strings.Contains(errOut, "--store") {
				t.Errorf("%s: %v: exit %d: %s", c.name, args[0], code, errOut)
			}
		}
	}
	// The tasks' own store passes; no store at all is said, not hidden.
	if _, errOut, code := run(t, "--store", store, "eval", "--tasks", good, trajs); code != 0 || strings.Contains(errOut, "left out") {
		t.Errorf("eval on the tasks' store: exit %d: %s", code, errOut)
	}
	_, errOut, code = run(t, "--store", filepath.Join(dir, "nowhere"), "eval", "--tasks", good, trajs)
	if code != 0 || !strings.Contains(errOut, "left out: no store at") {
		t.Errorf("eval without a store: exit %d: %s", code, errOut)
	}
	_, errOut, code = run(t, "--store", filepath.Join(dir, "nowhere"), "stats", "--tasks", good)
	if code != 0 || !strings.Contains(errOut, "hardness left out: no store at") {
		t.Errorf("stats --tasks without a store: exit %d: %s", code, errOut)
	}
}

// runBounded runs leaper as run does, but kills it after a minute: a
// server that should have refused to start would otherwise serve forever.
func runBounded(t *testing.T, args ...string) (stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, os.Args[0], args...)
	c.Env = append(os.Environ(), "LEAPER_MAIN=1")
	var e bytes.Buffer
	c.Stderr = &e
	err := c.Run()
	if ctx.Err() != nil {
		return fmt.Sprintf("killed after a minute: %v\n%s", err, e.String()), -1
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return e.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return e.String(), 0
}

// TestSynthMaxNaiveISR: --max-naive-isr refuses the tasks of which one
// search of the question and a visit of its first hits collect more than
// the share given, and says how many; at 1 it refuses none.
func TestSynthMaxNaiveISR(t *testing.T) {
	store := storetest.SampleStore(t)
	for _, v := range []string{"basic", "union"} {
		plain, errOut, code := run(t, "synth", "--store", store, "--variant", v, "-n", "2", "--seed", "2")
		if code != 0 || !strings.Contains(errOut, "naive ISR           1.00 / 1.00 / 1.00 / 1.00") {
			t.Fatalf("synth %s: exit %d (the sample's tasks are all one search's):\n%s", v, code, errOut)
		}
		all, _, code := run(t, "synth", "--store", store, "--variant", v, "-n", "2", "--seed", "2", "--max-naive-isr", "1")
		if code != 0 || all != plain {
			t.Errorf("synth %s --max-naive-isr 1: exit %d, output differs from the default's", v, code)
		}
		out, errOut, code := run(t, "synth", "--store", store, "--variant", v, "-n", "2", "--seed", "2", "--max-naive-isr", "0.5", "--json")
		if code != 0 || out != "" {
			t.Fatalf("synth %s --max-naive-isr 0.5: exit %d, emitted %d lines", v, code, strings.Count(out, "\n"))
		}
		var st struct {
			Emitted int            `json:"emitted"`
			Dropped map[string]int `json:"dropped"`
		}
		if err := json.Unmarshal([]byte(errOut), &st); err != nil {
			t.Fatalf("%v: %s", err, errOut)
		}
		if st.Emitted != 0 || st.Dropped[DropOneSearch] == 0 {
			t.Errorf("synth %s --max-naive-isr 0.5: %+v", v, st)
		}
	}
	for _, bad := range []string{"-0.1", "1.5"} {
		if _, errOut, code := run(t, "synth", "--store", store, "--max-naive-isr", bad); code == 0 || !strings.Contains(errOut, "--max-naive-isr") {
			t.Errorf("--max-naive-isr %s: exit %d: %s", bad, code, errOut)
		}
	}
}
