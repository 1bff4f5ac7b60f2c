package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/ingest/table"
	"github.com/leaper-dev/leaper/store"
	"github.com/spf13/cobra"
)

// BuildOptions are the flags of leaper build.
type BuildOptions struct {
	IO      IO
	Store   string
	Inputs  []string
	Format  string
	Titles  string
	Links   string
	Append  bool
	Force   bool
	JSON    bool
	Quiet   bool
	isTerm  bool
	MaxShow int
	// ProgressEvery is the interval of progress lines when stderr is not
	// a terminal (10 s by default).
	ProgressEvery time.Duration
	// SpillBudget bounds the page fragments, and the bitmap pairs,
	// finalize holds in memory (hidden flag; for tests and measurements).
	SpillBudget int
	// EntityCache bounds the entity records held in memory (0: a quarter
	// of MaxMemory, or 1 GiB).
	EntityCache int
	// MaxMemory is the memory the build aims to stay within: the heap is
	// not collected below ingest.HeapLimit(MaxMemory); 0 collects as usual.
	MaxMemory int64
}

func newBuildCmd(f *Factory, runF func(context.Context, *BuildOptions) error) *cobra.Command {
	opts := &BuildOptions{MaxShow: 20}
	c := &cobra.Command{
		Use:   "build [flags] PATH...",
		Short: "Build the store from Wikipedia tables and passages",
		Long: `Build reads tables (and entity passages), cleans them into reasoning trees,
writes the entity-relation graph, and indexes its pages for offline search.

Inputs may be files, directories, .gz files and .tar.gz archives, in these
formats, detected by content with --format auto:
  wikitables  WikiTables-WithLinks / HybridQA JSON (and {"url","text"} passages)
  html        Wikipedia HTML: <table> fragments (with wtq page/metadata sidecars)
              or whole article pages
  tabel       TabEL / WikiTables corpus JSON
  csv         CSV/TSV with a header row (titles from --titles or a file name
              that is a title; files named by ids are untitled). Wikitext
              exports are cleaned: titles written with underscores become
              linked entities (--links), repeated header rows are headers,
              templates and footnote marks are removed and counted.
  flashrag    Search-R1 / FlashRAG passages (wiki-18): {"id", "contents":
              "\"Title\"\ntext"}; the passages of one title are one page,
              the article's, each passage keeping its id
  browsecomp-plus  BrowseComp-Plus's corpus: {"docid", "text", "url"}, a
              page per document at its url
  kilt        KILT's knowledge source: {"wikipedia_id", "wikipedia_title",
              "text": [paragraphs]}, a page per article

A corpus document is text of the page at its URL (a wiki-18 or KILT title's
Wikipedia URL), the same page a table's page or linked entity has; /retrieve
answers with the corpus's ids (for wiki-18, of the passage a hit stands for).

A store that exists is left alone unless --append (add inputs) or --force
(rebuild from scratch). An interrupted build is resumed by running it again.
Records that cannot be read are reported by file and line and skipped, and so
is a table whose cleaning meets a bug ("cleaning failed: internal error"); the
exit status is then 3. Progress goes to stderr: a bar on a terminal, else a
line every --progress-every (stage, tables, trees, pages, rate, RSS, ETA).`,
		Example: `  leaper build --store ./leaper-data ../shared/corpus
  leaper build --append ../shared/corpus/wtq/pages-html.tar.gz
  leaper build --format csv --titles titles.json tables/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Store, opts.Inputs, opts.isTerm = f.IO, f.Store, args, f.IsTerminal
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runBuild(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&opts.Format, "format", "auto", "input format: "+buildFormatNames())
	c.Flags().StringVar(&opts.Titles, "titles", "", "JSON file mapping CSV file names to [title, url] or [title, url, section]")
	c.Flags().StringVar(&opts.Links, "links", "auto", "CSV cells written as page titles (Chester_City_F.C.): auto (detect title columns), titles (read them as links), none (text)")
	c.Flags().BoolVar(&opts.Append, "append", false, "add inputs to an existing store")
	c.Flags().BoolVar(&opts.Force, "force", false, "delete an existing store and build from scratch")
	c.Flags().BoolVar(&opts.JSON, "json", false, "print the build report as JSON")
	c.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "print no progress (a bar on a terminal, else a line every --progress-every)")
	c.Flags().DurationVar(&opts.ProgressEvery, "progress-every", 10*time.Second, "interval of progress lines when stderr is not a terminal")
	cmdutil.BytesVar(c.Flags(), &opts.SpillBudget, "spill-budget", 0, "bytes of page fragments, and of bitmap pairs, held in memory before spilling to disk (0: 256 MiB each)")
	cmdutil.BytesVar(c.Flags(), &opts.EntityCache, "entity-cache", 0, "bytes of entity records held in memory; the rest are read back from the store (0: a quarter of --max-memory)")
	c.Flags().MarkHidden("spill-budget")
	cmdutil.BytesVar(c.Flags(), &opts.MaxMemory, "max-memory", 4<<30, "bytes of memory the build aims to stay within: the Go heap is capped at 3/4 of it (at most 1 GiB less), the rest is left to the stores' mapped files (0: no cap)")
	return c
}

// buildGCPercent is the collector's percent below a build's heap cap: Go's
// default (see collectNear).
const buildGCPercent = 100

func runBuild(ctx context.Context, o *BuildOptions) error {
	if !table.Format(o.Format).Known() {
		return usageErrorf("unknown --format %q (want one of %s)", o.Format, buildFormatNames())
	}
	switch table.LinkMode(o.Links) {
	case table.LinksAuto, table.LinksTitles, table.LinksNone:
	default:
		return usageErrorf("unknown --links %q (want auto, titles or none)", o.Links)
	}
	if o.Append && o.Force {
		return usageErrorf("--append and --force exclude each other")
	}
	for _, in := range o.Inputs {
		if _, err := os.Stat(in); err != nil {
			return usageErrorf("input %s: %v", in, err)
		}
	}
	var titles map[string][3]string
	if o.Titles != "" {
		b, err := os.ReadFile(o.Titles)
		if err != nil {
			return fmt.Errorf("--titles: %w", err)
		}
		if err := json.Unmarshal(b, &titles); err != nil {
			return fmt.Errorf("--titles %s: want {\"file.csv\": [\"Title\", \"url\"] or [\"Title\", \"url\", \"Section\"]}: %w", o.Titles, err)
		}
	}
	if state, _ := store.State(o.Store); state != store.Missing {
		switch {
		case o.Force:
			if err := store.Remove(o.Store); err != nil {
				return err
			}
		case o.Append:
		default:
			if state == store.Complete {
				return usageErrorf("store %s already exists: use --append to add inputs, or --force to rebuild it", o.Store)
			}
			if !o.Quiet {
				fmt.Fprintf(o.IO.ErrOut, "Resuming the interrupted build in %s\n", o.Store)
			}
		}
	}
	// The heap is capped at its share of --max-memory and collected by
	// GOGC's default below the cap (see collectNear); the rest of
	// --max-memory is left to the stores' mapped files.
	defer cmdutil.CollectNear(o.MaxMemory, buildGCPercent)()
	skips := 0
	var prog *buildProgress
	progress := func(ingest.Progress) {}
	if !o.Quiet {
		prog = newBuildProgress(o.IO.ErrOut, o.isTerm, o.ProgressEvery)
		defer prog.close()
		progress = prog.update
	}
	rep, err := ingest.Run(ctx, o.Store, o.Inputs, &ingest.Options{
		Format:      table.Format(o.Format),
		Titles:      titles,
		Links:       table.LinkMode(o.Links),
		SpillBudget: o.SpillBudget,
		EntityCache: entityCache(o),
		// What of --max-memory the heap does not take is the mapped
		// files' share.
		MappedMemory: mappedMemory(o.MaxMemory),
		Progress:     progress,
		OnSkip: func(e *table.ParseError) {
			skips++
			if skips <= o.MaxShow {
				fmt.Fprintf(o.IO.ErrOut, "skipped: %v\n", e)
			}
		},
	})
	if prog != nil {
		prog.close()
	}
	if skips > o.MaxShow {
		fmt.Fprintf(o.IO.ErrOut, "skipped: ... and %d more (see leaper stats)\n", skips-o.MaxShow)
	}
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(o.IO.ErrOut, "Build interrupted; run the same command again to finish it.\n")
		}
		return err
	}
	if o.JSON {
		if err := writeJSON(o.IO.Out, rep); err != nil {
			return err
		}
	} else {
		printBuildReport(o, rep)
	}
	if skips > 0 {
		return cmdutil.Partial(fmt.Sprintf("%d input record(s) could not be read and were skipped", skips))
	}
	if c := rep.Counts; c.Tables == 0 && c.Passages == 0 && c.Documents == 0 && c.Skipped == 0 {
		return fmt.Errorf("no tables or passages in %s: the store in %s is empty", strings.Join(o.Inputs, " "), o.Store)
	}
	return nil
}

func printBuildReport(o *BuildOptions, r *ingest.Report) {
	w := o.IO.Out
	fmt.Fprintf(w, "Built %s in %.1fs (read %.1fs, finalize %.1fs, index %.1fs)\n", o.Store,
		r.Total.Seconds(), r.Read.Seconds(), r.Finalize.Seconds(), r.Index.Seconds())
	if r.CPU.Read > 0 {
		fmt.Fprintf(w, "  cpu:       read %.1fs, finalize %.1fs, index %.1fs\n", r.CPU.Read.Seconds(), r.CPU.Finalize.Seconds(), r.CPU.Index.Seconds())
	}
	if m := r.Mapped; m.Trims > 0 || m.Err != "" {
		fmt.Fprintf(w, "  memory:    mapped files' resident pages peaked at %s; %d trims reclaimed %s\n",
			humanBytes(m.PeakFile), m.Trims, humanBytes(m.Released))
		if m.Err != "" {
			fmt.Fprintf(w, "  memory:    trimming stopped: %s\n", m.Err)
		}
	}
	// Tables read counts duplicates, as the progress lines and the speed
	// do: every table read is a tree, rejected or a duplicate.
	fmt.Fprintf(w, "  this run:  %d tables read: %d trees, %d rejected, %d duplicates; %d passages, %d records skipped\n",
		r.Tables+r.Duplicates, r.Trees, r.Rejected, r.Duplicates, r.Passages, r.Skipped)
	if r.Documents > 0 {
		fmt.Fprintf(w, "  corpus:    %d documents read (passages of wiki-18, BrowseComp-Plus documents, KILT articles)\n", r.Documents)
	}
	c := r.Counts
	fmt.Fprintf(w, "  store:     %d trees, %d entities, %d relations, %d triples, %d pages\n",
		c.Trees, c.Entities, c.Relations, c.Triples, c.Pages)
	if f := r.Cleaned; f != (table.Fixes{}) {
		fmt.Fprintf(w, "  cleaned:   %d title cells linked, %d template remnants, %d footnote marks, %d repeated header rows, %d left blank (the page showed another name)\n",
			f.Links, f.Templates, f.Footnotes, f.HeaderRows, f.Unshown)
	}
	if r.EntityReads > 0 {
		fmt.Fprintf(w, "  entities:  %d records read back from the store (the dictionary was over --entity-cache)\n", r.EntityReads)
	}
	if len(r.Reasons) > 0 {
		keys := make([]string, 0, len(r.Reasons))
		for k := range r.Reasons {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if r.Reasons[keys[i]] != r.Reasons[keys[j]] {
				return r.Reasons[keys[i]] > r.Reasons[keys[j]]
			}
			return keys[i] < keys[j]
		})
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s %d", k, r.Reasons[k])
		}
		fmt.Fprintf(w, "  rejected:  %s\n", strings.Join(parts, ", "))
	}
	if r.Total > 0 {
		fmt.Fprintf(w, "  speed:     %.0f tables/s, %.0f pages/s\n",
			float64(r.Tables+r.Duplicates)/r.Total.Seconds(), float64(c.Pages)/r.Total.Seconds())
	}
}

// mappedMemory is the share of maxMemory left to the resident pages of
// the store's mapped files: what ingest.HeapLimit leaves, at least 256 MiB.
func mappedMemory(maxMemory int64) int64 {
	if maxMemory <= 0 {
		return 0
	}
	return max(maxMemory-ingest.HeapLimit(maxMemory), 256<<20)
}

// entityCache is the --entity-cache a build runs with.
func entityCache(o *BuildOptions) int {
	switch {
	case o.EntityCache > 0:
		return o.EntityCache
	case o.MaxMemory > 0:
		return int(min(o.MaxMemory/4, 1<<40))
	}
	return 0
}

// buildFormatNames lists --format's values.
func buildFormatNames() string {
	names := make([]string, len(table.Formats))
	for i, f := range table.Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}
