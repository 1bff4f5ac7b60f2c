package mining

import (
	"cmp"
	"slices"
)

// bruteForce returns every maximal biclique of g with at least opts.MinLeft
// left and opts.MinRight right vertices, sorted by left then right ids. It
// tries every subset of the smaller side, so it is only for small graphs; it
// is the oracle the tests compare Bicliques with. Workers is ignored, and
// a graph with more than 24 vertices on its smaller side yields nil.
func bruteForce(g *Bipartite, opts Options) [][2][]uint32 {
	opts.MinLeft = max(opts.MinLeft, 1)
	opts.MinRight = max(opts.MinRight, 1)
	nl, nr := g.NumLeft(), g.NumRight()
	adj := make([][]bool, nl)
	for i := range adj {
		adj[i] = make([]bool, nr)
		for _, v := range g.Left(i) {
			adj[i][v] = true
		}
	}
	// Subsets of the small side s; the other side o is its common
	// neighbourhood, and the subset must be the closure of that.
	ns, no := nr, nl
	has := func(s, o int) bool { return adj[o][s] }
	if nl < nr {
		ns, no = nl, nr
		has = func(s, o int) bool { return adj[s][o] }
	}
	if ns > 24 {
		return nil
	}
	var out [][2][]uint32
	for mask := uint64(1); mask < 1<<ns; mask++ {
		var small, other []uint32
		for s := 0; s < ns; s++ {
			if mask&(1<<s) != 0 {
				small = append(small, uint32(s))
			}
		}
		for o := 0; o < no; o++ {
			all := true
			for _, s := range small {
				all = all && has(int(s), o)
			}
			if all {
				other = append(other, uint32(o))
			}
		}
		if len(other) == 0 {
			continue
		}
		closed := true
		for s := 0; s < ns && closed; s++ {
			if mask&(1<<s) != 0 {
				continue
			}
			all := true
			for _, o := range other {
				all = all && has(s, int(o))
			}
			closed = !all
		}
		if !closed {
			continue
		}
		left, right := other, small
		if nl < nr {
			left, right = small, other
		}
		if len(left) >= opts.MinLeft && len(right) >= opts.MinRight {
			out = append(out, [2][]uint32{left, right})
		}
	}
	slices.SortFunc(out, func(a, b [2][]uint32) int {
		return cmp.Or(slices.Compare(a[0], b[0]), slices.Compare(a[1], b[1]))
	})
	return out
}
