package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"

	"github.com/leaper-dev/leaper/task"
)

// Trajectory is the record of one run, one JSONL line per task.
type Trajectory struct {
	TaskID   string       `json:"task_id"`
	Variant  task.Variant `json:"variant,omitempty"`
	Question string       `json:"question"`
	Policy   string       `json:"policy"`
	Model    string       `json:"model,omitempty"`
	Seed     int64        `json:"seed"`
	Protocol Protocol     `json:"protocol"`
	// Store is the id of the store the tools answered from
	// (store.Store.ID: format version and content digest); a replay
	// against another store is refused.
	Store    string    `json:"store,omitempty"`
	Messages []Message `json:"messages"`
	Steps    []Step    `json:"steps"`
	// Answer is the text inside <answer></answer>; Table its markdown
	// table, when it has one.
	Answer  string    `json:"answer"`
	Table   *Table    `json:"table,omitempty"`
	End     EndReason `json:"end"`
	Error   string    `json:"error,omitempty"`
	Tokens  Tokens    `json:"tokens"`
	Metrics Metrics   `json:"metrics"`
	// Run holds what depends on the clock and on transient failures;
	// absent with Options.Deterministic.
	Run *RunInfo `json:"run,omitempty"`
}

// Step is one tool call and what it yielded.
type Step struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args,omitempty"`
	// Error is the error observation when the call could not run
	// (malformed, unknown tool, no call).
	Error string   `json:"error,omitempty"`
	URLs  []string `json:"urls,omitempty"`
	// Observed are the target entities the observation showed; New those
	// not seen before. A step is valid when it yields a new target.
	Observed []uint32 `json:"observed"`
	New      []uint32 `json:"new"`
	Valid    bool     `json:"valid"`
}

// Tokens counts the model's tokens: summed over requests, and the context
// of the last one.
type Tokens struct {
	Prompt     int  `json:"prompt"`
	Completion int  `json:"completion"`
	Context    int  `json:"context"`
	Estimated  bool `json:"estimated,omitempty"`
}

func (t *Tokens) add(r *ChatResponse) {
	t.Prompt += r.PromptTokens
	t.Completion += r.CompletionTokens
	t.Context = r.PromptTokens + r.CompletionTokens
	t.Estimated = t.Estimated || r.Estimated
}

// RunInfo is how the run went in time: not reproducible.
type RunInfo struct {
	ElapsedMS  float64 `json:"elapsed_ms"`
	ModelMS    float64 `json:"model_ms"`
	ToolMS     float64 `json:"tool_ms"`
	ModelCalls int     `json:"model_calls"`
	Retries    int     `json:"retries"`
}

// Metrics are WebLeaper's information-seeking measures of a trajectory.
type Metrics struct {
	Targets    int     `json:"targets"`     // |R|
	Found      int     `json:"found"`       // |R ∩ O|
	VisitFound int     `json:"visit_found"` // targets seen in visit observations
	Steps      int     `json:"steps"`       // T
	ValidSteps int     `json:"valid_steps"` // steps yielding a new target
	ISR        float64 `json:"isr"`         // Found / Targets
	ISE        float64 `json:"ise"`         // VisitFound / Steps
	ValidRate  float64 `json:"valid_rate"`  // ValidSteps / Steps
}

// Measure computes the metrics of steps against a target set of size n.
func Measure(steps []Step, n int) Metrics {
	all, visit := map[uint32]bool{}, map[uint32]bool{}
	m := Metrics{Targets: n, Steps: len(steps)}
	for _, s := range steps {
		for _, id := range s.Observed {
			all[id] = true
			if s.Tool == "visit" {
				visit[id] = true
			}
		}
		if s.Valid {
			m.ValidSteps++
		}
	}
	m.Found, m.VisitFound = len(all), len(visit)
	if n > 0 {
		m.ISR = float64(m.Found) / float64(n)
	}
	if m.Steps > 0 {
		m.ISE = float64(m.VisitFound) / float64(m.Steps)
		m.ValidRate = float64(m.ValidSteps) / float64(m.Steps)
	}
	return m
}

// Marshal is the trajectory's JSONL line, without a newline. HTML is not
// escaped, so tags read as written.
func (t *Trajectory) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(t); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// WriteTrajectory writes one JSONL line.
func WriteTrajectory(w io.Writer, t *Trajectory) error {
	b, err := t.Marshal()
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadTrajectories reads a JSONL file of trajectories.
func ReadTrajectories(path string) ([]*Trajectory, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return DecodeTrajectories(f, path)
}

// DecodeTrajectories reads trajectories, one per line; name is used in
// errors. A tasks file is refused by name.
func DecodeTrajectories(r io.Reader, name string) ([]*Trajectory, error) {
	var out []*Trajectory
	err := EachTrajectory(r, name, func(t *Trajectory, _ []byte) error {
		out = append(out, t)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ErrNotTrajectory says a JSON line is not a trajectory as leaper rollout
// writes it: it names no task (an SFT export's lines, say).
var ErrNotTrajectory = errors.New(`not a trajectory as leaper rollout writes it: no "task_id"`)

// Valid reports whether t, as read from a file, is a trajectory: it names
// its task.
func (t *Trajectory) Valid() error {
	if t.TaskID == "" {
		return ErrNotTrajectory
	}
	return nil
}

// EachTrajectory decodes trajectories from r, one per line, and calls fn
// with each and its line as read (trimmed; valid only until fn returns);
// name is used in errors, which name the line. A tasks file is refused by
// name, as is a line that names no task. It is the one decoder of
// trajectories: eval, export, filter and rollout's resume all read
// through it.
func EachTrajectory(r io.Reader, name string, fn func(t *Trajectory, line []byte) error) error {
	return task.EachLine(r, name, task.KindTrajectory, (*Trajectory).Valid, func(_ int, raw []byte, t *Trajectory) error {
		return fn(t, raw)
	})
}
