package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/export"
	"github.com/leaper-dev/leaper/task"
)

func TestReflow(t *testing.T) {
	in := "one two three\nfour five\n\nsix seven eight nine ten eleven\n\nsupercalifragilistic x"
	got := reflow(in, 10)
	want := "one two\nthree four\nfive\n\nsix seven\neight nine\nten eleven\n\nsupercalifragilistic\nx"
	if got != want {
		t.Errorf("reflow:\n%s\nwant:\n%s", got, want)
	}
}

func TestExportHelpFits(t *testing.T) {
	c := newExportCmd(&Factory{}, nil)
	for i, l := range strings.Split(c.Long, "\n") {
		if len(l) > 80 {
			t.Errorf("line %d of export's help is %d bytes: %q", i+1, len(l), l)
		}
	}
}

// exportFiles writes a tasks file and a trajectories file of one line each,
// as leaper synth and leaper rollout write them, to dir.
func exportFiles(t *testing.T, dir string) (tasks, trajs string) {
	t.Helper()
	task, err := json.Marshal(&task.Task{ID: "t1", Question: "Which?", Trees: []uint32{1}})
	if err != nil {
		t.Fatal(err)
	}
	traj, err := json.Marshal(&agent.Trajectory{TaskID: "t1", Question: "Which?", Answer: "A", End: agent.EndAnswer,
		Messages: []agent.Message{{Role: "user", Content: "Which?"}, {Role: "assistant", Content: "A"}}})
	if err != nil {
		t.Fatal(err)
	}
	tasks, trajs = filepath.Join(dir, "tasks.jsonl"), filepath.Join(dir, "traj.jsonl")
	writeFile(t, tasks, append(task, '\n'))
	writeFile(t, trajs, append(traj, '\n'))
	return tasks, trajs
}

// parseExport runs export's flag checks and returns the options runExport
// would get, or the error.
func parseExport(t *testing.T, args ...string) (*ExportOptions, error) {
	t.Helper()
	var got *ExportOptions
	c := newExportCmd(&Factory{IO: IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}, func(_ context.Context, o *ExportOptions) error { got = o; return nil })
	c.SetArgs(args)
	c.SetOut(&bytes.Buffer{})
	c.SilenceErrors, c.SilenceUsage = true, true
	return got, c.Execute()
}

func TestExportFormatNamesOnce(t *testing.T) {
	c := newExportCmd(&Factory{}, nil)
	usage := c.Flags().Lookup("format").Usage
	_, err := parseExport(t, "--format", "nope", "x.jsonl")
	if !cmdutil.IsUsage(err) {
		t.Fatalf("unknown format: %v, want a usage error", err)
	}
	msg := strings.TrimSuffix(strings.TrimPrefix(err.Error(), "--format must be one of "), `, not "nope"`)
	for _, list := range []string{usage, msg} {
		names := strings.Split(list, ", ")
		if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
			t.Errorf("formats %q: want each once, sorted", list)
		}
		if !slices.Contains(names, "browsecomp-plus") || !slices.Contains(names, "sft") || !slices.Contains(names, "verl") {
			t.Errorf("formats %q lack a stream or a dataset", list)
		}
	}
}

func TestExportStreamArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in the usage error; "" accepted
	}{
		{[]string{"--format", "sft", "--tasks", "tasks.jsonl", "--out", "x.jsonl"}, "--tasks applies only to dataset formats"},
		{[]string{"--format", "sft", "--tasks", "tasks.jsonl", "traj.jsonl"}, "--tasks applies only to dataset formats"},
		{[]string{"--format", "sft", "--out", "x.jsonl"}, "give the TRAJECTORIES file"},
		{[]string{"--format", "leaper"}, "give the TRAJECTORIES file"},
		{[]string{"--format", "sft", "--out", "x.jsonl", "traj.jsonl"}, ""},
		{[]string{"--format", "browsecomp-plus", "traj.jsonl"}, ""},
		{[]string{"--format", "browsecomp-plus", "--tasks", "tasks.jsonl", "traj.jsonl"}, "give --tasks FILE and --out PATH"},
		{[]string{"--format", "verl", "--tasks", "tasks.jsonl"}, "give --tasks FILE and --out PATH"},
	} {
		o, err := parseExport(t, tc.args...)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v", tc.args, err)
		case tc.want == "" && o.dataset():
			t.Errorf("%v: taken for a dataset", tc.args)
		case tc.want != "" && (!cmdutil.IsUsage(err) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
}

func TestExportStreamOut(t *testing.T) {
	dir := t.TempDir()
	_, trajs := exportFiles(t, dir)
	var stdout, errOut bytes.Buffer
	o := &ExportOptions{IO: IO{Out: &stdout, ErrOut: &errOut}, Format: "sft", Trajectories: trajs}
	if err := runExport(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "sft.jsonl")
	var stdout2 bytes.Buffer
	o = &ExportOptions{IO: IO{Out: &stdout2, ErrOut: &errOut}, Format: "sft", Trajectories: trajs, Out: out}
	if err := runExport(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil || stdout.Len() == 0 || !bytes.Equal(got, stdout.Bytes()) || stdout2.Len() != 0 {
		t.Errorf("--out %s holds %q (%v), stdout %q; want what stdout had: %q", out, got, err, stdout2.String(), stdout.String())
	}
	// A failed export leaves no file, not even a temporary one.
	bad := filepath.Join(dir, "bad.jsonl")
	writeFile(t, bad, []byte("{\"task_id\": \"t1\"}\n{not json\n"))
	o.Trajectories, o.Out = bad, filepath.Join(dir, "bad-sft.jsonl")
	if err := runExport(context.Background(), o); err == nil {
		t.Fatal("bad trajectories accepted")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 4 {
		t.Errorf("a failed export left files: %v", ents)
	}
}

func TestExportWrongKindOfFile(t *testing.T) {
	dir := t.TempDir()
	tasks, trajs := exportFiles(t, dir)
	var errOut bytes.Buffer
	o := &ExportOptions{IO: IO{Out: &bytes.Buffer{}, ErrOut: &errOut}, Format: "sft", Trajectories: tasks}
	err := runExport(context.Background(), o)
	if want := tasks + ":1: this is a tasks file (leaper synth), not trajectories (leaper rollout)"; err == nil || err.Error() != want {
		t.Errorf("tasks as trajectories: %v, want %s", err, want)
	}
	if errOut.Len() != 0 {
		t.Errorf("a failed export printed %q", errOut.String())
	}
	o = &ExportOptions{IO: IO{Out: &bytes.Buffer{}, ErrOut: &errOut}, Format: "verl", Tasks: trajs, Out: filepath.Join(dir, "x.parquet")}
	wantTasks := trajs + ":1: this is a trajectories file (leaper rollout), not tasks (leaper synth)"
	if err := runExport(context.Background(), o); err == nil || err.Error() != wantTasks {
		t.Errorf("trajectories as tasks: %v, want %s", err, wantTasks)
	}
	// leaper serve --tasks reads tasks the same way.
	so := &ServeOptions{IO: IO{ErrOut: &bytes.Buffer{}}, Addr: "127.0.0.1:0", Tasks: trajs}
	if _, _, err := serveOptions(so); err == nil || err.Error() != wantTasks {
		t.Errorf("serve --tasks trajectories: %v, want %s", err, wantTasks)
	}
	// The right files still load.
	if ts, err := task.ReadFile(tasks); err != nil || len(ts) != 1 {
		t.Errorf("tasks: %d, %v", len(ts), err)
	}
	o = &ExportOptions{IO: IO{Out: &bytes.Buffer{}, ErrOut: &errOut}, Format: "sft", Trajectories: trajs}
	if err := runExport(context.Background(), o); err != nil {
		t.Errorf("trajectories: %v", err)
	}
}

func TestExportBrowseCompPlusNeedsStore(t *testing.T) {
	dir := t.TempDir()
	tasks, trajs := exportFiles(t, dir)
	f := cmdutil.NewFactoryIO(IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	f.Store = filepath.Join(dir, "no-store")
	defer f.Close()
	o := &ExportOptions{IO: f.IO, OpenStore: f.OpenStore, Format: "browsecomp-plus", Tasks: tasks, Trajectories: trajs, Out: filepath.Join(dir, "bcp")}
	err := runExport(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "reads pages from the store") || !strings.Contains(err.Error(), "--store") || !strings.Contains(err.Error(), "LEAPER_STORE") {
		t.Errorf("browsecomp-plus without a store: %v, want it to ask for --store", err)
	}
	d, _ := export.LookupDataset("browsecomp-plus")
	if !strings.Contains(d.Doc(), "--store") {
		t.Errorf("browsecomp-plus's help does not say it needs --store: %s", d.Doc())
	}
}
