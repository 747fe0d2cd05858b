// The bounded decider under concurrency: many calls at once (each must get its own answer), long
// requests and answers, and a stuck decision with other calls queued behind it, through the real
// worker bundle and through the real endpoint (every request answered, none dropped).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BoundedDecider, locateWorker } from "../../src/core/decider";
import { Guard } from "../../src/core/guard";
import type { WireRequest } from "../../src/engine/agents/types";
import type { Judgement } from "../../src/engine/judge";
import { parseRules } from "../../src/engine/rules/parse";
import { startEndpoint } from "../../src/hookserver/server";
import { request } from "./http-client";

const ctx = { folder: "/w", home: "/home/dev", root: "/w" };
const bash = (command: string): WireRequest => ({ agent: "pi", event: "PreToolUse", call: { tool: "bash", input: { command } }, cwd: "/w" });
const actionOf = (j: Judgement) => (j.kind === "verdict" ? j.verdict.action : "neutral");
const PATHOLOGICAL = "a".repeat(40) + "!";
/** More calls than any batching in the hand-off, and texts longer than its short messages. */
const MANY = 48;
const LONG = 16 * 1024;

describe("bounded decider under concurrency", function () {
  this.timeout(30_000);
  const workerFile = locateWorker()!;

  it(`${MANY} calls at once: each gets its own answer`, async () => {
    const rules = parseRules("bashToolPatterns:\n  - pattern: '\\bsudo\\b'\n    reason: no sudo\n").rules;
    const d = new BoundedDecider(workerFile, 15_000);
    try {
      const commands = Array.from({ length: MANY }, (_, i) => (i % 3 === 0 ? `sudo tool-${i}` : `echo ${i}`));
      const answers = await Promise.all(commands.map((c) => d.judge(bash(c), rules, ctx, "advisory")));
      answers.forEach((j, i) => {
        assert.equal(actionOf(j), commands[i].startsWith("sudo") ? "block" : "allow", commands[i]);
        if (j.kind === "verdict") assert.match(j.target, new RegExp(`\\b${i}\\b`), `call ${i} got call ${j.target}'s answer`);
      });
    } finally {
      d.close();
    }
  });

  it("long requests and long answers cross whole", async () => {
    const longReason = "r".repeat(LONG);
    const rules = parseRules(`bashToolPatterns:\n  - pattern: '\\bsudo\\b'\n    reason: ${longReason}\nzeroAccessPaths:\n  - .env\n`).rules;
    const d = new BoundedDecider(workerFile, 15_000);
    try {
      const content = "é".repeat(LONG); // 2 bytes each in UTF-8
      const write = (p: string): WireRequest => ({ agent: "pi", event: "PreToolUse", call: { tool: "write", input: { path: p, content } }, cwd: "/w" });
      assert.equal(actionOf(await d.judge(write("/w/.env"), rules, ctx, "advisory")), "block");
      assert.equal(actionOf(await d.judge(write("/w/notes.txt"), rules, ctx, "advisory")), "allow");
      const sudo = await d.judge(bash("sudo ls"), rules, ctx, "advisory");
      assert.ok(sudo.kind === "verdict" && sudo.verdict.reason.includes(longReason), "the long reason arrives whole");
      // Short ones after long ones still get their own answers.
      assert.equal(actionOf(await d.judge(bash("sudo x"), rules, ctx, "advisory")), "block");
      assert.equal(actionOf(await d.judge(bash("ls"), rules, ctx, "advisory")), "allow");
    } finally {
      d.close();
    }
  });

  it("calls queued behind a stuck decision all settle (none allowed by it), and the next call works", async () => {
    const rules = parseRules("bashToolPatterns:\n  - pattern: '^(a+)+$'\n    reason: pathological\n  - pattern: '\\bsudo\\b'\n    reason: no sudo\n").rules;
    const d = new BoundedDecider(workerFile, 300);
    try {
      // A first call loads the worker (not asserted: on a loaded machine a cold one may hit 300 ms).
      await d.judge(bash("echo warm"), rules, ctx, "advisory").catch(() => undefined);
      const stuck = d.judge(bash(PATHOLOGICAL), rules, ctx, "advisory");
      const behind = ["sudo ls", "echo 1", "sudo rm x"].map((c) => d.judge(bash(c), rules, ctx, "advisory"));
      await assert.rejects(stuck, /longer than 300 ms/);
      const settled = await Promise.allSettled(behind);
      // Each is refused at its own limit or decided by the fresh worker, and never wrongly.
      settled.forEach((s, i) => {
        if (s.status === "fulfilled") assert.equal(actionOf(s.value), i === 1 ? "allow" : "block");
        else assert.match(String(s.reason), /longer than 300 ms/);
      });
      assert.equal(actionOf(await d.judge(bash("sudo again"), rules, ctx, "advisory")), "block", "a fresh worker serves the next call");
      assert.equal(actionOf(await d.judge(bash("echo ok"), rules, ctx, "advisory")), "allow");
    } finally {
      d.close();
    }
  });

  it("over HTTP: a stuck decision and the requests beside it are all answered (never a dropped connection)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-channel-"));
    fs.mkdirSync(path.join(dir, ".pi"));
    fs.writeFileSync(path.join(dir, ".pi/damage-control-rules.yaml"), "bashToolPatterns:\n  - pattern: '^(a+)+$'\n    reason: pathological\n  - pattern: '\\bsudo\\b'\n    reason: no sudo\n");
    const guard = new Guard({ folders: [dir], ledger: false, decider: new BoundedDecider(workerFile, 300) });
    const ep = await startEndpoint({ guard, token: "t".repeat(43), port: 0 });
    const post = (command: string, id: string) =>
      request(ep.port, { path: "/claude/hook", token: "t".repeat(43), body: JSON.stringify({ session_id: "s", cwd: dir, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: id }) });
    type Body = { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
    try {
      await post("echo warm", "w"); // loads the worker (a cold first decision may hit 300 ms here)
      const replies = await Promise.all([post(PATHOLOGICAL, "p"), post("sudo ls", "s"), post("echo hi", "e")]);
      for (const r of replies) assert.equal(r.status, 200, r.text);
      const [stuck, sudo, echo] = replies.map((r) => r.json as Body);
      assert.equal(stuck.hookSpecificOutput?.permissionDecision, "deny");
      assert.match(stuck.hookSpecificOutput?.permissionDecisionReason ?? "", /could not decide .*longer than 300 ms/);
      assert.equal(sudo.hookSpecificOutput?.permissionDecision, "deny", "refused, by its rule or as undecided");
      assert.ok(echo.hookSpecificOutput === undefined || echo.hookSpecificOutput.permissionDecision === "deny", "no opinion or refused, never allowed");
      assert.deepEqual((await post("echo after", "a")).json, {}, "the next request is decided");
      assert.equal(((await post("sudo after", "b")).json as Body).hookSpecificOutput?.permissionDecision, "deny");
    } finally {
      await ep.close();
      guard.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
