package synth

import (
	"context"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/query"
	"github.com/leaper-dev/leaper/task"
)

// maxTries bounds the identifying facts tried per constant.
const maxTries = 8

// expand applies one layer-wise expansion (WebShaper §3.2.2): every leaf
// constant of the formalization (a live slot) is replaced by a variable X
// plus one triple from the graph that identifies it: [X, r, C@v] when the
// constant is a key whose fact (r, v) no other entity has, or [C@k, r, X]
// when it is the only value of k's relation r. The new constant is never
// an entity of R, never already a constant, and the new triple never
// touches "?" (no reasoning shortcut) nor links two constants (no
// redundancy). The expanded formalization must evaluate to the same
// answer; constants with no identifying fact stay leaves, and a layer that
// expands nothing drops the candidate.
func (s *synth) expand(ctx context.Context, d *draft, rng *rand.Rand) (string, error) {
	before, err := evalTable(ctx, s.g, d.triples, false)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return DropEval, nil
	}
	inR := map[uint32]bool{}
	for i, k := range before.keys {
		inR[k] = true
		for _, c := range before.cells[i] {
			for _, v := range c {
				inR[v] = true
			}
		}
	}
	consts := map[string]bool{}
	for _, t := range d.triples {
		for _, c := range append(slices.Clone(t.S.Consts), t.O.Consts...) {
			consts[strings.ToLower(c)] = true
		}
	}
	var leaves []int
	for i, sl := range d.slots {
		if sl.live && usesConst(d.triples, sl.text) {
			leaves = append(leaves, i)
		}
	}
	done := 0
	for _, li := range leaves {
		ok, err := s.expandSlot(ctx, d, li, inR, consts, rng)
		if err != nil {
			return "", err
		}
		if ok {
			done++
		}
	}
	if done == 0 {
		return DropExpand, nil
	}
	after, err := evalTable(ctx, s.g, d.triples, false)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return DropEval, nil
	}
	if !slices.Equal(before.keys, after.keys) {
		return DropExpand, nil
	}
	for i := range before.cells {
		for j := range before.cells[i] {
			if !slices.Equal(before.cells[i][j], after.cells[i][j]) {
				return DropExpand, nil
			}
		}
	}
	d.expand++
	return "", nil
}

// usesConst reports whether text is a single-constant term of a triple.
func usesConst(ts []task.Triple, text string) bool {
	for _, t := range ts {
		if isTreeRel(t.R) {
			continue
		}
		if len(t.S.Consts) == 1 && t.S.Consts[0] == text || len(t.O.Consts) == 1 && t.O.Consts[0] == text {
			return true
		}
	}
	return false
}

type idFact struct {
	subj   bool   // [X, rel, other] rather than [other, rel, X]
	rel    string // relation name
	header string
	other  uint32
	noun   noun
}

func (s *synth) expandSlot(ctx context.Context, d *draft, li int, inR map[uint32]bool, consts map[string]bool, rng *rand.Rand) (bool, error) {
	e := d.slots[li].ent
	ename := strings.ToLower(s.name(e))
	trees, err := s.g.TreesOfEntity(e)
	if err != nil {
		return false, err
	}
	var facts []idFact
	it := trees.Iterator()
	for n := 0; it.HasNext() && n < 32; n++ {
		ti, ok := s.index[it.Next()]
		if !ok {
			continue
		}
		t := s.trees[ti]
		for _, r := range t.Rows {
			// What only an occasion's table states ("the manufacturer of
			// USM Alger" in a season's kits) is no fact of the thing.
			// Nor what a row writing the thing otherwise states ("NLB
			// banka | Belgrade" linking Nova Ljubljanska banka: its
			// Serbian subsidiary's seat).
			bound := func(c int) bool {
				return audit.OccasionBound(t, r, t.Columns[c].Header, s.nameOf) || audit.RowWritesOtherwise(t, r, c, s.nameOf)
			}
			if r.Key == e {
				for c, vs := range r.Values {
					// "the urban area whose region is Marlborough
					// Region" is one only as far as the page's tables
					// are whole: OTT-QA's first 20 rows of its "1,000 to
					// 9,999" table leave out Picton
					if len(vs) == 1 && !bound(c) && !s.cutRel(t.PageURL, t.Columns[c].Name) {
						facts = append(facts, idFact{true, t.Columns[c].Name, t.Columns[c].Header, vs[0], keyNoun(t)})
					}
				}
				continue
			}
			for c, vs := range r.Values {
				if len(vs) == 1 && vs[0] == e && !bound(c) {
					facts = append(facts, idFact{false, t.Columns[c].Name, t.Columns[c].Header, r.Key, keyNoun(t)})
				}
			}
		}
	}
	rng.Shuffle(len(facts), func(i, j int) { facts[i], facts[j] = facts[j], facts[i] })
	tries := 0
	for _, f := range facts {
		if tries >= maxTries {
			break
		}
		if inR[f.other] || f.other == e {
			continue
		}
		oname := s.name(f.other)
		lo := strings.ToLower(oname)
		if len(lo) < 2 || consts[lo] || strings.Contains(lo, ename) || strings.Contains(ename, lo) {
			continue
		}
		// The identifying fact is one a reader can look up and trust: an
		// attribute of the entity itself, in words, between two articles
		// (never a date or a number that happens to be unique), and not of
		// an occasion (a season, an edition).
		if ok, err := s.ownAttr(f.header, []uint32{e, f.other}); err != nil {
			return false, err
		} else if !ok || audit.IsOccasion(s.name(e)) || audit.IsOccasion(oname) || competitionValue(f, s.name(e), oname) {
			continue // a team's league or championship is a season's
		}
		if f.subj && vagueNouns[f.noun.one] {
			continue // "the host whose city is Evanston, Illinois": of which tournament?
		}
		tries++
		x := d.newVar("X " + words(f.header))
		X := task.V(x)
		var tr task.Triple
		if f.subj {
			tr = task.Triple{S: X, R: f.rel, O: task.C(oname)}
		} else {
			tr = task.Triple{S: task.C(oname), R: f.rel, O: X}
		}
		q, err := query.FromTriples([]task.Triple{tr})
		if err != nil {
			continue
		}
		q.Select = []string{x}
		res, err := query.Eval(ctx, s.g, q)
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			continue
		}
		if len(res.Rows) != 1 || res.Rows[0][0] != e {
			continue
		}
		// Nor another table under a header like it: "the headquarters of
		// Addiko Bank" is Belgrade in the list of Serbia's banks and
		// Zagreb, its "HQ", in Croatia's.
		if s.aud.ReadOtherwise(f.other, f.rel, []uint32{e}, !f.subj) {
			continue
		}
		old := d.slots[li].text
		for i := range d.triples {
			t := &d.triples[i]
			if isTreeRel(t.R) {
				continue
			}
			if len(t.S.Consts) == 1 && t.S.Consts[0] == old {
				t.S = X
			}
			if len(t.O.Consts) == 1 && t.O.Consts[0] == old {
				t.O = X
			}
		}
		d.triples = append(d.triples, tr)
		consts[lo] = true
		// Said by its title, disambiguator and all: out of its table a
		// bare name may be another's ("the college of Larry Smith", of
		// four Larry Smiths on the web; "the city of Rosenborg" for
		// Rosenborg BK's), whether or not the store knows another. A
		// disambiguator that names a kind is said before the name, as
		// a person says it: "the film Theofilos".
		ref := d.addSlot(oname, f.other, kindSaid(oname, f))
		h := oneOrMany(pairHeader.ReplaceAllString(lowerFirst(words(f.header)), "$1 and $2")) // "the city and state of", not "the city, state of"
		if f.subj {
			d.slots[li].phrase = "the " + f.noun.one + " whose " + h + " is " + ref
		} else {
			d.slots[li].phrase = "the " + h + " of " + ref
		}
		d.slots[li].live = false
		return true, nil
	}
	return false, nil
}

// cutRel reports whether a tree of the page at url that its source cut
// has relation rel: the rows beyond the cut may give rel's value to
// another key, so no key is "the one whose rel is" a value there.
func (s *synth) cutRel(url, rel string) bool {
	if s.cutRels == nil {
		s.cutRels = map[string]map[string]bool{}
		for _, t := range s.trees {
			if !t.Cut {
				continue
			}
			m := s.cutRels[t.PageURL]
			if m == nil {
				m = map[string]bool{}
				s.cutRels[t.PageURL] = m
			}
			for _, c := range t.Columns {
				m[c.Name] = true
			}
		}
	}
	return s.cutRels[url][rel]
}

// kindFirst says a title whose disambiguator names a kind in lower case
// with the kind first ("Theofilos (film)" → "the film Theofilos", "Larry
// Smith (footballer)" → "the footballer Larry Smith"); any other title as
// it is ("Jim Thomas (American football)", "Get Free (1997 song)").
func kindFirst(title string) string {
	if name, p, ok := audit.SplitParen(title); ok && kindWords.MatchString(p) {
		return "the " + p + " " + name
	}
	return title
}

// kindSaid is how an expansion names the entity it describes by, titled
// title: kind first where its disambiguator names one (kindFirst); else,
// where it is the key of its fact's row, with its table's noun for its
// keys ("the language of the film The Spring Festival", which alone
// reads as a holiday; "the municipality of the mayor Robert L. Butler").
func kindSaid(title string, f idFact) string {
	if k := kindFirst(title); k != title || f.subj {
		return k
	}
	ws := strings.Fields(strings.ToLower(title))
	one := f.noun.one
	if k, ok := namesKind[one]; ok {
		one = k // "the city and state of the station KFNB"
	}
	if one != "" && !strings.ContainsAny(one, " -") && !vagueNouns[one] && strings.ToLower(one) == one &&
		!slices.Contains(ws, one) { // "Achimota School" says it is a school
		// A disambiguator of two words or more says what the thing is
		// of: "the Burn Notice episode Friends and Family", "the
		// American football player Eddie Hinton"; one word may be a
		// place ("Southwestern University (Philippines)") and stays.
		// ("Moons Milk (In Four Phases)" has none).
		if name, p, ok := audit.SplitParen(title); ok && len(strings.Fields(p)) >= 2 {
			if ps := strings.Fields(p); strings.ToLower(ps[len(ps)-1]) == one {
				// "the railway station San Bernardo", not "the Railway
				// station station"; "the Burn Notice episode …" keeps
				// its name's capitals
				if !slices.ContainsFunc(ps[1:], func(w string) bool { return unicode.IsUpper([]rune(w)[0]) }) {
					p = strings.ToLower(p)
				}
				return "the " + p + " " + name
			}
			if _, dis := audit.Disambiguated(title); dis || ofWork(p) {
				return "the " + p + " " + one + " " + name
			}
		}
		return "the " + one + " " + title
	}
	return title
}

// ofWork reports whether a parenthesis names a work as Wikipedia
// disambiguates an episode or a character by it ("Burn Notice"): words
// each capitalised, the first no function word ("In Four Phases" is part
// of an album's name).
func ofWork(p string) bool {
	fs := strings.Fields(p)
	if len(fs) == 0 {
		return false
	}
	switch strings.ToLower(fs[0]) {
	case "in", "of", "the", "a", "an", "and", "for", "to", "on", "at", "from", "with":
		return false
	}
	for _, f := range fs {
		if r := []rune(f); !unicode.IsUpper(r[0]) {
			return false
		}
	}
	return true
}

// vagueNouns are key nouns that say nothing of a thing, and roles in a
// table that are no kind: "the winner Eduardo Mendoza Garriga" beside an
// Academy Awards list reads as an Oscar's; "the host whose city is
// Evanston, Illinois" says not of what.
var vagueNouns = map[string]bool{
	"thing": true, "work": true, "subject": true, "entry": true, "item": true, "name": true, "title": true,
	"entity": true, "one": true, "person": true, "people": true,
	"winner": true, "recipient": true, "laureate": true, "nominee": true, "crew": true, "entrant": true,
	"inductee": true, "honoree": true, "holder": true, "champion": true, "host": true,
}

// namesKind are key nouns that are a name of a kind of thing, not the
// kind: a call sign is a station's.
var namesKind = map[string]string{"call sign": "station", "callsign": "station", "call letters": "station"}

// oneOrMany says a header of one thing or several of it as the one: "the
// capital city of", not "the capital city or cities of".
func oneOrMany(h string) string {
	if one, many, ok := strings.Cut(h, " or "); ok {
		ws := strings.Fields(one)
		if len(ws) > 0 && !strings.Contains(many, " ") && plural(ws[len(ws)-1]) == many {
			return one
		}
	}
	return h
}

// pairHeader matches a header of two attributes joined by a comma ("City,
// State", OTT-QA's "City , State").
var pairHeader = regexp.MustCompile(`^(\pL+(?: \pL+)?) ?, (\pL+(?: \pL+)?)$`)

// kindWords matches a disambiguator that is a kind in lower case, of one
// to three words ("film", "American football" is not).
var kindWords = regexp.MustCompile(`^[a-z]+(?: [a-z]+){0,2}$`)

// competitionValue reports whether fact f, describing e (named ename) by
// the entity named oname, links a thing to a competition as its value
// ("Botafogo | State: Campeonato Carioca"): a season's fact. A
// competition's own town or founding is its own.
func competitionValue(f idFact, ename, oname string) bool {
	if f.subj {
		return audit.Competition(oname) // e's row, other its value
	}
	return audit.Competition(ename) // other's row, e its value
}

// nameOf is an entity's name and whether it is an article's.
func (s *synth) nameOf(id uint32) (string, bool) {
	es, err := s.entities([]uint32{id})
	if err != nil || es[id] == nil {
		return "", false
	}
	return es[id].Name, strings.HasPrefix(es[id].Key, "w:")
}
