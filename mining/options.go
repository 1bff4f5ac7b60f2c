package mining

import "fmt"

// Options select which maximal bicliques Bicliques reports.
type Options struct {
	// MinLeft and MinRight are the smallest reported side sizes. Values below
	// 1 mean 1: a biclique always has at least one vertex on each side.
	MinLeft, MinRight int
	// Workers is the number of goroutines. 0 and 1 run in the calling
	// goroutine; more split the search by top-level branch.
	Workers int
}

// Stats describes one enumeration.
type Stats struct {
	// Bicliques is the number of maximal bicliques reported.
	Bicliques int64
	// Nodes is the number of search-tree branches examined, including those
	// rejected as non-maximal.
	Nodes int64
	// NonMaximal is the number of branches rejected because an earlier
	// vertex covered them.
	NonMaximal int64
	// Roots is the number of top-level branches searched after pruning.
	Roots int64
	// SwappedSides reports that the search added left vertices one at a
	// time and intersected their right neighbourhoods, rather than the
	// default of adding right vertices; see the package doc.
	SwappedSides bool
}

func (s *Stats) add(o Stats) {
	s.Bicliques += o.Bicliques
	s.Nodes += o.Nodes
	s.NonMaximal += o.NonMaximal
	s.Roots += o.Roots
}

// normalize returns a copy of opts (nil means the defaults) with defaults
// filled in, or reports why they are unusable.
func (opts *Options) normalize() (Options, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MinLeft < 0 || o.MinRight < 0 || o.Workers < 0 {
		return o, fmt.Errorf("%w: MinLeft %d, MinRight %d, Workers %d must not be negative",
			ErrBadOptions, o.MinLeft, o.MinRight, o.Workers)
	}
	o.MinLeft = max(o.MinLeft, 1)
	o.MinRight = max(o.MinRight, 1)
	o.Workers = max(o.Workers, 1)
	return o, nil
}
