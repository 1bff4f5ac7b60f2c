package index_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/index"
	"github.com/leaper-dev/leaper/index/internal/benchcorpus"
)

// randomCorpus makes pages over a Zipf-distributed vocabulary, so that
// queries mix words on most pages with rare ones, as real queries do. Some
// pages are exact copies under other URLs, so that scores tie.
type randomCorpus struct {
	r     *rand.Rand
	vocab []string
	zipf  *rand.Zipf
}

func newRandomCorpus(seed uint64, words int) *randomCorpus {
	r := rand.New(rand.NewPCG(seed, 7))
	c := &randomCorpus{r: r, zipf: rand.NewZipf(r, 1.1, 2, uint64(words-1))}
	const cons, vows = "bdfgklmnprstvz", "aeiou"
	seen := map[string]bool{}
	for len(c.vocab) < words {
		var b strings.Builder
		for range 2 + r.IntN(3) {
			b.WriteByte(cons[r.IntN(len(cons))])
			b.WriteByte(vows[r.IntN(len(vows))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			c.vocab = append(c.vocab, w)
		}
	}
	return c
}

func (c *randomCorpus) words(n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = c.vocab[c.zipf.Uint64()]
	}
	return strings.Join(ws, " ")
}

func (c *randomCorpus) pages(n int) []index.Page {
	var ps []index.Page
	for i := range n {
		p := index.Page{
			URL:   fmt.Sprintf("https://en.wikipedia.org/wiki/P%05d", i),
			Title: c.words(1 + c.r.IntN(4)),
			Text:  c.words(1 + c.r.IntN(300)),
		}
		for range c.r.IntN(3) {
			p.Years = append(p.Years, 1990+c.r.IntN(8))
		}
		if i > 0 && c.r.IntN(20) == 0 {
			q := ps[c.r.IntN(len(ps))]
			p.Title, p.Text, p.Years = q.Title, q.Text, q.Years
		}
		ps = append(ps, p)
	}
	return ps
}

func (c *randomCorpus) query() (string, int) {
	q := c.words(1 + c.r.IntN(8))
	if c.r.IntN(5) == 0 {
		q += " unseenword"
	}
	year := 0
	if c.r.IntN(4) == 0 {
		year = 1990 + c.r.IntN(9) // 1998: no page has it
	}
	return q, year
}

// compareWithBleve runs each query both ways and wants the same hits:
// URLs, order, scores, titles, snippets, years.
func compareWithBleve(t *testing.T, ix *index.Index, queries []string, years []int) {
	t.Helper()
	ctx := context.Background()
	ks := []int{1, 2, 3, 10, 37}
	for i, q := range queries {
		opts := index.SearchOptions{K: ks[i%len(ks)], FilterYear: years[i]}
		index.SetBleveOnly(ix, true)
		want, err := ix.Search(ctx, q, opts)
		if err != nil {
			t.Fatal(err)
		}
		index.SetBleveOnly(ix, false)
		got, err := ix.Search(ctx, q, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) && !nearlyEqual(got, want) {
			t.Fatalf("Search(%q, %+v):\nMaxScore %s\nBleve    %s", q, opts, describe(got), describe(want))
		}
	}
}

// nearlyEqual allows what summing the same clause scores in another order
// may change: the last of a score's 12 kept digits, where the exact sums
// lie either side of a rounding boundary, and so the order of two pages
// (or which one makes the k-th place) whose scores are that close.
func nearlyEqual(got, want []index.Hit) bool {
	if len(got) != len(want) {
		return false
	}
	close := func(a, b float64) bool {
		unit := math.Pow(10, math.Floor(math.Log10(math.Abs(b)))-11)
		return math.Abs(a-b) <= 1.5*unit
	}
	byURL := map[string]index.Hit{}
	for _, h := range want {
		byURL[h.URL] = h
	}
	last := want[len(want)-1].Score
	for i, g := range got {
		if !close(g.Score, want[i].Score) {
			return false
		}
		w, ok := byURL[g.URL]
		if !ok {
			if !close(g.Score, last) {
				return false
			}
			continue
		}
		w.Score = g.Score
		if !reflect.DeepEqual(g, w) || !close(g.Score, byURL[g.URL].Score) {
			return false
		}
	}
	return true
}

func describe(hs []index.Hit) string {
	var b strings.Builder
	for _, h := range hs {
		fmt.Fprintf(&b, "\n  %s %v %d %q", strings.TrimPrefix(h.URL, "https://en.wikipedia.org/wiki/"), h.Score, h.Year, h.Title)
	}
	return b.String()
}

func TestMaxScoreMatchesBleve(t *testing.T) {
	for _, tc := range []struct {
		name    string
		batches int // pages added in this many batches: several segments
		replace bool
		compact bool
	}{
		{"one batch", 1, false, false},
		{"segments and replaced pages", 5, true, false},
		{"compacted", 5, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newRandomCorpus(uint64(len(tc.name)), 400)
			pages := c.pages(1500)
			dir := t.TempDir()
			ix, err := index.Open(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			ctx := context.Background()
			per := (len(pages) + tc.batches - 1) / tc.batches
			for i := 0; i < len(pages); i += per {
				if err := ix.Add(ctx, pages[i:min(i+per, len(pages))]); err != nil {
					t.Fatal(err)
				}
				if err := ix.Sync(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if tc.replace {
				// Re-add a tenth of the pages with new text: the old
				// versions become deleted documents in earlier segments.
				var re []index.Page
				for i := 0; i < len(pages); i += 10 {
					p := pages[i]
					p.Text = c.words(1 + c.r.IntN(100))
					re = append(re, p)
				}
				if err := ix.Add(ctx, re); err != nil {
					t.Fatal(err)
				}
			}
			if tc.compact {
				if err := ix.Compact(ctx); err != nil {
					t.Fatal(err)
				}
			}
			var qs []string
			var ys []int
			for range 400 {
				q, y := c.query()
				qs = append(qs, q)
				ys = append(ys, y)
			}
			// Whole titles, which their title keys match.
			for i := 0; i < len(pages); i += 15 {
				qs = append(qs, pages[i].Title)
				ys = append(ys, 0)
			}
			compareWithBleve(t, ix, qs, ys)

			// Read-only, with decoded posting lists: all of them, then
			// within a budget that holds only some.
			if err := ix.Close(); err != nil {
				t.Fatal(err)
			}
			ro, err := index.Open(dir, &index.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			index.CachePostings(ro, 1, 1<<30)
			compareWithBleve(t, ro, qs, ys)
			index.CachePostings(ro, 50, 12*4000)
			compareWithBleve(t, ro, qs, ys)
		})
	}
}

// TestBlockMaxMatchesBleve compares the two evaluations where block
// maxima prune: long posting lists (thousands of pages) of words of every
// frequency, decoded into blocks, and queries of common and rare words.
// Block skipping must happen, and change no hit.
func TestBlockMaxMatchesBleve(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 12,000-page index")
	}
	c := newRandomCorpus(11, 3000)
	pages := c.pages(12000)
	dir := t.TempDir()
	ix, err := index.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	for i := 0; i < len(pages); i += 3000 {
		if err := ix.Add(ctx, pages[i:i+3000]); err != nil {
			t.Fatal(err)
		}
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := index.Open(dir, &index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	var qs []string
	var ys []int
	for i := range 300 {
		q, y := c.query()
		if i%3 == 0 {
			// Only common words: every clause is long.
			q = strings.Join(c.vocab[c.r.IntN(5):][:2+c.r.IntN(4)], " ")
		}
		qs = append(qs, q)
		ys = append(ys, y)
	}
	for _, minDF := range []uint64{1, 200} {
		index.CachePostings(ro, minDF, 1<<30)
		before := index.BlockSkips()
		compareWithBleve(t, ro, qs, ys)
		if index.BlockSkips() == before {
			t.Errorf("minDF %d: no block range was skipped", minDF)
		}
	}
	// The frequent terms' lists decoded before any search, by
	// WarmPostings: the same rankings.
	for _, budget := range []int64{1 << 30, 64 << 10} {
		index.CachePostings(ro, 200, 1<<30)
		st, err := ro.WarmPostings(ctx, budget)
		if err != nil || st.Lists == 0 || st.Bytes <= 0 || st.Bytes > budget+budget/2 {
			t.Fatalf("WarmPostings(%d): %+v, %v", budget, st, err)
		}
		compareWithBleve(t, ro, qs, ys)
	}
}

// TestMaxScoreMatchesBleveCorpus compares the two evaluations on real
// pages and agent-shaped queries from the shared corpus.
func TestMaxScoreMatchesBleveCorpus(t *testing.T) {
	if testing.Short() || !benchcorpus.Available() {
		t.Skip("needs the shared corpus")
	}
	c := loadCorpus(t)
	pages := c.Pages[:min(len(c.Pages), 20000)]
	dir := t.TempDir()
	ix, err := index.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Add(context.Background(), pages); err != nil {
		t.Fatal(err)
	}
	var qs []string
	var ys []int
	for _, q := range c.Queries(300, 3) {
		qs = append(qs, q.Text)
		ys = append(ys, q.FilterYear)
	}
	compareWithBleve(t, ix, qs, ys)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := index.Open(dir, &index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	index.CachePostings(ro, 64, 1<<30)
	compareWithBleve(t, ro, qs, ys)
}
