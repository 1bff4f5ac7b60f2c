package synth

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/mining"
	"github.com/leaper-dev/leaper/query"
)

var errEnough = errors.New("enough groups")

// maxPairChecks bounds the tree pairs examined across all union groups.
const maxPairChecks = 2_000_000

// unionBases mines maximal union groups (WebLeaper App. A.5: maximal
// bicliques of trees × relations with at least 2 trees and 2 relations,
// split by the key column's datatype and domain) and returns the tree
// pairs of those groups worth a task: pairs whose key sets meet in two or
// more entities without one containing the other (an intersection that is
// neither empty nor trivial), and isomorphic pairs from different pages
// (whose union reads naturally). Pairs are sorted, so the order does not
// depend on the enumeration.
func (s *synth) unionBases(ctx context.Context) ([][]int, error) {
	adj := make([][]uint32, len(s.trees))
	numRight := 0
	for i, t := range s.trees {
		var rs []uint32
		for _, c := range t.Columns {
			rs = append(rs, c.Relation)
			numRight = max(numRight, int(c.Relation)+1)
		}
		slices.Sort(rs)
		adj[i] = slices.Compact(rs)
	}
	mg, err := mining.NewGraph(adj, numRight)
	if err != nil {
		return nil, err
	}
	type pair struct{ a, b int }
	seen := map[pair]bool{}
	var out []pair
	checks := 0
	_, err = mining.Bicliques(ctx, mg, mining.Options{MinLeft: 2, MinRight: 2}, func(left, _ []uint32) error {
		// Split by key datatype and domain (the semantic check of Algorithm 1).
		parts := map[string][]int{}
		var names []string
		for _, l := range left {
			t := s.trees[l]
			k := string(t.KeyDatatype) + "/" + t.KeyDomain
			if parts[k] == nil {
				names = append(names, k)
			}
			parts[k] = append(parts[k], int(l))
		}
		slices.Sort(names)
		for _, k := range names {
			p := parts[k]
			if len(p) < 2 {
				continue
			}
			s.groups++
			for i := 0; i < len(p) && checks < maxPairChecks; i++ {
				for j := i + 1; j < len(p) && checks < maxPairChecks; j++ {
					pr := pair{p[i], p[j]}
					if seen[pr] {
						continue
					}
					seen[pr] = true
					checks++
					if s.pairWorth(pr.a, pr.b) {
						out = append(out, pr)
					}
				}
			}
			if s.groups >= s.o.MaxGroups {
				return errEnough
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return nil, err
	}
	slices.SortFunc(out, func(x, y pair) int {
		if x.a != y.a {
			return x.a - y.a
		}
		return x.b - y.b
	})
	bases := make([][]int, len(out))
	for i, p := range out {
		bases[i] = []int{p.a, p.b}
	}
	s.o.Logger.Debug("synth: union bases", "groups", s.groups, "pairs", len(bases))
	return bases, nil
}

func (s *synth) pairWorth(a, b int) bool {
	ta, tb := s.trees[a], s.trees[b]
	if ta.PageTitle == tb.PageTitle {
		return false
	}
	n := s.keys[a].AndCardinality(s.keys[b])
	if n >= 2 && n < s.keys[a].GetCardinality() && n < s.keys[b].GetCardinality() {
		return true
	}
	return ta.Group == tb.Group
}

// space is the key set of a union base: the intersection of the trees'
// keys, or their union when the intersection is trivial and the trees are
// isomorphic.
func (s *synth) space(base []int, rng *rand.Rand) (keys []uint32, inter bool) {
	in := roaring.And(s.keys[base[0]], s.keys[base[1]])
	n := in.GetCardinality()
	nontrivial := n >= 2 && n < s.keys[base[0]].GetCardinality() && n < s.keys[base[1]].GetCardinality()
	iso := s.trees[base[0]].Group == s.trees[base[1]].Group
	if nontrivial && (!iso || rng.IntN(4) > 0) {
		return in.ToArray(), true
	}
	return roaring.Or(s.keys[base[0]], s.keys[base[1]]).ToArray(), false
}

// sharedColumns are the columns of the first tree whose relation every
// tree has, usable (consistent) over keys.
func (s *synth) sharedColumns(ts []*graph.Tree, keys []uint32) ([]int, error) {
	cols, err := s.usableColumns(ts, ts[0], keys)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, c := range cols {
		ok := true
		for _, t := range ts[1:] {
			if colIndex(t, ts[0].Columns[c].Name) < 0 {
				ok = false
			}
		}
		if ok {
			out = append(out, c)
		}
	}
	return out, nil
}

func (s *synth) baseTrees(base []int) []*graph.Tree {
	ts := make([]*graph.Tree, len(base))
	for i, b := range base {
		ts[i] = s.trees[b]
	}
	return ts
}

// unionNoun names keys of several trees: the first tree's noun when the
// others agree, else the domain's.
func unionNoun(ts []*graph.Tree) noun {
	n := keyNoun(ts[0])
	for _, t := range ts[1:] {
		if keyNoun(t) != n {
			if dn, ok := domainNouns[ts[0].KeyDomain]; ok {
				return dn
			}
			return noun{"entry", "entries"}
		}
	}
	return n
}

func spaceTriples(v query.Term, ts []*graph.Tree, inter bool) []query.Triple {
	if inter {
		out := make([]query.Triple, len(ts))
		for i, t := range ts {
			out[i] = inTree(t.ID)
			out[i].S = v
		}
		return out
	}
	ids := make([]uint32, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	tr := inTree(ids...)
	tr.S = v
	return []query.Triple{tr}
}

// union drafts a Version-II task: the keys two trees share (or, for
// isomorphic tables, the keys of either), with shared relations as the
// requested columns.
func (s *synth) union(ctx context.Context, base []int, rng *rand.Rand) (*draft, string, error) {
	ts := s.baseTrees(base)
	keys, inter := s.space(base, rng)
	cols, err := s.sharedColumns(ts, keys)
	if err != nil {
		return nil, "", err
	}
	if len(cols) == 0 {
		return nil, DropNoColumns, nil
	}
	d := &draft{variant: query.Union, trees: ts, keyNoun: unionNoun(ts), keyHeader: ts[0].KeyHeader}
	d.triples = spaceTriples(query.Term{Target: true}, ts, inter)
	f := filter{col: -1}
	if s.o.Expand > 0 || rng.IntN(3) == 0 {
		var ok bool
		f, ok, err = s.chooseFilter(d, ts[0], keys, cols, rng, s.o.Expand > 0)
		if err != nil {
			return nil, "", err
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
	if len(d.cols) == 0 {
		return nil, DropNoColumns, nil
	}
	d.triples = append(d.triples, colTriples(d.cols)...)
	a, b := root(ts[0], rng), root(ts[1], rng)
	cw := colWords(d.cols)
	d.given = append(d.given, a, b)
	d.given = append(d.given, cw...)
	tpl := unionTemplates
	if !inter {
		tpl = unionAnyTemplates
	}
	d.question = fill(pick(rng, tpl), "many", d.keyNoun.many, "one", d.keyNoun.one,
		"a", a, "b", b, "filter", f.phrase, "cols", list(cw))
	return d, "", nil
}

// reverse drafts a Version-III task: an anchor of the union space named
// only by clues (its third-layer facts) that single it out, a pivot
// attribute of the anchor, and as targets every key of the space sharing
// the pivot.
func (s *synth) reverse(ctx context.Context, base []int, rng *rand.Rand) (*draft, string, error) {
	ts := s.baseTrees(base)
	keys, inter := s.space(base, rng)
	if len(keys) < 3 {
		return nil, DropSmall, nil
	}
	cols, err := s.sharedColumns(ts, keys)
	if err != nil {
		return nil, "", err
	}
	inSpace := roaring.BitmapOf(keys...)
	// Pivot: a shared categorical column; anchor: a key whose single value
	// there is shared by 2..|S|-1 keys.
	type cand struct {
		col    int
		anchor uint32
		value  uint32
	}
	var cands []cand
	for _, c := range cols {
		col := ts[0].Columns[c]
		if col.Datatype == graph.TypeNumber {
			continue
		}
		by := map[uint32][]uint32{}
		for _, k := range keys {
			v, err := s.objects(col.Name, k)
			if err != nil {
				return nil, "", err
			}
			if len(v) == 1 {
				by[v[0]] = append(by[v[0]], k)
			}
		}
		for v, ks := range by {
			if len(ks) >= 2 && len(ks) < len(keys) {
				for _, k := range ks {
					cands = append(cands, cand{c, k, v})
				}
			}
		}
	}
	if len(cands) == 0 {
		return nil, DropSmall, nil
	}
	slices.SortFunc(cands, func(x, y cand) int {
		if x.col != y.col {
			return x.col - y.col
		}
		return int(x.anchor) - int(y.anchor)
	})
	pc := cands[rng.IntN(len(cands))]
	pivot := ts[0].Columns[pc.col]
	anchor := pc.anchor
	anchorName := strings.ToLower(s.name(anchor))

	// Clue facts: the anchor's other cells in the space's trees.
	type fact struct {
		rel, header string
		v           uint32
	}
	var facts []fact
	for _, t := range ts {
		for c, col := range t.Columns {
			if col.Name == pivot.Name {
				continue
			}
			vs, ok := cell(t, c, anchor)
			if !ok || len(vs) != 1 {
				continue
			}
			dup := false
			for _, f := range facts {
				if f.rel == col.Name && f.v == vs[0] {
					dup = true
				}
			}
			if !dup {
				facts = append(facts, fact{col.Name, col.Header, vs[0]})
			}
		}
	}
	rng.Shuffle(len(facts), func(i, j int) { facts[i], facts[j] = facts[j], facts[i] })
	match := inSpace.Clone()
	var clues []fact
	for _, f := range facts {
		if match.GetCardinality() == 1 || len(clues) == 3 {
			break
		}
		n := strings.ToLower(s.name(f.v))
		if len(n) < 2 || strings.Contains(n, anchorName) || strings.Contains(anchorName, n) {
			continue
		}
		sub := roaring.New()
		for _, rid := range s.rels[f.rel] {
			bm, err := s.g.Subjects(rid, f.v)
			if err != nil {
				return nil, "", err
			}
			sub.Or(bm)
		}
		next := roaring.And(match, sub)
		if next.GetCardinality() < match.GetCardinality() {
			match = next
			clues = append(clues, f)
		}
	}
	if match.GetCardinality() != 1 || !match.Contains(anchor) {
		return nil, DropNotUnique, nil
	}
	d := &draft{variant: query.ReverseUnion, trees: ts, keyNoun: unionNoun(ts), keyHeader: ts[0].KeyHeader,
		hidden: []uint32{anchor}}
	av := d.newVar("Anchor")
	pv := d.newVar(words(pivot.Header))
	A := query.V(av)
	anchorTriples := spaceTriples(A, ts, inter)
	var cluePhrases []string
	for _, c := range clues {
		name := s.name(c.v)
		ref := d.addSlot(name, c.v, name)
		anchorTriples = append(anchorTriples, query.Triple{S: A, R: c.rel, O: query.C(name)})
		cluePhrases = append(cluePhrases, lowerFirst(words(c.header))+" is "+ref)
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
	d.triples = append(anchorTriples, query.Triple{S: A, R: pivot.Name, O: query.V(pv)})
	d.triples = append(d.triples, spaceTriples(query.Term{Target: true}, ts, inter)...)
	d.triples = append(d.triples, query.Triple{S: query.Term{Target: true}, R: pivot.Name, O: query.V(pv)})
	// The pivot is also a column, under a variable of its own: a table
	// column occurs once in the formalization (see tableVars).
	d.cols = []column{{rel: pivot.Name, header: pivot.Header, v: d.newVar(words(pivot.Header))}}
	d.cols = append(d.cols, chooseCols(d, ts[0], cols, pc.col, rng)...)
	d.triples = append(d.triples, colTriples(d.cols)...)
	a, b := root(ts[0], rng), root(ts[1], rng)
	space := "both " + a + " and " + b
	cond := pick(rng, []string{" listed in both of these tables", " that appear in both tables", " found in both of them"})
	if !inter {
		space = "either " + a + " or " + b
		cond = pick(rng, []string{" listed in either table", " that appear in one of these tables"})
	}
	cw := colWords(d.cols)
	d.given = append(d.given, a, b)
	d.given = append(d.given, cw...)
	d.question = fill(pick(rng, reverseTemplates), "many", d.keyNoun.many, "one", d.keyNoun.one,
		"space", space, "cond", cond, "clues", strings.Join(cluePhrases, " and whose "),
		"pivot", lowerFirst(words(pivot.Header)), "cols", list(cw))
	return d, "", nil
}
