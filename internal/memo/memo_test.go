package memo

import (
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestFuncKeepsResults(t *testing.T) {
	calls := 0
	up := New(func(s string) string { calls++; return strings.ToUpper(s) })
	for range 3 {
		if got := up.Get("abc"); got != "ABC" {
			t.Fatalf("Get(abc) = %q", got)
		}
	}
	if got := up.Get("x"); got != "X" {
		t.Fatalf("Get(x) = %q", got)
	}
	if calls != 2 {
		t.Errorf("f called %d times for two distinct arguments, want 2", calls)
	}
}

func TestFuncStartsAfreshAtLimit(t *testing.T) {
	id := New(func(s string) string { return s })
	for i := range limit + 10 {
		id.Get(strconv.Itoa(i))
	}
	if n := len(id.m); n > limit {
		t.Errorf("kept %d results, want at most %d", n, limit)
	}
}

func TestFuncConcurrent(t *testing.T) {
	up := New(strings.ToUpper)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				s := string(rune('a' + (g+i)%26))
				if got := up.Get(s); got != strings.ToUpper(s) {
					t.Errorf("Get(%q) = %q", s, got)
					return
				}
			}
		}()
	}
	wg.Wait()
}
