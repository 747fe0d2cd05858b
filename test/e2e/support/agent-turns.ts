// One turn of each command-hook agent CLI in a guarded project, shared by its own suite and the
// sandbox suite: the isolated HOME with what the agent needs offline, `damage-control install
// <agent>` (unless install: false), one run against its mock model on 127.0.0.1, and what the
// model was told for each tool call. How each is driven offline: /work/shared/notes/more-agents.md.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { agentHome, explainRun, runAgent, type AgentRun } from "./more-agents";
import { startGeminiMock } from "./gemini-mock";
import { startOpenAIMock, toolCall } from "./openai-mock";
import { startResponsesMock } from "./responses-mock";
import type { Guarded } from "./guarded";
import type { ProxyTrap } from "./proxy-trap";
import { sendJson, startLoopbackServer } from "./loopback-server";

export interface TurnOptions {
  install?: boolean;
  /** Reuse this HOME (its settings are written again). */
  home?: string;
  /** Runs after install, before the agent: a test changes what a broken install would look like. */
  before?: (home: string) => void | Promise<void>;
}

export interface TurnResult {
  run: AgentRun;
  outputs: (string | undefined)[];
  /** Every request body the mock model received (what the model's transcript holds). */
  requests: unknown[];
}

export interface TurnContext {
  proxy: { readonly trap: ProxyTrap; assertNoEscapes(): void };
  addCleanup: (f: () => unknown) => void;
}

export type Turn = (g: Guarded, command: string, opts?: TurnOptions) => Promise<TurnResult>;

function install(g: Guarded, agent: string, home: string, opts: TurnOptions): void {
  if (opts.install === false) return;
  const r = g.cli(["install", agent, "--cwd", g.proj.dir], { HOME: home });
  assert.equal(r.status, 0, r.stderr);
}

function finish(c: TurnContext, run: AgentRun, mainRequests: number): void {
  assert.equal(run.exitCode, 0, explainRun(run));
  c.proxy.assertNoEscapes();
  assert.ok(mainRequests >= 2, `the model was asked once only: ${explainRun(run)}`);
}

export function writeCodexConfig(home: string, baseUrl: string): void {
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

/** Codex CLI 0.171.0: `codex exec` against a mock Responses API. */
export function codexTurn(c: TurnContext): Turn {
  return async (g, command, opts = {}) => {
    const mock = await startResponsesMock({ steps: [{ command }] });
    c.addCleanup(() => mock.close());
    const home = opts.home ?? agentHome("codex");
    writeCodexConfig(home, mock.baseUrl);
    install(g, "codex", home, opts);
    await opts.before?.(home);
    const run = await runAgent({ tool: "codex-0.171.0", cwd: g.proj.dir, home, args: ["exec", "--skip-git-repo-check", "Do the work."], env: { ...c.proxy.trap.env, ...g.env, DC_MOCK_KEY: "x" } });
    finish(c, run, mock.mainRequests().length);
    return { run, outputs: mock.toolOutputs(), requests: mock.mainRequests().map((r) => r.body) };
  };
}

/** The user settings Gemini CLI needs to talk to a mock offline (more-agents.md). */
function writeGeminiSettings(home: string): void {
  fs.mkdirSync(path.join(home, ".gemini"), { recursive: true });
  const settings = {
    security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  };
  fs.writeFileSync(path.join(home, ".gemini/settings.json"), JSON.stringify(settings, null, 2));
}

/** Gemini CLI 0.61.0: `gemini -p` against a mock Gemini API. */
export function geminiTurn(c: TurnContext): Turn {
  return async (g, command, opts = {}) => {
    const mock = await startGeminiMock({ steps: [{ name: "run_shell_command", args: { command, description: "do it" } }] });
    c.addCleanup(() => mock.close());
    const home = opts.home ?? agentHome("gemini");
    writeGeminiSettings(home);
    install(g, "gemini", home, opts);
    await opts.before?.(home);
    const run = await runAgent({
      tool: "gemini-0.61.0",
      cwd: g.proj.dir,
      home,
      args: ["-p", "Do the work.", "--yolo", "-o", "text", "-m", "gemini-2.5-flash"],
      env: { ...c.proxy.trap.env, ...g.env, GEMINI_API_KEY: "dummy", GOOGLE_GEMINI_BASE_URL: mock.url, GEMINI_CLI_NO_RELAUNCH: "true" },
    });
    finish(c, run, mock.mainRequests().length);
    return { run, outputs: mock.toolResponses(), requests: mock.mainRequests().map((r) => r.body) };
  };
}

/** The user settings Qwen Code needs to talk to a mock offline (more-agents.md), and one of the user's own. */
function writeQwenSettings(home: string): void {
  fs.mkdirSync(path.join(home, ".qwen"), { recursive: true });
  const settings = { security: { auth: { selectedType: "openai" } }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { disableAutoUpdate: true } };
  fs.writeFileSync(path.join(home, ".qwen/settings.json"), JSON.stringify(settings, null, 2));
}

/** Qwen Code 0.24.4: `qwen -p … --yolo` against a mock chat-completions API. */
export function qwenTurn(c: TurnContext): Turn {
  return async (g, command, opts = {}) => {
    const mock = await startOpenAIMock({ steps: [[toolCall("run_shell_command", { command, description: "do it" })]] });
    c.addCleanup(() => mock.close());
    const home = opts.home ?? agentHome("qwen");
    writeQwenSettings(home);
    install(g, "qwen", home, opts);
    if (opts.install !== false) {
      // The user's own settings are kept.
      const s = JSON.parse(fs.readFileSync(path.join(home, ".qwen/settings.json"), "utf8"));
      assert.equal(s.security.auth.selectedType, "openai");
    }
    await opts.before?.(home);
    const run = await runAgent({
      tool: "qwen-0.24.4",
      cwd: g.proj.dir,
      home,
      args: ["-p", "Do the work.", "--yolo"],
      env: { ...c.proxy.trap.env, ...g.env, OPENAI_API_KEY: "x", OPENAI_BASE_URL: mock.baseUrl, OPENAI_MODEL: "mock-model", QWEN_CODE_SUPPRESS_YOLO_WARNING: "1" },
      timeoutMs: 90_000,
    });
    finish(c, run, mock.mainRequests().length);
    return { run, outputs: mock.toolResults().map((r) => r.text), requests: mock.mainRequests().map((r) => r.body) };
  };
}

/**
 * OpenCode installs @opencode-ai/plugin into every config folder it reads (in the background,
 * waited for before plugins load). Offline, a registry on 127.0.0.1 that answers 404 at once ends
 * that install quickly (a dead port is retried for about a minute); the plugin needs no package.
 */
async function emptyRegistry(c: TurnContext): Promise<Record<string, string>> {
  const server = await startLoopbackServer((_req, res) => sendJson(res, 404, { error: "not found" }));
  c.addCleanup(() => server.close());
  const url = `${server.url}/`;
  return { npm_config_registry: url, NPM_CONFIG_REGISTRY: url, BUN_CONFIG_REGISTRY: url };
}

/** The workspace config OpenCode needs to talk to a mock offline (more-agents.md). */
function writeOpenCodeConfig(g: Guarded, baseURL: string): void {
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

/** OpenCode 1.18.33: `opencode run` against a mock chat-completions API (the provider in the workspace's opencode.json). */
export function opencodeTurn(c: TurnContext): Turn {
  return async (g, command, opts = {}) => {
    const mock = await startOpenAIMock({ steps: [[toolCall("bash", { command, description: "do it" })]] });
    c.addCleanup(() => mock.close());
    const home = opts.home ?? agentHome("opencode");
    writeOpenCodeConfig(g, mock.baseUrl);
    if (opts.install !== false) {
      const r = g.cli(["install", "opencode"], { HOME: home, XDG_CONFIG_HOME: `${home}/.config` });
      assert.equal(r.status, 0, r.stderr);
    }
    await opts.before?.(home);
    const run = await runAgent({
      tool: "opencode-1.18.33",
      cwd: g.proj.dir,
      home,
      args: ["run", "Do the work."],
      // OpenCode takes its session's folder from $PWD, not from the process's working directory.
      env: { ...c.proxy.trap.env, ...g.env, PWD: g.proj.dir, OPENCODE_DISABLE_MODELS_FETCH: "true", OPENCODE_DISABLE_AUTOUPDATE: "true", OPENCODE_DISABLE_LSP_DOWNLOAD: "true", ...(await emptyRegistry(c)) },
      timeoutMs: 90_000,
    });
    finish(c, run, mock.mainRequests().length);
    return { run, outputs: mock.toolResults().map((r) => r.text), requests: mock.mainRequests().map((r) => r.body) };
  };
}

/**
 * Copilot CLI 1.0.102: `copilot -p … --allow-all-tools` against a mock chat-completions API, with
 * the lower-case preToolUse entry `damage-control install copilot --repo` writes (issue 27: the
 * installed hook, not one the test writes). No sign-in: COPILOT_OFFLINE + a custom provider.
 */
export function copilotTurn(c: TurnContext): Turn {
  return async (g, command, opts = {}) => {
    const mock = await startOpenAIMock({ steps: [[toolCall("bash", { command, description: "do it" })]] });
    c.addCleanup(() => mock.close());
    const home = opts.home ?? agentHome("copilot");
    if (opts.install !== false) {
      const r = g.cli(["install", "copilot", "--repo", "--cwd", g.proj.dir]);
      assert.equal(r.status, 0, r.stderr);
      assert.ok(fs.existsSync(path.join(g.proj.dir, ".github/hooks/damage-control.json")), "install copilot --repo wrote no hook file");
    }
    await opts.before?.(home);
    const run = await runAgent({
      tool: "copilot-1.0.102",
      cwd: g.proj.dir,
      home,
      args: ["-p", "Do the work.", "--allow-all-tools"],
      env: {
        ...c.proxy.trap.env,
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
    finish(c, run, mock.mainRequests().length);
    return { run, outputs: mock.toolResults().map((t) => t.text), requests: mock.mainRequests().map((r) => r.body) };
  };
}
