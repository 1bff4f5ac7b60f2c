// Package eval is leaper's evaluation room: it scores an agent's answer and
// trajectory against its task (score.go: soft precision, recall and F of
// the answer's entities, WebLeaper §3.3; WideSearch's success rate, row F1
// and item F1; the trajectory's ISR, ISE and valid-action rate, which
// agent.Measure computes as the run goes), and aggregates many
// trajectories into a report per task variant (evaluate.go: Evaluate,
// Report). leaper eval, the /reward and /get_reward endpoints (package
// rewardhttp, mounted on web/serve's server by leaper serve) and the task
// hardness report all score through here.
//
// hardness.go (ComputeHardness, Hardness) says how much searching a task
// set needs, per variant: the |R| distribution, the trees and distinct
// pages per task, and, over an offline web, the oracle's tool calls and
// ISR and the naive policy's ISR (one search of the question, five hits
// visited). leaper synth, stats --tasks and eval print it.
//
// # Concurrency
//
// A Scorer is safe for concurrent use when its Graph is. ComputeHardness
// runs the policies on HardnessOptions.Workers goroutines over one
// backend, which must be safe for concurrent use (*web.Web is).
//
// # Caveats
//
// Similarity is lexical (normalisation, aliases, spaces removed, numbers
// and dates compared as values), not semantic: a paraphrased name scores
// low.
package eval
