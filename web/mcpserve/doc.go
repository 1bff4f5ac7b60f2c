// Package mcpserve serves a store's offline web as Model Context Protocol
// tools, with the official Go SDK (github.com/modelcontextprotocol/go-sdk),
// over stdio or streamable HTTP.
//
// Tools, their arguments and what they answer (the text content of the
// result; the entities the text shows and the pages it came from are in
// the result's _meta as "leaper/entities" and "leaper/urls"):
//
//	search       {"query": "q" | ["q1", "q2"], "filter_year": 2005}
//	             → the text `leaper search` prints (Tongyi DeepResearch's search tool)
//	visit        {"url": "u" | ["u1", "u2"], "goal": "..."}
//	             → the text `leaper visit` prints (Tongyi DeepResearch's visit tool)
//	get_document {"docid": "<page URL>"}   (BrowseComp-Plus's tool)
//	             → {"docid", "url", "title", "text"} as JSON text; text is the page, as /access gives it
//	fetch        {"url": "<page URL>"}
//	             → the page as Jina Reader's text: "Title: …\n\nURL Source: …\n\nMarkdown Content:\n…"
//
// Docids are page URLs, as /retrieve's ids and the BrowseComp-Plus export's
// corpus docids are. Malformed search or visit arguments get the tool's own
// message, as from `leaper serve`; a page the store does not hold is a tool
// error (IsError) naming the URL.
//
// Main type: Server (NewServer; RunStdio; Handler for streamable HTTP).
//
// # Concurrency
//
// A Server answers many sessions at once over one read-only store. At most
// Options.Workers tool calls run at a time; others wait (and give up when
// their context ends).
//
// # Caveats
//
// The HTTP handler has no authentication of its own: mount it behind the
// token check of `leaper serve` (serve.Server.Mount), which `leaper serve`
// and `leaper mcp --transport http` do. The SDK's DNS-rebinding protection
// stays on: requests to a loopback address must name a loopback Host.
package mcpserve
