// Runs the pinned Codex CLI, Gemini CLI and Copilot CLI for one non-interactive turn against a
// mock model on 127.0.0.1, each with its own isolated HOME (so its config, trust and hooks are
// only what the test wrote). How each is driven offline: /work/shared/notes/more-agents.md.
import * as fs from "node:fs";
import * as path from "node:path";
import { agentCommand, type AgentToolId } from "../../../scripts/test-tools.js";
import { isolatedEnv } from "./env";
import { logRun, runInGroup, type GroupRunResult } from "./process";
import { e2eRoot, tempDir } from "./tmp";

export type MoreAgentTool = AgentToolId;

export interface AgentRunOptions {
  tool: MoreAgentTool;
  cwd: string;
  /** The isolated HOME (config files already written into it by the test). */
  home: string;
  args: string[];
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

export type AgentRun = GroupRunResult;

export function agentHome(prefix: string): string {
  const home = tempDir(`${prefix}-home`);
  fs.mkdirSync(path.join(home, "tmp"));
  return home;
}

export async function runAgent(o: AgentRunOptions): Promise<AgentRun> {
  const [node, entry] = agentCommand(o.tool);
  const env = isolatedEnv({ home: o.home, tmpdir: path.join(o.home, "tmp"), gitCeiling: path.dirname(o.cwd), extra: { XDG_CONFIG_HOME: path.join(o.home, ".config"), XDG_CACHE_HOME: path.join(o.home, ".cache"), XDG_DATA_HOME: path.join(o.home, ".local/share"), XDG_STATE_HOME: path.join(o.home, ".local/state"), NO_UPDATE_NOTIFIER: "1", CI: "1", ...o.env } });
  // The agents run tool commands with /bin/sh or bash; the hook command starts `node`: PATH must have it.
  env.PATH = `${path.dirname(process.execPath)}:${env.PATH ?? "/usr/bin:/bin"}`;
  const r = await runInGroup({ command: node, args: [entry, ...o.args], cwd: o.cwd, env, timeoutMs: o.timeoutMs ?? 120_000, stopSignals: ["SIGINT", "SIGTERM", "SIGKILL"] });
  logRun(`${o.tool} ${o.args.filter((a) => !a.includes(" ")).join(" ")}`, r);
  return r;
}

export function explainRun(r: AgentRun): string {
  return `exit ${r.exitCode} signal ${r.signal} timedOut ${r.timedOut} in ${r.durationMs} ms\nstdout: ${r.stdout.slice(-3000)}\nstderr: ${r.stderr.slice(-3000)}`;
}

export { e2eRoot };
