// Damage Control with the real Codex CLI (@openai/codex 0.171.0, pinned in scripts/test-tools.js):
// `damage-control install codex` writes the hook + its trust entry into an isolated HOME's
// ~/.codex/config.toml, `codex exec` runs one turn against a mock Responses API on 127.0.0.1.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { agentHome, describeGuardedAgent, explainRun, runAgent } from "./support/more-agents";
import { startResponsesMock } from "./support/responses-mock";
import type { Guarded } from "./support/guarded";
import { useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();

function writeCodexConfig(home: string, baseUrl: string): void {
  fs.mkdirSync(path.join(home, ".codex"), { recursive: true });
  fs.writeFileSync(
    path.join(home, ".codex/config.toml"),
    [
      'model = "mock"',
      'model_provider = "mock"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      "",
      "[model_providers.mock]",
      'name = "mock"',
      `base_url = "${baseUrl}"`,
      'wire_api = "responses"',
      'env_key = "DC_MOCK_KEY"',
      "",
      // Offline: no update check, no plugin/app catalogs, no analytics (each reaches github.com or chatgpt.com).
      "check_for_update_on_startup = false",
      "[features]",
      ...["apps", "plugins", "remote_plugin", "plugin_sharing", "api_key_model_discovery", "in_app_updates", "daemon_auto_start", "tool_suggest", "skill_mcp_dependency_install"].map((f) => `${f} = false`),
      "[analytics]",
      "enabled = false",
      "",
    ].join("\n"),
  );
}

async function turn(g: Guarded, command: string, opts: { install?: boolean } = {}) {
  const mock = await startResponsesMock({ steps: [{ command }] });
  addCleanup(() => mock.close());
  const home = agentHome("codex");
  writeCodexConfig(home, mock.baseUrl);
  if (opts.install !== false) {
    const r = g.cli(["install", "codex", "--cwd", g.proj.dir], { HOME: home });
    assert.equal(r.status, 0, r.stderr);
  }
  const run = await runAgent({
    tool: "codex-0.171.0",
    cwd: g.proj.dir,
    home,
    args: ["exec", "--skip-git-repo-check", "Do the work."],
    env: { ...proxy.trap.env, ...g.env, DC_MOCK_KEY: "x" },
  });
  assert.equal(run.exitCode, 0, explainRun(run));
  proxy.assertNoEscapes();
  assert.ok(mock.mainRequests().length >= 2, `the model was asked once only: ${explainRun(run)}`);
  return { run, outputs: mock.toolOutputs(), mock };
}

describeGuardedAgent("Codex CLI 0.171.0 with `damage-control install codex`", { tool: "codex-0.171.0", agent: "codex", turn, addCleanup });
