package web

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/index"
)

// shownRef is the plain definition match keeps to: every entity whose
// lower-cased name of two bytes or more occurs in low at word boundaries.
func shownRef(ents []graph.Shown, low string) []uint32 {
	var out []uint32
	for _, e := range ents {
		if len(e.Name) >= 2 && containsWord(low, strings.ToLower(e.Name)) {
			out = append(out, e.ID)
		}
	}
	return out
}

func TestPageNamesMatch(t *testing.T) {
	g := graphtest.OpenGraph(t)
	pages, texts := 0, 0
	err := g.EachPage(context.Background(), func(p *graph.Page) error {
		ents, err := g.PageEntities(p.URL)
		if err != nil {
			return err
		}
		pn := newPageNames(ents)
		pages++
		var all strings.Builder
		all.WriteString(p.Title + "\n")
		for _, sg := range p.Segments {
			all.WriteString(sg.Text + "\n")
		}
		low := strings.ToLower(all.String())
		// Windows of the page as snippets are, at offsets that cut
		// names in half, and the whole page.
		for _, w := range []int{300, 97} {
			for i := 0; i < len(low); i += w / 2 {
				s := low[i:min(i+w, len(low))]
				texts++
				if got, want := pn.match(s), shownRef(ents, s); !slices.Equal(got, want) {
					t.Fatalf("%s, text %q:\nmatch %v\nref   %v", p.URL, s, got, want)
				}
			}
		}
		if got, want := pn.match(low), shownRef(ents, low); !slices.Equal(got, want) {
			t.Fatalf("%s, whole page: match %v, ref %v", p.URL, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < 50 || texts < 1000 {
		t.Fatalf("only %d pages, %d texts", pages, texts)
	}
}

func TestPageNamesOddNames(t *testing.T) {
	ents := []graph.Shown{{ID: 1, Name: "(band)"}, {ID: 2, Name: "AC/DC"}, {ID: 3, Name: "x"}, {ID: 4, Name: "São Paulo"}, {ID: 5, Name: "ac"}, {ID: 6, Name: "-1"}, {ID: 7, Name: "Paris"}}
	pn := newPageNames(ents)
	for _, s := range []string{"the (band) played ac/dc in são paulo", "acdc", "x -1 ac", "parisian", "paris"} {
		if got, want := pn.match(s), shownRef(ents, s); !slices.Equal(got, want) {
			t.Errorf("%q: match %v, ref %v", s, got, want)
		}
	}
}

// TestStoredNames checks that the names the index keeps with each page
// (graph.NamesBlob) match what the page's entity list matches.
func TestStoredNames(t *testing.T) {
	w, err := Open(graphtest.SampleStore(t))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx := context.Background()
	hits := 0
	err = w.G.EachTree(ctx, func(tr *graph.Tree) error {
		hs, err := w.X.Search(ctx, tr.Title(), index.SearchOptions{K: 10})
		if err != nil {
			return err
		}
		for _, h := range hs {
			low := strings.ToLower(h.Title + "\n" + h.Snippet)
			got, ok := graph.MatchNames(h.Stored, low)
			if !ok {
				t.Fatalf("%s: no names stored with the page", h.URL)
			}
			ents, err := w.G.PageEntities(h.URL)
			if err != nil {
				return err
			}
			if want := shownRef(ents, low); !slices.Equal(got, want) {
				t.Fatalf("%s: stored names match %v, entity list %v", h.URL, got, want)
			}
			hits++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if hits < 100 {
		t.Fatalf("only %d hits checked", hits)
	}
}
