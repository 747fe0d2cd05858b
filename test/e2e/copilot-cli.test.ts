// Damage Control with the real GitHub Copilot CLI (@github/copilot 1.0.102, pinned in
// scripts/test-tools.js): a lower-case `preToolUse` entry in the project's .github/hooks/ runs
// `damage-control hook copilot-cli`; `copilot -p` runs one turn against a mock OpenAI chat-completions
// API on 127.0.0.1 (no sign-in: COPILOT_OFFLINE + a custom provider).
// The entry is what users get: `damage-control install copilot --repo` writes it (issue 27: the
// hook that runs under the real CLI is the installed one, not one the test writes itself).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { agentHome, describeGuardedAgent, explainRun, runAgent } from "./support/more-agents";
import { startOpenAIMock, toolCall } from "./support/openai-mock";
import type { Guarded } from "./support/guarded";
import { useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();

function install(g: Guarded): void {
  const r = g.cli(["install", "copilot", "--repo", "--cwd", g.proj.dir]);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(fs.existsSync(path.join(g.proj.dir, ".github/hooks/damage-control.json")), "install copilot --repo wrote no hook file");
}

async function turn(g: Guarded, command: string, opts: { install?: boolean } = {}) {
  const mock = await startOpenAIMock({ steps: [[toolCall("bash", { command, description: "do it" })]] });
  addCleanup(() => mock.close());
  const home = agentHome("copilot");
  if (opts.install !== false) install(g);
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

describeGuardedAgent("Copilot CLI 1.0.102 with the preToolUse entry `damage-control install copilot --repo` writes", { tool: "copilot-1.0.102", agent: "copilot-cli", turn, addCleanup });
