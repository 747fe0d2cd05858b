// Issue 34 §6, fewer questions where the kernel answers, with a real runner agent (Gemini CLI
// 0.61.0, against the suite's mock model). The model runs an inline Python script that reads every
// file whose name starts with ".e": its read targets are known only at run time, so the rules
// ask about it (nobody to ask here: refused). With the product's policy (sandboxPolicyFor, from
// the guard's rules: the defaults and the workspace's) and bubblewrap on PATH, the call runs in
// the sandbox without a question, and the kernel refuses reading .env. Control: the same call,
// sandbox auto but no bubblewrap on the guard's PATH: asked (refused) as before, nothing runs.
import * as assert from "node:assert/strict";
import type { DecisionRecord } from "../../src/core/guard";
import { sandboxPolicyFor } from "../../src/core/sandbox/policy-for";
import { geminiTurn } from "./support/agent-turns";
import { SCENARIO_RULES, startGuarded, type Guarded } from "./support/guarded";
import { claudeBin } from "../../scripts/test-tools.js";
import { sandboxFromRules } from "../../src/core/sandbox/from-rules";
import { bash, startAnthropicMock } from "./support/anthropic-mock";
import { runClaude } from "./support/claude";
import { explain, requireTools, useCleanups, useProxyTrap } from "./support/suite";
import { needsSandbox } from "../support/needs-sandbox";

const proxy = useProxyTrap();
const addCleanup = useCleanups();

const SCRIPT = `python3 -c 'import os; [print(open(f).read()) for f in sorted(os.listdir(".")) if f.startswith(".e")]'`;

async function guarded(pathVar: string | undefined): Promise<Guarded> {
  let ref: Guarded | undefined;
  const g = await startGuarded({
    sandbox: (dir, stateDir) => {
      const env = { ...process.env, DAMAGE_CONTROL_STATE_DIR: stateDir };
      return { mode: () => "auto", stateDir, env: { ...env, PATH: pathVar }, policy: () => sandboxPolicyFor(dir, ref!.guard.rulesStates()[0]!.rules, { env }) };
    },
  });
  ref = g;
  addCleanup(() => g.close());
  return g;
}

describe("kernel answers: gemini-0.61.0, an inline script whose reads are known only at run time", function () {
  requireTools("gemini-0.61.0");
  const turn = geminiTurn({ proxy, addCleanup });
  before(function () {
    needsSandbox(this, "bwrap");
  });

  it("sandbox available: runs sandboxed without a question, and still cannot read .env (the kernel refuses); the record says why it ran", async () => {
    const g = await guarded(process.env.PATH);
    const decisions: DecisionRecord[] = [];
    g.guard.on("decision", (d: DecisionRecord) => decisions.push(d));
    const { outputs } = await turn(g, SCRIPT);
    const told = outputs.join("\n");
    assert.doesNotMatch(told, /never-show-this/, "the secret reached the model");
    assert.match(told, /PermissionError: \[Errno 13\] Permission denied: '\.env'/);
    assert.equal(g.guard.stats.asks, 0, "a question was put");
    await g.guard.drain();
    const d = decisions.find((x) => x.target === SCRIPT);
    assert.equal(d?.decision, "allow");
    assert.match(d?.reason ?? "", /because it runs in the kernel sandbox, which refuses what was to be asked: python3 open reads `f`/);
    assert.ok(d?.sandbox && "ran" in d.sandbox && d.sandbox.ran === "bubblewrap" && /only known when the command runs/.test(d.sandbox.instead ?? ""), JSON.stringify(d?.sandbox));
  });

  it("control: sandbox auto but no bubblewrap on the guard's PATH: asked as before (nobody to ask: refused), nothing ran", async () => {
    const g = await guarded("/nonexistent");
    const { outputs } = await turn(g, SCRIPT);
    const told = outputs.join("\n");
    assert.doesNotMatch(told, /never-show-this/);
    assert.doesNotMatch(told, /Permission denied/, "the script ran");
    assert.match(told, /python3 open reads `f`, which is only known when the command runs/);
    assert.equal(g.guard.stats.asks, 1);
  });
});

// The same, for Claude Code 2.1.332 and its own sandbox, wired by `damage-control install claude`
// and the guard as serve runs it (sandboxFromRules). Under `required` (failIfUnavailable: Claude
// Code does not start without its sandbox) the inline script runs without a question, and .env
// does not reach the model: Claude Code's sandbox refuses the read. Control: the same call under
// `auto` (Claude Code may run it unsandboxed) is asked as before — nobody to ask headless: refused.
describe("kernel answers: claude-2.1.332 in its own sandbox, only under `required`", function () {
  requireTools("claude-2.1.332");
  before(function () {
    needsSandbox(this, "agentSandboxes");
  });
  const V = "2.1.332";

  async function guardedClaude(mode: "auto" | "required"): Promise<Guarded> {
    let ref: Guarded | undefined;
    const g = await startGuarded({
      rules: `${SCENARIO_RULES}sandbox:\n  mode: ${mode}\n`,
      // The guard's own environment is the install's (its state folder): as serve runs beside the CLI.
      guardEnv: {},
      sandbox: (_dir, stateDir) => sandboxFromRules((f) => ref!.guard.storeFor(f).current().rules, { ...process.env, DAMAGE_CONTROL_STATE_DIR: stateDir }),
    });
    ref = g;
    addCleanup(() => g.close());
    const r = g.cli(["install", "claude", "--cwd", g.proj.dir], { DAMAGE_CONTROL_CLAUDE_BIN: claudeBin(V) });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(g.proj.read(".claude/settings.local.json")).sandbox.failIfUnavailable, mode === "required");
    return g;
  }

  async function run(g: Guarded) {
    const mock = await startAnthropicMock({ steps: [[bash(SCRIPT)]] });
    addCleanup(() => mock.close());
    const decisions: DecisionRecord[] = [];
    g.guard.on("decision", (d: DecisionRecord) => decisions.push(d));
    const r = await runClaude({
      version: V,
      cwd: g.proj.dir,
      baseUrl: mock.url,
      prompt: "Show the env files.",
      // Pre-allowed: Claude Code asks nobody; what stops the call is the hook or the kernel.
      allowedTools: ["Bash"],
      env: { ...proxy.trap.env, ...g.env },
    });
    assert.equal(r.exitCode, 0, explain(r));
    proxy.assertNoEscapes();
    await g.guard.drain();
    return { told: mock.toolResults().map((t) => t.text).join("\n"), decision: decisions.find((x) => x.target === SCRIPT) };
  }

  it("required: runs without a question, the secret is not in what the model read; the record says Claude Code's sandbox answered", async () => {
    const g = await guardedClaude("required");
    const { told, decision } = await run(g);
    assert.doesNotMatch(told, /never-show-this/, "the secret reached the model");
    assert.match(told, /PermissionError: \[Errno 13\] Permission denied: '\.env'/, `the script ran and the kernel refused the read:\n${told}`);
    assert.equal(g.guard.stats.asks, 0, "a question was put");
    assert.equal(decision?.decision, "allow", JSON.stringify(decision));
    assert.match(decision?.reason ?? "", /because it runs in Claude Code's sandbox \(required here\), which refuses what was to be asked: python3 open reads `f`/);
    assert.ok(decision?.sandbox && "ran" in decision.sandbox && decision.sandbox.ran === "claude-code", JSON.stringify(decision?.sandbox));
  });

  it("control: auto, the same call is asked as before (nobody to ask: refused), nothing ran", async () => {
    const g = await guardedClaude("auto");
    const { told, decision } = await run(g);
    assert.doesNotMatch(told, /never-show-this/);
    assert.doesNotMatch(told, /Permission denied|Errno/, "the script ran");
    assert.match(told, /python3 open reads `f`, which is only known when the command runs/);
    assert.equal(g.guard.stats.asks, 1);
    assert.notEqual(decision?.decision, "allow");
  });
});
