package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/bench/load"
	"github.com/leaper-dev/leaper/bench/lucene"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/ingest/storetest"
)

func TestBenchServeFlags(t *testing.T) {
	var got *BenchServeOptions
	capture := func(_ context.Context, o *BenchServeOptions) error { got = o; return nil }
	f := cmdutil.NewFactory()
	f.IO = IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
	c := newBenchServeCmd(f, capture)
	c.SetArgs([]string{"--clients", "1, 4,16", "--requests", "50", "--fts5", "--soak", "2s"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if len(got.Clients) != 3 || got.Clients[2] != 16 || got.Requests != 50 || !got.FTS5 || got.Soak != 2*time.Second || got.Cache != 0 {
		t.Errorf("options: %+v", got)
	}
	for _, args := range [][]string{{"--clients", "0"}, {"--clients", "x"}, {"--clients", "5000"}, {"--requests", "0"}, {"--soak", "48h"}} {
		c := newBenchServeCmd(f, capture)
		c.SetArgs(args)
		c.SilenceErrors, c.SilenceUsage = true, true
		if err := c.Execute(); err == nil {
			t.Errorf("bench serve %v accepted", args)
		}
	}
}

// runBench runs leaper-bench with args and returns its output.
func runBench(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := cmdutil.NewFactory()
	f.IO = IO{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	defer f.Close()
	root := newRootCmd(f)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), err
}

// TestBenchServeSample runs a small bench over the sample store with the
// FTS5 peer, the Lucene peer (when java is installed) and a short soak:
// every request succeeds, against 127.0.0.1.
func TestBenchServeSample(t *testing.T) {
	if testing.Short() {
		t.Skip("load run")
	}
	store := storetest.SampleStore(t)
	out, err := runBench(t, "serve", "--store", store, "--clients", "1,4", "--requests", "60",
		"--fts5", "--fts5-db", filepath.Join(t.TempDir(), "fts.db"), "--cache", "16", "--soak", "1s",
		"--lucene", "--lucene-index", filepath.Join(t.TempDir(), "lucene"), "--json")
	if err != nil {
		t.Fatal(err)
	}
	var runs []load.BenchRun
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	targets := map[string]int{}
	for _, r := range runs {
		targets[r.Target]++
		if r.Errors != 0 || r.Requests == 0 || r.RPS <= 0 {
			t.Errorf("run %+v", r)
		}
		if r.Target == "leaper-search" && r.Ratio <= 0 {
			t.Errorf("no FTS5 ratio: %+v", r)
		}
		if r.Target == "soak" && (r.RSSStart <= 0 || r.RSSEnd <= 0) {
			t.Errorf("soak RSS: %+v", r)
		}
	}
	if targets["leaper-mix"] != 2 || targets["leaper-search"] != 2 || targets["fts5-search"] != 2 || targets["soak"] != 1 {
		t.Errorf("runs: %v", targets)
	}
	// The Lucene peer runs when java and the jars are installed.
	if lucene.Check(nil) == nil {
		for _, r := range runs {
			if r.Target == "leaper-search" && r.RatioLucene <= 0 {
				t.Errorf("no Lucene ratio: %+v", r)
			}
		}
		if targets["lucene-search"] != 2 {
			t.Errorf("runs: %v", targets)
		}
	}
}

// TestBenchServeDropin drives the drop-in shapes (Serper, Jina, MCP over
// streamable HTTP) with the same requests as search and visit: every
// request succeeds and each shape has its p99 ratio to its native peer.
func TestBenchServeDropin(t *testing.T) {
	if testing.Short() {
		t.Skip("load run")
	}
	store := storetest.SampleStore(t)
	out, err := runBench(t, "serve", "--store", store, "--clients", "4", "--requests", "60", "--dropin", "--rounds", "2", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var runs []load.BenchRun
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := map[string]string{"serper": "dropin-search", "jina": "dropin-visit", "mcp-search": "dropin-search", "mcp-visit": "dropin-visit", "dropin-search": "", "dropin-visit": ""}
	for _, r := range runs {
		if r.Errors != 0 || r.Requests == 0 {
			t.Errorf("run %+v", r)
		}
		if v, ok := want[r.Target]; ok {
			if r.Rounds != 2 || r.Requests != 120 {
				t.Errorf("%s: %d rounds, %d requests", r.Target, r.Rounds, r.Requests)
			}
			if r.Versus != v || v != "" && r.P99Ratio <= 0 {
				t.Errorf("%s versus %q ratio %v", r.Target, r.Versus, r.P99Ratio)
			}
			delete(want, r.Target)
		}
	}
	if len(want) > 0 {
		t.Errorf("no runs of %v", want)
	}
}
