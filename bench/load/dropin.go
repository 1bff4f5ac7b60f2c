package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/leaper-dev/leaper/web/mcpserve"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The drop-in endpoints under load (--dropin): the same queries and pages
// as search and visit, through the shapes other stacks call: Serper's
// POST /serper/search, Jina Reader's GET /jina/<url>, and the MCP tools
// search and visit over streamable HTTP at /mcp, each client holding one
// session.

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

// mcpDoer returns MCP clients for base/mcp. An http:// server gets the
// same keep-alive HTTP/1.1 client as the native endpoints, speaking MCP's
// streamable HTTP on it (initialize and notifications/initialized when
// the client opens, then tools/call with the session id, JSON answers,
// and DELETE of the session when it is released), so that the ratio to
// /search and /visit is the server's and not the load generator's; other
// URLs get the official SDK's client. Every answer must be a result that
// is not a tool error.
func mcpDoer(base, token string) newClient {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" {
		return mcpSDKDoer(base, token)
	}
	prefix := strings.TrimSuffix(u.Path, "/")
	return func() loadClient {
		c := &rawClient{addr: u.Host, prefix: prefix, token: token}
		var session string
		var id int64
		accept := "Accept: application/json, text/event-stream"
		send := func(ctx context.Context, method string, r benchReq) ([]byte, *http.Response, error) {
			hdr := []string{accept}
			if session != "" {
				hdr = append(hdr, "Mcp-Session-Id: "+session, "Mcp-Protocol-Version: "+mcpProtocol)
			}
			var out []byte
			resp, err := c.exchange(ctx, r, hdr, &out)
			if err != nil {
				return nil, nil, err
			}
			if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusAccepted {
				return nil, nil, fmt.Errorf("mcp %s: HTTP %d: %.200s", method, resp.StatusCode, out)
			}
			return out, resp, nil
		}
		rpc := func(ctx context.Context, method string, params any, notify bool) ([]byte, error) {
			m := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
			if !notify {
				id++
				m["id"] = id
			}
			body, _ := json.Marshal(m)
			out, resp, err := send(ctx, method, benchReq{Endpoint: "mcp", Body: body})
			if err != nil {
				return nil, err
			}
			if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
				session = sid
			}
			return out, nil
		}
		open := func(ctx context.Context) error {
			if session != "" {
				return nil
			}
			if _, err := rpc(ctx, "initialize", map[string]any{"protocolVersion": mcpProtocol, "capabilities": map[string]any{},
				"clientInfo": map[string]any{"name": "leaper-bench", "version": "1"}}, false); err != nil {
				return err
			}
			if session == "" {
				return errors.New("mcp: no Mcp-Session-Id from initialize")
			}
			_, err := rpc(ctx, "notifications/initialized", map[string]any{}, true)
			return err
		}
		do := func(ctx context.Context, r benchReq) error {
			if err := open(ctx); err != nil {
				return err
			}
			out, err := rpc(ctx, "tools/call", map[string]any{"name": r.Tool, "arguments": json.RawMessage(r.Body)}, false)
			if err != nil {
				return err
			}
			// As cheap a check as the native endpoints' status code: a
			// JSON-RPC result that is not a tool error (an unescaped
			// "isError":true cannot occur inside the text content).
			head := out[:min(len(out), 64)]
			if !bytes.Contains(head, []byte(`"result":`)) || bytes.Contains(out, []byte(`"isError":true`)) {
				return fmt.Errorf("mcp %s: not a result: %.200s", r.Tool, out)
			}
			return nil
		}
		release := func() {
			// End the session as the SDK's client does when it closes,
			// so that runs do not leave idle sessions on the server.
			if session != "" {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				send(ctx, "DELETE", benchReq{Endpoint: "mcp", Method: http.MethodDelete})
				cancel()
			}
			c.close()
		}
		return loadClient{open: open, do: do, release: release}
	}
}

// mcpProtocol is the MCP protocol version the raw client speaks.
const mcpProtocol = "2025-06-18"

// mcpSDKDoer returns clients of the official SDK: each connects one
// session when it opens and closes it when released.
func mcpSDKDoer(base, token string) newClient {
	return func() loadClient {
		var cs *mcp.ClientSession
		hc := &http.Client{Transport: &bearerTransport{token: token, rt: &http.Transport{MaxIdleConnsPerHost: 4, DisableCompression: true}}}
		open := func(ctx context.Context) error {
			if cs != nil {
				return nil
			}
			c := mcp.NewClient(&mcp.Implementation{Name: "leaper-bench", Version: "1"}, nil)
			var err error
			cs, err = c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
			if err != nil {
				return fmt.Errorf("mcp: connect: %w", err)
			}
			return nil
		}
		do := func(ctx context.Context, r benchReq) error {
			if err := open(ctx); err != nil {
				return err
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
		return loadClient{open: open, do: do, release: func() {
			if cs != nil {
				cs.Close()
			}
			hc.CloseIdleConnections()
		}}
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

// dropinRuns measures, at c clients, search and visit and the drop-in
// shapes of the same requests, in rounds (the machine is shared: load from
// elsewhere comes and goes). In each round every drop-in shape runs right
// after its native endpoint (search, Serper, MCP search, visit, Jina, MCP
// visit), n requests each, and its p99 ratio to the native p99 of that
// round is taken; a target's figures are the medians over the rounds, its
// ratio the median of its per-round ratios.
func dropinRuns(ctx context.Context, c, n, rounds int, w dropinLoad, post, mcpc newClient, timeout time.Duration) ([]BenchRun, error) {
	type target struct {
		name   string
		reqs   []benchReq
		d      newClient
		versus string
	}
	targets := []target{
		{"dropin-search", w.searches, post, ""},
		{"serper", w.serper, post, "dropin-search"},
		{"mcp-search", w.mcpSearch, mcpc, "dropin-search"},
		{"dropin-visit", w.visits, post, ""},
		{"jina", w.jina, post, "dropin-visit"},
		{"mcp-visit", w.mcpVisit, mcpc, "dropin-visit"},
	}
	var first error
	byName := map[string][]BenchRun{}
	ratios := map[string][]float64{}
	for round := 0; round < rounds; round++ {
		this := map[string]BenchRun{}
		for _, t := range targets {
			r, err := loadRun(ctx, t.name, c, n, t.reqs, t.d, timeout)
			first = cmpOr(first, err)
			byName[t.name] = append(byName[t.name], r)
			this[t.name] = r
			if t.versus != "" && this[t.versus].P99ms > 0 {
				ratios[t.name] = append(ratios[t.name], r.P99ms/this[t.versus].P99ms)
			}
		}
	}
	out := make([]BenchRun, 0, len(targets))
	for _, t := range targets {
		r := medianRun(byName[t.name])
		if len(ratios[t.name]) > 0 {
			r.Versus, r.P99Ratio = t.versus, median(ratios[t.name])
		}
		out = append(out, r)
	}
	return out, first
}

// medianRun sums requests and errors of a target's rounds and takes the
// median of its rates, latencies and open times.
func medianRun(rs []BenchRun) BenchRun {
	out := rs[0]
	out.Requests, out.Errors, out.Seconds = 0, 0, 0
	var rps, p50, p99, o50, omax []float64
	for _, r := range rs {
		out.Requests += r.Requests
		out.Errors += r.Errors
		out.Seconds += r.Seconds
		rps, p50, p99 = append(rps, r.RPS), append(p50, r.P50ms), append(p99, r.P99ms)
		o50, omax = append(o50, r.OpenP50ms), append(omax, r.OpenMaxms)
	}
	out.RPS, out.P50ms, out.P99ms = median(rps), median(p50), median(p99)
	out.OpenP50ms, out.OpenMaxms = median(o50), median(omax)
	out.Rounds = len(rs)
	return out
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// dropinLoad holds the drop-in workloads.
type dropinLoad struct {
	searches, visits, serper, jina, mcpSearch, mcpVisit []benchReq
}

func printDropin(w io.Writer, runs []BenchRun) {
	var lines []string
	for _, r := range runs {
		if r.Versus != "" {
			lines = append(lines, fmt.Sprintf("%s/%s %.2fx", r.Target, strings.TrimPrefix(r.Versus, "dropin-"), r.P99Ratio))
		}
	}
	if len(lines) > 0 {
		fmt.Fprintf(w, "p99 ratios (drop-in shape / native endpoint, same requests, median of per-round ratios): %s\n", strings.Join(lines, "; "))
	}
}
