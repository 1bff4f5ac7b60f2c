// Package load is leaper-bench serve's load tester: it starts leaper's
// HTTP server in-process on 127.0.0.1 (or targets a URL), draws a
// deterministic workload of about 70% search and 30% visit from tasks or
// from the store's trees, and measures requests/s and p50/p99 latency for
// each client count, with SQLite FTS5 over the same pages (fts5.go), Lucene
// 8 over HTTP (package bench/lucene) and the drop-in shapes (Serper, Jina,
// MCP; dropin.go) as peers in the same run.
//
// Each HTTP client keeps one connection and speaks HTTP/1.1 on it directly,
// as wrk does (rawClient); every client opens before a run's clock starts,
// so no run times a dial or an MCP initialize.
//
// # Concurrency
//
// [Run] runs one load test at a time per call; concurrent calls measure
// each other and are not useful, but are safe.
//
// # Caveats
//
// Load tests target 127.0.0.1 unless [Options.URL] says otherwise. The
// in-process server shares the process's cores with the load generator;
// the caller tunes the collector (leaper-bench serve does, as leaper serve
// does). The FTS5 peer is pure-Go SQLite (modernc.org/sqlite), linked only
// into leaper-bench.
package load
