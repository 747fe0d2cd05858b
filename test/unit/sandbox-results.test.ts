// Issue 34, item 5: what the kernel refused inside our sandbox reaches the feed. The runner agents'
// post-tool events (payloads as measured with Codex CLI 0.171.0 and Gemini CLI 0.61.0) are read
// into the ToolResult row, always answered with no opinion, and a sandboxed call's output becomes a
// record of its own: the path, read or write, the rule behind it, redacted like every record.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { codexWire } from "../../src/engine/agents/codex";
import { geminiWire } from "../../src/engine/agents/gemini";
import { eventRow, guardedEvents, HOOK_EVENTS, TOOL_RESULT } from "../../src/engine/events";
import { judge } from "../../src/engine/judge";
import { defaultRules } from "../../src/engine/rules/defaults";
import { Guard, type DecisionRecord } from "../../src/core/guard";
import { inProcessDecider } from "../../src/core/in-process-decider";
import { kernelReason, refusedIn, SandboxedCalls, SANDBOXED_KEPT } from "../../src/core/sandbox/results";
import type { SandboxPolicy } from "../../src/engine/sandbox/policy-types";
import { hitsOf, isRefusal, outcomeOf, statsOf, toFeed } from "../../src/views/panel/feed";
import { kindOf } from "../../src/views/panel/messages";

const HAVE_BWRAP = fs.existsSync("/usr/bin/bwrap");

/** Codex 0.171.0's PostToolUse, as measured (tool_input is the command as it ran). */
const codexPost = (command: string, output: string, cwd = "/w") => ({ session_id: "s", turn_id: "t", transcript_path: "/x", cwd, hook_event_name: "PostToolUse", model: "mock", permission_mode: "bypassPermissions", tool_name: "Bash", tool_input: { command }, tool_response: output, tool_use_id: "call_1" });
/** Gemini 0.61.0's AfterTool, as measured. */
const geminiAfter = (command: string, output: string, cwd = "/w") => ({ session_id: "s", transcript_path: "/x", cwd, hook_event_name: "AfterTool", timestamp: "2026-12-04T00:00:00.000Z", tool_name: "run_shell_command", tool_input: { command }, tool_response: { llmContent: `<untrusted_context>\nOutput: ${output}\nProcess Group PGID: 1\n</untrusted_context>`, returnDisplay: output } });

describe("sandbox results: the post-tool event row", () => {
  it("ToolResult is known, observe-only, never refused in either posture, and never installed for Claude Code", () => {
    const row = eventRow(TOOL_RESULT);
    assert.equal(row.known, true);
    assert.equal(row.class, "observe");
    assert.equal(row.enforce, "neutral");
    assert.ok(!HOOK_EVENTS.some((e) => e.name === TOOL_RESULT), "not one of Claude Code's events");
    assert.ok(!guardedEvents("governed").some((e) => e.name === TOOL_RESULT));
    const req = codexWire.read(codexPost("cat .env", "x"));
    for (const posture of ["advisory", "governed"] as const) assert.deepEqual(judge(req, defaultRules(), { folder: "/w", home: "/h" }, posture), { kind: "neutral" });
  });

  it("Codex PostToolUse → ToolResult with the command as it ran and its output; answered {} whatever the answer", () => {
    const req = codexWire.read(codexPost("'/s/sandbox/run' ab 'ls'", "out"));
    assert.equal(req.event, TOOL_RESULT);
    assert.deepEqual(req.result, { command: "'/s/sandbox/run' ab 'ls'", output: "out" });
    assert.equal(req.call, undefined, "no call: the sandbox step never rewrites a result");
    assert.equal(req.malformed, undefined);
    for (const answer of [{ kind: "neutral" as const }, { kind: "deny" as const, reason: "R" }, { kind: "neutral" as const, run: "x" }]) assert.deepEqual(codexWire.render(req, answer), { body: {}, exitCode: 0 });
    // Another tool's result, or an output that is not text: nothing to read, still no opinion.
    assert.equal(codexWire.read({ ...codexPost("x", "y"), tool_name: "apply_patch" }).result, undefined);
    assert.equal(codexWire.read({ ...codexPost("x", "y"), tool_response: { a: 1 } }).result, undefined);
  });

  it("Gemini AfterTool → ToolResult with returnDisplay (the output as printed); answered {}", () => {
    const req = geminiWire.read(geminiAfter("ls", "a\nb"));
    assert.equal(req.event, TOOL_RESULT);
    assert.deepEqual(req.result, { command: "ls", output: "a\nb" });
    assert.deepEqual(geminiWire.render(req, { kind: "deny", reason: "R" }), { body: {}, exitCode: 0 });
    assert.equal(geminiWire.read({ ...geminiAfter("x", "y"), tool_name: "read_file" }).result, undefined);
  });
});

describe("sandbox results: reading a sandboxed call's output", () => {
  const policy: SandboxPolicy = { version: 1, folder: "/w", denyRead: [{ path: "/w/.env", rule: ".env", reason: "zero-access path" }], denyWrite: [{ path: "/w/config", rule: "config/" }], allowWrite: [] };

  it("the refusals on the policy's paths; the policy is not even made when the output has no refusal in it", () => {
    let made = 0;
    const p = () => (made++, policy);
    assert.deepEqual(refusedIn("all fine\n", p, "/w"), []);
    assert.equal(made, 0);
    assert.deepEqual(refusedIn("read failed: [Errno 13] Permission denied: '.env'\n", p, "/w"), [{ path: "/w/.env", kind: "read", rule: ".env", reason: "zero-access path" }]);
    assert.equal(made, 1);
  });

  it("a large output: a refusal at its very end is still found (head and tail are read)", () => {
    const out = "x".repeat(2_000_000) + "\ncat: .env: Permission denied\n";
    assert.equal(refusedIn(out, () => policy, "/w")[0]?.path, "/w/.env");
  });

  it("remembered wrappers are bounded (the oldest forgotten first)", () => {
    const calls = new SandboxedCalls();
    for (let i = 0; i <= SANDBOXED_KEPT; i++) calls.remember(`w${i}`, { command: `c${i}`, policy: "p", folder: "/w", cwd: "/w" });
    assert.equal(calls.size, SANDBOXED_KEPT);
    assert.equal(calls.find("w0"), undefined);
    assert.equal(calls.find(`w${SANDBOXED_KEPT}`)?.command, `c${SANDBOXED_KEPT}`);
  });

  it("the reason names each path and its rule", () => {
    assert.equal(kernelReason([{ path: "/w/.env", kind: "read", rule: ".env", reason: "zero-access path" }, { path: "/w/config/a", kind: "write", rule: "config/" }]), "The sandbox's kernel refused reading /w/.env (rule .env: zero-access path); writing /w/config/a (rule config/)");
  });
});

describe("sandbox results: through the guard (the record attached to the call)", function () {
  this.timeout(60_000);
  let tmp: string;
  let ws: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dc-sandbox-results-"));
    ws = path.join(tmp, "ws");
    fs.mkdirSync(path.join(ws, ".pi"), { recursive: true });
    fs.writeFileSync(path.join(ws, ".pi/damage-control-rules.yaml"), "zeroAccessPaths:\n  - .env\n");
    env = { ...process.env, DAMAGE_CONTROL_STATE_DIR: path.join(tmp, "state"), XDG_CONFIG_HOME: path.join(tmp, "config"), HOME: tmp, DAMAGE_CONTROL_USER_RULES: path.join(tmp, "config/rules.yaml"), DAMAGE_CONTROL_MANAGED_RULES: path.join(tmp, "none.yaml") };
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const policy = (): SandboxPolicy => ({ version: 1, folder: ws, denyRead: [{ path: path.join(ws, ".env"), rule: ".env", reason: "zero-access path" }], denyWrite: [{ path: path.join(ws, "config"), rule: "config/" }], allowWrite: [] });
  function guard(ledger = false): Guard {
    return new Guard({ folders: [ws], home: tmp, decider: inProcessDecider, env, ledger, snapshots: false, sandbox: { mode: () => "auto", policy, stateDir: path.join(tmp, "state") } });
  }
  const codexPre = (command: string) => ({ session_id: "s", cwd: ws, hook_event_name: "PreToolUse", permission_mode: "bypassPermissions", tool_name: "Bash", tool_input: { command }, tool_use_id: "call_1" });
  const SECRET_CMD = "GITHUB_TOKEN=ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa python3 cleanup.py";
  const REFUSED = "read failed: [Errno 13] Permission denied: '.env'\ndelete failed: [Errno 30] Read-only file system: 'config/app.yaml'\n";

  (HAVE_BWRAP ? it : it.skip)("Codex: the rewritten call's result → one kernel-refused record (path, read/write, rule), redacted; the post-tool answer is {}", async () => {
    const g = guard(true);
    const seen: DecisionRecord[] = [];
    g.on("decision", (d: DecisionRecord) => seen.push(d));
    try {
      const pre = (await g.handle("codex", codexPre(SECRET_CMD))).body as { hookSpecificOutput: { updatedInput: { command: string } } };
      const wrapper = pre.hookSpecificOutput.updatedInput.command;
      assert.match(wrapper, /sandbox\/run/);
      assert.deepEqual(await g.handle("codex", codexPost(wrapper, REFUSED, ws)), { body: {}, exitCode: 0 });
      await g.drain();
      const k = seen.find((d) => d.decision === "kernel-refused");
      assert.ok(k, JSON.stringify(seen));
      assert.equal(k.event, TOOL_RESULT);
      assert.equal(k.tool, "bash");
      assert.equal(k.agent, "codex");
      assert.equal(k.session, "s");
      assert.deepEqual(k.kernel, [
        { path: path.join(ws, ".env"), kind: "read", rule: ".env", reason: "zero-access path" },
        { path: path.join(ws, "config/app.yaml"), kind: "write", rule: "config/" },
      ]);
      assert.equal(k.rule, ".env");
      assert.match(k.reason!, /kernel refused reading .*\.env \(rule \.env: zero-access path\); writing .*config\/app\.yaml \(rule config\/\)/);
      assert.ok(k.sandbox && "ran" in k.sandbox);
      // The command as the model wrote it, its token replaced (issue 35), in the feed and the ledger.
      assert.doesNotMatch(JSON.stringify(k), /ghp_a/);
      assert.match(k.target, /python3 cleanup\.py$/);
      const lines = fs.readFileSync(path.join(ws, ".damage-control/audit.jsonl"), "utf8").trim().split("\n");
      const line = JSON.parse(lines.find((l) => l.includes("kernel-refused"))!);
      assert.equal(line.kernel[0].path, path.join(ws, ".env"));
      assert.doesNotMatch(lines.join("\n"), /ghp_a/);
      // Not a decision of ours: not counted as one, nor as a refusal of ours.
      assert.equal(g.stats.refusals, 0);
    } finally {
      g.close();
    }
  });

  (HAVE_BWRAP ? it : it.skip)("only a wrapper the guard wrote is believed: the same output under another command, or a forged wrapper, is no record", async () => {
    const g = guard();
    const seen: DecisionRecord[] = [];
    g.on("decision", (d: DecisionRecord) => seen.push(d));
    try {
      const pre = (await g.handle("codex", codexPre("python3 cleanup.py"))).body as { hookSpecificOutput: { updatedInput: { command: string } } };
      const wrapper = pre.hookSpecificOutput.updatedInput.command;
      await g.handle("codex", codexPost("python3 cleanup.py", REFUSED, ws));
      await g.handle("codex", codexPost(wrapper.replace(/ [0-9a-f]{32} /, " 00000000000000000000000000000000 "), REFUSED, ws));
      await g.handle("gemini", geminiAfter(`${wrapper} `, REFUSED, ws));
      await g.drain();
      assert.equal(seen.filter((d) => d.decision === "kernel-refused").length, 0);
      // The wrapper itself, with nothing refused in its output: no record either.
      await g.handle("codex", codexPost(wrapper, "cleaned\n", ws));
      await g.drain();
      assert.equal(seen.filter((d) => d.decision === "kernel-refused").length, 0);
    } finally {
      g.close();
    }
  });
});

describe("sandbox results: the feed", () => {
  const rec = { time: "2026-12-04T00:00:00.000Z", agent: "codex", event: TOOL_RESULT, tool: "bash", target: "python3 cleanup.py", decision: "kernel-refused" as const, rule: ".env", reason: "The sandbox's kernel refused reading /w/.env (rule .env: zero-access path)", sandbox: { ran: "bubblewrap" as const, policy: "ab" }, kernel: [{ path: "/w/.env", kind: "read" as const, rule: ".env", reason: "zero-access path" }], folder: "/w" };

  it("a kernel-refused record → its own outcome, under the refused kind, with each path and rule; not one of our refusals", () => {
    const e = toFeed(rec);
    assert.equal(e.outcome, "kernel-refused");
    assert.equal(outcomeOf(rec), "kernel-refused");
    assert.equal(kindOf(e.outcome), "refused");
    assert.deepEqual(e.kernel, [{ path: "/w/.env", kind: "read", rule: ".env", reason: "zero-access path" }]);
    assert.equal(e.sandboxed, true);
    assert.equal(e.headline, "The sandbox's kernel refused reading /w/.env (rule .env: zero-access path)");
    assert.equal(isRefusal(rec), false, "the status bar counts the guard's refusals");
    assert.deepEqual(hitsOf([rec]), {}, "nor is it the rule's hit");
    assert.deepEqual(statsOf([rec], Date.parse(rec.time)).perRule, []);
  });
});
