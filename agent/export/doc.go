// Package export writes agent trajectories and tasks in the formats other
// tools read, one file per format.
//
// Streams of trajectories implement the small Format interface (export.go)
// and register themselves in init; one JSON value per line is a Lines with
// its Record function:
//
//   - leaper.go: leaper's own trajectory JSONL;
//   - sft.go: SFT messages in Tongyi's text protocol;
//   - browsecomp_plus.go: BrowseComp-Plus run records (and, as a
//     Dataset, the directory its evaluator reads).
//
// Training and evaluation data written from tasks implement Dataset
// (dataset.go) and register with RegisterDataset:
//
//   - asearcher.go: ASearcher's JSONL;
//   - verl.go: parquet for verl's tool agent, and for Search-R1's trainer
//     (search-r1);
//   - skyrl.go: parquet for SkyRL's search environment;
//   - widesearch.go: the directory WideSearch's evaluator loads;
//   - browsecomp_plus.go: queries, qrels, ground truth, corpus and runs.
//
// Adding a format is adding one file. leaper export looks formats up by
// name (Lookup, LookupDataset); WriteFile writes a file whole or not at
// all.
//
// # Concurrency
//
// Lookup, LookupDataset and Names are safe for concurrent use; a Writer is
// not.
//
// # Caveats
//
// Stream formats read the trajectory only: whatever a record needs must be
// in the trajectory JSONL (task id, steps, URLs, answer). Datasets that read
// pages (browsecomp-plus) need the store the tasks were synthesised on.
package export
