package query

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/leaper-dev/leaper/graph"
)

// resolver turns relation names and constant texts into store ids. Both
// evaluators share it, so they differ only in how they find solutions.
type resolver struct {
	g    *graph.Store
	rels []*graph.Relation
	vals map[uint32]value
}

type value struct {
	f    float64
	ok   bool
	name string
}

func newResolver(g *graph.Store) (*resolver, error) {
	rels, err := g.Relations()
	if err != nil {
		return nil, fmt.Errorf("query: relations: %w", err)
	}
	return &resolver{g: g, rels: rels, vals: map[uint32]value{}}, nil
}

// relations resolves a relation to every store relation it names: a full
// identity "name|datatype|domain" names one; a name names all relations of
// that name, whatever their datatype and domain; free text ("took place
// at") is standardised the way headers are (has_took_place_at).
func (r *resolver) relations(name string) ([]uint32, error) {
	name = strings.TrimSpace(name)
	match := func(f func(*graph.Relation) bool) []uint32 {
		var ids []uint32
		for _, rel := range r.rels {
			if f(rel) {
				ids = append(ids, rel.ID)
			}
		}
		return ids
	}
	if strings.Contains(name, "|") {
		if ids := match(func(rel *graph.Relation) bool { return rel.Key() == name }); len(ids) > 0 {
			return ids, nil
		}
	}
	if ids := match(func(rel *graph.Relation) bool { return rel.Name == name }); len(ids) > 0 {
		return ids, nil
	}
	std := graph.RelationName(name, 0)
	if !strings.HasPrefix(name, "has_") {
		if ids := match(func(rel *graph.Relation) bool { return rel.Name == std }); len(ids) > 0 {
			return ids, nil
		}
	} else {
		std = name
	}
	return nil, fmt.Errorf("%w %q%s", ErrUnknownRelation, name, r.suggest(std))
}

// suggest lists up to five relation names close to name.
func (r *resolver) suggest(name string) string {
	type cand struct {
		name string
		d    int
	}
	seen := map[string]bool{}
	var cs []cand
	words := strings.Split(strings.TrimPrefix(name, "has_"), "_")
	for _, rel := range r.rels {
		if seen[rel.Name] {
			continue
		}
		seen[rel.Name] = true
		d := levenshtein(name, rel.Name)
		for _, w := range words {
			if len(w) > 2 && strings.Contains(rel.Name, w) {
				d = min(d, len(rel.Name)-len(w))
			}
		}
		if d <= max(3, len(name)/2) {
			cs = append(cs, cand{rel.Name, d})
		}
	}
	if len(cs) == 0 {
		return ""
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].name < cs[j].name
	})
	names := make([]string, 0, 5)
	for i := 0; i < len(cs) && i < 5; i++ {
		names = append(names, cs[i].name)
	}
	return "; close names: " + strings.Join(names, ", ")
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

var keyPrefixes = []string{"w:", "t:", "y:", "n:", "d:"}

// constant resolves a constant text to the set of entities it names:
//   - an identity key ("w:Berlin", "y:1983") names that entity alone;
//   - otherwise every entity whose name or an alias normalises like the
//     text, the article of that exact title, and, for a number, its year
//     and number literals ("1983" names y:1983, n:1983 and an entity named
//     1983);
//   - a text that names nothing and contains "_" is WebShaper's union
//     notation (C@1980_1981): it names the union of its parts, each of
//     which must name something.
func (r *resolver) constant(text string) ([]uint32, error) {
	ids, err := r.constant1(text)
	if err != nil {
		return nil, err
	}
	if len(ids) > 0 {
		return ids, nil
	}
	if strings.Contains(text, "_") {
		var all []uint32
		for _, part := range strings.Split(text, "_") {
			ids, err := r.constant1(part)
			if err != nil {
				return nil, err
			}
			if len(ids) == 0 {
				return nil, fmt.Errorf("%w: %q (part %q of the union %q)", ErrUnknownConstant, part, part, text)
			}
			all = append(all, ids...)
		}
		slices.Sort(all)
		return slices.Compact(all), nil
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknownConstant, text)
}

func (r *resolver) constant1(text string) ([]uint32, error) { return entityRefs(r.g, text) }

// entityRefs is the one set of rules by which a text names entities, for
// query constants and for ResolveEntities alike:
//   - a Wikipedia article URL names the article's entity (key "w:Title");
//   - an identity key ("w:Berlin", "y:1983") names that entity alone;
//   - any other text names the entities whose name or an alias normalises
//     to it, and those whose identity key it spells ("w:"+text; "y:" and
//     "n:" for a number; "d:" for an ISO date).
//
// A blank text names nothing. Store errors other than not-found are
// returned.
func entityRefs(g *graph.Store, text string) ([]uint32, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	byKey := func(k string) (uint32, bool, error) {
		e, err := g.EntityByKey(k)
		switch {
		case err == nil:
			return e.ID, true, nil
		case errors.Is(err, graph.ErrNotFound):
			return 0, false, nil
		}
		return 0, false, fmt.Errorf("query: entity %q: %w", k, err)
	}
	if strings.Contains(text, "/wiki/") {
		if title := graph.Title(text); title != "" {
			id, ok, err := byKey("w:" + title)
			if err != nil || !ok {
				return nil, err
			}
			return []uint32{id}, nil
		}
	}
	for _, p := range keyPrefixes {
		if strings.HasPrefix(text, p) {
			id, ok, err := byKey(text)
			if err != nil {
				return nil, err
			}
			if ok {
				return []uint32{id}, nil
			}
		}
	}
	ids, err := g.FindEntities(text, 0)
	if err != nil {
		return nil, fmt.Errorf("query: find %q: %w", text, err)
	}
	keys := []string{"w:" + text}
	if f, err := strconv.ParseFloat(strings.ReplaceAll(text, ",", ""), 64); err == nil {
		keys = append(keys, "y:"+text, "n:"+strconv.FormatFloat(f, 'f', -1, 64))
	}
	if len(text) == 10 && text[4] == '-' && text[7] == '-' {
		keys = append(keys, "d:"+text)
	}
	for _, k := range keys {
		id, ok, err := byKey(k)
		if err != nil {
			return nil, err
		}
		if ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// ResolveEntities returns the entities a reference names (a Wikipedia
// URL, an identity key, a name or alias), by the rules query constants
// resolve by. A reference that names nothing is ErrUnknownConstant.
func ResolveEntities(g *graph.Store, ref string) ([]*graph.Entity, error) {
	ids, err := entityRefs(g, ref)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: %q", ErrUnknownConstant, ref)
	}
	return g.Entities(ids)
}

// ResolveTrees returns the trees a reference names: a tree id, else the
// trees of the page of that exact title, else those whose page title
// starts with it, case-insensitively. A reference that names nothing is
// ErrUnknownTree; store errors are returned as they are.
func ResolveTrees(ctx context.Context, g *graph.Store, ref string) ([]*graph.Tree, error) {
	if id, err := strconv.ParseUint(ref, 10, 32); err == nil {
		t, err := g.Tree(uint32(id))
		if err != nil {
			return nil, err
		}
		return []*graph.Tree{t}, nil
	}
	var exact, prefix []*graph.Tree
	low := strings.ToLower(ref)
	err := g.EachTree(ctx, func(t *graph.Tree) error {
		switch {
		case t.PageTitle == ref:
			exact = append(exact, t)
		case strings.HasPrefix(strings.ToLower(t.PageTitle), low):
			prefix = append(prefix, t)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(exact) > 0 {
		return exact, nil
	}
	if len(prefix) > 0 {
		return prefix, nil
	}
	return nil, fmt.Errorf("%w with id or page title %q", ErrUnknownTree, ref)
}

// value is an entity's numeric reading: the number of a year or number
// literal, the year of a date, else its name read as a number (commas
// ignored). ok is false when there is none.
func (r *resolver) value(id uint32) (value, error) {
	if v, ok := r.vals[id]; ok {
		return v, nil
	}
	e, err := r.g.Entity(id)
	if err != nil {
		return value{}, fmt.Errorf("query: %w", err)
	}
	v := readValue(e)
	r.vals[id] = v
	return v, nil
}

// prefetch reads the values of many entities in one transaction.
func (r *resolver) prefetch(ids []uint32) error {
	var need []uint32
	for _, id := range ids {
		if _, ok := r.vals[id]; !ok {
			need = append(need, id)
		}
	}
	if len(need) == 0 {
		return nil
	}
	es, err := r.g.Entities(need)
	if err != nil {
		return fmt.Errorf("query: %w", err)
	}
	for _, e := range es {
		r.vals[e.ID] = readValue(e)
	}
	return nil
}

func readValue(e *graph.Entity) value {
	v := value{name: e.Name}
	payload := e.Name
	switch {
	case strings.HasPrefix(e.Key, "y:"), strings.HasPrefix(e.Key, "n:"):
		payload = e.Key[2:]
	case strings.HasPrefix(e.Key, "d:") && len(e.Key) >= 6:
		payload = e.Key[2:6]
	}
	if f, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(payload), ",", ""), 64); err == nil {
		v.f, v.ok = f, true
	}
	return v
}

// holds reports whether a value passes a filter.
func holds(f *Atom, v value) bool {
	if !v.ok {
		return false
	}
	x := v.f
	switch f.Op {
	case OpEq:
		return x == f.Lo
	case OpNe:
		return x != f.Lo
	case OpLt:
		return x < f.Lo
	case OpLe:
		return x <= f.Lo
	case OpGt:
		return x > f.Lo
	case OpGe:
		return x >= f.Lo
	case OpRange:
		return x >= f.Lo && x <= f.Hi
	}
	return false
}
