package store

import (
	"errors"
	"os"
	"path/filepath"
)

// This file owns the layout of a store directory; nothing else in leaper
// names a path inside one.
//
//	DIR/
//	  graph/      the Badger entity-relation graph (package graph); its
//	              MANIFEST file marks a store, and the graph's manifest
//	              records the format version and whether the build finished
//	  index/      the Bleve full-text index of the pages (package index)
//	  index.new/  the index a running build writes; renamed over index/
//	              when it is complete, so a stopped build never leaves a
//	              half index in place
//	  spill/      the sorted runs of page fragments a running build's
//	              finalize writes (removed when the build ends, and at
//	              the start of the next one after a kill)
const (
	graphDir      = "graph"
	indexDir      = "index"
	indexBuildDir = indexDir + ".new"
	spillDir      = "spill"
	graphMarker   = "MANIFEST" // Badger's own manifest: the graph exists
)

// GraphPath is the graph's directory inside the store in dir.
func GraphPath(dir string) string { return filepath.Join(dir, graphDir) }

// IndexPath is the index's directory inside the store in dir.
func IndexPath(dir string) string { return filepath.Join(dir, indexDir) }

// IndexBuildPath is where a build (package ingest) writes the new index.
func IndexBuildPath(dir string) string { return filepath.Join(dir, indexBuildDir) }

// SpillPath is where a build's finalize spills to disk.
func SpillPath(dir string) string { return filepath.Join(dir, spillDir) }

// markerPath is the file whose presence says dir holds a store.
func markerPath(dir string) string { return filepath.Join(dir, graphDir, graphMarker) }

// Remove deletes the store in dir: the entries above, and nothing else of
// dir (a user's tasks or trajectories beside the store stay).
func Remove(dir string) error {
	var errs []error
	for _, d := range []string{graphDir, indexDir, indexBuildDir, spillDir} {
		errs = append(errs, os.RemoveAll(filepath.Join(dir, d)))
	}
	return errors.Join(errs...)
}
