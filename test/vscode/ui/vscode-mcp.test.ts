// VS Code's own agent (code-server 4.139.1) with a workspace MCP server: the same stdio server as
// the Claude Code e2e test (official SDK over PGlite, test/e2e/support/mcp-sql-server.mjs) in
// `.vscode/mcp.json`. Measures how VS Code names the server's tool and whether it starts the server
// offline; where it does, `DROP TABLE users` through that tool must be refused by the hook and the
// table must survive.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { seedUsers } from "../../e2e/support/pglite-db";
import { focusChat, pressVisible, waitFor } from "../support/chat-agent";
import { startChatModelMock, type ChatModelMock } from "../support/chat-model-mock";
import { makeFixture, waitForEndpoint, type Fixture } from "../support/fixture-workspace";
import { repoRoot } from "../support/paths";
import { openWorkbench, runCommand, screenshotOnFailure, type Workbench } from "../support/workbench";

const LIST_TABLES = "SELECT tablename FROM pg_tables WHERE schemaname = 'public';";

suite("VS Code's own agent with a workspace MCP server", function () {
  this.timeout(300_000);
  let fx: Fixture;
  let home: string;
  let mock: ChatModelMock;
  let wb: Workbench | undefined;
  const dataDir = () => path.join(fx.workspace, "pgdata");

  async function prompt(page: Page, text: string): Promise<void> {
    await focusChat(page);
    await page.keyboard.type(text);
    await page.keyboard.press("Enter");
  }

  suiteSetup(async function () {
    fx = makeFixture("vscode-mcp");
    home = path.join(path.dirname(fx.workspace), "home");
    fs.mkdirSync(home, { recursive: true });
    await seedUsers(dataDir());
    const server = path.join(repoRoot(), "test", "e2e", "support", "mcp-sql-server.mjs");
    fs.mkdirSync(path.join(fx.workspace, ".vscode"), { recursive: true });
    fs.writeFileSync(path.join(fx.workspace, ".vscode", "mcp.json"), JSON.stringify({ servers: { db: { type: "stdio", command: process.execPath, args: [server, dataDir()] } } }, null, 2));
    mock = await startChatModelMock();
    wb = await openWorkbench({
      workspaceFolder: fx.workspace,
      env: { ...fx.env, HOME: home },
      settings: { "chat.disableAIFeatures": false, "chat.allowAnonymousAccess": true, "chat.tools.global.autoApprove": true, "chat.useHooks": true, "chat.mcp.autostart": "newAndOutdated", "chat.mcp.discovery.enabled": false },
      userFiles: { "chatLanguageModels.json": mock.languageModels() },
      timeoutMs: 120_000,
    });
    await waitForEndpoint(fx);
    await runCommand(wb.page, "Damage Control: Guard VS Code's Agent");
    await new Promise((r) => setTimeout(r, 15_000));
  });
  teardown(async function () {
    await screenshotOnFailure(this, wb?.page);
  });
  suiteTeardown(async () => {
    console.log(`      [vscode-mcp] tools VS Code offered the model: ${[...(mock?.offeredTools ?? [])].sort().join(", ")}`);
    await wb?.close();
    await mock?.close();
    fx?.cleanup();
  });

  /** Asks the model to run `sql` through the MCP tool; resolves with what the model was told. */
  async function runSql(sql: string): Promise<string> {
    const page = wb!.page;
    const seen = mock.outcomes.length;
    for (let attempt = 1; ; attempt++) {
      await prompt(page, `Run this SQL: DCMCP<<${sql}>>`);
      try {
        await waitFor("the model to be asked with tools", () => mock.sawPrompt(sql), 25_000);
        break;
      } catch (e) {
        if (attempt >= 3) throw e;
        await page.keyboard.press("Escape");
        await runCommand(page, "Chat: New Chat").catch(() => undefined);
      }
    }
    // Without our hook VS Code asks its own confirmation: press its Allow / Enable (the user's click).
    const deadline = Date.now() + 90_000;
    for (;;) {
      const o = mock.outcomes.slice(seen).find((x) => x.command === sql);
      if (o) return o.text;
      if (Date.now() > deadline) throw new Error(`timed out waiting for the tool result of ${sql}`);
      // code-server 4.139.1 also confirms chat.tools.global.autoApprove once, in a modal ("Enable global auto approve?").
      await pressVisible(page, /^\s*(Allow|Enable)\s*$/);
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  test("VS Code names the tool mcp_<the server's own name>_<tool>, and DROP TABLE users through it is refused; the table survives", async () => {
    const text = await runSql("DROP TABLE users;");
    // Measured: the name comes from the server's initialize (McpServer name "e2e-sql"), not from the mcp.json key "db".
    assert.ok(mock.offeredTools.has("mcp_e2e-sql_execute_sql"), [...mock.offeredTools].join(", "));
    assert.match(text, /Blocked by Damage Control: DROP TABLE/);
    // The server keeps the database open while VS Code runs: ask it (a SELECT passes the guard).
    assert.match(await runSql(LIST_TABLES), /OK \[\{"tablename":"users"\}\]/);
    const ledger = fs.readFileSync(path.join(fx.workspace, ".damage-control", "audit.jsonl"), "utf8");
    assert.match(ledger, /"agent":"vscode","event":"PreToolUse","tool":"mcp_e2e-sql_execute_sql","target":"sql: DROP TABLE users;","decision":"block"/);
  });

  test("control: without the hook file the same call drops the table (the test can fail)", async () => {
    fs.rmSync(path.join(home, ".copilot", "hooks", "damage-control.json"));
    await new Promise((r) => setTimeout(r, 3000));
    const text = await runSql("DROP TABLE users; ");
    assert.doesNotMatch(text, /Blocked by Damage Control/);
    assert.match(await runSql(`${LIST_TABLES} `), /OK \[\]/);
  });
});
