// Package graphtest locates the corpora of tests: the real sample corpus
// under testdata/corpus and the shared corpus beside the repository.
// Package ingest/storetest builds the sample store from it.
package graphtest

import (
	"os"
	"path/filepath"
	"runtime"
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
