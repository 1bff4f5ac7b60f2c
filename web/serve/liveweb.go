package serve

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/web"
)

// SerperRequest is the body of POST /serper/search, as Serper's
// google.serper.dev/search takes it: q, num (default 10) and page (from 1).
// A JSON list of them is a batch, answered by a list.
type SerperRequest struct {
	Q    string `json:"q"`
	Num  int    `json:"num,omitempty"`
	Page int    `json:"page,omitempty"`
}

// SerperResponse is Serper's answer shape; clients read organic[].title,
// link and snippet. Entities (leaper's addition) are what the titles and
// snippets show, as /search attributes them.
type SerperResponse struct {
	SearchParameters SerperParams    `json:"searchParameters"`
	Organic          []SerperOrganic `json:"organic"`
	Entities         []uint32        `json:"entities"`
	Credits          int             `json:"credits"`
}

// SerperParams echoes the request, as Serper does.
type SerperParams struct {
	Q      string `json:"q"`
	Type   string `json:"type"`
	Num    int    `json:"num"`
	Page   int    `json:"page"`
	Engine string `json:"engine"`
}

// SerperOrganic is one organic result.
type SerperOrganic struct {
	Title    string   `json:"title"`
	Link     string   `json:"link"`
	Snippet  string   `json:"snippet"`
	Position int      `json:"position"`
	Entities []uint32 `json:"entities"`
}

// JinaPage is a page as Jina Reader's JSON answer carries it (Accept:
// application/json), with the entities the page shows.
type JinaPage struct {
	Title    string   `json:"title"`
	URL      string   `json:"url"`
	Content  string   `json:"content"`
	Entities []uint32 `json:"entities"`
	// NotFound is set for a page the store does not hold; Content is
	// then the visit tool's "could not be accessed" evidence.
	NotFound bool `json:"not_found,omitempty"`
}

// defaultSerperNum is Serper's default number of results.
const defaultSerperNum = 10

func (s *Server) serper(r *http.Request, body []byte) ([]byte, bool, error) {
	trim := strings.TrimSpace(string(body))
	var reqs []SerperRequest
	batch := strings.HasPrefix(trim, "[")
	if batch {
		if err := json.Unmarshal(body, &reqs); err != nil {
			return nil, false, badf(false, "invalid request: %s", web.JSONMessage(err))
		}
		if len(reqs) == 0 {
			return nil, false, badf(false, "empty batch")
		}
	} else {
		var one SerperRequest
		if err := json.Unmarshal(body, &one); err != nil {
			return nil, false, badf(false, "invalid request: %s", web.JSONMessage(err))
		}
		reqs = []SerperRequest{one}
	}
	if len(reqs) > s.opts.MaxQueries {
		return nil, false, badf(false, "%d queries in one call; at most %d", len(reqs), s.opts.MaxQueries)
	}
	for i := range reqs {
		q := &reqs[i]
		if strings.TrimSpace(q.Q) == "" {
			return nil, false, badf(false, `missing "q"`)
		}
		if len(q.Q) > s.opts.MaxArgLen {
			return nil, false, badf(false, "a query longer than %d bytes", s.opts.MaxArgLen)
		}
		if q.Num == 0 {
			q.Num = defaultSerperNum
		}
		if q.Page == 0 {
			q.Page = 1
		}
		// Each factor is bounded before the product, which could
		// overflow ("page": 9223372036854775807).
		if q.Num < 0 || q.Page < 0 || q.Num > s.opts.MaxTopK || q.Page > s.opts.MaxTopK || q.Num*q.Page > s.opts.MaxTopK {
			return nil, false, badf(false, `"num" × "page" must be within 1..%d`, s.opts.MaxTopK)
		}
	}
	key := "serper|" + strconv.FormatBool(batch) + "|" + jsonKey(reqs)
	return s.cached(r.Context(), "serper/search", key, func(ctx context.Context) (any, error) {
		out := make([]*SerperResponse, len(reqs))
		for i, q := range reqs {
			var hits []web.Hit
			err := s.eval.do(ctx, func() (err error) {
				hits, err = webOf(ctx).Hits(ctx, q.Q, q.Num*q.Page, 0)
				return err
			})
			if err != nil {
				return nil, err
			}
			res := &SerperResponse{
				SearchParameters: SerperParams{Q: q.Q, Type: "search", Num: q.Num, Page: q.Page, Engine: "leaper"},
				Organic:          []SerperOrganic{},
				Credits:          1,
			}
			seen := map[uint32]bool{}
			from := (q.Page - 1) * q.Num
			for j := from; j < len(hits); j++ {
				h := hits[j]
				ents := h.Entities
				if ents == nil {
					ents = []uint32{}
				}
				for _, id := range ents {
					seen[id] = true
				}
				res.Organic = append(res.Organic, SerperOrganic{Title: h.Title, Link: h.URL, Snippet: h.Snippet, Position: j - from + 1, Entities: ents})
			}
			res.Entities = sortedIDs(seen)
			out[i] = res
		}
		if batch {
			return out, nil
		}
		return out[0], nil
	})
}

// jinaTarget takes the page URL out of a /jina/<url> request: the raw
// request URI after the prefix (so the page's own query string and "//"
// survive), percent-decoded when the client encoded it, with "https:/"
// (a slash eaten by a proxy) repaired.
func jinaTarget(r *http.Request) string {
	raw := strings.TrimPrefix(r.RequestURI, "/jina/")
	if raw == r.RequestURI {
		raw = strings.TrimPrefix(r.URL.Path, "/jina/")
	}
	if !strings.Contains(raw, "://") {
		if u, err := url.PathUnescape(raw); err == nil {
			raw = u
		}
	}
	for _, sch := range []string{"https:/", "http:/"} {
		if strings.HasPrefix(raw, sch) && !strings.HasPrefix(raw, sch+"/") {
			raw = sch + "/" + raw[len(sch):]
		}
	}
	return raw
}

func (s *Server) jina(r *http.Request, _ []byte) ([]byte, bool, error) {
	u := jinaTarget(r)
	if u == "" {
		return nil, false, badf(false, "no URL after /jina/")
	}
	if len(u) > s.opts.MaxArgLen {
		return nil, false, badf(false, "a URL longer than %d bytes", s.opts.MaxArgLen)
	}
	if err := checkURL(u); err != nil {
		return nil, false, badf(false, "%q: %s", u, err.Error())
	}
	key := "jina|" + u
	return s.cached(r.Context(), "jina", key, func(ctx context.Context) (any, error) {
		p, err := webOf(ctx).Page(u)
		if errors.Is(err, web.ErrNoPage) {
			// 200 with the visit tool's own words: Tongyi's visit tool
			// retries any other status 24 times (3 tries × 8 rounds) before
			// it gives up with the same words.
			return &JinaPage{URL: u, Content: web.MsgNoAccessEvid, Entities: []uint32{}, NotFound: true}, nil
		}
		if err != nil {
			return nil, err
		}
		return &JinaPage{Title: p.Title, URL: p.URL, Content: graph.PageText(p), Entities: nonNil(web.PageEntities(p))}, nil
	})
}

// renderJina writes a /jina answer as Jina Reader does: JSON
// ({"code":200,"status":20000,"data":{...}}) when the client asks for it,
// else the text form (Title, URL Source, Markdown Content). The entities
// go in the X-Leaper-Entities header (comma-separated ids) either way.
func renderJina(rw http.ResponseWriter, r *http.Request, out []byte) {
	var p JinaPage
	if err := json.Unmarshal(out, &p); err != nil {
		writeError(rw, http.StatusInternalServerError, "internal error", nil)
		return
	}
	ids := make([]string, len(p.Entities))
	for i, id := range p.Entities {
		ids[i] = strconv.FormatUint(uint64(id), 10)
	}
	rw.Header().Set("X-Leaper-Entities", strings.Join(ids, ","))
	if p.NotFound {
		rw.Header().Set("X-Leaper-Not-Found", "1")
	}
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		b, _ := encode(map[string]any{"code": 200, "status": 20000, "data": p})
		writeBody(rw, http.StatusOK, "application/json; charset=utf-8", b)
		return
	}
	writeBody(rw, http.StatusOK, "text/plain; charset=utf-8", []byte(web.ReaderText(p.Title, p.URL, p.Content)))
}

func sortedIDs(m map[uint32]bool) []uint32 {
	out := make([]uint32, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func nonNil(ids []uint32) []uint32 {
	if ids == nil {
		return []uint32{}
	}
	return ids
}
