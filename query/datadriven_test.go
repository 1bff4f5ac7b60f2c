package query_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/query"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata/query/*.txt")

// A data-driven case is a command line, its input, "----" and the expected
// output, separated from the next case by a blank line (pebble's format).
// Commands:
//
//	parse   the compact form and the triple form of the input
//	query   the rows (names) of Eval over the sample store, which must
//	        equal EvalNaive's, or the error
type ddCase struct {
	cmd, input, want string
	line             int
}

func readCases(t *testing.T, path string) (cases []ddCase, header []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			if len(cases) == 0 {
				header = append(header, l)
			}
			i++
			continue
		}
		c := ddCase{cmd: strings.TrimSpace(l), line: i + 1}
		i++
		var in []string
		for i < len(lines) && lines[i] != "----" {
			in = append(in, lines[i])
			i++
		}
		i++
		var out []string
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
			out = append(out, lines[i])
			i++
		}
		c.input, c.want = strings.Join(in, "\n"), strings.Join(out, "\n")
		cases = append(cases, c)
	}
	return cases, header
}

func TestDataDriven(t *testing.T) {
	g := storetest.OpenGraph(t)
	ctx := context.Background()
	oracle, err := query.NewNestedLoops(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(graphtest.RepoRoot(), "testdata", "query", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no testdata/query/*.txt")
	}
	for _, path := range files {
		if filepath.Base(path) == "bench.txt" {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			cases, header := readCases(t, path)
			var out strings.Builder
			for _, h := range header {
				out.WriteString(h + "\n")
			}
			for i, c := range cases {
				got := runCase(t, ctx, g, oracle, c)
				if !*update && got != c.want {
					t.Errorf("%s:%d: %s\n%s\ngot:\n%s\nwant:\n%s", filepath.Base(path), c.line, c.cmd, c.input, got, c.want)
				}
				if i > 0 {
					out.WriteString("\n")
				}
				fmt.Fprintf(&out, "%s\n%s\n----\n%s\n", c.cmd, c.input, got)
			}
			if *update {
				if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func runCase(t *testing.T, ctx context.Context, g *graph.Store, oracle *query.NestedLoops, c ddCase) string {
	q, err := query.Parse(c.input)
	if err != nil {
		return "error: " + err.Error()
	}
	switch c.cmd {
	case "parse":
		s := q.String()
		if q2, err := query.Parse(s); err != nil || !reflect.DeepEqual(q, q2) {
			t.Errorf("line %d: compact form %q does not read back: %v", c.line, s, err)
		}
		js, err := q.MarshalJSON()
		if err != nil {
			return s + "\njson: " + err.Error()
		}
		return s + "\njson: " + string(js)
	case "query":
		res, err := query.Eval(ctx, g, q)
		naive, nerr := oracle.Eval(ctx, q)
		if (err == nil) != (nerr == nil) || err == nil && !reflect.DeepEqual(res, naive) {
			t.Errorf("line %d: Eval and EvalNaive differ:\n%+v %v\n%+v %v", c.line, res, err, naive, nerr)
		}
		if err != nil {
			return "error: " + err.Error()
		}
		return formatResult(t, g, res)
	}
	t.Fatalf("line %d: unknown command %q", c.line, c.cmd)
	return ""
}

func formatResult(t *testing.T, g *graph.Store, res *query.Result) string {
	names, err := res.Names(g)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(strings.Join(res.Columns, " | "))
	for _, row := range names {
		b.WriteString("\n" + strings.Join(row, " | "))
	}
	if a := res.Aggregate; a != nil {
		fmt.Fprintf(&b, "\n= %s(%s) %s", a.Op, a.Column, a.Value)
	}
	fmt.Fprintf(&b, "\n(%d rows)", len(res.Rows))
	return b.String()
}
