package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/leaper-dev/leaper/bench/ststitles"
)

// BenchSTSTitlesOptions are the flags of leaper-bench sts-titles.
type BenchSTSTitlesOptions struct {
	IO     IO
	STS    string
	WTQ    string
	OTTQA  string
	Output string
	JSON   bool
}

func newBenchSTSTitlesCmd(f *Factory) *cobra.Command {
	opts := &BenchSTSTitlesOptions{}
	c := &cobra.Command{
		Use:   "sts-titles [flags] STS-DIR",
		Short: "Title sts-csv's files from WikiTableQuestions' page ids and OTT-QA's tables",
		Long: `sts-titles finds page titles for the files of the sts-csv export, which
names its files by page and table ids ("12774860-633577.csv") and ships
no titles, so that leaper build --titles can name their pages and
synthesis ask of them (it leaves untitled tables out). A file's page is
titled by WikiTableQuestions' metadata (--wtq, its table-metadata.tsv,
which gives its pages' ids), or by the OTT-QA table (--ottqa) whose
distinct cells the file holds, at least 80% of them and eight or more
(OTT-QA keeps a table's first 20 rows); a page that matches two titles
is left untitled, and so is a page of which WikiTableQuestions (its
greatest tableIndex) or OTT-QA knows more tables than the export holds:
the export lost some, and a question of every row of the page would
miss theirs. Every file of a titled page gets its title. It prints
the titles as JSON (file name: [title, url]) and what it found on stderr.`,
		Example: `  leaper-bench sts-titles --wtq ../shared/corpus/wtq/table-metadata.tsv \
    --ottqa ../shared/corpus/ottqa/tables.jsonl.gz -o sts-titles.json ../shared/corpus/sts-csv
  leaper build --store S --format csv --titles sts-titles.json ../shared/corpus/sts-csv`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.STS = f.IO, args[0]
			if opts.WTQ == "" && opts.OTTQA == "" {
				return usageErrorf("give --wtq, --ottqa or both: the sources of titles")
			}
			if _, err := os.Stat(opts.STS); err != nil {
				return usageErrorf("sts-csv %s: %v", opts.STS, err)
			}
			return runBenchSTSTitles(opts)
		},
	}
	c.Flags().StringVar(&opts.WTQ, "wtq", "", "WikiTableQuestions' table-metadata.tsv")
	c.Flags().StringVar(&opts.OTTQA, "ottqa", "", "OTT-QA's tables.jsonl.gz")
	c.Flags().StringVarP(&opts.Output, "output", "o", "", "write the titles here (default: standard output)")
	c.Flags().BoolVar(&opts.JSON, "json", false, "print what was found as JSON on stderr")
	return c
}

func runBenchSTSTitles(o *BenchSTSTitlesOptions) error {
	titles, st, err := ststitles.Find(ststitles.Options{STS: o.STS, WTQMeta: o.WTQ, OTTQA: o.OTTQA})
	if err != nil {
		return err
	}
	w := o.IO.Out
	if o.Output != "" {
		f, err := os.Create(o.Output)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if err := ststitles.Write(w, titles); err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(o.IO.ErrOut, st)
	}
	_, err = fmt.Fprintf(o.IO.ErrOut, "sts-titles: %d of %d files titled (%d by WikiTableQuestions' page ids, %d by an OTT-QA table of their page), %d of %d pages; %d files matched an OTT-QA table, %d pages matched two titles and %d have more tables known than the export holds; they stay untitled\n",
		len(titles), st.Files, st.ByWTQ, st.ByOTTQA, st.TitledPage, st.Pages, st.Matched, st.Ambiguous, st.Fewer)
	return err
}
