package serve

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestRLLMContentTitle reads a single-query answer as rLLM's
// LocalRetrievalTool (examples/fully_async/deepresearch/tool.py, fixture
// rllm-deepresearch.json) does: _extract_content takes the title from a
// leading quoted line of "content", and the original style shows content
// raw, so the title must be there.
func TestRLLMContentTitle(t *testing.T) {
	f := newFixture(t, nil)
	fx := readFixture(t, "testdata/clients/rllm-deepresearch.json")
	body := fill(string(fx.Body), map[string]string{"query": f.query}, true)
	status, m, _ := f.post(t, fx.Path, body)
	if status != http.StatusOK {
		t.Fatalf("status %d", status)
	}
	results, _ := m["results"].([]any)
	if len(results) == 0 {
		t.Fatal("no results")
	}
	for i, r := range results {
		res := r.(map[string]any)
		text, _ := res["content"].(string)
		// _extract_content: a leading '"', the title up to the next '"',
		// the text after it with "\n" and quotes stripped.
		if !strings.HasPrefix(text, `"`) {
			t.Fatalf("result %d: content %.60q has no quoted title line", i, text)
		}
		end := strings.Index(text[1:], `"`) + 1
		title, rest := text[1:end], strings.TrimLeft(text[end+1:], "\n \"")
		if title != res["title"] || rest == "" {
			t.Errorf("result %d: rLLM reads title %q (want %q) and text %.40q", i, title, res["title"], rest)
		}
		if res["id"] == "" || res["id"] != res["url"] {
			t.Errorf("result %d: id %v, url %v", i, res["id"], res["url"])
		}
	}
}

// TestDeadLinkOneRoundTrip runs the loop of Tongyi DeepResearch's visit
// tool (inference/tool_visit.py: html_readpage_jina tries jina_readpage 8
// times, each trying GET r.jina.ai/<url> 3 times until a 200) against
// /jina/ for a page the store does not hold: one request, and the text the
// tool then summarises is its own "could not be accessed".
func TestDeadLinkOneRoundTrip(t *testing.T) {
	f := newFixture(t, nil)
	dead := "https://en.wikipedia.org/wiki/Zzqx_not_held"
	requests := 0
	readpage := func() (string, int) {
		for range 8 {
			for range 3 {
				requests++
				resp, err := http.Get(f.ts.URL + "/jina/" + dead)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					return string(b), requests
				}
			}
		}
		return "[visit] Failed to read page.", requests
	}
	text, n := readpage()
	if n != 1 {
		t.Errorf("%d requests for a dead link; want 1", n)
	}
	if !strings.Contains(text, "could not be accessed") || !strings.Contains(text, dead) {
		t.Errorf("dead link reads %q", text)
	}
	req, _ := http.NewRequest(http.MethodGet, f.ts.URL+"/jina/"+dead, nil)
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var j struct {
		Data JinaPage `json:"data"`
	}
	json.NewDecoder(resp.Body).Decode(&j)
	if resp.Header.Get("X-Leaper-Not-Found") != "1" || !j.Data.NotFound || j.Data.URL != dead {
		t.Errorf("JSON form: %+v, header %q", j.Data, resp.Header.Get("X-Leaper-Not-Found"))
	}
}

// TestNotUTF8 sends Latin-1 bodies to the endpoints: 400 naming UTF-8 and
// the offset, never a search for U+FFFD.
func TestNotUTF8(t *testing.T) {
	f := newFixture(t, nil)
	f.srv.Mount("/mcp", http.NotFoundHandler())
	for _, path := range []string{"/search", "/retrieve", "/visit", "/access", "/serper/search", "/get_reward", "/mcp"} {
		body := "{\"query\": \"Caf\xe9\", \"queries\": [\"Caf\xe9\"]}"
		status, m, _ := f.post(t, path, body)
		msg := fmt.Sprint(m["error"])
		if status != http.StatusBadRequest || !strings.Contains(msg, "not UTF-8") || !strings.Contains(msg, "offset 14") {
			t.Errorf("%s: status %d %q; want 400 naming UTF-8 and offset 14", path, status, msg)
		}
	}
}

// TestFilterYearNotInteger: /search says what is wrong with filter_year.
func TestFilterYearNotInteger(t *testing.T) {
	f := newFixture(t, nil)
	for _, y := range []string{`"2005"`, `2005.5`, `"last year"`, `[2005]`} {
		status, m, _ := f.post(t, "/search", `{"query": ["Booker Prize"], "filter_year": `+y+`}`)
		msg := fmt.Sprint(m["error"])
		if status != http.StatusBadRequest || !strings.Contains(msg, "filter_year") || strings.Contains(msg, "query") {
			t.Errorf("filter_year %s: status %d %q %v", y, status, msg, m["observation"])
		}
	}
	if status, _, _ := f.post(t, "/search", `{"query": ["Booker Prize"], "filter_year": 2005}`); status != http.StatusOK {
		t.Errorf("filter_year 2005: status %d", status)
	}
}
