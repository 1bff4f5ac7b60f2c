package report

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/task"
)

// Run is one set of trajectories, shown as one column of the rollout
// section; its trajectories are grouped further by policy and model.
type Run struct {
	Name         string // the file it came from, say
	Trajectories []*agent.Trajectory
}

// SynthStats is what leaper synth --json prints on stderr: the candidates
// of one variant and why some were refused.
type SynthStats struct {
	Variant    string         `json:"variant"`
	Candidates int            `json:"candidates"`
	Emitted    int            `json:"emitted"`
	Dropped    map[string]int `json:"dropped"`
}

// Options say what a report shows. Every part is optional; the store
// section is always there.
type Options struct {
	// Title heads the page; default "leaper report".
	Title string
	// Store names the store in the page (its directory, say).
	Store string
	// Tasks fill the task section and the task cards.
	Tasks []*task.Task
	// Runs fill the rollout section; two or more are shown side by side.
	Runs []Run
	// Score scores each run's answers against Tasks as leaper eval does
	// (soft F, WideSearch's success rate, row and item F1, with the
	// targets' aliases from the store) for the side-by-side table. It is
	// most of the report's time on thousands of trajectories.
	Score bool
	// Eval is a saved evaluation (leaper eval --json), shown as a table.
	Eval *eval.Report
	// Synth are synthesis reports, whose refusals are charted by reason.
	Synth []SynthStats
	// Backend, when set, runs the naive and oracle policies over the tasks
	// for the hardness scatter when no run holds both; nil leaves the
	// scatter to the runs.
	Backend agent.Backend
	// Workers run those policies in parallel; default 2.
	Workers int
	// Logger receives progress at debug level; nil discards.
	Logger *slog.Logger
}

func (o *Options) withDefaults() Options {
	c := Options{}
	if o != nil {
		c = *o
	}
	if c.Title == "" {
		c.Title = "leaper report"
	}
	if c.Workers <= 0 {
		c.Workers = 2
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// Write writes the report of g as one self-contained HTML page: every
// script and style is inline, and the page loads nothing. The same store
// and options give the same bytes.
func Write(ctx context.Context, w io.Writer, g *graph.Store, opts *Options) error {
	if g == nil {
		return ErrNoStore
	}
	o := opts.withDefaults()
	d, err := build(ctx, g, &o)
	if err != nil {
		return err
	}
	return render(w, d)
}

// ReadSynthStats reads a file of synthesis reports as leaper synth --json
// prints them on stderr: JSON objects one after another (one per run), or
// a JSON list of them.
func ReadSynthStats(path string) ([]SynthStats, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	var out []SynthStats
	for i := 1; ; i++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%w: %s: value %d: %v", ErrSynthStats, path, i, err)
		}
		var list []SynthStats
		if json.Unmarshal(raw, &list) == nil {
			out = append(out, list...)
			continue
		}
		// A task also has a "variant": the report is told by its counts.
		var keys map[string]json.RawMessage
		var s SynthStats
		err := json.Unmarshal(raw, &keys)
		if err == nil {
			err = json.Unmarshal(raw, &s)
		}
		if _, ok := keys["candidates"]; err != nil || !ok || s.Variant == "" {
			return nil, fmt.Errorf("%w: %s: value %d has no \"variant\" and \"candidates\": not leaper synth --json's report", ErrSynthStats, path, i)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s: empty", ErrSynthStats, path)
	}
	return out, nil
}

// ReadEval reads leaper eval --json's report.
func ReadEval(path string) (*eval.Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r eval.Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrEval, path, err)
	}
	if len(r.Groups) == 0 {
		return nil, fmt.Errorf("%w: %s: no \"groups\": not leaper eval --json's report", ErrEval, path)
	}
	return &r, nil
}

// RunName is the name of a run read from path: the file's base name
// without its extension.
func RunName(path string) string {
	b := filepath.Base(path)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// ReadTrajectories reads a trajectories file (leaper rollout's) as
// agent.ReadTrajectories does, with the same errors, but leaves out the
// messages, which the report does not show and which are most of a
// file's bytes.
func ReadTrajectories(path string) ([]*agent.Trajectory, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ls, err := task.DecodeLinesValid(f, path, task.KindTrajectory, func(l *lite) error { return l.Valid() })
	if err != nil {
		return nil, err
	}
	out := make([]*agent.Trajectory, len(ls))
	for i, l := range ls {
		out[i] = &l.Trajectory
	}
	return out, nil
}

// lite is a trajectory whose messages are skipped as it is decoded: the
// outer field wins over the embedded one of the same JSON name.
type lite struct {
	agent.Trajectory
	Messages skip `json:"messages"`
}

type skip struct{}

func (skip) UnmarshalJSON([]byte) error { return nil }
