// Damage Control with the real Gemini CLI (@google/gemini-cli 0.61.0, pinned in
// scripts/test-tools.js): `damage-control install gemini` writes the BeforeTool hook into the
// project's .gemini/settings.json; `gemini -p` runs one turn against a mock Gemini API on 127.0.0.1.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { agentHome, describeGuardedAgent, explainRun, runAgent } from "./support/more-agents";
import { startGeminiMock } from "./support/gemini-mock";
import type { Guarded } from "./support/guarded";
import { useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();

/** The user settings Gemini CLI needs to talk to a mock offline (more-agents.md). */
function writeUserSettings(home: string): void {
  fs.mkdirSync(path.join(home, ".gemini"), { recursive: true });
  const settings = {
    security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  };
  fs.writeFileSync(path.join(home, ".gemini/settings.json"), JSON.stringify(settings, null, 2));
}

async function turn(g: Guarded, command: string, opts: { install?: boolean } = {}) {
  const mock = await startGeminiMock({ steps: [{ name: "run_shell_command", args: { command, description: "do it" } }] });
  addCleanup(() => mock.close());
  const home = agentHome("gemini");
  writeUserSettings(home);
  if (opts.install !== false) {
    const r = g.cli(["install", "gemini", "--cwd", g.proj.dir], { HOME: home });
    assert.equal(r.status, 0, r.stderr);
  }
  const run = await runAgent({
    tool: "gemini-0.61.0",
    cwd: g.proj.dir,
    home,
    args: ["-p", "Do the work.", "--yolo", "-o", "text", "-m", "gemini-2.5-flash"],
    env: { ...proxy.trap.env, ...g.env, GEMINI_API_KEY: "dummy", GOOGLE_GEMINI_BASE_URL: mock.url, GEMINI_CLI_NO_RELAUNCH: "true" },
  });
  assert.equal(run.exitCode, 0, explainRun(run));
  proxy.assertNoEscapes();
  assert.ok(mock.mainRequests().length >= 2, `the model was asked once only: ${explainRun(run)}`);
  return { run, outputs: mock.toolResponses(), mock };
}

describeGuardedAgent("Gemini CLI 0.61.0 with `damage-control install gemini`", { tool: "gemini-0.61.0", agent: "gemini", turn, addCleanup });
