package synth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/query"
	"github.com/leaper-dev/leaper/task"
)

// column is a requested column: a relation of "?" bound to a variable.
type column struct {
	rel    string // relation name, has_<snake>
	header string // natural words, from the table header
	v      string // variable
}

// slot is a constant of the formalization as the question names it.
// Phrases may refer to other slots as {n}: layer-wise expansion replaces a
// constant's phrase by a description whose own constant is a new slot.
type slot struct {
	text   string // the constant, as written after "C@"
	ent    uint32 // the entity it was chosen for
	phrase string
	live   bool // still a constant of the formalization
}

// draft is a candidate task before evaluation.
type draft struct {
	variant   task.Variant
	trees     []*graph.Tree
	triples   []task.Triple
	cols      []column
	keyHeader string
	keyNoun   noun
	slots     []slot
	question  string   // template text with {n} slot references
	given     []string // texts the question may contain: table titles, filter phrases
	keep      []string // texts a paraphrase must keep besides the live slots
	hidden    []uint32 // entities never to be named (the Reverse-Union anchor)
	agg       *query.AggFunc
	aggWant   string // the aggregate's value the question means, when known beforehand
	op        string // union operation
	expand    int
	vars      map[string]bool
}

// newVar returns a fresh variable name made from words.
func (d *draft) newVar(words string) string {
	if d.vars == nil {
		d.vars = map[string]bool{query.TargetVar: true}
	}
	var b strings.Builder
	up := true
	for _, r := range words {
		if b.Len() >= 24 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z':
			if up {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			up = false
		case r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' && b.Len() > 0:
			b.WriteRune(r)
			up = false
		default:
			up = true
		}
	}
	base := b.String()
	if base == "" {
		base = "X"
	}
	v := base
	for i := 2; d.vars[v]; i++ {
		v = base + strconv.Itoa(i)
	}
	d.vars[v] = true
	return v
}

// addSlot records a constant and returns its reference for templates.
func (d *draft) addSlot(text string, ent uint32, phrase string) string {
	d.slots = append(d.slots, slot{text: text, ent: ent, phrase: phrase, live: true})
	return "{" + strconv.Itoa(len(d.slots)-1) + "}"
}

// render expands slot references.
func (d *draft) render(s string) string {
	for depth := 0; depth < 16 && strings.Contains(s, "{"); depth++ {
		for i := len(d.slots) - 1; i >= 0; i-- {
			s = strings.ReplaceAll(s, "{"+strconv.Itoa(i)+"}", d.slots[i].phrase)
		}
	}
	return s
}

// tableVars are the answer table's variable columns: the variables that
// occur once in the formalization, as the object of a triple whose
// subject is "?", in order. Join variables (a Reverse-Union pivot, the
// variables of an expansion) occur twice or more and are not columns.
// Check relies on this convention to rebuild the table from the
// formalization alone.
func tableVars(ts []task.Triple) []string {
	n := map[string]int{}
	for _, t := range ts {
		if t.S.Var != "" {
			n[t.S.Var]++
		}
		if t.O.Var != "" {
			n[t.O.Var]++
		}
	}
	var out []string
	for _, t := range ts {
		if t.S.Target && t.O.Var != "" && n[t.O.Var] == 1 && !isTreeRel(t.R) {
			out = append(out, t.O.Var)
		}
	}
	return out
}

// table is an evaluated formalization: the target keys and, per key and
// table column, the values.
type table struct {
	keys  []uint32
	cells [][][]uint32 // [key][column] values, sorted
	vars  []string
}

// evalTable evaluates a formalization projected on "?" and the table
// variables. Strict also evaluates its own answer ("?" alone) and checks
// that the keys agree; they always should, as both project the same
// solutions, and each evaluation costs the engine a scan of the store's
// relations, so synthesis leaves it to Check.
func evalTable(ctx context.Context, g *graph.Store, ts []task.Triple, strict bool) (*table, error) {
	q, err := query.FromTriples(ts)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(q.Select, []string{query.TargetVar}) {
		return nil, fmt.Errorf("%w: the answer variables are %v, not ?", ErrInvariant, q.Select)
	}
	tb := &table{vars: tableVars(ts)}
	q2 := *q
	q2.Select = append([]string{query.TargetVar}, tb.vars...)
	res2, err := query.Eval(ctx, g, &q2)
	if err != nil {
		return nil, err
	}
	for _, r := range res2.Rows {
		if n := len(tb.keys); n == 0 || tb.keys[n-1] != r[0] {
			tb.keys = append(tb.keys, r[0])
		}
	}
	if strict {
		res, err := query.Eval(ctx, g, q)
		if err != nil {
			return nil, err
		}
		var keys []uint32
		for _, r := range res.Rows {
			keys = append(keys, r[0])
		}
		if !slices.Equal(keys, tb.keys) {
			return nil, fmt.Errorf("%w: the answer has %d entities, its projection on the table %d", ErrInvariant, len(keys), len(tb.keys))
		}
	}
	tb.cells = make([][][]uint32, len(tb.keys))
	if len(tb.vars) == 0 {
		return tb, nil
	}
	at := 0
	for _, r := range res2.Rows {
		for at < len(tb.keys) && tb.keys[at] < r[0] {
			at++
		}
		if at == len(tb.keys) || tb.keys[at] != r[0] {
			return nil, fmt.Errorf("%w: projected row for an entity outside the answer", ErrInvariant)
		}
		if tb.cells[at] == nil {
			tb.cells[at] = make([][]uint32, len(tb.vars))
		}
		for j := range tb.vars {
			if !slices.Contains(tb.cells[at][j], r[j+1]) {
				tb.cells[at][j] = append(tb.cells[at][j], r[j+1])
			}
		}
	}
	for i := range tb.cells {
		if tb.cells[i] == nil {
			return nil, fmt.Errorf("%w: answer entity without projected row", ErrInvariant)
		}
		for j := range tb.cells[i] {
			slices.Sort(tb.cells[i][j])
		}
	}
	return tb, nil
}

// Display is the name an answer gives an entity: its name, without the
// disambiguator of an article's title ("Hereafter (film)" → "Hereafter"),
// which no reader writes and an exact-match reward would then require.
func Display(e *graph.Entity) string { return audit.Plain(e.Name, strings.HasPrefix(e.Key, "w:")) }

// rows renders a table's rows with entity names (see render), as the
// task's trees write them: its named trees, and for a value read beyond
// them, the tree its target names.
func (tb *table) rows(g *graph.Store, tk *task.Task) ([][]string, error) {
	var ts []*graph.Tree
	for _, id := range tk.Trees {
		t, err := g.Tree(id)
		if err != nil {
			return nil, fmt.Errorf("synth: %w", err)
		}
		ts = append(ts, t)
	}
	shown := shownNames(ts)
	for _, tg := range tk.Targets {
		if _, ok := shown[tg.Entity]; ok || !tg.Beyond {
			continue
		}
		t, err := g.Tree(tg.Tree)
		if err != nil {
			return nil, fmt.Errorf("synth: %w", err)
		}
		if txt, ok := t.Shown[tg.Entity]; ok {
			shown[tg.Entity] = txt
		}
	}
	keyTree := map[uint32]*graph.Tree{}
	for _, tg := range tk.Targets {
		if tg.Layer != 2 || keyTree[tg.Entity] != nil {
			continue
		}
		t, err := g.Tree(tg.Tree)
		if err != nil {
			return nil, fmt.Errorf("synth: %w", err)
		}
		keyTree[tg.Entity] = t
	}
	uniq := tb.ids()
	slices.Sort(uniq)
	uniq = slices.Compact(uniq)
	es, err := g.Entities(uniq)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	byID := make(map[uint32]*graph.Entity, len(es))
	for _, e := range es {
		byID[e.ID] = e
	}
	namesake := func(e *graph.Entity) (bool, error) { return audit.Namesake(g, e) }
	rows, err := tb.renderNamed(byID, texts{all: shown, key: keyTree, rels: tb.rels(tk.Formalization)}, namesake)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	return rows, nil
}

// renderNamed is render with shown.namesake asked of namesake
// (audit.Namesake), and the first error the store gave it.
func (tb *table) renderNamed(es map[uint32]*graph.Entity, shown texts, namesake func(*graph.Entity) (bool, error)) ([][]string, error) {
	var nerr error
	shown.namesake = func(e *graph.Entity) bool {
		ok, err := namesake(e)
		if err != nil && nerr == nil {
			nerr = err
		}
		return ok
	}
	rows := tb.render(es, shown)
	return rows, nerr
}

// texts are what a task's trees write for its articles: a row's own
// tree (the first named tree holding its key) first, then all of them.
type texts struct {
	all  map[uint32]string
	key  map[uint32]*graph.Tree // key → its row's tree
	rels []string               // the relation of each column after the key's
	// namesake reports whether an article's name without its
	// disambiguator is another article's title (audit.Namesake); such an
	// article is given by its title whole.
	namesake func(*graph.Entity) bool
}

// decimal is figure name as the row's own tree writes it in column c
// (graph.Tree.FigureIn: "2.0").
func (x texts) decimal(key uint32, c int, name string) (string, bool) {
	t := x.key[key]
	if t == nil || c >= len(x.rels) {
		return "", false
	}
	return t.FigureIn(x.rels[c], name)
}

// display is e's Display name, or its title whole where that name is
// another article's.
func (x texts) display(e *graph.Entity) string {
	if x.namesake != nil && x.namesake(e) {
		return e.Name
	}
	return Display(e)
}

func (x texts) of(key, id uint32) (string, bool) {
	if t := x.key[key]; t != nil {
		if s, ok := t.Shown[id]; ok {
			return s, true
		}
		if rowHas(t, key, id) {
			return "", false // the row's own table writes the title
		}
	}
	s, ok := x.all[id]
	return s, ok
}

// rowHas reports whether a row of t keyed key holds id.
func rowHas(t *graph.Tree, key, id uint32) bool {
	for _, r := range t.Rows {
		if r.Key != key {
			continue
		}
		for _, vs := range r.Values {
			if slices.Contains(vs, id) {
				return true
			}
		}
	}
	return false
}

// tableRows is tb.rows with the synthesiser's entity cache: the same
// names, read once per entity rather than once per task.
func (s *synth) tableRows(tb *table, shown texts) ([][]string, error) {
	es, err := s.entities(tb.ids())
	if err != nil {
		return nil, err
	}
	return tb.renderNamed(es, shown, s.namesake)
}

// keyTrees maps each key of tb to the first of trees that holds it, as
// targets names it.
func (s *synth) keyTrees(trees []*graph.Tree, tb *table) map[uint32]*graph.Tree {
	out := map[uint32]*graph.Tree{}
	for _, k := range tb.keys {
		for _, t := range trees {
			if s.keys[s.index[t.ID]].Contains(k) {
				out[k] = t
				break
			}
		}
	}
	return out
}

// shownOf is what d's trees write for the articles of tb (shownNames), and
// for a value read beyond them, what the tree its target will name writes
// (factTree, in the order targets takes).
func (s *synth) shownOf(d *draft, tb *table) map[uint32]string {
	shown := shownNames(d.trees)
	seen := map[uint32]bool{}
	for i, k := range tb.keys {
		seen[k] = true
		for j, vals := range tb.cells[i] {
			rel := relOfVar(d.triples, tb.vars[j])
			for _, v := range vals {
				if seen[v] {
					continue
				}
				seen[v] = true
				if _, ok := shown[v]; ok {
					continue
				}
				if vt := s.factTree(d.trees, k, rel, v); vt != nil && !slices.Contains(d.trees, vt) {
					if txt, ok := vt.Shown[v]; ok {
						shown[v] = txt
					}
				}
			}
		}
	}
	return shown
}

// shownNames are the texts the trees write for their articles otherwise
// than their titles (graph.Tree.Shown): the first tree's text.
func shownNames(trees []*graph.Tree) map[uint32]string {
	out := map[uint32]string{}
	for _, t := range trees {
		for id, s := range t.Shown {
			if _, ok := out[id]; !ok {
				out[id] = s
			}
		}
	}
	return out
}

// ids are the entities of a table: keys and values.
func (tb *table) ids() []uint32 {
	var ids []uint32
	for i, k := range tb.keys {
		ids = append(ids, k)
		for _, c := range tb.cells[i] {
			ids = append(ids, c...)
		}
	}
	return ids
}

// render writes a table's rows: each entity as its trees write it
// (shown) or by its Display name (its title whole where that names
// another article: texts.display), the values of a cell joined by "; ". A
// cell whose values would read alike without their disambiguators ("Days
// of the New" for three albums) gives their full names.
func (tb *table) render(es map[uint32]*graph.Entity, shown texts) [][]string {
	var key uint32 // the row's key
	name := func(id uint32, full bool) string {
		e, ok := es[id]
		switch {
		case !ok:
			return ""
		case full:
			return e.Name
		}
		if s, ok := shown.of(key, id); ok && graph.Shows(e.Name, s) && !audit.LinkLabel(s) {
			return s
		}
		return shown.display(e)
	}
	// A cell of several values gives each by its Display name: the page
	// shows such a cell by its titles, and one cell must not mix the two.
	plain := func(id uint32) string {
		if e, ok := es[id]; ok {
			return shown.display(e)
		}
		return ""
	}
	out := make([][]string, len(tb.keys))
	for i, k := range tb.keys {
		key = k
		row := []string{name(k, false)}
		for ci, c := range tb.cells[i] {
			parts := make([]string, len(c))
			seen := map[string]bool{}
			full := false
			for j, id := range c {
				if len(c) == 1 {
					parts[j] = name(id, false)
					if e, ok := es[id]; ok && parts[j] == e.Name {
						if d, ok := shown.decimal(k, ci, e.Name); ok {
							parts[j] = d // "2.0" of a column of averages
						}
					}
				} else {
					parts[j] = plain(id)
				}
				full = full || seen[parts[j]]
				seen[parts[j]] = true
			}
			if full {
				for j, id := range c {
					parts[j] = name(id, true)
				}
			}
			row = append(row, strings.Join(parts, "; "))
		}
		out[i] = row
	}
	tb.apart(out, es)
	return out
}

// apart gives by their titles keys of two things that rows name alike
// (the Fifth Third Center of Columbus and of Cleveland, from two lists of
// a union), where the titles tell them apart and the rows say something
// different of each: two titles with the same values may be one thing
// linked two ways ("Randy Gardner (Ohio politician)" and "Randy Gardner
// (politician)" of Bowling Green), which the auditor refuses as alike.
func (tb *table) apart(rows [][]string, es map[uint32]*graph.Entity) {
	by := map[string][]int{}
	for i := range tb.keys {
		by[rows[i][0]] = append(by[rows[i][0]], i)
	}
	for _, is := range by {
		titles := map[uint32]string{}
		seen := map[string]bool{}
		said := map[string]uint32{} // a row's values → its key
		for _, i := range is {
			k := tb.keys[i]
			v := strings.Join(rows[i][1:], "\x00")
			if o, ok := said[v]; ok && o != k {
				titles = nil
				break
			}
			said[v] = k
			if _, ok := titles[k]; ok {
				continue
			}
			e, ok := es[k]
			if !ok || seen[e.Name] {
				titles = nil
				break
			}
			titles[k], seen[e.Name] = e.Name, true
		}
		if len(titles) < 2 {
			continue
		}
		for _, i := range is {
			rows[i][0] = titles[tb.keys[i]]
		}
	}
}

// aggOf rebuilds the engine aggregate of an answer: Column is the
// aggregated variable (count: "?"; diff: "A-B"; member: the constant
// asked about; countdiff: the two tree ids, "12-34"), and top/bottom keep
// as many rows as Value names.
func aggOf(a *task.Aggregate) *query.AggFunc {
	switch a.Op {
	case task.AggCount:
		return &query.AggFunc{Op: a.Op, Vars: []string{query.TargetVar}}
	case task.AggMember:
		return &query.AggFunc{Op: a.Op, Vars: []string{query.TargetVar}, Const: a.Column}
	case task.AggDiff:
		l, r, _ := strings.Cut(a.Column, "-")
		return &query.AggFunc{Op: a.Op, Vars: []string{l, r}}
	case task.AggCountDiff:
		l, r, _ := strings.Cut(a.Column, "-")
		x, errx := strconv.ParseUint(l, 10, 32)
		y, erry := strconv.ParseUint(r, 10, 32)
		if errx != nil || erry != nil {
			return &query.AggFunc{Op: a.Op, Vars: []string{query.TargetVar}}
		}
		return &query.AggFunc{Op: a.Op, Vars: []string{query.TargetVar}, Trees: []uint32{uint32(x), uint32(y)}}
	case task.AggTop, task.AggBottom:
		k := 0
		if a.Value != "" {
			k = len(strings.Split(a.Value, "; "))
		}
		return &query.AggFunc{Op: a.Op, K: k, Vars: []string{query.TargetVar, a.Column}}
	}
	return &query.AggFunc{Op: a.Op, Vars: []string{a.Column}}
}

// evalAgg evaluates the formalization with an aggregate head.
func evalAgg(ctx context.Context, g *graph.Store, ts []task.Triple, a *query.AggFunc) (*query.Result, error) {
	q, err := query.FromTriples(ts)
	if err != nil {
		return nil, err
	}
	q.Select = nil
	q.Agg = a
	return query.Eval(ctx, g, q)
}

// Check verifies a task's invariant: its formalization, read back from
// JSON the way `leaper query` reads it, evaluates over the store to
// exactly the answer table (the keys "?" and, per key, the values of the
// table variables), and to the answer's aggregate when there is one.
func Check(ctx context.Context, g *graph.Store, t *task.Task) error {
	b, err := json.Marshal(t.Formalization)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvariant, err)
	}
	q, err := query.Parse(string(b))
	if err != nil {
		return fmt.Errorf("%w: parse: %v", ErrInvariant, err)
	}
	ts, err := q.Triples()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvariant, err)
	}
	tb, err := evalTable(ctx, g, ts, true)
	if err != nil {
		if errors.Is(err, ErrInvariant) || ctx.Err() != nil {
			return err
		}
		return fmt.Errorf("%w: eval: %v", ErrInvariant, err)
	}
	rows, err := tb.rows(g, t)
	if err != nil {
		return err
	}
	if len(t.Answer.Columns) != len(tb.vars)+1 {
		return fmt.Errorf("%w: %d answer columns, the formalization has %d", ErrInvariant, len(t.Answer.Columns), len(tb.vars)+1)
	}
	if len(rows) != len(t.Answer.Rows) {
		return fmt.Errorf("%w: %d answer rows, the formalization gives %d", ErrInvariant, len(t.Answer.Rows), len(rows))
	}
	for i := range rows {
		if !slices.Equal(rows[i], t.Answer.Rows[i]) {
			return fmt.Errorf("%w: row %d is %q, the formalization gives %q", ErrInvariant, i, t.Answer.Rows[i], rows[i])
		}
	}
	if a := t.Answer.Aggregate; a != nil {
		res, err := evalAgg(ctx, g, ts, aggOf(a))
		if err != nil {
			return fmt.Errorf("%w: aggregate: %v", ErrInvariant, err)
		}
		if res.Aggregate != nil && (a.Op == task.AggTop || a.Op == task.AggBottom) {
			res.Aggregate.Value = saidKeys(res.Rows, tb.keys, rows)
		}
		if res.Aggregate == nil || res.Aggregate.Value != a.Value {
			return fmt.Errorf("%w: aggregate %s is %q, the formalization gives %+v", ErrInvariant, a.Op, a.Value, res.Aggregate)
		}
	}
	return nil
}

// saidKeys writes the keys a top or bottom aggregate ranks first as the
// answer's rows write them: "Athletics", as Thailand's medal table does,
// not its link's title "Athletics at the 2011 Southeast Asian Games", nor
// "Ghoul (novel)" with its disambiguator. ranked are the aggregate's rows
// (key first), keys the table's keys and rows its answer rows.
func saidKeys(ranked [][]uint32, keys []uint32, rows [][]string) string {
	names := make([]string, len(ranked))
	for i, r := range ranked {
		if j := slices.Index(keys, r[0]); j >= 0 && j < len(rows) && len(rows[j]) > 0 {
			names[i] = rows[j][0]
		}
	}
	return strings.Join(names, "; ")
}

// finish evaluates a draft into a task, or names the check it fails.
func (s *synth) finish(ctx context.Context, d *draft, rng *rand.Rand, st *Stats) (*task.Task, string, error) {
	// The answer is computed from the formalization as written to JSON and
	// read back the way leaper query reads it, so that evaluating what is
	// emitted gives exactly the answer.
	ts, err := roundTrip(d.triples)
	if err != nil {
		s.o.Logger.Debug("synth: round trip", "err", err)
		return nil, DropInvariant, nil
	}
	tb, err := evalTable(ctx, s.g, ts, false)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		s.o.Logger.Debug("synth: eval", "err", err)
		return nil, DropEval, nil
	}
	if len(tb.keys) < 2 {
		return nil, DropSmall, nil
	}
	rows, err := s.tableRows(tb, texts{all: s.shownOf(d, tb), key: s.keyTrees(d.trees, tb), rels: tb.rels(d.triples)})
	if err != nil {
		return nil, "", err
	}
	t := &task.Task{Variant: d.variant, Op: d.op, Formalization: d.triples, Expand: d.expand}
	t.Answer.Columns = []string{answerHeader(d.keyHeader, false)}
	for _, c := range d.cols {
		t.Answer.Columns = append(t.Answer.Columns, answerHeader(c.header, numeric(d.trees, c.rel)))
	}
	t.Answer.Rows = rows
	for _, tr := range d.trees {
		t.Trees = append(t.Trees, tr.ID)
	}
	t.Targets = s.targets(d, tb, rows)
	if s.o.MinTargets > 0 && len(t.Targets) < s.o.MinTargets {
		return nil, DropMinTargets, nil
	}
	if d.agg != nil {
		res, err := evalAgg(ctx, s.g, ts, d.agg)
		if err != nil || res.Aggregate == nil || d.aggWant != "" && res.Aggregate.Value != d.aggWant {
			return nil, DropAggregate, nil
		}
		a := *res.Aggregate
		switch d.agg.Op {
		case task.AggMember:
			a.Column = d.agg.Const
		case task.AggTop, task.AggBottom:
			a.Column = d.agg.Vars[1]
			a.Value = saidKeys(res.Rows, tb.keys, rows)
		case task.AggCount:
			a.Column = query.TargetVar
		}
		t.Answer.Aggregate = &a
	}
	t.Question = doubleStop.ReplaceAllString(d.render(d.question), "$1.$2")
	if s.leaks(d, t.Question, t.Targets) {
		return nil, DropLeak, nil
	}
	if NamesTable(t.Question) {
		return nil, DropNamesTable, nil
	}
	if !slices.Equal(tb.vars, tableVars(t.Formalization)) || len(t.Answer.Columns) != len(tb.vars)+1 {
		return nil, DropInvariant, nil
	}
	// A task Run drops as one it has is not audited (as Run does).
	if s.seen[formKey(t)] {
		return nil, DropDuplicate, nil
	}
	if s.o.PerAnswer > 0 && s.answers[answerKey(t)] >= s.o.PerAnswer {
		return nil, DropSameAnswer, nil
	}
	// The auditor reads the task off the named tables by a path of its own:
	// what it flags is not true, and is refused.
	r, err := s.aud.Audit(ctx, t)
	if err != nil {
		return nil, "", err
	}
	if len(r.Findings) > 0 {
		return nil, DropAudit + string(worst(r)), nil
	}
	if s.o.Paraphraser != nil && !s.seen[formKey(t)] {
		template := t.Question
		q, err := s.paraphrase(ctx, d, t, st)
		if err != nil {
			return nil, "", err
		}
		t.Question = q
		if q != template {
			// The rewrite is read again: a paraphrase that lists the pages
			// or says a header as a code keeps the template.
			if r, err = s.aud.Audit(ctx, t); err != nil {
				return nil, "", err
			}
			if len(r.Findings) > 0 {
				st.Paraphrase["accepted"]--
				st.Paraphrase["audit"]++
				t.Question = template
			}
		}
	}
	return t, "", nil
}

// worst is the class of r's most severe finding, the first of those.
func worst(r *audit.Report) audit.Class {
	rank := map[string]int{"minor": 1, "unanswerable": 2, "wrong": 3}
	c := r.Findings[0].Class
	for _, f := range r.Findings {
		if rank[f.Class.Severity()] > rank[c.Severity()] {
			c = f.Class
		}
	}
	return c
}

// roundTrip writes triples as JSON and parses them back.
func roundTrip(ts []task.Triple) ([]task.Triple, error) {
	b, err := json.Marshal(ts)
	if err != nil {
		return nil, err
	}
	q, err := query.Parse(string(b))
	if err != nil {
		return nil, err
	}
	return q.Triples()
}

// targets lists R: every key (layer 2) and every value of a requested
// column (layer 3), each once, with the first task tree that states it.
func (s *synth) targets(d *draft, tb *table, rows [][]string) []task.Target {
	seen := map[uint32]bool{}
	var out []task.Target
	for i, k := range tb.keys {
		tree := d.trees[0]
		for _, t := range d.trees {
			if s.keys[s.index[t.ID]].Contains(k) {
				tree = t
				break
			}
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, task.Target{Entity: k, Name: rows[i][0], Layer: 2, Tree: tree.ID, Page: tree.PageURL})
		}
		for j, vals := range tb.cells[i] {
			rel := relOfVar(d.triples, tb.vars[j])
			names := strings.Split(rows[i][j+1], "; ")
			for n, v := range vals {
				if seen[v] {
					continue
				}
				seen[v] = true
				vt := s.factTree(d.trees, k, rel, v)
				if vt == nil {
					vt = tree
				}
				name := s.display(v)
				if len(names) == len(vals) {
					name = names[n]
				}
				out = append(out, task.Target{Entity: v, Name: name, Layer: 3, Tree: vt.ID, Page: vt.PageURL, Relation: rel,
					Beyond: !slices.Contains(d.trees, vt)})
			}
		}
	}
	return out
}

// factTree is the first of trees, else of the store's trees where k is a
// key, whose row of k has v in its column rel; nil when none.
func (s *synth) factTree(trees []*graph.Tree, k uint32, rel string, v uint32) *graph.Tree {
	has := func(t *graph.Tree) bool {
		if c := colIndex(t, rel); c >= 0 {
			if cv, ok := cell(t, c, k); ok && slices.Contains(cv, v) {
				return true
			}
		}
		return false
	}
	for _, t := range trees {
		if has(t) {
			return t
		}
	}
	// The trees that hold k, v and the relation: bitmaps, as an entity
	// such as a country can be in thousands of trees.
	tk, err := s.g.TreesOfEntity(k)
	if err != nil {
		return nil
	}
	tv, err := s.g.TreesOfEntity(v)
	if err != nil {
		return nil
	}
	both := roaring.And(tk, tv)
	tr := roaring.New()
	for _, id := range s.rels[rel] {
		bm, err := s.g.TreesOfRelation(id)
		if err != nil {
			return nil
		}
		tr.Or(bm)
	}
	both.And(tr)
	it := both.Iterator()
	for it.HasNext() {
		if ti, ok := s.index[it.Next()]; ok && has(s.trees[ti]) {
			return s.trees[ti]
		}
	}
	return nil
}

// rels are the relations of tb's columns in the formalization ts.
func (tb *table) rels(ts []task.Triple) []string {
	out := make([]string, len(tb.vars))
	for j, v := range tb.vars {
		out[j] = relOfVar(ts, v)
	}
	return out
}

func relOfVar(ts []task.Triple, v string) string {
	for _, t := range ts {
		if t.S.Target && t.O.Var == v {
			return t.R
		}
	}
	return ""
}

// leaks reports whether the question names an entity of R that the
// question's own material (titles, filter phrases, constants) does not
// already name, or names a hidden entity at all.
func (s *synth) leaks(d *draft, q string, targets []task.Target) bool {
	lq := strings.ToLower(q)
	var allowed []string
	for _, g := range d.given {
		allowed = append(allowed, strings.ToLower(g))
	}
	for _, sl := range d.slots {
		if sl.live {
			allowed = append(allowed, strings.ToLower(sl.text))
		}
	}
	for _, h := range d.hidden {
		if n := strings.ToLower(s.name(h)); len(n) >= 3 && containsWord(lq, n) {
			return true
		}
	}
	for _, t := range targets {
		n := strings.ToLower(strings.TrimSpace(t.Name))
		if len(n) < 3 || !containsWord(lq, n) {
			continue
		}
		ok := false
		for _, a := range allowed {
			if containsWord(a, n) {
				ok = true
				break
			}
		}
		if !ok {
			return true
		}
	}
	return false
}

// containsWord reports whether w occurs in s between non-alphanumeric
// characters.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isAlnum(s[j-1])
		end := j + len(w)
		after := end >= len(s) || !isAlnum(s[end])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// answerHeader is a header as an answer's column: a plural's "(s)" the
// OTT-QA release spaced off its word ("Language ( s )", "Win ( s )") is
// joined to it again, as the article writes it ("Language(s)"). Over
// times, "(s)" is a unit ("Time (s)": seconds), and stays.
func answerHeader(h string, figures bool) string {
	if figures && timedHeader.MatchString(strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(h, " (s)"), " (es)")))) || figures && strings.Contains(strings.ToLower(h), "time") {
		return h
	}
	for _, p := range []string{" (s)", " (es)"} {
		h = strings.ReplaceAll(h, p, p[1:])
	}
	return h
}

// doubleStop matches a value's closing stop before the sentence's own
// ("whose hometown is New York, NY, U.S.."), not an ellipsis.
var doubleStop = regexp.MustCompile(`([^.])\.\.(\s|$)`)
