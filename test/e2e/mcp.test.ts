// A real MCP server behind the real Claude Code 2.1.332: a stdio server written with the official
// SDK (test/e2e/support/mcp-sql-server.mjs) runs `execute_sql` on a real Postgres (PGlite) in the
// project folder. With Damage Control installed as users install it, `DROP TABLE users` through
// `mcp__db__execute_sql` is refused by the same rule as `psql -c` (the table is still there and the
// model reads why); a SELECT runs. The control run without the hook drops the table.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { claudeBin } from "../../scripts/test-tools.js";
import { startAnthropicMock, toolUse, type AnthropicStep } from "./support/anthropic-mock";
import { runClaude } from "./support/claude";
import { startGuarded, type Guarded } from "./support/guarded";
import { seedUsers, tablesIn } from "./support/pglite-db";
import { makeProject } from "./support/project";
import { explain, requireTools, useCleanups, useProxyTrap } from "./support/suite";

const V = "2.1.332";
const SERVER = path.resolve(__dirname, "../../../test/e2e/support/mcp-sql-server.mjs");
const proxy = useProxyTrap();
const addCleanup = useCleanups();

/** `--mcp-config` JSON: one stdio server `db` on a data directory; `--strict-mcp-config` keeps others out. */
function mcpArgs(dataDir: string): string[] {
  const config = { mcpServers: { db: { command: process.execPath, args: [SERVER, dataDir] } } };
  return ["--mcp-config", JSON.stringify(config), "--strict-mcp-config"];
}

async function runSql(cwd: string, sql: string, env: Record<string, string>): Promise<{ text: string; isError: boolean }[]> {
  const dataDir = path.join(cwd, "pgdata");
  const steps: AnthropicStep[] = [[toolUse("mcp__db__execute_sql", { sql })]];
  const mock = await startAnthropicMock({ steps });
  addCleanup(() => mock.close());
  const r = await runClaude({
    version: V,
    cwd,
    baseUrl: mock.url,
    prompt: "Do the work.",
    extraArgs: mcpArgs(dataDir),
    // Pre-allowed: if anything stops this call, it is Damage Control.
    allowedTools: ["mcp__db__execute_sql"],
    env: { ...proxy.trap.env, ...env },
    timeoutMs: 90_000,
  });
  assert.equal(r.exitCode, 0, explain(r));
  proxy.assertNoEscapes();
  return mock.toolResults().map((t) => ({ text: t.text, isError: t.isError }));
}

async function guarded(): Promise<Guarded> {
  const g = await startGuarded();
  addCleanup(() => g.close());
  const r = g.cli(["install", "claude", "--cwd", g.proj.dir], { DAMAGE_CONTROL_CLAUDE_BIN: claudeBin(V) });
  assert.equal(r.status, 0, r.stderr);
  await seedUsers(path.join(g.proj.dir, "pgdata"));
  return g;
}

describe("MCP: Claude Code 2.1.332 with a real stdio MCP server over PGlite", function () {
  requireTools("claude-2.1.332");

  it("DROP TABLE users through mcp__db__execute_sql is refused; the table is still there; the model reads why", async function () {
    const g = await guarded();
    const results = await runSql(g.proj.dir, "DROP TABLE users;", g.env);
    assert.equal(results.length, 1, JSON.stringify(results));
    assert.equal(results[0]!.isError, true);
    assert.ok(results[0]!.text.includes("Blocked by Damage Control: DROP TABLE"), results[0]!.text);
    assert.ok(results[0]!.text.includes("sql-drop-table"), results[0]!.text);
    assert.deepEqual(await tablesIn(path.join(g.proj.dir, "pgdata")), ["users"]);
    const hook = g.answers.filter((a) => a.route === "/claude/hook" || a.route === "/hook/claude");
    assert.ok(hook.length >= 1, "the hook was called");
  });

  it("a SELECT through the same tool runs and returns the rows", async function () {
    const g = await guarded();
    const results = await runSql(g.proj.dir, "SELECT email FROM users ORDER BY id", g.env);
    assert.equal(results[0]!.isError, false, results[0]!.text);
    assert.ok(results[0]!.text.includes("ann@example.com"), results[0]!.text);
  });

  it("control: without the hook, the same call drops the table", async function () {
    const proj = makeProject({ files: { "README.md": "no guard here\n" } });
    addCleanup(() => proj.remove());
    await seedUsers(path.join(proj.dir, "pgdata"));
    const results = await runSql(proj.dir, "DROP TABLE users;", {});
    assert.equal(results[0]!.isError, false, results[0]!.text);
    assert.deepEqual(await tablesIn(path.join(proj.dir, "pgdata")), []);
  });
});
