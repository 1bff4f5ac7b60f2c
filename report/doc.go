// Package report writes leaper's report: one self-contained HTML page of a
// store and, when given, its tasks, trajectories, evaluation and synthesis
// refusals, for a reader who looks at pictures first and then reads a task
// beside its source tables.
//
// The page has four sections. Store: counts, cleaning rejections by
// reason, rows and relations per tree, key classes, isomorphism groups.
// Tasks: |R| per variant and operation, trees and pages per task, naive
// against oracle ISR per task (hardness), refusals by reason. Rollouts:
// ISR, ISE, tool calls and valid-action rate per run and policy, coverage
// against efficiency per trajectory, end reasons, and the runs side by
// side. Task cards: a searchable, filterable list; a card shows the
// question, the answer, each source table with the cells the targets come
// from highlighted and the page it is on, and each trajectory's steps with
// the targets each observation revealed.
//
// Write computes every number in Go; the page embeds them as JSON with
// Chart.js 4 (its minified build vendored under assets/ with its MIT
// licence) and a small script (assets/app.js) that draws the charts, lists
// the tasks and renders a card when it is opened. The JSON comes in two
// blocks: the charts and the task list, parsed as the page opens, and what
// the cards show (answers, source tables, entity names, steps), parsed when
// a card is first opened or the list first searched, so a page of
// thousands of tasks opens in a second or two. A Content-Security-Policy
// lets the page fetch nothing. Handler serves the same page over HTTP;
// ReadTrajectories, ReadSynthStats and ReadEval read its inputs.
//
// # Concurrency
//
// Write reads the store and may run policies over Options.Backend on
// Options.Workers goroutines; the store and backend must be safe for
// concurrent reads (*graph.Store and *web.Web are). A Handler builds its
// page once, on the first request, and serves it to every request after.
//
// # Caveats
//
// Source tables are the store's reasoning trees, after cleaning: dropped
// columns and rejected rows are not shown. A cell is highlighted by the
// target's entity, tree and relation (task.Target), so a target stated
// only beyond the task's trees is highlighted where its tree is. The
// hardness scatter needs naive and oracle trajectories of the tasks, or a
// backend to run them.
package report
