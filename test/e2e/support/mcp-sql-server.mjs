// A real stdio MCP server for the e2e tests: the official SDK's McpServer + StdioServerTransport,
// one tool `execute_sql {sql}` that runs its SQL on a real Postgres (PGlite, in WASM) whose data
// directory is the first argument. It runs whatever it is given, as database MCP servers do: the
// guard in front of it is what the tests exercise.
// Usage: node mcp-sql-server.mjs <data dir>
import { PGlite } from "@electric-sql/pglite";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const dataDir = process.argv[2];
if (!dataDir) {
  process.stderr.write("usage: mcp-sql-server.mjs <data dir>\n");
  process.exit(2);
}
const db = new PGlite(dataDir);
const server = new McpServer({ name: "e2e-sql", version: "1.0.0" });
server.registerTool(
  "execute_sql",
  { description: "Run SQL on the project's database and return the rows.", inputSchema: { sql: z.string() } },
  async ({ sql }) => {
    try {
      const results = await db.exec(sql);
      const rows = results.flatMap((r) => r.rows);
      return { content: [{ type: "text", text: `OK ${JSON.stringify(rows)}` }] };
    } catch (e) {
      return { content: [{ type: "text", text: `ERROR ${e instanceof Error ? e.message : String(e)}` }], isError: true };
    }
  },
);
await server.connect(new StdioServerTransport());
