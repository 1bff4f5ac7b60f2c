package synth

import (
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/graph"
)

// ownAttr reports whether a relation with this header may be read beyond
// the task's tables for keys: it must name an attribute of the entity
// itself (audit.Intrinsic: a nationality, a birth date, a founder; not a
// time, a rank, a season's team), in words, and every key must be an
// article, so that the join goes through an entity and never through a
// year, a season, a mark or a code.
func (s *synth) ownAttr(header string, keys []uint32) (bool, error) {
	if !audit.Intrinsic(header) || audit.RawHeader(header) {
		return false, nil
	}
	es, err := s.entities(keys)
	if err != nil {
		return false, err
	}
	for _, k := range keys {
		if !strings.HasPrefix(es[k].Key, "w:") {
			return false, nil
		}
	}
	return true, nil
}

// readable reports whether column c of t can be asked for in words: its
// header is no abbreviation or code, and no value is a raw cell (a
// coordinate string) or a link's label ("Website", a list page).
func (s *synth) readable(t *graph.Tree, c int) (bool, error) {
	if audit.RawHeader(t.Columns[c].Header) {
		return false, nil
	}
	var ids []uint32
	for _, r := range t.Rows {
		ids = append(ids, r.Values[c]...)
	}
	es, err := s.entities(ids)
	if err != nil {
		return false, err
	}
	for _, id := range ids {
		if n := es[id].Name; audit.RawValue(n) || audit.LinkLabel(n) || audit.SubPage(n, t.PageTitle) {
			return false, nil
		}
	}
	return true, nil
}

// A relation read beyond a task's tables (a hop, a column filled from other
// trees) is asked of the keys with no table named: the engine reads it
// store-wide. That is sound only for a property of the entity itself (a
// driver's nationality, a company's founder), not for one of the table it
// sits in (a rider's time in one race, a club's manager in one season): the
// question would ask "the time of each rider" of one race and the answer
// give times of other races. Such relations show themselves by
// disagreeing: trees that give the same key different values.

// maxVolatile is the largest share of a relation's keys stated by two or
// more trees whose trees disagree, for the relation to be read beyond a
// task's tables.
const maxVolatile = 0.2

// maxEvidenceTrees bounds the trees relStable reads of one relation (the
// first by id): enough to judge it, and a bound on a store of millions.
const maxEvidenceTrees = 5000

// minEvidence is how many keys two or more trees must state a relation of
// before its disagreement share is judged; with fewer it passes.
const minEvidence = 3

// stable reports whether rel can be read store-wide for keys: no key has
// two trees that give it different values of rel, and across the store the
// relation is no more volatile than maxVolatile.
func (s *synth) stable(rel string, keys []uint32) (bool, error) {
	for _, k := range keys {
		ok, err := s.agrees(rel, k)
		if err != nil || !ok {
			return false, err
		}
	}
	return s.relStable(rel)
}

// agrees reports whether every tree where k is a key and has rel gives it
// the same values.
func (s *synth) agrees(rel string, k uint32) (bool, error) {
	m, err := s.keyRels(k)
	if err != nil {
		return false, err
	}
	var first []uint32
	for _, ti := range m[rel] {
		t := s.trees[ti]
		v, _ := cell(t, colIndex(t, rel), k)
		if len(v) == 0 {
			continue
		}
		if first == nil {
			first = v
		} else if !s.sameValues(first, v) {
			return false, nil
		}
	}
	return true, nil
}

// sameValues reports whether two sorted cells hold the same values: the
// same entities, or entities of the same names.
func (s *synth) sameValues(a, b []uint32) bool {
	return slices.Equal(a, b) || s.valueNames(a) == s.valueNames(b)
}

// valueNames is a cell's values as the agent reads them: their names,
// case-folded and sorted. Trees that type one value differently ("2006" a
// year in one, text in another) give it two entities; they agree.
func (s *synth) valueNames(v []uint32) string {
	ns := make([]string, 0, len(v))
	for _, x := range v {
		ns = append(ns, strings.ToLower(s.name(x)))
	}
	slices.Sort(ns)
	return strings.Join(slices.Compact(ns), "\x00")
}

// relStable reports, cached, whether of the keys that two or more trees
// state rel of, at most maxVolatile get different values from them.
func (s *synth) relStable(rel string) (bool, error) {
	if ok, found := s.relstab[rel]; found {
		return ok, nil
	}
	trees := roaring.New()
	for _, id := range s.rels[rel] {
		bm, err := s.g.TreesOfRelation(id)
		if err != nil {
			return false, err
		}
		trees.Or(bm)
	}
	seen := map[uint32][]uint32{}
	multi, differ := 0, 0
	state := map[uint32]int8{} // 1: stated twice, 2: and they disagree
	it := trees.Iterator()
	for n := 0; it.HasNext() && n < maxEvidenceTrees; {
		ti, ok := s.index[it.Next()]
		if !ok {
			continue
		}
		t := s.trees[ti]
		c := colIndex(t, rel)
		if c < 0 {
			continue
		}
		n++
		for _, r := range t.Rows {
			if len(r.Values[c]) == 0 {
				continue
			}
			v := slices.Compact(slices.Sorted(slices.Values(r.Values[c])))
			prev, ok := seen[r.Key]
			if !ok {
				seen[r.Key] = v
				continue
			}
			if state[r.Key] == 0 {
				state[r.Key] = 1
				multi++
			}
			if state[r.Key] == 1 && !s.sameValues(prev, v) {
				state[r.Key] = 2
				differ++
			}
		}
	}
	ok := multi < minEvidence || float64(differ) <= maxVolatile*float64(multi)
	s.relstab[rel] = ok
	return ok, nil
}

// relWords are the words of a relation or header that say what it holds
// ("has_time_retired" → time, retired), without those that say nothing.
func relWords(name string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(strings.TrimPrefix(name, "has_")), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r > 127)
	}) {
		switch w {
		case "", "a", "an", "the", "of", "in", "for", "and", "or", "to", "at", "by", "on", "no", "name", "names", "s":
			continue
		}
		out = append(out, w)
	}
	return out
}

// ownWords are the words of t's columns, its key's and those cleaning
// dropped: a relation read beyond the table that shares one ("time" for
// "Time/Retired", "industry" for "Primary industry", "pos" for a dropped
// "Pos") would stand in for the table's own column with other tables'
// values.
func ownWords(t *graph.Tree) map[string]bool {
	own := map[string]bool{}
	add := func(h string) {
		for _, w := range relWords(h) {
			own[w] = true
		}
	}
	add(t.KeyHeader)
	for _, c := range t.Columns {
		add(c.Header)
	}
	for _, d := range t.Dropped {
		h, _, _ := strings.Cut(d, ": ")
		add(h)
	}
	return own
}

// sharesWord reports whether rel has a word of own.
func sharesWord(rel string, own map[string]bool) bool {
	for _, w := range relWords(rel) {
		if own[w] {
			return true
		}
	}
	return false
}
