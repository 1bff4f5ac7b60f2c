// Package lucene runs Apache Lucene 8 as the peer of leaper's search in
// the search benchmark: the same pages (exported by leaper from its
// store), the same queries, top 10 with a snippet per hit, measured in the
// same run, alternating with leaper.
//
// The peer is LuceneBench.java in this directory, embedded in the binary,
// compiled with javac against Debian's liblucene8-java jars into a cache
// directory at bench time and run as a child JVM that answers commands on
// its stdin. Lucene is never a dependency of leaper: without java, javac
// or the jars, [Check] returns an error wrapping [ErrUnavailable] and the
// benchmark says so and skips the peer.
//
// # Analysis differences
//
// Lucene's EnglishAnalyzer is given leaper's stop words (Bleve's English
// list) and, like leaper, drops possessives, lower-cases and
// Porter-stems. It tokenises with Unicode word boundaries (UAX #29),
// leaper with runs of letters and digits; numbers such as "1,000" and
// words with inner apostrophes and periods may split differently.
// Scoring differs in detail: Lucene's BM25 uses the raw term frequency
// and lossy one-byte length norms, Bleve's (and so leaper's) the square
// root of the frequency, a query norm and a coordination factor. Hit
// lists are therefore similar, not equal; [Report.Overlap] measures how
// similar.
//
// # Concurrency
//
// A [Peer] runs one command at a time; its methods must not be called
// concurrently.
package lucene
