package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// TestSpillMerge checks that fragments come out of a spill in (url, seq)
// order, each once and whole, whether they stayed in memory or went
// through runs written in the background.
func TestSpillMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	var in []fragment
	for i := range 3000 {
		f := fragment{url: fmt.Sprintf("https://en.wikipedia.org/wiki/P%d", r.IntN(400)), title: fmt.Sprint("T", i), kind: byte(r.IntN(3))}
		for range r.IntN(3) {
			f.segs = append(f.segs, Segment{Text: fmt.Sprint("text ", i), Kind: SegFact, Block: r.IntN(4), Entities: []uint32{r.Uint32(), uint32(i)}})
			f.names = append(f.names, fmt.Sprint("a", i), fmt.Sprint("b", i))
		}
		in = append(in, f)
	}
	for _, budget := range []int{2 << 10, 64 << 10, 1 << 30} {
		s, err := newSpill(t.TempDir(), budget)
		if err != nil {
			t.Fatal(err)
		}
		var want []fragment
		for i, f := range in {
			phase := byte(i % 3)
			if err := s.add(phase, f); err != nil {
				t.Fatal(err)
			}
			f.seq = uint64(phase)<<56 | uint64(i)
			want = append(want, f)
		}
		slices.SortStableFunc(want, func(a, b fragment) int { return cmpFragment(&a, &b) })
		var got []fragment
		if err := s.merge(func(f *fragment) error { got = append(got, *f); return nil }); err != nil {
			t.Fatal(err)
		}
		same := len(got) == len(want)
		for i := 0; same && i < len(got); i++ {
			same = bytes.Equal(encodeFragment(nil, &got[i]), encodeFragment(nil, &want[i]))
		}
		if !same {
			t.Errorf("budget %d: merged %d fragments, not the %d added in order", budget, len(got), len(want))
		}
		if runs := len(s.runs); budget == 1<<30 && runs != 1 || budget == 2<<10 && runs < 100 {
			t.Errorf("budget %d: %d runs", budget, runs)
		}
		s.close()
	}
}

// TestBackgroundRunFails checks that a run that cannot be written in the
// background is an error of the next call, for fragments and bitmap pairs.
func TestBackgroundRunFails(t *testing.T) {
	s, err := newSpill(t.TempDir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if err := s.add(phaseTree, fragment{url: "u1"}); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(s.dir); err != nil {
		t.Fatal(err)
	}
	err = s.add(phaseTree, fragment{url: "u2"}) // writes u1's run
	if err == nil {
		err = s.merge(func(*fragment) error { return nil })
	}
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("spill: %v, want the run's error", err)
	}

	dir := t.TempDir()
	b := newBitmaps(dir, 1)
	defer b.wait()
	trees := randomTrees(4, 3)
	if err := b.add(trees[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	err = b.add(trees[1])
	if err == nil {
		db, derr := badger.Open(badger.DefaultOptions("").WithInMemory(true).WithLogger(nil))
		if derr != nil {
			t.Fatal(derr)
		}
		defer db.Close()
		err = b.write(context.Background(), db)
	}
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("bitmaps: %v, want the run's error", err)
	}
}
