package graph

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"golang.org/x/sync/errgroup"
)

// FormatVersion is the version of the on-disk layout. A store of another
// version is refused rather than misread. It is also the version in a
// store's ID, so it counts changes of what a store answers: 4 keeps 3's
// graph layout beside an index that keys titles (leaper-index/2).
const FormatVersion = 4

// Options configure a Store. A nil *Options means the defaults.
type Options struct {
	// InMemory keeps everything in memory; for tests.
	InMemory bool
	// ReadOnly opens an existing store for reading; several processes may do
	// so at once. Writes return ErrReadOnly.
	ReadOnly bool
	// Logger receives the store's and Badger's messages. Default: discard.
	Logger *slog.Logger
	// SpillBudget is how many bytes of page fragments, and apart from
	// them of bitmap pairs, a build's finalize holds in memory before it
	// writes them, sorted, to a run file in SpillDir. Default 256 MiB
	// (each).
	SpillBudget int
	// EntityCache bounds the bytes of entity records a build holds in
	// memory; past it, records are read back from the store. Default
	// 1 GiB.
	EntityCache int
	// SpillDir is the directory a build's finalize writes its runs in (a
	// new directory inside it, removed at the end). Default: os.TempDir().
	SpillDir string
}

func (o *Options) withDefaults() Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.Logger == nil {
		c.Logger = discardLogger()
	}
	if c.SpillBudget <= 0 {
		c.SpillBudget = 256 << 20
	}
	if c.EntityCache <= 0 {
		c.EntityCache = 1 << 30
	}
	if c.SpillDir == "" {
		c.SpillDir = os.TempDir()
	}
	return c
}

// Manifest describes a store: its format, what it was built from, and what
// it holds. It is rewritten at each step of a build.
type Manifest struct {
	Version int `json:"version"`
	// Complete is false while a build runs and after one was interrupted.
	Complete bool          `json:"complete"`
	Inputs   []InputRecord `json:"inputs"`
	Counts   Counts        `json:"counts"`
	// Digest is the store's content digest (SHA-256 of its pages in URL
	// order, hex; see ComputeDigest), written by Finalize. Empty in stores
	// built before it was recorded.
	Digest string `json:"digest,omitempty"`
}

// InputRecord is one input path given to a build.
type InputRecord struct {
	Path   string `json:"path"`
	Format string `json:"format"`
	Done   bool   `json:"done"`
}

// Counts are the sizes of a store.
type Counts struct {
	Tables    int `json:"tables"` // tables read (distinct)
	Trees     int `json:"trees"`
	Rejected  int `json:"rejected"`
	Skipped   int `json:"skipped"` // input records that could not be parsed
	Entities  int `json:"entities"`
	Relations int `json:"relations"`
	Triples   int `json:"triples"`
	Passages  int `json:"passages"`
	Documents int `json:"documents,omitempty"` // corpus documents (wiki-18 passages, ...)
	Pages     int `json:"pages"`
}

// Store is the entity-relation graph on Badger.
type Store struct {
	db       *badger.DB
	opts     Options
	log      *slog.Logger
	mu       sync.RWMutex
	closed   bool
	manifest Manifest
	fams     families
	rels     atomic.Value // *[]*Relation, for read-only stores
}

// Open opens the store in dir, creating it unless ReadOnly. Readers should
// open with ReadOnly so that several processes can share one store.
func Open(dir string, opts *Options) (*Store, error) {
	o := opts.withDefaults()
	bo := badger.DefaultOptions(dir).
		WithLogger(badgerLogger{o.Logger}).
		WithCompression(options.Snappy).
		WithNumVersionsToKeep(1).
		WithSyncWrites(false).
		WithValueThreshold(512).
		WithNumCompactors(2).
		// Every write is blind (no transaction reads what it writes, and
		// one goroutine writes), so there is nothing to detect; detecting
		// costs a hash and a map entry a key.
		WithDetectConflicts(false).
		// A build writes the whole store at once, and each move of its
		// keys down the levels rewrites them. Letting level 0 gather 16
		// memtables before it is compacted (Badger's default: 5) took 7%
		// and 24% off the CPU of two sts-csv builds, alternated with the
		// default (README, "Badger's level 0"). A finished store may keep
		// up to 16 tables in level 0, which reads check through their
		// Bloom filters; serving measured the same.
		WithNumLevelZeroTables(16).
		WithNumLevelZeroTablesStall(26).
		WithBlockCacheSize(64 << 20).
		WithIndexCacheSize(32 << 20).
		WithMetricsEnabled(false)
	if o.InMemory {
		bo = bo.WithInMemory(true).WithDir("").WithValueDir("")
	} else {
		if o.ReadOnly {
			if _, err := os.Stat(filepath.Join(dir, "MANIFEST")); errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%w: %s", ErrNoStore, dir)
			} else if err != nil {
				// Not "no store": a user told so might rebuild it.
				return nil, fmt.Errorf("graph: open %s: %w", dir, err)
			}
		}
		bo = bo.WithReadOnly(o.ReadOnly)
		if !o.ReadOnly {
			if err := removeEmptyLogs(dir, o.Logger); err != nil {
				return nil, err
			}
		}
	}
	db, err := badger.Open(bo)
	if err != nil {
		if o.ReadOnly && strings.Contains(err.Error(), "not properly closed") {
			return nil, fmt.Errorf("graph: open %s: the last build was interrupted; run leaper build again to recover and finish it: %w", dir, err)
		}
		return nil, fmt.Errorf("graph: open %s: %w", dir, err)
	}
	s := &Store{db: db, opts: o, log: o.Logger}
	if err := s.loadManifest(); err != nil {
		db.Close()
		return nil, err
	}
	if o.ReadOnly && s.manifest.Version == 0 {
		db.Close()
		return nil, fmt.Errorf("%w: %s", ErrNoStore, dir)
	}
	return s, nil
}

func (s *Store) loadManifest() error {
	err := s.db.View(func(txn *badger.Txn) error {
		it, err := txn.Get([]byte{pManifest})
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return it.Value(func(v []byte) error { return json.Unmarshal(v, &s.manifest) })
	})
	if err != nil {
		return fmt.Errorf("graph: read manifest: %w", err)
	}
	if s.manifest.Version != 0 && s.manifest.Version != FormatVersion {
		return fmt.Errorf("%w: %d (this leaper reads %d: build the store again from its sources)", ErrVersion, s.manifest.Version, FormatVersion)
	}
	return nil
}

func (s *Store) saveManifest() error {
	s.manifest.Version = FormatVersion
	b, err := json.Marshal(&s.manifest)
	if err != nil {
		return err
	}
	return s.db.Update(func(txn *badger.Txn) error { return txn.Set([]byte{pManifest}, b) })
}

// Manifest returns a copy of the store's manifest.
func (s *Store) Manifest() Manifest {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m := s.manifest
	m.Inputs = append([]InputRecord(nil), m.Inputs...)
	return m
}

// Close closes the store. It is safe to call twice; the second call returns
// ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.closed = true
	return s.db.Close()
}

// view runs fn in a read transaction, failing on a closed store.
func (s *Store) view(fn func(txn *badger.Txn) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return ErrClosed
	}
	return s.db.View(fn)
}

func getJSON(txn *badger.Txn, key []byte, v any) error {
	it, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	return it.Value(func(b []byte) error {
		if t, ok := v.(*Tree); ok {
			return decodeTree(b, t)
		}
		return json.Unmarshal(b, v)
	})
}

// getBytes returns a copy of the value under key, or ErrNotFound.
func getBytes(txn *badger.Txn, key []byte) ([]byte, error) {
	it, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return it.ValueCopy(nil)
}

func getID(txn *badger.Txn, key []byte) (uint32, error) {
	it, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return 0, ErrNotFound
	}
	if err != nil {
		return 0, err
	}
	var id uint32
	err = it.Value(func(b []byte) error {
		if len(b) != 4 {
			return fmt.Errorf("graph: corrupt id under %q", key)
		}
		id = binary.BigEndian.Uint32(b)
		return nil
	})
	return id, err
}

// Entity returns the entity with the given id.
func (s *Store) Entity(id uint32) (*Entity, error) {
	var e Entity
	err := s.view(func(txn *badger.Txn) error { return getJSON(txn, idKey(pEntity, id), &e) })
	if err != nil {
		return nil, fmt.Errorf("graph: entity %d: %w", id, err)
	}
	return &e, nil
}

// Entities returns the entities with the given ids, in order, in one
// transaction.
func (s *Store) Entities(ids []uint32) ([]*Entity, error) {
	out := make([]*Entity, len(ids))
	err := s.view(func(txn *badger.Txn) error {
		for i, id := range ids {
			var e Entity
			if err := getJSON(txn, idKey(pEntity, id), &e); err != nil {
				return fmt.Errorf("graph: entity %d: %w", id, err)
			}
			out[i] = &e
		}
		return nil
	})
	return out, err
}

// EntityByKey returns the entity with the given identity key ("w:Title",
// "y:1983", ...).
func (s *Store) EntityByKey(key string) (*Entity, error) {
	var e Entity
	err := s.view(func(txn *badger.Txn) error {
		id, err := getID(txn, strKey(pEntKey, key))
		if err != nil {
			return err
		}
		return getJSON(txn, idKey(pEntity, id), &e)
	})
	if err != nil {
		return nil, fmt.Errorf("graph: entity %q: %w", key, err)
	}
	return &e, nil
}

// FindEntities returns the ids of entities whose name or an alias
// normalises to the same text as name, at most limit (0: no limit), sorted.
func (s *Store) FindEntities(name string, limit int) ([]uint32, error) {
	prefix := append([]byte{pName}, NormText(name)...)
	prefix = append(prefix, 0)
	var ids []uint32
	err := s.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().Key()
			ids = append(ids, binary.BigEndian.Uint32(k[len(k)-4:]))
			if limit > 0 && len(ids) >= limit {
				break
			}
		}
		return nil
	})
	return ids, err
}

// Relation returns the relation with the given id.
func (s *Store) Relation(id uint32) (*Relation, error) {
	var r Relation
	err := s.view(func(txn *badger.Txn) error { return getJSON(txn, idKey(pRel, id), &r) })
	if err != nil {
		return nil, fmt.Errorf("graph: relation %d: %w", id, err)
	}
	return &r, nil
}

// Relations returns every relation, by id. The slice is cached and shared:
// callers must not modify it or its relations.
func (s *Store) Relations() ([]*Relation, error) {
	if rs, ok := s.rels.Load().(*[]*Relation); ok && rs != nil {
		return *rs, nil
	}
	rs, err := s.loadRelations()
	if err != nil {
		return nil, err
	}
	if s.opts.ReadOnly {
		s.rels.Store(&rs)
	}
	return rs, nil
}

func (s *Store) loadRelations() ([]*Relation, error) {
	var rs []*Relation
	err := s.scan(pRel, func(_, v []byte) error {
		var r Relation
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		rs = append(rs, &r)
		return nil
	})
	return rs, err
}

// RelationsByName returns the relations with the given standardised name
// (one per datatype and domain), by id.
func (s *Store) RelationsByName(name string) ([]*Relation, error) {
	all, err := s.Relations()
	if err != nil {
		return nil, err
	}
	var rs []*Relation
	for _, r := range all {
		if r.Name == name {
			rs = append(rs, r)
		}
	}
	return rs, nil
}

// Tree returns the tree with the given id.
func (s *Store) Tree(id uint32) (*Tree, error) {
	var t Tree
	err := s.view(func(txn *badger.Txn) error { return getJSON(txn, idKey(pTree, id), &t) })
	if err != nil {
		return nil, fmt.Errorf("graph: tree %d: %w", id, err)
	}
	return &t, nil
}

// EachTree calls fn for every tree in id order. The trees are decoded a
// batch at a time on every core; fn is called from one goroutine.
func (s *Store) EachTree(ctx context.Context, fn func(*Tree) error) error {
	var raw [][]byte
	flush := func() error {
		ts := make([]Tree, len(raw))
		var g errgroup.Group
		step := (len(raw) + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0)
		for lo := 0; lo < len(raw); lo += step {
			hi := min(lo+step, len(raw))
			g.Go(func() error {
				for i := lo; i < hi; i++ {
					if err := decodeTree(raw[i], &ts[i]); err != nil {
						return err
					}
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
		raw = raw[:0]
		for i := range ts {
			if err := fn(&ts[i]); err != nil {
				return err
			}
		}
		return nil
	}
	err := s.scan(pTree, func(_, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		raw = append(raw, slices.Clone(v))
		if len(raw) < eachTreeBatch {
			return nil
		}
		return flush()
	})
	if err != nil {
		return err
	}
	return flush()
}

// eachTreeBatch is how many trees EachTree decodes at once.
const eachTreeBatch = 256

// TreesOfPage returns the ids of the trees of a source page URL.
func (s *Store) TreesOfPage(url string) ([]uint32, error) {
	var ids []uint32
	err := s.scan(pPageTree, func(k, _ []byte) error {
		if string(k[1:len(k)-4]) == url {
			ids = append(ids, binary.BigEndian.Uint32(k[len(k)-4:]))
		}
		return nil
	}, []byte(url)...)
	return ids, err
}

// Page returns the page with the given URL. A URL that names a source
// page in another case, whose passage the build gave that page or
// dropped as the page's own again (see casedPages), gives the source
// page.
func (s *Store) Page(url string) (*Page, error) {
	var p Page
	err := s.view(func(txn *badger.Txn) error {
		err := getJSON(txn, strKey(pPage, url), &p)
		if !errors.Is(err, ErrNotFound) {
			return err
		}
		to, gerr := getBytes(txn, strKey(pCased, url))
		if errors.Is(gerr, ErrNotFound) {
			return err
		}
		if gerr != nil {
			return gerr
		}
		return getJSON(txn, strKey(pPage, string(to)), &p)
	})
	if err != nil {
		return nil, fmt.Errorf("graph: page %q: %w", url, err)
	}
	return &p, nil
}

// PageEntities returns the entities a page shows, with their names, by id.
func (s *Store) PageEntities(url string) ([]Shown, error) {
	var out []Shown
	err := s.view(func(txn *badger.Txn) error { return getJSON(txn, strKey(pPageEnts, url), &out) })
	if err != nil {
		return nil, fmt.Errorf("graph: page entities %q: %w", url, err)
	}
	return out, nil
}

// EachPage calls fn for every page in URL order.
func (s *Store) EachPage(ctx context.Context, fn func(*Page) error) error {
	return s.scan(pPage, func(_, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		var p Page
		if err := json.Unmarshal(v, &p); err != nil {
			return err
		}
		return fn(&p)
	})
}

// Passage returns the passage of an article title, or "" when the corpus
// has none.
func (s *Store) Passage(title string) (string, error) {
	var text string
	err := s.view(func(txn *badger.Txn) error {
		b, err := getBytes(txn, strKey(pPassage, title))
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		text = string(b)
		return err
	})
	return text, err
}

// scan iterates the keys with the given prefix (plus extra) in order.
func (s *Store) scan(prefix byte, fn func(k, v []byte) error, extra ...byte) error {
	p := append([]byte{prefix}, extra...)
	return s.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p, PrefetchValues: true, PrefetchSize: 256})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			if err := item.Value(func(v []byte) error { return fn(item.Key(), v) }); err != nil {
				return err
			}
		}
		return nil
	})
}

// bitmap reads one bitmap; a missing one is empty.
func (s *Store) bitmap(key []byte) (*roaring.Bitmap, error) {
	bm := roaring.New()
	err := s.view(func(txn *badger.Txn) error {
		it, err := txn.Get(key)
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return it.Value(func(v []byte) error {
			_, err := bm.FromUnsafeBytes(append([]byte(nil), v...))
			return err
		})
	})
	return bm, err
}

// RelationsOfTree returns the relations a tree has.
func (s *Store) RelationsOfTree(tree uint32) (*roaring.Bitmap, error) {
	return s.bitmap(bmKey(bTreeRels, tree))
}

// TreesOfRelation returns the trees that have a relation.
func (s *Store) TreesOfRelation(rel uint32) (*roaring.Bitmap, error) {
	return s.bitmap(bmKey(bRelTrees, rel))
}

// TreesOfEntity returns the trees an entity appears in, at any layer.
func (s *Store) TreesOfEntity(ent uint32) (*roaring.Bitmap, error) {
	return s.member(bmKey(bEntTrees, ent/entChunk), ent)
}

// KeysOfTree returns a tree's layer-2 entities.
func (s *Store) KeysOfTree(tree uint32) (*roaring.Bitmap, error) {
	return s.bitmap(bmKey(bTreeKeys, tree))
}

// Subjects returns {s | (s, rel, obj)}: the knowledge projection of one
// object through a relation.
func (s *Store) Subjects(rel, obj uint32) (*roaring.Bitmap, error) {
	return s.member(bmKey(bRelObjSubj, rel), obj)
}

// Objects returns {o | (subj, rel, o)}.
func (s *Store) Objects(rel, subj uint32) (*roaring.Bitmap, error) {
	return s.member(bmKey(bRelSubjObj, rel), subj)
}

// SubjectsOf returns every subject of a relation.
func (s *Store) SubjectsOf(rel uint32) (*roaring.Bitmap, error) {
	return s.bitmap(bmKey(bRelSubjects, rel))
}

// ObjectsOf returns every object of a relation.
func (s *Store) ObjectsOf(rel uint32) (*roaring.Bitmap, error) {
	return s.bitmap(bmKey(bRelObjects, rel))
}

// Rejections returns the cleaning report: rejected tables counted by
// reason.
func (s *Store) Rejections() (map[string]int, error) {
	out := map[string]int{}
	err := s.scan(pReject, func(_, v []byte) error {
		var r Reject
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		out[r.Reason]++
		return nil
	})
	return out, err
}

// Rejected is a table the build did not make a tree of, with why and
// where it stood on its page.
type Rejected struct {
	Reject
	Source string `json:"source"`
	// Index is the table's position among its page's tables, when its
	// source gives one (nil in stores built before it was recorded).
	Index   *int     `json:"index,omitempty"`
	Section string   `json:"section,omitempty"`
	Caption string   `json:"caption,omitempty"`
	Header  []string `json:"header,omitempty"`
}

// RejectedOfPage returns the tables of a page the build rejected, in
// content-key order. Stores built before it was recorded have none.
func (s *Store) RejectedOfPage(url string) ([]Rejected, error) {
	var out []Rejected
	err := s.scan(pPageRej, func(k, v []byte) error {
		var r Rejected
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("graph: rejected table %q: %w", k[1:], err)
		}
		out = append(out, r)
		return nil
	}, append([]byte(url), 0)...)
	return out, err
}

// Skip is an input record that could not be parsed.
type Skip struct {
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
	Msg    string `json:"msg"`
}

// Skips returns the input records that could not be parsed, by source.
func (s *Store) Skips() ([]Skip, error) {
	var out []Skip
	err := s.scan(pSkip, func(_, v []byte) error {
		var k Skip
		if err := json.Unmarshal(v, &k); err != nil {
			return err
		}
		out = append(out, k)
		return nil
	})
	return out, err
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// removeEmptyLogs deletes the 0-byte memtable (.mem) and value-log (.vlog)
// files that a process killed between Badger creating such a file and its
// first write leaves behind: Badger's Open refuses them (badger #2207),
// which would stop the next build from resuming. A file of no bytes holds
// no entry, and nothing can point into it, so nothing is lost.
func removeEmptyLogs(dir string, log *slog.Logger) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("graph: open %s: %w", dir, err)
	}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || (filepath.Ext(name) != ".mem" && filepath.Ext(name) != ".vlog") {
			continue
		}
		fi, err := e.Info()
		if err != nil || fi.Size() != 0 {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("graph: open %s: remove empty %s left by a crash: %w", dir, name, err)
		}
		log.Info("graph: removed an empty file left by an interrupted write", "file", name)
	}
	return nil
}

// entityCursor reads the entity records in id order, for a pass that
// needs them in about that order (see entDict.ensure).
type entityCursor struct {
	txn *badger.Txn
	it  *badger.Iterator
}

func (s *Store) newEntityCursor() *entityCursor {
	txn := s.db.NewTransaction(false)
	it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{pEntity}, PrefetchValues: true, PrefetchSize: 256})
	it.Rewind()
	return &entityCursor{txn: txn, it: it}
}

// upTo calls fn with each record not read yet whose id is at most hi.
func (c *entityCursor) upTo(hi uint32, fn func(id uint32, v []byte) error) error {
	for ; c.it.Valid(); c.it.Next() {
		item := c.it.Item()
		id := binary.BigEndian.Uint32(item.Key()[1:])
		if id > hi {
			return nil
		}
		if err := item.Value(func(v []byte) error { return fn(id, v) }); err != nil {
			return err
		}
	}
	return nil
}

func (c *entityCursor) close() {
	c.it.Close()
	c.txn.Discard()
}
