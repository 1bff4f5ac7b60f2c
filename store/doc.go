// Package store is a leaper store directory, one floor above graph and
// index: layout.go is the one file that owns what sits in the directory
// (graph/, index/, the index.new/ a build writes); store.go opens a store
// (Open, read-only by default, refusing another format version or an
// unfinished build; Graph and Index accessors; GraphOnly for readers that
// do not search) and says what a directory holds (State); build.go builds
// one: it reads tables and passages (package table), writes the graph
// (package graph) and indexes the pages (package index). It is the one
// place where graph and index meet; they do not import each other.
//
// A store's ID ("v3-" and 16 hex digits) names what it holds: its format
// version and the content digest its build records in the manifest
// (SHA-256 of the pages in URL order, hashed as Finalize writes them, so
// it costs the build no extra pass). Servers send it with every answer and
// rollouts record it, so an answer or a trajectory says which store gave
// it. Several processes may open one store read-only at once.
//
// # Concurrency
//
// A Store is safe for concurrent use: it hands out the graph and the index,
// which are. Build writes one store and must be its only writer; readers
// open the store read-only.
//
// # Caveats
//
// Build is resumable: a build stopped at any point (signal, crash) is
// completed by running it again with the same inputs. Tables already stored
// are recognised by their content key and skipped. Close twice returns
// ErrClosed. A store built before the digest was recorded gets its ID
// from one read of its pages, at the first ID or Digest call.
package store
