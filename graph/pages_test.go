package graph

import "testing"

func TestEstimatePages(t *testing.T) {
	for _, c := range []struct {
		made        int
		merged, all int64
		want        int
	}{
		{0, 0, 100, 0},      // nothing merged: unknown
		{0, 5, 100, 0},      // no page made yet: unknown
		{10, 20, 200, 100},  // pages per unit of work so far, over all of it
		{99, 100, 100, 100}, // never at or below what is made
		{100, 100, 100, 101},
		{3_000_000, 1 << 40, 3 << 40, 9_000_000}, // no overflow
	} {
		if got := estimatePages(c.made, c.merged, c.all); got != c.want {
			t.Errorf("estimatePages(%d, %d, %d) = %d, want %d", c.made, c.merged, c.all, got, c.want)
		}
	}
}
