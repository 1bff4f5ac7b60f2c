package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/web"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Version is the server version reported to MCP clients.
const Version = "1"

// Options configure a Server. nil means defaults.
type Options struct {
	// Workers bounds concurrent tool calls; default 2×GOMAXPROCS, as serve.
	Workers int
	// SessionTimeout closes idle HTTP sessions; default 10 minutes.
	SessionTimeout time.Duration
	// Logger receives the SDK's log; default discard.
	Logger *slog.Logger
	// SearchJSON makes search answer as BrowseComp-Plus's MCP search does:
	// a JSON list of {docid, score, snippet} (with url and title) per hit,
	// from which its clients read the docids they report, instead of the
	// CLI's text.
	SearchJSON bool
}

func (o *Options) withDefaults() Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.Workers <= 0 {
		c.Workers = 2 * runtime.GOMAXPROCS(0)
	}
	if c.SessionTimeout <= 0 {
		c.SessionTimeout = 10 * time.Minute
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// Server is the offline web as MCP tools.
type Server struct {
	w    *web.Web
	opts Options
	sem  chan struct{}
	s    *mcp.Server
}

// Tool names.
const (
	ToolSearch      = "search"
	ToolVisit       = "visit"
	ToolGetDocument = "get_document"
	ToolFetch       = "fetch"
)

var (
	// The properties say "array" for search's query and visit's url, as
	// leaper's own tool definitions (Tongyi DeepResearch's) do, and a single
	// string is accepted too. Each property has one type string: verl's
	// MCP tools validate the listed schemas with a model whose property
	// type is a single string, and reject a tool whose property has none
	// (an anyOf) or a list of types.
	searchSchema = map[string]any{
		"type": "object",
		"properties": map[string]any{
			"query":       stringList("The search queries, one or more (a single string is accepted too)."),
			"filter_year": map[string]any{"type": "integer", "description": "Keep only pages that mention this year."},
		},
		"required": []any{"query"},
	}
	visitSchema = map[string]any{
		"type": "object",
		"properties": map[string]any{
			"url":  stringList("The URLs of the pages to visit, one or more (a single string is accepted too)."),
			"goal": map[string]any{"type": "string", "description": "What the visit is for; chooses the evidence."},
		},
		"required": []any{"url", "goal"},
	}
	docSchema = map[string]any{
		"type":       "object",
		"properties": map[string]any{"docid": map[string]any{"type": "string", "description": "The document id (the page URL) a search returned."}},
		"required":   []any{"docid"},
	}
	fetchSchema = map[string]any{
		"type":       "object",
		"properties": map[string]any{"url": map[string]any{"type": "string", "description": "The URL of the page."}},
		"required":   []any{"url"},
	}
)

func stringList(desc string) map[string]any {
	return map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "minItems": 1, "description": desc}
}

// NewServer returns the MCP server of w.
func NewServer(w *web.Web, opts *Options) *Server {
	o := opts.withDefaults()
	s := &Server{w: w, opts: o, sem: make(chan struct{}, o.Workers)}
	s.s = mcp.NewServer(&mcp.Implementation{Name: "leaper", Title: "leaper offline web", Version: Version}, &mcp.ServerOptions{Logger: o.Logger})
	s.s.AddTool(&mcp.Tool{
		Name:        ToolSearch,
		Description: "Search the web. Returns the top results of each query with title, URL and snippet.",
		InputSchema: searchSchema,
	}, s.tool(s.search))
	s.s.AddTool(&mcp.Tool{
		Name:        ToolVisit,
		Description: "Visit webpages and return the evidence relevant to the goal, with a summary.",
		InputSchema: visitSchema,
	}, s.tool(s.visit))
	s.s.AddTool(&mcp.Tool{
		Name:        ToolGetDocument,
		Description: "Retrieve the full text of a document by its id (its URL).",
		InputSchema: docSchema,
	}, s.tool(s.getDocument))
	s.s.AddTool(&mcp.Tool{
		Name:        ToolFetch,
		Description: "Fetch a webpage by URL and return its content as markdown.",
		InputSchema: fetchSchema,
	}, s.tool(s.fetch))
	return s
}

// Run serves one session over a transport (an in-memory one in tests).
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.s.Run(ctx, codeTransport{t})
}

// Handler returns the streamable HTTP handler of the server.
func (s *Server) Handler() http.Handler {
	return requireSession(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.s }, &mcp.StreamableHTTPOptions{
		SessionTimeout:      s.opts.SessionTimeout,
		JSONResponse:        true,
		Logger:              s.opts.Logger,
		MaxRequestBodyBytes: 1 << 20,
	}), 1<<20)
}

// answer is what a tool shows, and the entities and pages behind it.
type answer struct {
	text     string
	entities []uint32
	urls     []string
	isErr    bool
}

func (s *Server) tool(fn func(ctx context.Context, args json.RawMessage) (*answer, error)) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case s.sem <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		defer func() { <-s.sem }()
		args := req.Params.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		a, err := fn(ctx, args)
		if err != nil {
			return nil, err
		}
		ents := a.entities
		if ents == nil {
			ents = []uint32{}
		}
		urls := a.urls
		if urls == nil {
			urls = []string{}
		}
		return &mcp.CallToolResult{
			Meta:    mcp.Meta{"leaper/entities": ents, "leaper/urls": urls},
			Content: []mcp.Content{&mcp.TextContent{Text: a.text}},
			IsError: a.isErr,
		}, nil
	}
}

// SearchHit is one hit of search with Options.SearchJSON: BrowseComp-Plus's
// fields (docid, score, snippet) and the page's url and title.
type SearchHit struct {
	DocID   string  `json:"docid"`
	Score   float64 `json:"score"`
	Snippet string  `json:"snippet"`
	URL     string  `json:"url"`
	Title   string  `json:"title"`
}

func (s *Server) search(ctx context.Context, args json.RawMessage) (*answer, error) {
	if s.opts.SearchJSON {
		return s.searchJSON(ctx, args)
	}
	o, err := s.w.Call(ctx, "search", args)
	if err != nil {
		return nil, err
	}
	return &answer{text: o.Text, entities: o.Entities, urls: o.URLs, isErr: o.Text == web.MsgSearchInvalid}, nil
}

func (s *Server) searchJSON(ctx context.Context, args json.RawMessage) (*answer, error) {
	qs, _, year, _ := web.ParseSearchArgs(args)
	qs = slices.DeleteFunc(qs, func(q string) bool { return strings.TrimSpace(q) == "" })
	if len(qs) == 0 {
		return &answer{text: web.MsgSearchInvalid, isErr: true}, nil
	}
	hits := []SearchHit{}
	var ents []uint32
	var urls []string
	for _, q := range qs {
		hs, err := s.w.Hits(ctx, q, 0, year)
		if err != nil {
			return nil, err
		}
		for _, h := range hs {
			hits = append(hits, SearchHit{DocID: h.URL, Score: h.Score, Snippet: h.Snippet, URL: h.URL, Title: h.Title})
			ents = append(ents, h.Entities...)
			urls = append(urls, h.URL)
		}
	}
	slices.Sort(ents)
	b, err := json.Marshal(hits)
	if err != nil {
		return nil, err
	}
	return &answer{text: string(b), entities: slices.Compact(ents), urls: urls}, nil
}

func (s *Server) visit(ctx context.Context, args json.RawMessage) (*answer, error) {
	o, err := s.w.Call(ctx, "visit", args)
	if err != nil {
		return nil, err
	}
	// Arguments the tool refuses are its error, with its own text.
	return &answer{text: o.Text, entities: o.Entities, urls: o.URLs, isErr: o.Text == web.MsgVisitInvalid}, nil
}

// Document is get_document's answer, BrowseComp-Plus's fields with the
// page's URL and title.
type Document struct {
	DocID string `json:"docid"`
	URL   string `json:"url"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

func (s *Server) getDocument(ctx context.Context, args json.RawMessage) (*answer, error) {
	var a struct {
		DocID string `json:"docid"`
	}
	if err := json.Unmarshal(args, &a); err != nil || a.DocID == "" {
		return &answer{text: `get_document: arguments must be {"docid": "<document id>"}`, isErr: true}, nil
	}
	p, msg, err := s.page(a.DocID)
	if err != nil || p == nil {
		return &answer{text: "get_document: " + msg, isErr: true}, err
	}
	b, err := json.Marshal(Document{DocID: p.URL, URL: p.URL, Title: p.Title, Text: graph.PageText(p)})
	if err != nil {
		return nil, err
	}
	return &answer{text: string(b), entities: web.PageEntities(p), urls: []string{p.URL}}, nil
}

func (s *Server) fetch(ctx context.Context, args json.RawMessage) (*answer, error) {
	var a struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal(args, &a); err != nil || a.URL == "" {
		return &answer{text: `fetch: arguments must be {"url": "<page URL>"}`, isErr: true}, nil
	}
	p, msg, err := s.page(a.URL)
	if err != nil || p == nil {
		return &answer{text: "fetch: " + msg, isErr: true}, err
	}
	return &answer{text: web.ReaderText(p.Title, p.URL, graph.PageText(p)), entities: web.PageEntities(p), urls: []string{p.URL}}, nil
}

// page reads a page by URL; a URL the store does not hold gives a message.
func (s *Server) page(u string) (*graph.Page, string, error) {
	p, err := s.w.Page(u)
	if errors.Is(err, web.ErrNoPage) {
		return nil, strings.TrimPrefix(err.Error(), web.ErrNoPage.Error()+": "), nil
	}
	if err != nil {
		return nil, "", err
	}
	return p, "", nil
}
