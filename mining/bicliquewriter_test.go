package mining

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestAppendBiclique(t *testing.T) {
	ids := []uint32{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12345, 99999, 100000, 4294967295}
	for _, v := range ids {
		if got := string(appendID(nil, v)); got != strconv.FormatUint(uint64(v), 10) {
			t.Errorf("appendID(%d) = %q", v, got)
		}
	}
	if got := string(AppendBiclique([]byte("x"), []uint32{3, 17}, []uint32{250})); got != "x3 17 | 250\n" {
		t.Errorf("AppendBiclique = %q", got)
	}
}

// TestBicliqueWriter checks the table-driven writer against AppendBiclique
// on random bicliques, with ids inside and beyond its tables, lines of every
// length and blocks that fill up many times.
func TestBicliqueWriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 13))
	id := func() uint32 {
		switch rng.IntN(4) {
		case 0:
			return uint32(rng.IntN(60)) // in the tables below
		case 1:
			return uint32(rng.IntN(1000))
		case 2:
			return rng.Uint32()
		}
		return math.MaxUint32 - uint32(rng.IntN(3))
	}
	var got strings.Builder
	bw := NewBicliqueWriter(&got, 50, 60)
	var want []byte
	for i := 0; i < 20000; i++ {
		left := make([]uint32, rng.IntN(8))
		right := make([]uint32, rng.IntN(8))
		if i%1000 == 999 {
			left = make([]uint32, 30000) // longer than a block
		}
		for j := range left {
			left[j] = id()
		}
		for j := range right {
			right[j] = id()
		}
		want = AppendBiclique(want, left, right)
		if err := bw.Write(left, right); err != nil {
			t.Fatal(err)
		}
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Fatalf("BicliqueWriter wrote %d bytes differing from AppendBiclique's %d", got.Len(), len(want))
	}
}
