package cmd

import (
	"bytes"
	"context"
	"errors"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"strings"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/web"
	"github.com/leaper-dev/leaper/web/serve"
	"github.com/leaper-dev/leaper/web/webtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMCPFlags(t *testing.T) {
	var got *MCPOptions
	capture := func(_ context.Context, o *MCPOptions) error { got = o; return nil }
	f := cmdutil.NewFactoryIO(IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	c := newMCPCmd(f, capture)
	c.SetArgs([]string{"--transport", "http", "--addr", "127.0.0.1:0", "--workers", "3"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Transport != "http" || got.Addr != "127.0.0.1:0" || got.Workers != 3 {
		t.Errorf("options: %+v", got)
	}
	for _, args := range [][]string{{"--transport", "sse"}, {"--workers", "-1"}, {"--addr", "nohost"}, {"extra"}} {
		c := newMCPCmd(f, capture)
		c.SetArgs(args)
		c.SilenceErrors, c.SilenceUsage = true, true
		if err := c.Execute(); err == nil {
			t.Errorf("mcp %v accepted", args)
		}
	}
}

// mcpSearch lists the tools and runs a search through the SDK client; the
// text must be what leaper search prints.
func mcpSearch(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx := context.Background()
	w := webtest.OpenWeb(t)
	var q string
	w.Store().Graph().EachTree(ctx, func(tr *graph.Tree) error {
		if q == "" {
			q = tr.PageTitle
		}
		return nil
	})
	lt, err := cs.ListTools(ctx, nil)
	if err != nil || len(lt.Tools) != 4 {
		t.Fatalf("tools: %v %v", lt, err)
	}
	out, err := runLeaper(t, "--store", storetest.SampleStore(t), "search", q)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": q}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got+"\n" != out {
		t.Errorf("mcp search differs from leaper search:\n got %.300q\nwant %.300q", got, out)
	}
}

// TestMCPStdioBinary starts leaper mcp (this test binary as leaper) as the
// client's subprocess, as an MCP host does.
func TestMCPStdioBinary(t *testing.T) {
	store := storetest.SampleStore(t)
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: leaper(t, "mcp", "--store", store)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	mcpSearch(t, cs)
}

// TestMCPHTTP runs leaper mcp --transport http and connects over
// streamable HTTP on loopback.
func TestMCPHTTP(t *testing.T) {
	store := storetest.SampleStore(t)
	f := cmdutil.NewFactoryIO(IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	f.Store = store
	defer f.Close()
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan string, 1), make(chan error, 1)
	go func() {
		done <- runMCP(ctx, &MCPOptions{IO: f.IO, Web: f.Web, Store: store, Transport: "http", Addr: "127.0.0.1:0",
			Ready: func(a string) { ready <- a }})
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mcpSearch(t, cs)
	cs.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("runMCP after cancel: %v", err)
	}
	if !strings.Contains(f.IO.ErrOut.(*bytes.Buffer).String(), "/mcp") {
		t.Errorf("no endpoint in the log: %s", f.IO.ErrOut)
	}
}

// TestMCPHTTPNeedsTokenOffLoopback: leaper mcp --transport http keeps
// leaper serve's rule; stdio has no address to guard.
func TestMCPHTTPNeedsTokenOffLoopback(t *testing.T) {
	o := &MCPOptions{IO: IO{ErrOut: &bytes.Buffer{}}, Transport: "http", Addr: "0.0.0.0:0",
		Web: func() (*web.Web, error) { t.Fatal("opened the store"); return nil, nil }}
	if err := runMCP(context.Background(), o); !cmdutil.IsUsage(err) || !errors.Is(err, serve.ErrNoToken) {
		t.Errorf("0.0.0.0 without token: %v", err)
	}
}
