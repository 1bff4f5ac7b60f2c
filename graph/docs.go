package graph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// Document is a document of a standard retrieval corpus, as package
// ingest/table reads it (see table.Document): text of the page at URL.
type Document struct {
	// ID is the corpus's own id.
	ID string
	// Title is a canonical Wikipedia title when Article is set, else the
	// document's own title.
	Title string
	// URL is the page the document is text of.
	URL string
	// Article is set when the document is a Wikipedia article's: its
	// title names an entity.
	Article bool
	// Paragraphs is the text, one paragraph each.
	Paragraphs []string
}

// docRecord is a stored corpus document.
type docRecord struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Paragraphs []string `json:"paragraphs"`
	// Entity is the article's entity, for a document of a Wikipedia
	// article; none for a web document.
	Entity *uint32 `json:"entity,omitempty"`
}

// docKey is d <url> 0 <id>, with a numeric id zero-padded so that the
// passages of a page sort in their corpus order (wiki-18's ids are line
// numbers) and a document added twice (a resumed build) is one record.
func docKey(url, id string) []byte {
	k := make([]byte, 0, 2+len(url)+21+len(id))
	k = append(k, pDoc)
	k = append(k, url...)
	k = append(k, 0)
	if id != "" && len(id) <= 20 && strings.Trim(id, "0123456789") == "" {
		k = append(k, '0')
		k = append(k, strings.Repeat("0", 20-len(id))...)
		return append(k, id...)
	}
	k = append(k, '1')
	return append(k, id...)
}

// AddDocument stores a document of a standard retrieval corpus as text of
// the page at its URL: a Wikipedia article's (wiki-18, KILT) is the page
// of the article's entity, which is created if no table named it, and is
// the same page as a table's page or entity page of that title. Several
// documents of one URL (wiki-18's passages of one article) are one page,
// their passages in id order, each segment keeping its document's id.
func (b *Builder) AddDocument(d *Document) error {
	if d.URL == "" || d.ID == "" || len(d.Paragraphs) == 0 {
		return fmt.Errorf("graph: document %q of %q: no URL, id or text", d.ID, d.Title)
	}
	rec := docRecord{ID: d.ID, Title: d.Title, Paragraphs: d.Paragraphs}
	if d.Article {
		// wiki-18's passages of an article come one after another.
		if d.Title != b.lastDocTitle {
			id, err := b.entity(Value{Key: "w:" + d.Title, Name: d.Title, Type: TypeEntity, URL: d.URL})
			if err != nil {
				return err
			}
			b.lastDocTitle, b.lastDocEnt = d.Title, id
		}
		ent := b.lastDocEnt
		rec.Entity = &ent
	}
	b.counts.Documents++
	return b.setJSON(docKey(d.URL, d.ID), rec)
}

// docFragments adds a page fragment per stored document, after the
// passages of phasePassage, and counts the documents.
func (b *Builder) docFragments(sp *spill) (int, error) {
	n := 0
	err := b.s.scan(pDoc, func(k, v []byte) error {
		end := bytes.IndexByte(k[1:], 0)
		if end < 0 {
			return fmt.Errorf("graph: bad document key %q", k)
		}
		var r docRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("graph: document %q: %w", k, err)
		}
		var ents []uint32
		if r.Entity != nil {
			ents = []uint32{*r.Entity}
		}
		segs := make([]Segment, len(r.Paragraphs))
		for i, p := range r.Paragraphs {
			segs[i] = Segment{Text: p, Entities: ents, Kind: SegPassage, DocID: r.ID}
		}
		n++
		return sp.add(phasePassage, named(fragment{url: string(k[1 : 1+end]), title: r.Title, kind: fragPassage, segs: segs}, b.ents))
	})
	return n, err
}

// DocID returns the corpus id of the page at url: its first document's
// (wiki-18's first passage of the article, BrowseComp-Plus's docid,
// KILT's wikipedia_id), or ErrNotFound for a page that holds none.
func (s *Store) DocID(url string) (string, error) {
	var id string
	err := s.view(func(txn *badger.Txn) error {
		b, err := getBytes(txn, strKey(pDocID, url))
		id = string(b)
		return err
	})
	return id, err
}

// firstDocID is the id of a page's first document segment, or "".
func firstDocID(p *Page) string {
	for _, sg := range p.Segments {
		if sg.DocID != "" {
			return sg.DocID
		}
	}
	return ""
}
