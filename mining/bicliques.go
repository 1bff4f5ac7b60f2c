package mining

import (
	"context"
	"fmt"
	"slices"
)

// Bicliques calls emit once for every maximal biclique (L, R) of g with
// |L| >= opts.MinLeft and |R| >= opts.MinRight; nil opts mean the defaults.
// opts is not modified. L holds left ids and R right
// ids, both sorted; the slices are reused and valid only during the call. A
// nil emit only counts. An error from emit or ctx stops the enumeration and
// is returned with the statistics so far.
//
// Results stream: nothing is kept between calls except search state, whose
// size is bounded by the graph. The order is deterministic for a given graph
// and options: bicliques are grouped by the top-level branch that finds them,
// branches in a fixed order, and with Workers > 1 the branches are searched
// concurrently but their results are delivered in that same order, so the
// output is identical to the single-threaded run.
func Bicliques(ctx context.Context, g *Bipartite, opts *Options, emit func(left, right []uint32) error) (Stats, error) {
	o, err := opts.normalize()
	if err != nil {
		return Stats{}, err
	}
	opts = &o
	if err := ctx.Err(); err != nil {
		return Stats{}, err
	}
	v := newView(g, opts)
	st := Stats{SwappedSides: v.swapped}
	if opts.Workers > 1 {
		s, err := runParallel(ctx, v, opts.Workers, emit)
		st.add(s)
		return st, err
	}
	e := newEnum(ctx, v, emit)
	for _, u := range v.order {
		if err := e.root(u); err != nil {
			st.add(e.st)
			return st, fmt.Errorf("mining: bicliques: %w", err)
		}
	}
	st.add(e.st)
	return st, nil
}

// forceSides overrides the search direction in tests: 1 adds right
// vertices, 2 left vertices, 0 picks by cost.
var forceSides = 0

// newView prunes g to the vertices that can be in a reported biclique and
// picks the search direction.
//
// Pruning peels, to a fixpoint, left vertices with fewer than MinRight
// neighbours and right vertices with fewer than MinLeft. A biclique that
// meets both thresholds survives, and it stays maximal: a removed vertex
// adjacent to a whole surviving side would have had enough neighbours to
// survive.
func newView(g *Bipartite, opts *Options) *view {
	nl, nr := g.NumLeft(), g.NumRight()
	ldeg := make([]int32, nl)
	rdeg := make([]int32, nr)
	for i := 0; i < nl; i++ {
		ldeg[i] = int32(len(g.Left(i)))
	}
	for j := 0; j < nr; j++ {
		rdeg[j] = int32(len(g.Right(j)))
	}
	lgone := make([]bool, nl)
	rgone := make([]bool, nr)
	var lq, rq []uint32
	for i, d := range ldeg {
		if int(d) < opts.MinRight {
			lgone[i] = true
			lq = append(lq, uint32(i))
		}
	}
	for j, d := range rdeg {
		if int(d) < opts.MinLeft {
			rgone[j] = true
			rq = append(rq, uint32(j))
		}
	}
	for len(lq)+len(rq) > 0 {
		for len(lq) > 0 {
			i := lq[len(lq)-1]
			lq = lq[:len(lq)-1]
			for _, j := range g.Left(int(i)) {
				if rdeg[j]--; !rgone[j] && int(rdeg[j]) < opts.MinLeft {
					rgone[j] = true
					rq = append(rq, j)
				}
			}
		}
		for len(rq) > 0 {
			j := rq[len(rq)-1]
			rq = rq[:len(rq)-1]
			for _, i := range g.Right(int(j)) {
				if ldeg[i]--; !lgone[i] && int(ldeg[i]) < opts.MinRight {
					lgone[i] = true
					lq = append(lq, i)
				}
			}
		}
	}
	lOff, lNbr := filterCSR(nl, g.Left, lgone, rgone)
	rOff, rNbr := filterCSR(nr, g.Right, rgone, lgone)

	// A top-level branch reads the neighbourhoods of the B vertices around
	// its A vertex, so setting it up costs about the sum of squared B
	// degrees: make B the side where that is smaller.
	sq := func(off []int) (s int64) {
		for i := 0; i+1 < len(off); i++ {
			d := int64(off[i+1] - off[i])
			s += d * d
		}
		return s
	}
	v := &view{aOff: rOff, aNbr: rNbr, bOff: lOff, bNbr: lNbr, minA: opts.MinRight, minB: opts.MinLeft}
	if swap := sq(rOff) < sq(lOff); swap && forceSides != 1 || forceSides == 2 {
		v = &view{aOff: lOff, aNbr: lNbr, bOff: rOff, bNbr: rNbr, minA: opts.MinLeft, minB: opts.MinRight, swapped: true}
	}
	n := len(v.aOff) - 1
	v.order = make([]uint32, n)
	for i := range v.order {
		v.order[i] = uint32(i)
	}
	deg := func(a uint32) int { return v.aOff[a+1] - v.aOff[a] }
	slices.SortFunc(v.order, func(a, b uint32) int {
		if c := deg(a) - deg(b); c != 0 {
			return c
		}
		return int(a) - int(b)
	})
	v.rank = make([]int32, n)
	for r, a := range v.order {
		v.rank[a] = int32(r)
	}
	return v
}

// filterCSR copies the adjacency of n vertices, dropping removed vertices
// and edges to removed neighbours.
func filterCSR(n int, nbrs func(int) []uint32, gone, otherGone []bool) ([]int, []uint32) {
	off := make([]int, n+1)
	var out []uint32
	for i := 0; i < n; i++ {
		if !gone[i] {
			for _, j := range nbrs(i) {
				if !otherGone[j] {
					out = append(out, j)
				}
			}
		}
		off[i+1] = len(out)
	}
	return off, out
}
