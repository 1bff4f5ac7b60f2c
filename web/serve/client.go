package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/leaper-dev/leaper/web"
)

// Client calls a leaper server. Its Call has the shape of the agent's
// tool backend, so a rollout can run against a remote store by swapping a
// *web.Web for a *Client.
type Client struct {
	base  string
	token string
	// HTTP is the client requests go through; NewClient sets one with a timeout
	// and enough idle connections for a few dozen concurrent callers.
	HTTP *http.Client
}

// NewClient returns a client of the server at baseURL ("http://127.0.0.1:8080");
// token may be empty.
func NewClient(baseURL, token string) *Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 256
	tr.MaxIdleConnsPerHost = 256
	return &Client{
		base:  strings.TrimRight(baseURL, "/"),
		token: token,
		HTTP:  &http.Client{Transport: tr, Timeout: 2 * time.Minute},
	}
}

// Call runs a tool ("search" or "visit") with the agent's JSON arguments.
// Like web.Web.Call, arguments the tool rejects (malformed, an empty
// query, a URL that is not http(s)) give the tool's own text, not an error:
// the server answers 400 with that text and Call returns it.
func (c *Client) Call(ctx context.Context, tool string, args json.RawMessage) (*web.Observation, error) {
	if tool != "search" && tool != "visit" {
		return nil, fmt.Errorf("serve: unknown tool %q", tool)
	}
	var obs web.Observation
	err := c.post(ctx, "/"+tool, []byte(args), &obs)
	var eb *errorWithObs
	if errors.As(err, &eb) && eb.obs != nil {
		return eb.obs, nil
	}
	if err != nil {
		return nil, err
	}
	return &obs, nil
}

// Search runs queries, as web.Web.Search does.
func (c *Client) Search(ctx context.Context, queries []string, filterYear int) (*web.Observation, error) {
	req := SearchRequest{Query: queries}
	if filterYear != 0 {
		req.FilterYear = &filterYear
	}
	var obs web.Observation
	if err := c.postJSON(ctx, "/search", req, &obs); err != nil {
		return nil, err
	}
	return &obs, nil
}

// Visit reads pages for a goal, as web.Web.Visit does.
func (c *Client) Visit(ctx context.Context, urls []string, goal string) (*web.Observation, error) {
	var obs web.Observation
	if err := c.postJSON(ctx, "/visit", VisitRequest{URL: urls, Goal: goal}, &obs); err != nil {
		return nil, err
	}
	return &obs, nil
}

// Retrieve runs Search-R1's retriever call: topk passages per query.
func (c *Client) Retrieve(ctx context.Context, queries []string, topk int) ([][]ScoredDocument, error) {
	var out struct {
		Result [][]ScoredDocument `json:"result"`
	}
	yes := true
	err := c.postJSON(ctx, "/retrieve", RetrieveRequest{Queries: queries, TopK: topk, ReturnScores: &yes}, &out)
	return out.Result, err
}

// Access fetches pages' full text, as ASearcher's access call; a page the
// store does not hold is nil.
func (c *Client) Access(ctx context.Context, urls []string) ([]*AccessResult, error) {
	var out struct {
		Result []*AccessResult `json:"result"`
	}
	err := c.postJSON(ctx, "/access", AccessRequest{URLs: urls}, &out)
	return out.Result, err
}

// PostJSON posts req as JSON to path, an endpoint the server mounts
// (Server.MountEndpoint: /reward, whose client is in
// agent/eval/rewardhttp), and decodes the answer into out. An answer other
// than 200 is an *Error.
func (c *Client) PostJSON(ctx context.Context, path string, req, out any) error {
	return c.postJSON(ctx, path, req, out)
}

// Stats fetches the server's counters.
func (c *Client) Stats(ctx context.Context) (*Stats, error) {
	var st Stats
	if err := c.do(ctx, http.MethodGet, "/stats", nil, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// SwitchStore asks the server to answer from the store in dir (POST
// /admin/store; see Server.Switch). Send it to each replica directly, not
// through a balancer.
func (c *Client) SwitchStore(ctx context.Context, dir string) (*SwitchResult, error) {
	var res SwitchResult
	if err := c.postJSON(ctx, "/admin/store", SwitchRequest{Dir: dir}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Health reports whether the server answers.
func (c *Client) Health(ctx context.Context) error {
	return c.do(ctx, http.MethodGet, "/healthz", nil, nil)
}

func (c *Client) postJSON(ctx context.Context, path string, req, out any) error {
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	return c.post(ctx, path, b, out)
}

func (c *Client) post(ctx context.Context, path string, body []byte, out any) error {
	return c.do(ctx, http.MethodPost, path, body, out)
}

// errorWithObs is an *Error that carries the tool's own answer.
type errorWithObs struct {
	err *Error
	obs *web.Observation
}

func (e *errorWithObs) Error() string { return e.err.Error() }
func (e *errorWithObs) Unwrap() error { return e.err }

func (c *Client) do(ctx context.Context, method, path string, body []byte, out any) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		var eb errorBody
		if json.Unmarshal(data, &eb) != nil || eb.Error == "" {
			eb.Error = strings.TrimSpace(string(data))
		}
		e := &Error{Status: resp.StatusCode, Msg: eb.Error}
		if eb.Observation != nil {
			return &errorWithObs{e, eb.Observation}
		}
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("serve: decoding %s answer: %w", path, err)
	}
	return nil
}
