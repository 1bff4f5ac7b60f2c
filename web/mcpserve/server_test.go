package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/web"
	"github.com/leaper-dev/leaper/web/serve"
	"github.com/leaper-dev/leaper/web/webtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sample returns a page URL, its title (a query that hits) and a goal.
func sample(t *testing.T, w *web.Web) (url, q, goal string) {
	t.Helper()
	w.Store().Graph().EachTree(context.Background(), func(tr *graph.Tree) error {
		if url == "" {
			url, q, goal = tr.PageURL, tr.PageTitle, tr.KeyHeader+" and "+tr.Columns[0].Header
		}
		return nil
	})
	if url == "" {
		t.Fatal("no tree in the sample store")
	}
	return url, q, goal
}

func connectInMemory(t *testing.T, w *web.Web) *mcp.ClientSession {
	t.Helper()
	return connectInMemoryWith(t, w, nil)
}

func connectInMemoryWith(t *testing.T, w *web.Web, opts *Options) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	s := NewServer(w, opts)
	go s.Run(ctx, st)
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func connectHTTP(t *testing.T, w *web.Web, token string) (*mcp.ClientSession, error) {
	t.Helper()
	srv := serve.NewServer(w, &serve.Options{Token: token})
	srv.Mount("/mcp", NewServer(w, nil).Handler())
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	hc := &http.Client{Transport: bearer{"s3cret"}}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

type bearer struct{ tok string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.tok)
	return http.DefaultTransport.RoundTrip(r)
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d contents", name, len(res.Content))
	}
	return res.Content[0].(*mcp.TextContent).Text, res
}

// checkTools lists the tools and calls each, comparing the text with what
// the CLI prints (web.Web) for the same arguments.
func checkTools(t *testing.T, w *web.Web, cs *mcp.ClientSession) {
	ctx := context.Background()
	url, q, goal := sample(t, w)
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range lt.Tools {
		names = append(names, tl.Name)
	}
	if fmt.Sprint(names) != "[fetch get_document search visit]" {
		t.Errorf("tools %v", names)
	}
	for _, tl := range lt.Tools {
		checkVerlSchema(t, tl)
	}

	want, _ := w.Search(ctx, []string{q}, 0)
	got, res := call(t, cs, ToolSearch, map[string]any{"query": q})
	if got != want.Text || res.IsError {
		t.Errorf("search text differs from leaper search:\n got %.300q\nwant %.300q", got, want.Text)
	}
	if fmt.Sprint(res.Meta["leaper/entities"]) != fmt.Sprint(toAny(want.Entities)) || len(want.Entities) == 0 {
		t.Errorf("search entities %v, want %v", res.Meta["leaper/entities"], want.Entities)
	}
	want, _ = w.Search(ctx, []string{q, "zzqx unmatched"}, 2000)
	if got, _ := call(t, cs, ToolSearch, map[string]any{"query": []string{q, "zzqx unmatched"}, "filter_year": 2000}); got != want.Text {
		t.Errorf("search of a list differs from leaper search")
	}
	if got, _ := call(t, cs, ToolSearch, map[string]any{"q": q}); got != web.MsgSearchInvalid {
		t.Errorf("search without query: %q", got)
	}

	want, _ = w.Visit(ctx, []string{url}, goal)
	if got, _ := call(t, cs, ToolVisit, map[string]any{"url": url, "goal": goal}); got != want.Text {
		t.Errorf("visit text differs from leaper visit:\n got %.300q\nwant %.300q", got, want.Text)
	}
	if got, _ := call(t, cs, ToolVisit, map[string]any{"url": url}); got != web.MsgVisitInvalid {
		t.Errorf("visit without goal: %q", got)
	}

	p, err := w.Store().Graph().Page(web.CanonicalURL(url))
	if err != nil {
		t.Fatal(err)
	}
	got, res = call(t, cs, ToolGetDocument, map[string]any{"docid": url})
	var d Document
	if err := json.Unmarshal([]byte(got), &d); err != nil || d.Text != graph.PageText(p) || d.DocID != p.URL || res.IsError {
		t.Errorf("get_document: %v %.200q", err, got)
	}
	if got, res := call(t, cs, ToolFetch, map[string]any{"url": url}); got != web.ReaderText(p.Title, p.URL, graph.PageText(p)) || !strings.HasPrefix(got, "Title: ") || res.IsError {
		t.Errorf("fetch: %.200q", got)
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{ToolFetch, map[string]any{"url": "https://en.wikipedia.org/wiki/Zzqx_not_held"}},
		{ToolFetch, map[string]any{"url": "ftp://x"}},
		{ToolFetch, map[string]any{}},
		{ToolGetDocument, map[string]any{"docid": "nope"}},
		{ToolGetDocument, map[string]any{"docid": 3}},
	} {
		got, res := call(t, cs, tc.tool, tc.args)
		if !res.IsError || !strings.HasPrefix(got, tc.tool+": ") {
			t.Errorf("%s %v: %v %q", tc.tool, tc.args, res.IsError, got)
		}
	}
	// search and visit refuse bad arguments with their own texts, as
	// errors.
	for _, tc := range []struct {
		tool, want string
		args       map[string]any
	}{
		{ToolSearch, web.MsgSearchInvalid, map[string]any{"query": 5}},
		{ToolVisit, web.MsgVisitInvalid, map[string]any{"url": []any{1}, "goal": "g"}},
		{ToolVisit, web.MsgVisitInvalid, map[string]any{"url": "https://en.wikipedia.org/wiki/X"}},
	} {
		if got, res := call(t, cs, tc.tool, tc.args); !res.IsError || got != tc.want {
			t.Errorf("%s %v: %v %q", tc.tool, tc.args, res.IsError, got)
		}
	}
}

func toAny(ids []uint32) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = float64(id)
	}
	return out
}

func TestToolsInMemory(t *testing.T) {
	w := webtest.OpenWeb(t)
	checkTools(t, w, connectInMemory(t, w))
}

func TestToolsStreamableHTTP(t *testing.T) {
	w := webtest.OpenWeb(t)
	cs, err := connectHTTP(t, w, "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	checkTools(t, w, cs)
	if _, err := connectHTTP(t, w, "other"); err == nil {
		t.Errorf("a client with the wrong token connected")
	}
}

// checkVerlSchema checks a listed tool against what verl's MCP tools accept
// (verl/tools/schemas.py, OpenAIFunctionToolSchema, built by
// mcp_clients/utils.py mcp2openai from the listed tool): a description,
// parameters of type object, and each property with one type string.
func checkVerlSchema(t *testing.T, tl *mcp.Tool) {
	t.Helper()
	b, err := json.Marshal(tl.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var sc struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(b, &sc); err != nil || sc.Type != "object" || len(sc.Properties) == 0 || tl.Description == "" {
		t.Errorf("%s: schema %s, description %q: %v", tl.Name, b, tl.Description, err)
		return
	}
	for name, raw := range sc.Properties {
		var p struct {
			Type        any `json:"type"`
			Description any `json:"description"`
		}
		json.Unmarshal(raw, &p)
		if _, ok := p.Type.(string); !ok {
			t.Errorf("%s.%s: type %v is not one string (verl rejects the tool): %s", tl.Name, name, p.Type, raw)
		}
		if d, ok := p.Description.(string); !ok || d == "" {
			t.Errorf("%s.%s: no description: %s", tl.Name, name, raw)
		}
	}
}

// TestVerlExampleConfig checks the verl tool config of examples/ against
// the server: an MCP tool config naming tools the server lists, and an
// mcpServers file whose URL is the /mcp endpoint, reached by the SDK's
// client with the listed tools.
func TestVerlExampleConfig(t *testing.T) {
	yml, err := os.ReadFile("../../examples/verl_mcp_tools.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		MCPServers map[string]struct {
			URL string `json:"url"`
		} `json:"mcpServers"`
	}
	b, err := os.ReadFile("../../examples/leaper_mcp.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &cfg); err != nil || len(cfg.MCPServers) != 1 {
		t.Fatalf("leaper_mcp.json: %v %+v", err, cfg)
	}
	for _, s := range cfg.MCPServers {
		if !strings.HasSuffix(s.URL, "/mcp") {
			t.Errorf("leaper_mcp.json url %q: want leaper serve's /mcp", s.URL)
		}
	}
	text := string(yml)
	for _, want := range []string{"class_name: verl.tools.mcp_base_tool.MCPBaseTool", "type: mcp", "mcp_servers_config_path: examples/leaper_mcp.json"} {
		if !strings.Contains(text, want) {
			t.Errorf("verl_mcp_tools.yaml lacks %q", want)
		}
	}
	w := webtest.OpenWeb(t)
	cs := connectInMemory(t, w)
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, tl := range lt.Tools {
		listed[tl.Name] = true
	}
	_, sel, _ := strings.Cut(text, "tool_selected_list:")
	n := 0
	for _, line := range strings.Split(sel, "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
			n++
			if !listed[name] {
				t.Errorf("verl_mcp_tools.yaml selects %q, which the server does not list", name)
			}
		}
	}
	if n != 2 {
		t.Errorf("verl_mcp_tools.yaml selects %d tools, want search and visit", n)
	}
}

// TestTypeScriptSDKClient runs the TypeScript SDK's client (another
// implementation than the server's) against /mcp, when node and the SDK are
// at hand: LEAPER_MCP_TS_SDK names a directory whose node_modules holds
// @modelcontextprotocol/sdk (npm install @modelcontextprotocol/sdk).
func TestTypeScriptSDKClient(t *testing.T) {
	dir := os.Getenv("LEAPER_MCP_TS_SDK")
	node, err := exec.LookPath("node")
	if dir == "" || err != nil {
		t.Skip("LEAPER_MCP_TS_SDK and node needed")
	}
	script, _ := filepath.Abs("testdata/ts_client.mjs")
	w := webtest.OpenWeb(t)
	srv := serve.NewServer(w, nil)
	srv.Mount("/mcp", NewServer(w, nil).Handler())
	ts := httptest.NewServer(srv)
	defer ts.Close()
	url, q, goal := sample(t, w)
	// An ES module resolves packages from its own directory up, so the
	// script runs from a copy beside the SDK's node_modules.
	run := filepath.Join(dir, "leaper_ts_client.mjs")
	b, _ := os.ReadFile(script)
	if err := os.WriteFile(run, b, 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(run)
	cmd := exec.Command(node, run, ts.URL+"/mcp", q, url, goal)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var got struct {
		Tools          []string
		Search, Visit  string
		SearchEntities []uint32
		IsError        bool
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	ctx := context.Background()
	ws, _ := w.Search(ctx, []string{q}, 0)
	wv, _ := w.Visit(ctx, []string{url}, goal)
	if fmt.Sprint(got.Tools) != "[fetch get_document search visit]" || got.IsError ||
		got.Search != ws.Text || got.Visit != wv.Text || fmt.Sprint(got.SearchEntities) != fmt.Sprint(ws.Entities) {
		t.Errorf("TypeScript client got %+v", got)
	}
}

// TestSearchJSON checks search in BrowseComp-Plus's shape: a JSON list of
// hits whose docids get_document takes, with the same entities as the
// store's hits.
func TestSearchJSON(t *testing.T) {
	w := webtest.OpenWeb(t)
	cs := connectInMemoryWith(t, w, &Options{SearchJSON: true})
	_, q, _ := sample(t, w)
	got, res := call(t, cs, ToolSearch, map[string]any{"query": q})
	var hits []SearchHit
	if err := json.Unmarshal([]byte(got), &hits); err != nil || len(hits) == 0 || res.IsError {
		t.Fatalf("search %q: %v %.200q", q, err, got)
	}
	want, _ := w.Hits(context.Background(), q, 0, 0)
	var ents []uint32
	for i, h := range hits {
		if h.DocID != want[i].URL || h.URL != h.DocID || h.Snippet != want[i].Snippet || h.Title == "" {
			t.Errorf("hit %d: %+v, want %s", i, h, want[i].URL)
		}
		ents = append(ents, want[i].Entities...)
	}
	slices.Sort(ents)
	ents = slices.Compact(ents)
	if fmt.Sprint(res.Meta["leaper/entities"]) != fmt.Sprint(toAny(ents)) {
		t.Errorf("entities %v, want %v", res.Meta["leaper/entities"], ents)
	}
	doc, res := call(t, cs, ToolGetDocument, map[string]any{"docid": hits[0].DocID})
	if res.IsError || !strings.Contains(doc, `"docid":`) {
		t.Errorf("get_document of a search docid: %.200q", doc)
	}
	if got, res := call(t, cs, ToolSearch, map[string]any{"query": ""}); !res.IsError || got != web.MsgSearchInvalid {
		t.Errorf("empty query: %v %q", res.IsError, got)
	}
}
