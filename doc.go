// Package leaper is the root of the leaper module: an embedded knowledge
// engine for entity-dense information-seeking tasks. The command is
// cmd/leaper; the library is in store, graph, index, web, task, query,
// mining, synth and agent. README.md's layout section names the file or
// package that owns each part; layout_test.go keeps it true.
package leaper
