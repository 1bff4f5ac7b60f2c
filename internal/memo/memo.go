// Package memo keeps the results of pure string functions that are called
// again and again on the same few thousand names: folding a cell's text,
// the key an answer's name is compared by.
package memo

import "sync"

// limit is how many results a Func keeps before it starts afresh: a
// store's distinct names fit many times over, and memory stays bounded
// when a long run reads many stores.
const limit = 1 << 18

// Func is f with its results kept. It is safe for concurrent use. f must
// be pure: the same argument always gives the same result, which callers
// must not change.
type Func[V any] struct {
	f  func(string) V
	mu sync.Mutex
	m  map[string]V
}

// New returns f with its results kept.
func New[V any](f func(string) V) *Func[V] { return &Func[V]{f: f} }

// Get is f(s).
func (c *Func[V]) Get(s string) V {
	c.mu.Lock()
	v, ok := c.m[s]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = c.f(s)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= limit {
		c.m = make(map[string]V)
	}
	c.m[s] = v
	c.mu.Unlock()
	return v
}
