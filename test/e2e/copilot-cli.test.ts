// Damage Control with the real GitHub Copilot CLI (@github/copilot 1.0.102, pinned in
// scripts/test-tools.js): a lower-case `preToolUse` entry in the project's .github/hooks/ runs
// `damage-control hook copilot-cli`; `copilot -p` runs one turn against a mock OpenAI chat-completions
// API on 127.0.0.1 (no sign-in: COPILOT_OFFLINE + a custom provider).
// (`install copilot`, which writes this entry and the VS Code-format one, is h3's; the test writes
// the entry the way it does.)
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { agentHome, explainRun, runAgent } from "./support/more-agents";
import { startOpenAIMock, toolCall } from "./support/openai-mock";
import { CLI, startGuarded, type Guarded } from "./support/guarded";
import { requireTools, useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();

function writeHook(dir: string): void {
  const entry = { type: "command", bash: `${process.execPath} ${CLI} hook copilot-cli`, timeoutSec: 60 };
  fs.mkdirSync(path.join(dir, ".github/hooks"), { recursive: true });
  fs.writeFileSync(path.join(dir, ".github/hooks/damage-control.json"), JSON.stringify({ version: 1, hooks: { preToolUse: [entry] } }, null, 2));
}

async function turn(g: Guarded, command: string, opts: { install?: boolean } = {}) {
  const mock = await startOpenAIMock({ steps: [[toolCall("bash", { command, description: "do it" })]] });
  addCleanup(() => mock.close());
  const home = agentHome("copilot");
  if (opts.install !== false) writeHook(g.proj.dir);
  const run = await runAgent({
    tool: "copilot-1.0.102",
    cwd: g.proj.dir,
    home,
    args: ["-p", "Do the work.", "--allow-all-tools"],
    env: {
      ...proxy.trap.env,
      ...g.env,
      COPILOT_OFFLINE: "true",
      COPILOT_ALLOW_ALL: "true",
      COPILOT_PROVIDER_BASE_URL: mock.baseUrl,
      COPILOT_PROVIDER_TYPE: "openai",
      COPILOT_PROVIDER_API_KEY: "x",
      COPILOT_MODEL: "gpt-4o",
      COPILOT_PROVIDER_WIRE_MODEL: "mock",
    },
  });
  assert.equal(run.exitCode, 0, explainRun(run));
  proxy.assertNoEscapes();
  assert.ok(mock.mainRequests().length >= 2, `the model was asked once only: ${explainRun(run)}`);
  return { run, outputs: mock.toolResults().map((t) => t.text), mock };
}

describe("Copilot CLI 1.0.102 with a preToolUse entry running `damage-control hook copilot-cli`", function () {
  requireTools("copilot-1.0.102");
  let g: Guarded;
  beforeEach(async () => {
    g = await startGuarded();
    addCleanup(() => g.close());
  });

  it("refuses `rm -r data`: data/ survives and the model's next request carries our reason", async () => {
    const { outputs } = await turn(g, "rm -r data");
    assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
    assert.equal(outputs.length, 1);
    assert.match(outputs[0]!, /Blocked by Damage Control: recursive or forced rm/);
    assert.ok(g.answers.some((a) => a.route === "/hook/copilot-cli"), "the endpoint decided");
    await g.guard.drain();
    const lines = fs.readFileSync(path.join(g.proj.dir, ".damage-control/audit.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const line = lines.find((l) => l.target === "rm -r data");
    assert.equal(line?.agent, "copilot-cli");
    assert.equal(line?.decision, "block");
  });

  it("a harmless `ls data` runs", async () => {
    const { outputs } = await turn(g, "ls data");
    assert.match(outputs[0]!, /keep\.txt/);
    assert.doesNotMatch(outputs[0]!, /Blocked by Damage Control/);
  });

  it("with the endpoint stopped the call is still refused (local decision)", async () => {
    await g.stopEndpoint();
    const { outputs } = await turn(g, "rm -r data");
    assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
    assert.match(outputs[0]!, /Blocked by Damage Control: recursive or forced rm/);
  });

  it("control: without our hook the same turn deletes data/ (the test can fail)", async () => {
    await turn(g, "rm -r data", { install: false });
    assert.equal(g.proj.exists("data/keep.txt"), false, "data/ survived without the hook: the scenario proves nothing");
  });
});
