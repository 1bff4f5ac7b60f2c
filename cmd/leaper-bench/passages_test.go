package main

import (
	"bytes"
	"context"
	"github.com/leaper-dev/leaper/bench/load"
	"strings"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/ingest/storetest"
)

func TestBenchPassagesFlags(t *testing.T) {
	f := &Factory{IO: IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	var got *BenchPassagesOptions
	capture := func(_ context.Context, o *BenchPassagesOptions) error { got = o; return nil }
	c := newBenchPassagesCmd(f, capture)
	c.SetArgs([]string{"--passages", "1000,2000", "--batches", "1,512", "--clients", "8", "."})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if len(got.Passages) != 2 || got.Passages[1] != 2000 || len(got.Batches) != 2 || got.Batches[1] != 512 || got.Clients != 8 {
		t.Errorf("options %+v", got)
	}
	for _, args := range [][]string{{"--passages", "0", "."}, {"--batches", "3000", "."}, {"--clients", "0", "."}, {"nowhere-at-all"},
		{"--reuse", "."}, {"--url", "http://127.0.0.1:1", "--passages", "1,2", "."}, {"--url", "http://127.0.0.1:1", "--lucene", "."}} {
		c := newBenchPassagesCmd(f, capture)
		c.SetArgs(args)
		c.SilenceErrors, c.SilenceUsage = true, true
		if err := c.Execute(); err == nil {
			t.Errorf("passages %v accepted", args)
		}
	}
}

// TestPassageLoad runs the /retrieve load on the sample store: every call
// answered, q/s counted in queries.
func TestPassageLoad(t *testing.T) {
	var errOut bytes.Buffer
	o := load.PassageOptions{Log: &errOut, Clients: 4, Batches: []int{1, 8}, Timeout: time.Minute}
	qs := strings.Split("Nobel laureates|Booker Prize winners|medal table|Olympic Games|University of Pennsylvania|athletics|Congress|election", "|")
	runs, rss, err := load.Passages(context.Background(), o, storetest.SampleStore(t), append(qs, qs...))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Requests != 16 || runs[1].Requests != 2 || runs[0].Errors+runs[1].Errors != 0 || rss <= 0 {
		t.Fatalf("runs %+v rss %d", runs, rss)
	}
	if runs[1].QPS <= 0 || runs[1].Batch != 8 {
		t.Errorf("batch run %+v", runs[1])
	}
}
