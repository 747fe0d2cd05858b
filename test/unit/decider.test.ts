import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BoundedDecider, locateWorker } from "../../src/hookserver/decider";
import { Guard } from "../../src/hookserver/guard";
import { parseRules } from "../../src/engine/rules/parse";

const ctx = { cwd: "/w", home: "/home/dev", root: "/w" };

describe("bounded decider (worker thread with a time limit)", function () {
  this.timeout(20_000);
  const workerFile = locateWorker();

  it("finds the worker bundle", () => assert.ok(workerFile && fs.existsSync(workerFile), "dist/decider-worker.js"));

  it("decides like the engine, in a worker", async () => {
    const d = new BoundedDecider(workerFile!, 15_000);
    try {
      const rules = parseRules("bashToolPatterns:\n  - pattern: '\\bsudo\\b'\n    reason: no sudo\nzeroAccessPaths:\n  - .env\n").rules;
      assert.equal((await d.decide({ tool: "bash", input: { command: "sudo ls" } }, rules, ctx, "pi")).action, "block");
      assert.equal((await d.decide({ tool: "read", input: { path: ".env" } }, rules, ctx, "pi")).action, "block");
      assert.equal((await d.decide({ tool: "bash", input: { command: "ls" } }, rules, ctx, "pi")).action, "allow");
      const j = await d.judgeClaude({ hook_event_name: "PreToolUse", cwd: "/w", tool_name: "Bash", tool_input: { command: "sudo x" } }, rules, { ...ctx, fallbackCwd: "/w" });
      assert.equal(j.verdict!.action, "block");
    } finally {
      d.close();
    }
  });

  it("a catastrophic regex cannot hang it: refused at the limit, and the next call works", async () => {
    const rules = parseRules("bashToolPatterns:\n  - pattern: '^(a+)+$'\n    reason: pathological\n").rules;
    const d = new BoundedDecider(workerFile!, 300);
    try {
      const started = Date.now();
      await assert.rejects(d.decide({ tool: "bash", input: { command: "a".repeat(40) + "!" } }, rules, ctx, "pi"), /longer than 300 ms/);
      assert.ok(Date.now() - started < 10_000, "bounded (generous: the machine is shared)");
      assert.equal((await d.decide({ tool: "bash", input: { command: "echo ok" } }, rules, ctx, "pi")).action, "allow", "a fresh worker serves the next call");
    } finally {
      d.close();
    }
  });

  it("through the guard: a timeout is a refusal the agent can read, for both agents", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-decider-"));
    fs.mkdirSync(path.join(dir, ".pi"));
    fs.writeFileSync(path.join(dir, ".pi/damage-control-rules.yaml"), "bashToolPatterns:\n  - pattern: '^(a+)+$'\n    reason: pathological\n");
    const g = new Guard({ folders: [dir], decider: new BoundedDecider(workerFile!, 300) });
    try {
      const pi = await g.piToolCall({ toolName: "bash", input: { command: "a".repeat(40) + "!" }, cwd: dir });
      assert.equal(pi.block, true);
      assert.match(pi.reason!, /could not decide .*longer than 300 ms/);
      const claude = (await g.claudeHook({ hook_event_name: "PreToolUse", cwd: dir, tool_name: "Bash", tool_input: { command: "a".repeat(40) + "!" } })) as { hookSpecificOutput: { permissionDecision: string } };
      assert.equal(claude.hookSpecificOutput.permissionDecision, "deny");
      await g.drain();
    } finally {
      g.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
