// Package web is leaper's offline web: the search and visit tools of Tongyi
// DeepResearch, byte for byte, served over a *store.Store (its Bleve index
// and graph), with the entities every Observation shows. It is the agent's
// environment, not the agent: package agent's Backend returns this
// package's Observation, so a *Web (and web/serve's HTTP client) is a
// Backend as it is.
//
// # Concurrency
//
// A Web is safe for concurrent use: it only reads the store.
//
// # Caveats
//
// Evidence is chosen deterministically from the page (rows and passages
// that best match the goal); there is no LLM summariser here. A Web made
// by New leaves its store open at Close; one made by Open closes it.
package web
