// Package ingest is leaper's build pipeline (leaper build), in one room,
// its files named by stage: Run (build.go) takes a store directory from
// inputs to a finished store, stage by stage.
//
//  1. readers (package ingest/table): every input format read into raw
//     tables, passages and corpus documents, in parallel, handed on in
//     input order (read.go drives them);
//  2. cleaning (clean.go): Shape cleans a table by WebLeaper Appendix A.4
//     and shapes it into a reasoning tree whose entities are still keys,
//     or says why it is rejected; Prepare runs it in the readers'
//     goroutines;
//  3. trees and writers (graph.Builder, graph/build.go): in input order,
//     each table's entities, relations and then tree are written to the
//     graph, the tree record marking the table done;
//  4. finalize (finalize.go, graph.Builder.Finalize): bitmaps and pages
//     derived from the stored trees through external sorts spilled to
//     the store's spill/ directory;
//  5. index (index.go): each page indexed as it is written, into a new
//     index swapped in at the end; then the store is marked complete.
//
// The writer stages stay in package graph because they own its key
// layout, which nothing else names; package store owns the directory's
// layout (where graph, index and spill sit) and opening a built store.
// Cleaning's vocabulary (graph.Shaped, graph.Reject and its reasons) and
// naming rules (graph.RelationName, graph.Domain, graph.NormText) are the
// graph's, since the read side names relations and entities by them too.
//
// Main types: Options, Report, Progress; CleanOptions and
// DefaultCleanOptions, Shape, Prepare. HeapLimit says what Go memory limit
// keeps a build's resident memory within a bound.
//
// # Concurrency
//
// Run writes one store and must be its only writer (the graph's lock
// refuses a second); readers open the store read-only. Within Run the
// readers parse and clean on several goroutines, the graph is written from
// one, and the index is fed from its own. Shape and Prepare are pure and
// safe for concurrent use.
//
// # Caveats
//
// Run is resumable: a build stopped at any point (signal, crash) is
// completed by running it again with the same inputs; tables already
// stored are recognised by their content key and skipped, and the index is
// rebuilt whole. Options.Progress is called from the build's goroutines.
package ingest
