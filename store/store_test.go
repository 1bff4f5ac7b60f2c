package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/store"
)

func TestOpenAndState(t *testing.T) {
	dir := storetest.SampleStore(t)
	if st, err := store.State(dir); err != nil || st != store.Complete {
		t.Fatalf("State(sample) = %v, %v; want complete", st, err)
	}
	if st, err := store.State(t.TempDir()); err != nil || st != store.Missing {
		t.Fatalf("State(empty dir) = %v, %v; want missing", st, err)
	}
	s, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Graph() == nil || s.Index() == nil || s.Dir() != dir {
		t.Fatalf("Open: graph %v, index %v, dir %q", s.Graph(), s.Index(), s.Dir())
	}
	if n, err := s.Index().Count(); err != nil || n != uint64(s.Graph().Manifest().Counts.Pages) {
		t.Errorf("index holds %d pages (%v), graph %d", n, err, s.Graph().Manifest().Counts.Pages)
	}
	// Read-only: the graph refuses writes.
	if _, err := s.Graph().NewBuilder(); !errors.Is(err, graph.ErrReadOnly) {
		t.Errorf("NewBuilder on a read-only store: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); !errors.Is(err, store.ErrClosed) {
		t.Errorf("second Close: %v, want ErrClosed", err)
	}
	g, err := store.Open(dir, &store.Options{GraphOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if g.Index() != nil {
		t.Error("GraphOnly opened the index")
	}
	if _, err := store.Open(t.TempDir(), nil); err == nil {
		t.Error("Open of an empty directory succeeded")
	}
}

func TestStateIncomplete(t *testing.T) {
	dir := t.TempDir()
	g, err := graph.Open(store.GraphPath(dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.NewBuilder(); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err := store.State(dir); err != nil || st != store.Incomplete {
		t.Fatalf("State(unfinished build) = %v, %v; want incomplete", st, err)
	}
	if _, err := store.Open(dir, nil); !errors.Is(err, graph.ErrIncomplete) {
		t.Errorf("Open(unfinished build) = %v, want ErrIncomplete", err)
	}
	s, err := store.Open(dir, &store.Options{AllowIncomplete: true, GraphOnly: true})
	if err != nil {
		t.Fatalf("Open with AllowIncomplete: %v", err)
	}
	s.Close()
}

func TestBuildOptionsValidated(t *testing.T) {
	ctx := context.Background()
	for _, o := range []*ingest.Options{{Format: "xlsx"}, {FlushEvery: -1}} {
		if _, err := ingest.Run(ctx, t.TempDir(), []string{graphtest.Corpus()}, o); err == nil {
			t.Errorf("Build accepted %+v", o)
		}
	}
}

// TestDigest checks that the digest a build records is the one computed
// from the pages afterwards (so stores built before it was recorded get
// the same id), that it is deterministic (a second build of the same
// corpus has it), and that another corpus has another.
func TestDigest(t *testing.T) {
	s := storetest.Open(t)
	m := s.Graph().Manifest()
	if len(m.Digest) != 64 {
		t.Fatalf("manifest digest %q, want 64 hex digits", m.Digest)
	}
	got, err := s.Graph().ComputeDigest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got != m.Digest {
		t.Fatalf("ComputeDigest = %s, manifest %s", got, m.Digest)
	}
	id, err := s.ID()
	if err != nil || id != store.FormatID(graph.FormatVersion, m.Digest) || len(id) != len("v4-")+16 {
		t.Fatalf("ID = %q, %v", id, err)
	}
	dir := t.TempDir()
	if _, err := ingest.Run(context.Background(), dir, []string{graphtest.Corpus()}, nil); err != nil {
		t.Fatal(err)
	}
	s2, err := store.Open(dir, &store.Options{GraphOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if d := s2.Graph().Manifest().Digest; d != m.Digest {
		t.Errorf("second build of the same corpus: digest %s, first %s", d, m.Digest)
	}
	// Another corpus (a part of the sample) has another digest.
	part := filepath.Join(graphtest.Corpus(), "wtq")
	dir3 := t.TempDir()
	if _, err := ingest.Run(context.Background(), dir3, []string{part}, nil); err != nil {
		t.Fatal(err)
	}
	s3, err := store.Open(dir3, &store.Options{GraphOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	if id3, _ := s3.ID(); id3 == id {
		t.Errorf("a store of %s has the sample's id %s", part, id)
	}
}
