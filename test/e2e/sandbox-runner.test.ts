// Issue 34, item 3: agents without a sandbox of their own get each allowed shell call rewritten
// (through their pre-tool hook's input rewrite) to run under our runner, which execs into
// bubblewrap with the policy the guard prepared. The scenario a hook cannot see into: the model
// runs `python3 cleanup.py`, a script that prints .env (a zero-access path) and deletes config/
// (a read-only path). The call's text is harmless, so the rules let it run:
//   - with the sandbox (auto): the kernel refuses both; the secret never reaches the model, config/ survives;
//   - control, the same hook with the sandbox off: the secret is read, config/ is gone;
//   - required, bubblewrap not on the guard's PATH: the call is refused with the reason and the fix.
// The policy is built here directly (the rules → policy function is part A's, wired by the integrator).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { SandboxMode } from "../../src/engine/sandbox/policy-types";
import type { DecisionRecord } from "../../src/core/guard";
import { CLEANUP_PY, scenarioPolicy } from "./support/sandbox-scenario";
import { assertKernelRecord, ledgerLines } from "./support/kernel-feed";
import { codexTurn, copilotTurn, geminiTurn, opencodeTurn, qwenTurn, type Turn } from "./support/agent-turns";
import { startGuarded, type Guarded } from "./support/guarded";
import { requireTools, useCleanups, useProxyTrap } from "./support/suite";
import type { ToolId } from "../../scripts/test-tools.js";
import { piBash, startOpenAIMock } from "./support/openai-mock";
import { runPi } from "./support/pi";
import { PI_EXTENSION } from "./support/guarded";
import { explain } from "./support/suite";
import { needsSandbox } from "../support/needs-sandbox";

const proxy = useProxyTrap();
const addCleanup = useCleanups();

async function guarded(mode: SandboxMode, env?: NodeJS.ProcessEnv): Promise<Guarded> {
  const g = await startGuarded({ files: { "cleanup.py": CLEANUP_PY }, sandbox: (dir, stateDir) => ({ mode: () => mode, policy: () => scenarioPolicy(dir, stateDir), stateDir, ...(env && { env }) }) });
  addCleanup(() => g.close());
  return g;
}

/** pi 1.6.0 with the bundled extension (it sets the call's input to the command the endpoint gives). */
const piTurn: Turn = async (g, command) => {
  const mock = await startOpenAIMock({ steps: [[piBash(command)]] });
  addCleanup(() => mock.close());
  const run = await runPi({ version: "1.6.0", cwd: g.proj.dir, baseUrl: mock.baseUrl, prompt: "Do the work.", extensions: [PI_EXTENSION], env: { ...proxy.trap.env, ...g.env }, mode: "print" });
  assert.equal(run.exitCode, 0, explain(run));
  proxy.assertNoEscapes();
  return { run: run as never, outputs: mock.toolResults().map((t) => t.text), requests: mock.mainRequests().map((r) => r.body) };
};

const AGENTS: { tool: ToolId; agent: string; turn: Turn }[] = [
  { tool: "pi-1.6.0", agent: "pi", turn: piTurn },
  { tool: "codex-0.171.0", agent: "codex", turn: codexTurn({ proxy, addCleanup }) },
  { tool: "gemini-0.61.0", agent: "gemini", turn: geminiTurn({ proxy, addCleanup }) },
  { tool: "opencode-1.18.33", agent: "opencode", turn: opencodeTurn({ proxy, addCleanup }) },
];

for (const a of AGENTS) {
  describe(`sandbox runner: ${a.tool} runs an allowed shell call inside bubblewrap`, function () {
    requireTools(a.tool);
    before(function () {
      needsSandbox(this, "bwrap");
    });

    it("`python3 cleanup.py` (harmless text): the secret is not read, config/ survives, the feed marks it sandboxed", async () => {
      const g = await guarded("auto");
      const decisions: DecisionRecord[] = [];
      g.guard.on("decision", (d: DecisionRecord) => decisions.push(d));
      const { outputs, requests } = await a.turn(g, "python3 cleanup.py");
      const told = outputs.join("\n");
      assert.ok(g.proj.exists("config/app.yaml"), `config/ was deleted; the model was told: ${told}`);
      assert.doesNotMatch(told, /never-show-this/, "the secret reached the model");
      assert.match(told, /read failed: .*Permission denied/);
      assert.match(told, /delete failed: .*Read-only file system/);
      // The hook's answer carried the rewrite, and only the runner with a policy id of ours.
      const answer = JSON.stringify(g.answers.find((x) => x.route === `/hook/${a.agent}`)?.body);
      assert.match(answer, new RegExp(`${g.stateDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/sandbox/run'? [0-9a-f]{32} `));
      await g.guard.drain();
      const d = decisions.find((x) => x.target === "python3 cleanup.py");
      assert.deepEqual(d?.sandbox && "ran" in d.sandbox ? d.sandbox.ran : d?.sandbox, "bubblewrap");
      // Measured, not asserted: does the model's transcript show its own command or our wrapper?
      const transcript = JSON.stringify(requests[requests.length - 1]);
      console.log(`      [measure] ${a.tool}: the model's next request shows ${transcript.includes("/sandbox/run") ? "OUR WRAPPER" : "only its own command"}`);
    });

    it("control: the same hook with the sandbox off: the secret is read and config/ is deleted (the hook alone cannot see it)", async () => {
      const g = await guarded("off");
      const { outputs } = await a.turn(g, "python3 cleanup.py");
      assert.match(outputs.join("\n"), /never-show-this/);
      assert.equal(g.proj.exists("config/app.yaml"), false, "config/ survived without the sandbox: the scenario proves nothing");
    });

    it("fail-closed: sandbox required, bubblewrap not on PATH → the call is refused with the reason and the fix", async () => {
      const g = await guarded("required", { PATH: "/nonexistent" });
      const { outputs } = await a.turn(g, "python3 cleanup.py");
      const told = outputs.join("\n");
      assert.ok(g.proj.exists("config/app.yaml"), "config/ was deleted");
      assert.doesNotMatch(told, /never-show-this/);
      assert.match(told, /cannot run in the sandbox, which is required here \(bubblewrap \(bwrap\) is not installed or not on PATH\)\. Fix: install it/);
    });
  });
}

// Agents our runner cannot rewrite (docs/sandbox-runner.md), measured with each real CLI:
//   - Qwen Code 0.24.4 documents PreToolUse `updatedInput` but ignores it (with and without "allow");
//   - Copilot CLI 1.0.102 takes `modifiedArgs` only with "allow", and its payload does not say
//     whether it would have asked its user, so no rewrite is given.
// Their shell calls cannot be put in our sandbox: under `auto` they run as before; under `required`
// they are refused.
const NOT_REWRITTEN: { tool: ToolId; agent: string; turn: Turn }[] = [
  { tool: "qwen-0.24.4", agent: "qwen", turn: qwenTurn({ proxy, addCleanup }) },
  { tool: "copilot-1.0.102", agent: "copilot-cli", turn: copilotTurn({ proxy, addCleanup }) },
];

for (const a of NOT_REWRITTEN) {
  describe(`sandbox runner: ${a.tool} cannot be rewritten, so \`required\` refuses its shell calls`, function () {
    requireTools(a.tool);

    it("required: refused with the reason (bubblewrap present, the agent cannot take a rewrite)", async () => {
      const g = await guarded("required");
      const { outputs } = await a.turn(g, "python3 cleanup.py");
      const told = outputs.join("\n");
      assert.ok(g.proj.exists("config/app.yaml"), "config/ was deleted");
      assert.doesNotMatch(told, /never-show-this/);
      assert.match(told, new RegExp(`cannot run in the sandbox, which is required here \\(the ${a.agent} agent cannot have a shell call rewritten`));
    });

    it("control: auto runs it as today (the secret is read, config/ deleted)", async () => {
      const g = await guarded("auto");
      const { outputs } = await a.turn(g, "python3 cleanup.py");
      assert.match(outputs.join("\n"), /never-show-this/);
      assert.equal(g.proj.exists("config/app.yaml"), false);
    });
  });
}

// The policy follows the rules: a zero-access path added after install is unreadable in the next
// sandboxed call. The rules → policy step is part A's; here a stand-in takes the literal
// zero-access paths of the rules in force at each call (as part A's function is asked per call).
describe("sandbox runner: the policy follows the rules (codex-0.171.0)", function () {
  requireTools("codex-0.171.0");
  const turn = codexTurn({ proxy, addCleanup });

  it("a zero-access path added to the rules after install: readable before, unreadable in the next sandboxed call", async () => {
    let guardRef: Guarded | undefined;
    const g = await startGuarded({
      files: { "show.py": 'print("NOTES:", open("notes/private.txt").read())\n', "notes/private.txt": "diary-entry-42\n" },
      sandbox: (dir, stateDir) => ({
        mode: () => "auto",
        stateDir,
        policy: () => ({
          ...scenarioPolicy(dir, stateDir),
          denyRead: guardRef!.guard.rulesStates()[0]!.rules.zeroAccessPaths.filter((p) => !/[*?[]/.test(p.path) && !p.path.startsWith("~")).map((p) => ({ path: path.resolve(dir, p.path), rule: p.id ?? p.path })),
        }),
      }),
    });
    guardRef = g;
    addCleanup(() => g.close());
    const before = await turn(g, "python3 show.py");
    assert.match(before.outputs.join("\n"), /diary-entry-42/, "readable while no rule names it");
    const rulesFile = g.proj.path(".pi/damage-control-rules.yaml");
    fs.writeFileSync(rulesFile, fs.readFileSync(rulesFile, "utf8").replace("zeroAccessPaths:\n  - .env\n", "zeroAccessPaths:\n  - .env\n  - notes/private.txt\n"));
    g.guard.storeFor(g.proj.dir).reload();
    const after = await turn(g, "python3 show.py");
    assert.doesNotMatch(after.outputs.join("\n"), /diary-entry-42/);
    assert.match(after.outputs.join("\n"), /Permission denied: 'notes\/private\.txt'/);
  });
});

// Issue 34, item 5: what the kernel refused inside the sandbox reaches the feed. The agents' own
// post-tool events (installed by `damage-control install`: Codex PostToolUse, Gemini AfterTool;
// pi's tool_result in our extension, OpenCode's tool.execute.after in our plugin) carry the command as it ran (our wrapper) and its output; the
// guard reads the refusals on the policy's paths from it and records them as their own entry,
// attached to the call. The answer to the post-tool event is each agent's "no opinion".
const NO_OPINION: Record<string, unknown> = { codex: {}, gemini: {}, pi: { block: false }, opencode: {} };
const POST_TOOL: { tool: ToolId; agent: string; turn: Turn }[] = AGENTS.filter((a) => a.agent in NO_OPINION);
for (const a of POST_TOOL) {
  describe(`sandbox runner: ${a.tool}'s post-tool event puts the kernel's refusals in the feed`, function () {
    requireTools(a.tool);
    before(function () {
      needsSandbox(this, "bwrap");
    });

    it("the script reads .env under the sandbox: the feed and the ledger name .env and the rule; the post-tool event gets no opinion", async () => {
      const g = await guarded("auto");
      const decisions: DecisionRecord[] = [];
      g.guard.on("decision", (d: DecisionRecord) => decisions.push(d));
      const { outputs } = await a.turn(g, "python3 cleanup.py");
      assert.doesNotMatch(outputs.join("\n"), /never-show-this/, "the secret reached the model");
      await g.guard.drain();
      assertKernelRecord(g, decisions, a.agent);
      // The post-tool event was put to the endpoint and answered with no opinion.
      const answers = g.answers.filter((x) => x.route === `/hook/${a.agent}`);
      assert.equal(answers.length, 2, `a pre-tool and a post-tool answer: ${JSON.stringify(answers.map((x) => x.body))}`);
      assert.deepEqual(answers[1]!.body, NO_OPINION[a.agent]);
    });

    it("control: the same run with the sandbox off: the secret is read, and no kernel entry", async () => {
      const g = await guarded("off");
      const decisions: DecisionRecord[] = [];
      g.guard.on("decision", (d: DecisionRecord) => decisions.push(d));
      const { outputs } = await a.turn(g, "python3 cleanup.py");
      assert.match(outputs.join("\n"), /never-show-this/);
      await g.guard.drain();
      assert.equal(decisions.filter((d) => d.decision === "kernel-refused").length, 0);
      assert.equal(ledgerLines(g).filter((l) => l.decision === "kernel-refused").length, 0);
      // Codex's and Gemini's post-tool hooks reach the endpoint all the same; our pi extension and
      // OpenCode plugin send a result only for a call they rewrote (remembered by call id).
      assert.equal(g.answers.filter((x) => x.route === `/hook/${a.agent}`).length, a.agent === "opencode" || a.agent === "pi" ? 1 : 2);
    });
  });
}
