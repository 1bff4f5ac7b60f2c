// The TypeScript MCP SDK's client against leaper's streamable HTTP
// endpoint: lists the tools and calls search and visit, printing what it
// got as one JSON object. Run by TestTypeScriptSDKClient:
//   node ts_client.mjs URL QUERY PAGE_URL GOAL
// with NODE_PATH holding @modelcontextprotocol/sdk.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, query, page, goal] = process.argv.slice(2);
const c = new Client({ name: "leaper-ts-check", version: "1" });
await c.connect(new StreamableHTTPClientTransport(new URL(url)));
const tools = (await c.listTools()).tools.map((t) => t.name);
const search = await c.callTool({ name: "search", arguments: { query: [query] } });
const visit = await c.callTool({ name: "visit", arguments: { url: page, goal } });
await c.close();
console.log(JSON.stringify({
  tools,
  search: search.content[0].text,
  searchEntities: search._meta["leaper/entities"],
  visit: visit.content[0].text,
  isError: Boolean(search.isError || visit.isError),
}));
