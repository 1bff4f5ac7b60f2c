package graph

import (
	"encoding/binary"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// A table export named by ids, as the Semantic Table Search corpus names
// its CSV files ("12774860-633577.csv": table 633577 of page 12774860),
// numbers a page's tables one after another. A corpus of such files may
// hold a sample of them: of the 92 parts of that export, sts-csv keeps
// 20, so most pages keep one of their tables and lose the rest ("every
// species" of a page that lists its monkeys in six tables, read off the
// one it keeps). The build records every table id it reads (ExportGap).

// exportName matches a file named by a page id and a table id.
var exportName = regexp.MustCompile(`(?:^|[/\\!])([0-9]{1,19})-([0-9]{1,19})\.csv$`)

// ExportIDs reads the page and table ids of a source file named by them.
func ExportIDs(source string) (page, table uint64, ok bool) {
	if !strings.HasSuffix(source, ".csv") {
		return 0, 0, false
	}
	m := exportName.FindStringSubmatch(source)
	if m == nil {
		return 0, 0, false
	}
	p, err1 := strconv.ParseUint(m[1], 10, 64)
	t, err2 := strconv.ParseUint(m[2], 10, 64)
	return p, t, err1 == nil && err2 == nil
}

func exportKey(table uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{pExport}, table)
}

// noteExport records the page of a table read from a file named by ids,
// whether it became a tree, was rejected, was a duplicate or could not be
// parsed: each tells where its page's tables begin or end.
func (b *Builder) noteExport(source string) error {
	p, t, ok := ExportIDs(source)
	if !ok {
		return nil
	}
	return b.set(exportKey(t), binary.BigEndian.AppendUint64(nil, p))
}

// ExportGap reports, for a table read from a file named by ids, the id of
// a table beside it that the store does not have, so that its page may
// hold more tables than the store gives: walking from the table's id down
// and up, the ids of its page go on until one of another page, and an id
// the build never read ends the walk unknown. ok is false for a table
// whose page's tables are all known, and for a source not so named.
// A store built before the ids were recorded has none, and every such
// table has a gap.
func (s *Store) ExportGap(source string) (gap uint64, ok bool, err error) {
	page, t, named := ExportIDs(source)
	if !named {
		return 0, false, nil
	}
	err = s.view(func(txn *badger.Txn) error {
		pageOf := func(id uint64) (uint64, bool, error) {
			item, err := txn.Get(exportKey(id))
			if errors.Is(err, badger.ErrKeyNotFound) {
				return 0, false, nil
			}
			if err != nil {
				return 0, false, err
			}
			var p uint64
			err = item.Value(func(v []byte) error {
				if len(v) != 8 {
					return errors.New("graph: export id: bad value")
				}
				p = binary.BigEndian.Uint64(v)
				return nil
			})
			return p, true, err
		}
		for _, down := range []bool{true, false} {
			for id := t; ; {
				if down {
					if id == 0 {
						break // the export's first table
					}
					id--
				} else {
					id++
				}
				p, have, err := pageOf(id)
				if err != nil {
					return err
				}
				if !have {
					gap, ok = id, true
					return nil
				}
				if p != page {
					break
				}
			}
		}
		return nil
	})
	return gap, ok, err
}
