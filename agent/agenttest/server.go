package agenttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Request is what the scripted server decodes of a chat request.
type Request struct {
	Model    string `json:"model"`
	Messages []struct {
		Role      string `json:"role"`
		Content   string `json:"content"`
		ToolCalls []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
		ToolCallID string `json:"tool_call_id"`
	} `json:"messages"`
	Tools       []json.RawMessage `json:"tools"`
	Temperature float32           `json:"temperature"`
	TopP        float32           `json:"top_p"`
	Seed        *int              `json:"seed"`
}

// Action is one scripted answer of the server.
type Action struct {
	Content   string
	ToolCalls [][2]string   // name, arguments
	Status    int           // an error status instead of a reply
	Hang      time.Duration // sleep before answering (past the client's timeout)
	NoChoices bool          // a 200 whose choices are empty
}

// Server is an OpenAI-compatible chat endpoint that answers from a script:
// Actions in order, then Func (when set) or a final answer.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	Actions  []Action
	Func     func(r *Request) Action
	Requests []*Request
}

// NewServer starts a scripted server, closed at cleanup. Its URL + "/v1" is
// the base URL.
func NewServer(tb testing.TB, actions ...Action) *Server {
	s := &Server{Actions: actions}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	tb.Cleanup(s.Close)
	return s
}

// BaseURL is the endpoint's base URL for OpenAI clients.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Count is the number of requests received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.Requests)
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	var req Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.Requests = append(s.Requests, &req)
	var a Action
	switch {
	case len(s.Actions) > 0:
		a, s.Actions = s.Actions[0], s.Actions[1:]
	case s.Func != nil:
		a = s.Func(&req)
	default:
		a = Action{Content: "<answer>done</answer>"}
	}
	s.mu.Unlock()
	if a.Hang > 0 {
		select {
		case <-time.After(a.Hang):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if a.Status != 0 {
		w.WriteHeader(a.Status)
		fmt.Fprintf(w, `{"error":{"message":"scripted %d","type":"server_error","code":null}}`, a.Status)
		return
	}
	if a.NoChoices {
		fmt.Fprint(w, `{"id": "chatcmpl-test", "object": "chat.completion", "created": 0, "choices": []}`)
		return
	}
	msg := map[string]any{"role": "assistant", "content": a.Content}
	finish := "stop"
	if len(a.ToolCalls) > 0 {
		var tcs []map[string]any
		for i, tc := range a.ToolCalls {
			tcs = append(tcs, map[string]any{"id": fmt.Sprintf("call_%d_%d", len(req.Messages), i), "type": "function",
				"function": map[string]string{"name": tc[0], "arguments": tc[1]}})
		}
		msg["tool_calls"] = tcs
		finish = "tool_calls"
	}
	n := 0
	for _, m := range req.Messages {
		n += (len(m.Content) + 3) / 4
	}
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": req.Model,
		"choices": []map[string]any{{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]int{"prompt_tokens": n, "completion_tokens": (len(a.Content) + 3) / 4, "total_tokens": n + (len(a.Content)+3)/4},
	})
}
