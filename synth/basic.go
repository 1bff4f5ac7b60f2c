package synth

import (
	"cmp"
	"context"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/task"
)

// candidate builds one task from a base (one tree for Basic, a tree set
// for the union variants), or names the check it failed.
func (s *synth) candidate(ctx context.Context, base []int, rng *rand.Rand, st *Stats) (*task.Task, string, error) {
	var d *draft
	var reason string
	var err error
	switch task.Variant(s.o.Variant) {
	case task.Basic:
		d, reason, err = s.basic(ctx, s.trees[base[0]], rng)
	case task.Union:
		d, reason, err = s.union(ctx, base, rng)
	default:
		d, reason, err = s.reverse(ctx, base, rng)
	}
	if err != nil || reason != "" {
		return nil, reason, err
	}
	for l := 0; l < s.o.Expand; l++ {
		if reason, err = s.expand(ctx, d, rng); err != nil || reason != "" {
			return nil, reason, err
		}
	}
	if s.o.Aggregate && d.agg == nil {
		if reason, err = s.aggregate(ctx, d, rng); err != nil || reason != "" {
			return nil, reason, err
		}
	}
	return s.finish(ctx, d, rng, st)
}

func rowKeys(t *graph.Tree) []uint32 {
	ks := make([]uint32, len(t.Rows))
	for i, r := range t.Rows {
		ks[i] = r.Key
	}
	return ks
}

// usableColumns are the column indices of t whose relation name occurs
// once in t and whose facts agree with the store for every key of keys
// (see consistent).
func (s *synth) usableColumns(ts []*graph.Tree, t *graph.Tree, keys []uint32) ([]int, error) {
	count := map[string]int{}
	for _, c := range t.Columns {
		count[c.Name]++
	}
	var out []int
	for i, c := range t.Columns {
		if count[c.Name] > 1 {
			continue
		}
		if ok, err := s.readable(t, i); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		ok := true
		for _, o := range ts {
			if n := 0; true {
				for _, oc := range o.Columns {
					if oc.Name == c.Name {
						n++
					}
				}
				if n > 1 {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		ok, err := s.consistent(ts, c.Name, keys)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, i)
		}
	}
	return out, nil
}

// filter is an optional condition on the keys: a category value, a year
// range or a lower bound, written as constants so that the formalization
// stays in triple form.
type filter struct {
	col    int
	triple task.Triple
	phrase string // relative clause, " whose ..."
	static string // the phrase without slot references, for the leak check
	keep   []string
	ids    []uint32 // the values kept
}

// chooseFilter picks a filter over column indices cols of t restricted to
// keys, keeping between 2 keys and all but one; ok false when none fits.
// Categorical filters become slots (expandable); ranges do not.
func (s *synth) chooseFilter(d *draft, t *graph.Tree, keys []uint32, cols []int, rng *rand.Rand, preferConst bool) (filter, bool, error) {
	inKeys := map[uint32]bool{}
	for _, k := range keys {
		inKeys[k] = true
	}
	order := slices.Clone(cols)
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	if preferConst {
		slices.SortStableFunc(order, func(a, b int) int {
			ca := t.Columns[a].Datatype == graph.TypeEntity || t.Columns[a].Datatype == graph.TypeText
			cb := t.Columns[b].Datatype == graph.TypeEntity || t.Columns[b].Datatype == graph.TypeText
			switch {
			case ca && !cb:
				return -1
			case cb && !ca:
				return 1
			}
			return 0
		})
	}
	n := len(keys)
	for _, c := range order {
		col := t.Columns[c]
		h := lowerFirst(words(col.Header))
		// value → keys having it (single-valued cells only count)
		by := map[uint32]int{}
		var vals []uint32
		for _, r := range t.Rows {
			if !inKeys[r.Key] || len(r.Values[c]) != 1 {
				continue
			}
			v := r.Values[c][0]
			if by[v] == 0 {
				vals = append(vals, v)
			}
			by[v]++
		}
		if len(vals) < 2 {
			continue
		}
		es, err := s.entities(vals)
		if err != nil {
			return filter{}, false, err
		}
		switch col.Datatype {
		case graph.TypeEntity, graph.TypeText:
			var good []uint32
			for _, v := range vals {
				// Nor a cell of people joined by a comma ("whose producer
				// is Lootpack, Tha Alkaholiks" reads as one name).
				if by[v] >= 2 && by[v] < n && len(es[v].Name) >= 2 && !placeholder(es[v].Name) && !audit.LinkLabel(es[v].Name) && plainClue(es[v].Name) &&
					!spanCell.MatchString(es[v].Name) && !(col.Domain == "person" && strings.Contains(es[v].Name, ", ")) &&
					!slices.ContainsFunc(vals, func(o uint32) bool {
						return o != v && (typoOf(es[o].Name, es[v].Name) || kindOf(es[o].Name, es[v].Name))
					}) &&
					!s.writtenAlike(t, vals, v) &&
					!s.listedIn(t, c, keys, v) {
					// A value one letter off another ("Rignt wing" beside
					// "Right wing") would leave out the misprinted rows, one
					// another value names a kind of ("Gothic" beside "German
					// Gothic", "Late Gothic Revival") the rows a reader
					// counts in, and
					// one a cell lists among others ("French, Hebrew") the
					// rows of that cell.
					// A name that names one entity only: the constant then
					// means what the table cell does, and an expansion that
					// identifies the entity keeps the answer.
					ids, err := s.g.FindEntities(es[v].Name, 2)
					if err != nil {
						return filter{}, false, err
					}
					if len(ids) == 1 {
						good = append(good, v)
					}
				}
			}
			if len(good) == 0 {
				continue
			}
			v := good[rng.IntN(len(good))]
			name := es[v].Name
			ref := d.addSlot(name, v, s.shownText(t, v)) // "French" for the link "French language"
			// "whose outcome is Loss", not "with Loss as outcome": readers
			// of rounds 72-81 stopped over the second.
			verb := " is "
			if pluralNoun(h) {
				verb = " are " // "whose dates are 1968-1975"
			}
			if timedHeader.MatchString(h) && clockTime.MatchString(name) {
				h += " time" // "whose start time is 1:14", a pursuit's
			}
			phrase := " whose " + h + verb + ref
			return filter{col: c, triple: task.Triple{S: task.Term{Target: true}, R: col.Name, O: task.C(name)},
				phrase: phrase, static: d.render(phrase), ids: []uint32{v}}, true, nil
		case graph.TypeYear, graph.TypeNumber:
			if f, ok := rangeFilter(t, c, h, vals, es, by, inKeys, n, rng); ok {
				return f, true, nil
			}
		}
	}
	return filter{}, false, nil
}

// spanCell matches a cell that spans figures ("Series 3-4", "1992–1995"):
// "whose series is Series 3-4" reads as "who appeared in series 3 to 4",
// which takes in "Series 1-8" too.
var spanCell = regexp.MustCompile(`\d\s*[-–—]\s*\d`)

// rangeFilter is a filter of years or numbers on column c of t: a range
// of years, or a lower bound on a quantity; by counts the keys of each
// value of vals, n the keys in all.
func rangeFilter(t *graph.Tree, c int, h string, vals []uint32, es map[uint32]*graph.Entity, by map[uint32]int, inKeys map[uint32]bool, n int, rng *rand.Rand) (filter, bool) {
	col := t.Columns[c]
	type nv struct {
		id uint32
		f  float64
	}
	var nums []nv
	for _, v := range vals {
		k := es[v].Key
		if len(k) < 3 || k[1] != ':' {
			continue
		}
		f, err := strconv.ParseFloat(k[2:], 64)
		if err != nil {
			continue
		}
		nums = append(nums, nv{v, f})
	}
	if len(nums) < 3 {
		return filter{}, false
	}
	// A range is read on every row: a cell the column holds as text
	// or as several values ("1965 (fb) 1971 (all)") may fall in it
	// for a reader, and the query would leave it out.
	numeric := make(map[uint32]bool, len(nums))
	for _, x := range nums {
		numeric[x.id] = true
	}
	if slices.ContainsFunc(t.Rows, func(r graph.Row) bool {
		return inKeys[r.Key] && len(r.Values[c]) > 0 && (len(r.Values[c]) > 1 || !numeric[r.Values[c][0]])
	}) {
		return filter{}, false
	}
	slices.SortFunc(nums, func(a, b nv) int {
		switch {
		case a.f < b.f:
			return -1
		case a.f > b.f:
			return 1
		}
		return int(a.id) - int(b.id)
	})
	if gendered[strings.ToLower(strings.TrimSpace(col.Header))] && nums[len(nums)-1].f < 1000 {
		return filter{}, false // "whose number of women is at least 2": women's titles, not women
	}
	var lo, hi int // index range into nums
	var phrase, least string
	if col.Datatype == graph.TypeYear {
		w := 2 + rng.IntN(max(1, len(nums)/2))
		lo = rng.IntN(max(1, len(nums)-w+1))
		hi = min(len(nums)-1, lo+w-1)
		a, b := es[nums[lo].id].Name, es[nums[hi].id].Name
		if pluralWord(h) && h != "years" {
			// "Minutes" 1515 to 1800: figures that read as years
			phrase = " whose " + h + " are between " + a + " and " + b + " inclusive"
		} else if (strings.HasSuffix(h, "ed") || timeParticiples[h]) && !strings.Contains(h, " ") {
			phrase = " " + h + " between " + a + " and " + b + " inclusive" // "opened between 1976 and 1987 inclusive"
		} else if fs := strings.Fields(h); len(fs) == 2 && (timeParticiples[fs[0]] || pastVerbs[fs[0]]) {
			// "Took office": not "with a took office from 2014 to 2018"
			phrase = " that " + h + " between " + a + " and " + b + " inclusive"
		} else if len(fs) == 2 && fs[0] != "year" && fs[0] != "date" && termVerbs[fs[1]] {
			// "Term ends": not "whose term ends is between 2022 and 2026"
			// (round 196)
			phrase = " whose " + h + " between " + a + " and " + b + " inclusive"
		} else {
			phrase = pick(rng, []string{" whose " + h + " is between " + a + " and " + b + " inclusive", " with " + article(h) + " " + h + " from " + a + " to " + b})
		}
	} else {
		if !measureHeader(h) {
			return filter{}, false // "whose champion is at least 7"
		}
		lo = len(nums)/4 + rng.IntN(max(1, len(nums)/2))
		hi = len(nums) - 1
		h = squared(venueCapacity([]*graph.Tree{t}, h))
		least = es[nums[lo].id].Name
		if f, ok := t.FigureIn(col.Name, least); ok {
			least = f // "at least 174,128", as the column writes it
		}
		if pluralWord(h) {
			phrase = " whose number of " + h + " is at least " + least // "winners", "goals"
		} else if pluralHead(h) {
			phrase = " whose " + h + " are at least " + least // "field goals", "home runs"
		} else {
			phrase = " whose " + h + " is at least " + least
		}
	}
	if hi-lo+1 > 40 {
		return filter{}, false
	}
	count := 0
	var names []string
	var ids []uint32
	for _, x := range nums[lo : hi+1] {
		count += by[x.id]
		names = append(names, es[x.id].Name)
		ids = append(ids, x.id)
	}
	if count < 2 || count >= n {
		return filter{}, false
	}
	return filter{col: c, triple: task.Triple{S: task.Term{Target: true}, R: col.Name, O: task.C(names...)},
		phrase: phrase, static: phrase, keep: []string{cmp.Or(least, es[nums[lo].id].Name)}, ids: ids}, true
}

// chooseCols picks 2 to 4 requested columns (fewer when fewer exist).
func chooseCols(d *draft, t *graph.Tree, cols []int, skip int, rng *rand.Rand) []column {
	var cand []int
	for _, c := range cols {
		if c != skip {
			cand = append(cand, c)
		}
	}
	rng.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	k := min(len(cand), 2+rng.IntN(3))
	cand = cand[:k]
	// A bare "Total" reads as the total of the figures asked beside it
	// (gold, silver and bronze; men and women), else as no one thing:
	// "their total and passes defended" of tackles.
	figures := 0
	for _, c := range cand {
		if t.Columns[c].Datatype == graph.TypeNumber && !bareTotal(t.Columns[c].Header) {
			figures++
		}
	}
	if figures < 2 {
		cand = slices.DeleteFunc(cand, func(c int) bool { return bareTotal(t.Columns[c].Header) })
	}
	slices.Sort(cand) // table order
	out := make([]column, len(cand))
	for i, c := range cand {
		col := t.Columns[c]
		out[i] = column{rel: col.Name, header: col.Header, v: d.newVar(words(col.Header))}
	}
	return out
}

// bareTotal reports whether a header is "Total" and no more.
func bareTotal(h string) bool {
	h = strings.ToLower(strings.Trim(h, " .:"))
	return h == "total" || h == "totals"
}

func colTriples(cols []column) []task.Triple {
	out := make([]task.Triple, len(cols))
	for i, c := range cols {
		out[i] = task.Triple{S: task.Term{Target: true}, R: c.rel, O: task.V(c.v)}
	}
	return out
}

// isTreeRel reports whether r is in_tree or not_in_tree, whose objects
// are tree ids, not entities.
func isTreeRel(r string) bool {
	r = strings.ToLower(strings.TrimSpace(r))
	return r == "in_tree" || r == "not_in_tree"
}

func inTree(ids ...uint32) task.Triple {
	cs := make([]string, len(ids))
	for i, id := range ids {
		cs[i] = strconv.FormatUint(uint64(id), 10)
	}
	return task.Triple{S: task.Term{Target: true}, R: "in_tree", O: task.C(cs...)}
}

// crawlShort reports whether t is a table of a JSON Lines export (its
// source a "#line") with 19 rows: the WikiTables crawl keeps 20, and
// counted the header as one where it cut a longer table ("The detailed
// list of the mothers" of 36 Ottoman sultans stops at the 19th). The
// build marks the alphabetical such heads cut; the others cannot be told
// from a complete table of 19, and "all" of one is not asked.
func crawlShort(t *graph.Tree) bool {
	return len(t.Rows) == crawlCap-1 && strings.Contains(t.Source, "#line ")
}

// crawlCap is how many rows the WikiTables crawl kept of a table
// (ingest/table.WikiTablesMaxRows).
const crawlCap = 20

// personalWorks reports whether t lists a person's works: a section or
// caption of a filmography, discography or bibliography, of video games
// or a career, on a page that is no list.
func personalWorks(t *graph.Tree) bool {
	if strings.HasPrefix(t.PageTitle, "List") || strings.Contains(strings.ToLower(t.PageTitle), "filmography") ||
		strings.Contains(strings.ToLower(t.PageTitle), "discography") {
		return false
	}
	sub := strings.ToLower(t.Section + " " + t.Caption)
	for _, w := range []string{"filmography", "discography", "bibliography", "video games", "television", "film", "works", "career"} {
		if strings.Contains(sub, w) {
			return true
		}
	}
	return false
}

// personPage reports whether a page title may be a person's: two to four
// capitalised words without a figure, a lower-case word or a word of an
// event or a body ("Kristýna Plíšková", not "Big East Conference"). The
// templates asked of it read for any page.
func personPage(title string) bool {
	if i := strings.Index(title, " ("); i > 0 {
		title = title[:i]
	}
	ws := strings.Fields(title)
	if len(ws) < 2 || len(ws) > 4 || strings.ContainsFunc(title, unicode.IsDigit) {
		return false
	}
	for _, w := range ws {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) || eventWords[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

// eventWords are the words of a page's title that name an event, a body
// or a place, not a person.
var eventWords = map[string]bool{
	"championship": true, "championships": true, "league": true, "cup": true, "open": true, "games": true, "olympics": true,
	"season": true, "tournament": true, "conference": true, "association": true, "party": true, "county": true,
	"district": true, "station": true, "line": true, "railway": true, "airport": true, "university": true, "college": true,
	"school": true, "club": true, "team": true, "award": true, "awards": true, "prize": true, "festival": true, "records": true,
	"company": true, "corporation": true, "group": true, "band": true, "river": true, "lake": true, "park": true,
}

// describedKey reports whether t's keys are where or whose a thing is
// rather than its name: a "Location" or "Address" column chosen as the
// key because the names repeat ("125-127 East Water Street" for a
// portion of the Franklin Buildings), a "Mayor" keying a list of cities
// (Rome's figures asked of "Virginia Raggi (M5S)"). A list of mayors is
// keyed by its mayors.
func describedKey(t *graph.Tree) bool {
	switch h := strings.ToLower(strings.TrimSpace(t.KeyHeader)); h {
	case "location", "locations", "address", "street address":
		return true
	case "mayor", "incumbent mayor", "current mayor", "governor", "owner", "architect", "head coach", "coach", "manager", "captain":
		return !containsFold(t.PageTitle+" "+t.Section+" "+t.Caption, h) // "mayors" holds "mayor"
	}
	return false
}

// nounOfColumn reports whether n, t's noun for its keys where the key
// header names none (genericKey: from a section, a caption, the page),
// heads another column's header: "Miss Earth countries (entrants)" keyed
// by "National title" lists its countries under "Country/Territory", and
// "every country" of it are not "Miss Angola", "Miss Earth Bahamas".
func nounOfColumn(t *graph.Tree, n noun) bool {
	if !genericKey(t) || n.one == "" {
		return false
	}
	for _, c := range t.Columns {
		if c.Datatype != graph.TypeEntity && c.Datatype != graph.TypeText {
			continue // "Episode" numbering the episodes titled in the key
		}
		ws := strings.FieldsFunc(strings.ToLower(c.Header), func(r rune) bool { return !unicode.IsLetter(r) })
		if len(ws) > 0 && len(ws) <= 3 && (ws[0] == n.one || ws[0] == n.many) {
			return true
		}
	}
	return false
}

// basicColumns are the columns of t a Basic task may ask for of keys,
// all its rows: usable and askable. A base is drawn in each round; they
// are kept per tree. The slice is the caller's.
func (s *synth) basicColumns(t *graph.Tree, keys []uint32) ([]int, error) {
	if cols, ok := s.basicCols[t.ID]; ok {
		return slices.Clone(cols), nil
	}
	cols, err := s.usableColumns([]*graph.Tree{t}, t, keys)
	if err != nil {
		return nil, err
	}
	cols = slices.DeleteFunc(cols, func(c int) bool { return !s.askable(t, c, keys) })
	if s.basicCols == nil {
		s.basicCols = map[uint32][]int{}
	}
	s.basicCols[t.ID] = cols
	return slices.Clone(cols), nil
}

// basic drafts a Version-I task over one tree: its keys (optionally
// filtered) and some of their attributes.
func (s *synth) basic(ctx context.Context, t *graph.Tree, rng *rand.Rand) (*draft, string, error) {
	if !memo(&s.plainKeyed, t.ID, func(uint32) bool { return s.plainKeys(t) }) {
		return nil, DropNoName, nil
	}
	// A question that can only call its keys "entries" is not one a
	// person asks: nothing says what they are.
	kn := keyNoun(t)
	if kn.many == "entries" || !s.commonKeyNoun(t, kn) || describedKey(t) || nounOfColumn(t, kn) {
		return nil, DropNoNoun, nil
	}
	if kn.many == "films" && filmography(t) {
		if tv, err := s.televised(t); err != nil {
			return nil, "", err
		} else if tv {
			kn = noun{"work", "works"}
		}
	}
	// "The complete set of cities from Province of Bergamo": its ten
	// largest, which nothing but the table says.
	// "Modern Library 100 Best Novels — Editors' list" ranking ten: the top
	// ten of the hundred its title names, also where cleaning dropped the
	// "#" that numbered them ("Readers' list").
	// "Miss Teen USA 1989" of its ten semifinalists' scores: the page's
	// delegates are fifty-one; Buffalo Public Schools' schools with the
	// year each closed: the defunct ones.
	if (t.Section == "" && t.Caption == "" || statedMore(t)) && (s.rankedTop(t) || scoreSheet(t)) || s.roundTop(t) ||
		statedMore(t) && numberedRows(t) && rankedCount.MatchString(t.PageTitle) && !topWords.MatchString(t.Section+" "+t.Caption) ||
		t.Section == "" && t.Caption == "" && formerList(t) {
		return nil, DropUnnamedTop, nil
	}
	if crawlShort(t) {
		return nil, DropMaybeCut, nil
	}
	keys := rowKeys(t)
	cols, err := s.basicColumns(t, keys)
	if err != nil {
		return nil, "", err
	}
	d := &draft{variant: task.Basic, trees: []*graph.Tree{t}, keyNoun: kn, keyHeader: t.KeyHeader}
	d.triples = []task.Triple{inTree(t.ID)}
	// One hop beyond the table (WebShaper's layer-wise expansion through
	// the graph): an attribute of the key entities themselves that every
	// key has in other trees, read on their own pages or other tables, so
	// that most of R is not on the table's page. Chosen first: most tables
	// have none.
	hops, restricted, err := s.basicHops(t, filter{col: -1}, rng)
	if err != nil {
		return nil, "", err
	}
	f := filter{col: -1}
	// The keys a filter of the table keeps may all have one that the
	// others lack: the filter is the table's own, so a reader finds the
	// same keys.
	for try := 0; try < 4 && len(hops) == 0 && len(cols) > 0 && s.requireHop; try++ {
		n := len(d.slots)
		g, ok, err := s.chooseFilter(d, t, keys, cols, rng, s.o.Expand > 0)
		if err != nil {
			return nil, "", err
		}
		if !ok {
			break
		}
		if hops, restricted, err = s.basicHops(t, g, rng); err != nil {
			return nil, "", err
		}
		if len(hops) > 0 {
			f = g
		} else {
			d.slots = d.slots[:n]
		}
	}
	if len(hops) == 0 && s.requireHop && s.o.Expand == 0 && !s.o.Aggregate {
		return nil, DropNoHop, nil
	}
	// Columns whose facts other trees also state (store-wide values, read
	// from the key's own page or those trees), asked for alongside.
	wide, err := s.sharedCols([]*graph.Tree{t}, keys)
	if err != nil {
		return nil, "", err
	}
	var beyond []int
	for _, c := range wide {
		if !slices.Contains(cols, c) && s.askable(t, c, keys) {
			beyond = append(beyond, c)
		}
	}
	if len(cols) == 0 && len(beyond) == 0 {
		return nil, DropNoColumns, nil
	}
	if f.col < 0 && (s.o.Expand > 0 || rng.IntN(2) == 0) {
		var ok bool
		if f, ok, err = s.chooseFilter(d, t, keys, cols, rng, s.o.Expand > 0); err != nil {
			return nil, "", err
		} else if !ok {
			f = filter{col: -1}
		}
	}
	if f.col >= 0 {
		d.triples = append(d.triples, f.triple)
		d.keep = append(d.keep, f.keep...)
		d.given = append(d.given, f.static)
	}
	d.cols = chooseCols(d, t, cols, f.col, rng)
	if len(hops) > 0 && len(d.cols) > 0 {
		d.cols = d.cols[:rng.IntN(2)] // few table columns: the hops carry the task
	}
	if len(hops) == 0 && len(beyond) > 0 {
		c := beyond[rng.IntN(len(beyond))]
		col := t.Columns[c]
		if c != f.col {
			d.cols = append(d.cols, column{rel: col.Name, header: col.Header, v: d.newVar(words(col.Header))})
		}
	}
	for _, h := range hops {
		h.v = d.newVar(words(h.header))
		d.cols = append(d.cols, h)
	}
	if len(d.cols) == 0 {
		return nil, DropNoColumns, nil
	}
	if restricted {
		var hw []string
		for _, h := range hops {
			hw = append(hw, lowerFirst(words(h.header)))
		}
		verb := " is on record"
		if len(hw) > 1 {
			verb = " are on record" // "whose residence and occupation are on record"
		}
		known := pick(rng, []string{" with a known " + list(hw), " whose " + list(hw) + verb})
		f.phrase += known
		d.given = append(d.given, known)
	}
	d.triples = append(d.triples, colTriples(d.cols)...)
	siblings, err := s.g.TreesOfPage(t.PageURL)
	if err != nil {
		return nil, "", err
	}
	r := concept(t, len(siblings) <= 1, d.keyNoun.many, rng)
	cw := s.valueWords(d.cols, d.trees, colWords(d.cols, d.trees))
	d.given = append(d.given, r)
	d.given = append(d.given, cw...)
	templates, r := basicPhrasing(t, r, d.keyNoun.many)
	d.question = fill(pick(rng, filtered(templates, f.phrase)), "many", d.keyNoun.many, "one", d.keyNoun.one,
		"root", r, "filter", f.phrase, "cols", list(cw))
	return d, "", nil
}

// televised reports whether a tree whose keys a question would call
// films lists television among them: a key titled as a series, serial or
// programme ("Quayside (TV series)"), or a cell that says so ("2-part
// television serial"). Tom Hooper's filmography is 10 of 17 television
// works, which a reader asked for his films leaves out (round 171).
func (s *synth) televised(t *graph.Tree) (bool, error) {
	var ids []uint32
	for _, r := range t.Rows {
		ids = append(ids, r.Key)
		for _, vs := range r.Values {
			ids = append(ids, vs...)
		}
	}
	es, err := s.entities(ids)
	if err != nil {
		return false, err
	}
	for _, id := range ids {
		if e := es[id]; e != nil && tvWork.MatchString(e.Name) {
			return true, nil
		}
	}
	return false, nil
}

// filmography reports whether a tree's keys are called films for its
// title's "filmography" alone: not a "Film" part of one (Elizabeth
// McGovern's, beside her "Television"), nor a list of films.
func filmography(t *graph.Tree) bool {
	sub := t.Caption
	if sub == "" {
		sub = t.Section
	}
	last := strings.ToLower(strings.TrimSpace(graph.LastSection(sub)))
	return last != "film" && last != "films" && !strings.Contains(strings.ToLower(t.PageTitle), "films") &&
		strings.Contains(strings.ToLower(sub+" "+t.PageTitle), "filmography")
}

// tvWork matches a title or cell of a television work.
var tvWork = regexp.MustCompile(`(?i)\b(?:tv|television)\b[^()]*\b(?:series|serial|film|movie|programme|program|show|special)\b|\((?:[0-9]{4} )?(?:tv series|tv serial|miniseries|tv film|tv programme|tv program)\)|\bminiseries\b|\btelevision (?:series|serial|film|movie|programme|program|show|special)`)

// basicPhrasing is the templates a Basic question on t takes, and its
// root (concept r) as they say it.
func basicPhrasing(t *graph.Tree, r, many string) ([]string, string) {
	if set, ok := setNamed(r, many); ok {
		// "every candidate of New Democratic Party candidates, 2008 …"
		// says the noun twice: the set is the noun. First: a set named
		// is no person's ("the cities within the regular definition of
		// Central Asia", on a page a name's two words title).
		return namedSetTemplates, set
	}
	if personalWorks(t) || personPage(t.PageTitle) {
		// "Which films appear in Wentworth Miller (Film)?": a person
		// holds no films; "Considering Wentworth Miller (Film), list the
		// films" reads.
		return ownerTemplates, r
	}
	return basicTemplates, r
}

// pastVerbs are verbs in the past that begin a header of a time ("Took
// office", "Left office", "Won title") and are no participle.
var pastVerbs = map[string]bool{"took": true, "left": true, "won": true, "began": true, "became": true, "lost": true}

// termVerbs end a header that is a noun and its verb ("Term ends",
// "Term began"), said as a clause of its own.
var termVerbs = map[string]bool{"ends": true, "ended": true, "begins": true, "began": true, "starts": true,
	"started": true, "expires": true, "expired": true}

// basicHopMin is the least share of a tree's (filtered) keys that must
// have a hop relation. Every key: a key without the value in the store
// would leave the answer "with a known X", which no reader can
// reproduce (the fact is often on the web under another name, an alias,
// or in the named table's own columns).
const basicHopMin = 1.0

// basicHops picks up to two relations that the tree's keys (those filter
// keeps, all with col -1) have only in other trees, each key with exactly one
// values, held by at least basicHopMin of the keys, preferring those
// whose values the tree does not show (read on other pages), at least one
// such value per two keys. restricted
// reports whether some keys lack them.
func (s *synth) basicHops(t *graph.Tree, f filter, rng *rand.Rand) ([]column, bool, error) {
	var keys []uint32
	for _, r := range t.Rows {
		if f.col >= 0 && (len(r.Values[f.col]) != 1 || !slices.Contains(f.ids, r.Values[f.col][0])) {
			continue
		}
		if !slices.Contains(keys, r.Key) {
			keys = append(keys, r.Key)
		}
	}
	if len(keys) < 3 || len(keys) > maxSpace {
		return nil, false, nil
	}
	own := map[string]bool{}
	for _, c := range t.Columns {
		own[c.Name] = true
	}
	ownW := ownWords(t)
	shown := map[uint32]bool{}
	for _, r := range t.Rows {
		shown[r.Key] = true
		for _, vs := range r.Values {
			for _, v := range vs {
				shown[v] = true
			}
		}
	}
	header := map[string]string{}
	has := map[string][]uint32{} // relation → keys that have it
	for _, k := range keys {
		m, err := s.keyRels(k)
		if err != nil {
			return nil, false, err
		}
		for r, tis := range m {
			// A value another table of the same page gives ("home city"
			// from its "Stadia and locations" beside "Head coaches") is
			// read off the page but not off the table the question names.
			if own[r] || sharesWord(r, ownW) || !slices.ContainsFunc(tis, func(ti int) bool { return s.trees[ti].PageURL != t.PageURL }) {
				continue
			}
			if _, ok := header[r]; !ok {
				t := s.trees[tis[0]]
				c := t.Columns[colIndex(t, r)]
				header[r] = c.Header
				if c.Datatype != graph.TypeEntity && c.Datatype != graph.TypeText {
					header[r] = "" // numbers and years read badly off their table
				}
			}
			has[r] = append(has[r], k)
		}
	}
	type hc struct {
		rel  string
		keys []uint32
		off  int // distinct values the tree does not show
	}
	var cands []hc
	need := max(3, int(basicHopMin*float64(len(keys))+0.999))
	for r, ks := range has {
		reason, off, err := s.hopCheck(r, header[r], ks, need, shown)
		if err != nil {
			return nil, false, err
		}
		if reason != "" {
			s.hops[reason]++
			continue
		}
		s.hops[hopTaken]++
		cands = append(cands, hc{r, ks, off})
	}
	if len(cands) == 0 {
		return nil, false, nil
	}
	slices.SortFunc(cands, func(a, b hc) int {
		if a.off != b.off {
			return b.off - a.off
		}
		return strings.Compare(a.rel, b.rel)
	})
	first := cands[rng.IntN(min(3, len(cands)))]
	out := []column{{rel: first.rel, header: header[first.rel]}}
	inter := first.keys
	// A second hop when enough keys have both.
	for _, c := range cands {
		if c.rel == first.rel {
			continue
		}
		var both []uint32
		for _, k := range inter {
			if slices.Contains(c.keys, k) {
				both = append(both, k)
			}
		}
		if len(both) >= need {
			out = append(out, column{rel: c.rel, header: header[c.rel]})
			inter = both
		}
		break
	}
	return out, len(inter) < len(keys), nil
}

// Outcomes of a hop relation, counted in Stats.Hops.
const (
	hopNotEveryKey = "not_every_key"     // some keys of the table lack it in the store
	hopHeader      = "header_unclear"    // a header of one word, or not plain
	hopSeveral     = "several_values"    // a key has several values, or a mark
	hopOnTable     = "shown_on_table"    // its values are mostly the table's own cells
	hopNotOwn      = "not_own"           // no attribute of the keys themselves
	hopUnstable    = "changes_over_time" // its value differs between sources
	hopTaken       = "taken"
)

// hopCheck returns the check that relation r, headed header and held by
// keys ks of the need a tree's keys require, fails as a hop ("" for
// none), and the distinct values of it the tree does not show.
func (s *synth) hopCheck(r, header string, ks []uint32, need int, shown map[uint32]bool) (string, int, error) {
	if len(ks) < need {
		return hopNotEveryKey, 0, nil
	}
	if len(words(header)) < 2 || !plainHeader(header, true) {
		return hopHeader, 0, nil
	}
	off := map[uint32]bool{}
	for _, k := range ks {
		v, err := s.objects(r, k)
		if err != nil {
			return "", 0, err
		}
		if len(v) != 1 || plainMark(s.display(v[0])) {
			return hopSeveral, 0, nil // several values: which is the key's own?
		}
		if !shown[v[0]] {
			off[v[0]] = true
		}
	}
	if len(off) < 2 || 2*len(off) < len(ks) {
		return hopOnTable, 0, nil
	}
	// Read store-wide, it must be the keys' own, not the tables'.
	if own, err := s.ownAttr(header, ks); err != nil || !own {
		return hopNotOwn, 0, err
	}
	if st, err := s.stable(r, ks); err != nil || !st {
		return hopUnstable, 0, err
	}
	return "", len(off), nil
}
