// Starts and stops one code-server (VS Code 1.139.1 as a web server) for a test, fully isolated:
// its config, user data, extensions and XDG_* dirs live in a fresh temp dir, it listens on
// 127.0.0.1:<free port> with no auth, and it runs in its own process group so that stop() ends
// the server together with its extension hosts, file watcher and language servers.
// The installed copy comes from scripts/install-vscode-host.js (run it first).
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { hostPaths } from "../../../scripts/install-vscode-host";
import { repoRoot } from "./paths";
import { freePort, killGroup, sleep, trackGroup } from "./processes";

export interface CodeServerOptions {
  /** Folder the workbench opens. Default: a fresh empty folder inside the profile dir. */
  workspaceFolder?: string;
  /** Extension loaded as under development (its package.json `main` is run). Default: the repo root,
   *  so dist/extension.js is the extension under test. `null`: none. Used by workbenchUrl(). */
  extensionDevelopmentPath?: string | null;
  /** Merged over defaultSettings into <profile>/data/User/settings.json. */
  settings?: Record<string, unknown>;
  /** Added to the server's environment; the extension host inherits it (process.env in the extension). */
  env?: Record<string, string>;
  /** Default: a free port. */
  port?: number;
  /** How long to wait for /healthz. Default 30 s. */
  startTimeoutMs?: number;
  /** Keep the profile dir (logs, settings) after stop(). Also on when DC_KEEP_PROFILE=1. */
  keepProfile?: boolean;
  /** More files for <profile>/data/User/ (e.g. chatLanguageModels.json), written before the server starts. */
  userFiles?: Record<string, string>;
}

export interface CodeServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** The server's pid, which is also its process group id. */
  readonly pid: number;
  /** Temp dir holding config.yaml, data/ (user data, logs), ext/, xdg/, code-server.log. */
  readonly profileDir: string;
  readonly workspaceFolder: string;
  readonly extensionDevelopmentPath: string | null;
  /** The server's stdout and stderr. */
  readonly logFile: string;
  /** Workbench URL for `workspaceFolder` that loads `extensionDevelopmentPath` and, when given,
   *  runs `extensionTestsPath` (a module exporting run(): Promise<void>) in the extension host. */
  workbenchUrl(opts?: { extensionTestsPath?: string }): string;
  /** The last `lines` lines of logFile, for error messages. */
  logTail(lines?: number): string;
  /** Ends the whole process group (SIGTERM, then SIGKILL after 5 s) and removes the profile dir. */
  stop(): Promise<void>;
}

/** Settings for quiet, reproducible runs (see shared notes vscode-testing.md §2.6). */
export const defaultSettings: Readonly<Record<string, unknown>> = {
  "remote.autoForwardPorts": false,
  "git.enabled": false,
  "git.openRepositoryInParentFolders": "never",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.enableExperiments": false,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "chat.disableAIFeatures": true,
};

function serverEnv(profileDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // Variables of an enclosing VS Code / Electron would leak into the extension host.
    if (k.startsWith("VSCODE_") || k.startsWith("ELECTRON_") || k === "DC_STATS_FILE") continue;
    // Nor may a Damage Control of the developer's own editor (its URL, token, state dir).
    if (k.startsWith("DAMAGE_CONTROL_")) continue;
    env[k] = v;
  }
  Object.assign(env, {
    XDG_CONFIG_HOME: path.join(profileDir, "xdg", "config"),
    XDG_DATA_HOME: path.join(profileDir, "xdg", "data"),
    XDG_CACHE_HOME: path.join(profileDir, "xdg", "cache"),
    XDG_RUNTIME_DIR: path.join(profileDir, "xdg", "runtime"),
    // The extension keeps its token and endpoint registry in $XDG_STATE_HOME/damage-control unless
    // DAMAGE_CONTROL_STATE_DIR says otherwise: never the developer's real state.
    XDG_STATE_HOME: path.join(profileDir, "xdg", "state"),
    ...extra,
  });
  return env;
}

function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/healthz`, { timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => {
      req.destroy();
      resolve(false);
    });
  });
}

function tail(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

/** Starts code-server and resolves once /healthz answers. Retries on a port taken meanwhile. */
export async function startCodeServer(opts: CodeServerOptions = {}): Promise<CodeServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(opts, opts.port ?? (await freePort()));
    } catch (e) {
      if (opts.port || attempt >= 3 || !String((e as Error).message).includes("EADDRINUSE")) throw e;
    }
  }
}

async function startOnce(opts: CodeServerOptions, port: number): Promise<CodeServer> {
  const tools = hostPaths();
  for (const f of [tools.node24Bin, tools.codeServerEntry]) {
    if (!fs.existsSync(f)) throw new Error(`${f} is missing: run node scripts/install-vscode-host.js`);
  }
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-code-server-"));
  const dataDir = path.join(profileDir, "data");
  const extDir = path.join(profileDir, "ext");
  for (const d of [path.join(dataDir, "User"), extDir, path.join(profileDir, "xdg", "runtime")]) fs.mkdirSync(d, { recursive: true });
  fs.chmodSync(path.join(profileDir, "xdg", "runtime"), 0o700);
  fs.writeFileSync(path.join(profileDir, "config.yaml"), `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  fs.writeFileSync(path.join(dataDir, "User", "settings.json"), JSON.stringify({ ...defaultSettings, ...opts.settings }, null, 2));
  for (const [name, text] of Object.entries(opts.userFiles ?? {})) fs.writeFileSync(path.join(dataDir, "User", name), text);
  const workspaceFolder = path.resolve(opts.workspaceFolder ?? path.join(profileDir, "workspace"));
  fs.mkdirSync(workspaceFolder, { recursive: true });
  const extensionDevelopmentPath = opts.extensionDevelopmentPath === null ? null : path.resolve(opts.extensionDevelopmentPath ?? repoRoot());
  const logFile = path.join(profileDir, "code-server.log");
  const logFd = fs.openSync(logFile, "a");

  const args = [
    tools.codeServerEntry,
    "--config", path.join(profileDir, "config.yaml"),
    "--user-data-dir", dataDir,
    "--extensions-dir", extDir,
    "--bind-addr", `127.0.0.1:${port}`,
    "--auth", "none",
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-workspace-trust",
    "--disable-getting-started-override",
    "--ignore-last-opened",
    // A closed tab's extension host would otherwise live on for 3 h (and keep its ports).
    "--reconnection-grace-time", "5",
    // Makes the built workbench honour `?payload=` (extensionDevelopmentPath / extensionTestsPath).
    "--vscode-option", "enable-smoke-test-driver",
    workspaceFolder,
  ];
  const child = spawn(tools.node24Bin, args, {
    cwd: workspaceFolder,
    env: serverEnv(profileDir, opts.env ?? {}),
    detached: true, // setsid: its own process group, killed as a whole by stop()
    stdio: ["ignore", logFd, logFd],
  });
  fs.closeSync(logFd);
  const pid = child.pid;
  if (!pid) throw new Error("code-server did not start");
  trackGroup(pid, `code-server :${port}`);
  let exited: string | null = null;
  child.once("exit", (code, signal) => (exited = `exited with ${code ?? signal}`));
  child.unref();

  const url = `http://127.0.0.1:${port}`;
  let stopped = false;
  const server: CodeServer = {
    url,
    port,
    pid,
    profileDir,
    workspaceFolder,
    extensionDevelopmentPath,
    logFile,
    workbenchUrl({ extensionTestsPath } = {}) {
      const remote = (p: string) => `vscode-remote://127.0.0.1:${port}${path.resolve(p)}`;
      const payload: [string, string][] = [];
      if (extensionDevelopmentPath) payload.push(["extensionDevelopmentPath", remote(extensionDevelopmentPath)]);
      if (extensionTestsPath) payload.push(["extensionTestsPath", remote(extensionTestsPath.replace(/\.js$/, ""))]);
      payload.push(["skipWelcome", "true"]);
      return `${url}/?folder=${encodeURIComponent(workspaceFolder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    },
    logTail: (lines = 30) => tail(logFile, lines),
    async stop() {
      if (stopped) return;
      stopped = true;
      await killGroup(pid);
      if (!opts.keepProfile && process.env.DC_KEEP_PROFILE !== "1") fs.rmSync(profileDir, { recursive: true, force: true });
    },
  };

  const deadline = Date.now() + (opts.startTimeoutMs ?? 30_000);
  for (;;) {
    if (await healthy(url)) return server;
    const why = exited ?? (Date.now() > deadline ? "did not answer /healthz in time" : null);
    if (why) {
      const log = server.logTail();
      await server.stop();
      throw new Error(`code-server on port ${port} ${why}:\n${log}`);
    }
    await sleep(150);
  }
}
