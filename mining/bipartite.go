package mining

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// Bipartite is an immutable bipartite graph. Left vertices are numbered
// 0..NumLeft()-1 and right vertices 0..NumRight()-1. Both directions are kept
// in compressed sparse row form, so a Bipartite can be shared by concurrent
// enumerations.
type Bipartite struct {
	numRight int
	lOff     []int    // left vertex i has right neighbours lNbr[lOff[i]:lOff[i+1]]
	lNbr     []uint32 // sorted within each vertex
	rOff     []int    // right vertex j has left neighbours rNbr[rOff[j]:rOff[j+1]]
	rNbr     []uint32 // sorted within each vertex
}

// NewBipartite builds a graph from left adjacency lists: adj[i] lists the right
// neighbours of left vertex i in strictly increasing order, each below
// numRight. The lists are copied. An error wrapping ErrBadGraph reports the
// first offending vertex.
func NewBipartite(adj [][]uint32, numRight int) (*Bipartite, error) {
	if numRight < 0 || int64(numRight) > 1<<32 {
		return nil, fmt.Errorf("%w: numRight %d out of range", ErrBadGraph, numRight)
	}
	n := 0
	for i, a := range adj {
		for k, v := range a {
			if int64(v) >= int64(numRight) {
				return nil, fmt.Errorf("%w: left vertex %d: right id %d >= numRight %d", ErrBadGraph, i, v, numRight)
			}
			if k > 0 && a[k-1] >= v {
				return nil, fmt.Errorf("%w: left vertex %d: right ids not strictly increasing at %d", ErrBadGraph, i, v)
			}
		}
		n += len(a)
	}
	g := &Bipartite{numRight: numRight, lOff: make([]int, len(adj)+1), lNbr: make([]uint32, 0, n)}
	for i, a := range adj {
		g.lNbr = append(g.lNbr, a...)
		g.lOff[i+1] = len(g.lNbr)
	}
	g.buildRight()
	return g, nil
}

// buildRight fills the right-to-left direction from the left lists. Left ids
// are visited in increasing order, so every right list comes out sorted.
func (g *Bipartite) buildRight() {
	g.rOff = make([]int, g.numRight+1)
	for _, v := range g.lNbr {
		g.rOff[v+1]++
	}
	for j := 0; j < g.numRight; j++ {
		g.rOff[j+1] += g.rOff[j]
	}
	g.rNbr = make([]uint32, len(g.lNbr))
	pos := make([]int, g.numRight)
	copy(pos, g.rOff[:g.numRight])
	for i := 0; i+1 < len(g.lOff); i++ {
		for _, v := range g.lNbr[g.lOff[i]:g.lOff[i+1]] {
			g.rNbr[pos[v]] = uint32(i)
			pos[v]++
		}
	}
}

// NumLeft returns the number of left vertices.
func (g *Bipartite) NumLeft() int { return len(g.lOff) - 1 }

// NumRight returns the number of right vertices.
func (g *Bipartite) NumRight() int { return g.numRight }

// NumEdges returns the number of edges.
func (g *Bipartite) NumEdges() int { return len(g.lNbr) }

// Left returns the sorted right neighbours of left vertex i. The slice
// belongs to the graph and must not be modified.
func (g *Bipartite) Left(i int) []uint32 { return g.lNbr[g.lOff[i]:g.lOff[i+1]:g.lOff[i+1]] }

// Right returns the sorted left neighbours of right vertex j. The slice
// belongs to the graph and must not be modified.
func (g *Bipartite) Right(j int) []uint32 { return g.rNbr[g.rOff[j]:g.rOff[j+1]:g.rOff[j+1]] }

// ReadAdj reads a graph in adjacency format: line i (0-based) lists the
// right neighbours of left vertex i as sorted, space-separated decimal ids.
// An empty line is a left vertex without edges; a final newline does not
// start another vertex. NumRight is one more than the largest id. Malformed
// lines yield a *ParseError.
func ReadAdj(r io.Reader) (*Bipartite, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("mining: read adjacency: %w", err)
	}
	g := &Bipartite{lOff: make([]int, 1, 1024), lNbr: make([]uint32, 0, len(data)/4)}
	maxID := -1
	line := 0
	for p := 0; p < len(data); {
		line++
		start := len(g.lNbr)
		for p < len(data) && data[p] != '\n' {
			c := data[p]
			switch {
			case c == ' ' || c == '\t' || c == '\r':
				p++
			case c >= '0' && c <= '9':
				var v uint64
				q := p
				for p < len(data) && data[p] >= '0' && data[p] <= '9' {
					v = v*10 + uint64(data[p]-'0')
					if v > 1<<32-2 {
						return nil, &ParseError{Line: line, Msg: "right id out of range: " + string(data[q:min(p+1, len(data))]) + "..."}
					}
					p++
				}
				if p < len(data) && data[p] != ' ' && data[p] != '\t' && data[p] != '\r' && data[p] != '\n' {
					return nil, &ParseError{Line: line, Msg: fmt.Sprintf("unexpected character %q", data[p])}
				}
				if len(g.lNbr) > start && uint64(g.lNbr[len(g.lNbr)-1]) >= v {
					return nil, &ParseError{Line: line, Msg: "right ids not strictly increasing at " + strconv.FormatUint(v, 10)}
				}
				g.lNbr = append(g.lNbr, uint32(v))
				maxID = max(maxID, int(v))
			default:
				return nil, &ParseError{Line: line, Msg: fmt.Sprintf("unexpected character %q", c)}
			}
		}
		p++ // the newline
		g.lOff = append(g.lOff, len(g.lNbr))
	}
	g.numRight = maxID + 1
	g.buildRight()
	return g, nil
}

// WriteAdj writes g in the format read by ReadAdj. Right vertices without
// edges beyond the largest used id are not represented.
func WriteAdj(w io.Writer, g *Bipartite) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf []byte
	for i := 0; i < g.NumLeft(); i++ {
		buf = buf[:0]
		for k, v := range g.Left(i) {
			if k > 0 {
				buf = append(buf, ' ')
			}
			buf = strconv.AppendUint(buf, uint64(v), 10)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("mining: write adjacency: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("mining: write adjacency: %w", err)
	}
	return nil
}
