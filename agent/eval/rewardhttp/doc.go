// Package rewardhttp is scoring over HTTP: the handlers of POST /reward
// (one answer, and optionally its trajectory, scored against a task with
// eval.Scorer) and POST /get_reward (OpenRLHF's remote reward model: a
// batch of responses, each labelled with its task). They belong with the
// scoring they expose rather than with the server: leaper serve mounts
// them on web/serve's Server through its mount point,
//
//	e := rewardhttp.NewEndpoints(&rewardhttp.Options{Tasks: tasks})
//	srv.MountEndpoint("/reward", e.MaxBody(), e.Reward)
//	srv.MountEndpoint("/get_reward", e.MaxBody(), e.GetReward)
//
// and the server gives them what its own endpoints have: the token check,
// the bounded UTF-8 body, a worker slot, the store the request holds,
// errors as JSON and the stats. PostReward is the client side of /reward.
//
// A task is named by id (resolved against Options.Tasks, leaper serve
// --tasks FILE) or sent inline. A trajectory's ISR and ISE are recomputed
// from its steps against the task's targets, not taken as sent.
//
// # Concurrency
//
// Endpoints is safe for concurrent use: it only reads its task map; the
// scoring runs in the server's worker slots.
//
// # Caveats
//
// After the server switches stores, task ids still resolve against the
// tasks given at start. A request body is bounded by Options.MaxBody
// (16 MiB by default, for whole trajectories), a /get_reward batch by
// 4,096 samples.
package rewardhttp
