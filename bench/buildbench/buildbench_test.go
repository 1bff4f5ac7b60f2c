package buildbench

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const sample = "../../ingest/table/testdata/sts-csv"

func TestRenameTable(t *testing.T) {
	in := []byte("Year,Film,Director\n2011,Hugo_(film),Martin_Scorsese\nYear,Film,Director\nPilot,Some text,1999\nThe pilot,Hugo,Nolan\n")
	got := string(renameTable(in, 3))
	want := "Year,Film,Director\n2011,Hugo_(film)_(r3),Martin_Scorsese_(r3)\nYear,Film,Director\nPilot_(r3),Some text,1999\nThe pilot (r3),Hugo_(r3),Nolan_(r3)\n"
	if got != want {
		t.Errorf("renameTable:\n got %q\nwant %q", got, want)
	}
	if got := renameFile("91320-177906.csv", 2); got != "2000091320-177906.csv" {
		t.Errorf("renameFile = %q", got)
	}
}

func TestReplayDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	ra, err := Replay(context.Background(), []string{sample}, 15, a, &ReplayOptions{PerArchive: 4})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Replay(context.Background(), []string{sample}, 15, b, &ReplayOptions{PerArchive: 4}); err != nil {
		t.Fatal(err)
	}
	if len(ra.Archives) != 4 || ra.Tables != 15 || ra.Replicas != 3 {
		t.Fatalf("replay report %+v", ra)
	}
	for _, p := range ra.Archives {
		x, _ := os.ReadFile(p)
		y, err := os.ReadFile(filepath.Join(b, filepath.Base(p)))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two replays (%v)", filepath.Base(p), err)
		}
	}
	// Replica 0 is the corpus byte for byte.
	var first []byte
	readArchive(ra.Archives[0], func(name string, b []byte) error {
		if first == nil {
			first = b
		}
		return nil
	})
	srcs, _ := readSources(context.Background(), []string{sample})
	if !bytes.Equal(first, srcs[0].data) {
		t.Error("replica 0 is not the corpus")
	}
}

// TestMeasureReplay replays the bundled sts-csv sample to three times its
// size and measures its build by a leaper binary built for the test.
func TestMeasureReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the leaper binary")
	}
	bin := filepath.Join(t.TempDir(), "leaper")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/leaper-dev/leaper/cmd/leaper").CombinedOutput(); err != nil {
		t.Skipf("go build: %v\n%s", err, out)
	}
	srcs, err := readSources(context.Background(), []string{sample})
	if err != nil || len(srcs) == 0 {
		t.Fatalf("sample: %d tables, %v", len(srcs), err)
	}
	n := 3 * len(srcs)
	var log bytes.Buffer
	res, err := Run(context.Background(), &Options{Inputs: []string{sample}, Sizes: []int{len(srcs), n},
		Work: t.TempDir(), Measure: MeasureOptions{Leaper: bin}, Log: &log, ResumeAt: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 {
		t.Fatalf("%d results", len(res))
	}
	one, three := res[0], res[1]
	for _, r := range res {
		if r.PeakRSS <= 0 || r.StoreSize <= 0 || r.Wall <= 0 || r.TablesPerSec <= 0 {
			t.Errorf("%s: unmeasured: %+v", r.Label, r)
		}
	}
	// Renamed replicas are new tables with new entities, not duplicates;
	// a file without a header row is skipped in each.
	if three.Tables+three.Skipped != n || three.Duplicates != 0 || three.Skipped != 3*one.Skipped {
		t.Errorf("replay of %d: %d tables, %d skipped (%d of the corpus), %d duplicates", n, three.Tables, three.Skipped, one.Skipped, three.Duplicates)
	}
	if three.Trees != 3*one.Trees || one.Trees == 0 {
		t.Errorf("trees: %d for the corpus, %d for three replicas", one.Trees, three.Trees)
	}
	if three.Counts.Entities <= 2*one.Counts.Entities {
		t.Errorf("entities: %d for the corpus, %d for three replicas: replicas share their entities", one.Counts.Entities, three.Counts.Entities)
	}
	// Each size was also killed part way and completed by the same
	// command, with the same counts.
	for _, r := range res {
		if r.Resume == nil || !r.Resume.Same || r.Resume.Counts.Trees != r.Trees {
			t.Errorf("%s: resume: %+v, want the counts %+v", r.Label, r.Resume, r.Counts)
		}
	}
	// Against an earlier run, only the resume check runs; against counts
	// that are not the build's, it reports them different.
	wrong := three
	wrong.Counts.Pages++
	for _, c := range []struct {
		ref  Result
		same bool
	}{{three, true}, {wrong, false}} {
		res, err := Run(context.Background(), &Options{Inputs: []string{sample}, Sizes: []int{n},
			Work: t.TempDir(), Measure: MeasureOptions{Leaper: bin}, Log: &log, ResumeAt: 0.3, Against: map[int]Result{n: c.ref}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 1 || !res[0].Earlier || res[0].Wall != three.Wall || res[0].Resume == nil {
			t.Fatalf("against an earlier run: %+v", res)
		}
		if rr := res[0].Resume; rr.Same != c.same || rr.Counts != three.Counts {
			t.Errorf("against counts %+v: resumed with %+v, same %v, want %v", c.ref.Counts, rr.Counts, rr.Same, c.same)
		}
	}
	t.Logf("%s", log.String())
}

// TestReplayPassages: the replayed wiki-18 corpus is deterministic, has
// the passages asked for with ids from 0, each a "Title" line and at most
// PassageWords words, and renames the articles of each further replica.
func TestReplayPassages(t *testing.T) {
	src := []string{filepath.Join("..", "..", "testdata", "corpus", "ottqa", "passages.jsonl.gz")}
	ctx := context.Background()
	var outs [2][]byte
	var rep *PassageReport
	for i := range outs {
		dir := t.TempDir()
		var err error
		rep, err = ReplayPassages(ctx, src, 5000, 3000, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			outs[i] = append(outs[i], b...)
		}
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("two replays differ")
	}
	if rep.Passages != 5000 || len(rep.Files) != 2 || rep.Replicas < 2 {
		t.Fatalf("report %+v", rep)
	}
	f, _ := os.Open(rep.Files[1])
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	id, renamed := 3000, 0
	for sc.Scan() {
		var p struct{ ID, Contents string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		title, text, ok := strings.Cut(p.Contents, "\n")
		if p.ID != strconv.Itoa(id) || !ok || !strings.HasPrefix(title, `"`) || !strings.HasSuffix(title, `"`) ||
			len(strings.Fields(text)) > PassageWords || text == "" {
			t.Fatalf("passage %d: %+v", id, p)
		}
		if strings.HasSuffix(title, ` (r1)"`) {
			renamed++
		}
		id++
	}
	if id != 5000 || renamed == 0 {
		t.Errorf("read to id %d, %d passages of replica 1", id, renamed)
	}
	qs, err := PassageQueries(src, 10, 1)
	qs2, _ := PassageQueries(src, 10, 1)
	if err != nil || len(qs) != 10 || strings.Join(qs, "|") != strings.Join(qs2, "|") || qs[0] == "" {
		t.Errorf("queries %q %v", qs, err)
	}
}
