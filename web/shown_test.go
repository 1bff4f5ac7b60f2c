package web

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/index"
)

// shownRef is the definition of the entities a text shows: every entity
// whose lower-cased name of two bytes or more occurs in low at word
// boundaries.
func shownRef(ents []graph.Shown, low string) []uint32 {
	var out []uint32
	for _, e := range ents {
		if len(e.Name) >= 2 && containsWord(low, strings.ToLower(e.Name)) {
			out = append(out, e.ID)
		}
	}
	return out
}

// containsWord reports whether sub occurs in s at word boundaries.
func containsWord(s, sub string) bool {
	isWordByte := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 0x80
	}
	for i := 0; ; {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(sub)
		if (a == 0 || !isWordByte(s[a-1])) && (b == len(s) || !isWordByte(s[b])) {
			return true
		}
		i = a + 1
	}
}

// TestNamesOfEveryPage matches windows of every sample page against the
// page's own entities, prepared as stores built before the index kept
// them are (the cache's path), and wants the definition's answer.
func TestNamesOfEveryPage(t *testing.T) {
	g := storetest.OpenGraph(t)
	pages, texts := 0, 0
	err := g.EachPage(context.Background(), func(p *graph.Page) error {
		ents, err := g.PageEntities(p.URL)
		if err != nil {
			return err
		}
		blob := graph.NamesBlob(ents)
		match := func(s string) []uint32 { ids, _ := graph.MatchNames(blob, s); return ids }
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
				if got, want := match(s), shownRef(ents, s); !slices.Equal(got, want) {
					t.Fatalf("%s, text %q:\nmatch %v\nref   %v", p.URL, s, got, want)
				}
			}
		}
		if got, want := match(low), shownRef(ents, low); !slices.Equal(got, want) {
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

// TestStoredNames checks that the names the index keeps with each page
// (graph.NamesBlob) match what the page's entity list matches.
func TestStoredNames(t *testing.T) {
	w, err := Open(storetest.SampleStore(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx := context.Background()
	hits := 0
	err = w.Store().Graph().EachTree(ctx, func(tr *graph.Tree) error {
		hs, err := w.Store().Index().Search(ctx, tr.Title(), index.SearchOptions{K: 10})
		if err != nil {
			return err
		}
		for _, h := range hs {
			low := strings.ToLower(h.Title + "\n" + h.Snippet)
			got, ok := graph.MatchNames(h.Stored, low)
			if !ok {
				t.Fatalf("%s: no names stored with the page", h.URL)
			}
			ents, err := w.Store().Graph().PageEntities(h.URL)
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
