package query

import (
	"context"
	"fmt"
	"slices"

	"github.com/leaper-dev/leaper/graph"
)

// NestedLoops evaluates queries by nested loops over the trees' rows, without
// the bitmaps: the reference Eval is tested against. It holds every tree
// in memory.
type NestedLoops struct {
	g     *graph.Store
	trees []*graph.Tree
}

// NewNestedLoops loads every tree of the store.
func NewNestedLoops(ctx context.Context, g *graph.Store) (*NestedLoops, error) {
	o := &NestedLoops{g: g}
	err := g.EachTree(ctx, func(t *graph.Tree) error { o.trees = append(o.trees, t); return nil })
	if err != nil {
		return nil, fmt.Errorf("query: load trees: %w", err)
	}
	return o, nil
}

// EvalNaive evaluates q like Eval, by nested loops over the trees' rows.
// It loads every tree; use a NestedLoops to evaluate many queries.
func EvalNaive(ctx context.Context, g *graph.Store, q *Query) (*Result, error) {
	o, err := NewNestedLoops(ctx, g)
	if err != nil {
		return nil, err
	}
	return o.Eval(ctx, q)
}

type pair struct{ s, o uint32 }

// Eval evaluates q. Atoms are joined in the order written: each one's
// facts are scanned in full for every binding of the atoms before it, and
// comparisons are applied to complete bindings.
func (o *NestedLoops) Eval(ctx context.Context, q *Query) (*Result, error) {
	p, err := prepare(ctx, o.g, q)
	if err != nil {
		return nil, err
	}
	type fact struct {
		s, o  side
		pairs []pair
	}
	var facts []fact
	for _, t := range p.triples {
		f := fact{s: t.s, o: t.o}
		for _, tr := range o.trees {
			for j, c := range tr.Columns {
				if !slices.Contains(t.rels, c.Relation) {
					continue
				}
				for _, r := range tr.Rows {
					for _, v := range r.Values[j] {
						f.pairs = append(f.pairs, pair{r.Key, v})
					}
				}
			}
		}
		facts = append(facts, f)
	}
	excluded := map[int]map[uint32]bool{} // not_in_tree: variable → keys it must not take
	for _, it := range p.intrees {
		if it.not {
			if excluded[it.v] == nil {
				excluded[it.v] = map[uint32]bool{}
			}
			for _, tr := range o.trees {
				if slices.Contains(it.trees, tr.ID) {
					for _, r := range tr.Rows {
						excluded[it.v][r.Key] = true
					}
				}
			}
			continue
		}
		f := fact{s: side{v: it.v}, o: side{v: -1}}
		for _, tr := range o.trees {
			if slices.Contains(it.trees, tr.ID) {
				for _, r := range tr.Rows {
					f.pairs = append(f.pairs, pair{r.Key, 0})
				}
			}
		}
		f.o.ids = []uint32{0}
		facts = append(facts, f)
	}
	out := newRowSet()
	bind := make([]uint32, len(p.vars))
	bound := make([]bool, len(p.vars))
	steps := 0
	var rec func(i int) error
	rec = func(i int) error {
		if i == len(facts) {
			for v, ex := range excluded {
				if ex[bind[v]] {
					return nil
				}
			}
			for v, fs := range p.filters {
				for _, f := range fs {
					val, err := p.res.value(bind[v])
					if err != nil {
						return err
					}
					if !holds(f, val) {
						return nil
					}
				}
			}
			out.add(p, bind)
			return nil
		}
		f := facts[i]
		for _, pr := range f.pairs {
			if steps++; steps&4095 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			var set []int
			ok := true
			for _, x := range []struct {
				sd side
				id uint32
			}{{f.s, pr.s}, {f.o, pr.o}} {
				switch {
				case x.sd.v < 0:
					ok = ok && slices.Contains(x.sd.ids, x.id)
				case bound[x.sd.v]:
					ok = ok && bind[x.sd.v] == x.id
				case ok:
					bind[x.sd.v], bound[x.sd.v] = x.id, true
					set = append(set, x.sd.v)
				}
			}
			if ok {
				if err := rec(i + 1); err != nil {
					return err
				}
			}
			for _, v := range set {
				bound[v] = false
			}
		}
		return nil
	}
	if err := rec(0); err != nil {
		return nil, err
	}
	return p.finish(out.sorted())
}
