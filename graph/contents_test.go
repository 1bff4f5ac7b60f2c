package graph_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"hash"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/store"
)

var update = flag.Bool("update", false, "rewrite golden files")

// contents is what a store holds, as counts and digests of every record
// kind, with the corpus path taken out of sources.
type contents struct {
	Counts                                          graph.Counts
	Trees, Entities, Relations, Pages, Shown, Edges string
}

func digestStore(t *testing.T, dir, corpus string) contents {
	t.Helper()
	g, err := graph.Open(store.GraphPath(dir), &graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ctx := context.Background()
	c := contents{Counts: g.Manifest().Counts}
	sum := func(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil))[:16] }
	line := func(h hash.Hash, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte(strings.ReplaceAll(string(b), corpus, "CORPUS")))
		h.Write([]byte{'\n'})
	}
	trees, edges := sha256.New(), sha256.New()
	must := func(v any, err error) any {
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if err := g.EachTree(ctx, func(tr *graph.Tree) error {
		line(trees, tr)
		line(edges, must(g.KeysOfTree(tr.ID)))
		line(edges, must(g.RelationsOfTree(tr.ID)))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	c.Trees = sum(trees)
	ents := sha256.New()
	for id := uint32(0); id < uint32(c.Counts.Entities); id++ {
		line(ents, must(g.Entity(id)))
		line(edges, must(g.TreesOfEntity(id)))
	}
	c.Entities = sum(ents)
	rels := sha256.New()
	rs, err := g.Relations()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		line(rels, r)
		line(edges, must(g.TreesOfRelation(r.ID)))
		subj, err := g.SubjectsOf(r.ID)
		if err != nil {
			t.Fatal(err)
		}
		line(edges, subj)
		for it := subj.Iterator(); it.HasNext(); {
			line(edges, must(g.Objects(r.ID, it.Next())))
		}
		obj, err := g.ObjectsOf(r.ID)
		if err != nil {
			t.Fatal(err)
		}
		line(edges, obj)
		for it := obj.Iterator(); it.HasNext(); {
			line(edges, must(g.Subjects(r.ID, it.Next())))
		}
	}
	c.Relations, c.Edges = sum(rels), sum(edges)
	pages, shown := sha256.New(), sha256.New()
	if err := g.EachPage(ctx, func(p *graph.Page) error {
		line(pages, p)
		line(shown, must(g.PageEntities(p.URL)))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	c.Pages, c.Shown = sum(pages), sum(shown)
	return c
}

// TestStoreContentsGolden pins what the sample corpus builds into: the
// counts and digests of trees, entities, relations, every bitmap, pages and
// their shown entities. The streaming finalize (pages spilled to sorted
// runs) must give the same store as the in-memory one it replaced; the
// golden was written by that one. So must a build whose entity dictionary
// keeps only a few records in memory and reads the rest back, even when
// it is interrupted and resumed (the resumed build must know the keys of
// the records it did not load).
func TestStoreContentsGolden(t *testing.T) {
	small := &ingest.Options{SpillBudget: spillSmall.SpillBudget, EntityCache: 16 << 10, FlushEvery: 7}
	for _, tc := range []struct {
		name      string
		opts      *ingest.Options
		interrupt int // after this many progress reports of the read stage
	}{
		{"spill", spillSmall, 0},
		{"spill+entity-cache", small, 0},
		{"spill+entity-cache+resumed", small, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			corpus := graphtest.Corpus()
			if tc.interrupt > 0 {
				ctx, cancel := context.WithCancel(context.Background())
				o := *tc.opts
				n := 0
				o.Progress = func(p ingest.Progress) {
					if p.Stage == "read" {
						if n++; n == tc.interrupt {
							cancel()
						}
					}
				}
				_, err := ingest.Run(ctx, dir, []string{corpus}, &o)
				cancel()
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("interrupted build: %v, want context.Canceled", err)
				}
			}
			rep, err := ingest.Run(context.Background(), dir, []string{corpus}, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if tc.opts.EntityCache > 0 && rep.EntityReads == 0 {
				t.Errorf("a %d-byte entity cache read nothing back", tc.opts.EntityCache)
			}
			got := digestStore(t, dir, corpus)
			b, _ := json.MarshalIndent(got, "", "  ")
			golden := filepath.Join("testdata", "contents.golden.json")
			if *update && tc.opts == spillSmall {
				os.MkdirAll("testdata", 0o755)
				if err := os.WriteFile(golden, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(string(want)) != string(b) {
				t.Errorf("store contents differ from %s:\n%s", golden, b)
			}
		})
	}
}

// TestBuildBitmapsMatchInMemory builds the sample corpus with the
// bitmaps' pairs spilled in many small runs and in one, and checks that
// both stores' bitmap records are byte for byte those of the in-memory
// build the runs replaced.
func TestBuildBitmapsMatchInMemory(t *testing.T) {
	ctx := context.Background()
	corpus := graphtest.Corpus()
	var want map[string][]byte
	for _, opts := range []*ingest.Options{spillSmall, nil} {
		dir := t.TempDir()
		if _, err := ingest.Run(ctx, dir, []string{corpus}, opts); err != nil {
			t.Fatal(err)
		}
		g, err := graph.Open(store.GraphPath(dir), &graph.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := graph.BitmapRecords(g)
		if err == nil && want == nil {
			want, err = graph.RefBitmapRecords(ctx, g)
		}
		g.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || len(got) < 100 {
			t.Errorf("spill %v: %d bitmap records, want %d", opts != nil, len(got), len(want))
		}
		for k, v := range want {
			if string(got[k]) != string(v) {
				t.Errorf("spill %v: bitmap %q differs", opts != nil, k)
				break
			}
		}
	}
}
