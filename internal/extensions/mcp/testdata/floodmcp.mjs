// floodmcp.mjs SDK_DIR: an MCP server on the TypeScript SDK (the one the
// reference servers use, passed as its folder) whose tool "flood" {n} sends
// n elicitation/create requests one after the other, each a request of its
// own as servers on protocol versions before 2026-07-28 do, and answers
// "accepted=A declined=D cancelled=C".
import { pathToFileURL } from "node:url";

const sdk = (p) => import(pathToFileURL(`${process.argv[2]}/dist/esm/${p}`).href);
const { Server } = await sdk("server/index.js");
const { StdioServerTransport } = await sdk("server/stdio.js");
const { ListToolsRequestSchema, CallToolRequestSchema } = await sdk("types.js");

const server = new Server({ name: "floodmcp", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "flood", description: "asks the user again and again",
    inputSchema: { type: "object", properties: { n: { type: "integer" } } } }],
}));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const n = req.params.arguments?.n ?? 0;
  const counts = { accept: 0, decline: 0, cancel: 0 };
  for (let i = 0; i < n; i++) {
    const r = await server.elicitInput({ message: `question ${i + 1}`,
      requestedSchema: { type: "object", properties: { answer: { type: "string" } } } });
    counts[r.action]++;
  }
  return { content: [{ type: "text", text: `accepted=${counts.accept} declined=${counts.decline} cancelled=${counts.cancel}` }] };
});
await server.connect(new StdioServerTransport());
