package mining

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// benchDir locates /work/shared/bench/mbe as ../shared/bench/mbe relative to
// the repository root, the parent of this package's directory.
func benchDir(tb testing.TB) string {
	tb.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Skip("cannot locate test file")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "shared", "bench", "mbe")
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("benchmark graphs not found: %v", err)
	}
	return dir
}

func loadGraph(tb testing.TB, name string) *Bipartite {
	tb.Helper()
	f, err := os.Open(filepath.Join(benchDir(tb), name))
	if err != nil {
		tb.Skipf("graph %s not found: %v", name, err)
	}
	defer f.Close()
	g, err := ReadAdj(f)
	if err != nil {
		tb.Fatalf("ReadAdj(%s): %v", name, err)
	}
	return g
}

func collect(tb testing.TB, g *Bipartite, opts Options) [][2][]uint32 {
	tb.Helper()
	var out [][2][]uint32
	st, err := Bicliques(context.Background(), g, &opts, func(l, r []uint32) error {
		if !slices.IsSorted(l) || !slices.IsSorted(r) {
			tb.Errorf("unsorted biclique %v | %v", l, r)
		}
		out = append(out, [2][]uint32{slices.Clone(l), slices.Clone(r)})
		return nil
	})
	if err != nil {
		tb.Fatalf("Bicliques: %v", err)
	}
	if st.Bicliques != int64(len(out)) {
		tb.Fatalf("Stats.Bicliques = %d, emitted %d", st.Bicliques, len(out))
	}
	return out
}

func sortBicliques(b [][2][]uint32) {
	slices.SortFunc(b, func(x, y [2][]uint32) int {
		return cmp.Or(slices.Compare(x[0], y[0]), slices.Compare(x[1], y[1]))
	})
}

func randomGraph(rng *rand.Rand, nl, nr int, p float64) *Bipartite {
	adj := make([][]uint32, nl)
	for i := range adj {
		for j := 0; j < nr; j++ {
			if rng.Float64() < p {
				adj[i] = append(adj[i], uint32(j))
			}
		}
	}
	g, err := NewBipartite(adj, nr)
	if err != nil {
		panic(err)
	}
	return g
}

func TestBicliquesMatchesbruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 600; iter++ {
		nl, nr := 1+rng.IntN(12), 1+rng.IntN(10)
		if iter%2 == 1 {
			nl, nr = nr, nl // exercise both search directions
		}
		p := []float64{0.1, 0.3, 0.5, 0.7, 0.9}[rng.IntN(5)]
		g := randomGraph(rng, nl, nr, p)
		opts := Options{MinLeft: rng.IntN(4), MinRight: rng.IntN(4)}
		want := bruteForce(g, opts)
		for _, workers := range []int{1, 3} {
			opts.Workers = workers
			got := collect(t, g, opts)
			sortBicliques(got)
			if !equalBicliques(got, want) {
				var buf bytes.Buffer
				_ = WriteAdj(&buf, g)
				t.Fatalf("iter %d, %dx%d p=%.1f %+v:\n%s\ngot  %v\nwant %v", iter, nl, nr, p, opts, buf.String(), got, want)
			}
		}
	}
}

func equalBicliques(a, b [][2][]uint32) bool {
	return slices.EqualFunc(a, b, func(x, y [2][]uint32) bool {
		return slices.Equal(x[0], y[0]) && slices.Equal(x[1], y[1])
	})
}

func TestBicliquesEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name string
		adj  [][]uint32
		nr   int
		want int
	}{
		{"empty", nil, 0, 0},
		{"no edges", [][]uint32{{}, {}}, 3, 0},
		{"single edge", [][]uint32{{0}}, 1, 1},
		{"twins", [][]uint32{{0, 1}, {0, 1}}, 2, 1},
		{"star", [][]uint32{{0, 1, 2}}, 3, 1},
		{"path", [][]uint32{{0}, {0, 1}, {1}}, 2, 3},
		{"wide", [][]uint32{seq(200), seq(130), {5, 199}}, 200, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := NewBipartite(tc.adj, tc.nr)
			if err != nil {
				t.Fatal(err)
			}
			got := collect(t, g, Options{})
			sortBicliques(got)
			if len(got) != tc.want {
				t.Fatalf("got %d bicliques %v, want %d", len(got), got, tc.want)
			}
			if tc.nr <= 20 {
				if want := bruteForce(g, Options{}); !equalBicliques(got, want) {
					t.Fatalf("got %v, want %v", got, want)
				}
			}
		})
	}
}

func seq(n int) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = uint32(i)
	}
	return s
}

func TestBicliquesWideRandom(t *testing.T) {
	// Neighbourhoods wider than 64 bits use multi-word bitsets; compare with
	// the brute force over the small side.
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 20; iter++ {
		nl, nr := 8+rng.IntN(6), 70+rng.IntN(100)
		if iter%2 == 1 {
			nl, nr = nr, nl
		}
		g := randomGraph(rng, nl, nr, 0.3+0.6*rng.Float64())
		opts := Options{MinLeft: rng.IntN(3), MinRight: rng.IntN(3)}
		got := collect(t, g, opts)
		sortBicliques(got)
		if want := bruteForce(g, opts); !equalBicliques(got, want) {
			t.Fatalf("iter %d %dx%d %+v: got %d bicliques, want %d", iter, nl, nr, opts, len(got), len(want))
		}
	}
}

var smallCounts = []struct {
	k, m int
	want int64
}{
	{1, 1, 117919}, {2, 2, 116511}, {3, 2, 110416}, {5, 3, 79049},
	{10, 3, 22967}, {20, 2, 3200}, {3, 5, 76992},
}

func TestBicliquesSmallSynthCounts(t *testing.T) {
	g := loadGraph(t, "synth_L2000_R300_s42.adj")
	for _, c := range smallCounts {
		t.Run(fmt.Sprintf("k%dm%d", c.k, c.m), func(t *testing.T) {
			st, err := Bicliques(context.Background(), g, &Options{MinLeft: c.k, MinRight: c.m}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if st.Bicliques != c.want {
				t.Fatalf("got %d bicliques, want %d", st.Bicliques, c.want)
			}
		})
	}
}

func formatBiclique(buf []byte, l, r []uint32) []byte {
	for k, x := range l {
		if k > 0 {
			buf = append(buf, ' ')
		}
		buf = strconv.AppendUint(buf, uint64(x), 10)
	}
	buf = append(buf, " |"...)
	for _, x := range r {
		buf = append(buf, ' ')
		buf = strconv.AppendUint(buf, uint64(x), 10)
	}
	return buf
}

func TestBicliquesSmallSynthExact(t *testing.T) {
	g := loadGraph(t, "synth_L2000_R300_s42.adj")
	f, err := os.Open(filepath.Join(benchDir(t), "synth_L2000_R300_s42.bicliques.txt.gz"))
	if err != nil {
		t.Skipf("reference list not found: %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		want = append(want, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	var got []string
	var buf []byte
	_, err = Bicliques(context.Background(), g, &Options{}, func(l, r []uint32) error {
		buf = formatBiclique(buf[:0], l, r)
		got = append(got, string(buf))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	slices.Sort(want)
	if len(got) != len(want) {
		t.Errorf("got %d bicliques, want %d", len(got), len(want))
	}
	for i, j, n := 0, 0, 0; (i < len(got) || j < len(want)) && n < 10; {
		switch {
		case j == len(want) || i < len(got) && got[i] < want[j]:
			t.Errorf("extra: %s", got[i])
			i, n = i+1, n+1
		case i == len(got) || got[i] > want[j]:
			t.Errorf("missing: %s", want[j])
			j, n = j+1, n+1
		default:
			i, j = i+1, j+1
		}
	}
}

func TestBicliquesDeterministic(t *testing.T) {
	g := loadGraph(t, "synth_L2000_R300_s42.adj")
	run := func(workers int) []string {
		var out []string
		var buf []byte
		_, err := Bicliques(context.Background(), g, &Options{MinLeft: 3, MinRight: 2, Workers: workers}, func(l, r []uint32) error {
			buf = formatBiclique(buf[:0], l, r)
			out = append(out, string(buf))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b, c := run(1), run(1), run(2)
	if !slices.Equal(a, b) || !slices.Equal(a, c) {
		t.Fatal("output order differs between runs")
	}
}

func TestBicliquesStops(t *testing.T) {
	g := loadGraph(t, "synth_L2000_R300_s42.adj")
	stop := errors.New("stop")
	for _, workers := range []int{1, 2} {
		n := 0
		_, err := Bicliques(context.Background(), g, &Options{Workers: workers}, func(l, r []uint32) error {
			if n++; n == 100 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) || n != 100 {
			t.Fatalf("workers %d: err %v after %d, want stop after 100", workers, err, n)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Bicliques(ctx, g, &Options{Workers: workers}, nil); !errors.Is(err, context.Canceled) {
			t.Fatalf("workers %d: cancelled context: err %v", workers, err)
		}
	}
}

func TestBicliquesBadOptions(t *testing.T) {
	g, _ := NewBipartite([][]uint32{{0}}, 1)
	if _, err := Bicliques(context.Background(), g, &Options{MinLeft: -1}, nil); !errors.Is(err, ErrBadOptions) {
		t.Fatalf("err %v, want ErrBadOptions", err)
	}
	// nil options are the defaults, and the caller's options are not
	// modified by filling them in.
	g, _ = NewBipartite([][]uint32{{0, 1}, {1}}, 2)
	st, err := Bicliques(context.Background(), g, nil, nil)
	if err != nil || st.Bicliques != 2 {
		t.Fatalf("nil options: %d bicliques, %v; want 2", st.Bicliques, err)
	}
	opts := &Options{}
	if _, err := Bicliques(context.Background(), g, opts, nil); err != nil || *opts != (Options{}) {
		t.Fatalf("options changed to %+v (%v)", *opts, err)
	}
}

func TestReadWriteAdj(t *testing.T) {
	in := "0 2 5\n\n1\n3 4\n"
	g, err := ReadAdj(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if g.NumLeft() != 4 || g.NumRight() != 6 || g.NumEdges() != 6 {
		t.Fatalf("got %d x %d with %d edges", g.NumLeft(), g.NumRight(), g.NumEdges())
	}
	if !slices.Equal(g.Right(2), []uint32{0}) || !slices.Equal(g.Right(4), []uint32{3}) {
		t.Fatalf("right lists %v %v", g.Right(2), g.Right(4))
	}
	var buf bytes.Buffer
	if err := WriteAdj(&buf, g); err != nil {
		t.Fatal(err)
	}
	if buf.String() != in {
		t.Fatalf("round trip: got %q, want %q", buf.String(), in)
	}
	if g, err := ReadAdj(strings.NewReader("1 2")); err != nil || g.NumLeft() != 1 {
		t.Fatalf("no final newline: %v", err)
	}
	for _, bad := range []struct {
		in   string
		line int
	}{
		{"1 2\n3 2\n", 2},
		{"1 1\n", 1},
		{"1\nx\n", 2},
		{"1 -2\n", 1},
		{"12a\n", 1},
		{"99999999999\n", 1},
	} {
		_, err := ReadAdj(strings.NewReader(bad.in))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != bad.line {
			t.Errorf("ReadAdj(%q) = %v, want ParseError on line %d", bad.in, err, bad.line)
		}
	}
}

func TestNewBipartiteErrors(t *testing.T) {
	for _, adj := range [][][]uint32{{{1, 0}}, {{0, 0}}, {{3}}} {
		if _, err := NewBipartite(adj, 3); !errors.Is(err, ErrBadGraph) {
			t.Errorf("NewBipartite(%v) = %v, want ErrBadGraph", adj, err)
		}
	}
}

func FuzzReadAdj(f *testing.F) {
	f.Add([]byte("0 2 5\n\n1\n"))
	f.Add([]byte("1 2\n3 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ReadAdj(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteAdj(&buf, g); err != nil {
			t.Fatal(err)
		}
		g2, err := ReadAdj(&buf)
		if err != nil {
			t.Fatalf("re-read: %v", err)
		}
		if g2.NumLeft() != g.NumLeft() || g2.NumEdges() != g.NumEdges() {
			t.Fatalf("round trip changed the graph")
		}
	})
}

// TestBicliquesColumnForm drives the search through levels with more than
// 64 candidate vertices and at most 64 rows, where branches switch to
// column form, with the excluded items reduced to an antichain at every
// level or only at the switch, against the brute force.
func TestBicliquesColumnForm(t *testing.T) {
	defer func(f, a int) { forceSides, antichainMin = f, a }(forceSides, antichainMin)
	rng := rand.New(rand.NewPCG(5, 6))
	for iter := 0; iter < 60; iter++ {
		// The A side (searched) is the wide one: 70..199 vertices over
		// 6..13 rows.
		nb, na := 6+rng.IntN(8), 70+rng.IntN(130)
		g := randomGraph(rng, nb, na, 0.2+0.7*rng.Float64())
		forceSides = 1 // add right vertices: A is the right side
		if iter%2 == 1 {
			g = transpose(g)
			forceSides = 2
		}
		antichainMin = []int{0, 32, 1 << 30}[iter%3]
		opts := Options{MinLeft: rng.IntN(3), MinRight: rng.IntN(3)}
		got := collect(t, g, opts)
		sortBicliques(got)
		if want := bruteForce(g, opts); !equalBicliques(got, want) {
			t.Fatalf("iter %d %dx%d %+v antichainMin %d: got %d bicliques, want %d",
				iter, g.NumLeft(), g.NumRight(), opts, antichainMin, len(got), len(want))
		}
	}
}

func transpose(g *Bipartite) *Bipartite {
	adj := make([][]uint32, g.NumRight())
	for j := range adj {
		adj[j] = slices.Clone(g.Right(j))
	}
	t, err := NewBipartite(adj, g.NumLeft())
	if err != nil {
		panic(err)
	}
	return t
}
