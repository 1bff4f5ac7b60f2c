package web_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/ingest/table"
	"github.com/leaper-dev/leaper/web"
)

// TestStandardCorpora builds the sample tables with passages of wiki-18,
// BrowseComp-Plus and KILT (fixtures in their own formats, made from the
// sample's text) and reads them back as an agent would: search finds the
// passages, visit reads them, /retrieve's hits carry the corpus ids, and a
// title a table already has is that one page.
func TestStandardCorpora(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	fx := filepath.Join(graphtest.RepoRoot(), "ingest", "table", "testdata", "corpora")
	var skips []string
	rep, err := ingest.Run(ctx, dir, []string{graphtest.Corpus(), fx}, &ingest.Options{
		OnSkip: func(e *table.ParseError) { skips = append(skips, e.Error()) }})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Documents != 12 || rep.Counts.Documents != 12 {
		t.Errorf("documents: %d read, %d stored; want 12 (8 wiki-18 passages, 2 KILT articles, 2 BrowseComp-Plus documents)", rep.Documents, rep.Counts.Documents)
	}
	for _, r := range []string{"skipped: invalid json", "skipped: no title", "skipped: no id", "skipped: no text", "skipped: no url"} {
		if rep.Reasons[r] == 0 {
			t.Errorf("no %q among the build's reasons %v", r, rep.Reasons)
		}
	}
	for _, s := range skips {
		if !strings.Contains(s, ".jsonl") || !strings.Contains(s, ":") {
			t.Errorf("skip without file:line: %s", s)
		}
	}
	w, err := web.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	g := w.Store().Graph()

	// wiki-18: the passages of one title are one page, in id order, each
	// keeping its id; the page's corpus id is its first passage's.
	congress := "https://en.wikipedia.org/wiki/110th_United_States_Congress"
	p, err := g.Page(congress)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, sg := range p.Segments {
		if sg.DocID != "" {
			ids = append(ids, sg.DocID)
		}
	}
	if strings.Join(ids, ",") != "0,1" {
		t.Errorf("passage ids on %s: %v, want 0,1", congress, ids)
	}
	if id, err := g.DocID(congress); err != nil || id != "0" {
		t.Errorf("DocID(%s) = %q, %v", congress, id, err)
	}
	hits, err := w.Hits(ctx, "One Hundred Tenth United States Congress legislative branch", 3, 0)
	if err != nil || len(hits) == 0 || hits[0].URL != congress || hits[0].DocID != "0" {
		t.Fatalf("search for the passage: %+v, %v", hits, err)
	}
	if !strings.HasPrefix(hits[0].Passage, "The One Hundred Tenth United States Congress") || len(strings.Fields(hits[0].Passage)) > 100 {
		t.Errorf("hit's passage %.80q: want passage 0 whole", hits[0].Passage)
	}
	// A hit in the article's second passage names that passage.
	hits, err = w.Hits(ctx, "110th United States Congress Democrats operational majority independent senators caucused", 3, 0)
	if err != nil || len(hits) == 0 || hits[0].URL != congress || hits[0].DocID != "1" || !strings.HasPrefix(hits[0].Passage, "Democrats held fewer than 50 Senate seats") {
		t.Errorf("search in the second passage: %+v, %v", hits, err)
	}
	obs, err := w.Visit(ctx, []string{congress}, "the apportionment of seats")
	if err != nil || strings.Contains(obs.Text, web.MsgNoAccessEvid) || !strings.Contains(obs.Text, "apportionment") {
		t.Errorf("visit %s: %v %.300s", congress, err, obs.Text)
	}

	// KILT: an article whose title a sample table's page has is that page:
	// its tables and the article's paragraphs, with the article's id.
	penn := "https://en.wikipedia.org/wiki/List_of_Nobel_laureates_affiliated_with_the_University_of_Pennsylvania"
	p, err = g.Page(penn)
	if err != nil {
		t.Fatal(err)
	}
	rows, docs := 0, 0
	for _, sg := range p.Segments {
		rows += b2i(sg.Kind == graph.SegRow)
		docs += b2i(sg.DocID == "4654001")
	}
	if p.Kind != graph.PageTable || rows == 0 || docs != 2 {
		t.Errorf("%s: kind %s, %d rows, %d KILT paragraphs", penn, p.Kind, rows, docs)
	}
	if id, _ := g.DocID(penn); id != "4654001" {
		t.Errorf("DocID(%s) = %q", penn, id)
	}

	// BrowseComp-Plus: a web document is a page at its own URL that
	// search finds and visit reads; its id is the docid.
	imperial := "https://www.imperial.ac.uk/about/history/nobel-laureates/"
	hits, err = w.Hits(ctx, "Nobel laureates of Imperial College", 5, 0)
	found := false
	for _, h := range hits {
		found = found || h.URL == imperial && h.DocID == "17" && h.Title == "Nobel laureates of Imperial College"
	}
	if err != nil || !found {
		t.Errorf("search for the web document: %+v %v", hits, err)
	}
	if pg, err := w.Page(imperial); err != nil || pg.Title != "Nobel laureates of Imperial College" {
		t.Errorf("visit %s: %v", imperial, err)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
