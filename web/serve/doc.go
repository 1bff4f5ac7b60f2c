// Package serve puts a store's offline web on HTTP for RL rollout workers,
// and is the Go client of that server.
//
// Endpoints, all JSON (errors are {"error": "..."} with a 4xx or 5xx):
//
//	POST /search    {"query": "q" | ["q1","q2"], "filter_year": 2005}
//	                → {"result": "<Tongyi search text>", "entities": [ids], "urls": [...]}
//	POST /visit     {"url": "u" | ["u1","u2"], "goal": "..."}
//	                → {"result": "<Tongyi visit text>", "entities": [ids], "urls": [...]}
//	POST /retrieve  {"queries": ["q"], "topk": 3, "return_scores": true}   (Search-R1, verl, SkyRL)
//	                → {"result": [[{"document": {"id", "url", "title", "contents"}, "score": 1.2}]]}
//	                return_scores false (ASearcher): {"result": [[{"id", "url", "title", "contents"}]]}
//	                {"query": "q", "top_k": 10} (rLLM; topk, top_k or k)
//	                → {"query", "method", "num_results", "results": [{"document": {...}, "score", "id", "url", "title", "content", "entities"}],
//	                   "result": [[...]] (Search-R1's, as for "queries")}
//	POST /access    {"urls": ["u"]}                                          (ASearcher)
//	                → {"result": [{"url": "u", "contents": "page text"} | null]}
//	POST /serper/search {"q": "q", "num": 10, "page": 1} or a list of them   (Serper)
//	                → {"searchParameters", "organic": [{"title", "link", "snippet", "position", "entities"}], "entities"}
//	GET  /jina/<url>                                                         (Jina Reader)
//	                → "Title: …\n\nURL Source: …\n\nMarkdown Content:\n<page>"; with Accept:
//	                application/json {"code": 200, "status": 20000, "data": {"title", "url", "content", "entities"}};
//	                entities also in the X-Leaper-Entities header
//	POST /reward    (mounted: agent/eval/rewardhttp) {"task_id": "t1" | "task": {...}, "answer": "...", "trajectory": {...}?}
//	                → {"precision", "recall", "f", "success", "row_f1", "item_f1", "isr", "ise", ...}
//	POST /get_reward (mounted: agent/eval/rewardhttp) {"query": [prompt+response], "prompts": [...], "labels": [task id | task JSON]}  (OpenRLHF)
//	                → {"rewards": [soft F], "scores": [...], "extra_logs": {batch means}}
//	GET  /healthz, GET /health, GET /livez → {"status": "ok"} (the process answers)
//	GET  /readyz    → 200 {"status": "ready", "store": id} once the store is open and warm;
//	                503 "warming" before, 503 "stopping" once Serve's context is done
//	POST /admin/store {"dir": "DIR"} → {"from", "to", "dir", "drained_ms"} (Switch; behind the token)
//	/mcp            the MCP tools over streamable HTTP, when mounted (Server.Mount; leaper serve does)
//	GET  /stats     → the store id and digest, readiness, switches; requests, client/server
//	                errors, cache hits and p50/p90/p99 per endpoint
//
// Every answer carries the id of the store that gave it in the
// X-Leaper-Store header (store.Store.ID: format version and content
// digest), so a client behind a balancer knows which store answered.
//
// /search and /visit answer exactly as `leaper search` and `leaper visit`
// (web.Web) do for the same arguments. A URL the store does not hold gives
// the tool's "could not be accessed" text with status 200 (null in
// /access); a URL that is not http(s), or has ".." segments, is a 400.
// Rejections the tool answers itself (malformed arguments, an empty query,
// such a URL) carry that answer in "observation", which Client.Call
// returns, so a Client behaves as web.Web.Call does.
//
// With curl:
//
//	leaper serve --store ./leaper-data &
//	curl -s localhost:8080/search -d '{"query": ["Booker Prize winners", "Nobel Prize in Literature"], "filter_year": 1983}'
//	curl -s localhost:8080/visit -d '{"url": "https://en.wikipedia.org/wiki/Booker_Prize", "goal": "winners and their novels"}'
//	curl -s localhost:8080/retrieve -d '{"queries": ["Booker Prize"], "topk": 3, "return_scores": true}'
//	curl -s localhost:8080/access -d '{"urls": ["https://en.wikipedia.org/wiki/Booker_Prize"]}'
//	curl -s localhost:8080/stats
//
// Every answer that shows the agent text carries the ids of the entities
// that text shows ("entities"), attributed as /search and /visit attribute
// them, so ISR and ISE can be measured for any client shape.
//
// A non-loopback address needs a token, sent as a bearer token (Serper
// clients may send it as X-API-KEY):
//
//	leaper serve --addr 0.0.0.0:8080 --token-file token.txt
//	curl -s -H "Authorization: Bearer $(cat token.txt)" host:8080/search -d '{"query": "Booker Prize"}'
//
// The server serves the web; other packages attach endpoints at its mount
// points. MountEndpoint serves a JSON endpoint exactly as the server's own
// (token, method, bounded UTF-8 body, worker slot, the store the request
// holds, errors as JSON, stats): leaper serve mounts /reward and
// /get_reward from agent/eval/rewardhttp, which owns scoring, this way.
// Mount and MountWeb serve any http.Handler (the MCP endpoint, the report)
// behind the token.
//
// Replicas behind a load balancer (replica.go): several servers may open
// one store directory read-only at once. Serve warms the store (the most
// frequent terms' posting lists decoded, up to two minutes, then a few
// searches and visits) before /readyz says ready; once its context is done
// it says 503 for Options.Drain, still answering, then stops accepting and
// lets in-flight requests finish. Switch (or POST /admin/store) opens a
// new store with Options.Open, warms it, sends new requests to it and
// closes the old store once the requests holding it are answered: no
// request fails, none sees a closed store.
//
// HAProxyConfig (haproxy.go) writes the balancer's configuration for N
// replicas (leaper haproxy). Serve sends each answer in one write
// (holdconn.go), so a replica killed mid-answer leaves its balancer
// nothing, which it retries elsewhere, rather than a cut answer.
//
// Main types: Server (NewServer, Serve, Switch, MountEndpoint, Mount, MountWeb, an
// http.Handler) and Client (NewClient, Search, Visit, Call, Retrieve, Access, PostJSON,
// Stats, SwitchStore; a *Client is an agent.Backend, as client_test.go checks, so
// rollouts run against the server as against a *web.Web).
//
// # Concurrency
//
// A Server answers many clients at once over one read-only store; there is
// no global lock. At most Options.Workers tool executions run at a time;
// further requests queue (and give up when their client goes away). Within
// them, at most Options.Evaluations search queries (default GOMAXPROCS)
// are evaluated at once, admitted in arrival order (admit.go): latency is
// then a wait in line plus the query's own time, not every request's
// share of the cores. A /retrieve batch holds one worker slot and sends
// its queries to that line from up to Evaluations goroutines, one query
// each at a time, so calls sent meanwhile are admitted between its
// queries; it is answered within Options.BatchTimeout. The optional response cache is
// an LRU split into shards, keyed by store id as well; counters and
// latency histograms are atomics. The store a request reads is held by a
// counter on an atomically swapped pointer, so a switch takes no lock on
// the request path. A Client is safe for concurrent use.
//
// # Caveats
//
// Requests are bounded: a body of Options.MaxBody bytes (a /retrieve body
// 1 KiB per query of MaxBatch, if more), MaxQueries queries per search,
// MaxBatch per /retrieve and MaxURLs URLs per call, MaxArgLen bytes per query, URL or goal. The
// server never reads anything but the store: URLs are only keys of page
// lookups. Latency quantiles are from log-linear buckets, within about 6%.
// Serve stops on its context, letting in-flight requests finish for
// Options.ShutdownGrace. After a switch, mounted endpoints answer from the
// new store (/reward still resolves task ids against the tasks given at
// start); MCP sessions open on /mcp end (the MCP
// handler is made anew over the new store), and requests still on the old
// store when ShutdownGrace runs out fail as the store closes.
package serve
