// Package export writes agent trajectories in the formats other tools
// read, one file per format: sft.go (SFT messages in Tongyi's text
// protocol), browsecomp_plus.go (BrowseComp-Plus run records), leaper.go
// (leaper's own trajectory JSONL). A format implements the small Format
// interface (export.go) and registers itself in init; one JSON value per
// line is a Lines with its Record function, so adding a format is adding
// one file. leaper export looks formats up by name.
//
// # Concurrency
//
// Lookup and Names are safe for concurrent use; a Writer is not.
//
// # Caveats
//
// Formats read the trajectory only: whatever a record needs must be in the
// trajectory JSONL (task id, steps, URLs, answer).
package export
