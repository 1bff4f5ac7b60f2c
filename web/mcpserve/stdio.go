package mcpserve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxFrame bounds one inbound message, as the SDK's own stdio transport
// does (mcp.DefaultMaxLineLength).
const maxFrame = mcp.DefaultMaxLineLength

// RunStdio serves one session on stdin and stdout until it ends or ctx is
// done.
func (s *Server) RunStdio(ctx context.Context) error {
	return s.RunIO(ctx, os.Stdin, os.Stdout)
}

// RunIO serves one session over a stream of newline-delimited JSON-RPC
// messages, as RunStdio does over stdin and stdout.
//
// The SDK's stream transport ends the session at the first line that is not
// a JSON-RPC message (not JSON, an empty batch, a bad id or version), and
// an MCP host then loses the tools until it restarts the server. A guard
// in front of it reads each message first, answers one that is not a
// message with JSON-RPC's own error (parse error or invalid request, with
// the request's id when it has one), and passes the SDK only messages it
// will read; the SDK still does all of the protocol.
func (s *Server) RunIO(ctx context.Context, r io.Reader, w io.Writer) error {
	out := &lockedWriter{w: w}
	in := &guard{r: bufio.NewReaderSize(r, 64<<10), out: out}
	err := s.s.Run(ctx, codeTransport{&mcp.IOTransport{Reader: io.NopCloser(in), Writer: out}})
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// lockedWriter serialises whole writes: the SDK's messages (each one Write
// with its newline) and the guard's error answers.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// guard passes on the messages of r, one a line, and answers the rest.
type guard struct {
	r       *bufio.Reader
	out     io.Writer
	pending []byte // a checked message and its newline, not yet read
	eof     bool
}

func (g *guard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		if g.eof {
			return 0, io.EOF
		}
		if err := g.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// next reads one message (a line; or lines, while they are the start of a
// JSON value) and either queues it or answers it with an error.
func (g *guard) next() error {
	var buf []byte
	for {
		line, over, err := g.line()
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		g.eof = errors.Is(err, io.EOF)
		if over {
			return g.answer(nil, jsonrpc.CodeParseError, fmt.Sprintf("Parse error: message over %d bytes", maxFrame))
		}
		buf = append(buf, line...)
		if len(bytes.TrimSpace(buf)) == 0 {
			if g.eof {
				return nil
			}
			buf = buf[:0]
			continue
		}
		var raw json.RawMessage
		dec := json.NewDecoder(bytes.NewReader(buf))
		switch err := dec.Decode(&raw); {
		case errors.Is(err, io.ErrUnexpectedEOF) && !g.eof && len(buf) < maxFrame:
			buf = append(buf, '\n') // a value over several lines: read on
			continue
		case err != nil:
			return g.answer(nil, jsonrpc.CodeParseError, "Parse error: "+err.Error())
		}
		if rest := bytes.TrimSpace(buf[dec.InputOffset():]); len(rest) > 0 {
			return g.answer(nil, jsonrpc.CodeParseError, "Parse error: more than one JSON value on a line")
		}
		if id, err := checkMessage(raw); err != nil {
			return g.answer(id, jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
		}
		g.pending = append(append(g.pending, raw...), '\n')
		return nil
	}
}

// line reads up to and without a newline; over reports a line longer than
// maxFrame, which is read to its end and dropped.
func (g *guard) line() (line []byte, over bool, err error) {
	for {
		chunk, err := g.r.ReadSlice('\n')
		if !over {
			line = append(line, chunk...)
			if len(line) > maxFrame {
				line, over = nil, true
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), over, err
	}
}

// checkMessage reports whether raw is what the SDK reads: a JSON-RPC
// message, or a non-empty batch of them. The id it returns, when raw has a
// usable one (a string or a number), is for the error answer.
func checkMessage(raw json.RawMessage) (id any, err error) {
	if raw[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(raw, &batch); err != nil {
			return nil, err
		}
		if len(batch) == 0 {
			return nil, errors.New("empty batch")
		}
		for _, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	if _, err := jsonrpc.DecodeMessage(raw); err != nil {
		var req struct {
			ID any `json:"id"`
		}
		json.Unmarshal(raw, &req)
		switch req.ID.(type) {
		case string, float64:
			return req.ID, err
		}
		return nil, err
	}
	return nil, nil
}

// answer writes a JSON-RPC error response; id nil is written null, as
// JSON-RPC asks when the request's id cannot be told.
func (g *guard) answer(id any, code int64, msg string) error {
	type wireError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string    `json:"jsonrpc"`
		ID      any       `json:"id"`
		Error   wireError `json:"error"`
	}{"2.0", id, wireError{code, msg}})
	if err != nil {
		return err
	}
	_, err = g.out.Write(append(b, '\n'))
	return err
}
