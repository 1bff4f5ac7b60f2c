package synth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/mining"
	"github.com/leaper-dev/leaper/query"
	"github.com/leaper-dev/leaper/task"
)

var errEnough = errors.New("enough groups")

// Union operations (Options.Op): the query package's.
const (
	OpUnion      = task.OpUnion
	OpIntersect  = task.OpIntersect
	OpDifference = task.OpDifference
	OpCount      = task.OpCount
	OpCompare    = task.OpCompare
)

// Ops lists the union operations, in the order Options.Op accepts them.
var Ops = []string{OpUnion, OpIntersect, OpDifference, OpCount, OpCompare}

const (
	// maxGroupTrees bounds the trees of a union group a task draws from.
	maxGroupTrees = 64
	// maxUnionTrees bounds the trees of one union task (the question names
	// each of them).
	maxUnionTrees = 12
	// minUnionPages is the fewest pages a union spans (fewer, down to
	// three, only now and then, for stores without larger groups): a
	// policy that visits the first hits of one search should not see them
	// all.
	minUnionPages = 6
	// minWideBases is how many themes of unionPages pages a store must
	// have for unions to span that many.
	minWideBases = 20
	// maxSpace bounds a union space; larger unions lose their last trees.
	maxSpace = 1000
)

// unionBases mines maximal union groups (WebLeaper App. A.5: maximal
// bicliques of trees × relations with at least 2 trees and 2 relations,
// split by the key column's datatype and domain) within each theme of
// trees (see themes: editions of one recurring page, or pages of one
// series), and returns each group's trees (positions in s.trees, sorted)
// once, groups of a single page left out. A union is thereby of tables
// that share a theme a question can name, not only a key class and two
// relations. Groups are sorted, so the order does not depend on the
// enumeration.
func (s *synth) unionBases(ctx context.Context) ([][]int, error) {
	var all []int // a union of cut tables would not be "all" of anything
	for i, t := range s.trees {
		if !t.Cut || s.o.Cut {
			all = append(all, i)
		}
	}
	seen := map[string]bool{}
	var out [][]int
	for _, th := range s.themes(all) {
		adj := make([][]uint32, len(th))
		numRight := 0
		for i, ti := range th {
			var rs []uint32
			for _, c := range s.trees[ti].Columns {
				rs = append(rs, c.Relation)
				numRight = max(numRight, int(c.Relation)+1)
			}
			slices.Sort(rs)
			adj[i] = slices.Compact(rs)
		}
		mg, err := mining.NewBipartite(adj, numRight)
		if err != nil {
			return nil, err
		}
		_, err = mining.Bicliques(ctx, mg, &mining.Options{MinLeft: 2, MinRight: 2}, func(left, _ []uint32) error {
			// Split by key datatype and domain (the semantic check of Algorithm 1).
			parts := map[string][]int{}
			var names []string
			for _, l := range left {
				t := s.trees[th[l]]
				k := string(t.KeyDatatype) + "/" + t.KeyDomain
				if parts[k] == nil {
					names = append(names, k)
				}
				parts[k] = append(parts[k], th[l])
			}
			slices.Sort(names)
			for _, k := range names {
				p := parts[k]
				if len(p) < 2 {
					continue
				}
				s.groups++
				slices.Sort(p)
				if pages(s, p) < 2 {
					continue
				}
				if len(p) > maxGroupTrees {
					p = p[:maxGroupTrees]
				}
				var b strings.Builder
				for _, i := range p {
					b.WriteString(strconv.Itoa(i))
					b.WriteByte(',')
				}
				if !seen[b.String()] {
					seen[b.String()] = true
					out = append(out, p)
				}
				if s.groups >= s.o.MaxGroups {
					return errEnough
				}
			}
			return nil
		})
		if errors.Is(err, errEnough) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, slices.Compare[[]int])
	// A store without groups of minUnionPages pages: its largest groups
	// take their place.
	// The pages a union spans: minUnionPages, or fewer on a store with
	// fewer than minWideBases themes that wide (the largest that many of
	// its themes reach, at least two).
	s.unionPages = 2
	for p := minUnionPages; p > 2; p-- {
		n := 0
		for _, b := range out {
			if pages(s, b) >= p {
				n++
			}
		}
		if n >= minWideBases {
			s.unionPages = p
			break
		}
	}
	if s.o.Logger.Enabled(ctx, slog.LevelDebug) {
		h := map[int]int{} // pages → bases
		for _, p := range out {
			h[pages(s, p)]++
		}
		s.o.Logger.Debug("synth: union bases", "groups", s.groups, "bases", len(out), "pages", fmt.Sprint(h))
	}
	return out, nil
}

// byPage returns group's trees in random order, one tree per page first,
// then the others.
func (s *synth) byPage(group []int, rng *rand.Rand) []int {
	g := slices.Clone(group)
	rng.Shuffle(len(g), func(i, j int) { g[i], g[j] = g[j], g[i] })
	seen := map[string]bool{}
	var first, rest []int
	for _, i := range g {
		if u := s.trees[i].PageURL; !seen[u] {
			seen[u] = true
			first = append(first, i)
		} else {
			rest = append(rest, i)
		}
	}
	return append(first, rest...)
}

// unionOf chooses up to k trees of a group, each of a different page (a
// page shows all its tables in one visit), and the union of their keys,
// dropping trees while the union exceeds maxSpace.
func (s *synth) unionOf(group []int, k int, rng *rand.Rand) ([]int, *roaring.Bitmap) {
	var order []int
	seen := map[string]bool{}
	for _, i := range s.byPage(group, rng) {
		if !seen[s.trees[i].PageURL] {
			seen[s.trees[i].PageURL] = true
			order = append(order, i)
		}
	}
	if len(order) > k {
		order = order[:k]
	}
	for {
		u := roaring.New()
		for _, i := range order {
			u.Or(s.keys[i])
		}
		if u.GetCardinality() <= maxSpace || len(order) <= 2 {
			slices.Sort(order)
			return order, u
		}
		order = order[:len(order)-1]
	}
}

// unionSize draws how many trees a union spans: four more than the usual
// fewest pages (unionPages) up to maxUnionTrees, at least MinTrees; a
// group of fewer pages gives fewer.
func (s *synth) unionSize(rng *rand.Rand) int {
	lo := min(maxUnionTrees, max(s.unionPages+4, s.o.MinTrees))
	return lo + rng.IntN(max(1, maxUnionTrees-lo+1))
}

// meets returns, for tree a, the trees of group on other pages whose keys
// meet a's in at least 3 entities without containing them or being
// contained, in random order.
func (s *synth) meets(group []int, a int, rng *rand.Rand) []int {
	var out []int
	na := s.keys[a].GetCardinality()
	for _, b := range group {
		if b == a || s.trees[b].PageURL == s.trees[a].PageURL {
			continue
		}
		n := s.keys[a].AndCardinality(s.keys[b])
		if n >= 3 && n < na && n < s.keys[b].GetCardinality() {
			out = append(out, b)
		}
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// opSpace is a union task's key set and how the formalization scopes "?".
type opSpace struct {
	op    string
	trees []int // the trees of the set: for difference, the first is kept and the others excluded
	keys  *roaring.Bitmap
}

func (sp *opSpace) triples(s *synth, v task.Term) []task.Triple {
	ids := func(ix []int) []uint32 {
		out := make([]uint32, len(ix))
		for i, x := range ix {
			out[i] = s.trees[x].ID
		}
		return out
	}
	var out []task.Triple
	switch sp.op {
	case OpIntersect:
		for _, id := range ids(sp.trees) {
			t := inTree(id)
			t.S = v
			out = append(out, t)
		}
	case OpDifference:
		t := inTree(s.trees[sp.trees[0]].ID)
		t.S = v
		n := inTree(ids(sp.trees[1:])...)
		n.S, n.R = v, "not_in_tree"
		out = append(out, t, n)
	default:
		t := inTree(ids(sp.trees)...)
		t.S = v
		out = append(out, t)
	}
	return out
}

// space chooses the trees and keys of an operation over a union group;
// ok is false when the group has no non-trivial set for it.
func (s *synth) space(group []int, op string, rng *rand.Rand) (*opSpace, bool) {
	switch op {
	case OpIntersect, OpDifference:
		order := s.byPage(group, rng)
		for _, a := range order[:min(len(order), 8)] {
			bs := s.meets(group, a, rng)
			if len(bs) == 0 {
				continue
			}
			b := bs[0]
			sp := &opSpace{op: op, trees: []int{a, b}}
			if op == OpIntersect {
				sp.keys = roaring.And(s.keys[a], s.keys[b])
			} else {
				sp.keys = roaring.AndNot(s.keys[a], s.keys[b])
			}
			// A third tree half of the time, or when asked for.
			if len(bs) > 1 && (rng.IntN(2) == 0 || s.o.MinTrees >= 3) {
				for _, c := range bs[1:] {
					if s.trees[c].PageURL == s.trees[b].PageURL {
						continue
					}
					var next *roaring.Bitmap
					if op == OpIntersect {
						next = roaring.And(sp.keys, s.keys[c])
					} else {
						next = roaring.AndNot(sp.keys, s.keys[c])
					}
					if n := next.GetCardinality(); n >= 3 && n < sp.keys.GetCardinality() {
						sp.trees, sp.keys = append(sp.trees, c), next
						break
					}
				}
			}
			if n := sp.keys.GetCardinality(); n < 3 || n >= s.keys[a].GetCardinality() {
				continue
			}
			return sp, true
		}
		return nil, false
	default:
		trees, keys := s.unionOf(group, s.unionSize(rng), rng)
		if len(trees) < 2 {
			return nil, false
		}
		return &opSpace{op: OpUnion, trees: trees, keys: keys}, true
	}
}

// chooseOp is Options.Op, or one drawn by the seed: unions most often, as
// they span the most pages, counts and comparisons a twentieth each; a group of fewer than minUnionPages pages
// gives an intersection or a difference a third of the time, else
// nothing (""), so that unions are not crowded out.
func (s *synth) chooseOp(group []int, rng *rand.Rand) string {
	if s.o.Op != "" {
		return s.o.Op
	}
	pages := map[string]bool{}
	for _, i := range group {
		pages[s.trees[i].PageURL] = true
	}
	if len(pages) < s.unionPages {
		switch rng.IntN(6) {
		case 0:
			return OpIntersect
		case 1:
			return OpDifference
		case 2:
			return OpUnion
		}
		return ""
	}
	switch r := rng.IntN(20); {
	case r < 13:
		return OpUnion
	case r < 16:
		return OpIntersect
	case r < 18:
		return OpDifference
	case r < 19:
		return OpCount
	default:
		return OpCompare
	}
}

// sharedCols are the columns of ts[0] whose relation every tree of ts has
// once, and which every key has a value of somewhere in the store (else
// the key would fall out of the answer). Columns whose facts also agree
// with the tables (consistent) come first.
func (s *synth) sharedCols(ts []*graph.Tree, keys []uint32) ([]int, error) {
	good, wide, err := s.sharedColsSplit(ts, keys)
	return append(good, wide...), err
}

// sharedColsSplit is sharedCols in two: the consistent columns, and those
// whose store-wide values go beyond the tables (read on other pages).
func (s *synth) sharedColsSplit(ts []*graph.Tree, keys []uint32) (good, wide []int, err error) {
	k := treesKeys(ts, keys)
	if c, ok := s.splits[k]; ok {
		return slices.Clone(c[0]), slices.Clone(c[1]), nil
	}
	if good, wide, err = s.splitShared(ts, keys); err != nil {
		return nil, nil, err
	}
	if s.splits == nil {
		s.splits = map[string][2][]int{}
	}
	s.splits[k] = [2][]int{good, wide}
	return slices.Clone(good), slices.Clone(wide), nil
}

// treesKeys names trees ts, in their order, and a set of keys: the
// identity of a draw over a theme, which later rounds draw again.
func treesKeys(ts []*graph.Tree, keys []uint32) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(strconv.FormatUint(uint64(t.ID), 10) + ",")
	}
	b.WriteString(";" + keySet(keys))
	return b.String()
}

// splitShared is sharedColsSplit, computed.
func (s *synth) splitShared(ts []*graph.Tree, keys []uint32) (good, wide []int, err error) {
	var other []int
	for i, c := range ts[0].Columns {
		ok := true
		for _, t := range ts {
			n := 0
			for _, oc := range t.Columns {
				if oc.Name == c.Name {
					n++
				}
			}
			if n != 1 {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if r, err := s.readable(ts[0], i); err != nil || !r {
			if err != nil {
				return nil, nil, err
			}
			continue
		}
		cons, err := s.consistent(ts, c.Name, keys)
		if err != nil {
			return nil, nil, err
		}
		if cons {
			good = append(good, i)
			continue
		}
		covered, err := s.covered(c.Name, keys)
		if err != nil {
			return nil, nil, err
		}
		if !covered {
			continue
		}
		// Values from other trees only where they agree with the
		// tables': a club's manager of another season is no answer.
		if own, err := s.ownAttr(c.Header, keys); err != nil {
			return nil, nil, err
		} else if !own {
			continue
		}
		if st, err := s.stable(c.Name, keys); err != nil {
			return nil, nil, err
		} else if st {
			other = append(other, i)
		}
	}
	return good, other, nil
}

// covered reports whether every key has exactly one value of rel in the
// store: a value read beyond the tables must be the key's own, and of
// several ("Melbourne; Victoria" for a club's city) a reader cannot tell
// which.
func (s *synth) covered(rel string, keys []uint32) (bool, error) {
	for _, k := range keys {
		v, err := s.objects(rel, k)
		if err != nil {
			return false, err
		}
		if len(v) != 1 {
			return false, nil
		}
	}
	return true, nil
}

// keyRels returns the relations of the trees where k is a key (layer 2),
// with the tree positions, cached.
func (s *synth) keyRels(k uint32) (map[string][]int, error) {
	if m, ok := s.krels[k]; ok {
		return m, nil
	}
	trees, err := s.g.TreesOfEntity(k)
	if err != nil {
		return nil, err
	}
	m := map[string][]int{}
	it := trees.Iterator()
	for n := 0; it.HasNext() && n < 64; n++ {
		ti, ok := s.index[it.Next()]
		if !ok || !s.keys[ti].Contains(k) {
			continue
		}
		for _, c := range s.trees[ti].Columns {
			m[c.Name] = append(m[c.Name], ti)
		}
	}
	s.krels[k] = m
	return m, nil
}

// oneHop picks a relation every key has in some tree outside ts (WebShaper
// layer-wise expansion through the graph: the value is on the key's own
// page or another tree's), none of ts's; ok false when none.
func (s *synth) oneHop(ts []*graph.Tree, keys []uint32, rng *rand.Rand) (column, bool, error) {
	if len(keys) == 0 || len(keys) > maxSpace {
		return column{}, false, nil
	}
	own := map[string]bool{}
	ownW := map[string]bool{}
	for _, t := range ts {
		for _, c := range t.Columns {
			own[c.Name] = true
		}
		for w := range ownWords(t) {
			ownW[w] = true
		}
	}
	count := map[string]int{}
	header := map[string]string{}
	for _, k := range keys {
		m, err := s.keyRels(k)
		if err != nil {
			return column{}, false, err
		}
		for r, tis := range m {
			if own[r] {
				continue
			}
			count[r]++
			if _, ok := header[r]; !ok {
				t := s.trees[tis[0]]
				header[r] = t.Columns[colIndex(t, r)].Header
			}
		}
	}
	var cands []string
	for r, n := range count {
		if n != len(keys) || sharesWord(r, ownW) || !plainHeader(header[r], true) {
			continue
		}
		if ok, err := s.covered(r, keys); err != nil {
			return column{}, false, err
		} else if !ok {
			continue
		}
		if own, err := s.ownAttr(header[r], keys); err != nil {
			return column{}, false, err
		} else if !own {
			continue
		}
		if ok, err := s.stable(r, keys); err != nil {
			return column{}, false, err
		} else if ok {
			cands = append(cands, r)
		}
	}
	if len(cands) == 0 {
		return column{}, false, nil
	}
	slices.Sort(cands)
	r := cands[rng.IntN(len(cands))]
	return column{rel: r, header: header[r]}, true, nil
}

func (s *synth) baseTrees(base []int) []*graph.Tree {
	ts := make([]*graph.Tree, len(base))
	for i, b := range base {
		ts[i] = s.trees[b]
	}
	return ts
}

// unionNoun names keys of several trees: the first tree's noun when the
// others agree; else the one noun the trees whose key header names a
// kind agree on ("Film title used in nomination" beside "Title": films,
// the theme's); else the domain's.
func unionNoun(ts []*graph.Tree) noun {
	n := keyNoun(ts[0])
	if !slices.ContainsFunc(ts[1:], func(t *graph.Tree) bool { return keyNoun(t) != n }) {
		return n
	}
	var named noun
	for _, t := range ts {
		if genericKey(t) {
			continue
		}
		if kn := keyNoun(t); named.one == "" {
			named = kn
		} else if kn != named {
			named = noun{}
			break
		}
	}
	if named.one != "" {
		return named
	}
	if dn, ok := domainNoun(ts[0]); ok {
		return dn
	}
	return noun{"entry", "entries"}
}

// mergedTree is a tree with ts[0]'s columns and the rows of every tree of
// ts (columns matched by relation), for choosing a filter over a union.
func mergedTree(ts []*graph.Tree) *graph.Tree {
	m := *ts[0]
	m.Rows = nil
	for _, t := range ts {
		idx := make([]int, len(m.Columns))
		for i, c := range m.Columns {
			idx[i] = colIndex(t, c.Name)
		}
		for _, r := range t.Rows {
			row := graph.Row{Key: r.Key, Values: make([][]uint32, len(m.Columns))}
			for i, j := range idx {
				if j >= 0 {
					row.Values[i] = r.Values[j]
				}
			}
			m.Rows = append(m.Rows, row)
		}
	}
	return &m
}

// plainColumns are plainColumn's verdicts on columns cols of mt, the
// trees ts merged, for keys. A theme's trees are drawn again and again:
// the verdicts are kept per trees and keys.
func (s *synth) plainColumns(ts []*graph.Tree, mt *graph.Tree, cols []int, keys []uint32) map[int]bool {
	plain := memo(&s.unionPlain, treesKeys(ts, keys), func(string) map[int]bool { return map[int]bool{} })
	for _, c := range cols {
		if _, ok := plain[c]; !ok {
			plain[c] = s.plainColumn(mt, c, keys)
		}
	}
	return plain
}

// union drafts a Version-II task over a maximal union group: a union of
// as many trees as unionSize draws (optionally filtered on a shared
// relation), an intersection or a difference of trees of different pages,
// or a count or comparison;
// the requested columns are shared relations and, often, one relation the
// keys have only outside the task's trees (one hop).
func (s *synth) union(ctx context.Context, group []int, rng *rand.Rand) (*draft, string, error) {
	op := s.chooseOp(group, rng)
	if op == "" {
		return nil, DropSmall, nil
	}
	setOp := op
	if op == OpCount || op == OpCompare {
		setOp = OpUnion
	}
	sp, ok := s.space(group, setOp, rng)
	if !ok {
		return nil, DropSmall, nil
	}
	// A union of a few pages is one a few visits cover: unions span at
	// least unionPages pages; smaller themes give intersections and
	// differences.
	if sp.op == OpUnion && pages(s, sp.trees) < s.unionPages {
		return nil, DropSmall, nil
	}
	if len(sp.trees) < s.o.MinTrees {
		return nil, DropMinTrees, nil
	}
	ts := s.baseTrees(sp.trees)
	keys := sp.keys.ToArray()
	if s.markedKeys(ts) {
		return nil, DropNoName, nil
	}
	if mixedKeys(ts) {
		return nil, DropNoTheme, nil
	}
	good, wide, err := s.sharedColsSplit(ts, keys)
	if err != nil {
		return nil, "", err
	}
	cols := append(slices.Clone(good), wide...)
	mt := mergedTree(ts)
	plain := s.plainColumns(ts, mt, cols, keys)
	cols = slices.DeleteFunc(cols, func(c int) bool { return !plain[c] })
	wide = slices.DeleteFunc(wide, func(c int) bool { return !plain[c] })
	// An intersection or a difference shows all its keys on one page: it
	// asks for at least one column read beyond the task's tables.
	needBeyond := sp.op != OpUnion
	hop, hasHop := column{}, false
	if rng.IntN(3) > 0 || len(cols) == 0 || needBeyond {
		if hop, hasHop, err = s.oneHop(ts, keys, rng); err != nil {
			return nil, "", err
		}
	}
	if len(cols) == 0 && !hasHop || needBeyond && !hasHop && len(wide) == 0 {
		return nil, DropNoColumns, nil
	}
	d := &draft{variant: task.Union, trees: ts, keyNoun: unionNoun(ts), keyHeader: ts[0].KeyHeader}
	d.triples = sp.triples(s, task.Term{Target: true})
	f := filter{col: -1}
	if sp.op == OpUnion && op != OpCompare && len(cols) > 0 && (s.o.Expand > 0 || rng.IntN(3) == 0) {
		var ok bool
		nslots := len(d.slots)
		// The filter's value is said as the trees write it, the first
		// tree's first ("Yugoslavia" for Socialist Federal Republic of
		// Yugoslavia), as the answer's rows are (shownNames). Only here:
		// mergedTree's first-tree forms are what plainColumns judged.
		ft := *mt
		ft.Shown = shownNames(ts)
		f, ok, err = s.chooseFilter(d, &ft, keys, cols, rng, s.o.Expand > 0)
		if err != nil {
			return nil, "", err
		}
		if ok && !spreadOver(ts, ts[0].Columns[f.col].Name, f.ids) {
			// A filter whose keys one page holds (a town of one county)
			// would make the union one table: left out.
			d.slots = d.slots[:nslots]
			ok = false
		}
		if ok {
			d.triples = append(d.triples, f.triple)
			d.keep = append(d.keep, f.keep...)
			d.given = append(d.given, f.static)
		} else {
			f = filter{col: -1}
		}
	}
	d.cols = chooseCols(d, ts[0], cols, f.col, rng)
	if needBeyond && !hasHop && !slices.ContainsFunc(d.cols, func(c column) bool {
		return slices.Contains(wide, colIndex(ts[0], c.rel))
	}) {
		c := ts[0].Columns[wide[rng.IntN(len(wide))]]
		d.cols = append(d.cols, column{rel: c.Name, header: c.Header, v: d.newVar(words(c.Header))})
	}
	if hasHop {
		hop.v = d.newVar(words(hop.header))
		d.cols = append(d.cols, hop)
	}
	if len(d.cols) == 0 {
		return nil, DropNoColumns, nil
	}
	d.triples = append(d.triples, colTriples(d.cols)...)
	// The trees are named by their theme, never listed page by page.
	descs := make([]string, len(ts))
	for i, t := range ts {
		descs[i], _ = themePhrase([]*graph.Tree{t}, list, s.alonePage)
	}
	anyOf, ok1 := themePhrase(ts, orList, s.alonePage)
	allSets, ok2 := themePhrase(ts, list, s.alonePage)
	restOr, ok3 := themePhrase(ts[1:], orList, s.alonePage)
	restAll, ok4 := themePhrase(ts[1:], list, s.alonePage)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return nil, DropNoTheme, nil
	}
	d.given = append(d.given, anyOf, allSets, restOr, restAll)
	d.given = append(d.given, descs...)
	cw := s.valueWords(d.cols, d.trees, colWords(d.cols, d.trees))
	d.given = append(d.given, cw...)
	var tpl []string
	kv := []string{"many", d.keyNoun.many, "one", d.keyNoun.one, "filter", f.phrase, "cols", list(cw)}
	switch sp.op {
	case OpIntersect:
		tpl = intersectTemplates
		all := "each of " + allSets
		if len(ts) == 2 {
			all = "both " + allSets
		}
		kv = append(kv, "sets", allSets, "all", all, "a", descs[0], "rest", restAll)
	case OpDifference:
		tpl = differenceTemplates
		kv = append(kv, "a", descs[0], "rest", restOr)
	default:
		tpl = unionTemplates
		kv = append(kv, "sets", anyOf)
	}
	d.question = fill(pick(rng, filtered(tpl, f.phrase)), kv...)
	if op == OpCount {
		d.agg = &query.AggFunc{Op: task.AggCount, Vars: []string{query.TargetVar}}
		// "Also say how many films there are" after a filter reads as
		// every film of the lists (round 163's tracks, in Basic)
		d.question += " " + pick(rng, []string{"How many " + d.keyNoun.many + " is that in total?",
			"Also say how many of them there are.", "How many such " + d.keyNoun.many + " are there?"})
	}
	if op == OpCompare {
		sentence, ok := s.compare(d, sp, descs, rng)
		if !ok {
			return nil, DropAggregate, nil
		}
		d.question += " " + sentence
	}
	d.op = op
	return d, "", nil
}

// compareTemplates ask how many more keys set a has than set b; {either}
// names both in an order drawn by the seed.
var compareTemplates = []string{
	"How many more {many} does {a} record than {b}?",
	"Which records more {many}, {either}, and by how many?",
	"By how many does the number of {many} in {a} exceed that in {b}?",
}

// compare chooses two trees of a union space with different numbers of
// keys, the larger first, and sets the draft's aggregate to the
// difference of their counts over the answer (countdiff), which must be
// the difference of the trees' own key counts: every key of both falls in
// the answer. It returns the question's sentence; ok is false when every
// pair ties or the two concepts read the same.
func (s *synth) compare(d *draft, sp *opSpace, descs []string, rng *rand.Rand) (string, bool) {
	type pair struct{ a, b int }
	var pairs []pair
	for i := range sp.trees {
		for j := i + 1; j < len(sp.trees); j++ {
			pairs = append(pairs, pair{i, j})
		}
	}
	rng.Shuffle(len(pairs), func(x, y int) { pairs[x], pairs[y] = pairs[y], pairs[x] })
	for _, p := range pairs {
		na, nb := s.keys[sp.trees[p.a]].GetCardinality(), s.keys[sp.trees[p.b]].GetCardinality()
		if na == nb || descs[p.a] == descs[p.b] {
			continue
		}
		if na < nb {
			p.a, p.b, na, nb = p.b, p.a, nb, na
		}
		a, b := descs[p.a], descs[p.b]
		either := []string{a, b}
		if rng.IntN(2) == 0 {
			either[0], either[1] = b, a
		}
		d.agg = &query.AggFunc{Op: task.AggCountDiff, Vars: []string{query.TargetVar},
			Trees: []uint32{s.trees[sp.trees[p.a]].ID, s.trees[sp.trees[p.b]].ID}}
		d.aggWant = strconv.FormatUint(na-nb, 10)
		return fill(pick(rng, compareTemplates), "many", d.keyNoun.many, "a", a, "b", b, "either", orList(either)), true
	}
	return "", false
}

// reverse drafts a Version-III task (WebLeaper App. A.6.3): the union space
// of a group's trees (as many as unionSize draws); an anchor at the
// intersection of the group (a key of two or more of its trees)
// described only by clues — its third-layer facts, anywhere in the store
// — that single it out in the space (checked with bitmaps, then with the engine); a pivot relation of
// the anchor chosen so that many keys of the space share its value; and as
// targets every key of the space that does. The anchor is never named.
func (s *synth) reverse(ctx context.Context, group []int, rng *rand.Rand) (*draft, string, error) {
	base, space := s.unionOf(group, s.unionSize(rng), rng)
	if len(base) < s.o.MinTrees {
		return nil, DropMinTrees, nil
	}
	// Spaces of unionPages pages or more (minUnionPages, on a store with
	// enough themes that wide):
	// unions of many pages are the ones a few visits do not cover.
	if len(base) < 2 || pages(s, base) < s.unionPages {
		return nil, DropSmall, nil
	}
	if space.GetCardinality() < 4 {
		return nil, DropSmall, nil
	}
	ts := s.baseTrees(base)
	if s.markedKeys(ts) {
		return nil, DropNoName, nil
	}
	if mixedKeys(ts) {
		return nil, DropNoTheme, nil
	}
	keys := space.ToArray()
	// Anchors: keys of two or more of the trees (else any key).
	var anchors []uint32
	for _, key := range keys {
		n := 0
		for _, b := range base {
			if s.keys[b].Contains(key) {
				n++
			}
		}
		if n >= 2 {
			anchors = append(anchors, key)
		}
	}
	if len(anchors) == 0 {
		anchors = keys
	}
	rng.Shuffle(len(anchors), func(i, j int) { anchors[i], anchors[j] = anchors[j], anchors[i] })
	if len(anchors) > 24 {
		anchors = anchors[:24]
	}
	good, rels, err := s.pivots(ts, base, space, anchors)
	if err != nil || len(good) == 0 {
		return nil, DropSmall, err
	}
	pc := good[rng.IntN(len(good))]
	clues, err := s.clues(base, space, pc.anchor, pc.rel, rng)
	if err != nil {
		return nil, "", err
	}
	if clues == nil {
		return nil, DropNotUnique, nil
	}
	return s.reverseDraft(ctx, ts, base, space, pc, clues, rels, rng)
}

// pivotCand is a Reverse-Union pivot: an anchor, its value of a relation,
// and the keys of the space that share it.
type pivotCand struct {
	anchor, value uint32
	rel           string
	share         uint64
	pages         int      // pages holding targets (none holds over half)
	targets       []uint32 // the keys of the space with the value
}

// pivots returns up to three pivots for anchors of the union space of
// trees base (ts), the best first: relations of the trees the anchor has
// one value of, shared by several keys of the space spread over its pages,
// whose values are the tables' own for every target; and the headers of
// the trees' relations by name.
func (s *synth) pivots(ts []*graph.Tree, base []int, space *roaring.Bitmap, anchors []uint32) ([]pivotCand, map[string]string, error) {
	// Pivots: relations of the trees the anchor has one value of; the
	// share is how many keys of the space have that value too.
	rels := map[string]string{}
	var relNames []string
	for _, t := range ts {
		for _, c := range t.Columns {
			if c.Datatype == graph.TypeNumber || audit.RawHeader(c.Header) {
				continue
			}
			if _, ok := rels[c.Name]; !ok {
				rels[c.Name] = c.Header
				relNames = append(relNames, c.Name)
			}
		}
	}
	slices.Sort(relNames)
	var cands []pivotCand
	// A theme's trees and space are drawn again and again: each anchor's
	// pivot per relation is kept for them.
	kept := memo(&s.pivotsOf, treesKeys(ts, space.ToArray()), func(string) map[anchorRel]*pivotCand { return map[anchorRel]*pivotCand{} })
	for _, a := range anchors {
		for _, r := range relNames {
			c, ok := kept[anchorRel{a, r}]
			if !ok {
				var err error
				if c, err = s.pivot(base, space, a, r); err != nil {
					return nil, nil, err
				}
				kept[anchorRel{a, r}] = c
			}
			if c != nil {
				cands = append(cands, *c)
			}
		}
	}
	if len(cands) == 0 {
		return nil, rels, nil
	}
	// Targets on the most pages, then the largest shares; one drawn among
	// the best few.
	slices.SortStableFunc(cands, func(x, y pivotCand) int {
		if x.pages != y.pages {
			return y.pages - x.pages
		}
		switch {
		case x.share > y.share:
			return -1
		case x.share < y.share:
			return 1
		}
		return 0
	})
	// The pivot's values must be the tables' own for every target: a key
	// whose named table gives another value, and that some other tree
	// gives the anchor's, is no answer.
	var good []pivotCand
	for _, c := range cands {
		if len(good) == 3 {
			break
		}
		if s.o.PerAnswer > 0 && s.taken[keySet(c.targets)] >= s.o.PerAnswer {
			continue // its answer is given enough: another pivot or anchor
		}
		ok, err := s.consistent(ts, c.rel, c.targets)
		if err != nil {
			return nil, nil, err
		}
		if ok && s.plainPivot(ts, c.rel, space) && !s.mentioned(ts, c.rel, c.value) {
			good = append(good, c)
		}
	}
	return good, rels, nil

}

// anchorRel is an anchor and a relation of it.
type anchorRel struct {
	a uint32
	r string
}

// pivot is anchor a's pivot on relation r over the space of trees base,
// or nil: a's one value of r, shared by at least three keys of the space
// (not all) spread over its pages.
func (s *synth) pivot(base []int, space *roaring.Bitmap, a uint32, r string) (*pivotCand, error) {
	v, err := s.objects(r, a)
	if err != nil {
		return nil, err
	}
	if len(v) != 1 || placeholder(s.name(v[0])) {
		return nil, nil
	}
	sub, err := s.subjects(r, v[0])
	if err != nil {
		return nil, err
	}
	share := sub.AndCardinality(space)
	if share < 3 || share >= space.GetCardinality() {
		return nil, nil
	}
	// Spread: the targets off the page that holds the most of them, so
	// that no one page shows nearly all.
	most := map[string]uint64{}
	for _, b := range base {
		most[s.trees[b].PageURL] = max(most[s.trees[b].PageURL], s.keys[b].AndCardinality(sub))
	}
	top, sum := uint64(0), uint64(0)
	for _, m := range most {
		top = max(top, m)
		sum += m
	}
	if spread := int(min(share, sum) - top); spread < 2 || 2*top > sum {
		return nil, nil
	}
	pages := 0
	for _, m := range most {
		if m > 0 {
			pages++
		}
	}
	return &pivotCand{a, v[0], r, share, pages, roaring.And(sub, space).ToArray()}, nil
}

// mentioned reports whether a cell of the pivot's column in trees ts
// names the pivot's value v among other words ("Not Nominated" beside
// "Nominated", "French, Hebrew" beside French language): a reader
// cannot tell whether that key shares it, and the auditor refuses the
// task. Another pivot is drawn instead.
func (s *synth) mentioned(ts []*graph.Tree, rel string, v uint32) bool {
	return slices.ContainsFunc(ts, func(t *graph.Tree) bool {
		return memo(&s.mentions, mention{t.ID, rel, v}, func(mention) bool { return s.mentionedIn(t, rel, v) })
	})
}

// mention is a tree, a relation and a value: what mentioned asks of
// each tree.
type mention struct {
	tree uint32
	rel  string
	v    uint32
}

// mentionedIn is mentioned of one tree.
func (s *synth) mentionedIn(t *graph.Tree, rel string, v uint32) bool {
	es, err := s.entities([]uint32{v})
	if err != nil || es[v] == nil {
		return true // unknown: not a pivot to ask of
	}
	// Its title among other words, or a text the tables write for it as an
	// item of a list ("French" for French language, in a cell "French,
	// Hebrew"; not "Cleveland" in "Cleveland Heights, Ohio").
	e := es[v]
	for cc := range columnCells([]*graph.Tree{t}, rel) {
		if cc.value == v {
			continue
		}
		cell := s.name(cc.value)
		if audit.Mentions(cell, e.Name) || slices.ContainsFunc(e.Aliases, func(al string) bool { return audit.Lists(cell, al) }) {
			return true
		}
	}
	return false
}

// clueFact is a fact of a Reverse-Union anchor the question states.
type clueFact struct {
	rel, header string
	v           uint32
}

// clues chooses up to three facts of anchor, read in its rows of the
// trees base (a clue from a table the question does not name could not be
// resolved), the pivot's relation excepted, that single it out in the
// space; nil when they do not.
func (s *synth) clues(base []int, space *roaring.Bitmap, anchor uint32, pivotRel string, rng *rand.Rand) ([]clueFact, error) {
	anchorName := strings.ToLower(s.name(anchor))
	// Clue facts: the anchor's single-valued facts in the task's trees
	// where it is a key, the pivot excepted: a clue from a table the
	// question does not name could not be resolved.
	var facts []clueFact
	m, err := s.keyRels(anchor)
	if err != nil {
		return nil, err
	}
	var mrels []string
	for r := range m {
		mrels = append(mrels, r)
	}
	slices.Sort(mrels)
	for _, r := range mrels {
		if r == pivotRel {
			continue
		}
		vs, err := s.objects(r, anchor)
		if err != nil {
			return nil, err
		}
		if len(vs) != 1 {
			continue
		}
		var t *graph.Tree
		for _, ti := range m[r] {
			if !slices.Contains(base, ti) {
				continue
			}
			if v, _ := cell(s.trees[ti], colIndex(s.trees[ti], r), anchor); slices.Equal(v, vs) {
				t = s.trees[ti]
				break
			}
		}
		if t == nil {
			continue
		}
		facts = append(facts, clueFact{r, t.Columns[colIndex(t, r)].Header, vs[0]})
	}
	rng.Shuffle(len(facts), func(i, j int) { facts[i], facts[j] = facts[j], facts[i] })
	match := space.Clone()
	var clues []clueFact
	for _, f := range facts {
		if match.GetCardinality() == 1 || len(clues) == 3 {
			break
		}
		nm := strings.ToLower(s.name(f.v))
		if len(nm) < 2 || strings.Contains(nm, anchorName) || strings.Contains(anchorName, nm) {
			continue
		}
		// A clue is a fact in words: no abbreviation for a header, no raw
		// cell or link label for a value.
		if audit.RawHeader(f.header) || audit.RawValue(nm) || audit.LinkLabel(nm) ||
			!plainHeader(f.header, false) || !plainClue(s.name(f.v)) || strings.Contains(nm, ",") {
			continue
		}
		sub, err := s.subjects(f.rel, f.v)
		if err != nil {
			return nil, err
		}
		next := roaring.And(match, sub)
		if next.GetCardinality() < match.GetCardinality() {
			match = next
			clues = append(clues, f)
		}
	}
	if match.GetCardinality() != 1 || !match.Contains(anchor) {
		return nil, nil
	}
	// A clue the others already imply is left out: "whose result is Not
	// Nominated and whose director is Tomotaka Tasaka", where the
	// director alone names one film, reads as if both were needed.
	if clues, err = neededClues(space, clues, func(f clueFact) (*roaring.Bitmap, error) { return s.subjects(f.rel, f.v) }); err != nil {
		return nil, err
	}
	// A clue one letter off another value of its column is a misprint
	// or a trap: "Rignt wing" beside "Right wing".
	for _, f := range clues {
		if ok, err := s.typoClue(space, f); err != nil || ok {
			return nil, err
		}
	}
	// Read as a person reads them, the clues must still single out the
	// anchor: "Regina Pats (WHL)" is "Regina Pats", "Defense" is
	// "Defence".
	if ok, err := s.uniqueByText(s.baseTrees(base), space, anchor, clues); err != nil || !ok {
		return nil, err
	}
	return clues, nil

}

// neededClues are clues without those the others imply, the earliest
// left out first: each remaining one is needed to single out one key of
// space. holders gives the keys a clue fits.
func neededClues(space *roaring.Bitmap, clues []clueFact, holders func(clueFact) (*roaring.Bitmap, error)) ([]clueFact, error) {
	for i := 0; len(clues) > 1 && i < len(clues); {
		rest := slices.Delete(slices.Clone(clues), i, i+1)
		m := space.Clone()
		for _, f := range rest {
			h, err := holders(f)
			if err != nil {
				return nil, err
			}
			m.And(h)
		}
		if m.GetCardinality() == 1 {
			clues = rest
			continue
		}
		i++
	}
	return clues, nil
}

// reverseDraft writes a Reverse-Union task's formalization, columns and
// question: the anchor described by its clues, the pivot it shares with
// the targets, and the columns asked of them.
// twoNames matches a cell naming two people joined by "&", each of two
// capitalised words or more ("Philippe Boon & Laurent Brandenbourger"; not
// "Procter & Gamble").
var twoNames = regexp.MustCompile(`^(\p{Lu}[\p{L}.'-]*(?: \p{Lu}[\p{L}.'-]*)+) & (\p{Lu}[\p{L}.'-]*(?: \p{Lu}[\p{L}.'-]*)+)$`)

func (s *synth) reverseDraft(ctx context.Context, ts []*graph.Tree, base []int, space *roaring.Bitmap, pc pivotCand, clues []clueFact, rels map[string]string, rng *rand.Rand) (*draft, string, error) {
	anchor := pc.anchor
	pivot := column{rel: pc.rel, header: rels[pc.rel]}
	d := &draft{variant: task.ReverseUnion, trees: ts, keyNoun: unionNoun(ts), keyHeader: ts[0].KeyHeader,
		hidden: []uint32{anchor}, op: OpUnion}
	sp := &opSpace{op: OpUnion, trees: base, keys: space}
	av := d.newVar("Anchor")
	pv := d.newVar(words(pivot.header))
	A := task.V(av)
	anchorTriples := sp.triples(s, A)
	var cluePhrases []string
	written := texts{all: shownNames(ts), key: s.keyTrees(ts, &table{keys: []uint32{anchor}})}
	for _, c := range clues {
		name := s.name(c.v)
		// Said as the anchor's table writes it, else without a
		// disambiguator; the formal constant keeps the title.
		said := s.display(c.v)
		if w, ok := written.of(anchor, c.v); ok && graph.Shows(name, w) && !audit.LinkLabel(w) {
			said = w
		}
		h, is := clueHeader(c.header), " is "
		if m := twoNames.FindStringSubmatch(said); m != nil && !strings.Contains(h, " ") && !strings.HasSuffix(h, "s") {
			// "Philippe Arthuys & Jean-Louis Levi-Alvarès": two
			// directors, not one
			said, h, is = m[1]+" and "+m[2], h+"s", " are "
		}
		ref := d.addSlot(name, c.v, said)
		anchorTriples = append(anchorTriples, task.Triple{S: A, R: c.rel, O: task.C(name)})
		cluePhrases = append(cluePhrases, h+is+ref)
	}
	// The clues must single out the anchor for the engine too (names
	// resolve to every entity so named).
	q, err := query.FromTriples(anchorTriples)
	if err != nil {
		return nil, DropEval, nil
	}
	q.Select = []string{av}
	res, err := query.Eval(ctx, s.g, q)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		return nil, DropEval, nil
	}
	if len(res.Rows) != 1 || res.Rows[0][0] != anchor {
		return nil, DropNotUnique, nil
	}
	d.triples = append(anchorTriples, task.Triple{S: A, R: pivot.rel, O: task.V(pv)})
	d.triples = append(d.triples, sp.triples(s, task.Term{Target: true})...)
	d.triples = append(d.triples, task.Triple{S: task.Term{Target: true}, R: pivot.rel, O: task.V(pv)})
	// The pivot is also a column, under a variable of its own: a table
	// column occurs once in the formalization (see tableVars).
	pivot.v = d.newVar(words(pivot.header))
	d.cols = []column{pivot}
	tkeys := pc.targets
	cols, err := s.sharedCols(ts, tkeys)
	if err != nil {
		return nil, "", err
	}
	var rest []int
	mt := mergedTree(ts)
	for _, c := range cols {
		if ts[0].Columns[c].Name != pc.rel && s.plainColumn(mt, c, tkeys) {
			rest = append(rest, c)
		}
	}
	d.cols = append(d.cols, chooseCols(d, ts[0], rest, -1, rng)...)
	if rng.IntN(2) == 0 {
		hop, ok, err := s.oneHop(ts, tkeys, rng)
		if err != nil {
			return nil, "", err
		}
		if ok {
			hop.v = d.newVar(words(hop.header))
			d.cols = append(d.cols, hop)
		}
	}
	d.triples = append(d.triples, colTriples(d.cols)...)
	sets, ok := themePhrase(ts, orList, s.alonePage)
	if !ok {
		return nil, DropNoTheme, nil
	}
	cw := s.valueWords(d.cols, d.trees, colWords(d.cols, d.trees))
	d.given = append(d.given, sets)
	d.given = append(d.given, cw...)
	d.question = fill(pick(rng, reverseTemplates), "many", d.keyNoun.many, "one", d.keyNoun.one,
		"sets", sets, "clues", strings.Join(cluePhrases, " and whose "),
		"pivot", colWord(pivot.header), "cols", list(cw))
	return d, "", nil
}

// subjects returns {s | (s, any relation named rel, v)}.
// The bitmap is cached and shared: callers must not change it.
func (s *synth) subjects(rel string, v uint32) (*roaring.Bitmap, error) {
	k := objKey{rel, v}
	if bm, ok := s.subs[k]; ok {
		return bm, nil
	}
	out := roaring.New()
	for _, id := range s.rels[rel] {
		bm, err := s.g.Subjects(id, v)
		if err != nil {
			return nil, err
		}
		out.Or(bm)
	}
	if s.subs == nil {
		s.subs = map[objKey]*roaring.Bitmap{}
	}
	s.subs[k] = out
	return out, nil
}

// largeFirst reorders the candidate order so that the widest groups come
// first — ten pages or more, then at least unionPages, then the rest —
// stable, so the seed's order holds within each part: the store's tasks
// are drawn from its widest groups while they last.
func (s *synth) largeFirst(bases [][]int, order []int) {
	rank := make([]int, len(bases))
	for i, b := range bases {
		pages := map[string]bool{}
		for _, t := range b {
			pages[s.trees[t].PageURL] = true
		}
		switch {
		case len(pages) >= 10:
			rank[i] = 0
		case len(pages) >= s.unionPages:
			rank[i] = 1
		default:
			rank[i] = 2
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank[a] - rank[b] })
}

// spreadOver reports whether the keys of trees ts whose column rel holds
// one of ids lie on three pages or more, no page holding over half.
func spreadOver(ts []*graph.Tree, rel string, ids []uint32) bool {
	per := map[string]map[uint32]bool{}
	all := map[uint32]bool{}
	for cc := range columnCells(ts, rel) {
		if !slices.Contains(ids, cc.value) {
			continue
		}
		u := cc.tree.PageURL
		if per[u] == nil {
			per[u] = map[uint32]bool{}
		}
		per[u][cc.key] = true
		all[cc.key] = true
	}
	if len(per) < 3 {
		return false
	}
	for _, ks := range per {
		if 2*len(ks) > len(all) {
			return false
		}
	}
	return true
}

// placeholders are values that say a fact is missing, not what it is: two
// keys that share one ("the same fee as ...": Undisclosed) share nothing.
var placeholders = map[string]bool{
	"undisclosed": true, "unknown": true, "address restricted": true, "n/a": true, "na": true,
	"none": true, "tba": true, "tbd": true, "tbc": true, "free": true, "free transfer": true,
	"-": true, "—": true, "–": true, "?": true, "nil": true, "not known": true, "not disclosed": true,
	"vacant": true, "various": true, "website": true, "n.a.": true, "not applicable": true,
	"not listed": true, "not available": true, "not reported": true, "not released": true,
}

func placeholder(name string) bool {
	n := strings.ToLower(strings.Trim(name, " \"'“”‘’"))
	// "[Data unknown/missing. You can help!]": Wikipedia's template
	return placeholders[n] || n != "" && strings.Trim(n, "-–—‒ ") == "" || strings.Contains(n, "data unknown") || strings.Contains(n, "you can help")
}
