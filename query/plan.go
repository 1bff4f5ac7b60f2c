package query

import (
	"context"
	"encoding/binary"
	"fmt"
	"github.com/RoaringBitmap/roaring/v2"
	"github.com/leaper-dev/leaper/task"
	"slices"

	"github.com/leaper-dev/leaper/graph"
)

// side is one end of a resolved triple: a variable index, or constants.
type side struct {
	v   int      // variable index, or -1
	ids []uint32 // sorted constant entity ids when v < 0
}

type ptriple struct {
	s, o side
	rels []uint32
}

type pintree struct {
	v     int
	trees []uint32
	not   bool
}

// plan is a query resolved against a store: what both evaluators take.
type plan struct {
	q       *Query
	res     *resolver
	vars    []string
	idx     map[string]int
	triples []ptriple
	intrees []pintree
	filters [][]*Atom          // per variable
	cols    []string           // the projection the rows are made of
	proj    []int              // variable index per column
	member  []uint32           // member's constant, resolved
	cmp     [2]*roaring.Bitmap // countdiff's trees' keys
}

func prepare(ctx context.Context, g *graph.Store, q *Query) (*plan, error) {
	if q == nil {
		return nil, fmt.Errorf("%w: nil query", ErrInvalid)
	}
	if err := q.validate(); err != nil {
		return nil, err
	}
	res, err := newResolver(g)
	if err != nil {
		return nil, err
	}
	p := &plan{q: q, res: res, vars: q.Vars(), idx: map[string]int{}}
	for i, v := range p.vars {
		p.idx[v] = i
	}
	p.filters = make([][]*Atom, len(p.vars))
	consts := map[string][]uint32{}
	sideOf := func(t task.Term) (side, error) {
		if v, ok := termVar(t); ok {
			return side{v: p.idx[v]}, nil
		}
		var ids []uint32
		for _, c := range t.Consts {
			got, ok := consts[c]
			if !ok {
				var err error
				if got, err = res.constant(c); err != nil {
					return side{}, err
				}
				consts[c] = got
			}
			ids = append(ids, got...)
		}
		slices.Sort(ids)
		return side{v: -1, ids: slices.Compact(ids)}, nil
	}
	relCache := map[string][]uint32{}
	for i := range q.Atoms {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		a := &q.Atoms[i]
		switch a.Kind {
		case KindTriple:
			rels, ok := relCache[a.Rel]
			if !ok {
				if rels, err = res.relations(a.Rel); err != nil {
					return nil, err
				}
				relCache[a.Rel] = rels
			}
			s, err := sideOf(a.S)
			if err != nil {
				return nil, err
			}
			o, err := sideOf(a.O)
			if err != nil {
				return nil, err
			}
			p.triples = append(p.triples, ptriple{s: s, o: o, rels: rels})
		case KindInTree:
			v, _ := termVar(a.S)
			ts := slices.Clone(a.Trees)
			slices.Sort(ts)
			p.intrees = append(p.intrees, pintree{v: p.idx[v], trees: slices.Compact(ts), not: a.Not})
		case KindFilter:
			p.filters[p.idx[a.Var]] = append(p.filters[p.idx[a.Var]], a)
		}
	}
	p.cols = q.Select
	if q.Agg != nil {
		switch q.Agg.Op {
		case AggCount, AggMember, AggCountDiff:
			p.cols = q.Agg.Vars
		case AggTop, AggBottom, AggDiff:
			p.cols = q.Agg.Vars
		default:
			p.cols = q.namedVars()
		}
		if q.Agg.Op == AggCountDiff {
			for i, t := range q.Agg.Trees {
				if p.cmp[i], err = g.KeysOfTree(t); err != nil {
					return nil, fmt.Errorf("query: countdiff: %w", err)
				}
			}
		}
		if q.Agg.Op == AggMember {
			if p.member, err = res.constant(q.Agg.Const); err != nil {
				return nil, err
			}
		}
	}
	p.cols = slices.Clone(p.cols)
	for _, c := range p.cols {
		p.proj = append(p.proj, p.idx[c])
	}
	return p, nil
}

// rowSet collects distinct projected rows.
type rowSet struct {
	seen map[string]struct{}
	rows [][]uint32
	buf  []byte
}

func newRowSet() *rowSet { return &rowSet{seen: map[string]struct{}{}} }

func (s *rowSet) add(p *plan, bind []uint32) {
	s.buf = s.buf[:0]
	for _, v := range p.proj {
		s.buf = binary.BigEndian.AppendUint32(s.buf, bind[v])
	}
	if _, ok := s.seen[string(s.buf)]; ok {
		return
	}
	s.seen[string(s.buf)] = struct{}{}
	row := make([]uint32, len(p.proj))
	for i, v := range p.proj {
		row[i] = bind[v]
	}
	s.rows = append(s.rows, row)
}

func (s *rowSet) sorted() [][]uint32 {
	slices.SortFunc(s.rows, func(a, b []uint32) int { return slices.Compare(a, b) })
	return s.rows
}
