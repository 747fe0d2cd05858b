// A project guarded by the real product: the Damage Control endpoint (the same Guard and server
// `damage-control serve` runs, started here so the test can observe every answer), its own state
// folder (token, registry), and the agents wired with the real CLI (`damage-control install`).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { boundedDecider } from "../../../src/core/decider";
import { Guard } from "../../../src/core/guard";
import type { GuardSandboxOptions } from "../../../src/core/sandbox/step";
import { unregister } from "../../../src/core/registry";
import type { AnswerInfo } from "../../../src/hookserver/server";
import { startGuardEndpoint, type StartedEndpoint } from "../../../src/hookserver/start";
import { loadOrCreateToken } from "../../../src/core/token";
import { makeProject, type Project } from "./project";
import { tempDir } from "./tmp";

export const REPO = path.resolve(__dirname, "../../..");
export const CLI = path.join(REPO, "dist/cli.js");
export const PI_EXTENSION = path.join(REPO, "dist/pi-extension.js");

/** The rules every scenario runs under: one of each kind, and an ask rule. */
export const SCENARIO_RULES = `bashToolPatterns:
  - pattern: '\\brm\\s+(-[^\\s]*)*-[rRf]'
    reason: recursive or forced rm
  - pattern: '\\btouch\\s+needs-a-human\\b'
    reason: creating this file needs a human
    ask: true
zeroAccessPaths:
  - .env
readOnlyPaths:
  - config/
noDeletePaths:
  - data/
`;

export interface Guarded {
  proj: Project;
  stateDir: string;
  token: string;
  guard: Guard;
  endpoint: StartedEndpoint | undefined;
  /** Every answer the endpoint gave, in order. */
  answers: AnswerInfo[];
  /** The environment agents need to find the endpoint (state folder, token). */
  env: Record<string, string>;
  /** Stops the endpoint as if VS Code were closed (registration marked inactive). */
  stopEndpoint(): Promise<void>;
  /** Runs the real CLI with this project's state folder. */
  cli(args: string[], extraEnv?: Record<string, string>): { status: number | null; stdout: string; stderr: string };
  close(): Promise<void>;
}

/** guardEnv: the endpoint guard's environment (layer files, snapshot store), on top of the test process's. */
/** sandbox: the guard's sandbox step, given the project folder and the state folder (tests build the policy directly). */
export async function startGuarded(opts: { rules?: string; files?: Record<string, string>; guardEnv?: Record<string, string>; sandbox?: (dir: string, stateDir: string) => GuardSandboxOptions } = {}): Promise<Guarded> {
  const proj = makeProject({
    files: {
      "data/keep.txt": "precious\n",
      "config/app.yaml": "port: 1\n",
      ".env": "API_KEY=never-show-this\n",
      ".pi/damage-control-rules.yaml": opts.rules ?? SCENARIO_RULES,
      ...opts.files,
    },
  });
  const stateDir = tempDir("dc-state");
  const token = loadOrCreateToken(stateDir);
  // The endpoint as serve and VS Code run it: decisions in the time-bounded worker.
  const guard = new Guard({ folders: [proj.dir], decider: boundedDecider(), ...(opts.sandbox && { sandbox: opts.sandbox(proj.dir, stateDir) }), ...(opts.guardEnv && { env: { ...process.env, DAMAGE_CONTROL_STATE_DIR: stateDir, ...opts.guardEnv } }) });
  const answers: AnswerInfo[] = [];
  const endpoint = await startGuardEndpoint(guard, token, { port: 0, host: "e2e", stateDir, onAnswer: (a) => answers.push(a) });
  const env = { DAMAGE_CONTROL_STATE_DIR: stateDir, DAMAGE_CONTROL_TOKEN: token };
  const g: Guarded = {
    proj,
    stateDir,
    token,
    guard,
    endpoint,
    answers,
    env,
    async stopEndpoint() {
      if (!g.endpoint) return;
      unregister(guard.folders, stateDir);
      await g.endpoint.close();
      g.endpoint = undefined;
    },
    cli(args, extraEnv = {}) {
      const r = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, ...env, ...extraEnv }, encoding: "utf8", timeout: 30_000 });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    async close() {
      await g.stopEndpoint();
      guard.close();
      proj.remove();
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
  return g;
}
