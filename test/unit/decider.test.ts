import * as assert from "node:assert/strict";
import { claudeBody, piBody } from "./support";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BoundedDecider, locateWorker, refusingDecider } from "../../src/core/decider";
import { Guard } from "../../src/core/guard";
import { readClaudeHook } from "../../src/engine/agents/claude";
import type { WireRequest } from "../../src/engine/agents/types";
import type { Judgement } from "../../src/engine/judge";
import { parseRules } from "../../src/engine/rules/parse";

const ctx = { folder: "/w", home: "/home/dev", root: "/w" };
const call = (tool: string, input: unknown): WireRequest => ({ agent: "pi", event: "PreToolUse", call: { tool, input }, cwd: "/w" });
/** The verdict of one judgement (a neutral one has none). */
const verdictOf = (j: Judgement) => (j.kind === "verdict" ? j.verdict : undefined);

describe("bounded decider (worker thread with a time limit)", function () {
  this.timeout(20_000);
  const workerFile = locateWorker();

  it("finds the worker bundle", () => assert.ok(workerFile && fs.existsSync(workerFile), "dist/decider-worker.js"));

  it("decides like the engine, in a worker", async () => {
    const d = new BoundedDecider(workerFile!, 15_000);
    try {
      const rules = parseRules("bashToolPatterns:\n  - pattern: '\\bsudo\\b'\n    reason: no sudo\nzeroAccessPaths:\n  - .env\n").rules;
      assert.equal(verdictOf(await d.judge(call("bash", { command: "sudo ls" }), rules, ctx, "advisory"))?.action, "block");
      assert.equal(verdictOf(await d.judge(call("read", { path: ".env" }), rules, ctx, "advisory"))?.action, "block");
      assert.equal(verdictOf(await d.judge(call("bash", { command: "ls" }), rules, ctx, "advisory"))?.action, "allow");
      const req = readClaudeHook({ hook_event_name: "PreToolUse", cwd: "/w", tool_name: "Bash", tool_input: { command: "sudo x" } });
      assert.equal(verdictOf(await d.judge(req, rules, ctx, "advisory"))?.action, "block");
    } finally {
      d.close();
    }
  });

  it("a catastrophic regex cannot hang it: refused at the limit, and the next call works", async () => {
    const rules = parseRules("bashToolPatterns:\n  - pattern: '^(a+)+$'\n    reason: pathological\n").rules;
    const d = new BoundedDecider(workerFile!, 300);
    try {
      const started = Date.now();
      await assert.rejects(d.judge(call("bash", { command: "a".repeat(40) + "!" }), rules, ctx, "advisory"), /longer than 300 ms/);
      assert.ok(Date.now() - started < 10_000, "bounded (generous: the machine is shared)");
      assert.equal(verdictOf(await d.judge(call("bash", { command: "echo ok" }), rules, ctx, "advisory"))?.action, "allow", "a fresh worker serves the next call");
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
      const pi = await piBody(g, { toolName: "bash", input: { command: "a".repeat(40) + "!" }, cwd: dir });
      assert.equal(pi.block, true);
      assert.match(pi.reason!, /could not decide .*longer than 300 ms/);
      const claude = (await claudeBody(g, { hook_event_name: "PreToolUse", cwd: dir, tool_name: "Bash", tool_input: { command: "a".repeat(40) + "!" } })) as { hookSpecificOutput: { permissionDecision: string } };
      assert.equal(claude.hookSpecificOutput.permissionDecision, "deny");
      await g.drain();
    } finally {
      g.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("17+ rule sets across folders: the worker keeps a few, and a call with a dropped one is still decided", async () => {
    // The worker holds 16 rule sets. Editing one folder's rules 20 times makes 20 rule sets; the
    // other folder's first set is long dropped by then, and its next call must still be judged.
    const d = new BoundedDecider(workerFile!, 15_000);
    try {
      const other = parseRules("bashToolPatterns:\n  - pattern: '\\bsudo\\b'\n    reason: no sudo\n").rules;
      assert.equal(verdictOf(await d.judge(call("bash", { command: "sudo ls" }), other, ctx, "advisory"))?.action, "block");
      for (let i = 0; i < 20; i++) {
        const edited = parseRules(`bashToolPatterns:\n  - pattern: '^tool-${i}\\b'\n    reason: edit ${i}\n`).rules;
        assert.equal(verdictOf(await d.judge(call("bash", { command: `tool-${i} run` }), edited, { ...ctx, folder: "/a" }, "advisory"))?.action, "block", `edit ${i}`);
      }
      for (let round = 0; round < 2; round++) {
        assert.equal(verdictOf(await d.judge(call("bash", { command: "sudo ls" }), other, ctx, "advisory"))?.action, "block", `the other folder, round ${round}`);
        assert.equal(verdictOf(await d.judge(call("bash", { command: "ls" }), other, ctx, "advisory"))?.action, "allow", `the other folder, round ${round}`);
      }
    } finally {
      d.close();
    }
  });

  it("through the guard: 17+ edits of one folder's rules never break another folder's calls", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "dc-decider-multi-"));
    const a = path.join(root, "a");
    const b = path.join(root, "b");
    for (const f of [a, b]) fs.mkdirSync(path.join(f, ".pi"), { recursive: true });
    const rulesOf = (f: string) => path.join(f, ".pi/damage-control-rules.yaml");
    fs.writeFileSync(rulesOf(b), "bashToolPatterns:\n  - pattern: '\\bsudo\\b'\n    reason: no sudo\n");
    const g = new Guard({ folders: [a, b], ledger: false, decider: new BoundedDecider(workerFile!, 15_000) });
    try {
      assert.equal((await piBody(g, { toolName: "bash", input: { command: "sudo ls" }, cwd: b })).block, true);
      for (let i = 0; i < 20; i++) {
        // A different size each time: the store sees the edit even within one mtime tick.
        fs.writeFileSync(rulesOf(a), `bashToolPatterns:\n  - pattern: '^tool-${i}${"x".repeat(i)}\\b'\n    reason: edit ${i}\n`);
        assert.equal((await piBody(g, { toolName: "bash", input: { command: `tool-${i}${"x".repeat(i)} run` }, cwd: a })).block, true, `edit ${i}`);
      }
      const after = await piBody(g, { toolName: "bash", input: { command: "sudo ls" }, cwd: b });
      assert.equal(after.block, true);
      assert.match(after.reason!, /no sudo/, "decided by folder b's rule, not refused as undecided");
      assert.deepEqual(await piBody(g, { toolName: "bash", input: { command: "ls" }, cwd: b }), { block: false });
    } finally {
      g.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("no worker bundle", () => {
  it("refuses every call instead of deciding without a time limit", async () => {
    const g = new Guard({ folders: [process.cwd()], ledger: false, decider: refusingDecider("the decision worker (decider-worker.js) is missing from this installation") });
    try {
      const body = (await g.handle("claude", { hook_event_name: "PreToolUse", session_id: "s", cwd: process.cwd(), tool_name: "Bash", tool_input: { command: "ls" } }, {})).body as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
      assert.equal(body.hookSpecificOutput?.permissionDecision, "deny");
      assert.match(body.hookSpecificOutput?.permissionDecisionReason ?? "", /decision worker .* is missing/);
    } finally {
      g.close();
    }
  });
});
