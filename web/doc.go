// Package web is leaper's offline web: the search and visit tools of Tongyi
// DeepResearch, byte for byte, served from a store's Bleve index and graph,
// with the entities every observation shows.
//
// # Concurrency
//
// A Web is safe for concurrent use: it only reads the store.
//
// # Caveats
//
// Evidence is chosen deterministically from the page (rows and passages
// that best match the goal); there is no LLM summariser here.
package web
