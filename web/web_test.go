package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/store"

	"github.com/leaper-dev/leaper/web"
	"github.com/leaper-dev/leaper/web/webtest"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func call(t *testing.T, w *web.Web, tool, args string) *web.Observation {
	t.Helper()
	obs, err := w.Call(context.Background(), tool, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	return obs
}

var reSearchHead = regexp.MustCompile(`^A Google search for '[^']*' found \d+ results:\n\n## Web Results\n1\. \[[^\]]+\]\(https://en\.wikipedia\.org/wiki/[^)]+\)\n\n`)

func TestSearchFormat(t *testing.T) {
	w := webtest.OpenWeb(t)
	one := call(t, w, "search", `{"query": "Nobel laureates University of Pennsylvania"}`)
	if !reSearchHead.MatchString(one.Text) {
		t.Fatalf("search text does not start in Tongyi's format:\n%s", one.Text[:min(300, len(one.Text))])
	}
	golden(t, "search_one", one.Text)
	if len(one.Entities) == 0 {
		t.Error("search observation shows no entities")
	}
	two := call(t, w, "search", `{"query": ["Nobel laureates University of Pennsylvania", "zzqxv nonexistentword"]}`)
	parts := strings.Split(two.Text, "\n=======\n")
	if len(parts) != 2 || parts[0] != one.Text {
		t.Fatalf("two queries: %d parts; first equal to single: %v", len(parts), parts[0] == one.Text)
	}
	if want := "No results found for 'zzqxv nonexistentword'. Try with a more general query."; parts[1] != want {
		t.Fatalf("no-hit text %q", parts[1])
	}
	y := call(t, w, "search", `{"query": ["Olympic medal table"], "filter_year": 1988}`)
	golden(t, "search_year", y.Text)
	if !strings.Contains(y.Text, "Date published: 1988") {
		t.Errorf("filter_year result without its date:\n%s", y.Text)
	}
}

func TestVisitFormat(t *testing.T) {
	w := webtest.OpenWeb(t)
	g := storetest.OpenGraph(t)
	tr, err := g.Tree(0)
	if err != nil {
		t.Fatal(err)
	}
	goal := tr.KeyHeader + " and " + tr.Columns[0].Header
	args, _ := json.Marshal(map[string]any{"url": tr.PageURL, "goal": goal})
	obs := call(t, w, "visit", string(args))
	head := "The useful information in " + tr.PageURL + " for user goal " + goal + " as follows: \n\nEvidence in page: \n"
	if !strings.HasPrefix(obs.Text, head) || !strings.Contains(obs.Text, "\n\nSummary: \n") {
		t.Fatalf("visit text not in Tongyi's format:\n%s", obs.Text[:min(400, len(obs.Text))])
	}
	golden(t, "visit_tree0", obs.Text)
	// Every row's key entity of the whole table is shown: evidence keeps
	// matching tables whole.
	shown := map[uint32]bool{}
	for _, id := range obs.Entities {
		shown[id] = true
	}
	for _, r := range tr.Rows {
		if !shown[r.Key] {
			t.Fatalf("visit of the tree's page does not show key entity %d", r.Key)
		}
	}
	missing := call(t, w, "visit", `{"url": ["https://en.wikipedia.org/wiki/No_Such_Article_At_All", "file:///etc/passwd"], "goal": "x"}`)
	golden(t, "visit_missing", missing.Text)
	if len(missing.Entities) != 0 {
		t.Error("missing pages show entities")
	}
}

func TestToolErrors(t *testing.T) {
	w := webtest.OpenWeb(t)
	for _, tc := range []struct{ tool, args, want string }{
		{"search", `{}`, web.MsgSearchInvalid},
		{"search", `{"query": 3}`, web.MsgSearchInvalid},
		{"search", `not json`, web.MsgSearchInvalid},
		{"visit", `{"url": "https://en.wikipedia.org/wiki/X"}`, web.MsgVisitInvalid},
		{"visit", `{"goal": "g"}`, web.MsgVisitInvalid},
		{"visit", `[1,2]`, web.MsgVisitInvalid},
	} {
		if got := call(t, w, tc.tool, tc.args).Text; got != tc.want {
			t.Errorf("%s %s: %q", tc.tool, tc.args, got)
		}
	}
	if _, err := w.Call(context.Background(), "browse", json.RawMessage(`{}`)); err == nil {
		t.Error("unknown tool accepted")
	}
}

func TestCanonicalURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://en.wikipedia.org/wiki/William_Golding": "https://en.wikipedia.org/wiki/William_Golding",
		"http://en.wikipedia.org/wiki/William Golding":  "https://en.wikipedia.org/wiki/William_Golding",
		"/wiki/William_Golding":                         "https://en.wikipedia.org/wiki/William_Golding",
		"file:///etc/passwd":                            "",
		"https://example.com/":                          "https://example.com/", // a BrowseComp-Plus document's
		" https://example.com/a?b=1 ":                   "https://example.com/a?b=1",
		"https://en.wikipedia.org/wiki/File:X.jpg":      "",
		"https://en.wikipedia.org/w/index.php?title=X":  "",
		"https://exa mple.com/":                         "",
	} {
		if got := web.CanonicalURL(in); got != want {
			t.Errorf("CanonicalURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWebOverStore(t *testing.T) {
	dir := storetest.SampleStore(t)
	g, err := store.Open(dir, &store.Options{GraphOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := web.New(g, nil); err == nil {
		t.Error("web.New over a store without its index succeeded")
	}
	w, err := web.Open(dir, &web.Options{TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := web.Open(dir, &web.Options{TopK: -1}); err == nil {
		t.Error("negative TopK accepted")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); !errors.Is(err, web.ErrClosed) {
		t.Errorf("second Close: %v, want ErrClosed", err)
	}
}

func TestPage(t *testing.T) {
	w := webtest.OpenWeb(t)
	p, err := w.Page("http://en.wikipedia.org/wiki/Abel Prize")
	if err != nil || p.URL != "https://en.wikipedia.org/wiki/Abel_Prize" {
		t.Fatalf("Page(Abel Prize) = %v, %v", p, err)
	}
	for _, u := range []string{"https://example.com/", "https://en.wikipedia.org/wiki/No_such_page_here"} {
		if _, err := w.Page(u); !errors.Is(err, web.ErrNoPage) {
			t.Errorf("Page(%q): %v, want ErrNoPage", u, err)
		}
	}
	if got := web.ReaderText("T", "U", "M"); got != "Title: T\n\nURL Source: U\n\nMarkdown Content:\nM\n" {
		t.Errorf("ReaderText = %q", got)
	}
}
