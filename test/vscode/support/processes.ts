// Process groups this test process started (code-server, Chromium), so that nothing outlives a run.
// Each group is killed on normal exit and on SIGINT/SIGTERM here; and when DC_PGID_DIR is set
// (scripts/run-vscode-tests.js sets it), each live group also has a file there named by its pgid,
// so that the outer runner can kill leftovers even after this process was SIGKILLed.
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";

const live = new Set<number>();
let hooked = false;

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.on("exit", () => {
    for (const pgid of live) signalGroup(pgid, "SIGKILL");
  });
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => {
      for (const pgid of live) signalGroup(pgid, "SIGTERM");
      process.exit(sig === "SIGINT" ? 130 : 143);
    });
  }
}

/** Sends `signal` to every process in group `pgid`; false when the group is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Remembers a process group (its leader's pid) to kill if this process ends first. */
export function trackGroup(pgid: number, label: string): void {
  hook();
  live.add(pgid);
  const dir = process.env.DC_PGID_DIR;
  if (dir) fs.writeFileSync(path.join(dir, String(pgid)), `${label}\n`);
}

export function untrackGroup(pgid: number): void {
  live.delete(pgid);
  const dir = process.env.DC_PGID_DIR;
  if (dir) fs.rmSync(path.join(dir, String(pgid)), { force: true });
}

/** SIGTERM to the group, SIGKILL after `graceMs` if any member is left; resolves when it is empty
 *  (zombies waiting for init to reap them count as gone). */
export async function killGroup(pgid: number, graceMs = 5000): Promise<void> {
  signalGroup(pgid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (groupMembers(pgid).length) {
    if (Date.now() > deadline) {
      signalGroup(pgid, "SIGKILL");
      await sleep(200);
      break;
    }
    await sleep(100);
  }
  untrackGroup(pgid);
}

interface ProcStat {
  pid: number;
  state: string;
  ppid: number;
  pgrp: number;
}

/** Every process in /proc with its state, parent and process group (Linux). */
function procStats(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid pgrp ..."; comm may contain spaces and parentheses.
    const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out.push({ pid: Number(name), state, ppid: Number(ppid), pgrp: Number(pgrp) });
  }
  return out;
}

/** Live (non-zombie) pids in process group `pgid`. */
export function groupMembers(pgid: number): number[] {
  return procStats().filter((p) => p.pgrp === pgid && p.state !== "Z").map((p) => p.pid);
}

/** Direct children of this process that lead their own process group (e.g. Playwright's browser). */
export function childGroupLeaders(): number[] {
  return procStats().filter((p) => p.ppid === process.pid && p.pgrp === p.pid).map((p) => p.pid);
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
