package agent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
)

// Cache modes.
const (
	CacheOff    = "off"
	CacheRecord = "record" // answer from the file when it can, else ask and append
	CacheReplay = "replay" // answer from the file only; a miss is ErrCacheMiss
)

// Cache is a ChatModel that records every response of an inner model in a
// JSONL file keyed by the request hash ([ChatRequest.Key]) and can replay
// them without the endpoint.
type Cache struct {
	inner  ChatModel
	mode   string
	mu     sync.Mutex
	m      map[string]*ChatResponse
	f      *os.File
	w      *bufio.Writer
	closed bool
}

type cacheLine struct {
	Key      string        `json:"key"`
	Model    string        `json:"model"`
	Turn     int           `json:"turn"` // messages in the request, to help reading the file
	Response *ChatResponse `json:"response"`
}

// OpenCache opens (creating in record mode) a cache file. inner may be nil
// in replay mode.
func OpenCache(path, mode string, inner ChatModel) (*Cache, error) {
	c := &Cache{inner: inner, mode: mode, m: map[string]*ChatResponse{}}
	switch mode {
	case CacheRecord, CacheReplay:
	default:
		return nil, fmt.Errorf("agent: cache mode %q (want record or replay)", mode)
	}
	b, err := os.ReadFile(path)
	if err != nil && !(os.IsNotExist(err) && mode == CacheRecord) {
		return nil, fmt.Errorf("agent: open cache: %w", err)
	}
	for i, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var l cacheLine
		if err := json.Unmarshal(line, &l); err != nil || l.Response == nil {
			if i == bytes.Count(b, []byte("\n")) {
				break // a torn last line from an interrupted run
			}
			return nil, fmt.Errorf("agent: cache %s:%d: bad line", path, i+1)
		}
		c.m[l.Key] = l.Response
	}
	if mode == CacheRecord {
		if inner == nil {
			return nil, ErrNoModel
		}
		if c.f, err = os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
			return nil, fmt.Errorf("agent: open cache: %w", err)
		}
		if len(b) > 0 && b[len(b)-1] != '\n' {
			c.f.Write([]byte("\n"))
		}
		c.w = bufio.NewWriter(c.f)
	}
	return c, nil
}

// Len is the number of cached responses.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Chat answers from the cache, or (record mode) asks the inner model and
// records the response.
func (c *Cache) Chat(ctx context.Context, req *ChatRequest) (*ChatResponse, error) {
	key := req.Key()
	c.mu.Lock()
	r, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		cp := *r
		return &cp, nil
	}
	if c.mode == CacheReplay {
		return nil, fmt.Errorf("%w: request %s (%d messages)", ErrCacheMiss, key[:16], len(req.Messages))
	}
	r, err := c.inner.Chat(ctx, req)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(cacheLine{Key: key, Model: req.Model, Turn: len(req.Messages), Response: r})
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = r
	c.w.Write(append(b, '\n'))
	if err := c.w.Flush(); err != nil {
		return nil, fmt.Errorf("agent: write cache: %w", err)
	}
	return r, nil
}

// Close flushes and closes the file. Closing twice returns ErrClosed.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return ErrClosed
	}
	c.closed = true
	if c.f == nil {
		return nil // replay: no file open
	}
	err := c.w.Flush()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	c.f = nil
	return err
}
