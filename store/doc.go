// Package store is a leaper store directory, one floor above graph and
// index, and the one store type a caller meets: layout.go is the one file
// that owns what sits in the directory (graph/, index/, the index.new/ and
// spill/ a build writes); store.go opens a store (Open, read-only by
// default, refusing another format version or an unfinished build; Graph
// and Index accessors; GraphOnly for readers that do not search) and says
// what a directory holds (State). Package ingest, one floor up, builds one.
// Graph and index meet only here and in build; neither imports the other.
//
// A store's ID ("v4-" and 16 hex digits) names what it holds: its format
// version and the content digest its build records in the manifest
// (SHA-256 of the pages in URL order, hashed as Finalize writes them, so
// it costs the build no extra pass). Servers send it with every answer and
// rollouts record it, so an answer or a trajectory says which store gave
// it. Several processes may open one store read-only at once.
//
// # Concurrency
//
// A Store is safe for concurrent use: it hands out the graph and the index,
// which are. A build (package ingest) writes one store and must be its only
// writer; readers open the store read-only.
//
// # Caveats
//
// A store whose build was stopped is Incomplete (State) and refused by
// Open unless AllowIncomplete; building again with the same inputs
// completes it. Close twice returns ErrClosed. A store built before the digest was recorded gets its ID
// from one read of its pages, at the first ID or Digest call.
package store
