// LuceneBench is the Lucene 8 peer of leaper's search benchmark (leaper
// bench search --lucene). It is benchmark code, compiled at bench time
// against Debian's liblucene8-java jars; leaper never links or ships it.
//
//   java LuceneBench build PAGES STOPWORDS INDEXDIR
//       PAGES holds the pages leaper indexes, as exported by leaper: per
//       page three fields (URL, title, text), each a 4-byte big-endian
//       length and UTF-8 bytes. Indexes title and body with English
//       analysis (leaper's stop words, Porter stems), BM25, offsets in the
//       body postings for the highlighter; stores URL, title and the first
//       64 Ki chars of the body (what snippets read, as leaper stores only
//       that part); force-merges to one segment.
//
//   java LuceneBench serve STOPWORDS INDEXDIR QUERIES
//       QUERIES holds one query per line. Then reads commands on stdin:
//         run THREADS [nosnippets]
//                       all queries once, THREADS at a time, with snippets
//                       or without; prints "ok WALL_NS SNIPPET_BYTES
//                       LAT_NS..." (latencies in query order)
//         hits          prints each query's top-10 URLs, tab-separated,
//                       one line per query, then "end"
//         http WORKERS  serves POST /search on 127.0.0.1 (a free port),
//                       WORKERS requests at a time: the body is the query
//                       text, the answer JSON {"hits": [{"url", "title",
//                       "snippet"}...]}; prints "listening PORT"
//         quit
//
// A query is what leaper searches: the analysed terms, each a SHOULD
// clause on title (boost 3) and on body, BM25 (k1 1.2, b 0.75), top 10 by
// IndexSearcher.search (block-max WAND once 1,000 hits are counted), and a
// snippet per hit from the UnifiedHighlighter over the stored body.
import java.io.*;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.text.BreakIterator;
import java.util.*;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.*;
import org.apache.lucene.index.*;
import org.apache.lucene.search.*;
import org.apache.lucene.search.uhighlight.DefaultPassageFormatter;
import org.apache.lucene.search.uhighlight.LengthGoalBreakIterator;
import org.apache.lucene.search.uhighlight.UnifiedHighlighter;
import org.apache.lucene.store.FSDirectory;

public class LuceneBench {
    static final float TITLE_BOOST = 3f;
    static final int K = 10;
    static final int SNIPPET = 260;
    static final int SNIPPET_SCAN = 64 << 10;
    static final Set<String> FIELDS = Set.of("url", "title");

    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals("build")) {
            build(Paths.get(args[1]), analyzer(Paths.get(args[2])), Paths.get(args[3]));
        } else if (args.length == 4 && args[0].equals("serve")) {
            serve(analyzer(Paths.get(args[1])), Paths.get(args[2]), Paths.get(args[3]));
        } else {
            System.err.println("usage: LuceneBench build PAGES STOPWORDS INDEXDIR | serve STOPWORDS INDEXDIR QUERIES");
            System.exit(2);
        }
    }

    static Analyzer analyzer(Path stopWords) throws IOException {
        List<String> words = Files.readAllLines(stopWords, StandardCharsets.UTF_8);
        return new EnglishAnalyzer(new CharArraySet(words, false));
    }

    static String readField(DataInputStream in) throws IOException {
        int n = in.readInt();
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    static void build(Path pages, Analyzer an, Path dir) throws IOException {
        FieldType body = new FieldType(TextField.TYPE_NOT_STORED);
        body.setIndexOptions(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS);
        body.freeze();
        IndexWriterConfig cfg = new IndexWriterConfig(an);
        cfg.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
        cfg.setRAMBufferSizeMB(256);
        int n = 0;
        try (FSDirectory d = FSDirectory.open(dir);
             IndexWriter w = new IndexWriter(d, cfg);
             DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(pages), 1 << 20))) {
            while (true) {
                String url;
                try {
                    url = readField(in);
                } catch (EOFException e) {
                    break;
                }
                Document doc = new Document();
                doc.add(new StoredField("url", url));
                doc.add(new TextField("title", readField(in), Field.Store.YES));
                String text = readField(in);
                doc.add(new Field("body", text, body));
                // Only the part snippets read is stored, as leaper stores
                // only the plain text of its page's first 64 KiB.
                doc.add(new StoredField("body", text.substring(0, Math.min(text.length(), SNIPPET_SCAN))));
                w.addDocument(doc);
                if (++n % 50000 == 0) {
                    System.err.println("lucene: " + n + " pages");
                }
            }
            w.forceMerge(1);
            w.commit();
        }
        System.err.println("lucene: indexed " + n + " pages, one segment");
    }

    static List<String> terms(Analyzer an, String q) throws IOException {
        List<String> out = new ArrayList<>();
        try (TokenStream ts = an.tokenStream("body", q)) {
            CharTermAttribute t = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                String s = t.toString();
                if (!out.contains(s)) {
                    out.add(s);
                }
            }
            ts.end();
        }
        return out;
    }

    static Query query(List<String> terms) {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        for (String t : terms) {
            b.add(new BoostQuery(new TermQuery(new Term("title", t)), TITLE_BOOST), BooleanClause.Occur.SHOULD);
            b.add(new TermQuery(new Term("body", t)), BooleanClause.Occur.SHOULD);
        }
        return b.build();
    }

    static final class Engine {
        final Analyzer an;
        final IndexSearcher searcher;
        final UnifiedHighlighter hl;

        Engine(Analyzer an, IndexReader r) {
            this.an = an;
            searcher = new IndexSearcher(r);
            hl = new UnifiedHighlighter(searcher, an);
            hl.setMaxLength(SNIPPET_SCAN);
            hl.setFormatter(new DefaultPassageFormatter("", "", "...", false));
            hl.setBreakIterator(() -> LengthGoalBreakIterator.createMinLength(BreakIterator.getSentenceInstance(Locale.ROOT), SNIPPET));
        }

        // search returns the URLs of the top hits and adds their snippets'
        // length to snip (so that the work cannot be skipped).
        List<String> search(String q, long[] snip, boolean snippets) throws IOException {
            List<String> urls = new ArrayList<>();
            for (String[] h : hits(q, snippets)) {
                urls.add(h[0]);
                snip[0] += h[1].length() + (h[2] == null ? 0 : h[2].length());
            }
            return urls;
        }

        // hits returns the top hits as {URL, title, snippet}.
        List<String[]> hits(String q, boolean snippets) throws IOException {
            List<String> ts = terms(an, q);
            List<String[]> out = new ArrayList<>();
            if (ts.isEmpty()) {
                return out;
            }
            Query query = query(ts);
            TopDocs top = searcher.search(query, K);
            if (top.scoreDocs.length == 0) {
                return out;
            }
            String[] sn = snippets ? hl.highlight("body", query, top, 1) : new String[top.scoreDocs.length];
            for (int i = 0; i < top.scoreDocs.length; i++) {
                Document d = searcher.doc(top.scoreDocs[i].doc, FIELDS);
                out.add(new String[] {d.get("url"), d.get("title"), sn[i]});
            }
            return out;
        }
    }

    static void json(StringBuilder b, String s) {
        b.append('"');
        if (s != null) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    b.append('\\').append(c);
                } else if (c < 0x20) {
                    b.append(String.format("\\u%04x", (int) c));
                } else {
                    b.append(c);
                }
            }
        }
        b.append('"');
    }

    static HttpServer http(Engine e, int workers) throws IOException {
        // Without TCP_NODELAY small keep-alive answers wait for delayed
        // ACKs (~40 ms each).
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer srv = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        srv.setExecutor(Executors.newFixedThreadPool(workers));
        srv.createContext("/search", ex -> {
            try {
                String q = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                StringBuilder b = new StringBuilder("{\"hits\":[");
                List<String[]> hs = e.hits(q, true);
                for (int i = 0; i < hs.size(); i++) {
                    String[] h = hs.get(i);
                    b.append(i == 0 ? "{\"url\":" : ",{\"url\":");
                    json(b, h[0]);
                    b.append(",\"title\":");
                    json(b, h[1]);
                    b.append(",\"snippet\":");
                    json(b, h[2]);
                    b.append('}');
                }
                byte[] body = b.append("]}").toString().getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
            } catch (Exception err) {
                byte[] body = err.toString().getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(500, body.length);
                ex.getResponseBody().write(body);
            } finally {
                ex.close();
            }
        });
        srv.start();
        return srv;
    }

    static void serve(Analyzer an, Path dir, Path queries) throws Exception {
        List<String> qs = Files.readAllLines(queries, StandardCharsets.UTF_8);
        try (FSDirectory d = FSDirectory.open(dir); DirectoryReader r = DirectoryReader.open(d)) {
            System.err.println("lucene: " + r.numDocs() + " pages in " + r.leaves().size() + " segment(s), " + qs.size() + " queries");
            Engine e = new Engine(an, r);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            PrintStream out = new PrintStream(new BufferedOutputStream(System.out, 1 << 16), false, "UTF-8");
            out.println("ready");
            out.flush();
            HttpServer srv = null;
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.trim().split(" ");
                if (f[0].equals("quit")) {
                    break;
                } else if (f[0].equals("hits")) {
                    long[] snip = new long[1];
                    for (String q : qs) {
                        out.println(String.join("\t", e.search(q, snip, true)));
                    }
                    out.println("end");
                } else if (f[0].equals("http") && f.length == 2 && srv == null) {
                    srv = http(e, Integer.parseInt(f[1]));
                    out.println("listening " + srv.getAddress().getPort());
                } else if (f[0].equals("run") && (f.length == 2 || f.length == 3 && f[2].equals("nosnippets"))) {
                    run(e, qs, Integer.parseInt(f[1]), f.length == 2, out);
                } else {
                    out.println("error unknown command " + line);
                }
                out.flush();
            }
            if (srv != null) {
                srv.stop(0);
                ((java.util.concurrent.ExecutorService) srv.getExecutor()).shutdownNow();
            }
        }
    }

    static void run(Engine e, List<String> qs, int threads, boolean snippets, PrintStream out) throws Exception {
        long[] lat = new long[qs.size()];
        long[] snip = new long[threads];
        AtomicInteger next = new AtomicInteger();
        Thread[] ts = new Thread[threads];
        Exception[] errs = new Exception[threads];
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            final int id = t;
            ts[t] = new Thread(() -> {
                long[] s = new long[1];
                try {
                    for (int i; (i = next.getAndIncrement()) < qs.size(); ) {
                        long t0 = System.nanoTime();
                        e.search(qs.get(i), s, snippets);
                        lat[i] = System.nanoTime() - t0;
                    }
                } catch (Exception ex) {
                    errs[id] = ex;
                }
                snip[id] = s[0];
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        long wall = System.nanoTime() - start;
        for (Exception ex : errs) {
            if (ex != null) {
                out.println("error " + ex.toString().replace('\n', ' '));
                return;
            }
        }
        long total = 0;
        for (long s : snip) {
            total += s;
        }
        StringBuilder b = new StringBuilder("ok ").append(wall).append(' ').append(total);
        for (long l : lat) {
            b.append(' ').append(l);
        }
        out.println(b);
    }
}
