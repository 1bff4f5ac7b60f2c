package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/leaper-dev/leaper/agent"
)

// writeOneOrMany prints one value as a JSON object, several as a list.
func writeOneOrMany[T any](w io.Writer, vs []T) error {
	if len(vs) == 1 {
		return writeJSON(w, vs[0])
	}
	return writeJSON(w, vs)
}

// mapErr applies f to each element, stopping at the first error.
func mapErr[A, B any](as []A, f func(A) (B, error)) ([]B, error) {
	bs := make([]B, 0, len(as))
	for _, a := range as {
		b, err := f(a)
		if err != nil {
			return nil, err
		}
		bs = append(bs, b)
	}
	return bs, nil
}

// sortedStrings are the keys of m in order.
func sortedStrings[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// printCounts prints m under title, the largest counts first.
func printCounts(w io.Writer, title string, m map[string]int) {
	if len(m) == 0 {
		return
	}
	keys := sortedStrings(m)
	sort.SliceStable(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	fmt.Fprintln(w, title)
	for _, k := range keys {
		fmt.Fprintf(w, "  %-36s %7d\n", k, m[k])
	}
}

// eachTrajectory calls fn with every trajectory of a file (or stdin for
// -) and its line, through the one decoder of trajectories
// (agent.EachTrajectory), stopping when ctx is done.
func eachTrajectory(ctx context.Context, path string, in io.Reader, fn func(t *agent.Trajectory, line []byte) error) error {
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	return agent.EachTrajectory(in, path, func(t *agent.Trajectory, line []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fn(t, line)
	})
}
