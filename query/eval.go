package query

import (
	"context"
	"fmt"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/leaper-dev/leaper/graph"
)

// Eval evaluates q over the store with the roaring bitmaps: every distinct
// solution row of the answer variables, sorted by entity id, and the
// aggregate when the query has one.
//
// Each variable starts with a domain from its constant-anchored triples
// (Subjects(r, c)), the subjects and objects of its relations and in_tree;
// small domains are filtered at once. Variables are then bound one at a
// time, smallest domain first and preferring variables joined to bound
// ones, each candidate set being the domain intersected with the
// projections of the bound neighbours. Once every answer variable is bound
// the rest is only checked for one completion.
func Eval(ctx context.Context, g *graph.Store, q *Query) (*Result, error) {
	p, err := prepare(ctx, g, q)
	if err != nil {
		return nil, err
	}
	e := &bmEval{ctx: ctx, g: g, p: p, cache: map[bmKey]*roaring.Bitmap{}, out: newRowSet()}
	if err := e.run(); err != nil {
		return nil, err
	}
	return p.finish(e.out.sorted())
}

type bmKey struct {
	kind byte // 's': subjects of (triple, object), 'o': objects of (triple, subject)
	t    int
	ent  uint32
}

type link struct {
	t     int
	other int  // the other variable
	obj   bool // this variable is the object
}

type bmEval struct {
	ctx   context.Context
	g     *graph.Store
	p     *plan
	cache map[bmKey]*roaring.Bitmap
	dom   []*roaring.Bitmap
	order []int
	links [][]link // per variable: triples to other variables
	loops [][]int  // per variable: triples r(X, X)
	pos   []int    // position of each variable in order
	done  []bool   // done[level]: every projected variable is bound before level
	bind  []uint32
	out   *rowSet
	steps int
}

// union returns the union over the triple's relations of fetch(rel).
func union(rels []uint32, fetch func(rel uint32) (*roaring.Bitmap, error)) (*roaring.Bitmap, error) {
	var out *roaring.Bitmap
	for _, r := range rels {
		bm, err := fetch(r)
		if err != nil {
			return nil, fmt.Errorf("query: %w", err)
		}
		if out == nil {
			out = bm
		} else {
			out.Or(bm)
		}
	}
	if out == nil {
		out = roaring.New()
	}
	return out, nil
}

// subjects returns {s | (s, r, o) for r of triple t}, cached.
func (e *bmEval) subjects(t int, o uint32) (*roaring.Bitmap, error) {
	k := bmKey{'s', t, o}
	if bm, ok := e.cache[k]; ok {
		return bm, nil
	}
	bm, err := union(e.p.triples[t].rels, func(r uint32) (*roaring.Bitmap, error) { return e.g.Subjects(r, o) })
	if err == nil {
		e.cache[k] = bm
	}
	return bm, err
}

// objects returns {o | (s, r, o) for r of triple t}, cached.
func (e *bmEval) objects(t int, s uint32) (*roaring.Bitmap, error) {
	k := bmKey{'o', t, s}
	if bm, ok := e.cache[k]; ok {
		return bm, nil
	}
	bm, err := union(e.p.triples[t].rels, func(r uint32) (*roaring.Bitmap, error) { return e.g.Objects(r, s) })
	if err == nil {
		e.cache[k] = bm
	}
	return bm, err
}

func (e *bmEval) restrict(v int, bm *roaring.Bitmap) {
	if e.dom[v] == nil {
		e.dom[v] = bm.Clone()
	} else {
		e.dom[v].And(bm)
	}
}

// constSet is the union over constants ids of fetch(id).
func constSet(ids []uint32, fetch func(uint32) (*roaring.Bitmap, error)) (*roaring.Bitmap, error) {
	out := roaring.New()
	for _, id := range ids {
		bm, err := fetch(id)
		if err != nil {
			return nil, err
		}
		out.Or(bm)
	}
	return out, nil
}

// domains computes each variable's starting domain; false when some
// domain is empty, so there is no solution.
func (e *bmEval) domains() (bool, error) {
	p := e.p
	n := len(p.vars)
	e.dom = make([]*roaring.Bitmap, n)
	e.links = make([][]link, n)
	e.loops = make([][]int, n)
	for ti, t := range p.triples {
		if err := e.ctx.Err(); err != nil {
			return false, err
		}
		switch {
		case t.s.v >= 0 && t.o.v >= 0:
			subj, err := union(t.rels, e.g.SubjectsOf)
			if err != nil {
				return false, err
			}
			obj, err := union(t.rels, e.g.ObjectsOf)
			if err != nil {
				return false, err
			}
			e.restrict(t.s.v, subj)
			e.restrict(t.o.v, obj)
			if t.s.v == t.o.v {
				e.loops[t.s.v] = append(e.loops[t.s.v], ti)
			} else {
				e.links[t.s.v] = append(e.links[t.s.v], link{t: ti, other: t.o.v})
				e.links[t.o.v] = append(e.links[t.o.v], link{t: ti, other: t.s.v, obj: true})
			}
		case t.s.v >= 0:
			bm, err := constSet(t.o.ids, func(o uint32) (*roaring.Bitmap, error) { return e.subjects(ti, o) })
			if err != nil {
				return false, err
			}
			e.restrict(t.s.v, bm)
		case t.o.v >= 0:
			bm, err := constSet(t.s.ids, func(s uint32) (*roaring.Bitmap, error) { return e.objects(ti, s) })
			if err != nil {
				return false, err
			}
			e.restrict(t.o.v, bm)
		default:
			bm, err := constSet(t.o.ids, func(o uint32) (*roaring.Bitmap, error) { return e.subjects(ti, o) })
			if err != nil {
				return false, err
			}
			if !bm.Intersects(roaring.BitmapOf(t.s.ids...)) {
				return false, nil
			}
		}
	}
	// in_tree first, then not_in_tree, which removes keys from a domain
	// another condition bound.
	for _, neg := range []bool{false, true} {
		for _, it := range p.intrees {
			if it.not != neg {
				continue
			}
			keys := roaring.New()
			for _, t := range it.trees {
				bm, err := e.g.KeysOfTree(t)
				if err != nil {
					return false, fmt.Errorf("query: %w", err)
				}
				keys.Or(bm)
			}
			if !neg {
				e.restrict(it.v, keys)
			} else if e.dom[it.v] != nil {
				e.dom[it.v].AndNot(keys)
			}
		}
	}
	for v, d := range e.dom {
		if d == nil {
			return false, fmt.Errorf("%w: variable %s is not bound by any condition", ErrInvalid, p.vars[v])
		}
		if len(p.filters[v]) > 0 && d.GetCardinality() <= eagerFilter {
			ids := d.ToArray()
			if err := p.res.prefetch(ids); err != nil {
				return false, err
			}
			for _, id := range ids {
				if ok, err := e.pass(v, id); err != nil {
					return false, err
				} else if !ok {
					d.Remove(id)
				}
			}
		}
		if d.IsEmpty() {
			return false, nil
		}
	}
	return true, nil
}

// eagerFilter is the largest domain filtered before the search; larger
// ones are filtered as candidates are bound, reading fewer entities.
const eagerFilter = 4096

func (e *bmEval) pass(v int, id uint32) (bool, error) {
	for _, f := range e.p.filters[v] {
		val, err := e.p.res.value(id)
		if err != nil {
			return false, err
		}
		if !holds(f, val) {
			return false, nil
		}
	}
	return true, nil
}

// plan orders the variables: smallest domain first, then repeatedly the
// smallest domain among variables joined to a bound one.
func (e *bmEval) planOrder() {
	n := len(e.p.vars)
	bound := make([]bool, n)
	e.pos = make([]int, n)
	card := make([]uint64, n)
	for v := range card {
		card[v] = e.dom[v].GetCardinality()
	}
	for len(e.order) < n {
		best, bestJoined := -1, false
		for v := 0; v < n; v++ {
			if bound[v] {
				continue
			}
			joined := false
			for _, l := range e.links[v] {
				if bound[l.other] {
					joined = true
				}
			}
			if best < 0 || joined && !bestJoined || joined == bestJoined && card[v] < card[best] {
				best, bestJoined = v, joined
			}
		}
		bound[best] = true
		e.pos[best] = len(e.order)
		e.order = append(e.order, best)
	}
	e.done = make([]bool, n+1)
	for level := 0; level <= n; level++ {
		all := true
		for _, v := range e.p.proj {
			if e.pos[v] >= level {
				all = false
			}
		}
		e.done[level] = all
	}
}

func (e *bmEval) run() error {
	ok, err := e.domains()
	if err != nil || !ok {
		return err
	}
	e.planOrder()
	e.bind = make([]uint32, len(e.p.vars))
	_, err = e.search(0, false)
	return err
}

// search binds order[level:]. In exists mode it stops at the first
// complete binding and reports whether there was one; otherwise it adds
// every projected row, switching to exists mode once the projected
// variables are all bound.
func (e *bmEval) search(level int, exists bool) (bool, error) {
	if level == len(e.order) {
		if !exists {
			e.out.add(e.p, e.bind)
		}
		return true, nil
	}
	if !exists && e.done[level] {
		found, err := e.search(level, true)
		if found {
			e.out.add(e.p, e.bind)
		}
		return found, err
	}
	v := e.order[level]
	cand := e.dom[v]
	var parts []*roaring.Bitmap
	for _, l := range e.links[v] {
		if e.pos[l.other] >= level {
			continue
		}
		var bm *roaring.Bitmap
		var err error
		if l.obj {
			bm, err = e.objects(l.t, e.bind[l.other])
		} else {
			bm, err = e.subjects(l.t, e.bind[l.other])
		}
		if err != nil {
			return false, err
		}
		parts = append(parts, bm)
	}
	if len(parts) > 0 {
		slices.SortFunc(parts, func(a, b *roaring.Bitmap) int {
			return int(a.GetCardinality()) - int(b.GetCardinality())
		})
		cand = roaring.And(parts[0], cand)
		for _, bm := range parts[1:] {
			if cand.IsEmpty() {
				break
			}
			cand.And(bm)
		}
	}
	it := cand.Iterator()
	for it.HasNext() {
		x := it.Next()
		if e.steps++; e.steps&1023 == 0 {
			if err := e.ctx.Err(); err != nil {
				return false, err
			}
		}
		ok, err := e.pass(v, x)
		if err != nil {
			return false, err
		}
		for _, t := range e.loops[v] {
			if !ok {
				break
			}
			bm, err := e.objects(t, x)
			if err != nil {
				return false, err
			}
			ok = bm.Contains(x)
		}
		if !ok {
			continue
		}
		e.bind[v] = x
		found, err := e.search(level+1, exists)
		if err != nil {
			return false, err
		}
		if found && exists {
			return true, nil
		}
	}
	return false, nil
}
