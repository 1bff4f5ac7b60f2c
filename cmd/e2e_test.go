package cmd

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/ingest/storetest"
	storepkg "github.com/leaper-dev/leaper/store"

	"github.com/leaper-dev/leaper/graph/graphtest"
)

// TestMain lets tests run this binary as the leaper command: with
// LEAPER_MAIN=1 it is leaper.
func TestMain(m *testing.M) {
	if os.Getenv("LEAPER_MAIN") == "1" {
		os.Exit(Main())
	}
	storetest.Main(m)
}

func leaper(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	c := exec.Command(os.Args[0], args...)
	c.Env = append(os.Environ(), "LEAPER_MAIN=1")
	return c
}

func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	c := leaper(t, args...)
	var o, e bytes.Buffer
	c.Stdout, c.Stderr = &o, &e
	err := c.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBuildBadInput(t *testing.T) {
	in := t.TempDir()
	// Good tables, and each kind of bad input beside them.
	good, err := os.ReadFile(filepath.Join(graphtest.Corpus(), "csv", "Shooting_at_the_1988_Summer_Olympics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(in, "medals.csv"), good)
	writeFile(t, filepath.Join(in, "empty.csv"), nil)
	writeFile(t, filepath.Join(in, "notable.html"), []byte("<html><body><p>No table here.</p></body></html>"))
	writeFile(t, filepath.Join(in, "blob.bin"), []byte{0x7f, 'E', 'L', 'F', 0, 1, 2, 3, 0, 0, 0xff, 0xfe})
	lines := `{"url": "https://en.wikipedia.org/wiki/A", "title": "A", "header": [["Name", []], ["Club", []], ["Goals", []]], "data": []}
{"url": "https://en.wikipedia.org/wiki/B", "title": "B", "header": [["Nam` + "\n"
	writeFile(t, filepath.Join(in, "bad.jsonl"), []byte(lines))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Repeat(`{"url": "/wiki/Some_Entity", "text": "Some entity is a thing."}`+"\n", 50)))
	zw.Close()
	writeFile(t, filepath.Join(in, "cut.jsonl.gz"), gz.Bytes()[:gz.Len()/2])

	store := filepath.Join(t.TempDir(), "s")
	out, errOut, code := run(t, "build", "--store", store, in)
	if code != ExitPartial {
		t.Fatalf("exit %d, want %d (partial)\nstdout:\n%s\nstderr:\n%s", code, ExitPartial, out, errOut)
	}
	for _, want := range []string{"empty.csv", "notable.html", "blob.bin", "bad.jsonl:2", "cut.jsonl.gz"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr does not name %s:\n%s", want, errOut)
		}
	}
	// The rest was ingested and the store works.
	out, errOut, code = run(t, "--store", store, "stats", "--json")
	if code != 0 || !strings.Contains(out, `"trees": 1`) {
		t.Fatalf("stats after partial build: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, _, code := run(t, "--store", store, "search", "Olympics shooting"); code != 0 {
		t.Fatalf("search after partial build: exit %d", code)
	}
	// Inputs with nothing to read are an error, not an empty store in
	// silence.
	empty := t.TempDir()
	if _, e, code := run(t, "build", "-q", "--store", filepath.Join(t.TempDir(), "e"), empty); code != ExitError || !strings.Contains(e, "no tables or passages in "+empty) {
		t.Errorf("build of an empty directory: exit %d: %s", code, e)
	}
}

// TestBuildKilled kills leaper build with SIGKILL and with SIGINT at several
// points and checks that the store reopens and a second build completes it
// to the same counts as an uninterrupted build.
func TestBuildKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	ref := filepath.Join(t.TempDir(), "ref")
	start := time.Now()
	if _, e, code := run(t, "build", "-q", "--store", ref, graphtest.Corpus()); code != 0 {
		t.Fatalf("reference build: %d %s", code, e)
	}
	took := time.Since(start)
	want, _, _ := run(t, "--store", ref, "stats", "--json")
	want = strings.Replace(want, ref, "STORE", 1)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT} {
		for _, after := range []time.Duration{took / 5, took / 2, took * 4 / 5} {
			store := filepath.Join(t.TempDir(), "s")
			c := leaper(t, "build", "-q", "--store", store, graphtest.Corpus())
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(after)
			c.Process.Signal(sig)
			// A build the signal came too late for is complete already:
			// it exited, or it had committed and was closing the store
			// (then a second build is refused, as for any finished store).
			if err := c.Wait(); err != nil {
				state, _ := storepkg.State(store)
				switch state {
				case storepkg.Complete:
				default:
					// The store reopens (a killed writer leaves it for
					// the next build to recover) and the same build
					// completes it.
					if _, e, code := run(t, "build", "-q", "--store", store, graphtest.Corpus()); code != 0 {
						t.Fatalf("%v after %v (%v): rebuild exit %d: %s", sig, after, state, code, e)
					}
				}
			}
			got, e, code := run(t, "--store", store, "stats", "--json")
			if code != 0 {
				t.Fatalf("%v after %v: stats: %s", sig, after, e)
			}
			if got = strings.Replace(got, store, "STORE", 1); got != want {
				t.Fatalf("%v after %v: resumed store differs from an uninterrupted build:\n%s\nwant\n%s", sig, after, got, want)
			}
		}
	}
}

func TestBuildRefusesExisting(t *testing.T) {
	store := filepath.Join(t.TempDir(), "s")
	csv := filepath.Join(graphtest.Corpus(), "csv")
	if _, e, code := run(t, "build", "-q", "--store", store, csv); code != 0 {
		t.Fatal(e)
	}
	_, e, code := run(t, "build", "-q", "--store", store, csv)
	if code != ExitUsage || !strings.Contains(e, "--append") {
		t.Fatalf("second build: exit %d: %s", code, e)
	}
	if _, e, code := run(t, "build", "-q", "--append", "--store", store, csv); code != 0 {
		t.Fatalf("--append: %d %s", code, e)
	}
	// --force rebuilds the store and leaves what else the directory holds.
	writeFile(t, filepath.Join(store, "tasks.jsonl"), []byte("mine\n"))
	if _, e, code := run(t, "build", "-q", "--force", "--store", store, csv); code != 0 {
		t.Fatalf("--force: %d %s", code, e)
	}
	if b, err := os.ReadFile(filepath.Join(store, "tasks.jsonl")); err != nil || string(b) != "mine\n" {
		t.Errorf("--force removed a file beside the store: %q %v", b, err)
	}
	if out, e, code := run(t, "--store", store, "stats", "--json"); code != 0 || !strings.Contains(out, `"complete": true`) {
		t.Errorf("stats after --force: %d %s", code, e)
	}
}

func TestFlags(t *testing.T) {
	f := cmdutil.NewFactoryIO(IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	var got *BuildOptions
	c := newBuildCmd(f, func(_ context.Context, o *BuildOptions) error { got = o; return nil })
	c.SetArgs([]string{"--format", "csv", "--titles", "t.json", "--append", "a", "b"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Format != "csv" || got.Titles != "t.json" || !got.Append || len(got.Inputs) != 2 {
		t.Fatalf("parsed %+v", got)
	}
	var so *SearchOptions
	s := newSearchCmd(f, func(_ context.Context, o *SearchOptions) error { so = o; return nil })
	s.SetArgs([]string{"--filter-year", "2005", "-k", "3", "q1", "q2"})
	if err := s.Execute(); err != nil {
		t.Fatal(err)
	}
	if so.FilterYear != 2005 || so.TopK != 3 || len(so.Queries) != 2 {
		t.Fatalf("parsed %+v", so)
	}
	// --help never opens the store.
	root := NewRootCmd(f)
	root.SetArgs([]string{"--store", "/nonexistent/dir", "search", "--help"})
	if err := root.Execute(); err != nil {
		t.Fatalf("--help: %v", err)
	}
	if _, _, code := run(t, "build", "--format", "xml", "x"); code != ExitUsage {
		t.Fatalf("bad --format: exit %d", code)
	}
}

func TestReadCommands(t *testing.T) {
	store := storetest.SampleStore(t)
	out, e, code := run(t, "--store", store, "tree", "0")
	if code != 0 || !strings.Contains(out, "Layer 2 (key column") {
		t.Fatalf("tree: %d %s %s", code, out, e)
	}
	out, e, code = run(t, "--store", store, "entity", "--json", "https://en.wikipedia.org/wiki/Robert_Hofstadter")
	if code != 0 || !strings.Contains(out, `"key": "w:Robert Hofstadter"`) {
		t.Fatalf("entity: %d %s %s", code, out, e)
	}
	out, _, code = run(t, "--store", store, "visit", "--goal", "laureates", "https://en.wikipedia.org/wiki/List_of_Nobel_laureates_affiliated_with_the_University_of_Pennsylvania")
	if code != 0 || !strings.HasPrefix(out, "The useful information in") {
		t.Fatalf("visit: %d %s", code, out)
	}
	_, e, code = run(t, "--store", filepath.Join(t.TempDir(), "none"), "search", "x")
	if code != ExitError || !strings.Contains(e, "leaper build") {
		t.Fatalf("search without a store: %d %s", code, e)
	}
}

// TestBuildKilledInFinalize kills a build with SIGKILL as each stage of the
// finalize begins (its page fragments spilled to many runs on disk), then
// runs the same command: the store ends as an uninterrupted build's, and
// no spill is left behind.
func TestBuildKilledInFinalize(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	ref := filepath.Join(t.TempDir(), "ref")
	if _, e, code := run(t, "build", "-q", "--store", ref, graphtest.Corpus()); code != 0 {
		t.Fatalf("reference build: %d %s", code, e)
	}
	want, _, _ := run(t, "--store", ref, "stats", "--json")
	want = strings.Replace(want, ref, "STORE", 1)
	for _, stage := range []string{"bitmaps", "pages", "index", "compact"} {
		store := filepath.Join(t.TempDir(), "s")
		args := []string{"build", "--progress-every", "1ms", "--spill-budget", "20000", "--store", store, graphtest.Corpus()}
		c := leaper(t, args...)
		errOut, err := c.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		killed := false
		sc := bufio.NewScanner(errOut)
		for sc.Scan() {
			if !killed && strings.Contains(sc.Text(), ": "+stage+" ") {
				c.Process.Signal(syscall.SIGKILL)
				killed = true
			}
		}
		err = c.Wait()
		if !killed || err == nil {
			// The build ended before the stage was seen: nothing to test.
			t.Logf("%s: not killed in time (%v)", stage, err)
		}
		// A kill that came after the build committed (the test process
		// may be descheduled on a loaded machine) leaves a finished store,
		// which a second build refuses; anything else is resumed.
		if state, _ := storepkg.State(store); state != storepkg.Complete {
			if _, e, code := run(t, "build", "-q", "--store", store, graphtest.Corpus()); code != 0 {
				t.Fatalf("killed in %s (%v): rebuild exit %d: %s", stage, state, code, e)
			}
		}
		got, e, code := run(t, "--store", store, "stats", "--json")
		if code != 0 {
			t.Fatalf("killed in %s: stats: %s", stage, e)
		}
		if got = strings.Replace(got, store, "STORE", 1); got != want {
			t.Fatalf("killed in %s: resumed store differs from an uninterrupted build:\n%s\nwant\n%s", stage, got, want)
		}
		if left, _ := filepath.Glob(filepath.Join(store, "spill", "*")); len(left) > 0 {
			t.Errorf("killed in %s: spill left behind: %v", stage, left)
		}
	}
}

// TestDemoEndToEnd: the demo runs every step over the sample corpus.
func TestDemoEndToEnd(t *testing.T) {
	store := filepath.Join(t.TempDir(), "demo")
	out, e, code := run(t, "--store", store, "demo", "--data", filepath.Join("..", "testdata", "corpus"))
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s\n%s", code, e, out)
	}
	// Each step is headed by a command that runs as shown: with the store.
	for _, want := range []string{"=== leaper build", "=== leaper --store " + store + " rollout", "=== leaper --store " + store + " eval", "oracle ISR"} {
		if !strings.Contains(out+e, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	// The demo rebuilds its own store, and refuses to wipe any other.
	if _, e, code := run(t, "--store", store, "demo", "--data", filepath.Join("..", "testdata", "corpus")); code != 0 {
		t.Errorf("demo again on its store: exit %d\n%s", code, e)
	}
	other := t.TempDir()
	writeFile(t, filepath.Join(other, "notes.txt"), []byte("mine"))
	if _, e, code := run(t, "--store", other, "demo", "--data", filepath.Join("..", "testdata", "corpus")); code != ExitUsage || !strings.Contains(e, "not an earlier demo's store") {
		t.Errorf("demo on a directory of something else: exit %d\n%s", code, e)
	}
	if _, err := os.Stat(filepath.Join(other, "notes.txt")); err != nil {
		t.Errorf("demo wiped the directory: %v", err)
	}
}
