package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/index"
	"github.com/leaper-dev/leaper/store"
)

// Messages of the tools, exactly as Tongyi DeepResearch's.
const (
	MsgSearchInvalid   = "[Search] Invalid request format: Input must be a JSON object containing 'query' field"
	MsgVisitInvalid    = "[Visit] Invalid request format: Input must be a JSON object containing 'url' and 'goal' fields"
	MsgNoAccessEvid    = "The provided webpage content could not be accessed. Please check the URL or file format."
	MsgNoAccessSummary = "The webpage content could not be processed, and therefore, no information is available."
	querySep           = "\n=======\n"
)

// Observation is what a tool call shows the agent: the text, and the ids of
// the graph entities the text shows.
type Observation struct {
	Text     string   `json:"result"`
	Entities []uint32 `json:"entities"`
	// URLs are the pages the observation came from (search hits, visited
	// pages), in order.
	URLs []string `json:"urls,omitempty"`
}

// Options configure a Web. A nil *Options means the defaults.
type Options struct {
	// TopK is the number of search results per query; default 10.
	TopK int
	// MaxEvidence bounds the evidence of one visited page, in bytes; default
	// 32000: entity-dense goals need whole tables.
	MaxEvidence int
}

func (o *Options) withDefaults() (Options, error) {
	var c Options
	if o != nil {
		c = *o
	}
	if c.TopK < 0 || c.MaxEvidence < 0 {
		return c, fmt.Errorf("web: TopK (%d) and MaxEvidence (%d) must not be negative", c.TopK, c.MaxEvidence)
	}
	if c.TopK == 0 {
		c.TopK = 10
	}
	if c.MaxEvidence == 0 {
		c.MaxEvidence = 32000
	}
	return c, nil
}

// Web serves search and visit over a store.
type Web struct {
	st         *store.Store
	opts       Options
	closeStore bool
	names      namesCache

	mu     sync.Mutex
	closed bool
}

// New serves the web over an open store, which must have its index (not
// opened GraphOnly). Close leaves the store open.
func New(st *store.Store, opts *Options) (*Web, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if st.Index() == nil {
		return nil, errors.New("web: the store was opened without its index")
	}
	return &Web{st: st, opts: o}, nil
}

// Open opens the store in dir read-only, as every reader should, and
// serves the web over it; Close closes the store.
func Open(dir string, opts *Options) (*Web, error) {
	st, err := store.Open(dir, nil)
	if err != nil {
		return nil, err
	}
	w, err := New(st, opts)
	if err != nil {
		st.Close()
		return nil, err
	}
	w.closeStore = true
	return w, nil
}

// Store is the store the web serves.
func (w *Web) Store() *store.Store { return w.st }

// Close closes the store when Open opened it. Closing twice returns
// ErrClosed.
func (w *Web) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	w.closed = true
	if !w.closeStore {
		return nil
	}
	return w.st.Close()
}

// SearchArgs are the search tool's arguments. Query is a string or a list of
// strings.
type SearchArgs struct {
	Query      json.RawMessage `json:"query"`
	FilterYear *int            `json:"filter_year,omitempty"`
}

// VisitArgs are the visit tool's arguments. URL is a string or a list.
type VisitArgs struct {
	URL  json.RawMessage `json:"url"`
	Goal *string         `json:"goal"`
}

// strOrList decodes a JSON string or list of strings; single reports which.
func strOrList(raw json.RawMessage) (vals []string, single bool, ok bool) {
	if len(raw) == 0 {
		return nil, false, false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}, true, true
	}
	var l []string
	if json.Unmarshal(raw, &l) == nil && len(l) > 0 {
		return l, false, true
	}
	return nil, false, false
}

// ParseSearchArgs reads the search tool's arguments (SearchArgs): the
// queries, whether one string was given rather than a list, and
// filter_year (0: none); ok is false for arguments the tool refuses with
// MsgSearchInvalid.
func ParseSearchArgs(args json.RawMessage) (qs []string, single bool, year int, ok bool) {
	var a SearchArgs
	if json.Unmarshal(args, &a) != nil {
		return nil, false, 0, false
	}
	if qs, single, ok = strOrList(a.Query); !ok {
		return nil, false, 0, false
	}
	if a.FilterYear != nil {
		year = *a.FilterYear
	}
	return qs, single, year, true
}

// Call runs a tool by name with JSON arguments, as an agent calls it. Bad
// arguments give the tool's own error text, not an error.
func (w *Web) Call(ctx context.Context, name string, args json.RawMessage) (*Observation, error) {
	switch name {
	case "search":
		qs, single, y, ok := ParseSearchArgs(args)
		if !ok {
			return &Observation{Text: MsgSearchInvalid}, nil
		}
		return w.search(ctx, qs, single, y)
	case "visit":
		var a VisitArgs
		if json.Unmarshal(args, &a) != nil || a.Goal == nil {
			return &Observation{Text: MsgVisitInvalid}, nil
		}
		us, single, ok := strOrList(a.URL)
		if !ok {
			return &Observation{Text: MsgVisitInvalid}, nil
		}
		return w.visit(ctx, us, single, *a.Goal)
	}
	return nil, fmt.Errorf("web: unknown tool %q", name)
}

// Search runs queries; several are joined as Tongyi joins them.
func (w *Web) Search(ctx context.Context, queries []string, filterYear int) (*Observation, error) {
	return w.search(ctx, queries, len(queries) == 1, filterYear)
}

// Hit is a search hit with the entities its title and snippet show, as a
// search observation attributes them.
type Hit struct {
	index.Hit
	Entities []uint32
	// DocID is the corpus id of the document the snippet was cut from
	// (a wiki-18 passage, a BrowseComp-Plus document, a KILT article), or
	// of the page's first document when that cannot be told; "" for a
	// page that holds none.
	DocID string
	// Passage is that document's passage (or KILT paragraph) whole, when
	// it is at most maxPassage bytes: what Search-R1's retriever answers
	// with ("\"Title\"\n" + Passage), rather than a snippet of the page.
	Passage string
}

// maxPassage bounds Hit.Passage: a wiki-18 passage is about 600 bytes; a
// web document of BrowseComp-Plus may be a whole page, shown as a snippet.
const maxPassage = 2000

// Hits runs one query for its k best hits (k <= 0: the tool's TopK), each
// with the entities its title and snippet show. It is what search and the
// live-web-shaped endpoints share, so both attribute the same entities.
func (w *Web) Hits(ctx context.Context, q string, k, filterYear int) ([]Hit, error) {
	if k <= 0 {
		k = w.opts.TopK
	}
	hs, err := w.st.Index().Search(ctx, q, index.SearchOptions{K: k, FilterYear: filterYear})
	if err != nil {
		return nil, err
	}
	out := make([]Hit, len(hs))
	for i, h := range hs {
		ids, err := w.shownInSnippet(h, h.Title+"\n"+h.Snippet)
		if err != nil {
			return nil, err
		}
		docID, err := w.st.Graph().DocID(h.URL)
		if err != nil && !errors.Is(err, graph.ErrNotFound) {
			return nil, err
		}
		out[i] = Hit{Hit: h, Entities: ids, DocID: docID}
		if docID != "" {
			// The passage the snippet is from: the page holds all the
			// passages of its article.
			p, err := w.st.Graph().Page(h.URL)
			if err != nil {
				return nil, err
			}
			if sg := snippetPassage(p, q, h.Snippet); sg != nil {
				out[i].DocID = sg.DocID
				if len(sg.Text) <= maxPassage {
					out[i].Passage = sg.Text
				}
			}
		}
	}
	return out, nil
}

// snippetPassage is the corpus passage of p a hit on query q stands for:
// the one holding the most distinct words of q (BM25's choice among the
// page's passages, roughly), then the one holding the middle of the
// snippet (compared by letters and digits only: the index's snippet text
// is the page's with its markup and spacing changed), then the first; nil
// when p holds no corpus passage.
func snippetPassage(p *graph.Page, q, snippet string) *graph.Segment {
	var words []string
	for _, w := range wordsOf(q) {
		if len(w) > 2 && !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	piece := ""
	for _, part := range strings.Split(snippet, "...") {
		if len(part) > len(piece) {
			piece = part
		}
	}
	key := alnum(piece)
	if len(key) > 48 {
		mid := len(key) / 2
		key = key[mid-24 : mid+24]
	}
	var best *graph.Segment
	bestScore := -1
	var buf []byte
	keyb := []byte(key)
	for i := range p.Segments {
		sg := &p.Segments[i]
		if sg.DocID == "" {
			continue
		}
		var score int
		if ok := false; len(words) <= 64 {
			score, buf, ok = asciiPassageScore(sg.Text, words, keyb, buf)
			if !ok {
				score = passageScore(sg.Text, words, key)
			}
		} else {
			score = passageScore(sg.Text, words, key)
		}
		if score > bestScore {
			best, bestScore = sg, score
		}
	}
	return best
}

// passageScore is snippetPassage's score of a passage: two for each word
// of words it holds, one more if it holds key (letters and digits only).
func passageScore(text string, words []string, key string) int {
	seen := map[string]bool{}
	for _, w := range wordsOf(text) {
		if slices.Contains(words, w) {
			seen[w] = true
		}
	}
	score := 2 * len(seen)
	if key != "" && strings.Contains(alnum(text), key) {
		score++
	}
	return score
}

// asciiPassageScore is passageScore without allocating, for an ASCII
// text (ok false otherwise) and at most 64 words; buf is scratch space,
// returned for reuse.
func asciiPassageScore(text string, words []string, key, buf []byte) (int, []byte, bool) {
	buf = buf[:0]
	var seen uint64
	start := 0 // of the word being read, in buf
	endWord := func() {
		if len(buf) > start {
			for i, w := range words {
				if string(buf[start:]) == w {
					seen |= 1 << i
					break
				}
			}
		}
		start = len(buf)
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= utf8.RuneSelf:
			return 0, buf, false
		case 'A' <= c && c <= 'Z':
			buf = append(buf, c+'a'-'A')
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			buf = append(buf, c)
		default:
			endWord()
		}
	}
	endWord()
	score := 2 * bits.OnesCount64(seen)
	if len(key) > 0 && bytes.Contains(buf, key) {
		score++
	}
	return score, buf, true
}

// wordsOf is s lower-cased and cut into runs of letters and digits.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// alnum is s lower-cased with only its letters and digits.
func alnum(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// PageEntities returns the entities a whole page shows, sorted.
func PageEntities(p *graph.Page) []uint32 {
	seen := map[uint32]bool{}
	for _, sg := range p.Segments {
		for _, id := range sg.Entities {
			seen[id] = true
		}
	}
	return sortedSet(seen)
}

func (w *Web) search(ctx context.Context, queries []string, single bool, filterYear int) (*Observation, error) {
	obs := &Observation{}
	seen := map[uint32]bool{}
	parts := make([]string, 0, len(queries))
	for _, q := range queries {
		hits, err := w.Hits(ctx, q, 0, filterYear)
		if err != nil {
			return nil, err
		}
		if len(hits) == 0 {
			parts = append(parts, fmt.Sprintf("No results found for '%s'. Try with a more general query.", q))
			continue
		}
		items := make([]string, len(hits))
		for i, h := range hits {
			// Pages carry no publication date; with filter_year the
			// year the page matched stands in for it, as the live
			// tool's date does.
			date := ""
			if filterYear != 0 && h.Year != 0 {
				date = fmt.Sprintf("\nDate published: %d", h.Year)
			}
			items[i] = fmt.Sprintf("%d. [%s](%s)%s\n\n%s", i+1, h.Title, h.URL, date, h.Snippet)
			obs.URLs = append(obs.URLs, h.URL)
			for _, id := range h.Entities {
				seen[id] = true
			}
		}
		parts = append(parts, fmt.Sprintf("A Google search for '%s' found %d results:\n\n## Web Results\n", q, len(hits))+strings.Join(items, "\n\n"))
	}
	if single && len(parts) == 1 {
		obs.Text = parts[0]
	} else {
		obs.Text = strings.Join(parts, querySep)
	}
	obs.Entities = sortedSet(seen)
	return obs, nil
}

// shownInSnippet returns the entities of a page whose name the text shows.
// The index keeps each page's names prepared for matching (see
// graph.NamesBlob); stores built before that are read through a cache.
func (w *Web) shownInSnippet(h index.Hit, text string) ([]uint32, error) {
	low := strings.ToLower(text)
	if ids, ok := graph.MatchNames(h.Stored, low); ok {
		return ids, nil
	}
	blob, err := w.names.get(w.st.Graph(), h.URL)
	if err != nil {
		return nil, err
	}
	ids, _ := graph.MatchNames(blob, low)
	return ids, nil
}

// Visit reads pages for a goal.
func (w *Web) Visit(ctx context.Context, urls []string, goal string) (*Observation, error) {
	return w.visit(ctx, urls, len(urls) == 1, goal)
}

// CanonicalURL maps any spelling of a Wikipedia article URL to the store's
// form; any other absolute http(s) URL (a BrowseComp-Plus document's) is
// its own form, trimmed; anything else gives "".
func CanonicalURL(u string) string {
	u = strings.TrimSpace(u)
	if t := graph.Title(u); t != "" {
		return graph.URL(t)
	}
	if l := strings.ToLower(u); strings.HasPrefix(l, "wikipedia.org/") || strings.Contains(l, ".wikipedia.org/") ||
		!strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") || strings.ContainsAny(u, " \t\n") {
		// A Wikipedia URL that names no article is none.
		return ""
	}
	return u
}

// Page reads the page of a URL in any spelling CanonicalURL accepts. A
// URL that is not an article URL, or a page the store does not hold, gives
// an error wrapping ErrNoPage.
func (w *Web) Page(u string) (*graph.Page, error) {
	cu := CanonicalURL(u)
	if cu == "" {
		return nil, fmt.Errorf("%w: %q is not a page URL of this web", ErrNoPage, u)
	}
	p, err := w.st.Graph().Page(cu)
	if errors.Is(err, graph.ErrNotFound) {
		return nil, fmt.Errorf("%w: no page for %s", ErrNoPage, u)
	}
	return p, err
}

// ReaderText lays a page out as Jina Reader's text answer does; GET
// /jina/<url> of leaper serve and the MCP fetch tool both answer with it.
func ReaderText(title, url, markdown string) string {
	return "Title: " + title + "\n\nURL Source: " + url + "\n\nMarkdown Content:\n" + markdown + "\n"
}

func (w *Web) visit(ctx context.Context, urls []string, single bool, goal string) (*Observation, error) {
	obs := &Observation{}
	seen := map[uint32]bool{}
	parts := make([]string, 0, len(urls))
	for _, u := range urls {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		head := fmt.Sprintf("The useful information in %s for user goal %s as follows: \n\n", u, goal)
		var p *graph.Page
		if cu := CanonicalURL(u); cu != "" {
			var err error
			p, err = w.st.Graph().Page(cu)
			if err != nil && !errors.Is(err, graph.ErrNotFound) {
				return nil, err
			}
		}
		if p == nil {
			parts = append(parts, head+"Evidence in page: \n"+MsgNoAccessEvid+"\n\n"+"Summary: \n"+MsgNoAccessSummary+"\n\n")
			continue
		}
		obs.URLs = append(obs.URLs, p.URL)
		ev := Evidence(p, goal, w.opts.MaxEvidence)
		var eb strings.Builder
		for i, sg := range ev {
			if i > 0 {
				eb.WriteByte('\n')
			}
			eb.WriteString(sg.Text)
			for _, id := range sg.Entities {
				seen[id] = true
			}
		}
		parts = append(parts, head+"Evidence in page: \n"+eb.String()+"\n\n"+"Summary: \n"+summary(p, ev, goal)+"\n\n")
	}
	// Tongyi's tool strips the joined result.
	obs.Text = strings.TrimSpace(strings.Join(parts, querySep))
	obs.Entities = sortedSet(seen)
	return obs, nil
}

var stop = map[string]bool{"the": true, "a": true, "an": true, "of": true, "in": true, "on": true, "and": true, "or": true,
	"for": true, "to": true, "is": true, "are": true, "was": true, "were": true, "with": true, "by": true, "from": true,
	"at": true, "as": true, "their": true, "its": true, "his": true, "her": true, "find": true, "list": true, "all": true,
	"which": true, "what": true, "who": true, "whom": true, "that": true, "this": true, "these": true, "each": true,
	"information": true, "about": true, "page": true, "get": true, "extract": true, "provide": true, "include": true,
	"them": true, "they": true, "be": true, "has": true, "have": true, "had": true, "did": true, "do": true, "how": true}

// Terms are the lower-cased content words of a text.
func Terms(s string) []string {
	fs := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := fs[:0]
	for _, f := range fs {
		if !stop[f] && (len(f) > 1 || unicode.IsDigit(rune(f[0]))) {
			out = append(out, f)
		}
	}
	return out
}

func overlap(goal map[string]bool, text string) int {
	n := 0
	seen := map[string]bool{}
	for _, t := range Terms(text) {
		if goal[t] && !seen[t] {
			n++
			seen[t] = true
		}
	}
	return n
}

// Evidence chooses the segments of a page that serve a goal, in page order,
// within max bytes: the passage, the tables whose heading, header or rows
// match the goal (whole, with their header: entity-dense goals need every
// row), and matching facts. A goal that matches nothing gets the page's
// opening.
func Evidence(p *graph.Page, goal string, max int) []graph.Segment {
	g := map[string]bool{}
	for _, t := range Terms(goal) {
		g[t] = true
	}
	// A table is ranked by how well its heading (page, section, caption)
	// matches the goal, then its header, then how many of its rows do: a
	// goal naming "Round six" wants that table, not the largest one.
	type block struct{ head, header, rows int }
	blocks := map[int]*block{}
	for _, sg := range p.Segments {
		switch sg.Kind {
		case graph.SegHeading, graph.SegHeader, graph.SegRow:
			b := blocks[sg.Block]
			if b == nil {
				b = &block{}
				blocks[sg.Block] = b
			}
			o := overlap(g, sg.Text)
			switch sg.Kind {
			case graph.SegRow:
				if o > 0 {
					b.rows++
				}
			case graph.SegHeading:
				b.head += o
			default:
				b.header += o
			}
		}
	}
	order := make([]int, 0, len(blocks))
	for k, b := range blocks {
		if b.head+b.header+b.rows > 0 {
			order = append(order, k)
		}
	}
	sort.Slice(order, func(i, j int) bool {
		bi, bj := blocks[order[i]], blocks[order[j]]
		if bi.head != bj.head {
			return bi.head > bj.head
		}
		if bi.header != bj.header {
			return bi.header > bj.header
		}
		if bi.rows != bj.rows {
			return bi.rows > bj.rows
		}
		return order[i] < order[j]
	})
	keepBlock := map[int]bool{}
	size := 0
	blockSize := func(k int) int {
		n := 0
		for _, sg := range p.Segments {
			if sg.Block == k && (sg.Kind == graph.SegHeading || sg.Kind == graph.SegHeader || sg.Kind == graph.SegRow) {
				n += len(sg.Text) + 1
			}
		}
		return n
	}
	for _, sg := range p.Segments {
		if sg.Kind == graph.SegPassage {
			size += len(sg.Text) + 1
		}
	}
	for _, k := range order {
		if n := blockSize(k); size+n <= max || len(keepBlock) == 0 {
			keepBlock[k] = true
			size += n
		}
	}
	var out []graph.Segment
	for _, sg := range p.Segments {
		switch sg.Kind {
		case graph.SegPassage:
			out = append(out, sg)
		case graph.SegHeading, graph.SegHeader, graph.SegRow:
			if keepBlock[sg.Block] {
				out = append(out, sg)
			}
		case graph.SegFact:
			if overlap(g, sg.Text) > 0 && size+len(sg.Text) <= max {
				out = append(out, sg)
				size += len(sg.Text) + 1
			}
		}
	}
	if len(out) == 0 {
		size = 0
		for _, sg := range p.Segments {
			if size+len(sg.Text) > max && len(out) > 0 {
				break
			}
			out = append(out, sg)
			size += len(sg.Text) + 1
		}
	}
	// Cut a single oversize passage or table to the budget, by segment.
	total := 0
	for i, sg := range out {
		total += len(sg.Text) + 1
		if total > max && i > 0 {
			return out[:i]
		}
	}
	return out
}

func summary(p *graph.Page, ev []graph.Segment, goal string) string {
	rows, facts, tables := 0, 0, map[int]bool{}
	var headers []string
	passage := false
	for _, sg := range ev {
		switch sg.Kind {
		case graph.SegRow:
			rows++
			tables[sg.Block] = true
		case graph.SegHeader:
			if h := strings.Trim(strings.SplitN(sg.Text, "\n", 2)[0], "| "); !slices.Contains(headers, h) {
				headers = append(headers, h)
			}
		case graph.SegFact:
			facts++
		case graph.SegPassage:
			passage = true
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The page \"%s\"", p.Title)
	var what []string
	if passage {
		what = append(what, "an introductory passage")
	}
	if rows > 0 {
		what = append(what, fmt.Sprintf("%d table row(s) from %d table(s) with columns: %s", rows, len(tables), strings.Join(headers, "; ")))
	}
	if facts > 0 {
		what = append(what, fmt.Sprintf("%d fact(s) stated about it in other tables", facts))
	}
	if len(what) == 0 {
		b.WriteString(" has no content matching the goal.")
		return b.String()
	}
	b.WriteString(" provides " + strings.Join(what, ", ") + " relevant to the goal: " + goal)
	return b.String()
}

func sortedSet(m map[uint32]bool) []uint32 {
	out := make([]uint32, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
