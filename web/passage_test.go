package web

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestASCIIPassageScore holds the allocation-free score of a passage equal
// to the general one on random ASCII texts.
func TestASCIIPassageScore(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	vocab := strings.Fields("The the Senate senate 1990 a an of Congress congress-man seats 50 Fewer fewer X2 x2 won't -- , . | ## (r3)")
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(vocab[r.IntN(len(vocab))])
			b.WriteString([]string{" ", "", ", ", "\n", "'"}[r.IntN(5)])
		}
		return b.String()
	}
	var buf []byte
	for range 2000 {
		q := text(1 + r.IntN(6))
		var words []string
		for _, w := range wordsOf(q) {
			if len(w) > 2 && !strings.Contains(strings.Join(words, " ")+" ", w+" ") {
				words = append(words, w)
			}
		}
		key := alnum(text(r.IntN(3)))
		p := text(r.IntN(40))
		want := passageScore(p, words, key)
		var got int
		var ok bool
		got, buf, ok = asciiPassageScore(p, words, []byte(key), buf)
		if !ok || got != want {
			t.Fatalf("passage %q, words %q, key %q: %d, %v; want %d", p, words, key, got, ok, want)
		}
	}
	if _, _, ok := asciiPassageScore("Zürich", []string{"zurich"}, nil, nil); ok {
		t.Error("a non-ASCII text scored by the ASCII path")
	}
}
