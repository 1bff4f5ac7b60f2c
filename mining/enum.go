package mining

import (
	"context"
	"math/bits"
	"slices"
)

// view is the graph as the search sees it. The search adds A vertices one at
// a time (the "items" of closed itemset mining) while the set of common B
// neighbours (the "transactions") shrinks. Vertices removed by core pruning
// keep their ids but have no edges.
type view struct {
	aOff, bOff []int
	aNbr, bNbr []uint32
	order      []uint32 // A vertices by increasing degree, then id
	rank       []int32  // rank[a] is the position of a in order
	swapped    bool     // A is the left side of the Bipartite
	minA, minB int      // thresholds on the A part and the B part
}

// level is one node of the search, stored per depth and reused. Its B set
// has one row per B vertex: a bitset over the node's local items, the A
// vertices still relevant below. Items are candidates (may still join the A
// part) or excluded (branched on earlier: a B set they cover is not maximal
// here). When a child needs fewer words per row its items are renumbered
// densely; otherwise it shares its parent's numbering.
type level struct {
	K       int      // words per row
	n       int      // rows
	tid     []uint32 // B vertex of each row, sorted; kept only when emitting
	tidBuf  []uint32 // tid's storage when this level owns it
	rows    []uint64 // n*K words
	item    []uint32 // local item id -> A vertex (may alias the parent's)
	itemBuf []uint32
	candM   []uint64 // K words: candidates
	done    []uint64 // K words: excluded items, growing as candidates are branched on
	cnt     []int32  // rows per candidate item
	aSorted []uint32 // with emit: the A part above this level (qstack on entry), sorted
	counted bool     // build filled cnt
	cand    []int32  // candidates in branching order
	occOff  []int32
	occ     []int32
	pos     []int32
	and     []uint64
	or      []uint64
	remap   []int32

	// Column form (colMode), used once a node has at most 64 rows:
	// cols[j].rows is the set of rows (bits) holding item j, so a branch is
	// one AND and a popcount per item instead of a pass over its rows
	// (AdaMBE's bitmap subgraphs). Rows keep their numbering down the
	// subtree, so tid is shared with the ancestor that switched. Items
	// dropped by prepare for too few rows are neither candidates nor
	// excluded in row form; buildCol drops them by count.
	// cols holds the candidates only. ex holds the rows of the excluded
	// items, reduced to an antichain, and of each candidate once branched
	// on: a branch whose rows lie within one of them is not maximal. Most
	// branches are not (two in three on the synthetic graphs), so nodeCol
	// tests this first, one AND-NOT a set, before intersecting any column,
	// and excluded items cost nothing more than their intersections with
	// the branches that are maximal.
	colMode bool
	cols    []colItem
	ex      []uint64
}

// colItem is one item of a level in column form.
type colItem struct {
	rows uint64 // the rows holding the item
	item uint32 // its A vertex
	cnt  int32  // popcount of rows
	dn   bool   // branched on earlier, or repeating a branch: rows in ex
}

// enum is the state of one goroutine's search. Nothing in it is shared.
type enum struct {
	v    *view
	ctx  context.Context
	emit func(left, right []uint32) error
	st   Stats

	slot    []int32 // per A vertex: scratch index during root set-up, else -1
	touched []uint32
	tcnt    []int32
	local   []int32
	check   []int32
	ok      []int32
	lv      []*level
	qstack  []uint32 // the current A part

	outA, outB []uint32
	newA       []uint32 // sortA scratch
	keepRows   []uint64 // antichain scratch
}

func newEnum(ctx context.Context, v *view, emit func(left, right []uint32) error) *enum {
	e := &enum{v: v, ctx: ctx, emit: emit, slot: make([]int32, len(v.rank))}
	for i := range e.slot {
		e.slot[i] = -1
	}
	return e
}

func (e *enum) level(d int) *level {
	for len(e.lv) <= d {
		e.lv = append(e.lv, &level{})
	}
	return e.lv[d]
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

func zero(s []uint64) {
	for i := range s {
		s[i] = 0
	}
}

// root enumerates the maximal bicliques whose A part has u as its
// lowest-ranked vertex: their B parts lie inside N(u), and A vertices
// ranked before u are excluded items.
//
// Bicliques with a single B vertex t are settled here rather than searched:
// (N(t), {t}) is maximal iff no other row contains all of t's items. That
// lets the search drop every item occurring in just one row, which are most
// items in sparse graphs, since such an item can only matter for a B part
// of one vertex.
func (e *enum) root(u uint32) error {
	v := e.v
	T := v.aNbr[v.aOff[u]:v.aOff[u+1]]
	if len(T) < v.minB || len(T) == 0 {
		return nil
	}
	// Count, for every A vertex sharing a B neighbour with u, how many.
	touched, cnt := e.touched[:0], e.tcnt[:0]
	for _, t := range T {
		for _, w := range v.bNbr[v.bOff[t]:v.bOff[t+1]] {
			if s := e.slot[w]; s >= 0 {
				cnt[s]++
			} else {
				e.slot[w] = int32(len(touched))
				touched = append(touched, w)
				cnt = append(cnt, 1)
			}
		}
	}
	e.touched, e.tcnt = touched, cnt
	err := e.rootSearch(u, T, touched, cnt)
	for _, w := range touched {
		e.slot[w] = -1
	}
	return err
}

func (e *enum) rootSearch(u uint32, T, touched []uint32, cnt []int32) error {
	v := e.v
	lv := e.level(0)
	ru, n := v.rank[u], int32(len(T))
	minBs := int32(max(v.minB, 2))
	e.qstack = e.qstack[:0]
	// Local ids: candidates first, excluded items after.
	nc, nx := 0, 0
	for s, w := range touched {
		c := cnt[s]
		switch {
		case w == u:
		case v.rank[w] < ru:
			if c == n {
				return nil // a lower-ranked vertex owns every biclique here
			}
			if c >= minBs {
				nx++
			}
		case c == n:
			e.qstack = append(e.qstack, w)
		case c >= minBs:
			nc++
		}
	}
	singles := v.minB <= 1 && n >= 2
	if !singles && 1+len(e.qstack)+nc < v.minA {
		return nil
	}
	e.st.Roots++
	ni := nc + nx
	items := resize(lv.itemBuf, ni)
	local := resize(e.local, len(touched))
	e.local = local
	ic, ix := 0, nc
	for s, w := range touched {
		c := cnt[s]
		local[s] = -1
		if w == u || c == n || c < minBs {
			continue
		}
		if v.rank[w] < ru {
			local[s] = int32(ix)
			items[ix] = w
			ix++
		} else {
			local[s] = int32(ic)
			items[ic] = w
			ic++
		}
	}
	lv.itemBuf, lv.item = items, items
	K := max((ni+63)>>6, 1)
	lv.K, lv.n = K, len(T)
	lv.candM = resize(lv.candM, K)
	lv.done = resize(lv.done, K)
	zero(lv.candM)
	zero(lv.done)
	for id := 0; id < ni; id++ {
		if id < nc {
			lv.candM[id>>6] |= 1 << (id & 63)
		} else {
			lv.done[id>>6] |= 1 << (id & 63)
		}
	}
	if e.emit != nil {
		lv.tidBuf = append(lv.tidBuf[:0], T...)
		lv.tid = lv.tidBuf
	}
	lv.rows = resize(lv.rows, len(T)*K)
	zero(lv.rows)
	// Rows that may be single-B-vertex bicliques: u is their lowest-ranked
	// item (no excluded item) and no item is unique to them (else they are
	// maximal outright, listed in ok).
	check, ok := e.check[:0], e.ok[:0]
	for i, t := range T {
		row := lv.rows[i*K : (i+1)*K]
		hasX, unique := false, false
		for _, w := range v.bNbr[v.bOff[t]:v.bOff[t+1]] {
			s := e.slot[w]
			if id := local[s]; id >= 0 {
				row[id>>6] |= 1 << (id & 63)
			}
			if w != u {
				hasX = hasX || v.rank[w] < ru
				unique = unique || cnt[s] == 1
			}
		}
		if singles && !hasX && v.bOff[t+1]-v.bOff[t] >= v.minA {
			if unique {
				ok = append(ok, int32(i))
			} else {
				check = append(check, int32(i))
			}
		}
	}
	for _, i := range check {
		row := lv.rows[int(i)*K : int(i+1)*K]
		covered := false
		for j := 0; j < len(T) && !covered; j++ {
			if j == int(i) {
				continue
			}
			other := lv.rows[j*K : (j+1)*K]
			covered = true
			for k, w := range row {
				if w&^other[k] != 0 {
					covered = false
					break
				}
			}
		}
		if !covered {
			ok = append(ok, i)
		}
	}
	e.check, e.ok = check, ok
	slices.Sort(ok)

	e.qstack = append(e.qstack, u)
	if e.emit != nil {
		lv.aSorted = append(lv.aSorted[:0], e.qstack...)
		slices.Sort(lv.aSorted)
	}
	if len(e.qstack) >= v.minA && len(T) >= v.minB {
		if err := e.report(lv.aSorted, T); err != nil {
			return err
		}
	}
	for _, i := range ok {
		t := T[i]
		e.st.Bicliques++
		if e.emit != nil {
			var err error
			if a := v.bNbr[v.bOff[t]:v.bOff[t+1]]; v.swapped {
				err = e.emit(a, T[i:i+1])
			} else {
				err = e.emit(T[i:i+1], a)
			}
			if err != nil {
				return err
			}
		}
	}
	if nc == 0 || len(e.qstack)+nc < v.minA {
		return nil
	}
	return e.node(0)
}

// report emits the A part a (qstack, sorted) with B part tb.
func (e *enum) report(a, tb []uint32) error {
	e.st.Bicliques++
	if e.emit == nil {
		return nil
	}
	if e.v.swapped {
		return e.emit(a, tb)
	}
	return e.emit(tb, a)
}

// sortA returns the current A part (qstack) sorted, given base, its first
// len(base) items sorted: the items a node adds are few, so sorting them
// and merging beats sorting the whole part for every biclique. The result
// is valid until the next call.
func (e *enum) sortA(base []uint32) []uint32 {
	nw := append(e.newA[:0], e.qstack[len(base):]...)
	e.newA = nw
	if len(nw) > 16 {
		slices.Sort(nw)
	} else {
		for i := 1; i < len(nw); i++ {
			x := nw[i]
			j := i
			for j > 0 && nw[j-1] > x {
				nw[j] = nw[j-1]
				j--
			}
			nw[j] = x
		}
	}
	out := resize(e.outA, len(base)+len(nw))
	e.outA = out
	i, j, k := 0, 0, 0
	for i < len(base) && j < len(nw) {
		if base[i] < nw[j] {
			out[k] = base[i]
			i++
		} else {
			out[k] = nw[j]
			j++
		}
		k++
	}
	k += copy(out[k:], base[i:])
	copy(out[k:], nw[j:])
	return out
}

// childA returns the current A part sorted, for a child of lv: the one
// the report just made if reported, else a new one.
func (e *enum) childA(lv *level, reported bool) []uint32 {
	if reported {
		return e.outA
	}
	return e.sortA(lv.aSorted)
}

// setA gives level ch the sorted A part a of the node that builds it.
func (ch *level) setA(a []uint32) {
	ch.aSorted = append(ch.aSorted[:0], a...)
}

// reportRows emits the current A part with the B vertices of rows oc.
func (e *enum) reportRows(lv *level, oc []int32) error {
	if e.emit == nil {
		e.st.Bicliques++
		return nil
	}
	b := e.outB[:0]
	for _, i := range oc {
		b = append(b, lv.tid[i])
	}
	e.outB = b
	return e.report(e.sortA(lv.aSorted), b)
}

// prepare counts the rows of every candidate (unless build did), drops
// candidates with fewer than minB rows, orders the rest by increasing count
// and delivers each candidate's row list (occurrence deliver). Work is
// proportional to the rows and candidates, never to all items: a level that
// shares its parent's numbering may have many inactive ones.
func (e *enum) prepare(lv *level) {
	K, n, ni := lv.K, lv.n, len(lv.item)
	cnt := resize(lv.cnt, ni)
	lv.cnt = cnt
	rows := lv.rows[:n*K]
	if !lv.counted {
		for k, m := range lv.candM {
			for ; m != 0; m &= m - 1 {
				cnt[k<<6|bits.TrailingZeros64(m)] = 0
			}
		}
		if K == 1 {
			m := lv.candM[0]
			for _, r := range rows {
				r &= m
				for r != 0 {
					cnt[bits.TrailingZeros64(r)]++
					r &= r - 1
				}
			}
		} else {
			for i := 0; i < n; i++ {
				for k, r := range rows[i*K : (i+1)*K] {
					r &= lv.candM[k]
					for r != 0 {
						cnt[k<<6|bits.TrailingZeros64(r)]++
						r &= r - 1
					}
				}
			}
		}
	}
	lv.counted = false
	minB := int32(max(e.v.minB, 2))
	cand := lv.cand[:0]
	for k, m := range lv.candM {
		for w := m; w != 0; w &= w - 1 {
			id := k<<6 | bits.TrailingZeros64(w)
			if cnt[id] >= minB {
				cand = append(cand, int32(id))
			} else {
				lv.candM[k] &^= 1 << (id & 63)
			}
		}
	}
	// Insertion sort: candidate lists are short and often nearly sorted.
	for i := 1; i < len(cand); i++ {
		c := cand[i]
		j := i
		for j > 0 && cnt[cand[j-1]] > cnt[c] {
			cand[j] = cand[j-1]
			j--
		}
		cand[j] = c
	}
	lv.cand = cand
	start := resize(lv.occOff, ni)
	lv.occOff = start
	pos := resize(lv.pos, ni)
	lv.pos = pos
	total := int32(0)
	for _, c := range cand {
		start[c], pos[c] = total, total
		total += cnt[c]
	}
	occ := resize(lv.occ, int(total))
	lv.occ = occ
	if K == 1 {
		m := lv.candM[0]
		for i, r := range rows {
			r &= m
			for r != 0 {
				j := bits.TrailingZeros64(r)
				occ[pos[j]] = int32(i)
				pos[j]++
				r &= r - 1
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		for k, r := range rows[i*K : (i+1)*K] {
			r &= lv.candM[k]
			for r != 0 {
				j := k<<6 | bits.TrailingZeros64(r)
				occ[pos[j]] = int32(i)
				pos[j]++
				r &= r - 1
			}
		}
	}
}

func (e *enum) tick() error {
	e.st.Nodes++
	if e.st.Nodes&0x3fff == 0 {
		return e.ctx.Err()
	}
	return nil
}

// node branches on every candidate of depth d in order. Candidates already
// branched on become excluded items for the later ones (iMBEA); a branch is
// maximal iff no excluded item occurs in all of its rows.
func (e *enum) node(d int) error {
	lv := e.lv[d]
	if lv.colMode {
		return e.nodeCol(d, lv)
	}
	e.prepare(lv)
	if lv.K == 1 {
		return e.node1(d, lv)
	}
	v := e.v
	K := lv.K
	rows, occ, off, cnt := lv.rows, lv.occ, lv.occOff, lv.cnt
	and := resize(lv.and, K)
	or := resize(lv.or, K)
	lv.and, lv.or = and, or
	done, candM := lv.done, lv.candM
	top := len(e.qstack)
	for _, c := range lv.cand {
		if done[c>>6]&(1<<(c&63)) != 0 {
			continue // same rows as an earlier candidate
		}
		if err := e.tick(); err != nil {
			return err
		}
		oc := occ[off[c] : off[c]+cnt[c]]
		first := rows[int(oc[0])*K : int(oc[0]+1)*K]
		copy(and, first)
		copy(or, first)
		for _, i := range oc[1:] {
			row := rows[int(i)*K : int(i+1)*K]
			for k, w := range row {
				and[k] &= w
				or[k] |= w
			}
		}
		nonmax := false
		nChild := 0
		for k := range and {
			if and[k]&done[k] != 0 {
				nonmax = true
				break
			}
			nChild += bits.OnesCount64(or[k] &^ and[k] & candM[k] &^ done[k])
		}
		if nonmax {
			e.st.NonMaximal++
			done[c>>6] |= 1 << (c & 63)
			continue
		}
		e.qstack = e.qstack[:top]
		for k, w := range and {
			w &= candM[k]
			for w != 0 {
				j := k<<6 | bits.TrailingZeros64(w)
				e.qstack = append(e.qstack, lv.item[j])
				if cnt[j] == int32(len(oc)) {
					done[k] |= 1 << (j & 63) // its branch would repeat this one
				}
				w &= w - 1
			}
		}
		reported := len(e.qstack) >= v.minA
		if reported {
			if err := e.reportRows(lv, oc); err != nil {
				return err
			}
		}
		if nChild > 0 && len(e.qstack)+nChild >= v.minA {
			ch := e.level(d + 1)
			if len(oc) <= 64 {
				e.buildCol(lv, ch, oc)
			} else {
				e.build(lv, ch, oc)
			}
			if e.emit != nil {
				ch.setA(e.childA(lv, reported))
			}
			if err := e.node(d + 1); err != nil {
				return err
			}
		}
		done[c>>6] |= 1 << (c & 63)
	}
	e.qstack = e.qstack[:top]
	return nil
}

// node1 is node for rows of one word.
func (e *enum) node1(d int, lv *level) error {
	v := e.v
	rows, occ, off, cnt := lv.rows[:lv.n], lv.occ, lv.occOff, lv.cnt
	done, candM := lv.done[0], lv.candM[0]
	top := len(e.qstack)
	for _, c := range lv.cand {
		bit := uint64(1) << c
		if done&bit != 0 {
			continue
		}
		if err := e.tick(); err != nil {
			return err
		}
		oc := occ[off[c] : off[c]+cnt[c]]
		and, or := ^uint64(0), uint64(0)
		for _, i := range oc {
			r := rows[i]
			and &= r
			or |= r
		}
		if and&done != 0 {
			e.st.NonMaximal++
			done |= bit
			continue
		}
		e.qstack = e.qstack[:top]
		for w := and & candM; w != 0; w &= w - 1 {
			j := bits.TrailingZeros64(w)
			e.qstack = append(e.qstack, lv.item[j])
			if cnt[j] == int32(len(oc)) {
				done |= 1 << j
			}
		}
		reported := len(e.qstack) >= v.minA
		if reported {
			if err := e.reportRows(lv, oc); err != nil {
				return err
			}
		}
		active := or &^ and
		childCand := active & candM &^ done
		if childCand != 0 && len(e.qstack)+bits.OnesCount64(childCand) >= v.minA {
			ch := e.level(d + 1)
			ch.colMode = false
			ch.K, ch.n = 1, len(oc)
			ch.item = lv.item
			ch.candM = append(ch.candM[:0], childCand)
			ch.done = append(ch.done[:0], active&done)
			cr := resize(ch.rows, len(oc))
			for r, i := range oc {
				cr[r] = rows[i] & active
			}
			ch.rows = cr
			if e.emit != nil {
				ch.setTid(lv.tid, oc)
				ch.setA(e.childA(lv, reported))
			}
			if err := e.node(d + 1); err != nil {
				return err
			}
		}
		done |= bit
	}
	e.qstack = e.qstack[:top]
	return nil
}

// build fills ch with the rows oc of lv, keeping the items that occur in
// some but not all of them. Items are renumbered densely when that saves
// words per row.
func (e *enum) build(lv, ch *level, oc []int32) {
	K := lv.K
	m := 0
	for k := range lv.and {
		m += bits.OnesCount64(lv.or[k] &^ lv.and[k])
	}
	K2 := (m + 63) >> 6
	ch.colMode = false
	ch.n = len(oc)
	if e.emit != nil {
		ch.setTid(lv.tid, oc)
	}
	if K2 == K {
		ch.K, ch.item = K, lv.item
		ch.candM = resize(ch.candM, K)
		ch.done = resize(ch.done, K)
		for k := range lv.and {
			a := lv.or[k] &^ lv.and[k]
			ch.candM[k] = a & lv.candM[k] &^ lv.done[k]
			ch.done[k] = a & lv.done[k]
		}
		ch.rows = resize(ch.rows, len(oc)*K)
		for r, i := range oc {
			out := ch.rows[r*K : (r+1)*K]
			for k, w := range lv.rows[int(i)*K : int(i+1)*K] {
				out[k] = w & (lv.or[k] &^ lv.and[k])
			}
		}
		return
	}
	remap := resize(lv.remap, len(lv.item))
	lv.remap = remap
	items := resize(ch.itemBuf, m)
	ch.K = K2
	ch.candM = resize(ch.candM, K2)
	ch.done = resize(ch.done, K2)
	zero(ch.candM)
	zero(ch.done)
	nj := 0
	for k := range lv.and {
		w := lv.or[k] &^ lv.and[k]
		if w == 0 {
			continue
		}
		dw, cw := lv.done[k], lv.candM[k]
		for ; w != 0; w &= w - 1 {
			b := bits.TrailingZeros64(w)
			j := k<<6 | b
			remap[j] = int32(nj)
			items[nj] = lv.item[j]
			ch.done[nj>>6] |= (dw >> b & 1) << (nj & 63)
			ch.candM[nj>>6] |= (cw >> b & 1 &^ (dw >> b)) << (nj & 63)
			nj++
		}
	}
	ch.itemBuf, ch.item = items, items
	cnt := resize(ch.cnt, m)
	ch.cnt = cnt
	for i := range cnt {
		cnt[i] = 0
	}
	ch.counted = true
	ch.rows = resize(ch.rows, len(oc)*K2)
	if K2 == 1 {
		for r, i := range oc {
			row := lv.rows[int(i)*K : int(i+1)*K]
			o := uint64(0)
			for k, w := range row {
				w &= lv.or[k] &^ lv.and[k]
				for ; w != 0; w &= w - 1 {
					o |= 1 << remap[k<<6|bits.TrailingZeros64(w)]
				}
			}
			ch.rows[r] = o
			for c := o & ch.candM[0]; c != 0; c &= c - 1 {
				cnt[bits.TrailingZeros64(c)]++
			}
		}
		return
	}
	zero(ch.rows)
	for r, i := range oc {
		row := lv.rows[int(i)*K : int(i+1)*K]
		out := ch.rows[r*K2 : (r+1)*K2]
		for k, w := range row {
			w &= lv.or[k] &^ lv.and[k]
			for ; w != 0; w &= w - 1 {
				nj := remap[k<<6|bits.TrailingZeros64(w)]
				out[nj>>6] |= 1 << (nj & 63)
				cnt[nj]++
			}
		}
	}
}

// buildCol fills ch in column form with the rows oc (at most 64) of the
// row-form level lv, keeping the items that occur in some but not all of
// them and in at least max(minB, 2): an item in fewer rows can neither
// start a branch nor cover one. Candidates keep lv's order, so branches
// come in the same order as in row form; excluded items go to ch.ex.
func (e *enum) buildCol(lv, ch *level, oc []int32) {
	K := lv.K
	m := 0
	for k := range lv.and {
		m += bits.OnesCount64(lv.or[k] &^ lv.and[k])
	}
	remap := resize(lv.remap, len(lv.item))
	lv.remap = remap
	cols := resize(ch.cols, m)
	nj := 0
	for k := range lv.and {
		dw := lv.done[k]
		for w := lv.or[k] &^ lv.and[k]; w != 0; w &= w - 1 {
			b := bits.TrailingZeros64(w)
			j := k<<6 | b
			remap[j] = int32(nj)
			cols[nj] = colItem{item: lv.item[j], dn: dw>>b&1 != 0}
			nj++
		}
	}
	for r, i := range oc {
		bit := uint64(1) << r
		for k, w := range lv.rows[int(i)*K : int(i+1)*K] {
			for w &= lv.or[k] &^ lv.and[k]; w != 0; w &= w - 1 {
				cols[remap[k<<6|bits.TrailingZeros64(w)]].rows |= bit
			}
		}
	}
	if e.emit != nil {
		ch.setTid(lv.tid, oc)
	}
	minB := int32(max(e.v.minB, 2))
	cand, ex := ch.cand[:0], ch.ex[:0]
	n := 0
	for _, it := range cols {
		it.cnt = int32(bits.OnesCount64(it.rows))
		if it.cnt < minB {
			continue
		}
		if it.dn {
			ex = append(ex, it.rows)
			continue
		}
		cand = append(cand, int32(n))
		cols[n] = it
		n++
	}
	ch.colMode = true
	ch.cols, ch.cand, ch.ex = cols[:n], cand, e.antichain(ex)
	sortCols(ch.cand, ch.cols)
}

// antichain reduces ex, the rows of excluded items, to its maximal sets,
// in place: a branch covered by a dropped set is covered by a kept one too,
// so only those matter for the maximality check. On the synthetic graphs
// this keeps about one excluded item in ten. The sets are visited by
// decreasing size (a bucket sort: sizes are at most 64), so a set can only
// lie within one visited before it and each test is one AND-NOT.
func (e *enum) antichain(ex []uint64) []uint64 {
	var start [66]int32 // start[64-c]: first slot of size c in ord
	for _, x := range ex {
		start[65-bits.OnesCount64(x)]++
	}
	for c := 1; c < len(start); c++ {
		start[c] += start[c-1]
	}
	ord := resize(e.keepRows, len(ex))
	for _, x := range ex {
		c := 64 - bits.OnesCount64(x)
		ord[start[c]] = x
		start[c]++
	}
	e.keepRows = ord
	n := 0
next:
	for _, x := range ord {
		for _, y := range ex[:n] {
			if x&^y == 0 {
				continue next
			}
		}
		ex[n] = x
		n++
	}
	return ex[:n]
}

// antichainMin is the number of excluded items from which a child's are
// reduced to an antichain; below it the reduction costs more than the scans
// it saves.
var antichainMin = 32

// sortCols orders candidates by increasing count, stably. Insertion sort:
// candidate lists are short and often nearly sorted.
func sortCols(cand []int32, cols []colItem) {
	for i := 1; i < len(cand); i++ {
		c := cand[i]
		k := cols[c].cnt
		j := i
		for j > 0 && cols[cand[j-1]].cnt > k {
			cand[j] = cand[j-1]
			j--
		}
		cand[j] = c
	}
}

// nodeCol is node for a level in column form. For candidate c with rows
// oc, the branch is not maximal if an excluded set (lv.ex) contains oc.
// Otherwise a candidate whose rows contain oc is in the closure; one
// meeting oc in fewer rows, but in at least max(minB, 2), may extend it
// below; and the child takes the intersections as its columns, and those of
// the excluded sets as its excluded sets. cols holds candidates only (dn
// once branched on or repeating a branch, their rows then in lv.ex).
func (e *enum) nodeCol(d int, lv *level) error {
	v := e.v
	minB := int32(max(v.minB, 2))
	top := len(e.qstack)
	cols := lv.cols
	for _, c := range lv.cand {
		if cols[c].dn {
			continue // same rows as an earlier candidate
		}
		if err := e.tick(); err != nil {
			return err
		}
		oc, n := cols[c].rows, cols[c].cnt
		nonmax := false
		for _, y := range lv.ex {
			if oc&^y == 0 {
				nonmax = true
				break
			}
		}
		if nonmax {
			e.st.NonMaximal++
			cols[c].dn = true
			continue
		}
		ch := e.level(d + 1)
		ccols := ch.cols[:0]
		cand := ch.cand[:0]
		e.qstack = e.qstack[:top]
		for j := range cols {
			it := &cols[j]
			if it.dn {
				continue // its rows are in lv.ex
			}
			x := it.rows & oc
			if x == 0 {
				continue
			}
			p := int32(bits.OnesCount64(x))
			if p == n {
				e.qstack = append(e.qstack, it.item)
				if it.cnt == n {
					it.dn = true // its branch would repeat this one
				}
				continue
			}
			if p < minB {
				continue
			}
			cand = append(cand, int32(len(ccols)))
			ccols = append(ccols, colItem{rows: x, item: it.item, cnt: p})
		}
		reported := len(e.qstack) >= v.minA
		if reported {
			if err := e.reportBits(lv, oc); err != nil {
				return err
			}
		}
		if len(cand) > 0 && len(e.qstack)+len(cand) >= v.minA {
			ex := ch.ex[:0]
			for _, y := range lv.ex {
				if x := y & oc; bits.OnesCount64(x) >= int(minB) {
					ex = append(ex, x)
				}
			}
			if len(ex) > antichainMin {
				ex = e.antichain(ex)
			}
			ch.tid = lv.tid
			ch.colMode = true
			ch.cols, ch.cand, ch.ex = ccols, cand, ex
			sortCols(ch.cand, ch.cols)
			if e.emit != nil {
				ch.setA(e.childA(lv, reported))
			}
			if err := e.nodeCol(d+1, ch); err != nil {
				return err
			}
		}
		cols[c].dn = true
		lv.ex = append(lv.ex, oc)
	}
	e.qstack = e.qstack[:top]
	return nil
}

// reportBits emits the current A part with the B vertices of the rows in
// the bitset oc of a level in column form.
func (e *enum) reportBits(lv *level, oc uint64) error {
	if e.emit == nil {
		e.st.Bicliques++
		return nil
	}
	b := e.outB[:0]
	for ; oc != 0; oc &= oc - 1 {
		b = append(b, lv.tid[bits.TrailingZeros64(oc)])
	}
	e.outB = b
	return e.report(e.sortA(lv.aSorted), b)
}

// setTid fills the level's own tid storage with the B vertices of rows oc
// of a parent whose rows map to tid.
func (lv *level) setTid(tid []uint32, oc []int32) {
	ct := resize(lv.tidBuf, len(oc))
	for r, i := range oc {
		ct[r] = tid[i]
	}
	lv.tidBuf, lv.tid = ct, ct
}
