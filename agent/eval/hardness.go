package eval

import (
	"context"
	"fmt"
	"sort"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/internal/hist"
	"github.com/leaper-dev/leaper/task"
)

// Hardness describes how much searching the tasks of one variant need: the
// target-set sizes |R|, the trees and distinct pages per task (the pages
// of the trees that state a target), and, when a web is given, the
// oracle's tool calls and ISR and the naive policy's ISR (one search of the
// question, five hits visited) over it.
type Hardness struct {
	Variant string         `json:"variant"`
	Tasks   int            `json:"tasks"`
	Ops     map[string]int `json:"ops,omitempty"`
	Targets Summary        `json:"targets"`
	// TargetsHist is the |R| distribution.
	TargetsHist hist.Histogram `json:"targets_histogram"`
	// TargetsOver100 counts tasks with |R| > 100.
	TargetsOver100 int     `json:"targets_over_100"`
	Trees          Summary `json:"trees"`
	Pages          Summary `json:"pages"`
	// Spread counts tasks over three trees or more, or an intersection or
	// difference of trees of different pages.
	Spread int `json:"spread"`
	// NamesTable counts questions that name a table or page instead of a
	// concept (task.NamesTable).
	NamesTable  int      `json:"names_table"`
	OracleCalls *Summary `json:"oracle_tool_calls,omitempty"`
	OracleISR   *Summary `json:"oracle_isr,omitempty"`
	NaiveISR    *Summary `json:"naive_isr,omitempty"`
}

// HardnessOptions configure ComputeHardness.
type HardnessOptions struct {
	// Backend is the offline web the policies run over; nil leaves the
	// policy measures out.
	Backend agent.Backend
	// Workers run tasks in parallel; default 1.
	Workers int
}

// ComputeHardness reports the hardness of tasks per variant (sorted by
// variant name). g gives the trees' pages and, with a backend, what the
// oracle reads.
func ComputeHardness(ctx context.Context, tasks []*task.Task, g agent.Graph, opts *HardnessOptions) ([]*Hardness, error) {
	if opts == nil {
		opts = &HardnessOptions{}
	}
	by := map[string][]*task.Task{}
	var variants []string
	for _, t := range tasks {
		v := string(t.Variant)
		if by[v] == nil {
			variants = append(variants, v)
		}
		by[v] = append(by[v], t)
	}
	sort.Strings(variants)
	pageOf := map[uint32]string{}
	page := func(id uint32) (string, error) {
		if p, ok := pageOf[id]; ok {
			return p, nil
		}
		tr, err := g.Tree(id)
		if err != nil {
			return "", fmt.Errorf("eval: hardness: tree %d: %w", id, err)
		}
		pageOf[id] = tr.PageURL
		return tr.PageURL, nil
	}
	var out []*Hardness
	for _, v := range variants {
		ts := by[v]
		h := &Hardness{Variant: v, Tasks: len(ts), Ops: map[string]int{}, TargetsHist: hist.NewInt(targetBounds...)}
		var rs, trees, pages []float64
		for _, t := range ts {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if t.Op != "" {
				h.Ops[t.Op]++
			}
			rs = append(rs, float64(len(t.Targets)))
			h.TargetsHist.Add(float64(len(t.Targets)))
			if len(t.Targets) > 100 {
				h.TargetsOver100++
			}
			trees = append(trees, float64(len(t.Trees)))
			ps := map[string]bool{}
			for _, id := range t.Trees {
				p, err := page(id)
				if err != nil {
					return nil, err
				}
				ps[p] = true
			}
			treePages := len(ps)
			for _, tg := range t.Targets {
				p, err := page(tg.Tree)
				if err != nil {
					return nil, err
				}
				ps[p] = true
			}
			pages = append(pages, float64(len(ps)))
			if len(t.Trees) >= 3 || (t.Op == task.OpIntersect || t.Op == task.OpDifference) && treePages >= 2 {
				h.Spread++
			}
			if task.NamesTable(t.Question) {
				h.NamesTable++
			}
		}
		h.Targets, h.Trees, h.Pages = Summarize(rs), Summarize(trees), Summarize(pages)
		if len(h.Ops) == 0 {
			h.Ops = nil
		}
		if opts.Backend != nil {
			calls, oisr, err := runPolicy(ctx, ts, &agent.Oracle{Graph: g, Probe: opts.Backend}, opts)
			if err != nil {
				return nil, err
			}
			_, nisr, err := runPolicy(ctx, ts, &agent.Naive{}, opts)
			if err != nil {
				return nil, err
			}
			c, o, n := Summarize(calls), Summarize(oisr), Summarize(nisr)
			h.OracleCalls, h.OracleISR, h.NaiveISR = &c, &o, &n
		}
		out = append(out, h)
	}
	return out, nil
}

// runPolicy runs p on every task and returns the tool calls and ISR of
// each trajectory.
func runPolicy(ctx context.Context, tasks []*task.Task, p agent.Policy, opts *HardnessOptions) (calls, isr []float64, err error) {
	calls = make([]float64, len(tasks))
	isr = make([]float64, len(tasks))
	err = agent.RunAll(ctx, tasks, p, opts.Backend, &agent.Options{Deterministic: true, Workers: opts.Workers}, func(i int, t *agent.Trajectory) error {
		calls[i] = float64(len(t.Steps))
		isr[i] = t.Metrics.ISR
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("eval: hardness: %s: %w", p.PolicyName(), err)
	}
	return calls, isr, nil
}
