package load

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/web/mcpserve"
	"github.com/leaper-dev/leaper/web/webtest"
)

// TestLoadRunOpensFirst checks that a run opens every MCP session before
// it sends a tool call (so that no call's latency holds an initialize),
// reports the open times, and ends every session when it is done.
func TestLoadRunOpensFirst(t *testing.T) {
	w := webtest.OpenWeb(t)
	h := mcpserve.NewServer(w, nil).Handler()
	var mu sync.Mutex
	var seq []string // JSON-RPC methods and DELETEs in the order they came
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		ev := r.Method
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			var m struct{ Method string }
			json.Unmarshal(body, &m)
			ev = m.Method
			r.Body = io.NopCloser(strings.NewReader(string(body)))
		}
		mu.Lock()
		seq = append(seq, ev)
		mu.Unlock()
		http.StripPrefix("/mcp", h).ServeHTTP(rw, r)
	}))
	defer srv.Close()

	var urls []string
	errEnough := errors.New("enough")
	w.Store().Graph().EachPage(context.Background(), func(p *graph.Page) error {
		urls = append(urls, p.URL)
		if len(urls) == 3 {
			return errEnough
		}
		return nil
	})
	if len(urls) == 0 {
		t.Fatal("no pages in the sample store")
	}
	var reqs []benchReq
	for _, u := range urls {
		b, _ := json.Marshal(map[string]string{"url": u, "goal": "facts"})
		reqs = append(reqs, benchReq{Endpoint: "mcp", Tool: mcpserve.ToolVisit, Body: b})
	}
	const clients = 4
	r, err := loadRun(context.Background(), "mcp-visit", clients, 20, reqs, mcpDoer(srv.URL, ""), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if r.Errors != 0 || r.Requests != 20 {
		t.Fatalf("run %+v", r)
	}
	if r.OpenP50ms <= 0 || r.OpenMaxms < r.OpenP50ms {
		t.Errorf("open times p50 %v max %v", r.OpenP50ms, r.OpenMaxms)
	}
	count := map[string]int{}
	firstCall, lastInit := -1, -1
	for i, ev := range seq {
		count[ev]++
		switch ev {
		case "tools/call":
			if firstCall < 0 {
				firstCall = i
			}
		case "initialize", "notifications/initialized":
			lastInit = i
		}
	}
	if count["initialize"] != clients || count["notifications/initialized"] != clients || count["tools/call"] != 20 || count[http.MethodDelete] != clients {
		t.Errorf("requests %v, want %d sessions opened and ended and 20 calls", count, clients)
	}
	if firstCall < lastInit {
		t.Errorf("a tool call (#%d) before the last session opened (#%d): %v", firstCall, lastInit, seq)
	}
}
