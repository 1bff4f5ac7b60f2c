package load

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

func TestBenchServeFTSQuery(t *testing.T) {
	for q, want := range map[string]string{
		"Booker Prize winners":    `"booker" OR "prize" OR "winners"`,
		`x "y" x`:                 `"x" OR "y"`,
		"  ":                      "",
		"List of the Oscars-2005": `"list" OR "oscars" OR "2005"`,
	} {
		if got := ftsQuery(q); got != want {
			t.Errorf("ftsQuery(%q) = %s, want %s", q, got, want)
		}
	}
	if strings.Contains(ftsQuery(`x" OR NEAR(`), `""`) {
		t.Error("quotes leak into the FTS5 query")
	}
}

// TestRawClient drives the load generator's HTTP/1.1 client against a
// net/http server: answers, errors, a server that closes the connection,
// and a bearer token.
func TestRawClient(t *testing.T) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		b, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/api/search":
			w.Write(b) // echo
		case "/api/visit":
			w.Header().Set("Connection", "close")
			w.Write([]byte(`{"result":"bye"}`))
		default:
			http.Error(w, "boom", http.StatusInternalServerError)
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()

	newC, err := httpDoer(srv.URL+"/api/", "s3cret", 1)
	if err != nil {
		t.Fatal(err)
	}
	cl := newC()
	defer cl.release()
	ctx := context.Background()
	if err := cl.open(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := cl.do(ctx, benchReq{Endpoint: "search", Body: []byte(`{"query":"x"}`)}); err != nil {
			t.Fatalf("search %d: %v", i, err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections for 5 keep-alive requests, want 1", n)
	}
	if err := cl.do(ctx, benchReq{Endpoint: "visit", Body: []byte(`{}`)}); err != nil {
		t.Fatalf("visit: %v", err)
	}
	if err := cl.do(ctx, benchReq{Endpoint: "search", Body: []byte(`{}`)}); err != nil {
		t.Fatalf("search after the server closed: %v", err)
	}
	if n := conns.Load(); n != 2 {
		t.Errorf("%d connections, want 2 after the server closed one", n)
	}
	if err := cl.do(ctx, benchReq{Endpoint: "nope", Body: []byte(`{}`)}); err == nil || !strings.Contains(err.Error(), "HTTP 500") {
		t.Errorf("a 500 answer gave %v", err)
	}
	bad, _ := httpDoer(srv.URL, "wrong", 1)
	cl2 := bad()
	defer cl2.release()
	if err := cl2.do(ctx, benchReq{Endpoint: "api/search", Body: []byte(`{}`)}); err == nil || !strings.Contains(err.Error(), "HTTP 401") {
		t.Errorf("a wrong token gave %v", err)
	}
}
