// Package graphtest builds stores for tests: the real sample corpus under
// testdata/corpus, once per test binary.
package graphtest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/store"
)

var (
	once   sync.Once
	dir    string
	report *store.Report
	err    error
)

// RepoRoot is the repository's root directory.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Corpus is the bundled sample corpus.
func Corpus() string { return filepath.Join(RepoRoot(), "testdata", "corpus") }

// SharedCorpus is ../shared/corpus beside the repository, or "" when absent.
func SharedCorpus() string {
	d := filepath.Join(RepoRoot(), "..", "shared", "corpus")
	if _, err := os.Stat(d); err != nil {
		return ""
	}
	return d
}

// SampleStore builds the sample corpus into a store directory once per test
// binary and returns it. The directory is removed when the process exits
// only if the OS cleans its temp dir; it is small.
func SampleStore(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		dir, err = os.MkdirTemp("", "leaper-sample-*")
		if err != nil {
			return
		}
		report, err = store.Build(context.Background(), dir, []string{Corpus()}, nil)
	})
	if err != nil {
		t.Fatalf("graphtest: build sample store: %v", err)
	}
	return dir
}

// SampleReport is the report of the sample build.
func SampleReport(t testing.TB) *store.Report {
	SampleStore(t)
	return report
}

// OpenGraph opens the sample store's graph read-only, closed at cleanup.
func OpenGraph(t testing.TB) *graph.Store {
	t.Helper()
	g, err := graph.Open(filepath.Join(SampleStore(t), store.GraphDir), &graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("graphtest: open graph: %v", err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}
