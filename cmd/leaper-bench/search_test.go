package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/leaper-dev/leaper/bench/lucene"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/ingest/storetest"
)

func TestBenchSearchFlags(t *testing.T) {
	var got *BenchSearchOptions
	capture := func(_ context.Context, o *BenchSearchOptions) error { got = o; return nil }
	f := cmdutil.NewFactory()
	f.IO = IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
	c := newBenchSearchCmd(f, capture)
	c.SetArgs([]string{"--threads", "1, 2", "--queries", "50", "--lucene", "--rounds", "2"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if len(got.Threads) != 2 || got.Threads[1] != 2 || got.Queries != 50 || !got.Lucene || got.Rounds != 2 {
		t.Errorf("options: %+v", got)
	}
	for _, args := range [][]string{{"--threads", "0"}, {"--threads", "x"}, {"--queries", "0"}, {"--rounds", "0"}} {
		c := newBenchSearchCmd(f, capture)
		c.SetArgs(args)
		c.SilenceErrors, c.SilenceUsage = true, true
		if err := c.Execute(); err == nil {
			t.Errorf("bench search %v accepted", args)
		}
	}
}

// TestBenchSearchSample runs leaper-bench search over the sample store, with the
// Lucene peer when java and the jars are installed.
func TestBenchSearchSample(t *testing.T) {
	if testing.Short() {
		t.Skip("load run")
	}
	store := storetest.SampleStore(t)
	out, err := runBench(t, "search", "--store", store, "--queries", "40", "--rounds", "1",
		"--threads", "1,2", "--lucene", "--lucene-index", filepath.Join(t.TempDir(), "lucene"), "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep lucene.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	peer := lucene.Check(nil) == nil
	want := 2
	if peer {
		want = 6
	}
	if rep.Queries != 40 || len(rep.Rows) != want {
		t.Fatalf("report: %+v", rep)
	}
	for _, r := range rep.Rows {
		if r.Queries != 40 || r.QPS <= 0 {
			t.Errorf("row %+v", r)
		}
	}
	if peer && (rep.Compared == 0 || rep.Overlap <= 0 || rep.Rows[0].Ratio <= 0) {
		t.Errorf("no comparison: %+v", rep)
	}
}

func TestBenchBuildFlags(t *testing.T) {
	var got *BenchBuildOptions
	capture := func(_ context.Context, o *BenchBuildOptions) error { got = o; return nil }
	f := cmdutil.NewFactory()
	f.IO = IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
	dir := t.TempDir()
	c := newBenchBuildCmd(f, capture)
	c.SetArgs([]string{"--tables", "100000, 500000", "--leaper", "/bin/true", "--nice", "5", "--json", dir})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if len(got.Tables) != 2 || got.Tables[1] != 500000 || got.Nice != 5 || !got.JSON || got.Inputs[0] != dir {
		t.Errorf("options: %+v", got)
	}
	for _, args := range [][]string{{"--tables", "0", dir}, {"--tables", "x", dir}, {"--nice", "30", dir}, {filepath.Join(dir, "missing")}, {}} {
		c := newBenchBuildCmd(f, capture)
		c.SetArgs(args)
		c.SilenceErrors, c.SilenceUsage = true, true
		if err := c.Execute(); err == nil {
			t.Errorf("bench build %v accepted", args)
		}
	}
}
