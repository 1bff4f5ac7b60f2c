package index_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/index"
	"github.com/leaper-dev/leaper/index/indextest"
)

func search(t *testing.T, ix *index.Index, q string, opts index.SearchOptions) []index.Hit {
	t.Helper()
	hs, err := ix.Search(context.Background(), q, opts)
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	return hs
}

func urls(hs []index.Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = strings.TrimPrefix(h.URL, "https://en.wikipedia.org/wiki/")
	}
	return out
}

func TestSearch(t *testing.T) {
	ix := indextest.New(t, nil)
	tests := []struct {
		q         string
		first     string
		year      int
		inSnippet string
	}{
		{"Brian Schmidt astrophysicist born", "Brian_Schmidt", 1967, "astrophysicist"},
		{"Nobel laureates University of Chicago", "List_of_Nobel_laureates_affiliated_with_the_University_of_Chicago", 1907, "Chicago"},
		{"Hotel du Lac novel", "Anita_Brookner", 1928, "Hotel du Lac"},
		{"Saul Perlmutter expansion universe accelerating", "Saul_Perlmutter", 1959, "accelerating"},
	}
	for _, tt := range tests {
		hs := search(t, ix, tt.q, index.SearchOptions{})
		if len(hs) == 0 {
			t.Fatalf("%q: no hits", tt.q)
		}
		if got := urls(hs)[0]; got != tt.first {
			t.Errorf("%q: first hit %s, want %s (all %v)", tt.q, got, tt.first, urls(hs))
		}
		h := hs[0]
		if h.Year != tt.year {
			t.Errorf("%q: year %d, want %d", tt.q, h.Year, tt.year)
		}
		if !strings.Contains(h.Snippet, tt.inSnippet) {
			t.Errorf("%q: snippet %q lacks %q", tt.q, h.Snippet, tt.inSnippet)
		}
		if h.Title == "" || h.Score <= 0 {
			t.Errorf("%q: hit %+v", tt.q, h)
		}
		for i := 1; i < len(hs); i++ {
			if hs[i].Score > hs[i-1].Score {
				t.Errorf("%q: scores not descending: %v", tt.q, hs)
			}
		}
	}
}

func TestSearchK(t *testing.T) {
	ix := indextest.New(t, nil)
	if hs := search(t, ix, "prize", index.SearchOptions{K: 2}); len(hs) != 2 {
		t.Errorf("K=2: %d hits", len(hs))
	}
	if hs := search(t, ix, "prize", index.SearchOptions{}); len(hs) != 5 {
		t.Errorf("default K: %d hits, want all 5 pages mentioning prize: %v", len(hs), urls(hs))
	}
	for _, q := range []string{"", "the of and", "   ", "zzyzx"} {
		if hs := search(t, ix, q, index.SearchOptions{}); len(hs) != 0 {
			t.Errorf("%q: %v", q, urls(hs))
		}
	}
}

func TestFilterYear(t *testing.T) {
	ix := indextest.New(t, nil)
	hs := search(t, ix, "Booker Prize winner", index.SearchOptions{FilterYear: 1983})
	got := map[string]bool{}
	for _, h := range hs {
		got[urls([]index.Hit{h})[0]] = true
		if h.Year != 1983 {
			t.Errorf("%s: Year %d, want 1983", h.URL, h.Year)
		}
	}
	for _, want := range []string{"J._M._Coetzee", "Booker_Prize"} {
		if !got[want] {
			t.Errorf("missing %s in %v", want, urls(hs))
		}
	}
	if got["Anita_Brookner"] {
		t.Errorf("Anita_Brookner (1984) returned for 1983: %v", urls(hs))
	}
	if hs := search(t, ix, "Booker Prize", index.SearchOptions{FilterYear: 1850}); len(hs) != 0 {
		t.Errorf("1850: %v", urls(hs))
	}
}

func TestSnippets(t *testing.T) {
	long := strings.Repeat("Filler sentence about nothing in particular . ", 40)
	pages := []index.Page{
		{URL: "u/long", Title: "Long", Text: long + "The Eiffel Tower was completed in 1889 in Paris . " + long},
		{URL: "u/table", Title: "Table", Text: "# Towers\n\n## Tallest\n\n| Name | City | Year |\n|---|:---:|---|\n" +
			strings.Repeat("| [Some tower](https://x/y) | **Somewhere** | 1900 |\n", 30) +
			"| Eiffel Tower | Paris | 1889 |\n" + strings.Repeat("| Other tower | Elsewhere | 1950 |\n", 30)},
	}
	ix := indextest.New(t, pages)
	hs := search(t, ix, "Eiffel Tower Paris", index.SearchOptions{})
	if len(hs) != 2 {
		t.Fatalf("hits %v", urls(hs))
	}
	for _, h := range hs {
		if !strings.Contains(h.Snippet, "Eiffel Tower") || !strings.Contains(h.Snippet, "Paris") {
			t.Errorf("%s: snippet %q misses the match", h.URL, h.Snippet)
		}
		if n := len(h.Snippet); n < 150 || n > 320 {
			t.Errorf("%s: snippet length %d: %q", h.URL, n, h.Snippet)
		}
		for _, bad := range []string{"|", "#", "](", "**", "---", "\n", " ,", " ."} {
			if strings.Contains(h.Snippet, bad) {
				t.Errorf("%s: snippet has %q: %q", h.URL, bad, h.Snippet)
			}
		}
	}
	again := search(t, ix, "Eiffel Tower Paris", index.SearchOptions{})
	if !reflect.DeepEqual(hs, again) {
		t.Errorf("not deterministic:\n%v\n%v", hs, again)
	}
}

// TestDeterminism builds the same pages in different orders and batch
// sizes; results (with ties) must be identical.
func TestDeterminism(t *testing.T) {
	pages := indextest.Pages()
	for i := range 30 { // identical pages: equal scores, ordered by URL
		pages = append(pages, index.Page{
			URL:   fmt.Sprintf("https://en.wikipedia.org/wiki/Clone_%02d", (i*7)%30),
			Title: "Clone",
			Text:  "A clone page about the Booker Prize and physics .",
			Years: []int{1983},
		})
	}
	queries := []string{"Booker Prize", "physics Nobel", "clone", "prize 1983 novel"}
	var want [][]index.Hit
	r := rand.New(rand.NewPCG(1, 2))
	for round, bs := range []int{0, 1, 3, 7} {
		ps := append([]index.Page(nil), pages...)
		r.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
		ix, err := index.Open(t.TempDir(), &index.Options{BatchSize: bs, InMemory: round%2 == 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := ix.Add(context.Background(), ps); err != nil {
			t.Fatal(err)
		}
		var got [][]index.Hit
		for _, q := range queries {
			got = append(got, search(t, ix, q, index.SearchOptions{K: 12}))
			got = append(got, search(t, ix, q, index.SearchOptions{K: 5, FilterYear: 1983}))
		}
		ix.Close()
		if round == 0 {
			want = got
			for _, hs := range got {
				for i := 1; i < len(hs); i++ {
					if hs[i].Score == hs[i-1].Score && hs[i].URL < hs[i-1].URL {
						t.Errorf("tie not ordered by URL: %v", urls(hs))
					}
				}
			}
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("batch size %d: results differ:\n got %v\nwant %v", bs, got, want)
		}
	}
}

func TestReAdd(t *testing.T) {
	ctx := context.Background()
	ix := indextest.New(t, nil)
	n0, _ := ix.Count()
	p := indextest.Pages()[0]
	p.Text = "Brian Schmidt now studies marmalade ."
	p.Years = []int{2020}
	if err := ix.Add(ctx, []index.Page{p}); err != nil {
		t.Fatal(err)
	}
	if n, _ := ix.Count(); n != n0 {
		t.Errorf("count %d after re-add, want %d", n, n0)
	}
	if hs := search(t, ix, "marmalade", index.SearchOptions{}); len(hs) != 1 || hs[0].Year != 2020 {
		t.Errorf("new text: %v", hs)
	}
	if hs := search(t, ix, "supernovae cosmological", index.SearchOptions{}); len(hs) != 0 {
		t.Errorf("old text still found: %v", urls(hs))
	}
	// within one call the last page wins
	a, b := p, p
	a.Text, b.Text = "version alpha", "version beta"
	if err := ix.Add(ctx, []index.Page{a, b}); err != nil {
		t.Fatal(err)
	}
	if hs := search(t, ix, "alpha", index.SearchOptions{}); len(hs) != 0 {
		t.Errorf("first duplicate kept: %v", urls(hs))
	}
	if hs := search(t, ix, "beta", index.SearchOptions{}); len(hs) != 1 {
		t.Errorf("last duplicate missing: %v", urls(hs))
	}
	if err := ix.Delete(ctx, []string{p.URL, "https://nowhere"}); err != nil {
		t.Fatal(err)
	}
	if n, _ := ix.Count(); n != n0-1 {
		t.Errorf("count %d after delete, want %d", n, n0-1)
	}
	if err := ix.Add(ctx, []index.Page{{Title: "no url"}}); !errors.Is(err, index.ErrInvalidPage) {
		t.Errorf("empty URL: %v", err)
	}
}

func TestClosed(t *testing.T) {
	ctx := context.Background()
	ix, err := index.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); !errors.Is(err, index.ErrClosed) {
		t.Errorf("second Close: %v, want ErrClosed", err)
	}
	checks := map[string]error{}
	_, checks["Search"] = ix.Search(ctx, "x", index.SearchOptions{})
	_, checks["Count"] = ix.Count()
	checks["Add"] = ix.Add(ctx, indextest.Pages())
	checks["Delete"] = ix.Delete(ctx, []string{"x"})
	checks["Sync"] = ix.Sync(ctx)
	checks["Compact"] = ix.Compact(ctx)
	for name, err := range checks {
		if !errors.Is(err, index.ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", name, err)
		}
	}
}

func TestPersistAndCompact(t *testing.T) {
	ctx := context.Background()
	dir := indextest.Dir(t, nil)
	ix, err := index.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	extra := index.Page{URL: "https://en.wikipedia.org/wiki/Adam_Riess", Title: "Adam Riess", Text: "Adam Guy Riess is an American astrophysicist .", Years: []int{1969}}
	if err := ix.Add(ctx, []index.Page{extra}); err != nil {
		t.Fatal(err)
	}
	before := search(t, ix, "astrophysicist Nobel", index.SearchOptions{})
	if err := ix.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	after := search(t, ix, "astrophysicist Nobel", index.SearchOptions{})
	if !reflect.DeepEqual(before, after) {
		t.Errorf("compaction changed results:\n%v\n%v", before, after)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	// The pre-merge segments are gone from disk.
	if zaps, _ := filepath.Glob(filepath.Join(dir, "store", "*.zap")); len(zaps) != 1 {
		t.Errorf("segment files after compaction: %v, want one", zaps)
	}
	ro, err := index.Open(dir, &index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if n, _ := ro.Count(); n != 7 {
		t.Errorf("count after reopen %d, want 7", n)
	}
	if got := search(t, ro, "astrophysicist Nobel", index.SearchOptions{}); !reflect.DeepEqual(got, before) {
		t.Errorf("reopened results differ:\n%v\n%v", got, before)
	}
}

func TestReadOnly(t *testing.T) {
	ctx := context.Background()
	if _, err := index.Open(t.TempDir(), &index.Options{ReadOnly: true}); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("read-only open of empty dir: %v", err)
	}
	dir := indextest.Dir(t, nil)
	a, err := index.Open(dir, &index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := index.Open(dir, &index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("second read-only open: %v", err)
	}
	defer b.Close()
	ha := search(t, a, "Booker Prize", index.SearchOptions{})
	hb := search(t, b, "Booker Prize", index.SearchOptions{})
	if len(ha) == 0 || !reflect.DeepEqual(ha, hb) {
		t.Errorf("readers disagree: %v / %v", ha, hb)
	}
	if err := a.Add(ctx, indextest.Pages()); !errors.Is(err, index.ErrReadOnly) {
		t.Errorf("Add on read-only: %v", err)
	}
	// a writer cannot open while readers hold the directory
	if w, err := index.Open(dir, &index.Options{LockTimeout: 100 * time.Millisecond}); !errors.Is(err, index.ErrLocked) {
		t.Errorf("writer open while read: %v", err)
		if w != nil {
			w.Close()
		}
	}

	// another process can open it read-only at the same time
	cmd := exec.Command(os.Args[0], "-test.run=^TestReadOnlyHelperProcess$", "-test.v")
	cmd.Env = append(os.Environ(), "LEAPER_INDEX_HELPER_DIR="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "helper hits: 2") {
		t.Errorf("helper process: %v\n%s", err, out)
	}
}

// TestReadOnlyHelperProcess is run by TestReadOnly in a child process.
func TestReadOnlyHelperProcess(t *testing.T) {
	dir := os.Getenv("LEAPER_INDEX_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process only")
	}
	ix, err := index.Open(dir, &index.Options{ReadOnly: true, LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	hs := search(t, ix, "Booker Prize", index.SearchOptions{K: 2})
	fmt.Printf("helper hits: %d\n", len(hs))
}

func TestOptionsValidation(t *testing.T) {
	if _, err := index.Open("", &index.Options{InMemory: true, ReadOnly: true}); err == nil {
		t.Error("InMemory+ReadOnly accepted")
	}
	if _, err := index.Open(t.TempDir(), &index.Options{BatchSize: -1}); err == nil {
		t.Error("negative BatchSize accepted")
	}
	if _, err := index.Open("", nil); err == nil {
		t.Error("empty dir accepted")
	}
}

func TestCanceled(t *testing.T) {
	ix := indextest.New(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ix.Add(ctx, indextest.Pages()); !errors.Is(err, context.Canceled) {
		t.Errorf("Add with canceled ctx: %v", err)
	}
}

// TestQueryKeysInitialism: a query with an initialism matches the title
// keys of a store built since words joined initialisms ("us open") and
// of one built before ("u s open"); a query without one, its two keys.
func TestQueryKeysInitialism(t *testing.T) {
	for _, tt := range []struct {
		q    string
		want []string
	}{
		{"2005 U.S. Open (golf)", []string{"=2005 us open golf", "2005 us open golf", "=2005 u s open golf", "2005 u s open golf"}},
		{"2005 US Open", []string{"=2005 us open", "2005 us open"}},
		{"Harvey County, Kansas", []string{"=harvey county kansas", "harvey county kansas"}},
		{"Men's 4 x 100 metres relay", []string{"=men s 4 x 100 metres relay", "men s 4 x 100 metres relay"}},
	} {
		if got := index.QueryKeys(tt.q); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("QueryKeys(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

// TestTitleKey: a query that is a page's whole title finds that page
// first, though pages that only mention its words have short bodies full
// of them (a draft's next years, a band's songs, a county's townships),
// and a title's disambiguator may be left out of the query.
func TestTitleKey(t *testing.T) {
	rows := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "Round %d, pick %d, player %d of a club, position pitcher, school %d. ", 1+i/20, 1+i, i, i)
		}
		return b.String()
	}
	pages := []index.Page{
		{URL: "https://en.wikipedia.org/wiki/1969_Major_League_Baseball_draft", Title: "1969 Major League Baseball draft", Text: rows(400)},
		{URL: "https://en.wikipedia.org/wiki/1969_Major_League_Baseball_season", Title: "1969 Major League Baseball season", Text: "The 1969 Major League Baseball season was the first of divisional play in Major League Baseball."},
		{URL: "https://en.wikipedia.org/wiki/Every_Little_Thing_(band)", Title: "Every Little Thing (band)", Text: "Every Little Thing is a Japanese pop band. " + rows(300)},
		{URL: "https://en.wikipedia.org/wiki/Harvey_County,_Kansas", Title: "Harvey County, Kansas", Text: "Harvey County is a county in Kansas. " + rows(300)},
	}
	for _, y := range []int{1970, 1971, 1972, 1981} {
		pages = append(pages, index.Page{
			URL:   fmt.Sprintf("https://en.wikipedia.org/wiki/%d_Major_League_Baseball_Draft", y),
			Title: fmt.Sprintf("%d Major League Baseball Draft", y),
			Text:  fmt.Sprintf("The following are the first round picks in the %d Major League Baseball draft, after the 1969 draft.", y),
		})
	}
	for _, s := range []string{"Over and Over", "Change", "Star", "Sure"} {
		pages = append(pages, index.Page{
			URL:   "https://en.wikipedia.org/wiki/" + strings.ReplaceAll(s, " ", "_") + "_(Every_Little_Thing_song)",
			Title: s + " (Every Little Thing song)",
			Text:  s + " (Every Little Thing song) (Every Little Thing (band) — List of singles): Year: 1999; Album: Every Best Single.",
		})
	}
	for _, s := range []string{"Alta", "Burrton", "Emma", "Garden"} {
		pages = append(pages, index.Page{
			URL:   "https://en.wikipedia.org/wiki/" + s + "_Township,_Harvey_County,_Kansas",
			Title: s + " Township, Harvey County, Kansas",
			Text:  s + " Township, Harvey County, Kansas (Harvey County, Kansas — Townships): Population: 221.",
		})
	}
	pages = append(pages,
		index.Page{URL: "https://en.wikipedia.org/wiki/The_Who", Title: "The Who", Text: "The Who are an English rock band formed in London in 1964."},
		index.Page{URL: "https://en.wikipedia.org/wiki/My_Brother_and_Me", Title: "My Brother and Me", Text: "Episodes. " + rows(40)},
		index.Page{URL: "https://en.wikipedia.org/wiki/The_Brothers_(album)", Title: "The Brothers (album)", Text: "The Brothers is an album by two brothers."},
	)
	// An initialism, with and without its dots ("US" is a stop word to
	// the analysis): the open's pages that only mention the year and the
	// sport outrank it on words alone.
	pages = append(pages, index.Page{URL: "https://en.wikipedia.org/wiki/2005_U.S._Open_(golf)", Title: "2005 U.S. Open (golf)", Text: "The 2005 United States Open Championship was played at Pinehurst."})
	for _, s := range []string{"2005 Open golf results", "2005 golf season", "Open golf 2005 leaders"} {
		pages = append(pages, index.Page{
			URL:   "https://en.wikipedia.org/wiki/" + strings.ReplaceAll(s, " ", "_"),
			Title: s,
			Text:  strings.Repeat("The 2005 open golf championship, golf open 2005. ", 20),
		})
	}
	pages = append(pages, index.Page{URL: "https://en.wikipedia.org/wiki/J._R._R._Tolkien", Title: "J. R. R. Tolkien", Text: "John Ronald Reuel Tolkien was an English writer."})
	for _, s := range []string{"Tolkien Society", "Tolkien Estate"} {
		pages = append(pages, index.Page{
			URL:   "https://en.wikipedia.org/wiki/" + strings.ReplaceAll(s, " ", "_"),
			Title: s,
			Text:  strings.Repeat("Tolkien, the works of Tolkien. ", 20),
		})
	}
	ix := indextest.New(t, pages)
	// Stop words only: the page they title, or nothing.
	if got := urls(search(t, ix, "The Who", index.SearchOptions{})); !reflect.DeepEqual(got, []string{"The_Who"}) {
		t.Errorf("The Who: hits %v, want [The_Who]", got)
	}
	if got := search(t, ix, "the", index.SearchOptions{}); len(got) != 0 {
		t.Errorf("the: hits %v, want none", urls(got))
	}
	for _, tt := range []struct{ q, first string }{
		{"1969 Major League Baseball draft", "1969_Major_League_Baseball_draft"},
		{"1969 major league baseball Draft", "1969_Major_League_Baseball_draft"},
		{"Every Little Thing", "Every_Little_Thing_(band)"},
		{"Every Little Thing (band)", "Every_Little_Thing_(band)"},
		{"Harvey County, Kansas", "Harvey_County,_Kansas"},
		{"My Brother and Me", "My_Brother_and_Me"},
		{"the who", "The_Who"},
		{"2005 US Open golf", "2005_U.S._Open_(golf)"},
		{"2005 U.S. Open", "2005_U.S._Open_(golf)"},
		{"JRR Tolkien", "J._R._R._Tolkien"},
		{"J.R.R. Tolkien", "J._R._R._Tolkien"},
		// Not a whole title: ranked by its words alone.
		{"Alta Township Harvey County", "Alta_Township,_Harvey_County,_Kansas"},
	} {
		for _, bleve := range []bool{false, true} {
			index.SetBleveOnly(ix, bleve)
			hs := search(t, ix, tt.q, index.SearchOptions{})
			if len(hs) == 0 || urls(hs)[0] != tt.first {
				t.Errorf("%q (Bleve only %v): hits %v, want %s first", tt.q, bleve, urls(hs), tt.first)
			}
		}
		index.SetBleveOnly(ix, false)
	}
}
