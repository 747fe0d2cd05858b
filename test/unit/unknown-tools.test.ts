// damageControl.unknownTools reaches the decision: a tool with nothing to judge (no command, path
// or URL, not on an agent's effect-free list) gets no opinion by default and an ask when the user
// sets "ask" — an ask that nobody can answer here, so a refusal that says so.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Guard } from "../../src/core/guard";
import { claudeBody } from "./support";

describe("unknown tools (damageControl.unknownTools through the guard)", () => {
  let dir: string;
  let home: string;
  const guards: Guard[] = [];
  const make = (unknownTools?: "ask" | "no-opinion") => {
    const g = new Guard({ folders: [dir], home, ledger: false, ...(unknownTools && { unknownTools }) });
    guards.push(g);
    return g;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-unknown-"));
    home = fs.mkdtempSync(path.join(os.tmpdir(), "dc-unknown-home-"));
  });
  afterEach(() => {
    for (const g of guards.splice(0)) g.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });
  const call = (g: Guard, tool_name: string, tool_input: unknown) => claudeBody(g, { hook_event_name: "PreToolUse", session_id: "s", cwd: dir, tool_name, tool_input });
  const decision = (body: Record<string, unknown>) => (body.hookSpecificOutput as { permissionDecision?: string } | undefined)?.permissionDecision;

  it("default: no opinion for an MCP tool with nothing to judge", async () => {
    assert.deepEqual(await call(make(), "mcp__tracker__create_issue", { title: "x", body: "y" }), {});
  });
  it('"ask": the same call is put to a human (headless: refused, saying nobody could confirm)', async () => {
    const body = await call(make("ask"), "mcp__tracker__create_issue", { title: "x", body: "y" });
    assert.equal(decision(body), "deny", JSON.stringify(body));
    assert.match(JSON.stringify(body), /no vocabulary for/);
  });
  it('"ask" never touches tools the agent tables name as effect-free, nor tools judged by their fields', async () => {
    const g = make("ask");
    assert.deepEqual(await call(g, "TodoWrite", { todos: [] }), {});
    // MCP tools without effects on files, shells or remote data (issue 23): a browser, docs, thinking.
    assert.deepEqual(await call(g, "mcp__playwright__browser_navigate", { url: "http://localhost:3000" }), {});
    assert.deepEqual(await call(g, "mcp__context7__get-library-docs", { context7CompatibleLibraryID: "/vercel/next.js" }), {});
    assert.deepEqual(await call(g, "mcp__sequential-thinking__sequentialthinking", { thought: "rm -rf ~" }), {});
    const shell = await call(g, "mcp__shell__run", { command: "rm -rf ~" });
    assert.equal(decision(shell), "deny");
    assert.match(JSON.stringify(shell), /recursive or forced rm/);
  });
});
