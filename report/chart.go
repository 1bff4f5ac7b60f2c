package report

import (
	"fmt"
	"math"
	"sort"

	"github.com/leaper-dev/leaper/internal/hist"
)

// chart is what the page's script hands to Chart.js: the numbers are all
// computed here, so the page only draws.
type chart struct {
	ID     string   `json:"id"`
	Title  string   `json:"title"`
	Kind   string   `json:"kind"` // bar, hbar (horizontal bars) or scatter
	Labels []string `json:"labels,omitempty"`
	Series []series `json:"series"`
	X      string   `json:"x,omitempty"` // axis titles
	Y      string   `json:"y,omitempty"`
	Note   string   `json:"note,omitempty"`
	// Stacked stacks bar series.
	Stacked bool `json:"stacked,omitempty"`
	// XMax and YMax bound a scatter's axes (1 for a rate); 0 leaves them
	// to the data.
	XMax float64 `json:"xmax,omitempty"`
	YMax float64 `json:"ymax,omitempty"`
}

// series is one dataset: bar heights, or scatter points with the index of
// the task each one is (so a click opens its card).
type series struct {
	Name   string       `json:"name"`
	Data   []float64    `json:"data,omitempty"`
	Points [][2]float64 `json:"points,omitempty"`
	Tasks  []int        `json:"tasks,omitempty"`
}

// points is the number of data points a chart draws.
func (c *chart) points() int {
	n := 0
	for _, s := range c.Series {
		n += len(s.Data) + len(s.Points)
	}
	return n
}

// bucketLabels names the buckets of h as leaper stats prints them.
func bucketLabels(h *hist.Histogram) []string {
	ls := make([]string, len(h.Counts))
	for i := range ls {
		switch {
		case len(h.Bounds) == 0:
			ls[i] = "all"
		case i == 0 && h.Integer && int(h.Bounds[0]) == 2:
			ls[i] = "1"
		case i == 0 && h.Integer:
			ls[i] = fmt.Sprintf("≤ %d", int(h.Bounds[0])-1)
		case i == 0:
			ls[i] = fmt.Sprintf("< %g", h.Bounds[0])
		case i == len(h.Bounds) && h.Integer:
			ls[i] = fmt.Sprintf("≥ %d", int(h.Bounds[i-1]))
		case i == len(h.Bounds):
			ls[i] = fmt.Sprintf("≥ %g", h.Bounds[i-1])
		case h.Integer && int(h.Bounds[i])-1 == int(h.Bounds[i-1]):
			ls[i] = fmt.Sprintf("%d", int(h.Bounds[i-1]))
		case h.Integer:
			ls[i] = fmt.Sprintf("%d–%d", int(h.Bounds[i-1]), int(h.Bounds[i])-1)
		default:
			ls[i] = fmt.Sprintf("%g–%g", h.Bounds[i-1], h.Bounds[i])
		}
	}
	return ls
}

func counts(h *hist.Histogram) []float64 {
	out := make([]float64, len(h.Counts))
	for i, c := range h.Counts {
		out[i] = float64(c)
	}
	return out
}

// histChart charts one histogram per series, all over the same buckets.
func histChart(id, title, x string, names []string, hs []hist.Histogram) chart {
	c := chart{ID: id, Title: title, Kind: "bar", X: x, Y: "count"}
	if len(hs) > 0 {
		c.Labels = bucketLabels(&hs[0])
	}
	for i, h := range hs {
		c.Series = append(c.Series, series{Name: names[i], Data: counts(&h)})
	}
	return c
}

// countChart charts counts by name as horizontal bars, the largest first,
// keeping the top n names and summing the rest as "other".
func countChart(id, title string, names []string, ms []map[string]int, n int) chart {
	tot := map[string]int{}
	for _, m := range ms {
		for k, v := range m {
			tot[k] += v
		}
	}
	ks := sortedKeys(tot)
	sort.SliceStable(ks, func(i, j int) bool { return tot[ks[i]] > tot[ks[j]] })
	other := n > 0 && len(ks) > n
	if other {
		ks = ks[:n]
	}
	c := chart{ID: id, Title: title, Kind: "hbar", Labels: append([]string(nil), ks...), X: "count"}
	if other {
		c.Labels = append(c.Labels, "other")
	}
	for i, m := range ms {
		s := series{Name: names[i]}
		rest := 0
		for _, v := range m {
			rest += v
		}
		for _, k := range ks {
			s.Data = append(s.Data, float64(m[k]))
			rest -= m[k]
		}
		if other {
			s.Data = append(s.Data, float64(rest))
		}
		c.Series = append(c.Series, s)
	}
	return c
}

// round3 keeps three decimals, so the page stays small.
func round3(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return math.Round(x*1000) / 1000
}
