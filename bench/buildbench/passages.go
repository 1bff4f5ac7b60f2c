package buildbench

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// PassageWords is the length of a replayed passage in words: wiki-18's
// (Karpukhin et al.'s DPR split of the 2018 Wikipedia into 100-word
// passages, which Search-R1 and FlashRAG ship).
const PassageWords = 100

// PassageReport says what ReplayPassages wrote.
type PassageReport struct {
	Passages int `json:"passages"`
	// Articles is the number of distinct titles, Replicas how many times
	// the source was read.
	Articles int           `json:"articles"`
	Replicas int           `json:"replicas"`
	Files    []string      `json:"files"`
	Bytes    int64         `json:"bytes"`
	Took     time.Duration `json:"took_ns"`
}

// sourcePassage is an article's text from the input.
type sourcePassage struct {
	title string
	words []string
}

// ReplayPassages writes n passages in wiki-18's format ({"id",
// "contents": "\"Title\"\ntext"}, gzipped JSON Lines, perFile passages a
// file) into outDir by cutting the articles of inputs (OTT-QA's
// {"url": "/wiki/X", "text"} passages, plain or gzipped, as
// ../shared/corpus/ottqa/passages.jsonl.gz) into PassageWords-word
// passages, as DPR cut Wikipedia, replayed as many times as needed.
// Replica 0 is the articles as they are; replica r > 0 renames every
// article "Title (rR)", a new article with the same text, so that the
// store has as many pages per passage as wiki-18 has (one per article) and
// the real vocabulary and lengths. Ids run from 0 in output order, as
// wiki-18's do, and the passages of an article are consecutive. The
// output is deterministic.
func ReplayPassages(ctx context.Context, inputs []string, n, perFile int, outDir string) (*PassageReport, error) {
	if n < 1 {
		return nil, fmt.Errorf("buildbench: replay passages: %d passages < 1", n)
	}
	if perFile <= 0 {
		perFile = 1_000_000
	}
	start := time.Now()
	var src []sourcePassage
	for _, in := range inputs {
		ps, err := readArticles(in)
		if err != nil {
			return nil, err
		}
		src = append(src, ps...)
	}
	if len(src) == 0 {
		return nil, fmt.Errorf("buildbench: replay passages: no article text in %v", inputs)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	rep := &PassageReport{}
	var (
		f   *os.File
		zw  *gzip.Writer
		bw  *bufio.Writer
		enc *json.Encoder
	)
	closeFile := func() error {
		if f == nil {
			return nil
		}
		err := bw.Flush()
		if e := zw.Close(); err == nil {
			err = e
		}
		if fi, e := f.Stat(); e == nil {
			rep.Bytes += fi.Size()
		}
		if e := f.Close(); err == nil {
			err = e
		}
		f = nil
		return err
	}
	id := 0
	for r := 0; id < n; r++ {
		rep.Replicas = r + 1
		for _, a := range src {
			if id >= n {
				break
			}
			if err := ctx.Err(); err != nil {
				closeFile()
				return nil, err
			}
			title := a.title
			if r > 0 {
				title += " (r" + strconv.Itoa(r) + ")"
			}
			rep.Articles++
			for w := 0; w < len(a.words) && id < n; w += PassageWords {
				if id%perFile == 0 {
					if err := closeFile(); err != nil {
						return nil, err
					}
					name := filepath.Join(outDir, fmt.Sprintf("wiki18-replay-%04d.jsonl.gz", id/perFile))
					var err error
					if f, err = os.Create(name); err != nil {
						return nil, err
					}
					zw, _ = gzip.NewWriterLevel(f, gzip.BestSpeed)
					bw = bufio.NewWriterSize(zw, 1<<20)
					enc = json.NewEncoder(bw)
					enc.SetEscapeHTML(false)
					rep.Files = append(rep.Files, name)
				}
				text := strings.Join(a.words[w:min(w+PassageWords, len(a.words))], " ")
				if err := enc.Encode(struct {
					ID       string `json:"id"`
					Contents string `json:"contents"`
				}{strconv.Itoa(id), `"` + title + "\"\n" + text}); err != nil {
					closeFile()
					return nil, err
				}
				id++
			}
		}
	}
	if err := closeFile(); err != nil {
		return nil, err
	}
	rep.Passages = id
	rep.Took = time.Since(start)
	return rep, nil
}

// readArticles reads {"url": "/wiki/X", "text"} lines (OTT-QA's
// passages), gzipped or not, in file order; lines without a /wiki/ URL
// or text are passed over.
func readArticles(path string) ([]sourcePassage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReaderSize(f, 1<<20)
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("buildbench: %s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	var out []sourcePassage
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var j struct{ URL, Text string }
		if json.Unmarshal(sc.Bytes(), &j) != nil {
			continue
		}
		_, t, ok := strings.Cut(j.URL, "/wiki/")
		words := strings.Fields(j.Text)
		if !ok || t == "" || len(words) == 0 {
			continue
		}
		// wiki-18's titles are plain text: no underscores, no quotes.
		t = strings.ReplaceAll(strings.ReplaceAll(t, "_", " "), `"`, "")
		out = append(out, sourcePassage{title: t, words: words})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("buildbench: %s: %w", path, err)
	}
	return out, nil
}

// PassageQueries returns count search queries drawn deterministically
// (by seed) from the articles of inputs, as an agent writes them: four to
// seven consecutive words of a passage, half of them after the article's
// title. They match the replayed passages of ReplayPassages (whose text
// is the articles').
func PassageQueries(inputs []string, count int, seed uint64) ([]string, error) {
	var src []sourcePassage
	for _, in := range inputs {
		ps, err := readArticles(in)
		if err != nil {
			return nil, err
		}
		src = append(src, ps...)
	}
	if len(src) == 0 {
		return nil, fmt.Errorf("buildbench: queries: no article text in %v", inputs)
	}
	// splitmix64: the same queries on every platform and Go version.
	x := seed
	next := func(n int) int {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return int((z ^ z>>31) % uint64(n))
	}
	out := make([]string, count)
	for i := range out {
		a := src[next(len(src))]
		k := 4 + next(4)
		w := next(max(1, len(a.words)-k))
		q := strings.Join(a.words[w:min(w+k, len(a.words))], " ")
		if i%2 == 1 {
			q = a.title + " " + q
		}
		out[i] = q
	}
	return out, nil
}
