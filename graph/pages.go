package graph

import (
	"context"
	"encoding/json"
	"strings"
)

// maxFacts bounds the fact lines of an entity page: "United States" is a
// value in thousands of rows.
const maxFacts = 60

// Years returns the distinct years 1500..2099 a text mentions as whole
// four-digit numbers, in order, at most 64.
func Years(text string) []int {
	var seen [600]bool
	n := 0
	for i := 0; i+4 <= len(text) && n < 64; i++ {
		if !isDigit(text[i]) || (i > 0 && isAlnum(text[i-1])) {
			continue
		}
		if !isDigit(text[i+1]) || !isDigit(text[i+2]) || !isDigit(text[i+3]) || (i+4 < len(text) && isAlnum(text[i+4])) {
			continue
		}
		y := int(text[i]-'0')*1000 + int(text[i+1]-'0')*100 + int(text[i+2]-'0')*10 + int(text[i+3]-'0')
		if y >= 1500 && y < 2100 && !seen[y-1500] {
			seen[y-1500] = true
			n++
		}
		i += 3
	}
	ys := make([]int, 0, n)
	for y, ok := range seen {
		if ok {
			ys = append(ys, y+1500)
		}
	}
	return ys
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// cellText renders a cell's values for a page.
func cellText(ents *entDict, ids []uint32) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = ents.name(id)
	}
	return strings.Join(names, ", ")
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// RenderTree renders a tree as page segments: a heading, the header row and
// one segment per row, each knowing the entities it shows.
func RenderTree(t *Tree, ents *entDict, block int) []Segment {
	var segs []Segment
	head := "## " + t.PageTitle
	if t.Untitled {
		head = "## Untitled table"
	}
	if t.Section != "" {
		head = "## " + t.Section
	}
	if t.Caption != "" {
		head += "\n\n" + t.Caption
	}
	segs = append(segs, Segment{Text: head, Entities: t.Question, Kind: SegHeading, Block: block})
	var hb strings.Builder
	hb.WriteString("| " + mdEscape(t.KeyHeader))
	for _, c := range t.Columns {
		hb.WriteString(" | " + mdEscape(c.Header))
	}
	hb.WriteString(" |\n|---")
	for range t.Columns {
		hb.WriteString("|---")
	}
	hb.WriteString("|")
	segs = append(segs, Segment{Text: hb.String(), Kind: SegHeader, Block: block})
	for _, r := range t.Rows {
		var rb strings.Builder
		ids := []uint32{r.Key}
		rb.WriteString("| " + mdEscape(t.ShownName(r.Key, ents.name(r.Key))))
		for j, vs := range r.Values {
			text := cellText(ents, vs)
			if len(vs) == 1 {
				if d, ok := t.FigureIn(t.Columns[j].Name, text); ok {
					text = d
				} else {
					text = t.ShownName(vs[0], text)
				}
			}
			rb.WriteString(" | " + mdEscape(text))
			ids = append(ids, vs...)
		}
		rb.WriteString(" |")
		segs = append(segs, Segment{Text: rb.String(), Entities: ids, Kind: SegRow, Block: block})
	}
	return segs
}

// Phases of page fragments: on a page, the passage comes first, then the
// tables, the facts about the entity as a row's key, and the facts about it
// as a value.
const (
	phasePassage byte = iota
	phaseTree
	phaseKeyFact
	phaseValueFact
)

// factCounts counts, per entity, the fact lines emitted about it as a key
// and as a value, up to maxFacts each: writePages keeps at most maxFacts
// facts of a page, the first by phase and then in the order emitted, so
// an entity's key facts past its first maxFacts, and its value facts past
// its first maxFacts, are never shown, whichever entities share its page;
// they are not emitted. ("United States" is a value in tens of thousands
// of rows: their fact lines were most of what finalize sorted.)
type factCounts []uint8

func newFactCounts(entities uint32) factCounts { return make(factCounts, 2*int(entities)) }

// take reports whether one more fact of the phase (phaseKeyFact or
// phaseValueFact) about entity id is to be emitted, and counts it.
func (c factCounts) take(phase byte, id uint32) bool {
	i := 2*int(id) + int(phase-phaseKeyFact)
	if i >= len(c) {
		return true // an entity added since: not counted
	}
	if c[i] >= maxFacts {
		return false
	}
	c[i]++
	return true
}

// pageFragments emits the fragments of a tree's pages: its own rendering
// on its source page, and the fact lines it states about the entities of
// its rows, as keys and as values (those facts counts lets through), on
// the pages cf leads them to.
func pageFragments(sp *spill, t *Tree, ents *entDict, facts factCounts, cf *casedFacts) error {
	if err := sp.add(phaseTree, named(fragment{url: t.PageURL, title: t.PageTitle, kind: fragTree, segs: RenderTree(t, ents, 0)}, ents)); err != nil {
		return err
	}
	title := t.Title()
	for _, r := range t.Rows {
		k := ents.rec(r.Key)
		if k.typ != TypeEntity || !facts.take(phaseKeyFact, r.Key) {
			continue
		}
		var fb strings.Builder
		fb.WriteString(k.name + " (" + title + "):")
		ids := []uint32{r.Key}
		for j, vs := range r.Values {
			if len(vs) > 0 {
				fb.WriteString(" " + t.Columns[j].Header + ": " + cellText(ents, vs) + ";")
				ids = append(ids, vs...)
			}
		}
		seg := Segment{Text: strings.TrimSuffix(fb.String(), ";"), Entities: ids, Kind: SegFact}
		url, page := cf.page(k.fullURL(), k.name)
		if err := sp.add(phaseKeyFact, named(fragment{url: url, title: page, kind: fragFact, segs: []Segment{seg}}, ents)); err != nil {
			return err
		}
	}
	for _, r := range t.Rows {
		for j, vs := range r.Values {
			for _, v := range vs {
				e := ents.rec(v)
				if e.typ != TypeEntity || !facts.take(phaseValueFact, v) {
					continue
				}
				seg := Segment{Text: ents.name(r.Key) + " (" + title + "): " + t.Columns[j].Header + ": " + e.name,
					Entities: []uint32{r.Key, v}, Kind: SegFact}
				url, page := cf.page(e.fullURL(), e.name)
				if err := sp.add(phaseValueFact, named(fragment{url: url, title: page, kind: fragFact, segs: []Segment{seg}}, ents)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// named fills in a fragment's names from the dictionary.
func named(f fragment, ents *entDict) fragment {
	for _, sg := range f.segs {
		for _, id := range sg.Entities {
			f.names = append(f.names, ents.name(id))
		}
	}
	return f
}

// writePages assembles the pages from the spilled fragments, in URL order,
// and stores them. One page per URL: a source page holds its tables (and
// its own article's passage, when the corpus has one); an entity page
// holds the passage and at most maxFacts facts the tables state about the
// entity. Only one page is in memory at a time.
func (b *Builder) writePages(ctx context.Context, sp *spill, progress func(string, int, int), onPage func(*Page, []Shown) error, digest *pageDigest) (int, error) {
	s := b.s
	wb := newAsyncWriter(s.db)
	defer wb.Cancel()
	n := 0
	// Until the last page, the stage's total is estimated from the share
	// of the fragments' work merged so far (fragWork): a figure for an
	// ETA, not a count (a source page holds more work than an entity's).
	var merged int64
	var p *Page
	var facts, blocks int
	names := map[uint32]string{} // of the entities on p
	// add puts a fragment's segments on the page, with their names.
	add := func(f *fragment) {
		p.Segments = append(p.Segments, f.segs...)
		i := 0
		for _, sg := range f.segs {
			for _, id := range sg.Entities {
				if i < len(f.names) {
					names[id] = f.names[i]
				}
				i++
			}
		}
	}
	emit := func() error {
		if p == nil {
			return nil
		}
		if n%10000 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			progress("pages", n, estimatePages(n, merged, sp.work))
		}
		n++
		var all strings.Builder
		for _, sg := range p.Segments {
			all.WriteString(sg.Text)
			all.WriteByte('\n')
		}
		p.Years = Years(all.String())
		buf, err := json.Marshal(p)
		if err != nil {
			return err
		}
		if err := wb.Set(strKey(pPage, p.URL), buf); err != nil {
			return err
		}
		shown := shownOf(p, names)
		sbuf, err := json.Marshal(shown)
		if err != nil {
			return err
		}
		if err := wb.Set(strKey(pPageEnts, p.URL), sbuf); err != nil {
			return err
		}
		digest.add(buf, sbuf)
		if id := firstDocID(p); id != "" {
			if err := wb.Set(strKey(pDocID, p.URL), []byte(id)); err != nil {
				return err
			}
		}
		if onPage != nil {
			if err := onPage(p, shown); err != nil {
				return err
			}
		}
		return nil
	}
	err := sp.merge(func(f *fragment) error {
		merged += fragWork(f)
		if p == nil || f.url != p.URL {
			if err := emit(); err != nil {
				return err
			}
			kind := PageEntity
			if f.kind == fragTree {
				kind = PageTable
			}
			p = &Page{URL: f.url, Title: f.title, Kind: kind}
			facts, blocks = 0, 0
			clear(names)
		}
		switch f.kind {
		case fragTree:
			p.Kind = PageTable
			for i := range f.segs {
				f.segs[i].Block = blocks
			}
			blocks++
			add(f)
		case fragFact:
			if facts < maxFacts {
				add(f)
				facts++
			}
		default:
			add(f)
		}
		return nil
	})
	if err == nil {
		err = emit()
	}
	if err != nil {
		return 0, err
	}
	progress("pages", n, n)
	if err := wb.Close(); err != nil {
		return 0, err
	}
	return n, nil
}

// estimatePages scales the pages made so far by the share of the work
// merged for them, of all the work: 0 (unknown) before any, and always
// more than made.
func estimatePages(made int, merged, all int64) int {
	if made == 0 || merged == 0 {
		return 0
	}
	return max(int(float64(made)*float64(all)/float64(merged)), made+1)
}

// shownOf lists the entities a page shows, by id.
func shownOf(p *Page, names map[uint32]string) []Shown {
	seen := map[uint32]bool{}
	for _, sg := range p.Segments {
		for _, id := range sg.Entities {
			seen[id] = true
		}
	}
	out := make([]Shown, 0, len(seen))
	for _, id := range sortedIDs(seen) {
		out = append(out, Shown{ID: id, Name: names[id]})
	}
	return out
}

// PageText joins a page's segments into the text that is indexed.
func PageText(p *Page) string {
	var b strings.Builder
	for i, sg := range p.Segments {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(sg.Text)
	}
	return b.String()
}
