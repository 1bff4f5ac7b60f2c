package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/agent"
)

// TestResume reads an output file as a continued rollout does: a torn
// last line is cut, a trajectory that ended in error is taken out (its
// task runs again), and a tasks file is refused and left as it was.
func TestResume(t *testing.T) {
	dir := t.TempDir()
	if r, err := agent.Resume(filepath.Join(dir, "none.jsonl")); err != nil || len(r.Done) != 0 {
		t.Fatalf("a missing file: %+v %v", r, err)
	}
	ok := `{"task_id":"a","question":"q","end":"answer"}`
	bad := `{"task_id":"b","question":"q","end":"error","error":"HTTP 500"}`
	p := filepath.Join(dir, "traj.jsonl")
	os.WriteFile(p, []byte(ok+"\n"+bad+"\n"+`{"task_id":"c","quest`), 0o644)
	r, err := agent.Resume(p)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Done["a"] || r.Done["b"] || r.Done["c"] || r.Retried != 1 {
		t.Errorf("resumed %+v", r)
	}
	if b, _ := os.ReadFile(p); string(b) != ok+"\n" {
		t.Errorf("file after resume: %q", b)
	}

	tasks := `{"id":"t1","question":"q","formalization":[],"targets":[],"trees":[1]}` + "\n"
	os.WriteFile(p, []byte(tasks), 0o644)
	if _, err := agent.Resume(p); err == nil || !strings.Contains(err.Error(), p+":1: this is a tasks file") {
		t.Errorf("a tasks file gave %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != tasks {
		t.Errorf("a refused file was changed: %q", b)
	}
	os.WriteFile(p, []byte(ok+"\nname,born\n"), 0o644)
	if _, err := agent.Resume(p); err == nil || !strings.Contains(err.Error(), p+":2:") {
		t.Errorf("a CSV line gave %v", err)
	}
}
