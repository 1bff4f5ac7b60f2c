package mining

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchCases are the graphs of /work/shared/bench/mbe with the exact counts
// every published enumerator agrees on (see its README).
var benchCases = []struct {
	file string
	k, m int
	want int64
}{
	{"synth_L2000_R300_s42.adj", 1, 1, 117919},
	{"synth_L2000_R300_s42.adj", 3, 2, 110416},
	{"synth_L2000_R300_s42.adj", 10, 3, 22967},
	{"synth_L20000_R1000_s7.adj", 1, 1, 8108180},
	{"synth_L20000_R1000_s7.adj", 3, 2, 7905773},
	{"synth_L20000_R1000_s7.adj", 5, 3, 6350488},
	{"synth_L20000_R1000_s7.adj", 10, 3, 2324070},
	{"MovieLens.adj", 1, 1, 140266},
	{"YouTube.adj", 1, 1, 1826587},
}

// BenchmarkBicliques counts the maximal bicliques of each benchmark graph,
// one thread, and fails on a wrong count. Set MINING_BENCH_EMIT=1 to also
// build the sorted left and right slices for every biclique.
func BenchmarkBicliques(b *testing.B) {
	dir := benchDir(b)
	withEmit := os.Getenv("MINING_BENCH_EMIT") != ""
	graphs := map[string]*Bipartite{}
	for _, c := range benchCases {
		name := fmt.Sprintf("%s/k%dm%d", c.file[:len(c.file)-len(".adj")], c.k, c.m)
		b.Run(name, func(b *testing.B) {
			g := graphs[c.file]
			if g == nil {
				start := time.Now()
				f, err := os.Open(filepath.Join(dir, c.file))
				if err != nil {
					b.Skip(err)
				}
				g, err = ReadAdj(f)
				f.Close()
				if err != nil {
					b.Fatal(err)
				}
				b.Logf("%s: loaded in %v", c.file, time.Since(start))
				graphs[c.file] = g
			}
			var emit func(l, r []uint32) error
			var sizes int64
			if withEmit {
				emit = func(l, r []uint32) error { sizes += int64(len(l) + len(r)); return nil }
			}
			var st Stats
			for b.Loop() {
				var err error
				st, err = Bicliques(context.Background(), g, &Options{MinLeft: c.k, MinRight: c.m}, emit)
				if err != nil {
					b.Fatal(err)
				}
				if st.Bicliques != c.want {
					b.Fatalf("got %d bicliques, want %d", st.Bicliques, c.want)
				}
			}
			b.ReportMetric(float64(st.Bicliques), "bicliques")
			b.ReportMetric(float64(st.Bicliques)*float64(b.N)/b.Elapsed().Seconds(), "bicliques/s")
			b.ReportMetric(float64(st.Nodes), "nodes")
		})
	}
}

// BenchmarkReadAdj measures loading, which the reference timings include.
func BenchmarkReadAdj(b *testing.B) {
	dir := benchDir(b)
	for _, file := range []string{"synth_L2000_R300_s42.adj", "synth_L20000_R1000_s7.adj", "MovieLens.adj", "YouTube.adj"} {
		b.Run(file[:len(file)-len(".adj")], func(b *testing.B) {
			for b.Loop() {
				f, err := os.Open(filepath.Join(dir, file))
				if err != nil {
					b.Skip(err)
				}
				_, err = ReadAdj(f)
				f.Close()
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
