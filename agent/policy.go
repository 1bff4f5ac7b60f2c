package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/query"
	"github.com/leaper-dev/leaper/web"
)

// Graph is what the oracle and the scorer read from the store: trees (for
// their pages) and entities (for their pages and aliases). *graph.Store
// satisfies it.
type Graph interface {
	Tree(id uint32) (*graph.Tree, error)
	Entities(ids []uint32) ([]*graph.Entity, error)
}

// NewPolicy returns a built-in policy by name: oracle (needs g and probe)
// or naive.
func NewPolicy(name string, g Graph, probe Backend) (Policy, error) {
	switch name {
	case "oracle":
		return &Oracle{Graph: g, Probe: probe}, nil
	case "naive":
		return &Naive{}, nil
	}
	return nil, fmt.Errorf("%w: %q (want oracle, naive or llm)", ErrPolicy, name)
}

// Oracle reads the task's targets and trees and collects every target with
// as few calls as it can: one search for the source pages' titles, then
// visits of the pages that show the most unseen targets, several pages per
// call; then it answers with the task's answer table. It is the efficiency
// upper bound and a source of gold trajectories. It predicts what a visit
// shows by calling Probe, whose calls are not part of the trajectory.
type Oracle struct {
	Graph Graph
	Probe Backend
	// MaxURLs is the number of pages per visit call; default 5.
	MaxURLs int
	// MaxProbes bounds the entity pages probed per task; default 400.
	MaxProbes int
}

// PolicyName implements Policy.
func (o *Oracle) PolicyName() string { return "oracle" }

// ModelName implements Policy.
func (o *Oracle) ModelName() string { return "" }

type plan struct{ turns []string }

// Next implements Policy.
func (o *Oracle) Next(ctx context.Context, s *State) (*ChatResponse, error) {
	if s.Memo == nil {
		p, err := o.plan(ctx, s.Task)
		if err != nil {
			return nil, err
		}
		s.Memo = p
	}
	p := s.Memo.(*plan)
	i := len(s.Steps)
	if i >= len(p.turns) {
		i = len(p.turns) - 1
	}
	return builtinReply(s, p.turns[i]), nil
}

// Goal is the visit goal built-in policies use for a task.
func Goal(t *query.Task) string {
	if len(t.Answer.Columns) == 0 {
		return t.Question
	}
	return t.Question + " Columns: " + strings.Join(t.Answer.Columns, ", ")
}

type cand struct {
	url  string
	ents []uint32
}

func (o *Oracle) plan(ctx context.Context, t *query.Task) (*plan, error) {
	if o.Graph == nil || o.Probe == nil {
		return nil, fmt.Errorf("agent: the oracle needs the store's graph and web")
	}
	maxURLs, maxProbes := o.MaxURLs, o.MaxProbes
	if maxURLs <= 0 {
		maxURLs = 5
	}
	if maxProbes <= 0 {
		maxProbes = 400
	}
	R := map[uint32]bool{}
	treeIDs := append([]uint32(nil), t.Trees...)
	hasTree := map[uint32]bool{}
	for _, id := range treeIDs {
		hasTree[id] = true
	}
	for _, tg := range t.Targets {
		R[tg.Entity] = true
		if !hasTree[tg.Tree] {
			hasTree[tg.Tree] = true
			treeIDs = append(treeIDs, tg.Tree)
		}
	}
	var trees []*graph.Tree
	var titles, pages []string
	dup := map[string]bool{}
	for _, id := range treeIDs {
		tr, err := o.Graph.Tree(id)
		if err != nil {
			return nil, err
		}
		trees = append(trees, tr)
		if !dup["t"+tr.PageTitle] {
			dup["t"+tr.PageTitle] = true
			titles = append(titles, tr.PageTitle)
		}
		if !dup["u"+tr.PageURL] {
			dup["u"+tr.PageURL] = true
			pages = append(pages, tr.PageURL)
		}
	}
	seen := map[uint32]bool{}
	gain := func(ids []uint32) int {
		n := 0
		for _, id := range ids {
			if R[id] && !seen[id] {
				n++
			}
		}
		return n
	}
	mark := func(ids []uint32) {
		for _, id := range ids {
			if R[id] {
				seen[id] = true
			}
		}
	}
	p := &plan{}
	if len(titles) > 0 {
		// Not probed: ISE counts visits only, so the visits are planned
		// as if the search showed nothing.
		args := map[string]any{"query": titles}
		p.turns = append(p.turns, textCall(fmt.Sprintf("The question is answered by the table(s) of %s. I will search for the source page(s) first, then read them whole.",
			quoteList(titles)), "search", args))
	}
	goal := Goal(t)
	probe := func(urls []string) ([]cand, error) {
		var out []cand
		for _, u := range urls {
			obs, err := o.call(ctx, "visit", map[string]any{"url": []string{u}, "goal": goal})
			if err != nil {
				return nil, err
			}
			out = append(out, cand{u, obs.Entities})
		}
		return out, nil
	}
	var chosen []cand
	greedy := func(cs []cand) {
		for {
			best, bg := -1, 0
			for i, c := range cs {
				if g := gain(c.ents); g > bg {
					best, bg = i, g
				}
			}
			if best < 0 {
				return
			}
			chosen = append(chosen, cs[best])
			mark(cs[best].ents)
		}
	}
	cs, err := probe(pages)
	if err != nil {
		return nil, err
	}
	greedy(cs)
	if len(seen) < len(R) {
		// The remaining targets: their own pages, and the pages of the keys
		// of the rows that hold them (entity pages state the facts).
		var urls []string
		add := func(e *graph.Entity) {
			if e.URL != "" && !dup["u"+e.URL] && len(urls) < maxProbes {
				dup["u"+e.URL] = true
				urls = append(urls, e.URL)
			}
		}
		missing := map[uint32]bool{}
		for id := range R {
			if !seen[id] {
				missing[id] = true
			}
		}
		var ids []uint32
		for _, tr := range trees {
			for _, row := range tr.Rows {
				hit := missing[row.Key]
				for _, vs := range row.Values {
					for _, v := range vs {
						hit = hit || missing[v]
					}
				}
				if hit {
					ids = append(ids, row.Key)
					for _, vs := range row.Values {
						for _, v := range vs {
							if missing[v] {
								ids = append(ids, v)
							}
						}
					}
				}
			}
		}
		ents, err := o.Graph.Entities(ids)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			add(e)
		}
		cs, err := probe(urls)
		if err != nil {
			return nil, err
		}
		greedy(cs)
	}
	for i := 0; i < len(chosen); i += maxURLs {
		batch := chosen[i:min(i+maxURLs, len(chosen))]
		urls := make([]string, len(batch))
		n := 0
		for j, c := range batch {
			urls[j] = c.url
			n += len(c.ents)
		}
		thought := fmt.Sprintf("I have found %d of the %d entities I need. These %s should show the rest of the rows and their attributes.",
			countSeenBefore(chosen[:i], R), len(R), plural(len(urls), "page", "pages"))
		p.turns = append(p.turns, textCall(thought, "visit", map[string]any{"url": urls, "goal": goal}))
	}
	p.turns = append(p.turns, textAnswer(fmt.Sprintf("I have collected the entities the question asks for (%d of %d). Here is the table.", len(seen), len(R)), answerText(t)))
	return p, nil
}

func countSeenBefore(cs []cand, R map[uint32]bool) int {
	m := map[uint32]bool{}
	for _, c := range cs {
		for _, id := range c.ents {
			if R[id] {
				m[id] = true
			}
		}
	}
	return len(m)
}

func (o *Oracle) call(ctx context.Context, tool string, args any) (*web.Observation, error) {
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	return o.Probe.Call(ctx, tool, b)
}

// answerText is a task's gold answer as the oracle writes it.
func answerText(t *query.Task) string {
	tab := (&Table{Columns: t.Answer.Columns, Rows: t.Answer.Rows}).Markdown()
	if a := t.Answer.Aggregate; a != nil {
		return a.Value + "\n\n" + tab
	}
	return tab
}

// Naive searches the question, visits the hits in order, one per call, and
// answers with the table rows it saw: a baseline that needs no model.
type Naive struct {
	// Visits is the number of hits visited; default 5.
	Visits int
}

// PolicyName implements Policy.
func (n *Naive) PolicyName() string { return "naive" }

// ModelName implements Policy.
func (n *Naive) ModelName() string { return "" }

// Next implements Policy.
func (n *Naive) Next(ctx context.Context, s *State) (*ChatResponse, error) {
	visits := n.Visits
	if visits <= 0 {
		visits = 5
	}
	i := len(s.Steps)
	if i == 0 {
		return builtinReply(s, textCall("I will search for the question directly.", "search", map[string]any{"query": []string{s.Task.Question}})), nil
	}
	var hits []string
	if o := s.Observations[0]; o != nil {
		hits = o.URLs
	}
	if i-1 < min(visits, len(hits)) {
		u := hits[i-1]
		return builtinReply(s, textCall(fmt.Sprintf("Result %d may hold the answer; I will read it.", i), "visit",
			map[string]any{"url": u, "goal": Goal(s.Task)})), nil
	}
	return builtinReply(s, textAnswer("I will answer with the table rows I have seen.", crudeTable(s))), nil
}

// crudeTable gathers the markdown table rows of the visit observations under
// the task's columns (or the first header seen), cut or padded to fit.
func crudeTable(s *State) string {
	cols := s.Task.Answer.Columns
	var rows [][]string
	dup := map[string]bool{}
	for i, o := range s.Observations {
		if o == nil || s.Steps[i].Tool != "visit" {
			continue
		}
		lines := strings.Split(o.Text, "\n")
		for j, l := range lines {
			if !strings.HasPrefix(l, "|") {
				continue
			}
			cells := splitRow(l)
			if isSeparator(cells) {
				continue
			}
			if j+1 < len(lines) && strings.HasPrefix(lines[j+1], "|") && isSeparator(splitRow(lines[j+1])) {
				if len(cols) == 0 {
					cols = cells
				}
				continue // a header
			}
			if dup[l] || len(rows) >= 100 {
				continue
			}
			dup[l] = true
			rows = append(rows, cells)
		}
	}
	if len(cols) == 0 {
		cols = []string{"Answer"}
	}
	for i, r := range rows {
		r = append(r, make([]string, len(cols))...)
		rows[i] = r[:len(cols)]
	}
	return (&Table{Columns: cols, Rows: rows}).Markdown()
}
