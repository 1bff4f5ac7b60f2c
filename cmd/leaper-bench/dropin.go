package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/leaper-dev/leaper/agent/mcpserve"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The drop-in endpoints under load (--dropin): the same queries and pages
// as search and visit, through the shapes other stacks call: Serper's
// POST /serper/search, Jina Reader's GET /jina/<url>, and the MCP tools
// search and visit over streamable HTTP at /mcp, each client holding one
// session of the official SDK's client, as an MCP host does.

// dropinWorkloads derives, from the mix, the visits alone and the same
// requests in the drop-in shapes.
func dropinWorkloads(mix []benchReq) (visits, serper, jina, mcpSearch, mcpVisit []benchReq) {
	for _, r := range mix {
		switch r.Endpoint {
		case "search":
			b, _ := json.Marshal(map[string]any{"q": r.Query})
			serper = append(serper, benchReq{Endpoint: "serper/search", Body: b, Query: r.Query})
			mcpSearch = append(mcpSearch, benchReq{Endpoint: "mcp", Tool: mcpserve.ToolSearch, Body: r.Body})
		case "visit":
			visits = append(visits, r)
			var a struct{ URL string }
			json.Unmarshal(r.Body, &a)
			jina = append(jina, benchReq{Endpoint: "jina/" + escapeRequestPath(a.URL), Method: http.MethodGet})
			mcpVisit = append(mcpVisit, benchReq{Endpoint: "mcp", Tool: mcpserve.ToolVisit, Body: r.Body})
		}
	}
	return
}

// escapeRequestPath percent-encodes what may not stand in a request line
// (controls, spaces, non-ASCII, '#', '?'); the server's URL reading decodes
// it again.
func escapeRequestPath(u string) string {
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"#<>?\\^`{|}", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// mcpDoer returns MCP clients: each connects one session of the SDK's
// client to base/mcp on its first call and closes it when released.
func mcpDoer(base, token string) func() (doer, func()) {
	return func() (doer, func()) {
		var cs *mcp.ClientSession
		hc := &http.Client{Transport: &bearerTransport{token: token, rt: &http.Transport{MaxIdleConnsPerHost: 4, DisableCompression: true}}}
		do := func(ctx context.Context, r benchReq) error {
			if cs == nil {
				c := mcp.NewClient(&mcp.Implementation{Name: "leaper-bench", Version: "1"}, nil)
				var err error
				cs, err = c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
				if err != nil {
					return fmt.Errorf("mcp: connect: %w", err)
				}
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: r.Tool, Arguments: json.RawMessage(r.Body)})
			if err != nil {
				return fmt.Errorf("mcp %s: %w", r.Tool, err)
			}
			if res.IsError || len(res.Content) == 0 {
				return fmt.Errorf("mcp %s: tool error", r.Tool)
			}
			return nil
		}
		return do, func() {
			if cs != nil {
				cs.Close()
			}
			hc.CloseIdleConnections()
		}
	}
}

type bearerTransport struct {
	token string
	rt    http.RoundTripper
}

func (b *bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.token != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.rt.RoundTrip(r)
}

// dropinRuns measures, at c clients, visit alone and the drop-in shapes,
// and sets each drop-in run's p99 ratio to its native peer (search's p99
// for Serper and MCP search, visit's for Jina and MCP visit).
func dropinRuns(ctx context.Context, c, n int, search BenchRun, w dropinLoad, post, mcpc func() (doer, func()), timeout time.Duration) ([]BenchRun, error) {
	var first error
	run := func(target string, reqs []benchReq, d func() (doer, func()), peer *BenchRun) BenchRun {
		r, err := loadRun(ctx, target, c, n, reqs, d, timeout)
		first = cmpOr(first, err)
		if peer != nil && peer.P99ms > 0 {
			r.Versus, r.P99Ratio = peer.Target, r.P99ms/peer.P99ms
		}
		return r
	}
	visit := run("leaper-visit", w.visits, post, nil)
	out := []BenchRun{
		visit,
		run("serper", w.serper, post, &search),
		run("jina", w.jina, post, &visit),
		run("mcp-search", w.mcpSearch, mcpc, &search),
		run("mcp-visit", w.mcpVisit, mcpc, &visit),
	}
	return out, first
}

// dropinLoad holds the drop-in workloads.
type dropinLoad struct {
	visits, serper, jina, mcpSearch, mcpVisit []benchReq
}

func printDropin(w io.Writer, runs []BenchRun) {
	var lines []string
	for _, r := range runs {
		if r.Versus != "" {
			lines = append(lines, fmt.Sprintf("%s/%s %.2fx at %d clients", r.Target, r.Versus, r.P99Ratio, r.Clients))
		}
	}
	if len(lines) > 0 {
		fmt.Fprintf(w, "p99 ratios (drop-in shape / native endpoint, same requests): %s\n", strings.Join(lines, "; "))
	}
}
