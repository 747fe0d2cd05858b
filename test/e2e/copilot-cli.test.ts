// Damage Control with the real GitHub Copilot CLI (@github/copilot 1.0.102, pinned in
// scripts/test-tools.js): a lower-case `preToolUse` entry in the project's .github/hooks/ runs
// `damage-control hook copilot-cli`; `copilot -p` runs one turn against a mock OpenAI chat-completions
// API on 127.0.0.1 (no sign-in: COPILOT_OFFLINE + a custom provider).
// (`install copilot`, which writes this entry and the VS Code-format one, is h3's; the test writes
// the entry the way it does.)
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { agentHome, describeGuardedAgent, explainRun, runAgent } from "./support/more-agents";
import { startOpenAIMock, toolCall } from "./support/openai-mock";
import { CLI, type Guarded } from "./support/guarded";
import { useCleanups, useProxyTrap } from "./support/suite";

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

describeGuardedAgent("Copilot CLI 1.0.102 with a preToolUse entry running `damage-control hook copilot-cli`", { tool: "copilot-1.0.102", agent: "copilot-cli", turn, addCleanup });
