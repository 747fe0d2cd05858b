// The Codex CLI, Gemini CLI and Copilot CLI adapters (issue 18): payload → the engine's
// vocabulary, answer → the one shape each agent honours; and the guard path under the agent's id.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { codexWire, patchCall } from "../../src/engine/agents/codex";
import { copilotCliWire, isCopilotCliPayload, toolArgsOf } from "../../src/engine/agents/copilot-cli";
import { geminiWire } from "../../src/engine/agents/gemini";
import { agentLabel, type AgentId } from "../../src/engine/agents";
import { Guard } from "../../src/core/guard";
import { repoRoot } from "./support";
import { refusalCommands } from "../../src/engine/agents/cline";

const DENY = { kind: "deny" as const, reason: "Blocked by Damage Control: no. Do not work around this; report it to the user." };
const NEUTRAL = { kind: "neutral" as const };
const ALLOW = { kind: "allow" as const, reason: "Allowed by the user in Damage Control: x" };
const ASK = { kind: "ask" as const, reason: "Damage Control asks the user to confirm: touching it." };

describe("more agents: adapters", () => {
  describe("Codex CLI", () => {
    const pre = (tool: string, input: unknown) => ({ session_id: "s1", turn_id: "t", cwd: "/w", hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, tool_use_id: "c1" });
    it("reads Bash as the engine's bash, with cwd and session", () => {
      const r = codexWire.read(pre("Bash", { command: "rm -r data" }));
      assert.deepEqual(r.call, { tool: "bash", input: { command: "rm -r data" } });
      assert.equal(r.cwd, "/w");
      assert.equal(r.sessionId, "s1");
      assert.equal(r.malformed, undefined);
    });
    it("reads an argv-array command as one shell line", () => {
      assert.deepEqual(codexWire.read(pre("Bash", { command: ["rm", "-r", "my data"] })).call, { tool: "bash", input: { command: "rm -r 'my data'" } });
    });
    it("refuses what it cannot read", () => {
      assert.ok(codexWire.read("nope").malformed);
      assert.ok(codexWire.read({ hook_event_name: "PreToolUse" }).malformed);
      assert.ok(codexWire.read(pre("Bash", { command: 42 })).malformed);
      assert.ok(codexWire.read({ tool_name: "Bash", tool_input: { command: "ls" } }).malformed, "no event name");
    });
    it("apply_patch: one file is a write/edit, deletes and moves are their shell effects", () => {
      assert.deepEqual(patchCall("*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** End Patch"), { tool: "edit", input: { file_path: "src/a.ts" } });
      assert.deepEqual(patchCall("*** Begin Patch\n*** Add File: n.txt\n+hi\n*** End Patch"), { tool: "write", input: { file_path: "n.txt" } });
      assert.deepEqual(patchCall("*** Begin Patch\n*** Delete File: data/keep.txt\n*** End Patch"), { tool: "bash", input: { command: "rm -- 'data/keep.txt'" } });
      assert.deepEqual(patchCall("*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** Add File: c\n*** End Patch"), { tool: "bash", input: { command: "touch -- 'a'; mv -- 'a' 'b'; touch -- 'c'" } });
      assert.ok(codexWire.read(pre("apply_patch", { command: "nothing" })).malformed);
    });
    it("answers only deny (hookSpecificOutput, exit 0) or no opinion — never allow or ask", () => {
      const req = codexWire.read(pre("Bash", { command: "x" }));
      assert.deepEqual(codexWire.render(req, DENY), { body: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: DENY.reason } }, exitCode: 0 });
      assert.deepEqual(codexWire.render(req, NEUTRAL), { body: {}, exitCode: 0 });
      assert.deepEqual(codexWire.render(req, ALLOW), { body: {}, exitCode: 0 }, "Codex rejects allow and then runs: a human's Allow is no opinion");
      const ask = codexWire.render(req, ASK).body as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
      assert.equal(ask.hookSpecificOutput.permissionDecision, "deny");
      assert.match(ask.hookSpecificOutput.permissionDecisionReason, /^Blocked by Damage Control: touching it; Codex CLI cannot ask here/);
    });
  });

  describe("Gemini CLI", () => {
    const before = (tool: string, input: unknown) => ({ session_id: "g1", transcript_path: "/t", cwd: "/w", hook_event_name: "BeforeTool", timestamp: "2026-01-01T00:00:00Z", tool_name: tool, tool_input: input });
    it("maps Gemini's tool names onto the engine's", () => {
      assert.deepEqual(geminiWire.read(before("run_shell_command", { command: "ls", description: "d" })).call, { tool: "bash", input: { command: "ls" } });
      assert.deepEqual(geminiWire.read(before("write_file", { file_path: "/w/.env", content: "s" })).call, { tool: "write", input: { file_path: "/w/.env" } });
      assert.deepEqual(geminiWire.read(before("replace", { file_path: "/w/a", old_string: "a", new_string: "b" })).call, { tool: "edit", input: { file_path: "/w/a" } });
      assert.deepEqual(geminiWire.read(before("read_file", { file_path: "/w/.env" })).call, { tool: "read", input: { file_path: "/w/.env" } });
      assert.deepEqual(geminiWire.read(before("read_file", { absolute_path: "/w/.env" })).call, { tool: "read", input: { file_path: "/w/.env" } });
      assert.deepEqual(geminiWire.read(before("list_directory", { dir_path: "config" })).call, { tool: "ls", input: { path: "config" } });
      assert.deepEqual(geminiWire.read(before("grep_search", { pattern: "k", dir_path: "." })).call, { tool: "grep", input: { path: "." } });
      assert.equal(geminiWire.read(before("web_fetch", { url: "u" })).call?.tool, "web_fetch", "unknown tools pass through (no rule covers them)");
    });
    it("judges a shell command where it runs (dir_path)", () => {
      assert.equal(geminiWire.read(before("run_shell_command", { command: "rm -r x", dir_path: "data" })).cwd, "/w/data");
    });
    it("refuses what it cannot read", () => {
      assert.ok(geminiWire.read(before("run_shell_command", {})).malformed);
      assert.ok(geminiWire.read(before("write_file", { content: "x" })).malformed);
      assert.ok(geminiWire.read(before("run_shell_command", "ls")).malformed);
      assert.ok(geminiWire.read([]).malformed);
    });
    it("another event gets no opinion", () => {
      const r = geminiWire.read({ hook_event_name: "AfterTool", cwd: "/w" });
      assert.equal(r.call, undefined);
      assert.equal(r.malformed, undefined);
    });
    it("answers {decision:deny, reason} on exit 0, or {} — never allow", () => {
      const req = geminiWire.read(before("run_shell_command", { command: "x" }));
      assert.deepEqual(geminiWire.render(req, DENY), { body: { decision: "deny", reason: DENY.reason }, exitCode: 0 });
      assert.deepEqual(geminiWire.render(req, NEUTRAL), { body: {}, exitCode: 0 });
      assert.deepEqual(geminiWire.render(req, ALLOW), { body: {}, exitCode: 0 });
      assert.equal((geminiWire.render(req, ASK).body as { decision: string }).decision, "deny");
    });
  });

  describe("Copilot CLI (lower-case preToolUse)", () => {
    const pre = (toolName: string, toolArgs: unknown) => ({ sessionId: "c1", timestamp: 1760000000000, cwd: "/w", toolName, toolArgs });
    it("reads toolArgs given as an object or as a JSON string", () => {
      assert.deepEqual(copilotCliWire.read(pre("bash", { command: "rm -r data", description: "d" })).call, { tool: "bash", input: { command: "rm -r data" } });
      assert.deepEqual(copilotCliWire.read(pre("bash", JSON.stringify({ command: "rm -r data" }))).call, { tool: "bash", input: { command: "rm -r data" } });
      assert.deepEqual(toolArgsOf("[1]"), undefined);
      assert.deepEqual(toolArgsOf("{bad"), undefined);
    });
    it("maps view/create/edit onto read/write/edit", () => {
      assert.deepEqual(copilotCliWire.read(pre("view", { path: "/w/.env" })).call, { tool: "read", input: { file_path: "/w/.env" } });
      assert.deepEqual(copilotCliWire.read(pre("create", { path: "/w/config/x", file_text: "s" })).call, { tool: "write", input: { file_path: "/w/config/x" } });
      assert.deepEqual(copilotCliWire.read(pre("edit", { path: "/w/a" })).call, { tool: "edit", input: { file_path: "/w/a" } });
    });
    it("refuses what it cannot read", () => {
      assert.ok(copilotCliWire.read(pre("bash", "not json")).malformed);
      assert.ok(copilotCliWire.read(pre("bash", {})).malformed);
      assert.ok(copilotCliWire.read({ cwd: "/w" }).malformed);
    });
    it("tells its stdin from the VS Code-format (Claude-shaped) entry's", () => {
      assert.equal(isCopilotCliPayload(pre("bash", {})), true);
      assert.equal(isCopilotCliPayload({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: {} }), false);
    });
    it("answers top-level permissionDecision (deny; allow only for a human's Allow), or {}", () => {
      const req = copilotCliWire.read(pre("bash", { command: "x" }));
      assert.deepEqual(copilotCliWire.render(req, DENY), { body: { permissionDecision: "deny", permissionDecisionReason: DENY.reason }, exitCode: 0 });
      assert.deepEqual(copilotCliWire.render(req, NEUTRAL), { body: {}, exitCode: 0 });
      assert.equal((copilotCliWire.render(req, ALLOW).body as { permissionDecision: string }).permissionDecision, "allow");
      assert.equal((copilotCliWire.render(req, ASK).body as { permissionDecision: string }).permissionDecision, "deny");
      assert.equal((copilotCliWire.render(req, DENY).body as Record<string, unknown>).hookSpecificOutput, undefined, "a Claude-shaped answer is ignored by Copilot CLI");
    });
  });

  it("labels name each agent", () => {
    assert.equal(agentLabel("codex"), "Codex CLI");
    assert.equal(agentLabel("gemini"), "Gemini CLI");
    assert.equal(agentLabel("copilot-cli"), "Copilot CLI");
    assert.equal(agentLabel("cline"), "Cline");
  });

});

const handle = (guard: Guard, agent: AgentId, payload: unknown) => guard.handle(agent, payload);
const clineCall = (name: string, input: unknown, ws: string) => ({ hookName: "tool_call", taskId: "t1", workspaceRoots: [ws], tool_call: { id: "c1", name, input } });

describe("more agents: through the guard", () => {
  let dir: string;
  let guard: Guard;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-more-agents-"));
    fs.mkdirSync(path.join(dir, ".pi"));
    fs.writeFileSync(path.join(dir, ".pi/damage-control-rules.yaml"), "bashToolPatterns:\n  - pattern: '\\brm\\s+-r'\n    reason: recursive rm\nzeroAccessPaths:\n  - .env\n");
    guard = new Guard({ folders: [dir] });
  });
  after(() => {
    guard.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses rm -r for each agent in its own shape, and records the agent's id", async () => {
    const seen: string[] = [];
    guard.on("decision", (d: { agent: string }) => seen.push(d.agent));
    const codex = await handle(guard, "codex", { hook_event_name: "PreToolUse", cwd: dir, tool_name: "Bash", tool_input: { command: "rm -r data" } });
    assert.equal((codex.body as any).hookSpecificOutput.permissionDecision, "deny");
    assert.match((codex.body as any).hookSpecificOutput.permissionDecisionReason, /recursive rm/);
    const gemini = await handle(guard, "gemini", { hook_event_name: "BeforeTool", cwd: dir, tool_name: "read_file", tool_input: { file_path: path.join(dir, ".env") } });
    assert.equal((gemini.body as any).decision, "deny");
    const copilot = await handle(guard, "copilot-cli", { cwd: dir, toolName: "bash", toolArgs: JSON.stringify({ command: "rm -r data" }) });
    assert.equal((copilot.body as any).permissionDecision, "deny");
    // Recorded right after each answer went out (not before it, since the ledger-off-the-path
    // change): drain() writes what is pending.
    await guard.drain();
    assert.deepEqual(seen, ["codex", "gemini", "copilot-cli"]);
    const ledger = fs.readFileSync(path.join(dir, ".damage-control/audit.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(ledger.map((l) => l.agent), ["codex", "gemini", "copilot-cli"]);
  });

  it("no rule matched → no opinion (never allow)", async () => {
    for (const [agent, payload] of [
      ["codex", { hook_event_name: "PreToolUse", cwd: dir, tool_name: "Bash", tool_input: { command: "ls" } }],
      ["gemini", { hook_event_name: "BeforeTool", cwd: dir, tool_name: "run_shell_command", tool_input: { command: "ls" } }],
      ["copilot-cli", { cwd: dir, toolName: "bash", toolArgs: { command: "ls" } }],
    ] as const) {
      assert.deepEqual((await handle(guard, agent, payload)).body, {}, agent);
    }
  });

  // Cline: several calls in one (run_commands, read_files), each judged.
  it("one refused command refuses the whole run_commands call, wherever it stands; the ledger names cline", async () => {
    for (const commands of [["ls", "rm -r data"], ["rm -r data", "ls"]]) {
      const a = await guard.handle("cline", clineCall("run_commands", { commands }, dir));
      const body = a.body as { overrideInput: { commands: string[] }; context: string };
      assert.match(body.context, /recursive rm/, JSON.stringify(commands));
      assert.deepEqual(body.overrideInput, refusalCommands(body.context));
    }
    await guard.drain();
    const ledger = fs.readFileSync(path.join(dir, ".damage-control/audit.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(ledger.filter((l) => l.agent === "cline").map((l) => [l.target, l.decision]), [["rm -r data", "block"], ["rm -r data", "block"]]);
  });

  it("harmless commands: no opinion; a refused file among several read_files cancels", async () => {
    assert.deepEqual((await guard.handle("cline", clineCall("run_commands", { commands: ["ls", "pwd"] }, dir))).body, {});
    const r = await guard.handle("cline", clineCall("read_files", { files: [path.join(dir, "a.txt"), path.join(dir, ".env")] }, dir));
    assert.equal((r.body as { cancel: boolean }).cancel, true);
    const malformed = (await guard.handle("cline", 7)).body as { cancel: boolean; errorMessage: string };
    assert.deepEqual([malformed.cancel, /Blocked by Damage Control: malformed cline hook request/.test(malformed.errorMessage)], [true, true]);
  });

  it("a malformed payload is that agent's deny, exit 0", async () => {
    assert.equal(((await handle(guard, "codex", 7)).body as any).hookSpecificOutput.permissionDecision, "deny");
    assert.equal(((await handle(guard, "gemini", {})).body as any).decision, "deny");
    assert.equal(((await handle(guard, "copilot-cli", { toolName: "bash", toolArgs: "{" })).body as any).permissionDecision, "deny");
  });
});

describe("damage-control hook codex|gemini|copilot (built CLI, no endpoint)", () => {
  const CLI = path.join(repoRoot, "dist/cli.js");
  let dir: string;
  let state: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-more-hook-"));
    state = fs.mkdtempSync(path.join(os.tmpdir(), "dc-more-state-"));
    fs.mkdirSync(path.join(dir, "data"));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  });
  const hook = (agent: string, input: string) =>
    spawnSync(process.execPath, [CLI, "hook", agent], { input, encoding: "utf8", env: { ...process.env, DAMAGE_CONTROL_STATE_DIR: state, DAMAGE_CONTROL_URL: "", DAMAGE_CONTROL_TOKEN: "" }, timeout: 20_000 });

  it("decides locally with the default rules, answering each agent in its shape (exit 0)", () => {
    const c = hook("codex", JSON.stringify({ hook_event_name: "PreToolUse", cwd: dir, tool_name: "Bash", tool_input: { command: "rm -rf data" } }));
    assert.equal(c.status, 0);
    assert.equal(JSON.parse(c.stdout).hookSpecificOutput.permissionDecision, "deny");
    const g = hook("gemini", JSON.stringify({ hook_event_name: "BeforeTool", cwd: dir, tool_name: "run_shell_command", tool_input: { command: "rm -rf data" } }));
    assert.equal(g.status, 0);
    assert.equal(JSON.parse(g.stdout).decision, "deny");
    const p = hook("copilot-cli", JSON.stringify({ cwd: dir, toolName: "bash", toolArgs: JSON.stringify({ command: "rm -rf data" }) }));
    assert.equal(p.status, 0);
    assert.equal(JSON.parse(p.stdout).permissionDecision, "deny");
  });

  it("garbage on stdin is a deny in the agent's shape (exit 2, which each also honours), never exit 1", () => {
    for (const [agent, key] of [["codex", "hookSpecificOutput"], ["gemini", "decision"], ["copilot-cli", "permissionDecision"]] as const) {
      const r = hook(agent, "not json {");
      assert.equal(r.status, 2, agent);
      assert.ok(key in JSON.parse(r.stdout), `${agent}: ${r.stdout}`);
    }
  });
});
