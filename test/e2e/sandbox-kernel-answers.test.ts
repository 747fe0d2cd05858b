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
import { startGuarded, type Guarded } from "./support/guarded";
import { requireTools, useCleanups, useProxyTrap } from "./support/suite";
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
