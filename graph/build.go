package graph

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dgraph-io/badger/v4"
	"github.com/leaper-dev/leaper/internal/textnorm"
)

// maxAliases bounds the surface texts kept per entity.
const maxAliases = 8

// Builder writes tables and passages into a store. Every table is written
// with its new entities and relations before its tree, and the tree record
// is what marks the table done, so a build killed at any point leaves a
// store that a new Builder completes without loss or duplication. Finalize
// derives the bitmaps and pages from the stored trees.
//
// A Builder is not safe for concurrent use.
type Builder struct {
	s      *Store
	wb     *asyncWriter // nil until the first write after Close
	ents   *entDict
	rels   map[string]*Relation
	done   map[tableKey]struct{} // tables already stored (trees and rejections)
	nextE  uint32
	nextR  uint32
	nextT  uint32
	pass   map[string]bool
	counts BuildCounts
	// lastDocTitle is the article of the last document added, and
	// lastDocEnt its entity: an article's passages come together.
	lastDocTitle string
	lastDocEnt   uint32
}

// BuildCounts are what one Builder added.
type BuildCounts struct {
	Tables     int            `json:"tables"`
	Trees      int            `json:"trees"`
	Rejected   int            `json:"rejected"`
	Duplicates int            `json:"duplicates"`
	Passages   int            `json:"passages"`
	Documents  int            `json:"documents,omitempty"`
	Skipped    int            `json:"skipped"`
	Reasons    map[string]int `json:"reasons,omitempty"`
	// EntityReads counts entity records read back from the store because
	// the dictionary's memory (Options.EntityCache) was full.
	EntityReads int `json:"entity_reads,omitempty"`
}

// NewBuilder starts or resumes a build. It marks the store incomplete until
// Finalize.
func (s *Store) NewBuilder() (*Builder, error) {
	if s.opts.ReadOnly {
		return nil, ErrReadOnly
	}
	b := &Builder{s: s, ents: newEntDict(s, s.opts.EntityCache), rels: map[string]*Relation{},
		done: map[tableKey]struct{}{}, pass: map[string]bool{}, counts: BuildCounts{Reasons: map[string]int{}}}
	err := s.scan(pEntity, func(k, v []byte) error {
		id := binary.BigEndian.Uint32(k[1:])
		b.nextE = max(b.nextE, id+1)
		if b.ents.evicted {
			return nil
		}
		var e Entity
		if err := json.Unmarshal(v, &e); err != nil {
			return err
		}
		b.ents.put(&e)
		b.ents.evict()
		return nil
	})
	if err == nil && b.ents.evicted {
		// The dictionary must know which keys the store has that it
		// did not load.
		err = s.scan(pEntKey, func(k, _ []byte) error { b.ents.known(string(k[1:])); return nil })
	}
	if err == nil {
		err = s.scan(pRel, func(_, v []byte) error {
			var r Relation
			if err := json.Unmarshal(v, &r); err != nil {
				return err
			}
			b.rels[r.Key()] = &r
			b.nextR = max(b.nextR, r.ID+1)
			return nil
		})
	}
	if err == nil {
		err = s.scan(pTableKey, func(k, v []byte) error {
			b.done[toTableKey(string(k[1:]))] = struct{}{}
			b.nextT = max(b.nextT, binary.BigEndian.Uint32(v)+1)
			return nil
		})
	}
	if err == nil {
		err = s.scan(pReject, func(k, _ []byte) error { b.done[toTableKey(string(k[1:]))] = struct{}{}; return nil })
	}
	if err == nil {
		err = s.scan(pPassage, func(k, _ []byte) error { b.pass[string(k[1:])] = true; return nil })
	}
	if err != nil {
		return nil, fmt.Errorf("graph: resume build: %w", err)
	}
	s.mu.Lock()
	s.manifest.Complete = false
	s.mu.Unlock()
	if err := s.saveManifest(); err != nil {
		return nil, err
	}
	return b, nil
}

// Counts reports what this Builder added so far.
func (b *Builder) Counts() BuildCounts {
	c := b.counts
	c.EntityReads = b.ents.reads
	return c
}

func (b *Builder) set(k, v []byte) error {
	if b.wb == nil {
		b.wb = newAsyncWriter(b.s.db)
	}
	return b.wb.Set(k, v)
}

func (b *Builder) setJSON(k []byte, v any) error {
	buf, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.set(k, buf)
}

func idBytes(id uint32) []byte { return binary.BigEndian.AppendUint32(nil, id) }

// entity returns the id for a value, creating or extending the entity.
func (b *Builder) entity(v Value) (uint32, error) {
	var e Entity
	id, ok, err := b.ents.lookup(v.Key)
	if err != nil {
		return 0, fmt.Errorf("graph: entity %q: %w", v.Key, err)
	}
	if ok {
		r := b.ents.rec(id)
		if v.Surface == "" || v.Surface == r.name || r.aliases >= maxAliases || r.hasAlias(v.Surface) {
			return id, nil
		}
		e = b.ents.entity(id)
	} else {
		e = Entity{ID: b.nextE, Key: v.Key, Name: v.Name, Type: v.Type, URL: v.URL}
		b.nextE++
		// An unlinked name with a nickname in quotes, or a title of
		// address, is also said without it: "Sune Andersson" for Sune
		// "Mona-Lisa" Andersson, as the rows beside it are named by
		// their articles; "Carina Autengruber" for Ms Carina
		// Autengruber. An alias for the scorer only, not a name the
		// store resolves.
		if plain, ok := PlainName(v.Name); ok && v.Type == TypeText {
			e.Aliases = append(e.Aliases, plain)
		}
		if err := b.set(strKey(pEntKey, v.Key), idBytes(e.ID)); err != nil {
			return 0, err
		}
		if err := b.set(nameKey(NormText(e.Name), e.ID), nil); err != nil {
			return 0, err
		}
	}
	if v.Surface != "" && v.Surface != e.Name && !contains(e.Aliases, v.Surface) {
		e.Aliases = append(e.Aliases, v.Surface)
		if n := NormText(v.Surface); n != NormText(e.Name) {
			if err := b.set(nameKey(n, e.ID), nil); err != nil {
				return 0, err
			}
		}
	}
	b.ents.put(&e)
	return e.ID, b.setJSON(idKey(pEntity, e.ID), e)
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (b *Builder) relation(c Column, header string) (uint32, error) {
	r := &Relation{Name: c.Name, Datatype: c.Datatype, Domain: c.Domain}
	if old, ok := b.rels[r.Key()]; ok {
		if len(old.Headers) < 4 && !contains(old.Headers, header) {
			old.Headers = append(old.Headers, header)
			return old.ID, b.setJSON(idKey(pRel, old.ID), old)
		}
		return old.ID, nil
	}
	r.ID, r.Headers = b.nextR, []string{header}
	b.nextR++
	b.rels[r.Key()] = r
	if err := b.set(strKey(pRelKey, r.Key()), idBytes(r.ID)); err != nil {
		return 0, err
	}
	return r.ID, b.setJSON(idKey(pRel, r.ID), r)
}

// Prepared is a table cleaned and shaped for AddPrepared (package ingest
// prepares it): its content key, where it was read, and its shape or the
// reason it is rejected.
type Prepared struct {
	// Key is the table's content key (32 hex digits): a table whose key
	// is stored already is a duplicate.
	Key string
	// Source, PageTitle, PageURL, Index, Section, Caption, Untitled, Cut
	// and TwinInText are the table's, as read (see Tree).
	Source             string
	PageTitle, PageURL string
	Index              int
	Section, Caption   string
	Untitled           bool
	Cut                bool
	TwinInText         bool
	// Header is the table's header as read, kept with a rejection: a
	// rejected table titled like a tree of its page is its twin.
	Header []string
	// Shaped is the table as a tree whose entities are still keys; nil
	// when Reject says why there is none.
	Shaped *Shaped
	Reject *Reject
}

// AddPrepared stores a prepared table's tree, or its rejection. A table
// already in the store (same content key) is counted as a duplicate and
// left alone: it returns a Reject with RejectDuplicate. It returns the
// tree, or nil with the rejection.
func (b *Builder) AddPrepared(p *Prepared) (*Tree, *Reject, error) {
	t, key := p, p.Key
	if err := b.noteExport(t.Source); err != nil {
		return nil, nil, err
	}
	if _, ok := b.done[toTableKey(key)]; ok {
		b.counts.Duplicates++
		return nil, &Reject{Reason: RejectDuplicate}, nil
	}
	b.done[toTableKey(key)] = struct{}{}
	b.counts.Tables++
	sh, rej := p.Shaped, p.Reject
	if rej != nil {
		b.counts.Rejected++
		b.counts.Reasons[rej.Reason]++
		rec := Rejected{Reject: *rej, Source: t.Source, Section: t.Section, Caption: t.Caption, Header: t.Header}
		if t.Index >= 0 {
			rec.Index = &t.Index
		}
		if err := b.setJSON(strKey(pReject, key), rec); err != nil {
			return nil, nil, err
		}
		if t.PageURL != "" {
			if err := b.setJSON(strKey(pPageRej, t.PageURL+"\x00"+key), rec); err != nil {
				return nil, nil, err
			}
		}
		return nil, rej, nil
	}
	tr := &Tree{ID: b.nextT, TableKey: key, Source: t.Source, PageTitle: t.PageTitle, PageURL: t.PageURL,
		TableIndex: t.Index, Section: t.Section, Caption: t.Caption, Group: sh.Group,
		KeyHeader: sh.KeyHeader, KeyDatatype: sh.KeyDatatype, KeyDomain: sh.KeyDomain, Dropped: sh.Dropped, Untitled: t.Untitled, Cut: t.Cut, TwinInText: t.TwinInText,
		SeveralKeys: sh.SeveralKeys, Stated: sh.Stated}
	b.nextT++
	for _, v := range sh.Question {
		id, err := b.entity(v)
		if err != nil {
			return nil, nil, err
		}
		tr.Question = appendUnique(tr.Question, id)
	}
	tr.Columns = make([]Column, len(sh.Columns))
	for j, c := range sh.Columns {
		id, err := b.relation(c, c.Header)
		if err != nil {
			return nil, nil, err
		}
		c.Relation = id
		tr.Columns[j] = c
	}
	tr.Rows = make([]Row, len(sh.Keys))
	texts := cellTexts{}
	places := make([]columnPlaces, len(sh.Columns))
	for i, k := range sh.Keys {
		kid, err := b.entity(k)
		if err != nil {
			return nil, nil, err
		}
		row := Row{Key: kid, Values: make([][]uint32, len(sh.Columns))}
		texts.add(kid, k, tr.KeyDomain)
		if k.Type != TypeEntity {
			texts.addText(kid, b.ents.rec(kid).name, k)
		}
		for j, vs := range sh.Values[i] {
			for _, v := range vs {
				id, err := b.entity(v)
				if err != nil {
					return nil, nil, err
				}
				row.Values[j] = appendUnique(row.Values[j], id)
				places[j].add(v, len(vs))
				if len(vs) == 1 {
					texts.add(id, v, sh.Columns[j].Domain) // a cell of several links shows titles
				}
				if v.Type != TypeEntity {
					texts.addText(id, b.ents.rec(id).name, v)
				}
			}
		}
		tr.Rows[i] = row
	}
	tr.Shown = texts.shown()
	for j, p := range places {
		comma := p.commas > 0 && p.points == 0 && p.places > 0 && !p.mixed
		if p.places > 0 && (p.zeros || comma) && !p.mixed {
			if tr.Decimals == nil {
				tr.Decimals = map[string]int{}
			}
			tr.Decimals[tr.Columns[j].Name] = p.places
		}
		if comma {
			if tr.Comma == nil {
				tr.Comma = map[string]bool{}
			}
			tr.Comma[tr.Columns[j].Name] = true // "47,7": the column's decimal comma
		}
		if p.groups > 0 && !p.ungrouped && !p.other {
			if tr.Grouped == nil {
				tr.Grouped = map[string]bool{}
			}
			tr.Grouped[tr.Columns[j].Name] = true
		}
	}
	namesakes(tr, func(id uint32) string { return b.ents.rec(id).name })
	if err := b.setJSON(idKey(pTree, tr.ID), tr); err != nil {
		return nil, nil, err
	}
	pk := append(strKey(pPageTree, tr.PageURL), idBytes(tr.ID)...)
	if err := b.set(pk, nil); err != nil {
		return nil, nil, err
	}
	// Written last: its presence marks the table done.
	if err := b.set(strKey(pTableKey, key), idBytes(tr.ID)); err != nil {
		return nil, nil, err
	}
	b.counts.Trees++
	return tr, nil, nil
}

// namesakes drops the Shown text of keys that another key of t is written
// as too ("HMAS Lae" of HMAS Lae (L-3035) and HMAS Lae (P 93), two ships
// of one list): the titles tell them apart, as the text does not.
func namesakes(t *Tree, name func(uint32) string) {
	if len(t.Shown) == 0 {
		return
	}
	by := map[string][]uint32{}
	for _, r := range t.Rows {
		k := NormText(t.ShownName(r.Key, name(r.Key)))
		if !slices.Contains(by[k], r.Key) {
			by[k] = append(by[k], r.Key)
		}
	}
	for _, ids := range by {
		if len(ids) < 2 {
			continue
		}
		for _, id := range ids {
			delete(t.Shown, id)
		}
	}
	if len(t.Shown) == 0 {
		t.Shown = nil
	}
}

// tableKey is a table's content key (table.Table.Key, 32 hex digits) as
// bytes: a set of them holds no pointers for the collector to scan.
type tableKey [16]byte

func toTableKey(k string) tableKey {
	var t tableKey
	if _, err := hex.Decode(t[:], []byte(k)); err != nil || len(k) != 2*len(t) {
		// Not a content key (a store of an older format): hash it.
		sum := sha256.Sum256([]byte(k))
		t = tableKey(sum[:16])
	}
	return t
}

func appendUnique(ids []uint32, id uint32) []uint32 {
	for _, x := range ids {
		if x == id {
			return ids
		}
	}
	return append(ids, id)
}

// AddPassage stores the passage of the article title (canonical, see
// Title); the entity is created if no table has named it yet. The first
// passage of a title wins.
func (b *Builder) AddPassage(title, text string) error {
	if title == "" || b.pass[title] {
		b.counts.Duplicates++
		return nil
	}
	b.pass[title] = true
	b.counts.Passages++
	if _, err := b.entity(Value{Key: "w:" + title, Name: title, Type: TypeEntity, URL: URL(title)}); err != nil {
		return err
	}
	return b.set(strKey(pPassage, title), []byte(text))
}

// AddSkip records an input record that could not be parsed.
func (b *Builder) AddSkip(e Skip) error {
	b.counts.Skipped++
	b.counts.Reasons["skipped: "+e.Reason]++
	if err := b.noteExport(e.File); err != nil {
		return err
	}
	src := fmt.Sprintf("%s:%09d", e.File, e.Line)
	return b.setJSON(strKey(pSkip, src), Skip{File: e.File, Line: e.Line, Reason: e.Reason, Msg: e.Msg})
}

// SetInput records an input of the build and whether it has been read
// completely; the manifest is saved with the data written so far.
func (b *Builder) SetInput(path, format string, done bool) error {
	if err := b.Flush(); err != nil {
		return err
	}
	s := b.s
	s.mu.Lock()
	found := false
	for i := range s.manifest.Inputs {
		if s.manifest.Inputs[i].Path == path {
			s.manifest.Inputs[i].Done, s.manifest.Inputs[i].Format, found = done, format, true
		}
	}
	if !found {
		s.manifest.Inputs = append(s.manifest.Inputs, InputRecord{Path: path, Format: format, Done: done})
	}
	s.mu.Unlock()
	return s.saveManifest()
}

// Flush makes everything added so far durable against a process crash.
func (b *Builder) Flush() error {
	if b.wb == nil {
		return nil
	}
	if err := b.wb.Flush(); err != nil {
		return fmt.Errorf("graph: write: %w", err)
	}
	// Everything is in the store now: the dictionary may drop records.
	b.ents.evict()
	return nil
}

// Cancel discards writes not yet flushed; the store stays resumable.
func (b *Builder) Cancel() {
	if b.wb != nil {
		b.wb.Cancel()
		b.wb = nil
	}
}

// Close makes everything added so far durable against a process crash
// and stops the Builder's writer; a later Add starts it again.
func (b *Builder) Close() error {
	if b.wb == nil {
		return nil
	}
	err := b.wb.Close()
	b.wb = nil
	if err != nil {
		return fmt.Errorf("graph: write: %w", err)
	}
	return nil
}

// Finalize derives the bitmaps and the pages from the stored trees and
// passages and counts everything; Commit then marks the store complete.
// Running it again gives the same result. onPage, when not nil, is called
// with every page in URL order as it is written, and the entities it
// shows: the index is fed from it.
func (b *Builder) Finalize(ctx context.Context, progress func(stage string, done, total int), onPage func(*Page, []Shown) error) error {
	if progress == nil {
		progress = func(string, int, int) {}
	}
	if err := b.Close(); err != nil {
		return err
	}
	s := b.s
	ents := b.ents
	// One pass over the stored trees: the bitmaps' pairs and the pages'
	// fragments go to sorted runs on disk, each kind up to SpillBudget
	// bytes in memory.
	sp, err := newSpill(s.opts.SpillDir, s.opts.SpillBudget)
	if err != nil {
		return err
	}
	defer sp.close()
	cased, err := b.casedPages()
	if err != nil {
		return err
	}
	// Passages first, so they open their pages.
	moved := map[string]string{} // a passage's URL → the source page it opens instead
	err = s.scan(pPassage, func(k, v []byte) error {
		title := string(k[1:])
		id, _, err := b.ents.lookup("w:" + title)
		if err != nil {
			return err
		}
		url, page := URL(title), title
		if to := casedPage(cased, url); to != "" {
			if !b.pass[Title(to)] {
				moved[url] = to
				url, page = to, Title(to)
			} else if own, err := s.Passage(Title(to)); err != nil {
				return err
			} else if strings.Join(strings.Fields(own), " ") == strings.Join(strings.Fields(string(v)), " ") {
				// The page's own passage again ("Wing coaster" beside
				// the table page "Wing Coaster"): its URL leads to the
				// page.
				moved[url] = to
				return nil
			}
		}
		return sp.add(phasePassage, named(fragment{url: url, title: page, kind: fragPassage,
			segs: []Segment{{Text: string(v), Entities: []uint32{id}, Kind: SegPassage}}}, b.ents))
	})
	if err != nil {
		return err
	}
	docs, err := b.docFragments(sp)
	if err != nil {
		return err
	}
	bms := newBitmaps(sp.dir, s.opts.SpillBudget)
	defer bms.wait() // before sp.close removes the runs
	trees := 0
	facts := newFactCounts(b.nextE)
	progress("bitmaps", 0, int(b.nextT))
	cf := &casedFacts{cased: cased, pass: b.pass, moved: moved}
	ents.startPass()
	err = s.EachTree(ctx, func(t *Tree) error {
		if ents.evicted { // else every record is in memory
			if err := ents.ensure(treeEntities(t)); err != nil {
				return err
			}
		}
		if err := bms.add(t); err != nil {
			return err
		}
		trees++
		if trees%10000 == 0 {
			progress("bitmaps", trees, int(b.nextT))
		}
		if err := pageFragments(sp, t, ents, facts, cf); err != nil {
			return err
		}
		ents.evict()
		return nil
	})
	ents.endPass()
	// The pages have their names: the dictionary's memory is theirs now.
	ents.drop()
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			err = fmt.Errorf("graph: finalize trees: %w", err)
		}
		return err
	}
	if err := s.db.DropPrefix([]byte{pBitmap}, []byte{pPage}, []byte{pPageEnts}, []byte{pDocID}, []byte{pCased}); err != nil {
		return fmt.Errorf("graph: finalize: %w", err)
	}
	if err := s.db.Update(func(txn *badger.Txn) error {
		for from, to := range moved {
			if err := txn.Set(strKey(pCased, from), []byte(to)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return fmt.Errorf("graph: finalize: %w", err)
	}
	s.fams.reset()
	if err := bms.write(ctx, s.db); err != nil {
		return fmt.Errorf("graph: write bitmaps: %w", err)
	}
	triples := bms.triples
	bms = nil // the pages need the memory
	progress("bitmaps", trees, trees)
	digest := newPageDigest()
	pages, err := b.writePages(ctx, sp, progress, onPage, digest)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	rejected := 0
	if err := s.scan(pReject, func(_, _ []byte) error { rejected++; return nil }); err != nil {
		return err
	}
	skipped := 0
	if err := s.scan(pSkip, func(_, _ []byte) error { skipped++; return nil }); err != nil {
		return err
	}
	s.mu.Lock()
	s.manifest.Counts = Counts{Tables: trees + rejected, Trees: trees, Rejected: rejected, Skipped: skipped,
		Entities: int(b.nextE), Relations: len(b.rels), Triples: triples, Passages: len(b.pass), Documents: docs, Pages: pages}
	s.manifest.Digest = digest.sum()
	s.mu.Unlock()
	if err := s.saveManifest(); err != nil {
		return err
	}
	return s.db.Sync()
}

// casedPages maps the URLs of the source pages (pages of trees), folded
// (variantKey), to the URLs themselves; two pages whose URLs fold alike
// map to "". OTT-QA's passages hold 19 articles under a title in another
// case than its table's page ("1973 Major League Baseball Draft", the
// title of a redirect, beside "1973 Major League Baseball draft"): such a
// passage opens the source page, whose intro it is, or, where the page
// has its own passage and it is the same text ("Wing coaster" beside
// "Wing Coaster"), is dropped; either way its URL leads to the source page
// (Store.Page), rather than making a second page of the article that has
// no table and outranks it in search.
func (b *Builder) casedPages() (map[string]string, error) {
	out := map[string]string{}
	err := b.s.scan(pPageTree, func(k, _ []byte) error {
		addCased(out, string(k[1:len(k)-4]))
		return nil
	})
	return out, err
}

// addCased adds a source page's URL to casedPages' map.
func addCased(m map[string]string, url string) {
	l := variantKey(url)
	if have, ok := m[l]; ok && have != url {
		m[l] = ""
		return
	}
	m[l] = url
}

// casedPage is the source page whose URL is url in another case or
// spelling (variantKey), from casedPages' map, or "": url itself is a
// source page, none is, or two are.
func casedPage(cased map[string]string, url string) string {
	if to := cased[variantKey(url)]; to != url {
		return to
	}
	return ""
}

// variantKey folds a URL for casedPages, the ways Wikipedia's redirects
// spell a title otherwise: lower case, dashes as spaces ("2009 K-League"
// for "2009 K League", "Montreal Impact (1992-2011)" for "(1992–2011)"),
// without dots ("M Chinnaswamy Stadium" for "M. Chinnaswamy Stadium") or
// spaces beside a sign ("4×400 metres relay" for "4 × 400 metres
// relay"). A space between words stays ("Cast Away" is not "Castaway"),
// and so do other signs ("C++" is not "C").
func variantKey(url string) string {
	rs := make([]rune, 0, len(url))
	for _, r := range strings.ToLower(url) {
		last := rune(0)
		if len(rs) > 0 {
			last = rs[len(rs)-1]
		}
		switch {
		case r == '.':
		case unicode.IsSpace(r) || r == '_' || r == '\u2212' || unicode.Is(unicode.Pd, r):
			if word(last) {
				rs = append(rs, ' ') // one space, and only after a word
			}
		default:
			if last == ' ' && !word(r) {
				rs = rs[:len(rs)-1] // no space before a sign
			}
			rs = append(rs, r)
		}
	}
	if len(rs) > 0 && rs[len(rs)-1] == ' ' {
		rs = rs[:len(rs)-1]
	}
	return string(rs)
}

// word reports whether r is a letter or digit.
func word(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// casedFacts leads the facts of an entity whose URL is a source page's in
// another case or spelling (variantKey: "Discus Throw", the title of a
// redirect, that the 1984 Central American and Caribbean Junior
// Championships' medal tables link, beside the table page "Discus throw")
// to that page, as the passages are: otherwise they make a second page of
// the article, with no table, that a search of its title ranks above the
// table's page. An entity whose passage keeps a page of its own (a text
// other than the source page's) keeps its facts there.
type casedFacts struct {
	cased map[string]string // casedPages
	pass  map[string]bool   // the titles with a passage
	moved map[string]string // a URL → the source page it leads to
}

// page is the URL the facts about the entity at url go to, and its title.
func (c *casedFacts) page(url, title string) (string, string) {
	to := casedPage(c.cased, url)
	if to == "" {
		return url, title
	}
	if c.pass[Title(url)] && c.moved[url] == "" {
		return url, title
	}
	c.moved[url] = to
	return to, Title(to)
}

// Commit marks the build complete, once everything derived from the store
// (its index, too) has been written.
func (b *Builder) Commit() error {
	s := b.s
	s.mu.Lock()
	s.manifest.Complete = true
	s.mu.Unlock()
	if err := s.saveManifest(); err != nil {
		return err
	}
	return s.db.Sync()
}

// treeEntities lists the entities a tree names (with repeats).
func treeEntities(t *Tree) []uint32 {
	ids := append([]uint32(nil), t.Question...)
	for _, r := range t.Rows {
		ids = append(ids, r.Key)
		for _, vs := range r.Values {
			ids = append(ids, vs...)
		}
	}
	return ids
}

// sortedIDs returns a set's members in order.
func sortedIDs(m map[uint32]bool) []uint32 {
	ids := make([]uint32, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// cellTexts collects what one table writes for each article it links in
// a cell of its own, to make Tree.Shown: the text the table writes most
// often for it, where an answer should give that text (Writes). A title
// written as such, or as a code ("D.C."), votes for the title; on a tie
// the title stays ("Washington" and "D.C." for Washington, D.C.). A table
// that writes one article two ways ("Washington" as a city, "District of
// Columbia" as a state) has no one text for it: the title stays, since
// Shown stands for every cell of the article.
type cellTexts map[uint32]*writtenTexts

type writtenTexts struct {
	name  string
	votes map[string]int // text → cells; "" for the title
}

func (c cellTexts) add(id uint32, v Value, domain string) {
	if v.Type != TypeEntity {
		return
	}
	c.vote(id, v.Name, v.Surface, domain != "place")
}

// addText records how the table writes a text entity first named
// otherwise by another table: the case it writes ("Blood" of a song
// where a plague's "blood" came first) is the table's own, and so is the
// form of a date or a decimal (ValueForm).
func (c cellTexts) addText(id uint32, name string, v Value) {
	if v.Type == TypeEntity || v.Name == "" {
		return
	}
	t := c[id]
	if t == nil {
		t = &writtenTexts{name: name, votes: map[string]int{}}
		c[id] = t
	}
	switch {
	case v.Name != name && NormText(v.Name) == NormText(name):
		t.votes[v.Name]++
	case v.Type == TypeDate && ValueForm(name, v.Surface):
		t.votes[textnorm.EnglishMonth(v.Surface)]++ // "10 June 2015": the table's own form, its month in English
	case v.Type == TypeNumber && ValueForm(name, v.Surface):
		t.votes[v.Surface]++ // "52.60"
	default:
		t.votes[""]++
	}
}

// vote records one cell of an article titled name written as surface: the
// surface when Writes takes it, else the title (""). Where codes stand
// (any column but places'), a code the table writes is its text: "QPR"
// for Queens Park Rangers F.C., "ČZ" for Česká Zbrojovka Strakonice,
// "C" for Center beside unlinked "WR/KR"; a country's "USA" is United
// States.
func (c cellTexts) vote(id uint32, name, surface string, codes bool) {
	t := c[id]
	if t == nil {
		t = &writtenTexts{name: name, votes: map[string]int{}}
		c[id] = t
	}
	text := surface
	switch {
	case KeepsQualifier(name, surface) || shortQualified(name, surface):
		text = name // "Al-Hilal ( Kadougli )": the table writes the title whole
	case RaisedInitial(name, surface):
		// "eXistenZ" linking EXistenZ: the name, whose title has its first
		// letter raised
	case !Writes(name, text) && !(codes && tableCode(name, text)):
		text = nameBefore(name, surface)
	}
	t.votes[text]++
}

// shortQualified reports whether surface tells the article titled name
// from its namesakes by its disambiguator written short: "Albirex Niigata
// (S)" linking Albirex Niigata FC (Singapore), beside the Japanese club.
// The title answers whole, as KeepsQualifier's do; without its
// parenthesis it would name the namesake.
func shortQualified(name, surface string) bool {
	i, j := strings.LastIndex(name, " ("), strings.LastIndex(surface, " (")
	if i <= 0 || j <= 0 || !strings.HasSuffix(name, ")") || !strings.HasSuffix(strings.TrimSpace(surface), ")") {
		return false
	}
	d := name[i+2 : len(name)-1]
	p := strings.Trim(strings.TrimSpace(surface)[j+2:len(strings.TrimSpace(surface))-1], " .")
	r, _ := utf8.DecodeRuneInString(d)
	if p == "" || len(p) >= len(d) || !unicode.IsUpper(r) || !strings.HasPrefix(strings.ToLower(d), strings.ToLower(p)) {
		return false
	}
	head := strings.Fields(NormText(name[:i]))
	for _, w := range strings.Fields(NormText(surface[:j])) {
		if !slices.Contains(head, w) {
			return false
		}
	}
	return true
}

// nameBefore is the name a cell writes before a parenthesis that gives
// another name or a note of its own ("Pukatja (Ernabella)" linking
// Pukatja, South Australia; "The Open Championship (British Open)"
// linking 2002 Open Championship; "Massively multiplayer online (MMO)";
// "Imran Amirullah (caretaker)"), when Writes takes it; else "". A
// parenthesis holding a figure, or a code ("Jeff Miller (R)": a party),
// or the title's own ("Georgia (country)"), or a word of the title that
// tells which ("Tennessee (Martin)" linking University of Tennessee at
// Martin) is none: the title answers.
func nameBefore(name, surface string) string {
	surface = strings.TrimSpace(surface)
	i := strings.LastIndex(surface, " (")
	if i <= 0 || !strings.HasSuffix(surface, ")") || strings.Count(surface, "(") != 1 || NormText(surface) == NormText(name) {
		return ""
	}
	head, in := surface[:i], surface[i+2:len(surface)-1]
	if strings.ContainsFunc(in, unicode.IsDigit) || strings.HasPrefix(NormText(name), NormText(in)) {
		return ""
	}
	named := Initials(in, head)
	title := strings.Fields(NormText(name))
	inTitle := func(s string) bool { return slices.Contains(title, NormText(s)) }
	words, all := 0, true // the parenthesis's words, and whether each is a word of the title
	for _, w := range strings.Fields(in) {
		if utf8.RuneCountInString(w) < 4 || !strings.ContainsFunc(w, unicode.IsLower) {
			continue
		}
		words++
		all = all && inTitle(w)
	}
	named = named || words > 0
	// "Tennessee (Martin)" linking University of Tennessee at Martin: two
	// parts of the title, the second telling which
	if words > 0 && all && slices.ContainsFunc(strings.Fields(head), inTitle) {
		return ""
	}
	if !named || !Writes(name, head) {
		return ""
	}
	return head
}

// Initials reports whether p is the initials of name's words, its small
// words aside: "MMO" of Massively multiplayer online gives its
// abbreviation, not Wikipedia's disambiguator.
func Initials(p, name string) bool {
	var want []rune
	for _, w := range strings.Fields(name) {
		switch strings.ToLower(w) {
		case "of", "the", "and", "for", "in", "on", "at", "de":
			continue
		}
		want = append(want, unicode.ToUpper([]rune(w)[0]))
	}
	got := []rune(strings.ReplaceAll(strings.TrimSpace(p), ".", ""))
	return len(got) >= 2 && string(got) == string(want)
}

// tableCode reports whether surface is a code for the article titled name:
// one to four capitals, shorter than the title.
func tableCode(name, surface string) bool {
	n := 0
	for _, r := range surface {
		if !unicode.IsUpper(r) {
			return false
		}
		n++
	}
	return n >= 1 && n <= 4 && len(surface) < len(name)
}

// columnPlaces collects how a column writes its figures: places when
// every cell is one figure written with that many decimals ("2.0", "4.5"),
// zeros whether one ends in a zero its entity's name leaves out; grouped
// when every figure of four digits or more is written in groups of three
// ("78,040") and one is.
type columnPlaces struct {
	places    int
	zeros     bool
	mixed     bool // a cell not one figure, or decimals that differ
	other     bool // a cell not one figure
	groups    int  // figures written in groups
	ungrouped bool // a figure of four digits or more written whole
	commas    int  // figures written with a decimal comma ("47,7%")
	points    int  // figures written with a decimal point
}

func (c *columnPlaces) add(v Value, n int) {
	s := strings.TrimSpace(v.Surface)
	if v.Type != TypeNumber || n != 1 {
		c.mixed, c.other = true, true
		return
	}
	// "$ 424,208,848": the currency marks the column (ValueForm), the
	// groups are the figure's
	s = strings.TrimSpace(strings.TrimLeft(s, "$€£¥"))
	if decimalComma.MatchString(s) {
		// "47,7%": a decimal comma, the percent the column's mark
		c.commas++
		s = strings.Replace(strings.TrimSpace(strings.TrimSuffix(s, "%")), ",", ".", 1)
	} else if strings.Contains(s, ".") {
		c.points++
	}
	// "43.0%": the percent the column's mark, the decimal the figure's
	s = strings.TrimSpace(strings.TrimSuffix(s, "%"))
	if groupedNumber.MatchString(s) {
		c.groups++
		s = strings.ReplaceAll(s, ",", "")
	} else if whole, _, _ := strings.Cut(strings.TrimPrefix(s, "-"), "."); len(whole) >= 4 {
		c.ungrouped = true
	}
	if !plainNumber.MatchString(s) {
		c.mixed, c.other = true, true
		return
	}
	if c.mixed {
		return
	}
	i := strings.IndexByte(s, '.')
	if i <= 0 || c.places > 0 && len(s)-i-1 != c.places {
		c.mixed = true
		return
	}
	c.places = len(s) - i - 1
	c.zeros = c.zeros || strings.HasSuffix(s, "0")
}

// shown is the Shown map of the texts collected, nil when empty.
func (c cellTexts) shown() map[uint32]string {
	var out map[uint32]string
	for id, t := range c {
		if t.ways() > 1 {
			continue
		}
		best, n := "", t.votes[""]
		for text, k := range t.votes {
			if text != "" && (k > n || k == n && best != "" && better(t.name, text, best)) {
				best, n = text, k
			}
		}
		if best == "" {
			continue
		}
		// A decimal's form is its column's ("0.0" of a column of averages):
		// kept only where every cell of the tree writes it so, else a count
		// written "0" beside it would read "0.0".
		if t.votes[""] > 0 && !isoDate.MatchString(t.name) && ValueForm(t.name, best) {
			continue
		}
		if out == nil {
			out = map[uint32]string{}
		}
		out[id] = best
	}
	return out
}

// ways counts the texts other than the title written for an article. A
// text holding another is still another way: "Mitsubishi Lancer X R4" of
// two rows would name the third row's "Mitsubishi Lancer X" wrongly, and
// "Farmington" the row's "West Farmington"; the title names all of them.
func (t *writtenTexts) ways() int {
	n := len(t.votes)
	if _, ok := t.votes[""]; ok {
		n--
	}
	return n
}

// better orders two texts of one title for Shown ties: the title's own
// head ("La Plata" before "La Plata vicinity" for "La Plata, Maryland"),
// then the shorter, then the first in byte order.
func better(name, x, y string) bool {
	px, py := strings.HasPrefix(name, x), strings.HasPrefix(name, y)
	switch {
	case px != py:
		return px
	case len(x) != len(y):
		return len(x) < len(y)
	}
	return x < y
}
