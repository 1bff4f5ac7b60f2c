package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/ingest/storetest"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/web"
	"github.com/leaper-dev/leaper/web/serve"
	"github.com/leaper-dev/leaper/web/webtest"
)

// runLeaper runs the command tree in-process and returns stdout.
func runLeaper(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := cmdutil.NewFactoryIO(IO{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	defer f.Close()
	root := NewRootCmd(f)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), err
}

func TestServeFlags(t *testing.T) {
	var got *ServeOptions
	capture := func(_ context.Context, o *ServeOptions) error { got = o; return nil }
	f := cmdutil.NewFactoryIO(IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	c := newServeCmd(f, capture)
	c.SetArgs([]string{"--workers", "4", "--cache", "100", "--addr", "127.0.0.1:0", "--tasks", "t.jsonl"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Workers != 4 || got.Cache != 100 || got.Addr != "127.0.0.1:0" || got.Tasks != "t.jsonl" || got.Grace != 30*time.Second {
		t.Errorf("options: %+v", got)
	}
	if got.MaxBatch != 2560 || got.BatchTimeout != 90*time.Second {
		t.Errorf("batch defaults: %d %s; want Search-R1's 2560 and 90s", got.MaxBatch, got.BatchTimeout)
	}
	c = newServeCmd(f, capture)
	c.SetArgs([]string{"--max-batch", "10000", "--batch-timeout", "5m"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if so, _, err := serveOptions(got); err != nil || so.MaxBatch != 10000 || so.BatchTimeout != 5*time.Minute {
		t.Errorf("--max-batch 10000 --batch-timeout 5m: %v %+v", err, so)
	}
	for _, args := range [][]string{{"--workers", "-1"}, {"--addr", "nohost"}, {"extra"}, {"--max-batch", "0"}, {"--batch-timeout", "0s"}} {
		c := newServeCmd(f, capture)
		c.SetArgs(args)
		c.SilenceErrors, c.SilenceUsage = true, true
		if err := c.Execute(); err == nil {
			t.Errorf("serve %v accepted", args)
		}
	}
}

func TestServeNeedsTokenOffLoopback(t *testing.T) {
	dir := t.TempDir()
	o := &ServeOptions{IO: IO{ErrOut: &bytes.Buffer{}}, Addr: "0.0.0.0:0"}
	if _, _, err := serveOptions(o); !cmdutil.IsUsage(err) || !errors.Is(err, serve.ErrNoToken) {
		t.Errorf("0.0.0.0 without token: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte(" \n"), 0o600)
	o.TokenFile = empty
	if _, _, err := serveOptions(o); err == nil {
		t.Errorf("empty token accepted")
	}
	tok := filepath.Join(dir, "tok")
	os.WriteFile(tok, []byte("abc\n"), 0o600)
	o.TokenFile = tok
	so, _, err := serveOptions(o)
	if err != nil || so.Token != "abc" {
		t.Errorf("token file: %v %+v", err, so)
	}
	o.TokenFile = filepath.Join(dir, "missing")
	if _, _, err := serveOptions(o); err == nil {
		t.Errorf("missing token file accepted")
	}
}

func TestServeRefusesNegativeOptions(t *testing.T) {
	for _, o := range []*ServeOptions{
		{Addr: "127.0.0.1:0", Workers: -1},
		{Addr: "127.0.0.1:0", Cache: -5},
		{Addr: "127.0.0.1:0", Grace: -time.Second},
	} {
		o.IO = IO{ErrOut: &bytes.Buffer{}}
		if _, _, err := serveOptions(o); !cmdutil.IsUsage(err) || !errors.Is(err, serve.ErrBadOptions) {
			t.Errorf("%+v: got %v, want a usage error wrapping ErrBadOptions", o, err)
		}
	}
	if err := (&serve.Options{}).Validate(); err != nil {
		t.Errorf("zero options: %v", err)
	}
	if err := (*serve.Options)(nil).Validate(); err != nil {
		t.Errorf("nil options: %v", err)
	}
}

// TestServeMatchesCLI checks that the server answers exactly as leaper
// search and leaper visit print with --json, for the same arguments.
func TestServeMatchesCLI(t *testing.T) {
	store := storetest.SampleStore(t)
	w := webtest.OpenWeb(t)
	var url, title, goal string
	w.Store().Graph().EachTree(context.Background(), func(tr *graph.Tree) error {
		if url == "" {
			url, title, goal = tr.PageURL, tr.PageTitle, tr.KeyHeader+" "+tr.Columns[0].Header
		}
		return nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	f := cmdutil.NewFactoryIO(IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	f.Store = store
	defer f.Close()
	go func() {
		done <- runServe(ctx, &ServeOptions{IO: f.IO, Web: f.Web, Store: store, Addr: "127.0.0.1:0", Grace: 5 * time.Second,
			Ready: func(a string) { ready <- a }})
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	c := serve.NewClient("http://"+addr, "")

	cases := []struct {
		cli  []string
		tool string
		args any
	}{
		{[]string{"search", "--json", title}, "search", map[string]any{"query": title}},
		{[]string{"search", "--json", title, "zzqx nothing"}, "search", map[string]any{"query": []string{title, "zzqx nothing"}}},
		{[]string{"search", "--json", "--filter-year", "2000", title}, "search", map[string]any{"query": title, "filter_year": 2000}},
		{[]string{"visit", "--json", "--goal", goal, url}, "visit", map[string]any{"url": url, "goal": goal}},
		{[]string{"visit", "--json", "--goal", goal, url, "https://en.wikipedia.org/wiki/Zzqx_missing"}, "visit",
			map[string]any{"url": []string{url, "https://en.wikipedia.org/wiki/Zzqx_missing"}, "goal": goal}},
	}
	for _, tc := range cases {
		out, err := runLeaper(t, append(tc.cli, "--store", store)...)
		if err != nil {
			t.Fatalf("leaper %v: %v", tc.cli, err)
		}
		var want web.Observation
		if err := json.Unmarshal([]byte(out), &want); err != nil {
			t.Fatal(err)
		}
		args, _ := json.Marshal(tc.args)
		got, err := c.Call(context.Background(), tc.tool, args)
		if err != nil {
			t.Fatal(err)
		}
		if got.Text != want.Text || !equalIDs(got.Entities, want.Entities) || strings.Join(got.URLs, " ") != strings.Join(want.URLs, " ") {
			t.Errorf("leaper %v:\n server %q\n    cli %q", tc.cli, got.Text, want.Text)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("runServe after cancel: %v", err)
	}
}

func equalIDs(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
