package graph

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/leaper-dev/leaper/graph/table"
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
func cellText(ents []*Entity, ids []uint32) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = ents[id].Name
	}
	return strings.Join(names, ", ")
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// RenderTree renders a tree as page segments: a heading, the header row and
// one segment per row, each knowing the entities it shows.
func RenderTree(t *Tree, ents []*Entity, block int) []Segment {
	var segs []Segment
	head := "## " + t.PageTitle
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
		rb.WriteString("| " + mdEscape(ents[r.Key].Name))
		for _, vs := range r.Values {
			rb.WriteString(" | " + mdEscape(cellText(ents, vs)))
			ids = append(ids, vs...)
		}
		rb.WriteString(" |")
		segs = append(segs, Segment{Text: rb.String(), Entities: ids, Kind: SegRow, Block: block})
	}
	return segs
}

type pageBuilder struct {
	p      *Page
	facts  int
	blocks int
}

// writePages renders every page and stores it. One page per URL: a source
// page holds its tables (and its own article's passage, when the corpus
// has one); an entity page holds the passage and the facts the tables
// state about the entity.
func (b *Builder) writePages(ctx context.Context, trees []*Tree, ents []*Entity, progress func(string, int, int), onPage func(*Page, []Shown) error) (int, error) {
	s := b.s
	pages := map[string]*pageBuilder{}
	get := func(url, title string, kind PageKind) *pageBuilder {
		pb := pages[url]
		if pb == nil {
			pb = &pageBuilder{p: &Page{URL: url, Title: title, Kind: kind}}
			pages[url] = pb
		}
		return pb
	}
	// Passages first, so they open their pages.
	err := s.scan(pPassage, func(k, v []byte) error {
		title := string(k[1:])
		e := b.ents["w:"+title]
		pb := get(table.URL(title), title, PageEntity)
		pb.p.Segments = append(pb.p.Segments, Segment{Text: string(v), Entities: []uint32{e.ID}, Kind: SegPassage})
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, t := range trees {
		pb := get(t.PageURL, t.PageTitle, PageTable)
		pb.p.Kind = PageTable
		pb.p.Segments = append(pb.p.Segments, RenderTree(t, ents, pb.blocks)...)
		pb.blocks++
	}
	// Facts: rows where the entity is the key, then rows where it is a value.
	for _, t := range trees {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		for _, r := range t.Rows {
			k := ents[r.Key]
			if k.Type == TypeEntity {
				pb := get(k.URL, k.Name, PageEntity)
				if pb.facts < maxFacts {
					var fb strings.Builder
					fb.WriteString(k.Name + " (" + t.Title() + "):")
					ids := []uint32{r.Key}
					for j, vs := range r.Values {
						if len(vs) > 0 {
							fb.WriteString(" " + t.Columns[j].Header + ": " + cellText(ents, vs) + ";")
							ids = append(ids, vs...)
						}
					}
					pb.p.Segments = append(pb.p.Segments, Segment{Text: strings.TrimSuffix(fb.String(), ";"), Entities: ids, Kind: SegFact})
					pb.facts++
				}
			}
		}
	}
	for _, t := range trees {
		for _, r := range t.Rows {
			for j, vs := range r.Values {
				for _, v := range vs {
					e := ents[v]
					if e.Type != TypeEntity {
						continue
					}
					pb := get(e.URL, e.Name, PageEntity)
					if pb.facts >= maxFacts {
						continue
					}
					pb.p.Segments = append(pb.p.Segments, Segment{
						Text:     ents[r.Key].Name + " (" + t.Title() + "): " + t.Columns[j].Header + ": " + e.Name,
						Entities: []uint32{r.Key, v}, Kind: SegFact})
					pb.facts++
				}
			}
		}
	}
	urls := sortedKeys(pages)
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	for i, u := range urls {
		if i%10000 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			progress("pages", i, len(urls))
		}
		p := pages[u].p
		var all strings.Builder
		for _, sg := range p.Segments {
			all.WriteString(sg.Text)
			all.WriteByte('\n')
		}
		p.Years = Years(all.String())
		buf, err := json.Marshal(p)
		if err != nil {
			return 0, err
		}
		if err := wb.Set(strKey(pPage, u), buf); err != nil {
			return 0, err
		}
		shown := shownOf(p, ents)
		if buf, err = json.Marshal(shown); err != nil {
			return 0, err
		}
		if err := wb.Set(strKey(pPageEnts, u), buf); err != nil {
			return 0, err
		}
		if onPage != nil {
			if err := onPage(p, shown); err != nil {
				return 0, err
			}
		}
		delete(pages, u)
	}
	progress("pages", len(urls), len(urls))
	if err := wb.Flush(); err != nil {
		return 0, err
	}
	return len(urls), nil
}

// shownOf lists the entities a page shows, by id.
func shownOf(p *Page, ents []*Entity) []Shown {
	seen := map[uint32]bool{}
	for _, sg := range p.Segments {
		for _, id := range sg.Entities {
			seen[id] = true
		}
	}
	out := make([]Shown, 0, len(seen))
	for _, id := range sortedIDs(seen) {
		out = append(out, Shown{ID: id, Name: ents[id].Name})
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
