package index

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// SearchOptions refine Search.
type SearchOptions struct {
	// K is the number of hits wanted. Default 10.
	K int
	// FilterYear, when not 0, keeps only pages whose Years contain it.
	FilterYear int
}

// Hit is one search result.
type Hit struct {
	URL     string
	Title   string
	Snippet string // ~260 bytes of plain text around the best-matching terms
	// Year is FilterYear when a filter was given, else the page's first
	// year, else 0.
	Year  int
	Score float64
	// Stored is the page's Page.Stored.
	Stored []byte
}

const defaultK = 10

// maxK bounds K so that one query cannot load the whole index.
const maxK = 1000

// Search runs a free-text query: any analysed term of q may match, in the
// title (boosted) or the body, ranked by BM25. Equal scores are ordered by
// URL, so results do not depend on the order pages were added. A query
// that is a page's whole title (its words, whatever their case and the
// punctuation between them; the title's disambiguator may be left out)
// ranks that page above pages that only mention its words. A query of stop
// words only ("The Who") finds the pages it titles; one with no word, none.
func (ix *Index) Search(ctx context.Context, q string, opts SearchOptions) ([]Hit, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return nil, ErrClosed
	}
	k := opts.K
	if k <= 0 {
		k = defaultK
	}
	k = min(k, maxK)
	terms := ix.queryTerms(q)
	if len(terms) == 0 && words(q) == "" {
		return nil, nil
	}
	n, err := ix.bi.DocCount()
	if err != nil {
		return nil, fmt.Errorf("index: search %q: %w", q, err)
	}
	if n == 0 {
		return nil, nil
	}
	stats := ix.bm25Stats(n)
	if !ix.bleveOnly {
		out, ok, err := ix.searchMaxScore(ctx, q, terms, opts.FilterYear, k, stats)
		if ok || err != nil {
			return out, err
		}
	}
	return ix.searchBleve(ctx, q, terms, opts.FilterYear, k, stats)
}

// searchMaxScore ranks with topK over Bleve's index reader and loads the
// stored fields of the k best pages. ok is false when topK cannot rank
// this index.
func (ix *Index) searchMaxScore(ctx context.Context, q string, terms []string, year, k int, stats *search.BM25Stats) (out []Hit, ok bool, err error) {
	adv, err := ix.bi.Advanced()
	if err != nil {
		return nil, false, fmt.Errorf("index: search %q: %w", q, err)
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, false, fmt.Errorf("index: search %q: %w", q, err)
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		// topK reads scorch's 8-byte document numbers; the in-memory
		// index (upsidedown) has other internal IDs.
		return nil, false, nil
	}
	cands, ok, err := topK(ctx, r, ix.plists, terms, queryKeys(q), year, k, stats)
	if err != nil {
		return nil, false, fmt.Errorf("index: search %q: %w", q, err)
	}
	if !ok {
		return nil, false, nil
	}
	// Each candidate's URL, which orders ties, is read first and alone
	// (zap keeps it before the compressed fields, which are then neither
	// read nor decompressed); the rest only for the k that make hits:
	// there may be many more candidates, tied at the k-th score.
	segs := snap.Segments()
	offsets := make([]uint64, len(segs))
	for i := 1; i < len(segs); i++ {
		offsets[i] = offsets[i-1] + uint64(segs[i-1].FullSize())
	}
	type hitDoc struct {
		Hit
		doc         uint64
		text, plain string
		hasPlain    bool
	}
	segOf := func(doc uint64) (*scorch.SegmentSnapshot, uint64, error) {
		seg := sort.Search(len(offsets), func(j int) bool { return offsets[j] > doc }) - 1
		if seg < 0 {
			return nil, 0, fmt.Errorf("index: search %q: document %d outside the index", q, doc)
		}
		return segs[seg], doc - offsets[seg], nil
	}
	visit := func(doc uint64, f func(field string, typ byte, v []byte, pos []uint64) bool) error {
		s, num, err := segOf(doc)
		if err != nil {
			return err
		}
		return s.VisitDocument(num, f)
	}
	docs := make([]hitDoc, len(cands))
	for i, c := range cands {
		d := &docs[i]
		d.doc, d.Score = c.doc, roundScore(c.score)
		// DocID, not a visitor that stops after the URL: zap's
		// VisitStoredFields returns its pooled context twice then.
		s, num, err := segOf(c.doc)
		if err != nil {
			return nil, false, err
		}
		id, err := s.DocID(num)
		if err != nil {
			return nil, false, fmt.Errorf("index: search %q: %w", q, err)
		}
		d.URL = string(id)
	}
	slices.SortStableFunc(docs, func(a, b hitDoc) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.URL, b.URL)
	})
	docs = docs[:min(k, len(docs))]
	for i := range docs {
		d := &docs[i]
		err := visit(d.doc, func(field string, _ byte, v []byte, _ []uint64) bool {
			switch field {
			case fieldTitle:
				d.Title = string(v)
			case fieldText:
				if !d.hasPlain {
					d.text = string(v)
				}
			case fieldPlain:
				d.plain, d.hasPlain, d.text = string(v), true, ""
			case fieldStored:
				d.Stored = slices.Clone(v)
			case fieldYear:
				if d.Year == 0 {
					d.Year, _ = strconv.Atoi(string(v))
				}
			}
			return true
		})
		if err != nil {
			return nil, false, fmt.Errorf("index: search %q: %w", q, err)
		}
	}
	out = make([]Hit, len(docs))
	for i := range docs {
		d := &docs[i]
		if d.hasPlain {
			d.Snippet = plainSnippet(d.plain, terms, ix.an.text)
		} else {
			d.Snippet = snippet(d.text, terms, ix.an.text)
		}
		if year != 0 {
			d.Year = year
		}
		out[i] = d.Hit
	}
	return out, true, nil
}

// searchBleve ranks with Bleve's own searchers, visiting every posting of
// every term. It is the reference topK is tested against, and the path
// for the in-memory index (not scorch) and for an empty one.
func (ix *Index) searchBleve(ctx context.Context, q string, terms []string, year, k int, stats *search.BM25Stats) ([]Hit, error) {
	bq := buildQuery(terms, queryKeys(q), year)

	// Ask for one more hit than needed; if it ties with the k-th, widen
	// until the tie group is complete, so that sorting by URL below is
	// exact.
	size := k + 1
	var hits search.DocumentMatchCollection
	for {
		req := bleve.NewSearchRequestOptions(bq, size, 0, false)
		req.Fields = []string{fieldTitle, fieldText, fieldPlain, fieldYear, fieldStored}
		req.PreSearchData = map[string]any{search.BM25PreSearchDataKey: stats}
		res, err := ix.bi.SearchInContext(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("index: search %q: %w", q, err)
		}
		hits = res.Hits
		if len(hits) < size || roundScore(hits[size-1].Score) < roundScore(hits[k-1].Score) || size >= maxK*4 {
			break
		}
		size *= 4
	}
	slices.SortStableFunc(hits, func(a, b *search.DocumentMatch) int {
		sa, sb := roundScore(a.Score), roundScore(b.Score)
		if sa != sb {
			if sa > sb {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	hits = hits[:min(k, len(hits))]

	out := make([]Hit, len(hits))
	for i, h := range hits {
		var sn string
		if plain, ok := h.Fields[fieldPlain].(string); ok {
			sn = plainSnippet(plain, terms, ix.an.text)
		} else {
			text, _ := h.Fields[fieldText].(string)
			sn = snippet(text, terms, ix.an.text)
		}
		title, _ := h.Fields[fieldTitle].(string)
		out[i] = Hit{
			URL:     h.ID,
			Title:   title,
			Snippet: sn,
			Year:    year,
			Score:   roundScore(h.Score),
		}
		if out[i].Year == 0 {
			out[i].Year = firstYear(h.Fields[fieldYear])
		}
		if s, ok := h.Fields[fieldStored].(string); ok {
			out[i].Stored = []byte(s)
		}
	}
	return out, nil
}

// bm25Stats gives Bleve's BM25 the live page count and, per field, a
// "cardinality" from which it derives the average field length
// (ceil(cardinality/count)): ours is the true average length times count.
func (ix *Index) bm25Stats(live uint64) *search.BM25Stats {
	docs := max(ix.stats.docs.Load(), 1)
	card := func(total int64) int {
		return int(math.Round(float64(total) / float64(docs) * float64(live)))
	}
	return &search.BM25Stats{
		DocCount: float64(live),
		FieldCardinality: map[string]int{
			fieldTitle: card(ix.stats.title.Load()),
			fieldText:  card(ix.stats.text.Load()),
			fieldYear:  int(live),
			fieldKey:   keysPerPage * int(live),
		},
	}
}

// roundScore keeps 12 significant digits: scorch may add a document's term
// scores in an order that depends on segment layout, and the last bits of
// a float sum must not decide the ranking.
func roundScore(s float64) float64 {
	if s == 0 || math.IsInf(s, 0) || math.IsNaN(s) {
		return s
	}
	e := math.Pow(10, 11-math.Floor(math.Log10(math.Abs(s))))
	return math.Round(s*e) / e
}

func firstYear(v any) int {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case []any:
		if len(v) > 0 {
			s, _ = v[0].(string)
		}
	}
	y, _ := strconv.Atoi(s)
	return y
}

// queryTerms analyses q as the index analyses text, dropping duplicates
// and keeping first-seen order.
func (ix *Index) queryTerms(q string) []string {
	var terms []string
	ix.an.text.each([]byte(q), func(t string) {
		if !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	})
	return terms
}

// titleKeys returns a title's keys: "=" and its words (runs of letters
// and digits, lower-cased) joined by single spaces, and the words of the
// title without a trailing parenthesised disambiguator ("Every Little
// Thing (band)" has "=every little thing band" and "every little thing"),
// the whole title's when it has none. A title without words has no keys.
func titleKeys(title string) []string {
	full := words(title)
	if full == "" {
		return nil
	}
	base := full
	if t := strings.TrimRight(title, " "); strings.HasSuffix(t, ")") {
		if i := strings.LastIndex(t, " ("); i > 0 {
			if b := words(t[:i]); b != "" {
				base = b
			}
		}
	}
	return []string{"=" + full, base}
}

// queryKeys are the title keys a query matches: its words as a whole
// title, and as a title without its disambiguator. A query with an
// initialism ("U.S. Open") also gives its keys as a store built before
// words joined initialisms keeps them ("u s open").
func queryKeys(q string) []string {
	w := words(q)
	keys := []string{"=" + w, w}
	if s := spelled(q); s != w {
		keys = append(keys, "="+s, s)
	}
	return keys
}

// words lower-cases s and joins its runs of letters and digits by single
// spaces: "Harvey County, Kansas" gives "harvey county kansas". Unlike the
// analysis, it keeps stop words and does not stem, so that "My Brother
// and Me" is not "The Brothers". Single letters in a row are one word,
// so that an initialism reads the same with or without its dots: "U.S.
// Open" and "US Open" give "us open", "J. R. R. Tolkien" and "JRR Tolkien"
// "jrr tolkien".
func words(s string) string {
	var b strings.Builder
	var run []rune // the single letters in a row, not yet written
	flush := func() {
		if len(run) == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(run))
		run = run[:0]
	}
	for w := range strings.FieldsFuncSeq(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if r, n := utf8.DecodeRuneInString(w); n == len(w) && unicode.IsLetter(r) {
			run = append(run, unicode.ToLower(r))
			continue
		}
		flush()
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.ToLower(w))
	}
	flush()
	return b.String()
}

// spelled is words without joining single letters: the title keys of a
// store built before words joined them.
func spelled(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), " ")
}

func buildQuery(terms []string, keys []string, year int) query.Query {
	qs := make([]query.Query, 0, 2*len(terms)+len(keys))
	for _, t := range terms {
		tq := query.NewTermQuery(t)
		tq.SetField(fieldTitle)
		tq.SetBoost(titleBoost)
		bq := query.NewTermQuery(t)
		bq.SetField(fieldText)
		qs = append(qs, tq, bq)
	}
	for _, k := range keys {
		kq := query.NewTermQuery(k)
		kq.SetField(fieldKey)
		kq.SetBoost(keyBoost)
		qs = append(qs, kq)
	}
	var q query.Query = query.NewDisjunctionQuery(qs)
	if year != 0 {
		yq := query.NewTermQuery(strconv.Itoa(year))
		yq.SetField(fieldYear)
		b := query.NewBooleanQuery([]query.Query{q}, nil, nil)
		b.AddFilter(yq)
		q = b
	}
	return q
}
