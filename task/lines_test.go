package task

import (
	"strings"
	"testing"
)

func TestDecodeLinesOfWrongKind(t *testing.T) {
	traj := `{"task_id":"basic-1-0","answer":"x","steps":[]}`
	task := `{"id":"basic-1-0","question":"q","answer":{"columns":["A"],"rows":[]},"targets":[]}`
	if _, err := Decode(strings.NewReader(traj+"\n"), "t.jsonl"); err == nil || err.Error() != "t.jsonl:1: this is a trajectories file (leaper rollout), not tasks (leaper synth)" {
		t.Errorf("trajectories read as tasks: %v", err)
	}
	if _, err := Decode(strings.NewReader("\n"+task+"\n"), "t.jsonl"); err != nil {
		t.Errorf("a task: %v", err)
	}
	type traject struct {
		Answer string `json:"answer"`
	}
	if _, err := DecodeLinesOf[traject](strings.NewReader(task), "x.jsonl", KindTrajectory); err == nil || !strings.HasPrefix(err.Error(), "x.jsonl:1: this is a tasks file") {
		t.Errorf("tasks read as trajectories: %v", err)
	}
	// A line of neither kind gets the decoder's error.
	if _, err := Decode(strings.NewReader(`{"id":5}`), "t.jsonl"); err == nil || strings.Contains(err.Error(), "this is") {
		t.Errorf("bad task: %v", err)
	}
}

func TestDecodeTasksDuplicateAndForeign(t *testing.T) {
	task := `{"id":"basic-1-0","question":"q","answer":{"columns":["A"],"rows":[]},"targets":[]}`
	if _, err := Decode(strings.NewReader(task+"\n"+task+"\n"), "t.jsonl"); err == nil || !strings.Contains(err.Error(), `task id "basic-1-0" twice (tasks 1 and 2)`) {
		t.Errorf("duplicate ids: %v", err)
	}
	// An export of another stack (asearcher: answer is a list) and a
	// parquet file are named for what they are not.
	for in, want := range map[string]string{
		`{"id":"basic-1-0","question":"q","answer":["a, b"],"aug_answer":["x"]}`:                   "(this is leaper export --format asearcher's output; want JSON lines of tasks as leaper synth writes them)",
		`{"instance_id":"basic-1-0","query":"q","answer":"| a |","evaluation":{"required":["a"]}}`: "(this is leaper export --format widesearch's output",
		`{"id":"x","answer":["a"]}`: "(want JSON lines of tasks as leaper synth writes them)",
		"PAR1\x15\x04binary":        "this is a parquet file; want JSON lines of tasks",
	} {
		if _, err := Decode(strings.NewReader(in), "x"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.20q: %v, want %q", in, err, want)
		}
	}
}
