package mcpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/web/webtest"
)

const callBeforeInit = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{"query":"Booker Prize"}}}`

type rpcReply struct {
	ID    any `json:"id"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// TestCallBeforeInitializeStdio: a tools/call before initialize gets
// JSON-RPC's invalid request (-32600) with its id, not the SDK's code 0,
// and the session then initializes and works.
func TestCallBeforeInitializeStdio(t *testing.T) {
	s := NewServer(webtest.OpenWeb(t), nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { s.RunIO(ctx, inR, outW); outW.Close() }()
	go func() {
		for _, l := range []string{callBeforeInit,
			`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":"after","method":"tools/list"}`} {
			io.WriteString(inW, l+"\n")
		}
	}()
	deadline := time.AfterFunc(30*time.Second, func() { outR.CloseWithError(io.ErrUnexpectedEOF) })
	defer deadline.Stop()
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	var first *rpcReply
	for sc.Scan() {
		var r rpcReply
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("not JSON: %s", sc.Bytes())
		}
		if r.ID == 7.0 {
			first = &r
		}
		if r.ID == "after" {
			if r.Error != nil {
				t.Errorf("tools/list after initialize: %+v", r.Error)
			}
			break
		}
	}
	if first == nil || first.Error == nil {
		t.Fatalf("no error answer to the call before initialize: %+v", first)
	}
	if first.Error.Code != -32600 || !strings.Contains(first.Error.Message, "initialize") {
		t.Errorf("call before initialize: code %d %q; want -32600 naming initialize", first.Error.Code, first.Error.Message)
	}
}

// TestCallBeforeInitializeHTTP: over streamable HTTP, a call without a
// session gets 400 (as the MCP specification says) and -32600.
func TestCallBeforeInitializeHTTP(t *testing.T) {
	ts := httptest.NewServer(NewServer(webtest.OpenWeb(t), nil).Handler())
	defer ts.Close()
	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(callBeforeInit))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var r rpcReply
	if err := json.Unmarshal(b, &r); err != nil || r.Error == nil {
		t.Fatalf("status %d, %s: want a JSON-RPC error", resp.StatusCode, b)
	}
	if resp.StatusCode != http.StatusBadRequest || r.Error.Code != -32600 || r.ID != 7.0 {
		t.Errorf("status %d, %s; want 400, code -32600, id 7", resp.StatusCode, b)
	}
}
