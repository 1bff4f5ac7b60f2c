package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK refuses a call before initialize with a plain Go error, which
// goes out as JSON-RPC error code 0, a code no client knows. The server
// answers such calls with JSON-RPC's "invalid request" (-32600) instead:
// over stdio by rewriting the SDK's code-0 answers (codeTransport), over
// streamable HTTP before the SDK sees the request (requireSession).

// msgNotInitialized is the error of a call before initialize.
const msgNotInitialized = "the session is not initialized: send initialize (and notifications/initialized) first"

// codeTransport gives the SDK's answers that carry a plain error (code 0)
// a JSON-RPC code: invalid request for a call before initialize, internal
// error otherwise.
type codeTransport struct{ mcp.Transport }

func (t codeTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return codeConn{c}, nil
}

type codeConn struct{ mcp.Connection }

func (c codeConn) Write(ctx context.Context, m jsonrpc.Message) error {
	if r, ok := m.(*jsonrpc.Response); ok && r.Error != nil {
		var we *jsonrpc.Error
		if !errors.As(r.Error, &we) || we.Code == 0 {
			msg := r.Error.Error()
			code := int64(jsonrpc.CodeInternalError)
			if strings.Contains(msg, "during session initialization") {
				code, msg = jsonrpc.CodeInvalidRequest, msgNotInitialized+" ("+msg+")"
			}
			r.Error = &jsonrpc.Error{Code: code, Message: msg}
		}
	}
	return c.Connection.Write(ctx, m)
}

// requireSession answers a POST without an Mcp-Session-Id that is a call
// other than initialize (and not of the sessionless protocol, whose
// requests carry their protocol version in _meta) with HTTP 400, as the
// MCP specification says a server that requires sessions should, and a
// JSON-RPC invalid request error with the call's id.
func requireSession(h http.Handler, maxBody int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
			h.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			http.Error(w, "reading request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 || m.Method == "" || m.Method == "initialize" ||
			m.Params.Meta["io.modelcontextprotocol/protocolVersion"] != nil {
			h.ServeHTTP(w, r)
			return
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID,
			"error": map[string]any{"code": jsonrpc.CodeInvalidRequest, "message": msgNotInitialized + " (no Mcp-Session-Id)"}})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write(b)
	})
}
