package index

// SetBleveOnly makes Search rank with Bleve's own searchers, the reference
// that MaxScore evaluation is compared with.
func SetBleveOnly(ix *Index, on bool) { ix.bleveOnly = on }

// CachePostings makes a read-only index decode every posting list of at
// least minDF postings, within budget bytes; WarmPostings then decodes
// lists of minDF postings or more.
func CachePostings(ix *Index, minDF uint64, budget int64) {
	ix.plists.free()
	ix.plists = &plistCache{budget: budget, minDF: minDF, warmDF: minDF}
}

// BlockSkips is the number of block ranges MaxScore has skipped.
func BlockSkips() int64 { return blockSkips.Load() }

// QueryKeys are the title keys a query matches (queryKeys).
func QueryKeys(q string) []string { return queryKeys(q) }
