// Package storetest builds stores for tests: the real sample corpus under
// testdata/corpus, once per test binary.
package storetest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/store"
)

var (
	once   sync.Once
	dir    string
	report *ingest.Report
	err    error
)

// Main runs a package's tests and removes the sample store built for them.
// A package that calls SampleStore calls Main from its TestMain, or each run
// of its tests leaves a store behind in the temp dir.
func Main(m *testing.M) {
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// SampleStore builds the sample corpus into a store directory once per test
// binary and returns it; Main removes it when the tests are done.
func SampleStore(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		dir, err = os.MkdirTemp("", "leaper-sample-*")
		if err != nil {
			return
		}
		report, err = ingest.Run(context.Background(), dir, []string{graphtest.Corpus()}, nil)
	})
	if err != nil {
		t.Fatalf("storetest: build sample store: %v", err)
	}
	return dir
}

// SampleReport is the report of the sample build.
func SampleReport(t testing.TB) *ingest.Report {
	SampleStore(t)
	return report
}

// Open opens the sample store read-only, closed at cleanup.
func Open(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(SampleStore(t), nil)
	if err != nil {
		t.Fatalf("storetest: open store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// OpenGraph opens the sample store's graph read-only, closed at cleanup.
func OpenGraph(t testing.TB) *graph.Store {
	t.Helper()
	s, err := store.Open(SampleStore(t), &store.Options{GraphOnly: true})
	if err != nil {
		t.Fatalf("storetest: open graph: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s.Graph()
}

// BuildGraph builds the corpus under testdata/path (a directory of the
// repository's testdata, in any layout the build reads) into a store of
// its own and opens its graph read-only, closed at cleanup.
func BuildGraph(t testing.TB, path ...string) *graph.Store {
	t.Helper()
	d := t.TempDir()
	in := filepath.Join(append([]string{graphtest.RepoRoot(), "testdata"}, path...)...)
	if _, err := ingest.Run(context.Background(), d, []string{in}, &ingest.Options{}); err != nil {
		t.Fatalf("storetest: build %s: %v", in, err)
	}
	g, err := graph.Open(store.GraphPath(d), &graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("storetest: open graph of %s: %v", in, err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}
