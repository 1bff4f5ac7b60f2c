package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/task"
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

// Oracle reads the task's targets and trees and collects every target as a
// careful agent would if it knew where each one is stated, then answers
// with the task's answer table. It is the efficiency bound of such an agent
// and a source of gold trajectories. Its rules:
//
//   - It knows the task's sources (the pages of its trees, and the entity
//     pages that state the rest of R) but not their URLs: it visits only
//     URLs that one of its own searches returned, or the page of an entity
//     that a page it visited shows (a link of that page: table cells and
//     facts link their entities' articles), never a guessed one.
//   - To reach a source it searches what it knows of it: a table page by
//     its title, then the title with the section, with the caption, with a
//     few of the table's keys, then with the year the title names as
//     filter_year; an entity page it has no link to by the entity's name,
//     then the name with the title of the page whose table names it. A URL
//     an earlier search returned is visited without a new search, and a
//     search call carries the next queries of up to four other sources not
//     found yet (the search tool takes several). A source that no search
//     finds is left out, and another page that shows the same targets is
//     used instead.
//   - It visits one page per call, the page that shows the most targets it
//     has not seen yet (greedy set cover): table pages first, then entity
//     pages for what the tables left out. The goal of a visit is the task's,
//     or, for a table read for some of its columns only (an attribute
//     beyond the task's tables), that table's title and those columns.
//   - A target still unseen is searched by its name (with its key's name
//     for an attribute), and the first result page that shows it is
//     visited.
//
// It predicts what a search or visit shows by calling Probe, whose calls
// are not part of the trajectory; the planned calls are then made for real
// and show the same (the web is deterministic).
type Oracle struct {
	Graph Graph
	Probe Backend
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
func Goal(t *task.Task) string {
	if len(t.Answer.Columns) == 0 {
		return t.Question
	}
	return t.Question + " Columns: " + strings.Join(t.Answer.Columns, ", ")
}

type cand struct {
	url     string
	ents    []uint32
	queries []sq   // what the oracle searches to find url
	goal    string // the visit goal; the task's when empty
	entity  uint32 // the entity whose page url is, when linked is set
	linked  bool   // an entity page: reachable by a link where a visit shows the entity
}

// oraclePlan is the state of planning one task.
type oraclePlan struct {
	o        *Oracle
	ctx      context.Context
	goal     string
	R        map[uint32]bool
	seen     map[uint32]bool
	found    map[string]bool // URLs the planned searches returned
	searched map[string]bool
	visited  map[string]bool // URL and goal ("" for the task's)
	shown    map[uint32]bool // entities the planned visits show (their pages are links)
	turns    []string
}

func (op *oraclePlan) gain(ids []uint32) int {
	n := 0
	for _, id := range ids {
		if op.R[id] && !op.seen[id] {
			n++
		}
	}
	return n
}

func (op *oraclePlan) mark(ids []uint32) {
	for _, id := range ids {
		if op.R[id] {
			op.seen[id] = true
		}
	}
}

// sq is one search: a query, and a year to filter on (0 for none).
type sq struct {
	q    string
	year int
}

// search plans a search (once per query and year) and notes what it
// shows; extra are more queries (without a year) for the same call, as
// the search tool takes several.
func (op *oraclePlan) search(q sq, why string, extra ...string) (*web.Observation, error) {
	k := fmt.Sprintf("%s\x00%d", q.q, q.year)
	if op.searched[k] {
		return nil, nil
	}
	op.searched[k] = true
	qs := []string{q.q}
	if q.year == 0 {
		for _, e := range extra {
			if ek := e + "\x000"; !op.searched[ek] && !slices.Contains(qs, e) {
				op.searched[ek] = true
				qs = append(qs, e)
			}
		}
	}
	args := map[string]any{"query": qs}
	if q.year != 0 {
		args["filter_year"] = q.year
	}
	obs, err := op.o.call(op.ctx, "search", args)
	if err != nil {
		return nil, err
	}
	op.turns = append(op.turns, textCall(why, "search", args))
	for _, u := range obs.URLs {
		op.found[canonical(u)] = true
	}
	op.mark(obs.Entities)
	return obs, nil
}

// maxQueries bounds the queries of one search call.
const maxQueries = 5

// find reports whether c's URL is a link of a visited page or a search
// result, searching c's queries until one returns it. A search also asks
// the next query of up to four other sources of others not found yet
// (those showing the most unseen targets), as one call.
func (op *oraclePlan) find(c cand, others []cand) (bool, error) {
	if c.linked && op.shown[c.entity] {
		return true, nil
	}
	u := canonical(c.url)
	for _, q := range c.queries {
		if op.found[u] {
			return true, nil
		}
		var extra []string
		if q.year == 0 {
			extra = op.nextQueries(c, others, maxQueries-1)
		}
		what := fmt.Sprintf("%q", q.q)
		if len(extra) > 0 {
			what = fmt.Sprintf("%q and %s", q.q, plural(len(extra), "more source", "more sources"))
		}
		why := fmt.Sprintf("I have found %d of the %d entities I need. I will search for %s to find the pages that state more of them.", len(op.seen), len(op.R), what)
		if _, err := op.search(q, why, extra...); err != nil {
			return false, err
		}
	}
	return op.found[u], nil
}

// nextQueries are the next unsearched yearless queries of up to n
// sources of cs other than c that are neither found nor visited, most
// unseen targets first.
func (op *oraclePlan) nextQueries(c cand, cs []cand, n int) []string {
	type gq struct {
		gain int
		q    string
	}
	var gs []gq
	for _, o := range cs {
		if o.url == c.url || op.found[canonical(o.url)] || o.linked && op.shown[o.entity] || op.visited[canonical(o.url)+"\x00"+o.goal] {
			continue
		}
		g := op.gain(o.ents)
		if g == 0 {
			continue
		}
		for _, q := range o.queries {
			if q.year == 0 && !op.searched[q.q+"\x000"] {
				gs = append(gs, gq{g, q.q})
				break
			}
		}
	}
	slices.SortStableFunc(gs, func(a, b gq) int { return b.gain - a.gain })
	var out []string
	for _, g := range gs {
		if len(out) == n {
			break
		}
		if !slices.Contains(out, g.q) {
			out = append(out, g.q)
		}
	}
	return out
}

// canonical is the store's form of a page URL, for comparing search
// results with the sources' URLs.
func canonical(u string) string {
	if c := web.CanonicalURL(u); c != "" {
		return c
	}
	return u
}

// searches are the queries for a source, most general first, without
// repeats: each text, then each with the year it names as filter_year.
func searches(texts ...string) []sq {
	var out []sq
	seen := map[string]bool{}
	add := func(q sq) {
		k := fmt.Sprintf("%s\x00%d", q.q, q.year)
		if q.q != "" && !seen[k] {
			seen[k] = true
			out = append(out, q)
		}
	}
	for _, t := range texts {
		add(sq{q: strings.TrimSpace(t)})
	}
	for _, t := range texts {
		if y := yearOf(t); y != 0 {
			add(sq{q: strings.TrimSpace(t), year: y})
		}
	}
	return out
}

// yearOf is the first four-digit year (1000-2099) a text names, or 0.
func yearOf(s string) int {
	for i := 0; i+4 <= len(s); i++ {
		if (i == 0 || !isDigit(s[i-1])) && (i+4 == len(s) || !isDigit(s[i+4])) &&
			isDigit(s[i]) && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) && (s[i] == '1' || s[i] == '2' && s[i+1] == '0') {
			y := 0
			for _, c := range s[i : i+4] {
				y = y*10 + int(c-'0')
			}
			return y
		}
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (op *oraclePlan) visit(u, goal string, ents []uint32) {
	op.visited[canonical(u)+"\x00"+goal] = true
	if goal == "" {
		goal = op.goal
	}
	thought := fmt.Sprintf("I have found %d of the %d entities I need. The page %s should show more of the rows and their attributes; I will read it.",
		len(op.seen), len(op.R), u)
	op.turns = append(op.turns, textCall(thought, "visit", map[string]any{"url": []string{u}, "goal": goal}))
	op.mark(ents)
	for _, id := range ents {
		op.shown[id] = true
	}
}

// greedy visits, among cs, the findable page that shows the most unseen
// targets, until none shows any.
func (op *oraclePlan) greedy(cs []cand) error {
	dead := make([]bool, len(cs))
	for {
		best, bg := -1, 0
		for i, c := range cs {
			if dead[i] || op.visited[canonical(c.url)+"\x00"+c.goal] {
				continue
			}
			if g := op.gain(c.ents); g > bg {
				best, bg = i, g
			}
		}
		if best < 0 {
			return nil
		}
		ok, err := op.find(cs[best], cs)
		if err != nil {
			return err
		}
		if !ok || op.gain(cs[best].ents) == 0 {
			dead[best] = true
			continue
		}
		op.visit(cs[best].url, cs[best].goal, cs[best].ents)
	}
}

func (o *Oracle) probe(ctx context.Context, goal string, cs []cand) error {
	for i := range cs {
		g := cs[i].goal
		if g == "" {
			g = goal
		}
		obs, err := o.call(ctx, "visit", map[string]any{"url": []string{cs[i].url}, "goal": g})
		if err != nil {
			return err
		}
		cs[i].ents = obs.Entities
	}
	return nil
}

func (o *Oracle) plan(ctx context.Context, t *task.Task) (*plan, error) {
	if o.Graph == nil || o.Probe == nil {
		return nil, fmt.Errorf("agent: the oracle needs the store's graph and web")
	}
	maxProbes := o.MaxProbes
	if maxProbes <= 0 {
		maxProbes = 400
	}
	op := &oraclePlan{o: o, ctx: ctx, goal: Goal(t), R: map[uint32]bool{}, seen: map[uint32]bool{},
		found: map[string]bool{}, searched: map[string]bool{}, visited: map[string]bool{}, shown: map[uint32]bool{}}
	treeIDs := append([]uint32(nil), t.Trees...)
	hasTree := map[uint32]bool{}
	for _, id := range treeIDs {
		hasTree[id] = true
	}
	for _, tg := range t.Targets {
		op.R[tg.Entity] = true
		if !hasTree[tg.Tree] {
			hasTree[tg.Tree] = true
			treeIDs = append(treeIDs, tg.Tree)
		}
	}
	// The relations each tree beyond the task's own is read for.
	rels := map[uint32][]string{}
	for _, tg := range t.Targets {
		if tg.Relation != "" && !slices.Contains(t.Trees, tg.Tree) && !slices.Contains(rels[tg.Tree], tg.Relation) {
			rels[tg.Tree] = append(rels[tg.Tree], tg.Relation)
		}
	}
	var trees []*graph.Tree
	var pages []cand
	byURL := map[string]int{}
	for _, id := range treeIDs {
		tr, err := o.Graph.Tree(id)
		if err != nil {
			return nil, err
		}
		trees = append(trees, tr)
		// The title, with the section and caption; then with a few of
		// the table's keys (the oracle knows the set).
		var ks []string
		if kes, err := o.Graph.Entities(firstKeys(tr, 3)); err == nil {
			for _, e := range kes {
				if e != nil {
					ks = append(ks, e.Name)
				}
			}
		}
		qs := searches(tr.PageTitle, tr.PageTitle+" "+tr.Section, tr.PageTitle+" "+tr.Caption, tr.PageTitle+" "+strings.Join(ks, " "))
		goal := ""
		if len(rels[id]) > 0 {
			// A table read for some of its columns: the goal names the
			// table and those columns, so that the page shows that table.
			hs := []string{tr.KeyHeader}
			for _, c := range tr.Columns {
				if slices.Contains(rels[id], c.Name) {
					hs = append(hs, c.Header)
				}
			}
			goal = tr.Title() + ": " + strings.Join(hs, ", ")
		}
		// One candidate per page and goal: a page whose tables are read
		// for different goals may be visited once per goal.
		key := tr.PageURL + "\x00" + goal
		if i, ok := byURL[key]; ok {
			for _, q := range qs {
				if !slices.Contains(pages[i].queries, q) {
					pages[i].queries = append(pages[i].queries, q)
				}
			}
			continue
		}
		byURL[key] = len(pages)
		pages = append(pages, cand{url: tr.PageURL, queries: qs, goal: goal})
	}
	if err := o.probe(ctx, op.goal, pages); err != nil {
		return nil, err
	}
	if err := op.greedy(pages); err != nil {
		return nil, err
	}
	if len(op.seen) < len(op.R) {
		// The remaining targets: their own pages, and the pages of the keys
		// of the rows that hold them (entity pages state the facts).
		missing := map[uint32]bool{}
		for id := range op.R {
			if !op.seen[id] {
				missing[id] = true
			}
		}
		var ids []uint32
		ctxOf := map[uint32]string{} // entity → the page title whose table names it
		note := func(id uint32, tr *graph.Tree) {
			if _, ok := ctxOf[id]; !ok {
				ctxOf[id] = tr.PageTitle
				ids = append(ids, id)
			}
		}
		for _, tr := range trees {
			for _, row := range tr.Rows {
				hit := missing[row.Key]
				for _, vs := range row.Values {
					for _, v := range vs {
						hit = hit || missing[v]
					}
				}
				if hit {
					note(row.Key, tr)
					for _, vs := range row.Values {
						for _, v := range vs {
							if missing[v] {
								note(v, tr)
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
		var cs []cand
		dup := map[string]bool{}
		for _, c := range pages {
			dup[c.url] = true
		}
		for i, e := range ents {
			if e == nil || e.URL == "" || dup[e.URL] || len(cs) >= maxProbes {
				continue
			}
			dup[e.URL] = true
			cs = append(cs, cand{url: e.URL, queries: searches(e.Name, e.Name+" "+ctxOf[ids[i]]), entity: e.ID, linked: true})
		}
		if err := o.probe(ctx, op.goal, cs); err != nil {
			return nil, err
		}
		if err := op.greedy(cs); err != nil {
			return nil, err
		}
	}
	if err := op.lastResort(t); err != nil {
		return nil, err
	}
	op.turns = append(op.turns, textAnswer(fmt.Sprintf("I have collected the entities the question asks for (%d of %d). Here is the table.", len(op.seen), len(op.R)), answerText(t)))
	return &plan{turns: op.turns}, nil
}

// lastResort searches each unseen target by name (an attribute with its
// key's name too) and visits the first result page that shows it.
func (op *oraclePlan) lastResort(t *task.Task) error {
	keyName := map[uint32]string{} // attribute → the key of its row (targets list keys first)
	var lastKey string
	for _, tg := range t.Targets {
		if tg.Layer == 2 {
			lastKey = tg.Name
		} else if _, ok := keyName[tg.Entity]; !ok {
			keyName[tg.Entity] = lastKey
		}
	}
	for _, tg := range t.Targets {
		if op.seen[tg.Entity] || strings.TrimSpace(tg.Name) == "" {
			continue
		}
		for _, q := range searches(tg.Name, keyName[tg.Entity]+" "+tg.Name) {
			if op.seen[tg.Entity] {
				break
			}
			why := fmt.Sprintf("I have found %d of the %d entities I need; %q is still missing, so I will search for %q.", len(op.seen), len(op.R), tg.Name, q.q)
			obs, err := op.search(q, why)
			if err != nil {
				return err
			}
			if obs == nil || op.seen[tg.Entity] {
				continue
			}
			for _, u := range obs.URLs {
				if op.visited[canonical(u)+"\x00"] {
					continue
				}
				v, err := op.o.call(op.ctx, "visit", map[string]any{"url": []string{u}, "goal": op.goal})
				if err != nil {
					return err
				}
				if slices.Contains(v.Entities, tg.Entity) {
					op.visit(u, "", v.Entities)
					break
				}
			}
		}
	}
	return nil
}

func (o *Oracle) call(ctx context.Context, tool string, args any) (*web.Observation, error) {
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	return o.Probe.Call(ctx, tool, b)
}

// answerText is a task's gold answer as the oracle writes it.
func answerText(t *task.Task) string {
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

// firstKeys are the first n distinct keys of a tree.
func firstKeys(t *graph.Tree, n int) []uint32 {
	var out []uint32
	for _, r := range t.Rows {
		if len(out) >= n {
			break
		}
		if !slices.Contains(out, r.Key) {
			out = append(out, r.Key)
		}
	}
	return out
}
