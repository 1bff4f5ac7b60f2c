// Package cmdutil is what leaper's command lines share (after cli/cli's
// pkg/cmdutil): the Factory of streams and lazy store openers, the
// persistent flags and profiling (Setup), flag bounds, exit codes and the
// errors that choose them (Exec), the collector tuning of builds and
// servers, a bytes flag and JSON output. Both leaper (package cmd) and
// leaper-bench build on it; neither imports the other.
//
// # Concurrency
//
// A Factory serves one command at a time: its openers are not safe for
// concurrent use.
//
// # Caveats
//
// CollectNear changes process-wide collector settings (debug.SetGCPercent,
// debug.SetMemoryLimit) until its undo runs; only a command, never a
// library, should call it.
package cmdutil
