package graph

import "encoding/binary"

// Key layout. One-byte prefixes keep prefixes short and scans cheap; ids are
// big-endian so keys sort by id.
//
//	M                       manifest (JSON)
//	e <id>                  entity (JSON)
//	k <entity key>          entity id
//	n <norm name> 0 <id>    name and alias index (no value)
//	r <id>                  relation (JSON)
//	R <relation key>        relation id
//	t <id>                  tree (JSON)
//	T <table key>           tree id, for tables that became trees
//	x <table key>           rejection (JSON), for tables that did not
//	y <page url> 0 <table key>  a page's rejected table (JSON, as x)
//	s <source>              skipped input record (JSON)
//	p <title>               entity passage text
//	d <url> 0 <id>          corpus document (JSON; see docKey)
//	i <url>                 the corpus id of a page's first document
//	g <url>                 page (JSON)
//	h <url>                 the page's entities and their names (JSON)
//	u <page url> <tree id>  trees of a source page (no value)
//	v <url>                 the source page a passage's URL in another case opens
//	E <table id>            page id of a table read from a file named by ids (see ExportGap)
//	b <kind> <id...>        roaring bitmap (see bitmap kinds)
const (
	pManifest = 'M'
	pEntity   = 'e'
	pEntKey   = 'k'
	pName     = 'n'
	pRel      = 'r'
	pRelKey   = 'R'
	pTree     = 't'
	pTableKey = 'T'
	pReject   = 'x'
	pPageRej  = 'y'
	pSkip     = 's'
	pPassage  = 'p'
	pDoc      = 'd'
	pDocID    = 'i'
	pPage     = 'g'
	pPageEnts = 'h'
	pPageTree = 'u'
	pCased    = 'v'
	pExport   = 'E'
	pBitmap   = 'b'
)

// Bitmap kinds.
const (
	bTreeRels    = 'a' // tree -> relations
	bRelTrees    = 'b' // relation -> trees
	bEntTrees    = 'c' // family per entity chunk: entity -> trees it appears in (any layer)
	bRelObjSubj  = 'd' // family per relation: object -> subjects
	bRelSubjObj  = 'e' // family per relation: subject -> objects
	bTreeKeys    = 'f' // tree -> layer-2 entities
	bRelSubjects = 'g' // relation -> all subjects
	bRelObjects  = 'h' // relation -> all objects
)

func idKey(prefix byte, id uint32) []byte {
	k := make([]byte, 5)
	k[0] = prefix
	binary.BigEndian.PutUint32(k[1:], id)
	return k
}

func strKey(prefix byte, s string) []byte {
	k := make([]byte, 1+len(s))
	k[0] = prefix
	copy(k[1:], s)
	return k
}

func bmKey(kind byte, ids ...uint32) []byte {
	k := make([]byte, 2+4*len(ids))
	k[0], k[1] = pBitmap, kind
	for i, id := range ids {
		binary.BigEndian.PutUint32(k[2+4*i:], id)
	}
	return k
}

func nameKey(norm string, id uint32) []byte {
	k := make([]byte, 0, 1+len(norm)+1+4)
	k = append(k, pName)
	k = append(k, norm...)
	k = append(k, 0)
	return binary.BigEndian.AppendUint32(k, id)
}
