// Package agenttest builds tasks and a scripted OpenAI-compatible server for
// tests of the agent package and the rollout commands.
package agenttest

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/task"
)

// BasicTask builds a Basic task from one tree: every key entity (layer 2)
// and value entity (layer 3) is a target; the answer has the key header and
// the column headers, one row per key. keep, when not nil, selects rows by
// key entity.
func BasicTask(g *graph.Store, tr *graph.Tree, id string, keep map[uint32]bool) (*task.Task, error) {
	t := &task.Task{ID: id, Variant: task.Basic, Trees: []uint32{tr.ID},
		Answer: task.Answer{Columns: []string{tr.KeyHeader}}}
	for _, c := range tr.Columns {
		t.Answer.Columns = append(t.Answer.Columns, c.Header)
	}
	seen := map[uint32]bool{}
	for _, row := range tr.Rows {
		if keep != nil && !keep[row.Key] {
			continue
		}
		k, err := g.Entity(row.Key)
		if err != nil {
			return nil, err
		}
		out := []string{k.Name}
		if !seen[row.Key] {
			seen[row.Key] = true
			t.Targets = append(t.Targets, task.Target{Entity: row.Key, Name: k.Name, Layer: 2, Tree: tr.ID})
		}
		for ci, vs := range row.Values {
			es, err := g.Entities(vs)
			if err != nil {
				return nil, err
			}
			var names []string
			for _, e := range es {
				names = append(names, e.Name)
				if !seen[e.ID] {
					seen[e.ID] = true
					t.Targets = append(t.Targets, task.Target{Entity: e.ID, Name: e.Name, Layer: 3, Tree: tr.ID, Relation: tr.Columns[ci].Name})
				}
			}
			out = append(out, strings.Join(names, "; "))
		}
		t.Answer.Rows = append(t.Answer.Rows, out)
	}
	t.Question = fmt.Sprintf("List every %s in the table of \"%s\" with their %s.", tr.KeyHeader, tr.Title(),
		strings.Join(t.Answer.Columns[1:], ", "))
	return t, nil
}

// Tasks builds up to n Basic tasks from the store's trees (smallest first,
// so tests stay fast) and, when two trees share key entities, a union-like
// task over the shared keys of both trees.
func Tasks(tb testing.TB, g *graph.Store, n int) []*task.Task {
	tb.Helper()
	var trees []*graph.Tree
	if err := g.EachTree(context.Background(), func(t *graph.Tree) error {
		trees = append(trees, t)
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	sort.SliceStable(trees, func(i, j int) bool { return len(trees[i].Rows) < len(trees[j].Rows) })
	var out []*task.Task
	for _, tr := range trees {
		if len(out) >= n {
			break
		}
		t, err := BasicTask(g, tr, fmt.Sprintf("basic-%d", tr.ID), nil)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, t)
	}
	if u := unionTask(tb, g, trees); u != nil {
		out = append(out, u)
	}
	return out
}

func unionTask(tb testing.TB, g *graph.Store, trees []*graph.Tree) *task.Task {
	keys := map[uint32][]int{}
	for i, t := range trees {
		for _, r := range t.Rows {
			keys[r.Key] = append(keys[r.Key], i)
		}
	}
	pairs := map[[2]int]map[uint32]bool{}
	for k, ts := range keys {
		if len(ts) < 2 || ts[0] == ts[1] {
			continue
		}
		p := [2]int{ts[0], ts[1]}
		if pairs[p] == nil {
			pairs[p] = map[uint32]bool{}
		}
		pairs[p][k] = true
	}
	var best [2]int
	bn := 0
	for p, ks := range pairs {
		if len(ks) > bn || len(ks) == bn && (p[0] < best[0] || p[0] == best[0] && p[1] < best[1]) {
			best, bn = p, len(ks)
		}
	}
	if bn < 2 {
		return nil
	}
	a, b := trees[best[0]], trees[best[1]]
	ta, err := BasicTask(g, a, "", pairs[best])
	if err != nil {
		tb.Fatal(err)
	}
	tbb, err := BasicTask(g, b, "", pairs[best])
	if err != nil {
		tb.Fatal(err)
	}
	ta.ID = fmt.Sprintf("union-%d-%d", a.ID, b.ID)
	ta.Variant = task.Union
	ta.Trees = []uint32{a.ID, b.ID}
	seen := map[uint32]bool{}
	for _, t := range ta.Targets {
		seen[t.Entity] = true
	}
	for _, t := range tbb.Targets {
		if !seen[t.Entity] {
			seen[t.Entity] = true
			ta.Targets = append(ta.Targets, t)
		}
	}
	ta.Question = fmt.Sprintf("Which %s appear both in the table of \"%s\" and in the table of \"%s\"? Give their %s.",
		a.KeyHeader, a.Title(), b.Title(), strings.Join(ta.Answer.Columns[1:], ", "))
	return ta
}
