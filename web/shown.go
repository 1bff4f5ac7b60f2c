package web

import (
	"errors"
	"sync"

	"github.com/leaper-dev/leaper/graph"
)

// A search hit shows the entities of its page whose names its title or
// snippet contains as whole words (graph.MatchNames). The index keeps
// each page's names prepared for matching (graph.NamesBlob); for stores
// built before that, the names are read from the graph and prepared here,
// kept in a bounded cache.

// namesCache holds prepared names by page URL, at most namesCacheSize
// pages; when full, an arbitrary page makes room. Safe for concurrent use.
type namesCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

const namesCacheSize = 4096

func (c *namesCache) get(g *graph.Store, url string) ([]byte, error) {
	c.mu.Lock()
	b, ok := c.m[url]
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	ents, err := g.PageEntities(url)
	if err != nil && !errors.Is(err, graph.ErrNotFound) {
		return nil, err
	}
	b = graph.NamesBlob(ents)
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string][]byte{}
	}
	if len(c.m) >= namesCacheSize {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[url] = b
	c.mu.Unlock()
	return b, nil
}
