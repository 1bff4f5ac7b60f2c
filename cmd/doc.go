// Package cmd is the leaper command line, built with cobra. It parses flags
// and prints; the work is done by the library packages (build, store, web, query,
// synth, audit, agent, agent/eval, agent/export, report). What leaper and
// leaper-bench (the load tester's binary, which does not import this
// package) share is in cmd/cmdutil: the Factory, exit codes (Exec), flag
// bounds, profiling and collector tuning.
//
// Each command is made by newXCmd(f *Factory, runF) with an XOptions struct
// that holds its flags, its streams and lazy openers of the store; runX
// does the work. A command meets one store type, *store.Store (OpenStore,
// or Web's Store), and reaches the graph through its Graph method. Tests pass runF to capture parsed options, call runX
// against the sample store, or run the test binary itself as leaper (see
// TestMain). Main maps errors to the exit codes in one place. One command
// per file, named after it; root.go assembles the tree.
//
// # Concurrency
//
// Commands run one at a time in a process; the store is opened lazily, once
// (only its graph for commands that do not search), and closed by Main.
//
// # Caveats
//
// Data goes to stdout and messages to stderr; --help never opens the store.
package cmd
