package graph

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"unsafe"

	"github.com/dgraph-io/ristretto/v2/z"
)

// entDict is a build's entity dictionary: the id of every entity key and
// each entity's name, type, URL and aliases. A build looks it up for every
// cell and renders every page from it, and it grows with the corpus (1.7
// million entities for 100,000 CSV tables, thirty million for two
// million), so it is a cache of the store's own entity records, bounded
// by a budget in bytes, and it holds no pointers for the garbage collector
// to scan: the records are in an append-only arena, and the maps from key
// hash and id to them are of integers. A map of *Entity in its place made
// the collector most of a build's CPU.
//
// While everything fits, the cache is the whole dictionary and the store
// is never read. Once it has evicted, a key it does not hold is looked up
// in the store (whose writes the Builder has flushed: evict is only called
// then), and ensure loads the records of ids before they are read.
//
// Records never change once written: an entity that gains an alias gets a
// new record. The strings entDict returns point into the arena and stay
// valid for as long as anything holds them.
type entDict struct {
	seed    maphash.Seed
	budget  int
	chunks  [][]byte          // the arena, in chunks of arenaChunk bytes
	used    int               // bytes of records and entries
	byKey   map[uint64]uint32 // key hash -> id
	clash   map[string]uint32 // keys whose hash another cached key has
	byID    idIndex           // id -> its newest record
	store   *Store            // where evicted records are read back from
	evicted bool              // the cache is no longer the whole dictionary
	reads   int               // records read back from the store
	// keys holds the hash of every key in the store, so that a key the
	// cache does not hold is looked up in the store only if it may be
	// there: most keys a build looks up are new.
	keys   keyFilter
	cursor *entityCursor // reads records in id order; nil if not in a pass
}

// arenaChunk is the size of an arena chunk; a record longer than this gets
// a chunk of its own.
const arenaChunk = 4 << 20

// entryCost is what a cached entity costs beside its record: its map
// entry and its share of the id index.
const entryCost = 32

func newEntDict(s *Store, budget int) *entDict {
	return &entDict{seed: maphash.MakeSeed(), budget: budget, store: s,
		byKey: map[uint64]uint32{}, clash: map[string]uint32{}}
}

// idIndex maps ids to arena positions (chunk<<32 | offset, plus one; 0 is
// absent) in pages of idPage ids, made only for the ids cached: the ids
// of a build's recent tables are dense, and its old ones mostly evicted.
type idIndex struct {
	pages [][]uint64
	n     int
}

const idPage = 1 << 16

func (x *idIndex) get(id uint32) (uint64, bool) {
	if i := int(id / idPage); i < len(x.pages) && x.pages[i] != nil {
		if p := x.pages[i][id%idPage]; p != 0 {
			return p - 1, true
		}
	}
	return 0, false
}

func (x *idIndex) set(id uint32, pos uint64) {
	i := int(id / idPage)
	for i >= len(x.pages) {
		x.pages = append(x.pages, nil)
	}
	if x.pages[i] == nil {
		x.pages[i] = make([]uint64, idPage)
	}
	if x.pages[i][id%idPage] == 0 {
		x.n++
	}
	x.pages[i][id%idPage] = pos + 1
}

// each calls fn with every id and position, in id order.
func (x *idIndex) each(fn func(id uint32, pos uint64)) {
	for i, pg := range x.pages {
		for j, p := range pg {
			if p != 0 {
				fn(uint32(i*idPage+j), p-1)
			}
		}
	}
}

// entRec is a view of one record. Records are compact: an entity's key
// is most often a two-byte prefix and its name ("w:Paris", "y:1998"), and
// an article's URL is the one table.URL gives its name; such keys and
// URLs are not stored but derived.
type entRec struct {
	name    string
	prefix  string // the key is prefix+name, when key is ""
	key     string
	url     string
	derived bool // the URL is URL(name)
	typ     Datatype
	aliases int    // how many
	rest    []byte // the aliases, encoded
	size    int    // the record's length in the arena
}

// Record flags.
const (
	recKeyPrefix  = 1 << iota // key = 2-byte prefix + name
	recURLDerived             // url = URL(name)
	recUsed       = 0x80      // read since the last eviction
)

var recTypes = []Datatype{TypeEntity, TypeText, TypeNumber, TypeYear, TypeDate}

func (r *entRec) hasKey(k string) bool {
	if r.key != "" || r.prefix == "" {
		return r.key == k
	}
	return len(k) == len(r.prefix)+len(r.name) && k[:len(r.prefix)] == r.prefix && k[len(r.prefix):] == r.name
}

func (r *entRec) fullKey() string {
	if r.key != "" || r.prefix == "" {
		return r.key
	}
	return r.prefix + r.name
}

func (r *entRec) fullURL() string {
	if r.derived {
		return URL(r.name)
	}
	return r.url
}

func (r *entRec) hasAlias(s string) bool {
	b := r.rest
	for i := 0; i < r.aliases; i++ {
		var a string
		a, b = readStr(b)
		if a == s {
			return true
		}
	}
	return false
}

func (r *entRec) aliasList() []string {
	out := make([]string, 0, r.aliases)
	b := r.rest
	for i := 0; i < r.aliases; i++ {
		var a string
		a, b = readStr(b)
		out = append(out, a)
	}
	return out
}

// readStr reads a length-prefixed string out of an arena record, without
// copying it.
func readStr(b []byte) (string, []byte) {
	n, k := binary.Uvarint(b)
	b = b[k:]
	if n == 0 {
		return "", b
	}
	return unsafe.String(&b[0], int(n)), b[n:]
}

// rec reads the record of a cached entity (a lookup found it, or ensure
// loaded it) and marks it used: flags, type, name, the key or its
// prefix, the URL unless derived, the aliases.
func (d *entDict) rec(id uint32) entRec {
	p, ok := d.byID.get(id)
	if !ok {
		panic("graph: entity dictionary: entity not loaded")
	}
	return recAt(d.chunks, p, true)
}

func recAt(chunks [][]byte, p uint64, mark bool) entRec {
	b := chunks[p>>32][uint32(p):]
	start := len(b)
	var r entRec
	flags, t := b[0], b[1]
	if mark && flags&recUsed == 0 {
		b[0] |= recUsed
	}
	b = b[2:]
	if int(t) < len(recTypes) {
		r.typ = recTypes[t]
	} else {
		var ts string
		ts, b = readStr(b)
		r.typ = Datatype(ts)
	}
	r.name, b = readStr(b)
	if flags&recKeyPrefix != 0 {
		r.prefix = unsafe.String(&b[0], 2)
		b = b[2:]
	} else {
		r.key, b = readStr(b)
	}
	if flags&recURLDerived != 0 {
		r.derived = true
	} else {
		r.url, b = readStr(b)
	}
	r.aliases = int(b[0])
	b = b[1:]
	r.rest = b
	for i := 0; i < r.aliases; i++ {
		_, b = readStr(b)
	}
	r.rest = r.rest[:len(r.rest)-len(b)]
	r.size = start - len(b)
	return r
}

func (d *entDict) name(id uint32) string  { r := d.rec(id); return r.name }
func (d *entDict) url(id uint32) string   { r := d.rec(id); return r.fullURL() }
func (d *entDict) typ(id uint32) Datatype { r := d.rec(id); return r.typ }

// entity returns a copy of a cached entity's record.
func (d *entDict) entity(id uint32) Entity {
	r := d.rec(id)
	e := Entity{ID: id, Key: r.fullKey(), Name: r.name, Type: r.typ, URL: r.fullURL()}
	if r.aliases > 0 {
		e.Aliases = r.aliasList()
	}
	return e
}

// lookup returns the id of a key, caching its record.
func (d *entDict) lookup(key string) (uint32, bool, error) {
	h := maphash.String(d.seed, key)
	if id, ok := d.byKey[h]; ok {
		if r := d.rec(id); r.hasKey(key) {
			return id, true, nil
		}
		if id, ok := d.clash[key]; ok {
			d.rec(id)
			return id, true, nil
		}
	}
	if !d.evicted || !d.keys.has(h) {
		return 0, false, nil
	}
	e, err := d.store.EntityByKey(key)
	if errors.Is(err, ErrNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	d.reads++
	d.put(e)
	return e.ID, true, nil
}

// ensure caches the records of ids, reading those it does not hold from
// the store, so that rec can read them until the next evict.
//
// In a pass over the trees in id order (see startPass), records are read
// in id order as the trees name them: a tree names mostly the entities
// its table added to the store, whose ids follow those of the tables
// before it, so a sequential read takes the place of most lookups.
func (d *entDict) ensure(ids []uint32) error {
	if !d.evicted {
		return nil
	}
	if d.cursor != nil && len(ids) > 0 {
		hi := ids[0]
		for _, id := range ids {
			hi = max(hi, id)
		}
		err := d.cursor.upTo(hi, func(id uint32, v []byte) error {
			if _, ok := d.byID.get(id); ok {
				return nil
			}
			var e Entity
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("graph: entity %d: %w", id, err)
			}
			d.reads++
			d.put(&e)
			// Read ahead, not used: a later eviction may drop it.
			p, _ := d.byID.get(id)
			d.chunks[p>>32][uint32(p)] &^= recUsed
			return nil
		})
		if err != nil {
			return err
		}
	}
	var missing []uint32
	for _, id := range ids {
		if _, ok := d.byID.get(id); !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	es, err := d.store.Entities(missing)
	if err != nil {
		return err
	}
	for _, e := range es {
		if _, ok := d.byID.get(e.ID); !ok {
			d.reads++
			d.put(e)
		}
	}
	return nil
}

// put writes an entity's record, replacing the one cached for its id.
func (d *entDict) put(e *Entity) {
	var flags byte
	if len(e.Key) == 2+len(e.Name) && e.Key[2:] == e.Name {
		flags |= recKeyPrefix
	}
	if e.URL != "" && e.URL == URL(e.Name) {
		flags |= recURLDerived
	}
	t := byte(len(recTypes))
	for i, rt := range recTypes {
		if rt == e.Type {
			t = byte(i)
		}
	}
	size := 3 + 4*binary.MaxVarintLen64 + len(e.Type) + len(e.Name) + len(e.Key) + len(e.URL)
	for _, a := range e.Aliases {
		size += binary.MaxVarintLen64 + len(a)
	}
	var c []byte
	if n := len(d.chunks); n > 0 && cap(d.chunks[n-1])-len(d.chunks[n-1]) >= size {
		c = d.chunks[n-1]
	} else {
		c = make([]byte, 0, max(arenaChunk, size))
		d.chunks = append(d.chunks, c)
	}
	start := len(c)
	pos := uint64(len(d.chunks)-1)<<32 | uint64(start)
	put := func(s string) {
		c = binary.AppendUvarint(c, uint64(len(s)))
		c = append(c, s...)
	}
	c = append(c, flags|recUsed, t)
	if int(t) == len(recTypes) {
		put(string(e.Type))
	}
	put(e.Name)
	if flags&recKeyPrefix != 0 {
		c = append(c, e.Key[:2]...)
	} else {
		put(e.Key)
	}
	if flags&recURLDerived == 0 {
		put(e.URL)
	}
	c = append(c, byte(len(e.Aliases)))
	for _, a := range e.Aliases {
		put(a)
	}
	d.chunks[len(d.chunks)-1] = c
	d.used += len(c) - start
	if _, ok := d.byID.get(e.ID); !ok {
		d.used += entryCost
		d.index(e.Key, e.ID)
	}
	d.byID.set(e.ID, pos)
}

// drop empties the cache, keeping only the filter of the keys, so that
// its memory goes to the stages after the tree pass, which carry entity
// names in their fragments; records are read back if needed again.
func (d *entDict) drop() {
	d.chunks, d.used, d.evicted = nil, 0, true
	d.byKey, d.clash, d.byID = map[uint64]uint32{}, map[string]uint32{}, idIndex{}
}

// startPass starts a pass over the trees in id order: ensure reads
// records ahead in id order until endPass.
func (d *entDict) startPass() {
	if d.evicted && d.cursor == nil {
		d.cursor = d.store.newEntityCursor()
	}
}

func (d *entDict) endPass() {
	if d.cursor != nil {
		d.cursor.close()
		d.cursor = nil
	}
}

// known records that key is in the store, for a dictionary that has not
// cached it (see keys).
func (d *entDict) known(key string) { d.keys.add(maphash.String(d.seed, key)) }

func (d *entDict) index(key string, id uint32) {
	h := maphash.String(d.seed, key)
	d.keys.add(h)
	if _, ok := d.byKey[h]; ok {
		d.clash[key] = id
		return
	}
	d.byKey[h] = id
}

// evict, when the cache is over its budget, keeps the records used since
// the last eviction, up to half the budget, and drops the rest. The
// Builder calls it only when its writes are flushed, so that every dropped
// record can be read back from the store; records read before it must not
// be read after.
func (d *entDict) evict() {
	if d.used <= d.budget {
		return
	}
	old, oldIDs := d.chunks, d.byID
	d.chunks, d.used, d.evicted = nil, 0, true
	d.byKey, d.clash, d.byID = map[uint64]uint32{}, map[string]uint32{}, idIndex{}
	// Newest first: a build's next tables most likely name what its last
	// ones did.
	var keep []uint32
	oldIDs.each(func(id uint32, p uint64) {
		if old[p>>32][uint32(p)]&recUsed != 0 {
			keep = append(keep, id)
		}
	})
	for i := len(keep) - 1; i >= 0 && d.used < d.budget/2; i-- {
		id := keep[i]
		p, _ := oldIDs.get(id)
		r := recAt(old, p, false)
		e := Entity{ID: id, Key: r.fullKey(), Name: r.name, Type: r.typ, URL: r.fullURL()}
		if r.aliases > 0 {
			e.Aliases = r.aliasList()
		}
		d.put(&e)
		// Kept, but unused again until read.
		nb, _ := d.byID.get(id)
		d.chunks[nb>>32][uint32(nb)] &^= recUsed
	}
}

// keyFilter is a Bloom filter of key hashes that grows with them: a
// chain of filters, each twice the size of the one before, the last
// taking the new hashes. Each answers wrongly for about 1 in 200 absent
// keys; at thirty million keys, with six filters, under 3 in 100 lookups
// of new keys go to the store, at under 1.3 bytes a key.
type keyFilter struct {
	fs  []*z.Bloom
	cap int // of the last filter
	n   int // hashes in the last filter
}

const keyFilterFirst = 1 << 20

func (f *keyFilter) has(h uint64) bool {
	for _, b := range f.fs {
		if b.Has(h) {
			return true
		}
	}
	return false
}

func (f *keyFilter) add(h uint64) {
	if f.has(h) {
		return
	}
	if len(f.fs) == 0 || f.n >= f.cap {
		f.cap = max(keyFilterFirst, 2*f.cap)
		f.fs = append(f.fs, z.NewBloomFilter(float64(f.cap), 0.005))
		f.n = 0
	}
	f.fs[len(f.fs)-1].Add(h)
	f.n++
}
