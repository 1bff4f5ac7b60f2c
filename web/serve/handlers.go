package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/web"
	"golang.org/x/sync/errgroup"
)

// SearchRequest is the body of POST /search: the arguments of Tongyi
// DeepResearch's search tool. Query is a string or a list of strings.
type SearchRequest struct {
	Query      any  `json:"query"`
	FilterYear *int `json:"filter_year,omitempty"`
}

// VisitRequest is the body of POST /visit. URL is a string or a list.
type VisitRequest struct {
	URL  any    `json:"url"`
	Goal string `json:"goal"`
}

// RetrieveRequest is the body of POST /retrieve. Search-R1, verl, SkyRL
// and ASearcher send Queries and TopK; rLLM sends Query and TopK2 ("top_k")
// or K. Query or Queries may each be a string or a list.
type RetrieveRequest struct {
	Queries      any   `json:"queries,omitempty"`
	Query        any   `json:"query,omitempty"`
	TopK         int   `json:"topk,omitempty"`
	TopK2        int   `json:"top_k,omitempty"`
	K            int   `json:"k,omitempty"`
	ReturnScores *bool `json:"return_scores,omitempty"`
}

// Document is a retrieved passage. Contents is Search-R1's
// "\"Title\"\ntext"; ID is the corpus id of a page built from a standard
// corpus (leaper build --format flashrag, browsecomp-plus, kilt), else the
// page URL, as URL is (ASearcher reads url);
// Entities are the entities the passage shows, for ISR and ISE.
type Document struct {
	ID       string   `json:"id"`
	URL      string   `json:"url"`
	Title    string   `json:"title"`
	Contents string   `json:"contents"`
	Entities []uint32 `json:"entities"`
}

// ScoredDocument is a retrieved passage with its BM25 score.
type ScoredDocument struct {
	Document Document `json:"document"`
	Score    float64  `json:"score"`
}

// RetrieveResult is one hit of a single-query answer ({"query": "q"}, as
// rLLM's retrieval server answers): the Search-R1 document and score, and
// the document's fields flat. Content is the document's contents, the
// quoted title line first, as rLLM's server sends its corpus record and
// its LocalRetrievalTool reads the title from it.
type RetrieveResult struct {
	Document Document `json:"document"`
	Score    float64  `json:"score"`
	ID       string   `json:"id"`
	URL      string   `json:"url"`
	Title    string   `json:"title"`
	Content  string   `json:"content"`
	Entities []uint32 `json:"entities"`
}

// AccessRequest is the body of POST /access (ASearcher's page access).
type AccessRequest struct {
	URLs []string `json:"urls"`
}

// AccessResult is one page of an /access answer, with the entities it
// shows; null when the store does not hold the page.
type AccessResult struct {
	URL      string   `json:"url"`
	Contents string   `json:"contents"`
	Entities []uint32 `json:"entities"`
}

// defaultTopK is Search-R1's retriever default.
const defaultTopK = 3

func (s *Server) search(r *http.Request, body []byte) ([]byte, bool, error) {
	var a struct {
		Query      json.RawMessage `json:"query"`
		FilterYear json.RawMessage `json:"filter_year"`
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, false, badf(true, "invalid request: %s", web.JSONMessage(err))
	}
	qs, err := strOrList(a.Query, "query")
	if err != nil {
		return nil, false, err
	}
	if err := s.checkStrings(qs, "query", s.opts.MaxQueries); err != nil {
		return nil, false, err
	}
	year := 0
	if present(a.FilterYear) {
		// The error says what is wrong; the observation beside it stays
		// the tool's own (Tongyi's one message for any bad arguments).
		if err := json.Unmarshal(a.FilterYear, &year); err != nil {
			return nil, false, badf(true, `"filter_year" must be an integer year, as 2005; got %.40s`, a.FilterYear)
		}
	}
	key := "search|" + strconv.Itoa(year) + "|" + jsonKey(qs)
	return s.cached(r.Context(), "search", key, func(ctx context.Context) (any, error) {
		var o *web.Observation
		err := s.eval.do(ctx, func() (err error) {
			o, err = webOf(ctx).Search(ctx, qs, year)
			return err
		})
		return normalize(o), err
	})
}

func (s *Server) visit(r *http.Request, body []byte) ([]byte, bool, error) {
	var a struct {
		URL  json.RawMessage `json:"url"`
		Goal *string         `json:"goal"`
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, false, badf(true, "invalid request: %s", web.JSONMessage(err))
	}
	us, err := strOrList(a.URL, "url")
	if err != nil {
		return nil, false, err
	}
	if a.Goal == nil {
		return nil, false, badf(true, `missing "goal"`)
	}
	if len(*a.Goal) > s.opts.MaxArgLen {
		return nil, false, badf(false, "goal longer than %d bytes", s.opts.MaxArgLen)
	}
	if err := s.checkURLs(us); err != nil {
		return nil, false, err
	}
	goal := *a.Goal
	key := "visit|" + jsonKey(goal) + "|" + jsonKey(us)
	return s.cached(r.Context(), "visit", key, func(ctx context.Context) (any, error) {
		o, err := webOf(ctx).Visit(ctx, us, goal)
		return normalize(o), err
	})
}

func (s *Server) retrieve(r *http.Request, body []byte) ([]byte, bool, error) {
	var a struct {
		Queries      json.RawMessage `json:"queries"`
		Query        json.RawMessage `json:"query"`
		TopK         *int            `json:"topk"`
		TopK2        *int            `json:"top_k"`
		K            *int            `json:"k"`
		ReturnScores *bool           `json:"return_scores"`
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, false, badf(false, "invalid request: %s", web.JSONMessage(err))
	}
	hasQueries, hasQuery := present(a.Queries), present(a.Query)
	var qs []string
	var err error
	// single: rLLM's {"query": "q"}, answered flat in "results".
	single := false
	switch {
	case hasQueries && hasQuery:
		return nil, false, badf(false, `give one of "queries" and "query", not both`)
	case hasQuery:
		qs, err = strOrList(a.Query, "query")
		single = err == nil && isJSONString(a.Query)
	default:
		qs, err = strOrList(a.Queries, "queries")
		if !hasQueries {
			err = badf(false, `missing "queries" (or "query")`)
		}
	}
	if err != nil {
		err.(*badRequest).obs = false
		return nil, false, err
	}
	if len(qs) > s.opts.MaxBatch {
		return nil, false, badf(false, "%d queries in one call; at most %d (leaper serve --max-batch)", len(qs), s.opts.MaxBatch)
	}
	if err := s.checkStrings(qs, "queries", s.opts.MaxBatch); err != nil {
		err.(*badRequest).obs = false
		return nil, false, err
	}
	// rLLM: topk or top_k or k, the first that is set and not zero.
	k := defaultTopK
	for _, v := range []*int{a.TopK, a.TopK2, a.K} {
		if v != nil && *v != 0 {
			k = *v
			break
		}
	}
	if k < 0 || k > s.opts.MaxTopK {
		return nil, false, badf(false, `"topk" must be within 1..%d (0 or none: %d)`, s.opts.MaxTopK, defaultTopK)
	}
	// Search-R1's server defaults return_scores to false; rLLM's single
	// answer always carries scores.
	scores := a.ReturnScores != nil && *a.ReturnScores
	shape := "batch"
	if single {
		shape = "single"
	}
	key := "retrieve|" + shape + "|" + strconv.Itoa(k) + "|" + strconv.FormatBool(scores) + "|" + jsonKey(qs)
	return s.cached(r.Context(), "retrieve", key, func(ctx context.Context) (any, error) {
		ctx, cancel := context.WithTimeout(ctx, s.opts.BatchTimeout)
		defer cancel()
		hits, err := s.batchHits(ctx, qs, k)
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, &badRequest{status: http.StatusServiceUnavailable,
				msg: fmt.Sprintf("%d queries not answered within %s (leaper serve --batch-timeout)", len(qs), s.opts.BatchTimeout)}
		}
		if err != nil {
			return nil, err
		}
		scored := make([][]ScoredDocument, len(qs))
		plain := make([][]Document, len(qs))
		var flat []RetrieveResult
		for qi, hs := range hits {
			sd := make([]ScoredDocument, len(hs))
			pd := make([]Document, len(hs))
			for i, h := range hs {
				ents := nonNil(h.Entities)
				id := h.URL
				if h.DocID != "" {
					id = h.DocID // the corpus's own: its qrels name it
				}
				text := h.Snippet
				if h.Passage != "" {
					text = h.Passage // a corpus passage whole, as Search-R1's retriever answers
				}
				pd[i] = Document{ID: id, URL: h.URL, Title: h.Title, Contents: `"` + h.Title + "\"\n" + text, Entities: ents}
				sd[i] = ScoredDocument{Document: pd[i], Score: h.Score}
				if single {
					flat = append(flat, RetrieveResult{Document: pd[i], Score: h.Score, ID: id, URL: h.URL, Title: h.Title, Content: pd[i].Contents, Entities: ents})
				}
			}
			scored[qi], plain[qi] = sd, pd
		}
		var batch any = plain
		if scores {
			batch = scored
		}
		if single {
			if flat == nil {
				flat = []RetrieveResult{}
			}
			// rLLM's single answer, with Search-R1's "result" beside it
			// for clients that send "query" but read "result".
			return map[string]any{"query": qs[0], "method": "bm25", "results": flat, "num_results": len(flat), "result": batch}, nil
		}
		return map[string]any{"result": batch}, nil
	})
}

// batchHits answers the queries of one /retrieve call, each query's hits
// at its own index. Each query is evaluated in the gate (Options.Evaluations,
// in arrival order). A batch sends its queries to the gate from up to
// Evaluations goroutines, each taking the next query once its last is
// answered: the batch has at most that many queries waiting, so a query
// arriving meanwhile (a single call, another batch's) is admitted after
// those few rather than after the whole batch, and a batch of thousands
// still keeps every core busy when it is alone. The call holds one
// worker slot.
func (s *Server) batchHits(ctx context.Context, qs []string, k int) ([][]web.Hit, error) {
	out := make([][]web.Hit, len(qs))
	w := webOf(ctx)
	hits := func(ctx context.Context, i int) error {
		return s.eval.do(ctx, func() error {
			if s.beforeEval != nil {
				s.beforeEval(qs[i])
			}
			h, err := w.Hits(ctx, qs[i], k, 0)
			out[i] = h
			return err
		})
	}
	if len(qs) == 1 {
		return out, hits(ctx, 0)
	}
	g, gctx := errgroup.WithContext(ctx)
	var next atomic.Int64
	for range min(s.opts.Evaluations, len(qs)) {
		g.Go(func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(qs) {
					return nil
				}
				if err := gctx.Err(); err != nil {
					return err
				}
				if err := hits(gctx, i); err != nil {
					return err
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	return out, nil
}

// present reports whether a JSON field was given and is not null.
func present(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return t != "" && t != "null"
}

func isJSONString(raw json.RawMessage) bool {
	return strings.HasPrefix(strings.TrimSpace(string(raw)), `"`)
}

func (s *Server) access(r *http.Request, body []byte) ([]byte, bool, error) {
	var a struct {
		URLs json.RawMessage `json:"urls"`
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, false, badf(false, "invalid request: %s", web.JSONMessage(err))
	}
	us, err := strOrList(a.URLs, "urls")
	if err != nil {
		err.(*badRequest).obs = false
		return nil, false, err
	}
	if err := s.checkURLs(us); err != nil {
		err.(*badRequest).obs = false
		return nil, false, err
	}
	key := "access|" + jsonKey(us)
	return s.cached(r.Context(), "access", key, func(ctx context.Context) (any, error) {
		out := make([]*AccessResult, len(us))
		for i, u := range us {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			cu := web.CanonicalURL(u)
			if cu == "" {
				continue
			}
			p, err := webOf(ctx).Store().Graph().Page(cu)
			if errors.Is(err, graph.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			out[i] = &AccessResult{URL: u, Contents: graph.PageText(p), Entities: nonNil(web.PageEntities(p))}
		}
		return map[string]any{"result": out}, nil
	})
}

// cached answers from the cache, or runs fn in a worker slot and caches
// its encoded answer.
func (s *Server) cached(ctx context.Context, endpoint, key string, fn func(context.Context) (any, error)) ([]byte, bool, error) {
	// Answers are cached per store: after a switch the old ones are
	// never served (and age out).
	key = ctx.Value(backendKey{}).(*backend).id + "|" + key
	if b, ok := s.cache.get(key); ok {
		return b, true, nil
	}
	v, err := s.run(ctx, endpoint, fn)
	if err != nil {
		return nil, false, err
	}
	b, err := encode(v)
	if err != nil {
		return nil, false, err
	}
	s.cache.put(key, b)
	return b, false, nil
}

// run runs fn in a worker slot, queueing while all are busy; the slot is
// given back even if fn panics.
func (s *Server) run(ctx context.Context, endpoint string, fn func(context.Context) (any, error)) (any, error) {
	if err := s.acquire(ctx); err != nil {
		return nil, err
	}
	defer s.release()
	if s.beforeTool != nil {
		s.beforeTool(endpoint)
	}
	return fn(ctx)
}

// strOrList decodes a JSON string or a non-empty list of strings.
func strOrList(raw json.RawMessage, field string) ([]string, error) {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return nil, badf(true, "missing %q", field)
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, badf(true, "%q must be a string or a list of strings", field)
	}
	if len(list) == 0 {
		return nil, badf(true, "%q is an empty list", field)
	}
	return list, nil
}

func (s *Server) checkStrings(qs []string, field string, maxN int) error {
	if len(qs) > maxN {
		return badf(false, "%d %s in one call; at most %d", len(qs), field, maxN)
	}
	for _, q := range qs {
		if len(q) > s.opts.MaxArgLen {
			return badf(false, "a query longer than %d bytes", s.opts.MaxArgLen)
		}
		if strings.TrimSpace(q) == "" {
			return badf(true, "empty query")
		}
	}
	return nil
}

func (s *Server) checkURLs(us []string) error {
	if len(us) > s.opts.MaxURLs {
		return badf(false, "%d URLs in one call; at most %d", len(us), s.opts.MaxURLs)
	}
	for _, u := range us {
		if len(u) > s.opts.MaxArgLen {
			return badf(false, "a URL longer than %d bytes", s.opts.MaxArgLen)
		}
		if err := checkURL(u); err != nil {
			return badf(true, "%q: %s", u, err.Error())
		}
	}
	return nil
}

// checkURL accepts absolute http(s) URLs without dot segments. The store is
// a key-value lookup, so nothing else could be read anyway; refusing here
// tells a misbehaving client early.
func checkURL(raw string) error {
	raw = strings.TrimSpace(raw)
	if strings.IndexFunc(raw, unicode.IsControl) >= 0 {
		return errors.New("control characters in URL")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.Opaque != "" {
		return errors.New("not an http(s) URL")
	}
	for _, seg := range strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." || seg == "." {
			return errors.New("dot segments in URL path")
		}
	}
	return nil
}

func jsonKey(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
