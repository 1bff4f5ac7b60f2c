package serve

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/clients")

// clientFixture is a request one client stack sends, taken from its public
// source (named in the file's leading // comment), and the fields its code
// reads from the answer.
type clientFixture struct {
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body"`
	// Reads maps a path (a.b[*].c, [n] for one item) to the type the
	// client needs there: string (not empty), number, list or null. A [*]
	// over an empty list fails: the client would read nothing.
	Reads map[string]string `json:"reads"`
}

// readFixture reads a fixture, dropping its leading // comment lines; it
// fails when the comment does not name a source file.
func readFixture(t *testing.T, path string) *clientFixture {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var src []string
	var body []string
	for _, ln := range strings.Split(string(data), "\n") {
		if c, ok := strings.CutPrefix(ln, "//"); ok {
			src = append(src, c)
			continue
		}
		body = append(body, ln)
	}
	if !regexp.MustCompile(`\w+/\S+\.py`).MatchString(strings.Join(src, " ")) {
		t.Fatalf("%s: the leading comment must name the client's source file", path)
	}
	var f clientFixture
	if err := json.Unmarshal([]byte(strings.Join(body, "\n")), &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &f
}

func TestClientShapes(t *testing.T) {
	tk := sampleTask(t)
	f := newFixture(t, nil, tk)
	var names []string
	for _, r := range tk.Answer.Rows {
		names = append(names, r[0])
	}
	answer := "| " + tk.Answer.Columns[0] + " |\n|---|\n| " + strings.Join(names, " |\n| ") + " |"
	vars := map[string]string{"query": f.query, "url": f.url, "token": "", "answer": answer}

	files, _ := filepath.Glob("testdata/clients/*.json")
	if len(files) < 9 {
		t.Fatalf("%d client fixtures; want one per client", len(files))
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			fx := readFixture(t, file)
			path := fill(fx.Path, vars, false)
			var body io.Reader
			if len(fx.Body) > 0 {
				body = strings.NewReader(fill(string(fx.Body), vars, true))
			}
			req, _ := http.NewRequest(fx.Method, f.ts.URL+path, body)
			for k, v := range fx.Headers {
				req.Header.Set(k, fill(v, vars, false))
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s %s: status %d: %s", fx.Method, path, resp.StatusCode, data)
			}
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatalf("answer not JSON: %q", data)
			}
			keys := make([]string, 0, len(fx.Reads))
			for k := range fx.Reads {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if err := checkRead(v, k, fx.Reads[k]); err != nil {
					t.Errorf("%s: %v", k, err)
				}
			}
			// Every passage or page shown carries its entities, for ISR and
			// ISE whatever shape the stack calls.
			if n := missingEntities(v); n > 0 {
				t.Errorf("%d passages or pages (objects with contents) without entities", n)
			}
			var pretty bytes.Buffer
			json.Indent(&pretty, data, "", "  ")
			golden := filepath.Join("testdata/clients", name+".golden")
			if *update {
				os.WriteFile(golden, pretty.Bytes(), 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(pretty.Bytes(), want) {
				t.Errorf("answer differs from %s (go test -update rewrites it):\n%s", golden, pretty.Bytes())
			}
			if name == "openrlhf" {
				var got struct{ Rewards []float64 }
				json.Unmarshal(data, &got)
				if len(got.Rewards) != 2 || got.Rewards[0] < 0.99 || got.Rewards[1] > 0.01 {
					t.Errorf("rewards %v: want the right answer ~1 and the wrong one ~0", got.Rewards)
				}
			}
		})
	}
}

// fill replaces {{name}} by vars[name], JSON-escaped inside a JSON body.
func fill(s string, vars map[string]string, inJSON bool) string {
	for k, v := range vars {
		if inJSON {
			b, _ := json.Marshal(v)
			v = string(b[1 : len(b)-1])
		}
		s = strings.ReplaceAll(s, "{{"+k+"}}", v)
	}
	return s
}

var stepRE = regexp.MustCompile(`^([^\[]*)((?:\[[^\]]*\])*)$`)

// checkRead walks path through v as the client's code does and checks the
// type of every value it reaches.
func checkRead(v any, path, typ string) error {
	cur := []any{v}
	for _, seg := range strings.Split(path, ".") {
		m := stepRE.FindStringSubmatch(seg)
		if m == nil {
			return fmt.Errorf("bad path segment %q", seg)
		}
		if m[1] != "" {
			var next []any
			for _, c := range cur {
				obj, ok := c.(map[string]any)
				if !ok {
					return fmt.Errorf("%q: not an object: %v", m[1], c)
				}
				x, ok := obj[m[1]]
				if !ok {
					return fmt.Errorf("no field %q", m[1])
				}
				next = append(next, x)
			}
			cur = next
		}
		for _, ix := range regexp.MustCompile(`\[([^\]]*)\]`).FindAllStringSubmatch(m[2], -1) {
			var next []any
			for _, c := range cur {
				list, ok := c.([]any)
				if !ok {
					return fmt.Errorf("%s: not a list: %v", seg, c)
				}
				if ix[1] == "*" {
					if len(list) == 0 {
						return fmt.Errorf("%s: empty list", seg)
					}
					next = append(next, list...)
					continue
				}
				n, err := strconv.Atoi(ix[1])
				if err != nil || n >= len(list) {
					return fmt.Errorf("%s: no item %s", seg, ix[1])
				}
				next = append(next, list[n])
			}
			cur = next
		}
	}
	for _, c := range cur {
		ok := false
		switch typ {
		case "string":
			s, isStr := c.(string)
			ok = isStr && s != ""
		case "number":
			_, ok = c.(float64)
		case "list":
			_, ok = c.([]any)
		case "null":
			ok = c == nil
		default:
			return fmt.Errorf("unknown type %q", typ)
		}
		if !ok {
			return fmt.Errorf("want %s, got %#v", typ, c)
		}
	}
	return nil
}

// missingEntities counts the objects in v that hold "contents" but no
// "entities" list.
func missingEntities(v any) int {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["contents"]; ok {
			if _, ok := x["entities"].([]any); !ok {
				n++
			}
		}
		for _, e := range x {
			n += missingEntities(e)
		}
	case []any:
		for _, e := range x {
			n += missingEntities(e)
		}
	}
	return n
}
