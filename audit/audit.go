package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/task"
)

// Class is a kind of defect a task can have. The classes follow the
// reading rubric (docs/RUBRIC.md).
type Class string

// The defect classes, in the rubric's order.
const (
	// Mismatch: the named tables, read as a person reads them, give
	// another target set or another value than the task's answer.
	Mismatch Class = "mismatch"
	// Unsupported: a target or value that no table states of its key, or
	// whose recorded source does not state it.
	Unsupported Class = "unsupported"
	// Context: a value read beyond the named tables that is an attribute
	// of the key in another table's context (a season, an event), not of
	// the entity itself.
	Context Class = "context"
	// StringJoin: a join beyond the tables through a key or value that
	// names no one thing (a year, a season, a score, a mark, a code).
	StringJoin Class = "string_join"
	// Unmatched: equal values that were not matched (text and link of the
	// same thing, an alias): a Reverse-Union target missing.
	Unmatched Class = "unmatched_equal"
	// Incoherent: the trees of a union share no theme that can be named.
	Incoherent Class = "incoherent"
	// Merged: one answer cell merges different values of several sources.
	Merged Class = "merged_cell"
	// ListsPages: the question lists page titles verbatim.
	ListsPages Class = "lists_pages"
	// RawClue: the question asks by a header that is no word (empty, an
	// abbreviation, a code) or states a raw cell (a coordinate string).
	RawClue Class = "raw_clue"
	// FileTitle: a source is named by a file id, not a page title.
	FileTitle Class = "file_title"
	// LinkValue: a value is a link's label ("Website") or a list page
	// standing for the cell's text.
	LinkValue Class = "link_value"
	// Disambiguator: an answer value carries Wikipedia's disambiguator
	// ("Hereafter (film)") that an exact-match reward would then require.
	Disambiguator Class = "disambiguator"
	// TwinTable: a named table has a twin on its page, titled alike
	// (page, section and caption), that the task does not name: a reader
	// cannot tell which the question means (a season-by-season table per
	// decade).
	TwinTable Class = "twin_table"
	// CutTable: a named table was cut by its source to its first rows
	// (graph.Tree.Cut: OTT-QA keeps 20), so "all" its keys are not on
	// record: the live article's table goes on. Or its source, a sample
	// of the article's tables, lacks the table beside it (SourceGap), so
	// a twin of its section may be lost: "every team" of 2013 Division
	// 1's "Stadia and locations" read off its Södra table, the Norra one
	// not kept. Or it is a file of an export named by page and table ids
	// beside which the store lacks a table id (graph.ExportGap).
	CutTable Class = "cut_table"
)

// Classes lists every class in report order.
var Classes = []Class{Mismatch, Unsupported, Context, StringJoin, Unmatched, TwinTable, CutTable, Incoherent, Merged,
	ListsPages, RawClue, FileTitle, LinkValue, Disambiguator}

// Severity is how a class counts in the rubric: "wrong" (the target set or
// a value is not what the question asks), "unanswerable" (a person cannot
// read the question without the tables) or "minor".
func (c Class) Severity() string {
	switch c {
	case Mismatch, Unsupported, Context, StringJoin, Unmatched, TwinTable, CutTable:
		return "wrong"
	case RawClue, FileTitle:
		return "unanswerable"
	}
	return "minor"
}

// Finding is one defect of a task.
type Finding struct {
	Class  Class  `json:"class"`
	Detail string `json:"detail"`
}

// Report is the audit of one task.
type Report struct {
	Task     string       `json:"task"`
	Variant  task.Variant `json:"variant"`
	Op       string       `json:"op,omitempty"`
	Findings []Finding    `json:"findings,omitempty"`
}

// Verdict is the rubric's word for the report: "sound" with no finding,
// else the worst severity found.
func (r *Report) Verdict() string {
	v := "sound"
	rank := map[string]int{"sound": 0, "minor": 1, "unanswerable": 2, "wrong": 3}
	for _, f := range r.Findings {
		if s := f.Class.Severity(); rank[s] > rank[v] {
			v = s
		}
	}
	return v
}

// Has reports whether the report has a finding of class c.
func (r *Report) Has(c Class) bool {
	return slices.ContainsFunc(r.Findings, func(f Finding) bool { return f.Class == c })
}

func (r *Report) add(c Class, format string, args ...any) {
	d := fmt.Sprintf(format, args...)
	for _, f := range r.Findings {
		if f.Class == c && f.Detail == d {
			return
		}
	}
	r.Findings = append(r.Findings, Finding{c, d})
}

// maxFindings bounds the findings of one class kept per task: one wrong
// value is enough to refuse a task, a hundred say no more.
const maxFindings = 3

func (r *Report) count(c Class) int {
	n := 0
	for _, f := range r.Findings {
		if f.Class == c {
			n++
		}
	}
	return n
}

// Auditor re-derives tasks from the stored tables: it reads the named
// trees' rows as a person reads the tables, not through the query engine
// or the synthesiser, and compares what it finds with each task.
type Auditor struct {
	// Cut accepts tables their source cut (CutTable is not reported): the
	// tasks are then true of the offline web, not of the live article.
	Cut   bool
	g     *graph.Store
	rels  map[string][]uint32
	trees map[uint32]*graph.Tree
	ents  map[uint32]*graph.Entity
	keys  map[uint32][]string // names, read once per entity
	// twinIDs are the trees titled alike on a tree's page, read once.
	twinIDs map[uint32][]uint32
	// lostTwins describe a tree's twin the build rejected, read once;
	// changes a tree's page's table of membership changes.
	lostTwins, changes map[uint32]string
	// pageIndices are the table indices a page's source gives (its
	// trees' and its rejected tables'), read once; nil when unknown.
	pageIndices map[string]map[int]bool
	// pageSplit records whether a page's source gives a section in
	// several tables (SplitSections), read with pageIndices.
	pageSplit map[string]bool
	// rejected are a page's tables the build rejected, read once.
	rejected map[string][]graph.Rejected
	heads    map[string]string // relation name → header, read once
	// shown maps the NameKey of what the task's tables write for an
	// article ("drumcondra") to the article and that text: a person copies
	// the table's text. Set per task; the article's title is read only
	// when an answer's cell needs it.
	shown map[string][]shownText
}

// shownText is an article and the text a table writes for it.
type shownText struct {
	id   uint32
	text string
}

// New returns an auditor of tasks synthesised on g.
func New(g *graph.Store) (*Auditor, error) {
	rels, err := g.Relations()
	if err != nil {
		return nil, fmt.Errorf("audit: relations: %w", err)
	}
	a := &Auditor{g: g, rels: map[string][]uint32{}, trees: map[uint32]*graph.Tree{}, ents: map[uint32]*graph.Entity{}, keys: map[uint32][]string{}, twinIDs: map[uint32][]uint32{}, lostTwins: map[uint32]string{}, changes: map[uint32]string{}, rejected: map[string][]graph.Rejected{}, heads: map[string]string{}}
	for _, r := range rels {
		a.rels[r.Name] = append(a.rels[r.Name], r.ID)
	}
	return a, nil
}

func (a *Auditor) tree(id uint32) (*graph.Tree, error) {
	if t, ok := a.trees[id]; ok {
		return t, nil
	}
	t, err := a.g.Tree(id)
	if err != nil {
		return nil, err
	}
	if len(a.trees) > 4096 {
		clear(a.trees)
	}
	a.trees[id] = t
	return t, nil
}

func (a *Auditor) entity(id uint32) *graph.Entity {
	if e, ok := a.ents[id]; ok {
		return e
	}
	e, err := a.g.Entity(id)
	if err != nil {
		e = &graph.Entity{ID: id}
	}
	if len(a.ents) > 1<<18 {
		clear(a.ents)
		clear(a.keys)
	}
	a.ents[id] = e
	return e
}

// names are the identities an entity answers to: its name and aliases,
// each as NameKey.
func (a *Auditor) names(id uint32) []string {
	if ks, ok := a.keys[id]; ok {
		return ks
	}
	e := a.entity(id)
	out := []string{NameKey(e.Name)}
	for _, al := range e.Aliases {
		out = append(out, NameKey(al))
	}
	a.keys[id] = out
	return out
}

// same reports whether two values are one thing as a person reads them:
// the same entity, names (or aliases) that agree, or one name written
// short for the other.
func (a *Auditor) same(x, y uint32) bool {
	if x == y {
		return true
	}
	nx := a.names(x)
	for _, n := range a.names(y) {
		if n != "" && slices.Contains(nx, n) {
			return true
		}
	}
	// "W. Texas State" and "West Texas State": texts of two tables.
	ex, ey := a.entity(x), a.entity(y)
	return Abbreviates(ex.Name, ey.Name) || !a.isEntity(x) && !a.isEntity(y) && sameItems(ex.Name, ey.Name)
}

// sameItems reports whether two texts list the same things in another
// order ("Romance, comedy, drama" and "Comedy, drama, romance", the
// genres of two LGBT-related films): a reader who compares them compares
// their items.
func sameItems(x, y string) bool {
	if !strings.Contains(x, ", ") || !strings.Contains(y, ", ") {
		return false
	}
	items := func(s string) []string {
		var out []string
		for _, p := range strings.Split(s, ",") {
			out = append(out, NameKey(p))
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(items(x), items(y))
}

// isEntity reports whether id is an article (a linked entity): the only
// values a join beyond the tables may go through.
func (a *Auditor) isEntity(id uint32) bool { return strings.HasPrefix(a.entity(id).Key, "w:") }

// reading is what the named tables say of a key.
type reading struct {
	trees map[uint32]bool
	// cells maps a relation name to the values each tree gives the key.
	cells map[string]map[uint32][]uint32
}

type formal struct {
	in     [][]uint32 // "?" in_tree triples, each a union of trees
	notIn  []uint32
	consts []constFilter // "?" rel C@...
	sets   []varFilter   // "?" rel V@X, X an expansion variable
	cols   []colRef      // "?" rel V@X, X a column
	anchor string
	ain    [][]uint32
	aconst []constFilter
	asets  []varFilter
	pivot  *colRef // [A, rel, V@P] and ["?", rel, V@P]
	exp    map[string][]task.Triple
}

type constFilter struct {
	rel    string
	consts []string
}

type varFilter struct {
	rel, v string
}

type colRef struct {
	rel, v string
}

func treeIDs(t task.Term) ([]uint32, error) {
	var out []uint32
	for _, c := range t.Consts {
		id, err := strconv.ParseUint(strings.TrimSpace(c), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("tree id %q", c)
		}
		out = append(out, uint32(id))
	}
	return out, nil
}

func isTreeRel(r string) bool { return r == "in_tree" || r == "not_in_tree" }

// parse sorts a formalization's triples into the shapes leaper's tasks
// have; an unknown shape is an error.
func parse(ts []task.Triple) (*formal, error) {
	occ := map[string]int{}
	for _, t := range ts {
		if t.S.Var != "" {
			occ[t.S.Var]++
		}
		if t.O.Var != "" {
			occ[t.O.Var]++
		}
	}
	f := &formal{exp: map[string][]task.Triple{}}
	for _, t := range ts {
		if t.S.Var != "" && t.R == "in_tree" {
			ids, err := treeIDs(t.O)
			if err != nil {
				return nil, err
			}
			if f.anchor != "" && f.anchor != t.S.Var {
				return nil, fmt.Errorf("two anchors")
			}
			f.anchor = t.S.Var
			f.ain = append(f.ain, ids)
		}
	}
	for _, t := range ts {
		switch {
		case t.S.Target && t.R == "in_tree":
			ids, err := treeIDs(t.O)
			if err != nil {
				return nil, err
			}
			f.in = append(f.in, ids)
		case t.S.Target && t.R == "not_in_tree":
			ids, err := treeIDs(t.O)
			if err != nil {
				return nil, err
			}
			f.notIn = append(f.notIn, ids...)
		case t.S.Target && len(t.O.Consts) > 0:
			f.consts = append(f.consts, constFilter{t.R, t.O.Consts})
		case t.S.Target && t.O.Var != "" && occ[t.O.Var] == 1:
			f.cols = append(f.cols, colRef{t.R, t.O.Var})
		case t.S.Target && t.O.Var != "":
			f.sets = append(f.sets, varFilter{t.R, t.O.Var})
		case f.anchor != "" && t.S.Var == f.anchor && t.R == "in_tree":
		case f.anchor != "" && t.S.Var == f.anchor && len(t.O.Consts) > 0:
			f.aconst = append(f.aconst, constFilter{t.R, t.O.Consts})
		case f.anchor != "" && t.S.Var == f.anchor && t.O.Var != "":
			f.asets = append(f.asets, varFilter{t.R, t.O.Var})
		case t.S.Var != "":
			f.exp[t.S.Var] = append(f.exp[t.S.Var], t)
		case t.O.Var != "":
			f.exp[t.O.Var] = append(f.exp[t.O.Var], t)
		default:
			return nil, fmt.Errorf("a triple of two constants: %v", t)
		}
	}
	// The pivot: a variable the anchor and "?" both reach by one relation.
	for i, s := range f.sets {
		for j, as := range f.asets {
			if s.v == as.v && len(f.exp[s.v]) == 0 {
				f.pivot = &colRef{s.rel, s.v}
				f.sets = slices.Delete(f.sets, i, i+1)
				f.asets = slices.Delete(f.asets, j, j+1)
				return f, nil
			}
		}
	}
	return f, nil
}

// Audit re-derives t from the store's tables and reports its defects.
func (a *Auditor) Audit(ctx context.Context, t *task.Task) (*Report, error) {
	r := &Report{Task: t.ID, Variant: t.Variant, Op: t.Op}
	named := map[uint32]*graph.Tree{}
	var trees []*graph.Tree
	for _, id := range t.Trees {
		tr, err := a.tree(id)
		if errors.Is(err, graph.ErrNotFound) {
			r.add(Unsupported, "tree %d is not in the store", id)
			return r, nil
		} else if err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		named[id] = tr
		trees = append(trees, tr)
	}
	a.readShown(t, trees)
	a.alike(t, trees, r)
	if err := a.cutTables(trees, r); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a.question(t, trees, r)
	a.provenance(t, named, r)
	if err := a.twins(t.Question, trees, named, r); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	f, err := parse(t.Formalization)
	if err != nil {
		r.add(Mismatch, "formalization: %v", err)
		return r, nil
	}
	for _, ids := range append(append(slices.Clone(f.in), f.ain...), f.notIn) {
		for _, id := range ids {
			if named[id] == nil {
				r.add(Mismatch, "the formalization reads tree %d, which the task does not name", id)
				return r, nil
			}
		}
	}
	a.derive(t, f, named, r)
	a.statedTotals(t, f, trees, r)
	ordinalFigures(t, trees, r)
	rankedAsRows(t, r)
	return r, nil
}

// ordinalFigures flags an aggregate of figures (a sum, an average, a
// minimum or maximum, a ranking, a difference) over a column that numbers
// places in an order: "the 3 highest picks" of a draft ranks each round's
// pick numbers (30 above 7), where a reader takes the first chosen; "how
// much higher is the heat of Nigeria" subtracts labels. So does a sum or
// an average of years ("the sum of their year" of an actress's films).
func ordinalFigures(t *task.Task, trees []*graph.Tree, r *Report) {
	ag := t.Answer.Aggregate
	if ag == nil || ag.Op == task.AggCount || ag.Op == task.AggMember || ag.Op == task.AggCountDiff {
		return
	}
	vars := map[string]bool{ag.Column: true}
	if ag.Op == task.AggDiff {
		for _, v := range strings.Split(ag.Column, "-") {
			vars[v] = true
		}
	}
	for _, x := range t.Formalization {
		if !vars[x.O.Var] {
			continue
		}
		for _, tr := range trees {
			for _, c := range tr.Columns {
				if c.Name != x.R {
					continue
				}
				if OrdinalHeader(c.Header) {
					r.add(Mismatch, "the %s aggregate is of %q of %q, which numbers or labels its rows, not an amount", ag.Op, c.Header, tr.PageTitle)
					return
				}
				if (ag.Op == task.AggSum || ag.Op == task.AggAvg) && YearColumn(c) {
					r.add(Mismatch, "the %s aggregate is of %q of %q, years, which no reader adds up", ag.Op, c.Header, tr.PageTitle)
					return
				}
			}
		}
	}
}

// rankedAsRows flags a top or bottom aggregate that names a key otherwise
// than the answer's rows write it: "Athletics at the 2011 Southeast Asian
// Games", the title of the link on "Athletics", or "Ghoul (novel)".
func rankedAsRows(t *task.Task, r *Report) {
	ag := t.Answer.Aggregate
	if ag == nil || ag.Op != task.AggTop && ag.Op != task.AggBottom {
		return
	}
	keys := map[string]bool{}
	for _, row := range t.Answer.Rows {
		if len(row) > 0 {
			keys[row[0]] = true
		}
	}
	for _, n := range strings.Split(ag.Value, "; ") {
		if !keys[n] {
			r.add(LinkValue, "the %s aggregate names %q, which no answer row writes so", ag.Op, n)
		}
	}
}

// statedTotals flags a sum or an average of a column whose table's own
// total row states another total than the column's rows add up to:
// Thailand's silver medals at the 2011 Southeast Asian Games add up to
// 96, its Total row says 100, and a reader may answer either.
func (a *Auditor) statedTotals(t *task.Task, f *formal, trees []*graph.Tree, r *Report) {
	ag := t.Answer.Aggregate
	if ag == nil || ag.Op != task.AggSum && ag.Op != task.AggAvg {
		return
	}
	for _, c := range f.cols {
		if c.v != ag.Column {
			continue
		}
		for _, tr := range trees {
			ci := slices.IndexFunc(tr.Columns, func(col graph.Column) bool { return col.Name == c.rel })
			if ci < 0 {
				continue
			}
			sum := 0.0
			for _, row := range tr.Rows {
				for _, v := range row.Values[ci] {
					if x, ok := a.figure(v); ok {
						sum += x
					}
				}
			}
			if st, other := tr.TotalOtherwise(c.rel, sum); other {
				r.add(Mismatch, "%q of %q: its total row states %s, its rows add up to %s, and a reader may give either",
					tr.Columns[ci].Header, tr.PageTitle, st, strconv.FormatFloat(sum, 'f', -1, 64))
			}
		}
	}
}

// figure is the number a value names, if it is one.
func (a *Auditor) figure(id uint32) (float64, bool) {
	n, ok := graph.FigureName(a.entity(id).Name)
	if !ok {
		return 0, false
	}
	x, err := strconv.ParseFloat(n, 64)
	return x, err == nil
}

// readShown sets a.shown from the Shown texts of the named trees, and of
// the tree each value read beyond them names.
func (a *Auditor) readShown(tk *task.Task, trees []*graph.Tree) {
	a.shown = map[string][]shownText{}
	add := func(id uint32, s string) {
		k := NameKey(s)
		a.shown[k] = append(a.shown[k], shownText{id, s})
	}
	for _, t := range trees {
		for id, s := range t.Shown {
			add(id, s)
		}
	}
	for _, tg := range tk.Targets {
		if !tg.Beyond {
			continue
		}
		if t, err := a.tree(tg.Tree); err == nil {
			if s, ok := t.Shown[tg.Entity]; ok {
				add(tg.Entity, s)
			}
		}
	}
	for _, ts := range a.shown {
		slices.SortFunc(ts, func(x, y shownText) int { return cmp.Compare(x.id, y.id) })
	}
}

// nameKey is NameKey of an answer's cell; a table's text for an article
// is read as the article's title unless want takes the text as it is
// ("Burlington" may be a text value of one table and the short form of
// "Burlington, Ontario" in another).
func (a *Auditor) nameKey(cell string, want func(string) bool) string {
	n := NameKey(cell)
	if want(n) {
		return n
	}
	// "2.0" of a column of averages, "78,040" of a column of attendances
	// (graph.Tree.FigureIn): the figures 2 and 78040.
	if f, ok := graph.FigureName(cell); ok && f != cell {
		if short := NameKey(f); want(short) {
			return short
		}
	}
	for _, st := range a.shown[n] {
		name := a.entity(st.id).Name
		if !graph.Writes(name, st.text) && !graph.ValueForm(name, st.text) || LinkLabel(st.text) {
			continue
		}
		if full := NameKey(name); want(full) {
			return full
		}
	}
	return n
}

// treeRow is row i of tree id.
type treeRow struct {
	id uint32
	t  *graph.Tree
	i  int
}

// rowsByKey are the named trees' rows per key, each tree's in its order.
func rowsByKey(trees map[uint32]*graph.Tree) map[uint32][]treeRow {
	by := map[uint32][]treeRow{}
	for id, t := range trees {
		for i, row := range t.Rows {
			by[row.Key] = append(by[row.Key], treeRow{id, t, i})
		}
	}
	return by
}

// read collects what the named trees say of a key, from its rows.
func read(rows []treeRow) *reading {
	rd := &reading{trees: map[uint32]bool{}, cells: map[string]map[uint32][]uint32{}}
	for _, tr := range rows {
		rd.trees[tr.id] = true
		row := tr.t.Rows[tr.i]
		for c, col := range tr.t.Columns {
			m := rd.cells[col.Name]
			if m == nil {
				m = map[uint32][]uint32{}
				rd.cells[col.Name] = m
			}
			m[tr.id] = append(m[tr.id], row.Values[c]...)
		}
	}
	return rd
}

// values are the distinct values the named tables give of rel, and
// whether they state it at all.
func (rd *reading) values(rel string) ([]uint32, bool) {
	m, ok := rd.cells[rel]
	if !ok {
		return nil, false
	}
	var out []uint32
	for _, vs := range m {
		out = append(out, vs...)
	}
	slices.Sort(out)
	return slices.Compact(out), true
}

// acrossAlike flags an intersection or a difference of tables whose keys
// a reader pairs by name otherwise than by article: "Astana" of the 2011
// table links FC Lokomotiv Astana, of the 2012 table FC Astana (the club
// renamed); "in both" counts it, the article ids do not.
func (a *Auditor) acrossAlike(f *formal, named map[uint32]*graph.Tree, r *Report) {
	groups := append(slices.Clone(f.in), f.notIn)
	byName := make([]map[string][]uint32, len(groups))
	for i, ids := range groups {
		byName[i] = map[string][]uint32{}
		for _, id := range ids {
			tr := named[id]
			for _, row := range tr.Rows {
				n := NameKey(tr.ShownName(row.Key, a.entity(row.Key).Name))
				if !slices.Contains(byName[i][n], row.Key) {
					byName[i][n] = append(byName[i][n], row.Key)
				}
			}
		}
	}
	for i := range byName {
		for j := i + 1; j < len(byName); j++ {
			for _, n := range slices.Sorted(maps.Keys(byName[i])) {
				x := byName[i][n]
				y, ok := byName[j][n]
				if !ok || slices.ContainsFunc(x, func(k uint32) bool { return slices.Contains(y, k) }) {
					continue
				}
				r.add(Unmatched, "tables of the task write %q for different articles (%s, %s): a reader pairs them by name", n, a.entity(x[0]).Name, a.entity(y[0]).Name)
				return
			}
		}
	}
}

func (a *Auditor) keysOf(ids []uint32, named map[uint32]*graph.Tree) map[uint32]bool {
	out := map[uint32]bool{}
	for _, id := range ids {
		for _, row := range named[id].Rows {
			out[row.Key] = true
		}
	}
	return out
}

// space is the key set in_tree and not_in_tree describe.
func (a *Auditor) space(in [][]uint32, notIn []uint32, named map[uint32]*graph.Tree) map[uint32]bool {
	var ks map[uint32]bool
	for _, ids := range in {
		s := a.keysOf(ids, named)
		if ks == nil {
			ks = s
			continue
		}
		for k := range ks {
			if !s[k] {
				delete(ks, k)
			}
		}
	}
	for k := range a.keysOf(notIn, named) {
		delete(ks, k)
	}
	return ks
}

// objects are the store's values of (k, rel), across relations so named:
// what a reader finds of k beyond the named tables.
func (a *Auditor) objects(rel string, k uint32) []uint32 {
	bm := roaring.New()
	for _, id := range a.rels[rel] {
		if o, err := a.g.Objects(id, k); err == nil {
			bm.Or(o)
		}
	}
	return bm.ToArray()
}

func (a *Auditor) subjects(rel string, v uint32) []uint32 {
	bm := roaring.New()
	for _, id := range a.rels[rel] {
		if s, err := a.g.Subjects(id, v); err == nil {
			bm.Or(s)
		}
	}
	return bm.ToArray()
}

// sources are the trees (at most maxSources) where k is a key whose row
// states rel: where a reader finds k's rel beyond the named tables.
func (a *Auditor) sources(k uint32, rel string) []*graph.Tree {
	bm, err := a.g.TreesOfEntity(k)
	if err != nil {
		return nil
	}
	var out []*graph.Tree
	it := bm.Iterator()
	for n := 0; it.HasNext() && n < maxSources; n++ {
		t, err := a.tree(it.Next())
		if err != nil {
			continue
		}
		c := slices.IndexFunc(t.Columns, func(c graph.Column) bool { return c.Name == rel })
		if c < 0 {
			continue
		}
		for _, row := range t.Rows {
			if row.Key == k && len(row.Values[c]) > 0 {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// boundFact reports whether every row that states rel of k (with value v,
// when v is not 0) states it as an occasion's (OccasionBound), with the
// page of the first.
func (a *Auditor) boundFact(k uint32, rel string, v uint32) (string, bool) {
	return a.everyRow(k, rel, v, func(t *graph.Tree, row graph.Row, c int) bool {
		return OccasionBound(t, row, t.Columns[c].Header, a.nameOf)
	})
}

// cutBeside reports whether tree t is cut by its source, or a tree of
// its page is and has column c's relation: rows beyond the cut may give
// the same value to another key.
func (a *Auditor) cutBeside(t *graph.Tree, _ graph.Row, c int) bool {
	if t.Cut {
		return true
	}
	ids, err := a.g.TreesOfPage(t.PageURL)
	if err != nil {
		return false
	}
	for _, id := range ids {
		o, err := a.tree(id)
		if err == nil && o.Cut && slices.ContainsFunc(o.Columns, func(col graph.Column) bool { return col.Name == t.Columns[c].Name }) {
			return true
		}
	}
	return false
}

// otherwiseFact reports whether every row that states rel of k (with
// value v, when v is not 0) writes k or its value otherwise than their
// titles (RowWritesOtherwise), with the page of the first.
func (a *Auditor) otherwiseFact(k uint32, rel string, v uint32) (string, bool) {
	return a.everyRow(k, rel, v, func(t *graph.Tree, row graph.Row, c int) bool {
		return RowWritesOtherwise(t, row, c, a.nameOf)
	})
}

// everyRow reports whether every row that states rel of k (with value v,
// when v is not 0) is such that is holds, with the page of the first.
func (a *Auditor) everyRow(k uint32, rel string, v uint32, is func(t *graph.Tree, row graph.Row, c int) bool) (string, bool) {
	page := ""
	for _, t := range a.sources(k, rel) {
		c := slices.IndexFunc(t.Columns, func(c graph.Column) bool { return c.Name == rel })
		for _, row := range t.Rows {
			if row.Key != k || v != 0 && !slices.Contains(row.Values[c], v) {
				continue
			}
			if !is(t, row, c) {
				return "", false
			}
			if page == "" {
				page = t.PageTitle
			}
		}
	}
	return page, page != ""
}

// ReadOtherwise reports whether a reader may read of e, under a header
// like rel's in another table, another value than got (key true: e's
// row) or another key than got (key false: rows giving e): an expansion
// that describes a thing by that fact is no description of one thing.
func (a *Auditor) ReadOtherwise(e uint32, rel string, got []uint32, key bool) bool {
	_, _, ok := a.likeOther(e, rel, got, key)
	return ok
}

// likeOther looks for what a reader may read of entity e under another
// header for relation rel (LikeHeaders: "HQ" beside "Headquarters"): with
// key true, another value of e's row than got; else another key whose
// row gives e than got. It returns the first, with its table's page.
func (a *Auditor) likeOther(e uint32, rel string, got []uint32, key bool) (uint32, string, bool) {
	h := a.header(rel)
	bm, err := a.g.TreesOfEntity(e)
	if err != nil {
		return 0, "", false
	}
	it := bm.Iterator()
	for n := 0; it.HasNext() && n < maxSources; n++ {
		t, err := a.tree(it.Next())
		if err != nil {
			continue
		}
		for c, col := range t.Columns {
			if col.Name == rel || !LikeHeaders(col.Header, h) {
				continue
			}
			for _, row := range t.Rows {
				switch {
				case key && row.Key == e:
					for _, v := range row.Values[c] {
						if !slices.Contains(got, v) {
							return v, t.PageTitle, true
						}
					}
				case !key && slices.Contains(row.Values[c], e) && !slices.Contains(got, row.Key):
					return row.Key, t.PageTitle, true
				}
			}
		}
	}
	return 0, "", false
}

// nameOf is an entity's name and whether it is an article's.
func (a *Auditor) nameOf(id uint32) (string, bool) {
	e := a.entity(id)
	return e.Name, strings.HasPrefix(e.Key, "w:")
}

// maxSources bounds the trees sources reads of one entity.
const maxSources = 64

// resolveConst returns the entities named c.
func (a *Auditor) resolveConst(c string) []uint32 {
	ids, err := a.g.FindEntities(c, 64)
	if err != nil {
		return nil
	}
	return ids
}

// resolveVar returns the values an expansion variable can take, read
// beyond the tables (a person looks the identifying fact up), flagging
// joins and attributes that break the rules.
func (a *Auditor) resolveVar(v string, f *formal, r *Report, depth int) []uint32 {
	if depth > 4 {
		return nil
	}
	var out []uint32
	first := true
	for _, t := range f.exp[v] {
		var cand []uint32
		switch {
		case t.S.Var == v && len(t.O.Consts) > 0: // [X, rel, C@c]
			for _, c := range t.O.Consts {
				for _, o := range a.resolveConst(c) {
					if !a.isEntity(o) {
						r.add(StringJoin, "an expansion identifies a thing by %q, which names no one thing", a.entity(o).Name)
					}
					xs := a.subjects(t.R, o)
					for _, x := range xs {
						if page, ok := a.boundFact(x, t.R, o); ok {
							r.add(Context, "an expansion identifies %q by its %q, which only an occasion's table states (%s)", a.entity(x).Name, a.header(t.R), page)
						}
						if page, ok := a.everyRow(x, t.R, o, a.cutBeside); ok {
							r.add(CutTable, "an expansion identifies %q as the one whose %q is %q where a table of its page is cut (%s): the rest may hold another", a.entity(x).Name, a.header(t.R), a.entity(o).Name, page)
						}
						if page, ok := a.otherwiseFact(x, t.R, o); ok {
							r.add(Context, "an expansion identifies %q by its %q, which only a row writing it otherwise states (%s): another thing of the name may be meant", a.entity(x).Name, a.header(t.R), page)
						}
						if Competition(a.entity(o).Name) {
							r.add(Context, "an expansion identifies %q by %q, a competition's: a season's fact", a.entity(x).Name, a.entity(o).Name)
						}
						cand = append(cand, x)
					}
					if x, page, ok := a.likeOther(o, t.R, xs, false); ok {
						r.add(Mismatch, "an expansion identifies a thing as the one whose %q is %q, which %s gives %q too", a.header(t.R), a.entity(o).Name, page, a.entity(x).Name)
					}
				}
			}
		case t.O.Var == v && len(t.S.Consts) > 0: // [C@k, rel, X]
			for _, c := range t.S.Consts {
				for _, s := range a.resolveConst(c) {
					if !a.isEntity(s) {
						r.add(StringJoin, "an expansion joins through %q, which names no one thing", a.entity(s).Name)
					}
					if IsOccasion(a.entity(s).Name) {
						r.add(Context, "an expansion reads %q of %q, an occasion (a season, an edition), not a thing", a.header(t.R), a.entity(s).Name)
					}
					if page, ok := a.boundFact(s, t.R, 0); ok {
						r.add(Context, "an expansion reads %q of %q only where an occasion states it (%s), not of the thing itself", a.header(t.R), a.entity(s).Name, page)
					}
					if page, ok := a.otherwiseFact(s, t.R, 0); ok {
						r.add(Context, "an expansion reads %q of %q only where a row writes it otherwise (%s): another thing of the name may be meant", a.header(t.R), a.entity(s).Name, page)
					}
					vs := a.objects(t.R, s)
					for _, x := range vs {
						if Competition(a.entity(x).Name) {
							r.add(Context, "an expansion reads %q of %q, a competition: a season's fact", a.header(t.R), a.entity(x).Name)
						}
					}
					if other, page, ok := a.likeOther(s, t.R, vs, true); ok {
						r.add(Mismatch, "an expansion reads %q of %q, which %s gives as %q", a.header(t.R), a.entity(s).Name, page, a.entity(other).Name)
					}
					cand = append(cand, vs...)
				}
			}
		case t.S.Var == v && t.O.Var != "":
			for _, o := range a.resolveVar(t.O.Var, f, r, depth+1) {
				cand = append(cand, a.subjects(t.R, o)...)
			}
		case t.O.Var == v && t.S.Var != "":
			for _, s := range a.resolveVar(t.S.Var, f, r, depth+1) {
				cand = append(cand, a.objects(t.R, s)...)
			}
		}
		if h := a.header(t.R); !Intrinsic(h) {
			r.add(Context, "an expansion reads %q, an attribute that depends on its table's context", h)
		}
		slices.Sort(cand)
		cand = slices.Compact(cand)
		if first {
			out, first = cand, false
		} else {
			out = intersect(out, cand)
		}
	}
	for _, x := range out {
		if !a.isEntity(x) {
			r.add(StringJoin, "an expansion variable is %q, which names no one thing", a.entity(x).Name)
			break
		}
	}
	return out
}

func intersect(a, b []uint32) []uint32 {
	var out []uint32
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); ok {
			out = append(out, x)
		}
	}
	return out
}

// header is a relation's header as tables show it.
func (a *Auditor) header(rel string) string {
	if h, ok := a.heads[rel]; ok {
		return h
	}
	h := strings.ReplaceAll(strings.TrimPrefix(rel, "has_"), "_", " ")
	for _, id := range a.rels[rel] {
		if r, err := a.g.Relation(id); err == nil && len(r.Headers) > 0 {
			h = r.Headers[0]
			break
		}
	}
	a.heads[rel] = h
	return h
}

// matches reports whether some value of vals is one of the names in cs,
// or written short for one ("W. Texas State" for "West Texas State").
func (a *Auditor) matches(vals []uint32, cs []string) bool {
	for _, v := range vals {
		ns := a.names(v)
		for _, c := range cs {
			if slices.Contains(ns, a.nameKey(c, func(n string) bool { return slices.Contains(ns, n) })) || Abbreviates(a.entity(v).Name, c) {
				return true
			}
		}
	}
	return false
}

func hasAny(vals, set []uint32) bool {
	for _, v := range vals {
		if _, ok := slices.BinarySearch(set, v); ok {
			return true
		}
	}
	return false
}

// derive reads the task's answer off the named tables and compares.
func (a *Auditor) derive(t *task.Task, f *formal, named map[uint32]*graph.Tree, r *Report) {
	if len(f.in) == 0 {
		r.add(Mismatch, "the formalization scopes no key to a tree")
		return
	}
	keys := a.space(f.in, f.notIn, named)
	if len(f.in) > 1 || len(f.notIn) > 0 {
		a.acrossAlike(f, named, r)
	}
	readings := map[uint32]*reading{}
	var byKey map[uint32][]treeRow
	rd := func(k uint32) *reading {
		if x, ok := readings[k]; ok {
			return x
		}
		if byKey == nil {
			byKey = rowsByKey(named)
		}
		x := read(byKey[k])
		readings[k] = x
		return x
	}
	// A value read beyond the named tables: the reader looks it up; it must
	// be the key's own and reached through an entity.
	beyond := func(k uint32, rel string) []uint32 {
		vs := a.objects(rel, k)
		if len(vs) == 0 {
			return nil
		}
		h := a.header(rel)
		if !a.isEntity(k) && r.count(StringJoin) < maxFindings {
			r.add(StringJoin, "%q is read beyond the tables for %q, which names no one thing", h, a.entity(k).Name)
		}
		if !Intrinsic(h) && r.count(Context) < maxFindings {
			r.add(Context, "%q is read beyond the named tables and is no attribute of %q itself", h, a.entity(k).Name)
		}
		if len(vs) > 1 && r.count(Context) < maxFindings {
			r.add(Context, "%q of %q is read beyond the tables as %d values: which one is its own?", h, a.entity(k).Name, len(vs))
		}
		if src := a.sources(k, rel); len(src) > 0 && r.count(Context) < maxFindings {
			occasions := 0
			for _, t := range src {
				if IsOccasion(t.PageTitle) {
					occasions++
				}
			}
			if occasions == len(src) && !Lasting(h) {
				r.add(Context, "%q of %q is stated only by tables of an occasion (%s), not of the thing itself", h, a.entity(k).Name, src[0].PageTitle)
			}
		}
		return vs
	}
	valuesOf := func(k uint32, rel string) []uint32 {
		if vs, ok := rd(k).values(rel); ok {
			return vs
		}
		return beyond(k, rel)
	}
	for _, c := range f.consts {
		var partial, names []string
		var order []uint32
		for k := range keys {
			if vs := valuesOf(k, c.rel); !a.matches(vs, c.consts) {
				if names == nil {
					names, order = a.constNames(c.consts, named), slices.Sorted(maps.Keys(named))
				}
				if a.namesAmong(vs, names, order, named) {
					partial = append(partial, a.entity(k).Name)
				}
				delete(keys, k)
			}
		}
		if len(partial) > 0 {
			// "Music Box Winter Garden" of a play that moved: a reader
			// counts it among the Music Box's.
			sort.Strings(partial)
			r.add(Unmatched, "%d keys' cells name %q among other things, neither that value nor another: %s", len(partial), strings.Join(c.consts, "; "), clip(partial))
		}
	}
	for _, s := range f.sets {
		set := a.resolveVar(s.v, f, r, 0)
		for k := range keys {
			if !hasAny(valuesOf(k, s.rel), set) {
				delete(keys, k)
			}
		}
	}
	if f.anchor != "" {
		a.reverse(f, named, keys, rd, r)
	}
	// Keys without a value of a requested column leave the answer.
	cells := map[uint32][][]uint32{}
	var lacking []string
	for k := range keys {
		row := make([][]uint32, len(f.cols))
		for i, c := range f.cols {
			row[i] = valuesOf(k, c.rel)
			if len(row[i]) == 0 {
				if _, in := rd(k).values(c.rel); !in {
					// The store has no value beyond the tables: a reader
					// cannot tell "not on record" from "not found".
					lacking = append(lacking, a.entity(k).Name)
				}
				delete(keys, k)
				break
			}
		}
		if keys[k] {
			cells[k] = row
			a.merged(k, f, rd(k), r)
		}
	}
	if len(lacking) > 0 {
		sort.Strings(lacking)
		r.add(Mismatch, "%d keys leave the answer for lacking a value read beyond the tables, which a reader cannot reproduce: %s", len(lacking), clip(lacking))
	}
	a.compare(t, f, keys, cells, rd, r)
}

// reverse narrows keys to those sharing the anchor's pivot value: the
// anchor is the one key of its space the clues describe, read in the named
// tables; values compare as a person compares them (same thing, not same
// id).
func (a *Auditor) reverse(f *formal, named map[uint32]*graph.Tree, keys map[uint32]bool, rd func(uint32) *reading, r *Report) {
	if f.pivot == nil {
		r.add(Mismatch, "a Reverse-Union without a pivot")
		clear(keys)
		return
	}
	space := a.space(f.ain, nil, named)
	var anchors []uint32
	for k := range space {
		ok := true
		for _, c := range f.aconst {
			vs, in := rd(k).values(c.rel)
			if !in || !a.matches(vs, c.consts) {
				ok = false
				break
			}
		}
		for _, s := range f.asets {
			if !ok {
				break
			}
			vs, in := rd(k).values(s.rel)
			if !in || !hasAny(vs, a.resolveVar(s.v, f, r, 0)) {
				ok = false
			}
		}
		if ok {
			anchors = append(anchors, k)
		}
	}
	if len(anchors) != 1 {
		r.add(Mismatch, "the clues describe %d keys of the named tables, not one", len(anchors))
		clear(keys)
		return
	}
	pv, in := rd(anchors[0]).values(f.pivot.rel)
	if !in || len(pv) == 0 {
		r.add(Unsupported, "the named tables give the anchor no %q", a.header(f.pivot.rel))
		clear(keys)
		return
	}
	// The same value, read as a person reads it: the cell says what the
	// anchor's says, all of it ("Truss bridge" is not "King post, Truss
	// bridge").
	covers := func(xs, ys []uint32) bool {
		for _, x := range xs {
			if !slices.ContainsFunc(ys, func(y uint32) bool { return a.same(x, y) }) {
				return false
			}
		}
		return true
	}
	// A cell that says more than the anchor's but names its value
	// ("Denmark United States" for "United States") leaves a reader
	// unsure whether that key shares it: the task is not one to ask.
	var partial []string
	for k := range keys {
		vs, in := rd(k).values(f.pivot.rel)
		if !in || len(vs) == 0 || !covers(vs, pv) || !covers(pv, vs) {
			if in && a.mentions(vs, pv) {
				partial = append(partial, a.entity(k).Name)
			}
			delete(keys, k)
		}
	}
	if len(partial) > 0 {
		sort.Strings(partial)
		r.add(Unmatched, "%d keys' cells name the anchor's %q among other things, neither the same value nor another: %s", len(partial), a.header(f.pivot.rel), clip(partial))
	}
}

// namesAmong reports whether a value of vs names one of names (a
// filter's constants, constNames) as whole words among other words
// ("Music Box Winter Garden" names "Music Box"), not as its negation
// ("Not Nominated").
func (a *Auditor) namesAmong(vs []uint32, names []string, order []uint32, named map[uint32]*graph.Tree) bool {
	for _, v := range vs {
		text := a.entity(v).Name
		for _, id := range order { // the named trees by id
			if s, ok := named[id].Shown[v]; ok {
				text = s // "Reserves", not "Arsenal F.C. Reserves", beside "First team"
				break
			}
		}
		for _, c := range names {
			if NamesAmong(text, c) {
				return true
			}
		}
	}
	return false
}

// constNames are the constants cs, the names of the entities they name
// and what the named tables write for those ("Music Box Theatre", written
// "Music Box"). Not every alias: "Panamá" of Panama City would find the
// city in "Colón, Panama".
func (a *Auditor) constNames(cs []string, named map[uint32]*graph.Tree) []string {
	out := slices.Clone(cs)
	for _, c := range cs {
		for _, id := range a.resolveConst(c) {
			out = append(out, a.entity(id).Name)
			for _, t := range named {
				if s, ok := t.Shown[id]; ok {
					out = append(out, s)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// mentions reports whether a value of vs other than those of pv names
// one of pv's values as whole words ("Denmark United States" names
// "United States").
func (a *Auditor) mentions(vs, pv []uint32) bool {
	for _, v := range vs {
		if slices.Contains(pv, v) {
			continue
		}
		n := a.entity(v).Name
		for _, p := range pv {
			// By its title among other words, or a text a table writes for
			// it as an item of a list ("French" for French language, in
			// "French, Hebrew").
			e := a.entity(p)
			if Mentions(n, e.Name) || slices.ContainsFunc(e.Aliases, func(al string) bool { return Lists(n, al) }) {
				return true
			}
		}
	}
	return false
}

// merged flags a key whose named tables give a requested column different
// values, merged into one cell.
func (a *Auditor) merged(k uint32, f *formal, rd *reading, r *Report) {
	for _, c := range f.cols {
		m := rd.cells[c.rel]
		if len(m) < 2 {
			continue
		}
		var first []string
		for _, vs := range sortedVals(m) {
			var ns []string
			for _, v := range vs {
				ns = append(ns, NameKey(a.entity(v).Name))
			}
			slices.Sort(ns)
			ns = slices.Compact(ns)
			if first == nil {
				first = ns
			} else if !slices.Equal(first, ns) && r.count(Merged) < maxFindings {
				r.add(Merged, "%q of %q differs between the named tables and is merged into one cell", a.header(c.rel), a.entity(k).Name)
			}
		}
	}
}

func sortedVals(m map[uint32][]uint32) [][]uint32 {
	ids := make([]uint32, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([][]uint32, len(ids))
	for i, id := range ids {
		out[i] = m[id]
	}
	return out
}

// compare sets the derived answer against the task's. Rows are matched by
// their key's name and then by their values: two keys may share a name
// ("First Presbyterian Church" of two towns), each then matches the row
// whose values are its own.
func (a *Auditor) compare(t *task.Task, f *formal, keys map[uint32]bool, cells map[uint32][][]uint32, rd func(uint32) *reading, r *Report) {
	derived := map[string][]uint32{}
	for k := range keys {
		n := NameKey(a.entity(k).Name)
		derived[n] = append(derived[n], k)
	}
	// A row's name is read as a title the table writes short ("Get Free"
	// for "Get Free (The Vines song)") when the keys of its plain name are
	// all taken.
	rows := map[string][][]string{}
	for _, row := range t.Answer.Rows {
		if len(row) > 0 {
			n := a.nameKey(row[0], func(n string) bool { return len(rows[n]) < len(derived[n]) })
			rows[n] = append(rows[n], row)
		}
	}
	var names []string
	for n := range derived {
		names = append(names, n)
		slices.Sort(derived[n])
	}
	sort.Strings(names)
	var missing, extra []string
	for _, n := range names {
		if d := len(derived[n]) - len(rows[n]); d > 0 {
			for _, k := range derived[n][len(derived[n])-d:] {
				missing = append(missing, a.entity(k).Name)
			}
		}
	}
	for n, rs := range rows {
		if d := len(rs) - len(derived[n]); d > 0 {
			for _, row := range rs[len(rs)-d:] {
				extra = append(extra, row[0])
			}
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		c := Mismatch
		if f.anchor != "" {
			c = Unmatched
		}
		r.add(c, "the named tables give %d keys the answer lacks: %s", len(missing), clip(missing))
	}
	if len(extra) > 0 {
		r.add(Mismatch, "the answer has %d keys the named tables do not give: %s", len(extra), clip(extra))
	}
	if len(f.cols) > 0 && len(t.Answer.Columns) >= 1+len(f.cols) {
		// The requested columns are the last len(f.cols) of the answer
		// (a Reverse-Union's pivot column comes first).
		off := len(t.Answer.Columns) - len(f.cols)
		for _, n := range names {
			used := make([]bool, len(rows[n]))
			for _, k := range derived[n] {
				want := a.cellNames(cells[k])
				match := -1
				for i, row := range rows[n] {
					if !used[i] && len(row) == len(t.Answer.Columns) && a.sameCells(want, row[off:]) {
						match = i
						break
					}
				}
				if match >= 0 {
					used[match] = true
					continue
				}
				if len(rows[n]) == 0 || r.count(Mismatch) >= maxFindings {
					continue
				}
				// No row has this key's values: report against the
				// first row of its name.
				row := rows[n][0]
				for i := range want {
					if off+i < len(row) && !a.sameCells(want[i:i+1], row[off+i:off+i+1]) {
						r.add(Mismatch, "%q of %q is %q in the answer, %q read off the tables", t.Answer.Columns[off+i], row[0], row[off+i], strings.Join(want[i], "; "))
					}
				}
			}
		}
	}
	a.oneThing(keys, r)
	twice(t, r)
	if ag := t.Answer.Aggregate; ag != nil && ag.Op == task.AggCount && len(missing)+len(extra) == 0 {
		if ag.Value != strconv.Itoa(len(keys)) {
			r.add(Mismatch, "the count is %s, the named tables give %d", ag.Value, len(keys))
		}
	}
}

// twice flags two answer rows that read alike in every cell ("Randy
// Gardner" of two links, written alike by their tables): a reader takes
// them for one thing counted twice.
func twice(t *task.Task, r *Report) {
	seen := map[string]bool{}
	for _, row := range t.Answer.Rows {
		k := strings.Join(row, "\x00")
		if seen[k] && len(row) > 0 {
			r.add(Unmatched, "the answer lists %q twice with the same values: a reader takes them for one thing counted twice", row[0])
			return
		}
		seen[k] = true
	}
}

// alike flags two keys of one named table that the answer names alike
// while the table writes them apart: "Abahani Limited" and "Abahani
// Limited (Chittagong)", two clubs, both answered "Abahani Limited" once
// the disambiguator is left out. No reader or grader can tell which row is
// which. (Keys of two tables named alike, two churches of one name in two
// counties, are two things the tables write alike: they stay.)
func (a *Auditor) alike(t *task.Task, trees []*graph.Tree, r *Report) {
	for _, tr := range trees {
		by := map[string][]uint32{}
		for _, tg := range t.Targets {
			if tg.Layer != 2 || tg.Tree != tr.ID {
				continue
			}
			k := Fold(tg.Name)
			if !slices.Contains(by[k], tg.Entity) {
				by[k] = append(by[k], tg.Entity)
			}
		}
		for _, es := range by {
			if len(es) < 2 {
				continue
			}
			x, y := tr.Shown[es[0]], tr.Shown[es[1]]
			if x == "" || y == "" || Fold(x) != Fold(y) {
				r.add(Unmatched, "the answer names two keys of tree %d alike that the table writes apart (%q, %q)", tr.ID, a.entity(es[0]).Name, a.entity(es[1]).Name)
				return
			}
		}
	}
}

// oneThing flags two keys that name one thing: full names equal but for
// accents and case ("Nuta Olaru", "Nuța Olaru"), or an alias both bear
// ("Zvezda-VA-BGU" of two links to one club). The answer then counts the
// thing twice.
func (a *Auditor) oneThing(keys map[uint32]bool, r *Report) {
	ids := make([]uint32, 0, len(keys))
	for k := range keys {
		ids = append(ids, k)
	}
	slices.Sort(ids)
	by := map[string]uint32{}
	for _, k := range ids {
		e := a.entity(k)
		names := []string{e.Name}
		// Two articles Wikipedia tells apart by a disambiguator ("First
		// Presbyterian Church (Talladega, Alabama)") are two things even
		// when both tables show the same text: only their names count.
		if !hasDisambig(e.Name) {
			names = append(names, e.Aliases...)
		}
		for _, n := range names {
			f := Fold(n)
			if f == "" {
				continue
			}
			if o, ok := by[f]; ok && o != k && (n == e.Name || !hasDisambig(a.entity(o).Name)) {
				if r.count(Unmatched) < maxFindings {
					r.add(Unmatched, "%q and %q are one thing (both %q): the answer counts it twice", a.entity(o).Name, e.Name, n)
				}
				break
			}
			by[f] = k
		}
	}
}

// hasDisambig reports whether name ends in a parenthesis (disambig), the
// suffix tested first: most names have none.
func hasDisambig(name string) bool { return strings.HasSuffix(name, ")") && disambig.MatchString(name) }

// cellNames are a derived row's values, per column, as sorted distinct
// NameKeys.
func (a *Auditor) cellNames(cells [][]uint32) [][]string {
	out := make([][]string, len(cells))
	for i, vs := range cells {
		var want []string
		for _, v := range vs {
			want = append(want, NameKey(a.entity(v).Name))
		}
		slices.Sort(want)
		out[i] = slices.Compact(want)
	}
	return out
}

// sameCells reports whether the answer's cells hold the derived values. A
// value may itself hold "; " (a coordinate pair): a cell is split only
// when several values are expected.
func (a *Auditor) sameCells(want [][]string, cells []string) bool {
	if len(cells) < len(want) {
		return false
	}
	for i, w := range want {
		in := func(n string) bool { return slices.Contains(w, n) }
		got := []string{a.nameKey(cells[i], in)}
		if len(w) > 1 {
			got = got[:0]
			for _, x := range strings.Split(cells[i], "; ") {
				got = append(got, a.nameKey(x, in))
			}
		}
		slices.Sort(got)
		got = slices.Compact(got)
		if !slices.Equal(w, got) {
			return false
		}
	}
	return true
}

func clip(xs []string) string {
	if len(xs) > 4 {
		return strings.Join(xs[:4], "; ") + fmt.Sprintf("; and %d more", len(xs)-4)
	}
	return strings.Join(xs, "; ")
}

// provenance checks each target against the source it records: a key must
// be a key of its tree, a value a value of its relation in some row.
// twins flags a named tree whose page has another tree titled alike (same
// section and caption) that the task does not name, a twin the build
// rejected (lostTwin), or a table of changes to the members it lists
// when the question names the tree by its page alone
// (membershipChanges).
func (a *Auditor) twins(question string, trees []*graph.Tree, named map[uint32]*graph.Tree, r *Report) error {
	for _, tr := range trees {
		ids, err := a.twinsOf(tr)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if named[id] == nil {
				r.add(TwinTable, "%q has another table titled like tree %d (tree %d) that the task does not name", tr.Title(), tr.ID, id)
				return nil
			}
		}
		if tr.TwinInText {
			r.add(TwinTable, "%q: its section's text holds another table headed like tree %d, which the source did not give as a table", tr.Title(), tr.ID)
			return nil
		}
		lost, err := a.lostTwin(tr)
		if err != nil {
			return err
		}
		if lost != "" {
			r.add(TwinTable, "%q has another table on its page headed like tree %d, titled alike or listing the page's former ones, which the store does not hold (%s)", tr.Title(), tr.ID, lost)
			return nil
		}
		changes, err := a.membershipChanges(tr)
		if err != nil {
			return err
		}
		if changes != "" && !namesPart(question, graph.LastSection(tr.Section)) {
			r.add(TwinTable, "%q lists members whom its page's table of by-elections or changes (%s) adds to or replaces: its members are not the table's alone", tr.Title(), changes)
			return nil
		}
	}
	return nil
}

// membershipChanges describes a table of tr's page, held as a tree or
// rejected at build, in a section of by-elections or changes of
// membership, when tr lists people in another section: a reader asked
// for the members of the 17th Dáil counts those its by-elections
// brought in (Sheila Galvin, Cork Borough, 1964), whom the table of TDs
// by constituency, as elected, leaves out (round 199). A question that
// names tr's section ("the 129th Ohio General Assembly (membership,
// house of representatives)") asks for that section's table, apart from
// the changes in theirs. It is "" when there is none.
func (a *Auditor) membershipChanges(tr *graph.Tree) (string, error) {
	if tr.KeyDomain != "person" || changesSection(tr.Section) {
		return "", nil
	}
	if d, ok := a.changes[tr.ID]; ok {
		return d, nil
	}
	d, err := a.changesOfPage(tr)
	if err != nil {
		return "", err
	}
	a.changes[tr.ID] = d
	return d, nil
}

// changesOfPage is membershipChanges' reading of tr's page.
func (a *Auditor) changesOfPage(tr *graph.Tree) (string, error) {
	rejs, err := a.rejectedOf(tr.PageURL)
	if err != nil {
		return "", err
	}
	for _, rj := range rejs {
		if changesOf(rj.Section, tr.Section) {
			return rj.Reason + ": " + rj.Source, nil
		}
	}
	ids, err := a.g.TreesOfPage(tr.PageURL)
	if err != nil {
		return "", err
	}
	for _, id := range ids {
		if id == tr.ID {
			continue
		}
		o, err := a.tree(id)
		if err != nil {
			return "", err
		}
		if changesOf(o.Section, tr.Section) {
			return fmt.Sprintf("tree %d", o.ID), nil
		}
	}
	return "", nil
}

// rejectedOf returns the tables of page url the build rejected, read once.
func (a *Auditor) rejectedOf(url string) ([]graph.Rejected, error) {
	if rs, ok := a.rejected[url]; ok {
		return rs, nil
	}
	rs, err := a.g.RejectedOfPage(url)
	if err != nil {
		return nil, err
	}
	a.rejected[url] = rs
	return rs, nil
}

// namesPart reports whether question says part, a section's name, in
// its words, case and punctuation aside.
func namesPart(question, part string) bool {
	w := strings.Join(strings.FieldsFunc(strings.ToLower(part), notWordRune), " ")
	return w != "" && strings.Contains(" "+strings.Join(strings.FieldsFunc(strings.ToLower(question), notWordRune), " ")+" ", " "+w+" ")
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// changesSection reports a section path with a part of by-elections or
// changes of membership ("By-elections", "Changes", "Changes in
// Membership | Senate").
func changesSection(section string) bool {
	for _, p := range strings.Split(section, "|") {
		if membershipChange.MatchString(strings.TrimSpace(p)) {
			return true
		}
	}
	return false
}

// changesOf reports whether section is one of changes of membership
// whose other parts, if any, name a part of members' section too: the
// 129th Ohio General Assembly's "Changes in membership | Senate" changes
// its senators, not its representatives.
func changesOf(section, members string) bool {
	if !changesSection(section) {
		return false
	}
	have := map[string]bool{}
	for _, p := range strings.Split(members, "|") {
		have[strings.ToLower(strings.TrimSpace(p))] = true
	}
	for _, p := range strings.Split(section, "|") {
		p = strings.TrimSpace(p)
		if p != "" && !membershipChange.MatchString(p) && !have[strings.ToLower(p)] {
			return false
		}
	}
	return true
}

var membershipChange = regexp.MustCompile(`(?i)^(?:by-?elections?|changes?(?: (?:in|of|to) (?:membership|composition))?|membership changes?)$`)

// cutTables reports the first named tree its source cut (CutTable),
// unless the auditor accepts them (Cut).
func (a *Auditor) cutTables(trees []*graph.Tree, r *Report) error {
	if a.Cut {
		return nil
	}
	for _, tr := range trees {
		if tr.Cut {
			r.add(CutTable, "tree %d (%s) is the head of a longer table: its source kept the first rows only", tr.ID, tr.Title())
			return nil
		}
		gap, err := a.sourceGap(tr)
		if err != nil {
			return err
		}
		if gap >= 0 {
			r.add(CutTable, "tree %d (%s) is table %d of its page, whose source does not give table %d: a table of its section may be lost", tr.ID, tr.Title(), tr.TableIndex, gap)
			return nil
		}
		id, ok, err := a.g.ExportGap(tr.Source)
		if err != nil {
			return err
		}
		if ok {
			r.add(CutTable, "tree %d (%s) is read from %s of an export that numbers a page's tables, and the store lacks table %d beside it: its page may hold tables the export's sample did not keep", tr.ID, tr.Title(), path.Base(tr.Source), id)
			return nil
		}
	}
	return nil
}

// sourceGap is the index of a table of tr's page that its source, a
// sample of the article's tables, does not give beside tr (SourceGap),
// or -1. The page's indices are its sampled trees' and rejected tables'.
func (a *Auditor) sourceGap(tr *graph.Tree) (int, error) {
	if !Sampled(tr.Source) || tr.TableIndex < 0 {
		return -1, nil
	}
	have, ok := a.pageIndices[tr.PageURL]
	if !ok {
		ids, err := a.g.TreesOfPage(tr.PageURL)
		if err != nil {
			return -1, err
		}
		rejs, err := a.rejectedOf(tr.PageURL)
		if err != nil {
			return -1, err
		}
		trees := make([]*graph.Tree, 0, len(ids))
		for _, id := range ids {
			o, err := a.tree(id)
			if err != nil {
				return -1, err
			}
			trees = append(trees, o)
		}
		if have, ok = PageIndices(trees, rejs); !ok {
			have = nil
		}
		if a.pageIndices == nil {
			a.pageIndices = map[string]map[int]bool{}
			a.pageSplit = map[string]bool{}
		}
		a.pageIndices[tr.PageURL] = have
		a.pageSplit[tr.PageURL] = SplitSections(trees, rejs)
	}
	if have == nil {
		return -1, nil
	}
	return SourceGap(tr.TableIndex, have, a.pageSplit[tr.PageURL]), nil
}

// lostTwin describes a table of tr's page that the build rejected but a
// reader sees as tr's twin: titled alike, headed by tr's key header and
// half its other headers or more (Bexar County's five U.S.
// Representatives beside its ten State Representatives, too few rows for a
// tree). It is "" when there is none.
func (a *Auditor) lostTwin(tr *graph.Tree) (string, error) {
	if d, ok := a.lostTwins[tr.ID]; ok {
		return d, nil
	}
	rejs, err := a.rejectedOf(tr.PageURL)
	if err != nil {
		return "", err
	}
	d := ""
	for _, rj := range rejs {
		// A tree without section or caption is titled like any table of
		// its page (untitledLike); the headers below must still agree.
		// Or a list of the page's former things beside a table its
		// question names by the page alone (formerOfPage).
		former := pageLike(tr) && formerOf.MatchString(graph.LastSection(rj.Section))
		if (rj.Section != tr.Section || rj.Caption != tr.Caption) && (tr.Section != "" || tr.Caption != "") &&
			(tr.Caption == "" || rj.Caption != tr.Caption) && !former {
			continue
		}
		heads := map[string]bool{}
		for _, h := range rj.Header {
			heads[headerKey(h)] = true
		}
		have := 0
		for _, c := range tr.Columns {
			if heads[headerKey(c.Header)] {
				have++
			}
		}
		// Half the headers, or a caption of its own the two share
		// ("Regular Season" over skaters and over goaltenders)
		if heads[headerKey(tr.KeyHeader)] && (2*have >= len(tr.Columns) || tr.Caption != "" && rj.Caption == tr.Caption && rj.Section == tr.Section) {
			d = rj.Reason + ": " + rj.Source
			break
		}
	}
	a.lostTwins[tr.ID] = d
	return d, nil
}

// untitledLike reports whether tr, a table its source gives no section or
// caption ("Buffalo Public Schools": its defunct schools, the page's
// section lost), is titled like any table of its page keyed by keyHeader:
// a question naming the page alone names them all.
func untitledLike(tr *graph.Tree, keyHeader string) bool {
	return tr.Section == "" && tr.Caption == "" && keyHeader != "" && headerKey(keyHeader) == headerKey(tr.KeyHeader)
}

// continues reports whether o, headed as tr, goes on with tr's list
// under a section of the rest ("Draft" of 1947 BAA draft's first round,
// "Other picks" of the later ones): tr's own section does not say it is
// a part.
func continues(tr, o *graph.Tree) bool {
	return sameHeaders(tr, o) && restOf.MatchString(graph.LastSection(o.Section))
}

var restOf = regexp.MustCompile(`(?i)^(?:other|more|later|additional|remaining|further|rest of)\b`)

// formerOfPage reports whether o, headed as tr, lists the page's former
// things ("Defunct airports" beside the "List of airports" of List of
// airports in Queensland) while tr's section says no more than the page:
// "every airport of the list of airports in Queensland" takes in both.
func formerOfPage(tr, o *graph.Tree) bool {
	return sameHeaders(tr, o) && formerOf.MatchString(graph.LastSection(o.Section)) && pageLike(tr)
}

// pageLike reports whether tr's title says no more than its page: no
// caption, and a section whose every word is the page's ("List of
// airports" of List of airports in Queensland), where "Current members"
// says which.
func pageLike(tr *graph.Tree) bool {
	if tr.Caption != "" {
		return false
	}
	page := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(tr.PageTitle)) {
		page[w] = true
	}
	for _, w := range strings.Fields(strings.ToLower(graph.LastSection(tr.Section))) {
		if !page[w] {
			return false
		}
	}
	return true
}

var formerOf = regexp.MustCompile(`(?i)^(?:defunct|former|closed|disused|abandoned|demolished|past)\b`)

// sameHeaders reports whether o is headed as tr, column for column.
func sameHeaders(tr, o *graph.Tree) bool {
	if len(o.Columns) != len(tr.Columns) || headerKey(o.KeyHeader) != headerKey(tr.KeyHeader) {
		return false
	}
	for i, c := range o.Columns {
		if headerKey(c.Header) != headerKey(tr.Columns[i].Header) {
			return false
		}
	}
	return true
}

// headerKey is a header's letters and digits, lower-cased: "Finishing pos
// . in last season" as the source writes it and "Finishing pos. in last
// season" as a tree keeps it are one header.
func headerKey(h string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, h)
}

// twinsOf are the other trees of tr's page titled alike, read once per
// tree: synthesis audits the same trees in candidate after candidate.
func (a *Auditor) twinsOf(tr *graph.Tree) ([]uint32, error) {
	if ids, ok := a.twinIDs[tr.ID]; ok {
		return ids, nil
	}
	ids, err := a.g.TreesOfPage(tr.PageURL)
	if err != nil {
		return nil, err
	}
	var out []uint32
	for _, id := range ids {
		if id == tr.ID {
			continue
		}
		o, err := a.tree(id)
		if err != nil {
			return nil, err
		}
		// A question names a table by its caption when it has one
		// ("Players Out" of the winter and of the summer transfers)
		if o.Section == tr.Section && o.Caption == tr.Caption || tr.Caption != "" && o.Caption == tr.Caption || untitledLike(tr, o.KeyHeader) ||
			continues(tr, o) || formerOfPage(tr, o) {
			out = append(out, id)
		}
	}
	a.twinIDs[tr.ID] = out
	return out, nil
}

func (a *Auditor) provenance(t *task.Task, named map[uint32]*graph.Tree, r *Report) {
	for _, tg := range t.Targets {
		if r.count(Unsupported) >= maxFindings {
			return
		}
		tr := named[tg.Tree]
		if tr == nil {
			var err error
			if tr, err = a.tree(tg.Tree); err != nil {
				r.add(Unsupported, "target %q records tree %d, which the store does not have", tg.Name, tg.Tree)
				continue
			}
		}
		ok := false
		c := -1
		for i, col := range tr.Columns {
			if col.Name == tg.Relation {
				c = i
			}
		}
		for _, row := range tr.Rows {
			if tg.Layer == 2 && row.Key == tg.Entity || tg.Layer == 3 && c >= 0 && slices.Contains(row.Values[c], tg.Entity) {
				ok = true
				break
			}
		}
		if !ok {
			r.add(Unsupported, "target %q is not in the tree it records (%d, %s)", tg.Name, tg.Tree, tr.Title())
		}
	}
}
