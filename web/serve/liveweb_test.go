package serve

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestLiveWebShapesAttribute checks that the Serper and Jina shapes show
// what /search and /access show for the same arguments, with the same
// entities.
func TestLiveWebShapesAttribute(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	want, err := f.w.Search(ctx, []string{f.query}, 0)
	if err != nil {
		t.Fatal(err)
	}
	status, m, _ := f.post(t, "/serper/search", mustJSON(map[string]any{"q": f.query}))
	if status != 200 {
		t.Fatalf("serper: %d %v", status, m)
	}
	org := m["organic"].([]any)
	if len(org) != len(want.URLs) {
		t.Fatalf("serper: %d organic results, search shows %d", len(org), len(want.URLs))
	}
	for i, o := range org {
		o := o.(map[string]any)
		if o["link"] != want.URLs[i] || o["position"].(float64) != float64(i+1) {
			t.Errorf("organic[%d] = %v, search shows %s", i, o, want.URLs[i])
		}
		if !strings.Contains(want.Text, fmt.Sprint(o["snippet"])) {
			t.Errorf("organic[%d] snippet not in the search text", i)
		}
	}
	if fmt.Sprint(m["entities"]) != fmt.Sprint(want.Entities) {
		t.Errorf("serper entities %v, search's %v", m["entities"], want.Entities)
	}
	// Batch form: a list in, a list out.
	resp, err := http.Post(f.ts.URL+"/serper/search", "application/json", strings.NewReader(mustJSON([]map[string]any{{"q": f.query, "num": 2}, {"q": "zzqx unmatched"}})))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(string(b), "[") || strings.Count(string(b), `"position"`) != 2 {
		t.Errorf("serper batch: %d %s", resp.StatusCode, b)
	}

	acc, err := f.c.Access(ctx, []string{f.url})
	if err != nil || acc[0] == nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/jina/" + f.url, "/jina/" + strings.Replace(f.url, "https://", "https:/", 1)} {
		resp, err := http.Get(f.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(string(b), "Title: ") || !strings.Contains(string(b), "Markdown Content:\n"+acc[0].Contents) {
			t.Errorf("GET %s: %d %.200q", path, resp.StatusCode, b)
		}
		if resp.Header.Get("X-Leaper-Entities") == "" {
			t.Errorf("GET %s: no X-Leaper-Entities", path)
		}
	}
}

// TestNewEndpointsBadInput: client mistakes are 4xx with a message, never
// a 5xx, on every endpoint issue 12 added.
func TestNewEndpointsBadInput(t *testing.T) {
	f := newFixture(t, nil, sampleTask(t))
	long := strings.Repeat("x", 5000)
	cases := []struct{ method, path, body string }{
		{"POST", "/retrieve", `{"query": "a", "queries": ["b"]}`},
		{"POST", "/retrieve", `{"query": ""}`},
		{"POST", "/retrieve", `{"query": 7}`},
		{"POST", "/retrieve", `{"query": "a", "top_k": -1}`},
		{"POST", "/retrieve", `{"query": "a", "k": 100000}`},
		{"POST", "/retrieve", `{}`},
		{"POST", "/retrieve", `[1,2]`},
		{"POST", "/serper/search", `{}`},
		{"POST", "/serper/search", `{"q": 3}`},
		{"POST", "/serper/search", `{"q": "a", "num": -2}`},
		{"POST", "/serper/search", `{"q": "a", "num": 50, "page": 50}`},
		{"POST", "/serper/search", `{"q": "a", "num": 100, "page": 9223372036854775807}`},
		{"POST", "/serper/search", `{"q": "a", "num": 9223372036854775807, "page": 2}`},
		{"POST", "/serper/search", `[{"q": "a", "num": 2, "page": 9223372036854775807}]`},
		{"POST", "/serper/search", `[]`},
		{"POST", "/serper/search", `{"q": "` + long + `"}`},
		{"POST", "/serper/search", `not json`},
		{"GET", "/serper/search", ``},
		{"GET", "/jina/", ``},
		{"GET", "/jina/ftp://x/y", ``},
		{"GET", "/jina/https://en.wikipedia.org/wiki/../etc/passwd", ``},
		{"GET", "/jina/" + long, ``},
		{"POST", "/jina/https://en.wikipedia.org/wiki/X", `{}`},
		{"POST", "/get_reward", `{}`},
		{"POST", "/get_reward", `{"query": ["a"], "labels": []}`},
		{"POST", "/get_reward", `{"query": ["a"], "labels": ["nope"]}`},
		{"POST", "/get_reward", `{"query": ["a"], "labels": [""]}`},
		{"POST", "/get_reward", `{"query": ["a"], "labels": ["{bad"]}`},
		{"POST", "/get_reward", `{"query": ["a"], "labels": ["{}"]}`},
		{"POST", "/get_reward", `{"query": ["a"], "prompts": [], "labels": ["t1"]}`},
		{"POST", "/get_reward", `{"query": "a", "labels": "t1"}`},
	}
	for _, tc := range cases {
		req, _ := http.NewRequest(tc.method, f.ts.URL+tc.path, strings.NewReader(tc.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode < 400 || resp.StatusCode >= 500 || !strings.Contains(string(b), `"error"`) {
			t.Errorf("%s %.60s %.60s: %d %s", tc.method, tc.path, tc.body, resp.StatusCode, b)
		}
	}
}

// TestNewEndpointsToken: with a token, the new endpoints need it as the
// others do; Serper clients may send it as X-API-KEY.
func TestNewEndpointsToken(t *testing.T) {
	f := newFixture(t, &Options{Token: "s3cret"})
	for _, tc := range []struct {
		method, path, body string
		hdr                []string
		want               int
	}{
		{"POST", "/serper/search", `{"q":"a"}`, nil, 401},
		{"POST", "/serper/search", `{"q":"a"}`, []string{"X-API-KEY", "wrong"}, 401},
		{"POST", "/serper/search", `{"q":"a"}`, []string{"X-API-KEY", "s3cret"}, 200},
		{"POST", "/serper/search", `{"q":"a"}`, []string{"Authorization", "Bearer s3cret"}, 200},
		{"GET", "/jina/" + f.url, ``, nil, 401},
		{"GET", "/jina/" + f.url, ``, []string{"Authorization", "Bearer s3cret"}, 200},
		{"POST", "/get_reward", `{}`, nil, 401},
		{"POST", "/retrieve", `{"query":"a"}`, nil, 401},
		{"GET", "/health", ``, nil, 200},
	} {
		req, _ := http.NewRequest(tc.method, f.ts.URL+tc.path, strings.NewReader(tc.body))
		if tc.hdr != nil {
			req.Header.Set(tc.hdr[0], tc.hdr[1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s %s %v: %d, want %d", tc.method, tc.path, tc.hdr, resp.StatusCode, tc.want)
		}
	}
}

// TestRetrieveShapes: the failing requests, {"query", "topk"} and
// {"query", "top_k"}, answer in both shapes with the asked depth, and
// "queries" as a string is a batch of one.
func TestRetrieveShapes(t *testing.T) {
	f := newFixture(t, nil)
	for _, body := range []string{
		mustJSON(map[string]any{"query": f.query, "topk": 2}),
		mustJSON(map[string]any{"query": f.query, "top_k": 2}),
		mustJSON(map[string]any{"query": f.query, "k": 2, "topk": 0}),
	} {
		status, m, _ := f.post(t, "/retrieve", body)
		if status != 200 {
			t.Fatalf("%s: %d %v", body, status, m)
		}
		res, _ := m["results"].([]any)
		batch, _ := m["result"].([]any)
		if len(res) != 2 || len(batch) != 1 || len(batch[0].([]any)) != 2 || m["num_results"].(float64) != 2 {
			t.Errorf("%s: %v", body, m)
		}
		doc := res[0].(map[string]any)["document"].(map[string]any)
		if doc["url"] == "" || doc["title"] == "" || doc["id"] != doc["url"] {
			t.Errorf("document %v", doc)
		}
	}
	status, m, _ := f.post(t, "/retrieve", mustJSON(map[string]any{"queries": f.query, "topk": 1}))
	if batch, _ := m["result"].([]any); status != 200 || len(batch) != 1 || m["results"] != nil {
		t.Errorf("queries as a string: %d %v", status, m)
	}
	status, m, _ = f.post(t, "/retrieve", mustJSON(map[string]any{"query": []string{f.query, f.query}}))
	if batch, _ := m["result"].([]any); status != 200 || len(batch) != 2 || m["results"] != nil {
		t.Errorf("query as a list: %d %v", status, m)
	}
}
