package web

import (
	"errors"
	"strings"
	"sync"

	"github.com/leaper-dev/leaper/graph"
)

// A search hit shows the entities of its page whose names its title or
// snippet contains as whole words. Pages list up to thousands of
// entities, so each page's names are prepared once (lower-cased, indexed
// by first word) and kept in a bounded cache: matching a snippet then
// costs one lookup per word of the snippet.

// pageNames is a page's shown entities prepared for matching.
type pageNames struct {
	ids    []uint32
	lower  []string
	byWord map[string][]int32 // first word of a name -> its indices
	other  []int32            // names that do not start with a word byte
}

func newPageNames(ents []graph.Shown) *pageNames {
	p := &pageNames{byWord: map[string][]int32{}}
	for _, e := range ents {
		if len(e.Name) < 2 {
			continue
		}
		i := int32(len(p.ids))
		low := strings.ToLower(e.Name)
		p.ids = append(p.ids, e.ID)
		p.lower = append(p.lower, low)
		if w := leadingWord(low); w != "" {
			p.byWord[w] = append(p.byWord[w], i)
		} else {
			p.other = append(p.other, i)
		}
	}
	return p
}

// leadingWord is the run of word bytes s starts with.
func leadingWord(s string) string {
	n := 0
	for n < len(s) && isWordByte(s[n]) {
		n++
	}
	return s[:n]
}

// match returns, in page order, the entities whose lower-cased name occurs
// in low (lower-cased text) at word boundaries: what containsWord finds.
// A name that starts with a word byte can only occur where a word of low
// starts, and that word is then the name's first word.
func (p *pageNames) match(low string) []uint32 {
	var hit []bool
	mark := func(i int32) {
		if hit == nil {
			hit = make([]bool, len(p.ids))
		}
		hit[i] = true
	}
	for a := 0; a < len(low); {
		if !isWordByte(low[a]) {
			a++
			continue
		}
		w := leadingWord(low[a:])
		for _, i := range p.byWord[w] {
			name := p.lower[i]
			b := a + len(name)
			if strings.HasPrefix(low[a:], name) && (b == len(low) || !isWordByte(low[b])) {
				mark(i)
			}
		}
		a += len(w)
	}
	for _, i := range p.other {
		if containsWord(low, p.lower[i]) {
			mark(i)
		}
	}
	var out []uint32
	for i, h := range hit {
		if h {
			out = append(out, p.ids[i])
		}
	}
	return out
}

// namesCache holds prepared pages, at most namesCacheSize of them; when
// full, an arbitrary page makes room. Safe for concurrent use.
type namesCache struct {
	mu sync.Mutex
	m  map[string]*pageNames
}

const namesCacheSize = 4096

func (c *namesCache) get(g *graph.Store, url string) (*pageNames, error) {
	c.mu.Lock()
	p, ok := c.m[url]
	c.mu.Unlock()
	if ok {
		return p, nil
	}
	ents, err := g.PageEntities(url)
	if err != nil && !errors.Is(err, graph.ErrNotFound) {
		return nil, err
	}
	p = newPageNames(ents)
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*pageNames{}
	}
	if len(c.m) >= namesCacheSize {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[url] = p
	c.mu.Unlock()
	return p, nil
}
