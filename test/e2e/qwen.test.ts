// Damage Control with the real Qwen Code (@qwen-code/qwen-code 0.24.4 on Node 22, pinned in
// scripts/test-tools.js): `damage-control install qwen` writes the launcher as a PreToolUse hook
// into an isolated HOME's ~/.qwen/settings.json; `qwen -p … --yolo` runs one turn against a mock
// OpenAI chat-completions API on 127.0.0.1.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { agentHome, describeGuardedAgent, explainRun, runAgent } from "./support/more-agents";
import { startOpenAIMock, toolCall } from "./support/openai-mock";
import type { Guarded } from "./support/guarded";
import { useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();

/** The user settings Qwen Code needs to talk to a mock offline (more-agents.md), and one of the user's own. */
function writeUserSettings(home: string): void {
  fs.mkdirSync(path.join(home, ".qwen"), { recursive: true });
  const settings = { security: { auth: { selectedType: "openai" } }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { disableAutoUpdate: true } };
  fs.writeFileSync(path.join(home, ".qwen/settings.json"), JSON.stringify(settings, null, 2));
}

async function turn(g: Guarded, command: string, opts: { install?: boolean } = {}) {
  const mock = await startOpenAIMock({ steps: [[toolCall("run_shell_command", { command, description: "do it" })]] });
  addCleanup(() => mock.close());
  const home = agentHome("qwen");
  writeUserSettings(home);
  if (opts.install !== false) {
    const r = g.cli(["install", "qwen", "--cwd", g.proj.dir], { HOME: home });
    assert.equal(r.status, 0, r.stderr);
    // The user's own settings are kept.
    const s = JSON.parse(fs.readFileSync(path.join(home, ".qwen/settings.json"), "utf8"));
    assert.equal(s.security.auth.selectedType, "openai");
  }
  const run = await runAgent({
    tool: "qwen-0.24.4",
    cwd: g.proj.dir,
    home,
    args: ["-p", "Do the work.", "--yolo"],
    env: { ...proxy.trap.env, ...g.env, OPENAI_API_KEY: "x", OPENAI_BASE_URL: mock.baseUrl, OPENAI_MODEL: "mock-model", QWEN_CODE_SUPPRESS_YOLO_WARNING: "1" },
    timeoutMs: 90_000,
  });
  assert.equal(run.exitCode, 0, explainRun(run));
  proxy.assertNoEscapes();
  assert.ok(mock.mainRequests().length >= 2, `the model was asked once only: ${explainRun(run)}`);
  return { run, outputs: mock.toolResults().map((r) => r.text), mock };
}

describeGuardedAgent("Qwen Code 0.24.4 with `damage-control install qwen`", { tool: "qwen-0.24.4", agent: "qwen", turn, addCleanup });
