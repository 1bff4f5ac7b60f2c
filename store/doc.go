// Package store builds a leaper store: it reads tables and passages
// (package table), writes the graph (package graph), and indexes the pages
// (package index). It is the one place where graph and index meet; they do
// not import each other.
//
// # Concurrency
//
// Build writes one store and must be its only writer; readers open the
// store read-only.
//
// # Caveats
//
// Build is resumable: a build stopped at any point (signal, crash) is
// completed by running it again with the same inputs. Tables already stored
// are recognised by their content key and skipped.
package store
