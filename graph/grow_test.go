package graph

import "testing"

func TestGrowFor(t *testing.T) {
	var s []int
	for i := range 5000 {
		s = growFor(s, 1, 3000)
		if cap(s) > max(3000, i+1) {
			t.Fatalf("at %d elements: capacity %d, past the limit", i, cap(s))
		}
		s = append(s, i)
	}
	for i, v := range s {
		if v != i {
			t.Fatalf("s[%d] = %d after growing", i, v)
		}
	}
	// Room for n at once, whatever the limit.
	s = growFor(s[:10], 100000, 0)
	if len(s) != 10 || cap(s) < 100010 || s[9] != 9 {
		t.Fatalf("growFor(n=100000): len %d cap %d", len(s), cap(s))
	}
}
