package graph

import "testing"

func TestEstimatePages(t *testing.T) {
	for _, c := range []struct{ made, merged, fragments, want int }{
		{0, 0, 100, 0},      // nothing merged: unknown
		{0, 5, 100, 0},      // no page made yet: unknown
		{10, 20, 200, 100},  // pages per fragment so far, over all fragments
		{99, 100, 100, 100}, // never at or below what is made
		{100, 100, 100, 101},
		{3_000_000, 1 << 30, 3 << 30, 9_000_000}, // no int overflow
	} {
		if got := estimatePages(c.made, c.merged, c.fragments); got != c.want {
			t.Errorf("estimatePages(%d, %d, %d) = %d, want %d", c.made, c.merged, c.fragments, got, c.want)
		}
	}
}
