// Runs a pinned, real pi coding agent headless against a mock OpenAI-compatible server.
// pi 1.6.0 needs Node >= 22.19 (the cached node22); 0.73.1 runs on the Node running the tests.
// Each run gets its own agent dir (models.json → the mock; settings.json → the extensions),
// HOME and TMPDIR (jiti's transpile cache lives there). Extensions are loaded globally because
// project-local ones are silently skipped in -p without trust. Facts: /work/shared/notes/pi-agent.md.
import * as fs from "node:fs";
import * as path from "node:path";
import { piCommand, type PiVersion } from "../../../scripts/test-tools.js";
import { isolatedEnv } from "./env";
import { logRun, runInGroup } from "./process";
import { e2eRoot, removeTemp, tempDir } from "./tmp";

export type { PiVersion };

/** An `extension_ui_request` line from pi in RPC mode (ctx.ui.confirm/select/input/notify/…). */
export interface RpcUiRequest {
  type: "extension_ui_request";
  id: string;
  method: string;
  title?: string;
  message?: string;
  timeout?: number;
  [k: string]: unknown;
}

/** Fields of the `extension_ui_response` (besides type and id). */
export type RpcUiAnswer = { confirmed: boolean } | { value: string } | { cancelled: true };

export interface RunPiOptions {
  version: PiVersion;
  cwd: string;
  /** Provider baseUrl, e.g. `mock.baseUrl` (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  prompt: string;
  /** Absolute paths of extension files to load globally. */
  extensions?: string[];
  /**
   * "settings" (default): listed in the agent settings.json `extensions`. "dir": copied into
   * <agentDir>/extensions/ (0.73.1 discovers only *.ts there; 1.6.0 also *.js).
   */
  extensionsVia?: "settings" | "dir";
  /** Merged into the agent settings.json. */
  agentSettings?: Record<string, unknown>;
  /** Added last, so it wins. */
  env?: Record<string, string | undefined>;
  /** "print": `-p`; "json": `--mode json -p` (events on stdout); "rpc": `--mode rpc` (hasUI = true). */
  mode?: "print" | "json" | "rpc";
  /**
   * RPC only: answer a dialog request (confirm/select/input/editor). Returning undefined answers
   * `{cancelled:true}`; returning null sends nothing, so pi's own dialog timeout decides.
   */
  rpcAnswer?: (req: RpcUiRequest) => RpcUiAnswer | null | undefined;
  /** Default 60 s; then SIGINT → SIGTERM → SIGKILL to the group, 1 s apart. */
  timeoutMs?: number;
  extraArgs?: string[];
}

export interface PiRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** json/rpc modes: every stdout record that parsed as JSON, in order. */
  events: any[];
  /** rpc mode: every extension_ui_request, dialogs and fire-and-forget ones alike. */
  uiRequests: RpcUiRequest[];
}

const DIALOGS = new Set(["confirm", "select", "input", "editor"]);

export const PI_MODEL = "mock/mock-model";

function writeAgentDir(agentDir: string, opts: RunPiOptions): void {
  fs.mkdirSync(agentDir, { recursive: true });
  const models = {
    providers: {
      mock: {
        baseUrl: opts.baseUrl,
        api: "openai-completions",
        apiKey: "e2e-dummy",
        models: [{ id: "mock-model", contextWindow: 128000, maxTokens: 4096, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }],
      },
    },
  };
  fs.writeFileSync(path.join(agentDir, "models.json"), JSON.stringify(models, null, 2));
  const settings: Record<string, unknown> = { ...opts.agentSettings };
  const exts = opts.extensions ?? [];
  if ((opts.extensionsVia ?? "settings") === "settings") {
    if (exts.length) settings.extensions = [...((settings.extensions as string[] | undefined) ?? []), ...exts];
  } else {
    const dir = path.join(agentDir, "extensions");
    fs.mkdirSync(dir, { recursive: true });
    for (const e of exts) fs.copyFileSync(e, path.join(dir, path.basename(e)));
  }
  fs.writeFileSync(path.join(agentDir, "settings.json"), JSON.stringify(settings, null, 2));
}

export async function runPi(opts: RunPiOptions): Promise<PiRun> {
  const runDir = tempDir(`pi-${opts.version}`);
  const agentDir = path.join(runDir, "agent");
  const home = path.join(runDir, "home");
  const tmp = path.join(runDir, "tmp");
  for (const d of [home, tmp]) fs.mkdirSync(d, { recursive: true });
  writeAgentDir(agentDir, opts);

  const mode = opts.mode ?? "print";
  const [node, cli] = piCommand(opts.version);
  const args = [cli, "--model", PI_MODEL, "--offline", "--no-session", ...(opts.extraArgs ?? [])];
  if (mode === "print") args.push("-p", opts.prompt);
  else if (mode === "json") args.push("--mode", "json", "-p", opts.prompt);
  else args.push("--mode", "rpc");

  const env = isolatedEnv({
    home,
    tmpdir: tmp,
    gitCeiling: path.dirname(opts.cwd),
    extra: {
      PI_CODING_AGENT_DIR: agentDir,
      PI_OFFLINE: "1",
      PI_SKIP_VERSION_CHECK: "1",
      PI_TELEMETRY: "0",
      // pi 1.6.0 enables Node's compile cache (default: under TMPDIR, so cold in every run). A
      // V8 bytecode cache of pi's own code, shared by the runs of this test process, cannot
      // change behaviour and saves CPU on small machines. jiti's cache stays per run.
      NODE_COMPILE_CACHE: path.join(e2eRoot(), "node-compile-cache"),
      ...opts.env,
    },
  });

  const events: any[] = [];
  const uiRequests: RpcUiRequest[] = [];
  // 1.6.0 announces "will not continue on its own" with agent_settled; 0.73.1 has only agent_end.
  const endEvent = opts.version === "0.73.1" ? "agent_end" : "agent_settled";
  const run = await runInGroup({
    command: node,
    args,
    cwd: opts.cwd,
    env,
    timeoutMs: opts.timeoutMs ?? 60_000,
    // In -p, pi ignored SIGTERM while an extension handler was pending, but exited on SIGINT.
    stopSignals: ["SIGINT", "SIGTERM", "SIGKILL"],
    stdin: mode === "rpc" ? "pipe" : "ignore",
    onSpawn: (child) => {
      if (mode === "rpc") child.stdin?.write(JSON.stringify({ id: "dc-prompt", type: "prompt", message: opts.prompt }) + "\n");
    },
    onStdoutLine: (line, child) => {
      let ev: any;
      try {
        ev = JSON.parse(line);
      } catch {
        return;
      }
      events.push(ev);
      if (mode !== "rpc") return;
      const send = (v: unknown) => child.stdin?.write(JSON.stringify(v) + "\n");
      if (ev?.type === "extension_ui_request") {
        uiRequests.push(ev);
        if (!DIALOGS.has(ev.method)) return;
        const answer = opts.rpcAnswer ? opts.rpcAnswer(ev) : undefined;
        if (answer !== null) send({ type: "extension_ui_response", id: ev.id, ...(answer ?? { cancelled: true }) });
      } else if (ev?.type === endEvent) {
        child.stdin?.end();
      } else if (ev?.type === "response" && ev.command === "prompt" && (ev.success === false || ev.data?.disposition === "handled")) {
        child.stdin?.end(); // no run will follow
      }
    },
  }).catch((e) => {
    removeTemp(runDir);
    throw e;
  });
  logRun(`pi ${opts.version} ${mode}`, run);
  removeTemp(runDir);
  return { ...run, events, uiRequests };
}

