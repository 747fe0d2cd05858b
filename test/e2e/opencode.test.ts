// Damage Control with the real OpenCode (opencode-ai 1.18.33, its native binary, pinned in
// scripts/test-tools.js): `damage-control install opencode` writes the plugin into an isolated
// HOME's ~/.config/opencode/plugins/; `opencode run` runs one turn against a mock OpenAI
// chat-completions API on 127.0.0.1 (the provider declared in the workspace's opencode.json).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { agentHome, describeGuardedAgent, explainRun, runAgent } from "./support/more-agents";
import { startOpenAIMock, toolCall } from "./support/openai-mock";
import type { Guarded } from "./support/guarded";
import { sendJson, startLoopbackServer } from "./support/loopback-server";
import { useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();

/**
 * OpenCode installs @opencode-ai/plugin into every config folder it reads (in the background,
 * waited for before plugins load). Offline, a registry on 127.0.0.1 that answers 404 at once ends
 * that install quickly (a dead port is retried for about a minute); the plugin needs no package.
 */
async function emptyRegistry(): Promise<Record<string, string>> {
  const server = await startLoopbackServer((_req, res) => sendJson(res, 404, { error: "not found" }));
  addCleanup(() => server.close());
  const url = `${server.url}/`;
  return { npm_config_registry: url, NPM_CONFIG_REGISTRY: url, BUN_CONFIG_REGISTRY: url };
}
const addCleanup = useCleanups();

/** The workspace config OpenCode needs to talk to a mock offline (more-agents.md). */
function writeProjectConfig(g: Guarded, baseURL: string): void {
  const config = {
    $schema: "https://opencode.ai/config.json",
    provider: { mock: { npm: "@ai-sdk/openai-compatible", name: "mock", options: { baseURL, apiKey: "x" }, models: { "mock-model": { name: "mock-model" } } } },
    model: "mock/mock-model",
    permission: { bash: "allow", edit: "allow" },
    autoupdate: false,
    share: "disabled",
  };
  fs.writeFileSync(g.proj.path("opencode.json"), JSON.stringify(config, null, 2));
}

async function turn(g: Guarded, command: string, opts: { install?: boolean } = {}) {
  const mock = await startOpenAIMock({ steps: [[toolCall("bash", { command, description: "do it" })]] });
  addCleanup(() => mock.close());
  const home = agentHome("opencode");
  writeProjectConfig(g, mock.baseUrl);
  if (opts.install !== false) {
    const r = g.cli(["install", "opencode"], { HOME: home, XDG_CONFIG_HOME: `${home}/.config` });
    assert.equal(r.status, 0, r.stderr);
  }
  const run = await runAgent({
    tool: "opencode-1.18.33",
    cwd: g.proj.dir,
    home,
    args: ["run", "Do the work."],
    // OpenCode takes its session's folder from $PWD, not from the process's working directory.
    env: { ...proxy.trap.env, ...g.env, PWD: g.proj.dir, OPENCODE_DISABLE_MODELS_FETCH: "true", OPENCODE_DISABLE_AUTOUPDATE: "true", OPENCODE_DISABLE_LSP_DOWNLOAD: "true", ...(await emptyRegistry()) },
    timeoutMs: 90_000,
  });
  assert.equal(run.exitCode, 0, explainRun(run));
  proxy.assertNoEscapes();
  assert.ok(mock.mainRequests().length >= 2, `the model was asked once only: ${explainRun(run)}`);
  return { run, outputs: mock.toolResults().map((r) => r.text), mock };
}

describeGuardedAgent("OpenCode 1.18.33 with `damage-control install opencode`", { tool: "opencode-1.18.33", agent: "opencode", turn, addCleanup });
