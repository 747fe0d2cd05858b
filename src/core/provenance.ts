// Who started a process (issue 35): a process below an agent's process (its ancestry on Linux's
// /proc) or carrying an agent's marker variables runs inside that agent's tool call. `serve`
// refuses to start there, and a hook does not trust an endpoint whose process is such a one:
// an endpoint the user started (a VS Code window, `serve` from their own terminal) has none.
// What this cannot see (a process detached from the agent with a scrubbed environment, another
// OS without /proc) is listed in docs/self-protection.md.
import * as fs from "node:fs";
import * as path from "node:path";
import { AGENT_ENV_MARKERS, AGENT_PROCESSES } from "../engine/self/table";

/** How deep the ancestry is walked: a shell tree deeper than this is not a real agent's. */
const MAX_DEPTH = 64;

/**
 * Answers by process (pid and its start time: a pid reused is another process). A process's
 * environment and ancestors at its start do not change, so a long-lived caller (the pi
 * extension) pays for the walk once per endpoint.
 */
const answers = new Map<string, string | undefined>();

/** The agent whose tool call started process `pid` (this process by default), else undefined. */
export function startedByAgent(pid: number = process.pid, procDir = "/proc"): string | undefined {
  const key = `${procDir}:${pid}:${startTimeOf(pid, procDir) ?? "?"}`;
  if (answers.has(key)) return answers.get(key);
  const answer = walk(pid, procDir);
  if (answers.size > 64) answers.clear();
  answers.set(key, answer);
  return answer;
}

/**
 * The agent session this process runs in: the nearest agent process among its ancestors (itself
 * included, for the pi extension that runs inside pi), with its start time. Every process a tool
 * call of that session starts (double-forked, reparented to init, started through tmux or
 * systemd-run, environment scrubbed) starts after it: an endpoint that started after the session
 * is one the agent could have started.
 */
export function agentSession(procDir = "/proc"): { pid: number; agent: string; startTime: number } | undefined {
  const key = `${procDir}:${process.pid}`;
  if (sessions.has(key)) return sessions.get(key);
  let found: { pid: number; agent: string; startTime: number } | undefined;
  let current = process.pid;
  for (let depth = 0; depth < MAX_DEPTH && current > 1; depth++) {
    const agent = agentOf(cmdline(current, procDir));
    const start = Number(startTimeOf(current, procDir));
    if (agent && Number.isFinite(start)) {
      found = { pid: current, agent, startTime: start };
      break;
    }
    const parent = parentOf(current, procDir);
    if (parent === undefined || parent === current) break;
    current = parent;
  }
  sessions.set(key, found);
  return found;
}
const sessions = new Map<string, { pid: number; agent: string; startTime: number } | undefined>();

function walk(pid: number, procDir: string): string | undefined {
  const marker = envMarker(pid, procDir);
  if (marker) return marker;
  let current = pid;
  for (let depth = 0; depth < MAX_DEPTH && current > 1; depth++) {
    const agent = agentOf(cmdline(current, procDir));
    if (agent) return agent;
    const parent = parentOf(current, procDir);
    if (parent === undefined || parent === current) return undefined;
    current = parent;
  }
  return undefined;
}

/** The agent this command line is, by its executable's name or its package path. */
export function agentOf(argv: string[]): string | undefined {
  if (argv.length === 0) return undefined;
  const exe = path.basename(argv[0]);
  // A Node (or Bun) agent: the script is the program.
  const script = /^(node|nodejs|bun)(\d+)?$/.test(exe) ? (argv.slice(1).find((a) => !a.startsWith("-")) ?? "") : "";
  for (const a of AGENT_PROCESSES) {
    if (a.names.includes(exe) || (script && a.names.includes(path.basename(script)))) return a.agent;
    // A package path matches whole path segments only: `/work/hcline/dist/cli.js` is not Cline's `cline/dist/`.
    if (a.paths.some((p) => inPath(argv[0], p) || (script && inPath(script, p)))) return a.agent;
  }
  return undefined;
}

/** `p` (a package path like `cline/dist/`) in `file`, starting at a path segment. */
function inPath(file: string, p: string): boolean {
  return `/${file.replace(/\\/g, "/")}`.includes(p.startsWith("/") ? p : `/${p}`);
}

function envMarker(pid: number, procDir: string): string | undefined {
  let env: string[];
  if (pid === process.pid && procDir === "/proc") {
    env = Object.keys(process.env).filter((k) => process.env[k]);
  } else {
    try {
      env = fs.readFileSync(path.join(procDir, String(pid), "environ"), "utf8").split("\0").map((kv) => (kv.slice(kv.indexOf("=") + 1) ? kv.slice(0, kv.indexOf("=")) : ""));
    } catch {
      return undefined;
    }
  }
  const hit = AGENT_ENV_MARKERS.find((m) => env.includes(m));
  return hit ? `an agent (${hit} is set)` : undefined;
}

function cmdline(pid: number, procDir: string): string[] {
  try {
    return fs.readFileSync(path.join(procDir, String(pid), "cmdline"), "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/** Field 22 of /proc/PID/stat: when the process started (clock ticks after boot). */
export function startTimeOf(pid: number, procDir = "/proc"): string | undefined {
  try {
    const stat = fs.readFileSync(path.join(procDir, String(pid), "stat"), "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function parentOf(pid: number, procDir: string): number | undefined {
  try {
    const stat = fs.readFileSync(path.join(procDir, String(pid), "stat"), "utf8");
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}
