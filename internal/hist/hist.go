// Package hist is leaper's one bucketed histogram, used by the store's
// statistics (graph.Store.Stats), the task statistics and the evaluation
// report (agent/eval). Latencies are recorded by web/serve's lock-free
// LatencyRecorder, which estimates quantiles rather than counting fixed
// buckets.
package hist

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Histogram counts values in fixed buckets: bucket i holds values
// < Bounds[i] (and ≥ Bounds[i-1]); a last open bucket holds the rest. It
// also keeps the minimum, maximum and mean of the values added.
type Histogram struct {
	Bounds []float64 `json:"bounds"`
	Counts []int     `json:"counts"`
	Min    float64   `json:"min"`
	Max    float64   `json:"max"`
	Mean   float64   `json:"mean"`
	// Integer labels the buckets of whole numbers as "10-19" rather
	// than "10-20".
	Integer bool `json:"-"`
}

// New makes an empty histogram of real values over bounds.
func New(bounds ...float64) Histogram {
	return Histogram{Bounds: bounds, Counts: make([]int, len(bounds)+1)}
}

// NewInt makes an empty histogram of whole numbers over bounds.
func NewInt(bounds ...int) Histogram {
	fb := make([]float64, len(bounds))
	for i, b := range bounds {
		fb[i] = float64(b)
	}
	h := New(fb...)
	h.Integer = true
	return h
}

// Add counts v.
func (h *Histogram) Add(v float64) {
	i := sort.Search(len(h.Bounds), func(i int) bool { return v < h.Bounds[i] })
	h.Counts[i]++
	n := h.N()
	h.Mean += (v - h.Mean) / float64(n)
	if n == 1 || v < h.Min {
		h.Min = v
	}
	if n == 1 || v > h.Max {
		h.Max = v
	}
}

// N is the number of values added.
func (h *Histogram) N() int {
	n := 0
	for _, c := range h.Counts {
		n += c
	}
	return n
}

// Print writes the histogram as text bars, one per bucket, the largest 40
// wide.
func (h *Histogram) Print(w io.Writer, indent string) {
	Bars(w, indent, h.Counts, func(i int) string {
		switch {
		case i == 0 && h.Integer:
			return fmt.Sprintf("< %d", int(h.Bounds[0]))
		case i == 0:
			return fmt.Sprintf("< %g", h.Bounds[0])
		case i == len(h.Bounds) && h.Integer:
			return fmt.Sprintf(">= %d", int(h.Bounds[i-1]))
		case i == len(h.Bounds):
			return fmt.Sprintf(">= %g", h.Bounds[i-1])
		case h.Integer:
			return fmt.Sprintf("%d-%d", int(h.Bounds[i-1]), int(h.Bounds[i])-1)
		}
		return fmt.Sprintf("%g-%g", h.Bounds[i-1], h.Bounds[i])
	})
}

// Bars writes one labelled bar per count, the largest 40 wide.
func Bars(w io.Writer, indent string, counts []int, label func(i int) string) {
	top := 1
	for _, c := range counts {
		top = max(top, c)
	}
	for i, c := range counts {
		fmt.Fprintf(w, "%s%-10s %6d %s\n", indent, label(i), c, strings.Repeat("#", (c*40+top-1)/top))
	}
}
