// Package eval is leaper's evaluation room: it scores an agent's answer and
// trajectory against its task (score.go: soft precision, recall and F of
// the answer's entities, WebLeaper §3.3; WideSearch's success rate, row F1
// and item F1; the trajectory's ISR, ISE and valid-action rate, which
// agent.Measure computes as the run goes), and aggregates many
// trajectories into a report per task variant (evaluate.go: Evaluate,
// Report). leaper eval, the /reward endpoint of agent/serve and the task
// hardness report all score through here.
//
// # Concurrency
//
// A Scorer is safe for concurrent use when its Graph is.
//
// # Caveats
//
// Similarity is lexical (normalisation, aliases, spaces removed, numbers
// and dates compared as values), not semantic: a paraphrased name scores
// low.
package eval
