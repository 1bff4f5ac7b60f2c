// Package task is leaper's information-seeking task: its question, its
// formalization (WebShaper's triples), the answer table and the target set
// R a solver must find, with the variants (Basic, Union, Reverse-Union) and
// Union's set operations as typed values.
//
// synth writes tasks; agent runs rollouts on them; agent/eval scores them;
// agent/export converts them; the servers read them for rewards. All of
// them import task, and none needs the query language for it: query
// evaluates a task's Formalization.
//
// The main entries:
//
//   - Task, Target, Answer, Aggregate, Triple and Term: the JSON form of a
//     task file line, as leaper synth writes it.
//   - ReadFile and Decode read a tasks file (JSON lines), naming the line
//     of an error and refusing duplicate ids; LineKind and WrongKind tell a
//     tasks file from a trajectories file; DecodeLines* and EachLine are
//     the shared line decoders (agent.EachTrajectory reads trajectories
//     with them).
//   - CheckStore reports whether tasks were synthesised on a given store.
//
// # Concurrency
//
// Tasks are plain values: safe to read from several goroutines, not to
// change while read.
//
// # Caveats
//
// A Target names its entity by the store's id: a task file is only
// meaningful with the store it was synthesised on (CheckStore).
package task
