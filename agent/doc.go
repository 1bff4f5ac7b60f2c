// Package agent runs information-seeking agents against leaper's offline web
// (package web) and records what they do; package agent/eval scores it.
//
// [Run] is a ReAct loop in the style of Tongyi DeepResearch: a system prompt
// with the search and visit tools, the question, then thought, tool call and
// observation until the agent answers inside <answer></answer> or a budget
// (steps, context tokens, wall time) runs out. A [Policy] decides each turn:
// a model behind any OpenAI-compatible endpoint ([ModelPolicy] over a
// [ChatModel] such as [OpenAI]), or one of the built-in policies that need
// no model ([Oracle], [Naive]). Tools are reached through a [Backend]: the
// offline web (*web.Web) and its HTTP client (*serve.Client) are Backends,
// both returning *web.Observation. Two protocols are spoken: the
// text protocol (<tool_call>{json}</tool_call>, observations returned as
// <tool_response> user messages) and native OpenAI tool calls.
//
// Every run yields a [Trajectory]: the messages, per step the target
// entities the observation showed, the answer and its parsed table, how it
// ended, tokens, and [Metrics] (ISR, ISE, valid-action rate; WebLeaper §2.3,
// §3.2). eval.Score (package agent/eval) grades an answer against a task
// with soft precision and recall (WebLeaper §3.3) and WideSearch's success
// rate, row F1 and item F1.
// [Cache] records model responses keyed by the hash of the request and
// replays them, so a rollout is reproducible without the endpoint.
// [EachTrajectory] is the one decoder of trajectory files (JSON lines, as
// [WriteTrajectory] writes them); [Resume] readies an output file for a
// rollout that continues it.
//
// # Reproducibility
//
// Same store, task, policy, options, seed and cache give the same trajectory
// bytes. Everything that depends on the clock or on transient failures
// (elapsed times, retries) lives in [Trajectory.Run], which
// [Options.Deterministic] leaves out; compare trajectories written that way.
// Built-in policies estimate tokens as ceil(bytes/4), so their counts are
// deterministic too.
//
// # Concurrency
//
// [Run] is safe to call from many goroutines over one Backend and one
// Policy: the built-in policies keep per-run state in [State], [OpenAI] and
// [Cache] are safe for concurrent use. [RunAll] runs tasks in parallel and
// emits trajectories in task order.
//
// # Caveats
//
// T, the step count of ISE, counts every assistant turn that is not the
// answer, including malformed tool calls and turns with no call: a wasted
// turn is a wasted action. ISE counts targets seen in visit observations
// only (WebLeaper §3.2); ISR counts every observation.
package agent
