//go:build unix

package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/internal/cputime"
	"github.com/leaper-dev/leaper/web"
	"github.com/leaper-dev/leaper/web/serve"
	"github.com/leaper-dev/leaper/web/webtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchWeb opens the store named by LEAPER_BENCH_STORE (read-only), or the
// sample store.
func benchWeb(b *testing.B) *web.Web {
	dir := os.Getenv("LEAPER_BENCH_STORE")
	if dir == "" {
		return webtest.OpenWeb(b)
	}
	w, err := web.Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close() })
	return w
}

// visitBodies returns up to n visit arguments, one per tree's page, in the
// store's order.
func visitBodies(b *testing.B, w *web.Web, n int) [][]byte {
	var out [][]byte
	errEnough := errors.New("enough")
	err := w.Store().Graph().EachTree(context.Background(), func(tr *graph.Tree) error {
		if len(tr.Columns) == 0 {
			return nil
		}
		body, err := json.Marshal(map[string]any{"url": tr.PageURL, "goal": tr.KeyHeader + " and " + tr.Columns[0].Header})
		if err != nil {
			return err
		}
		out = append(out, body)
		if len(out) >= n {
			return errEnough
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		b.Fatal(err)
	}
	if len(out) == 0 {
		b.Fatal("no tree in the store")
	}
	return out
}

// benchClient is one keep-alive client of the benchmark: POST /visit, or
// the MCP visit tool in its own session.
type benchClient struct {
	hc   *http.Client
	base string
	sid  string // MCP session; "" for /visit
	path string // the plain endpoint; "" for /visit
	id   int
}

func (c *benchClient) post(path, body string, mcpHeaders bool) (*http.Response, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, c.base+path, bytes.NewReader([]byte(body)))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if mcpHeaders {
		req.Header.Set("Accept", "application/json, text/event-stream")
		if c.sid != "" {
			req.Header.Set("Mcp-Session-Id", c.sid)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, nil, err
	}
	out, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, out, err
}

// connect opens the client's MCP session (initialize, then initialized).
func (c *benchClient) connect() error {
	resp, out, err := c.post("/mcp", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`, true)
	if err != nil {
		return err
	}
	if c.sid = resp.Header.Get("Mcp-Session-Id"); c.sid == "" {
		return fmt.Errorf("initialize: HTTP %d, no session: %.200s", resp.StatusCode, out)
	}
	_, _, err = c.post("/mcp", `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`, true)
	return err
}

// visit runs one visit with the arguments body.
func (c *benchClient) visit(body []byte) error {
	if c.sid == "" {
		path := c.path
		if path == "" {
			path = "/visit"
		}
		resp, out, err := c.post(path, string(body), false)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("%s: HTTP %d: %.200s", path, resp.StatusCode, out)
		}
		return err
	}
	c.id++
	resp, out, err := c.post("/mcp", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"visit","arguments":%s}}`, c.id, body), true)
	if err == nil && (resp.StatusCode != http.StatusOK || !bytes.Contains(out, []byte(`"result":`)) || bytes.Contains(out, []byte(`"isError":true`))) {
		err = fmt.Errorf("mcp visit: HTTP %d: %.200s", resp.StatusCode, out)
	}
	return err
}

// benchClients is the number of concurrent clients, as the drop-in target
// (64 clients) measures.
const benchClients = 64

// block runs n visits from the clients at once, each taking the next
// arguments, adds their latencies to lat and returns the process CPU time
// they took.
func block(b *testing.B, clients []*benchClient, bodies [][]byte, next *atomic.Int64, n int, lat *[]time.Duration) time.Duration {
	var left atomic.Int64
	left.Store(int64(n))
	var mu sync.Mutex
	var wg sync.WaitGroup
	var failed atomic.Value
	t0 := cputime.Process()
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for left.Add(-1) >= 0 {
				t := time.Now()
				if err := c.visit(bodies[int(next.Add(1))%len(bodies)]); err != nil {
					failed.CompareAndSwap(nil, err)
					return
				}
				d := time.Since(t)
				mu.Lock()
				*lat = append(*lat, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err, ok := failed.Load().(error); ok {
		b.Fatal(err)
	}
	return cputime.Process() - t0
}

func p99(lat []time.Duration) time.Duration {
	if len(lat) == 0 {
		return 0
	}
	slices.Sort(lat)
	return lat[(len(lat)-1)*99/100]
}

// BenchmarkVisitHTTP measures the MCP visit tool over streamable HTTP (one
// session per client, JSON answers) against POST /visit on the same
// arguments, from 64 keep-alive clients of one in-process server, in
// alternating blocks of 500 calls each. It reports the process CPU time a
// call costs each way (server and clients, GC included) and their ratio,
// mcp/visit-cpu, and the p99 latency each way over all blocks and its
// ratio, mcp/visit-p99 (the drop-in target's measure, but noisy on a
// shared machine; the CPU ratio is steadier, and on a saturated machine a
// closed loop of 64 clients waits in proportion to it). An op is one call
// each way. LEAPER_BENCH_STORE names a store to use instead of the sample
// store (/work/stores/full for the README's figures).
func BenchmarkVisitHTTP(b *testing.B) {
	w := benchWeb(b)
	bodies := visitBodies(b, w, 500)
	srv := serve.NewServer(w, nil)
	srv.Mount("/mcp", NewServer(w, nil).Handler())
	ts := httptest.NewServer(srv)
	b.Cleanup(ts.Close)
	var native, mcpc []*benchClient
	for range benchClients {
		tr := &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}
		b.Cleanup(tr.CloseIdleConnections)
		native = append(native, &benchClient{hc: &http.Client{Transport: tr}, base: ts.URL})
		tr = &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}
		b.Cleanup(tr.CloseIdleConnections)
		c := &benchClient{hc: &http.Client{Transport: tr}, base: ts.URL}
		if err := c.connect(); err != nil {
			b.Fatal(err)
		}
		mcpc = append(mcpc, c)
	}
	var nextN, nextM atomic.Int64
	var latN, latM []time.Duration
	// Warm both ways: connections, page cache.
	block(b, native, bodies, &nextN, benchClients, &latN)
	block(b, mcpc, bodies, &nextM, benchClients, &latM)
	latN, latM = latN[:0], latM[:0]
	const size = 500
	var cpuN, cpuM time.Duration
	b.ResetTimer()
	for done := 0; done < b.N; done += size {
		n := min(size, b.N-done)
		cpuN += block(b, native, bodies, &nextN, n, &latN)
		cpuM += block(b, mcpc, bodies, &nextM, n, &latM)
	}
	b.StopTimer()
	p99N, p99M := p99(latN), p99(latM)
	b.ReportMetric(float64(p99N.Microseconds())/1000, "visit-p99-ms")
	b.ReportMetric(float64(p99M.Microseconds())/1000, "mcp-p99-ms")
	if p99N > 0 {
		b.ReportMetric(float64(p99M)/float64(p99N), "mcp/visit-p99")
	}
	b.ReportMetric(float64(cpuN.Microseconds())/float64(b.N), "visit-cpu-us/op")
	b.ReportMetric(float64(cpuM.Microseconds())/float64(b.N), "mcp-cpu-us/op")
	if cpuN > 0 {
		b.ReportMetric(float64(cpuM)/float64(cpuN), "mcp/visit-cpu")
	}
}

// BenchmarkCallOverhead isolates what a call costs outside the tool: every
// visit's observation is computed once before timing, and both ways answer
// from that table. One way is the MCP visit tool over streamable HTTP (the
// SDK's handler with JSON answers, this package's tool wrapper, one session
// per client); the other a plain JSON endpoint that does what POST /visit
// does around the tool (reads the body, decodes the arguments, encodes the
// observation as serve encodes it). Both sit behind serve.Server.Mount and
// take the same 64 clients in alternating blocks, as BenchmarkVisitHTTP.
// The difference of their CPU per call, mcp-extra-us/op, is the protocol's
// cost that no tool change can remove: the floor of BenchmarkVisitHTTP's
// mcp/visit-cpu is (visit-cpu-us/op + mcp-extra-us/op) / visit-cpu-us/op.
func BenchmarkCallOverhead(b *testing.B) { callOverhead(b, false) }

// BenchmarkCallOverheadEmpty is BenchmarkCallOverhead with a one-byte tool
// result and no entities on the MCP side: what the SDK costs a call
// whatever the tool answers. The plain endpoint still answers whole.
func BenchmarkCallOverheadEmpty(b *testing.B) { callOverhead(b, true) }

func callOverhead(b *testing.B, empty bool) {
	w := benchWeb(b)
	bodies := visitBodies(b, w, 500)
	type visitArgs struct {
		URL  json.RawMessage `json:"url"`
		Goal *string         `json:"goal"`
	}
	key := func(args []byte) (string, error) {
		var a visitArgs
		if err := json.Unmarshal(args, &a); err != nil || a.Goal == nil {
			return "", fmt.Errorf("bad arguments %.100s", args)
		}
		return string(a.URL) + "\x00" + *a.Goal, nil
	}
	obs := map[string]*web.Observation{}
	for _, body := range bodies {
		o, err := w.Call(context.Background(), "visit", body)
		if err != nil {
			b.Fatal(err)
		}
		k, err := key(body)
		if err != nil {
			b.Fatal(err)
		}
		obs[k] = o
	}
	lookup := func(args []byte) (*web.Observation, error) {
		k, err := key(args)
		if err != nil {
			return nil, err
		}
		o, ok := obs[k]
		if !ok {
			return nil, fmt.Errorf("no observation for %.100s", args)
		}
		return o, nil
	}
	ms := NewServer(w, nil)
	ms.s.AddTool(&mcp.Tool{Name: ToolVisit, InputSchema: visitSchema}, ms.tool(func(_ context.Context, args json.RawMessage) (*answer, error) {
		o, err := lookup(args)
		if err != nil {
			return nil, err
		}
		if empty {
			return &answer{text: "x"}, nil
		}
		return &answer{text: o.Text, entities: o.Entities, urls: o.URLs}, nil
	}))
	srv := serve.NewServer(w, nil)
	srv.Mount("/mcp", ms.Handler())
	srv.Mount("/plain", http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(rw, err.Error(), http.StatusBadRequest)
			return
		}
		o, err := lookup(body)
		if err != nil {
			http.Error(rw, err.Error(), http.StatusBadRequest)
			return
		}
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(o); err != nil {
			http.Error(rw, err.Error(), http.StatusInternalServerError)
			return
		}
		rw.Header().Set("Content-Type", "application/json; charset=utf-8")
		rw.Write(out.Bytes())
	}))
	ts := httptest.NewServer(srv)
	b.Cleanup(ts.Close)
	var plain, mcpc []*benchClient
	for range benchClients {
		tr := &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}
		b.Cleanup(tr.CloseIdleConnections)
		plain = append(plain, &benchClient{hc: &http.Client{Transport: tr}, base: ts.URL, path: "/plain"})
		tr = &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}
		b.Cleanup(tr.CloseIdleConnections)
		c := &benchClient{hc: &http.Client{Transport: tr}, base: ts.URL}
		if err := c.connect(); err != nil {
			b.Fatal(err)
		}
		mcpc = append(mcpc, c)
	}
	var nextP, nextM atomic.Int64
	var lat []time.Duration
	block(b, plain, bodies, &nextP, benchClients, &lat)
	block(b, mcpc, bodies, &nextM, benchClients, &lat)
	const size = 500
	var cpuP, cpuM time.Duration
	b.ResetTimer()
	for done := 0; done < b.N; done += size {
		n := min(size, b.N-done)
		cpuP += block(b, plain, bodies, &nextP, n, &lat)
		cpuM += block(b, mcpc, bodies, &nextM, n, &lat)
		lat = lat[:0]
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuP.Microseconds())/float64(b.N), "plain-cpu-us/op")
	b.ReportMetric(float64(cpuM.Microseconds())/float64(b.N), "mcp-cpu-us/op")
	b.ReportMetric(float64((cpuM-cpuP).Microseconds())/float64(b.N), "mcp-extra-us/op")
}
