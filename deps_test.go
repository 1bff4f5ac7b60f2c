package leaper_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// rooms are leaper's packages by floor, from the top: each package (with
// its sub-packages, test helpers included) may import only the rooms listed
// for it, and its own.
//
//	cmd → report → agent/{eval} → agent → {web, task}
//	cmd → web/{serve, mcpserve} (the HTTP and MCP servers, beside the web
//	they serve) → web; cmd → agent/{eval, export} → agent → {web, task};
//	/reward and /get_reward are agent/eval's (agent/eval/rewardhttp),
//	mounted on web/serve's server by cmd, neither importing the other
//	cmd and cmd/leaper-bench → cmd/cmdutil (the factory, exit codes,
//	shared flags) → {web, ingest, store}; leaper-bench never imports cmd
//	ingest (the build pipeline: readers ingest/table, cleaning, then the graph's
//	writer and the index) → store → {graph, index}; web → store
//	synth → {query, mining} → graph; query → task → graph
//	graph and index side by side on the ground floor, neither importing
//	the other; internal/ (shared helpers) below everything; bench/ (the
//	benchmarks' peers, used by cmd/leaper-bench) imports nothing of leaper
//	but bench/load, the load tester, which starts leaper's servers.
var rooms = map[string][]string{
	"cmd":              {"*"},
	"report":           {"agent", "agent/eval", "audit", "web", "store", "task", "graph", "index", "internal"},
	"cmd/cmdutil":      {"web", "ingest", "store", "graph", "index", "internal"},
	"cmd/leaper-bench": {"cmd/cmdutil", "bench", "bench/load", "web/serve", "web/mcpserve", "agent", "web", "store", "task", "graph", "index", "internal"},
	"web/serve":        {"web", "store", "graph", "index", "internal"},
	"agent/eval":       {"agent", "web", "task", "graph", "internal"},
	"agent/export":     {"agent", "web", "task", "graph", "internal"},
	"web/mcpserve":     {"web", "graph", "internal"},
	"agent":            {"web", "task", "graph", "internal"},
	"web":              {"store", "graph", "index", "internal"},
	"ingest":           {"store", "graph", "index", "internal"},
	"store":            {"graph", "index", "internal"},
	// The web's test helper opens the sample store, which ingest/storetest
	// builds.
	"web/webtest": {"ingest", "web", "store", "graph", "index", "internal"},
	"synth":       {"query", "task", "audit", "mining", "graph", "internal"},
	"query":       {"task", "graph", "internal"},
	"task":        {"graph", "internal"},
	"audit":       {"task", "graph", "internal"},
	"mining":      {"graph", "internal"},
	"graph":       {"internal"},
	"index":       {"internal"},
	"internal":    {},
	"bench":       {},
	"bench/load":  {"bench", "web/serve", "web/mcpserve", "web", "task", "graph", "internal"},
}

// room is the room a package belongs to: the longest room its path starts
// with, or "" for the module's root.
func room(p string) string {
	best := ""
	for r := range rooms {
		if (p == r || strings.HasPrefix(p, r+"/")) && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// TestPackageDirections keeps the import graph above true for every
// package and sub-package; a new top-level package must be given a room.
func TestPackageDirections(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}:{{join .Imports " "}}`, "./...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	const mod = "github.com/leaper-dev/leaper"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imps, _ := strings.Cut(line, ":")
		if pkg == mod {
			continue
		}
		pkg = strings.TrimPrefix(pkg, mod+"/")
		from := room(pkg)
		if from == "" {
			t.Errorf("package %s has no room in deps_test.go", pkg)
			continue
		}
		for _, imp := range strings.Fields(imps) {
			if !strings.HasPrefix(imp, mod+"/") {
				continue
			}
			imp = strings.TrimPrefix(imp, mod+"/")
			to := room(imp)
			if to == from || slices.Contains(rooms[from], "*") || slices.Contains(rooms[from], to) {
				continue
			}
			t.Errorf("%s imports %s: %s may import only %v", pkg, imp, from, rooms[from])
		}
	}
}

// TestRoomsCheckSubPackages makes sure the test above cannot pass by the
// letter: a sub-package is held to its room's rules.
func TestRoomsCheckSubPackages(t *testing.T) {
	for p, want := range map[string]string{
		"graph/ingest": "graph", "ingest/table": "ingest", "ingest/storetest": "ingest", "index/internal/benchcorpus": "index",
		"web/serve": "web/serve", "web/mcpserve": "web/mcpserve", "agent/loop": "agent", "web/webtest": "web/webtest",
		"cmd/leaper": "cmd", "cmd/leaper-bench": "cmd/leaper-bench", "bench/load": "bench/load",
		"agent/eval/rewardhttp": "agent/eval",
	} {
		if got := room(p); got != want {
			t.Errorf("room(%s) = %q, want %q", p, got, want)
		}
	}
	if slices.Contains(rooms["graph"], "index") || slices.Contains(rooms["index"], "graph") {
		t.Error("graph and index must not import each other")
	}
	// leaper-bench shares leaper's factory through cmd/cmdutil, never
	// leaper's commands: each binary stays a thin layer of its own.
	if slices.Contains(rooms["cmd/leaper-bench"], "cmd") || slices.Contains(rooms["cmd/leaper-bench"], "*") {
		t.Error("cmd/leaper-bench must not import cmd")
	}
}

// TestLeaperLinksNoSQLite keeps the load tester's SQLite peer, and the
// Lucene peer's harness, out of the product binary: they belong to
// cmd/leaper-bench.
func TestLeaperLinksNoSQLite(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./cmd/leaper").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "modernc.org/") || strings.HasPrefix(p, "github.com/leaper-dev/leaper/bench/") {
			t.Errorf("leaper links %s (the benchmarks' peers belong in cmd/leaper-bench)", p)
		}
	}
}
