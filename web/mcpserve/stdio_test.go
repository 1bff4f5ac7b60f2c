package mcpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/web/webtest"
)

// TestStdioBadLines sends, between good requests, every kind of line the
// SDK's stream transport ends a session on. Each gets a JSON-RPC error
// answer (with the request's id when it has one) and the session goes on:
// the requests after them are answered.
func TestStdioBadLines(t *testing.T) {
	s := NewServer(webtest.OpenWeb(t), nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.RunIO(ctx, inR, outW); outW.Close() }()

	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	bad := []struct {
		line string
		code int
		id   any
	}{
		{"not json", -32700, nil},
		{`{}`, -32600, nil},
		{`null`, -32600, nil},
		{`[]`, -32600, nil},
		{`{"jsonrpc":"1.0","id":5,"method":"tools/list"}`, -32600, 5.0},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, -32600, nil},
		{`{"jsonrpc":"2.0","id":1} {"jsonrpc":"2.0","id":2}`, -32700, nil},
		{`{"jsonrpc":"2.0","id":"d","method":"tools/call","params":{"name":"search","arguments":{"query":` + deep + `}}}`, -32600, "d"},
	}
	lines := []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	for _, b := range bad {
		lines = append(lines, b.line)
	}
	// A message over two lines is still read, as the SDK reads it.
	lines = append(lines, `{"jsonrpc":"2.0",`, `"id":"after","method":"tools/list"}`)
	go func() {
		for _, l := range lines {
			io.WriteString(inW, l+"\n")
		}
	}()

	type reply struct {
		ID     any             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	var errs []reply
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	deadline := time.AfterFunc(30*time.Second, func() { outR.CloseWithError(io.ErrUnexpectedEOF) })
	defer deadline.Stop()
	answered := false
	for !answered && sc.Scan() {
		var r reply
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("not JSON: %s", sc.Bytes())
		}
		switch {
		case r.Error != nil:
			errs = append(errs, r)
		case r.ID == "after":
			answered = strings.Contains(string(r.Result), `"tools"`)
		}
	}
	if !answered {
		t.Fatalf("the request after the bad lines was not answered (%v)", sc.Err())
	}
	if len(errs) != len(bad) {
		t.Fatalf("%d error answers for %d bad lines: %+v", len(errs), len(bad), errs)
	}
	for i, b := range bad {
		if errs[i].Error.Code != b.code || errs[i].ID != b.id {
			t.Errorf("%.40s: answer id %v code %d, want id %v code %d", b.line, errs[i].ID, errs[i].Error.Code, b.id, b.code)
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("RunIO: %v", err)
	}
}
