package lucene

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCheckMissingJars(t *testing.T) {
	err := Check(&Options{JarDir: filepath.Join(t.TempDir(), "none")})
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Check without jars = %v, want ErrUnavailable", err)
	}
	err = Check(&Options{Java: "no-such-java-command"})
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "java") {
		t.Fatalf("Check without java = %v", err)
	}
}

func TestStopWords(t *testing.T) {
	sw := StopWords()
	for _, w := range []string{"the", "of", "and", "which"} {
		if !slices.Contains(sw, w) {
			t.Errorf("stop words lack %q", w)
		}
	}
}

var testPages = []Page{
	{URL: "u/ballet", Title: "Ballet", Text: "Ballet is a type of performance dance that originated in Italy."},
	{URL: "u/opera", Title: "Opera", Text: "Opera is a form of theatre in which music is fundamental, Italy again."},
	{URL: "u/tennis", Title: "Tennis", Text: "Tennis is a racket sport played against a single opponent."},
	{URL: "u/dancers", Title: "List of ballet dancers", Text: "Famous dancers of the ballets russes, dancing in Paris."},
}

// TestPeer runs the real peer on four pages (skipped without java or the
// Lucene jars, as in CI).
func TestPeer(t *testing.T) {
	o := &Options{CacheDir: t.TempDir(), IndexDir: filepath.Join(t.TempDir(), "idx")}
	if err := Check(o); err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	queries := []string{"ballet dancers", "the of", "Italy opera", "racket\nsports"}
	pages := func(yield func(Page) error) error {
		for _, p := range testPages {
			if err := yield(p); err != nil {
				return err
			}
		}
		return nil
	}
	p, err := Start(ctx, o, pages, StopWords(), queries)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.BuildTime <= 0 {
		t.Errorf("BuildTime %v", p.BuildTime)
	}
	hits, err := p.Hits()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"u/dancers", "u/ballet"}, nil, {"u/opera", "u/ballet"}, {"u/tennis"}}
	for i := range want {
		if !slices.Equal(hits[i], want[i]) {
			t.Errorf("hits of %q = %q, want %q", queries[i], hits[i], want[i])
		}
	}
	for _, snip := range []bool{true, false} {
		r, err := p.Run(2, snip)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Latencies) != len(queries) || r.Wall <= 0 {
			t.Errorf("run: %+v", r)
		}
	}
	addr, err := p.Listen(2)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post("http://"+addr+"/search", "text/plain", strings.NewReader("ballet dancers"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Hits []struct{ URL, Title, Snippet string }
	}
	err = json.NewDecoder(resp.Body).Decode(&res)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("HTTP %d: %v", resp.StatusCode, err)
	}
	if len(res.Hits) != 2 || res.Hits[0].URL != "u/dancers" || res.Hits[0].Title != "List of ballet dancers" || !strings.Contains(res.Hits[0].Snippet, "dancers") {
		t.Errorf("HTTP hits: %+v", res.Hits)
	}

	// A search that agrees on the first query only.
	search := func(_ context.Context, q string) ([]string, error) {
		if q == queries[0] {
			return want[0], nil
		}
		return []string{"u/other"}, nil
	}
	rep, err := Compare(ctx, p, search, queries, &CompareOptions{Threads: []int{1, 2}, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 6 || rep.Rows[0].Engine != "leaper" || rep.Rows[0].Ratio <= 0 || rep.Rows[4].Threads != 2 {
		t.Errorf("rows: %+v", rep.Rows)
	}
	if rep.Compared != 4 || rep.Overlap != 0.25 {
		t.Errorf("overlap %v over %d queries, want 0.25 over 4", rep.Overlap, rep.Compared)
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}

	// The index is reused: pages are not read again.
	p2, err := Start(ctx, o, func(func(Page) error) error { return errors.New("pages read again") }, StopWords(), queries)
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	if p2.BuildTime != 0 {
		t.Errorf("index rebuilt")
	}
}
