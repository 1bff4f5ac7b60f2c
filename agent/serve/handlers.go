package serve

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/index"
	"github.com/leaper-dev/leaper/web"
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

// RetrieveRequest is the body of POST /retrieve (Search-R1's retriever).
type RetrieveRequest struct {
	Queries      []string `json:"queries"`
	TopK         int      `json:"topk,omitempty"`
	ReturnScores bool     `json:"return_scores"`
}

// Document is a retrieved passage in Search-R1's shape: Contents is
// "\"Title\"\ntext".
type Document struct {
	ID       string `json:"id"`
	Contents string `json:"contents"`
}

// ScoredDocument is a retrieved passage with its BM25 score.
type ScoredDocument struct {
	Document Document `json:"document"`
	Score    float64  `json:"score"`
}

// AccessRequest is the body of POST /access (ASearcher's page access).
type AccessRequest struct {
	URLs []string `json:"urls"`
}

// AccessResult is one page of an /access answer; null when the store does
// not hold the page.
type AccessResult struct {
	URL      string `json:"url"`
	Contents string `json:"contents"`
}

// defaultTopK is Search-R1's retriever default.
const defaultTopK = 3

func (s *Server) search(r *http.Request, body []byte) ([]byte, bool, error) {
	var a struct {
		Query      json.RawMessage `json:"query"`
		FilterYear *int            `json:"filter_year"`
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, false, badf(true, "invalid request: %s", jsonMsg(err))
	}
	qs, err := strOrList(a.Query, "query")
	if err != nil {
		return nil, false, err
	}
	if err := s.checkStrings(qs, "query", s.opts.MaxQueries); err != nil {
		return nil, false, err
	}
	year := 0
	if a.FilterYear != nil {
		year = *a.FilterYear
	}
	key := "search|" + strconv.Itoa(year) + "|" + jsonKey(qs)
	return s.cached(r.Context(), "search", key, func(ctx context.Context) (any, error) {
		o, err := s.w.Search(ctx, qs, year)
		return normalize(o), err
	})
}

func (s *Server) visit(r *http.Request, body []byte) ([]byte, bool, error) {
	var a struct {
		URL  json.RawMessage `json:"url"`
		Goal *string         `json:"goal"`
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, false, badf(true, "invalid request: %s", jsonMsg(err))
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
		o, err := s.w.Visit(ctx, us, goal)
		return normalize(o), err
	})
}

func (s *Server) retrieve(r *http.Request, body []byte) ([]byte, bool, error) {
	var a struct {
		Queries      json.RawMessage `json:"queries"`
		TopK         *int            `json:"topk"`
		ReturnScores bool            `json:"return_scores"`
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, false, badf(false, "invalid request: %s", jsonMsg(err))
	}
	qs, err := strOrList(a.Queries, "queries")
	if err != nil {
		err.(*badRequest).obs = false
		return nil, false, err
	}
	if err := s.checkStrings(qs, "queries", s.opts.MaxQueries); err != nil {
		err.(*badRequest).obs = false
		return nil, false, err
	}
	k := defaultTopK
	if a.TopK != nil && *a.TopK != 0 {
		k = *a.TopK
	}
	if k < 0 || k > s.opts.MaxTopK {
		return nil, false, badf(false, `"topk" must be within 1..%d`, s.opts.MaxTopK)
	}
	key := "retrieve|" + strconv.Itoa(k) + "|" + strconv.FormatBool(a.ReturnScores) + "|" + jsonKey(qs)
	return s.cached(r.Context(), "retrieve", key, func(ctx context.Context) (any, error) {
		var scored [][]ScoredDocument
		var plain [][]Document
		for _, q := range qs {
			hits, err := s.w.Store().Index().Search(ctx, q, index.SearchOptions{K: k})
			if err != nil {
				return nil, err
			}
			sd := make([]ScoredDocument, len(hits))
			pd := make([]Document, len(hits))
			for i, h := range hits {
				pd[i] = Document{ID: h.URL, Contents: `"` + h.Title + "\"\n" + h.Snippet}
				sd[i] = ScoredDocument{Document: pd[i], Score: h.Score}
			}
			scored, plain = append(scored, sd), append(plain, pd)
		}
		if a.ReturnScores {
			return map[string]any{"result": scored}, nil
		}
		return map[string]any{"result": plain}, nil
	})
}

func (s *Server) access(r *http.Request, body []byte) ([]byte, bool, error) {
	var a struct {
		URLs json.RawMessage `json:"urls"`
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, false, badf(false, "invalid request: %s", jsonMsg(err))
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
			p, err := s.w.Store().Graph().Page(cu)
			if errors.Is(err, graph.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			out[i] = &AccessResult{URL: u, Contents: graph.PageText(p)}
		}
		return map[string]any{"result": out}, nil
	})
}

// cached answers from the cache, or runs fn in a worker slot and caches
// its encoded answer.
func (s *Server) cached(ctx context.Context, endpoint, key string, fn func(context.Context) (any, error)) ([]byte, bool, error) {
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

// jsonMsg shortens encoding/json's messages for clients.
func jsonMsg(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return "field " + strconv.Quote(te.Field) + " must be " + te.Type.String()
		}
		return "body must be a JSON object"
	}
	return err.Error()
}
