package graph_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/ingest/table"
	"github.com/leaper-dev/leaper/store"
)

// dump is a store's content in a comparable form: every tree and entity.
type dump struct {
	Counts   graph.Counts
	Trees    []string
	Entities []string
}

func dumpStore(t *testing.T, dir string) dump {
	t.Helper()
	g, err := graph.Open(store.GraphPath(dir), &graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	d := dump{Counts: g.Manifest().Counts}
	if err := g.EachTree(context.Background(), func(tr *graph.Tree) error {
		tr.Source = filepath.Base(tr.Source)
		b, _ := json.Marshal(tr)
		d.Trees = append(d.Trees, string(b))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for id := uint32(0); id < uint32(d.Counts.Entities); id++ {
		e, err := g.Entity(id)
		if err != nil {
			t.Fatalf("entity %d of %d: %v", id, d.Counts.Entities, err)
		}
		b, _ := json.Marshal(e)
		d.Entities = append(d.Entities, string(b))
	}
	return d
}

func buildStore(t *testing.T, dir string, inputs ...string) *ingest.Report {
	t.Helper()
	rep, err := ingest.Run(context.Background(), dir, inputs, nil)
	if err != nil {
		t.Fatalf("build %v: %v", inputs, err)
	}
	return rep
}

func TestBuildDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	buildStore(t, a, graphtest.Corpus())
	buildStore(t, b, graphtest.Corpus())
	da, db := dumpStore(t, a), dumpStore(t, b)
	if !reflect.DeepEqual(da, db) {
		t.Fatalf("two builds of the same input differ: %+v vs %+v", da.Counts, db.Counts)
	}
	if da.Counts.Trees < 40 || da.Counts.Entities < 2000 || da.Counts.Pages < 1000 {
		t.Fatalf("sample built too little: %+v", da.Counts)
	}
}

func TestAppendDoesNotDuplicate(t *testing.T) {
	whole, parts := t.TempDir(), t.TempDir()
	buildStore(t, whole, graphtest.Corpus())
	c := graphtest.Corpus()
	buildStore(t, parts, filepath.Join(c, "wtq"))
	r := buildStore(t, parts, filepath.Join(c, "ottqa"), filepath.Join(c, "csv"), filepath.Join(c, "tabel"))
	if r.Trees == 0 {
		t.Fatal("append added no trees")
	}
	// Everything again: nothing new.
	r = buildStore(t, parts, c)
	if r.Trees != 0 || r.Passages != 0 {
		t.Fatalf("re-adding the same inputs added %d trees, %d passages", r.Trees, r.Passages)
	}
	dw, dp := dumpStore(t, whole), dumpStore(t, parts)
	if dw.Counts != dp.Counts {
		t.Fatalf("appended store %+v != single build %+v", dp.Counts, dw.Counts)
	}
}

// TestResumeAfterInterrupt stops a build midway, as SIGINT does, and
// checks that building again completes it with nothing lost or duplicated.
func TestResumeAfterInterrupt(t *testing.T) {
	want := dumpStore(t, storetest.SampleStore(t))
	for _, stopAfter := range []int{1, 20, 60} {
		dir := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		_, err := ingest.Run(ctx, dir, []string{graphtest.Corpus()}, &ingest.Options{
			FlushEvery: 7,
			Progress: func(p ingest.Progress) {
				if p.Stage == "read" {
					n++
					if n == stopAfter/7+1 {
						cancel()
					}
				}
			},
			OnSkip: func(*table.ParseError) {},
		})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("stop after %d: want context.Canceled, got %v", stopAfter, err)
		}
		g, err := graph.Open(store.GraphPath(dir), &graph.Options{ReadOnly: true})
		if err != nil {
			t.Fatalf("reopen interrupted store: %v", err)
		}
		if g.Manifest().Complete {
			t.Fatal("interrupted store claims to be complete")
		}
		g.Close()
		if _, err := ingest.Run(context.Background(), dir, []string{graphtest.Corpus()}, nil); err != nil {
			t.Fatalf("resume: %v", err)
		}
		if got := dumpStore(t, dir); !reflect.DeepEqual(got, want) {
			t.Fatalf("stop after %d, resumed store differs: %+v, want %+v", stopAfter, got.Counts, want.Counts)
		}
	}
}

func TestReadOnlySharedAndClose(t *testing.T) {
	dir := store.GraphPath(storetest.SampleStore(t))
	a, err := graph.Open(dir, &graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := graph.Open(dir, &graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("second read-only open: %v", err)
	}
	if _, err := b.NewBuilder(); !errors.Is(err, graph.ErrReadOnly) {
		t.Fatalf("builder on read-only store: %v", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); !errors.Is(err, graph.ErrClosed) {
		t.Fatalf("second close: %v", err)
	}
	if _, err := a.Entity(0); !errors.Is(err, graph.ErrClosed) {
		t.Fatalf("read after close: %v", err)
	}
	if _, err := b.Entity(0); err != nil {
		t.Fatalf("other reader after close: %v", err)
	}
	b.Close()
	if _, err := graph.Open(t.TempDir(), &graph.Options{ReadOnly: true}); !errors.Is(err, graph.ErrNoStore) {
		t.Fatalf("read-only open of empty dir: %v", err)
	}
	// A directory that cannot be read is not "no store": told so, a user
	// might rebuild it. (Root reads it anyway.)
	if os.Geteuid() != 0 {
		dir := t.TempDir()
		if err := os.Chmod(dir, 0); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(dir, 0o700)
		if _, err := graph.Open(dir, &graph.Options{ReadOnly: true}); err == nil || errors.Is(err, graph.ErrNoStore) || !errors.Is(err, os.ErrPermission) {
			t.Fatalf("read-only open of an unreadable dir: %v", err)
		}
	}
}

func TestBitmapsMatchTrees(t *testing.T) {
	g := storetest.OpenGraph(t)
	err := g.EachTree(context.Background(), func(tr *graph.Tree) error {
		rels, err := g.RelationsOfTree(tr.ID)
		if err != nil {
			return err
		}
		keys, _ := g.KeysOfTree(tr.ID)
		for _, r := range tr.Rows {
			if !keys.Contains(r.Key) {
				t.Errorf("tree %d: key %d missing from KeysOfTree", tr.ID, r.Key)
			}
			for j, vs := range r.Values {
				rel := tr.Columns[j].Relation
				for _, v := range vs {
					if !rels.Contains(rel) {
						t.Errorf("tree %d lacks relation %d", tr.ID, rel)
					}
					subj, _ := g.Subjects(rel, v)
					obj, _ := g.Objects(rel, r.Key)
					if !subj.Contains(r.Key) || !obj.Contains(v) {
						t.Errorf("triple (%d, %d, %d) missing from bitmaps", r.Key, rel, v)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestLookups(t *testing.T) {
	g := storetest.OpenGraph(t)
	e, err := g.EntityByKey("w:William Golding")
	if err != nil {
		t.Skip("sample has no William Golding:", err)
	}
	ids, err := g.FindEntities("william golding", 0)
	if err != nil || len(ids) == 0 || ids[0] != e.ID {
		t.Fatalf("FindEntities: %v %v, want %d", ids, err, e.ID)
	}
	p, err := g.Page(e.URL)
	if err != nil {
		t.Fatalf("entity page: %v", err)
	}
	if len(p.Segments) == 0 {
		t.Fatal("empty entity page")
	}
	if _, err := g.Page("https://en.wikipedia.org/wiki/No_Such_Page_Here"); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("missing page: %v", err)
	}
}

// TestTreesDecodeAsEncodingJSON: every tree of the sample store reads the
// same through the store's decoder as through encoding/json.
func TestTreesDecodeAsEncodingJSON(t *testing.T) {
	g := storetest.OpenGraph(t)
	n := 0
	err := g.EachTree(context.Background(), func(tr *graph.Tree) error {
		n++
		b, err := json.Marshal(tr)
		if err != nil {
			return err
		}
		var want graph.Tree
		if err := json.Unmarshal(b, &want); err != nil {
			return err
		}
		if !reflect.DeepEqual(*tr, want) {
			t.Errorf("tree %d decodes differently", tr.ID)
		}
		one, err := g.Tree(tr.ID)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(*one, want) {
			t.Errorf("Tree(%d) decodes differently", tr.ID)
		}
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("%d trees: %v", n, err)
	}
}
