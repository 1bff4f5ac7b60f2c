package serve

import (
	"container/list"
	"hash/maphash"
	"sync"
)

// cache is a bounded LRU of encoded responses, split into shards so that
// concurrent requests rarely wait on the same mutex. Capacity is spread over
// the shards; each evicts its own least recently used entry.
type cache struct {
	seed   maphash.Seed
	shards []cacheShard
}

type cacheShard struct {
	mu    sync.Mutex
	cap   int
	ll    *list.List // front: most recent
	items map[string]*list.Element
}

type cacheEntry struct {
	key string
	val []byte
}

// newCache returns a cache of about n entries, or nil when n <= 0.
func newCache(n int) *cache {
	if n <= 0 {
		return nil
	}
	ns := 16
	for ns > 1 && n/ns < 8 {
		ns /= 2
	}
	c := &cache{seed: maphash.MakeSeed(), shards: make([]cacheShard, ns)}
	for i := range c.shards {
		per := n / ns
		if i < n%ns {
			per++
		}
		c.shards[i] = cacheShard{cap: per, ll: list.New(), items: map[string]*list.Element{}}
	}
	return c
}

func (c *cache) shard(key string) *cacheShard {
	return &c.shards[maphash.String(c.seed, key)%uint64(len(c.shards))]
}

func (c *cache) get(key string) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	s := c.shard(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.items[key]
	if !ok {
		return nil, false
	}
	s.ll.MoveToFront(e)
	return e.Value.(*cacheEntry).val, true
}

func (c *cache) put(key string, val []byte) {
	if c == nil {
		return
	}
	s := c.shard(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.items[key]; ok {
		e.Value.(*cacheEntry).val = val
		s.ll.MoveToFront(e)
		return
	}
	s.items[key] = s.ll.PushFront(&cacheEntry{key, val})
	for s.ll.Len() > s.cap {
		old := s.ll.Back()
		s.ll.Remove(old)
		delete(s.items, old.Value.(*cacheEntry).key)
	}
}

func (c *cache) len() int {
	if c == nil {
		return 0
	}
	n := 0
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		n += s.ll.Len()
		s.mu.Unlock()
	}
	return n
}
