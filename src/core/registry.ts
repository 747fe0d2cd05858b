// Which endpoint guards which folder. Each running endpoint writes one small JSON file per
// folder it guards into <state>/endpoints/, so `damage-control endpoint --cwd DIR`, the command
// hook and the pi extension can find it. The file stays after the endpoint stops (marked
// inactive) so the next start can take the same port and agent configs stay valid.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { distrustOf } from "./endpoint-trust";
import { ensurePrivateDir, userStateDir, writeFileAtomic } from "./state-dir";

export interface Registration {
  folder: string;
  url: string;
  port: number;
  pid: number;
  active: boolean;
  /** "vscode" for an extension host, "serve" for the CLI. */
  host: string;
  updatedAt: string;
}

/** Ports we derive from the folder path when it has none yet: a stable, unprivileged range. */
const PORT_BASE = 42100;
const PORT_SPAN = 7900;

function registryDir(stateDir: string): string {
  return path.join(stateDir, "endpoints");
}

/** The registry entry of a folder: the file its endpoint writes. */
export function registrationFile(folder: string, stateDir: string): string {
  const id = createHash("sha256").update(path.resolve(folder)).digest("hex").slice(0, 20);
  return path.join(registryDir(stateDir), `${id}.json`);
}

export function readRegistration(folder: string, stateDir = userStateDir()): Registration | undefined {
  try {
    return JSON.parse(fs.readFileSync(registrationFile(folder, stateDir), "utf8")) as Registration;
  } catch {
    return undefined;
  }
}

/** The port this folder had last time, else one derived from its path. */
export function preferredPort(folder: string, stateDir = userStateDir()): number {
  const previous = readRegistration(folder, stateDir);
  if (previous && previous.port > 0) return previous.port;
  const h = createHash("sha256").update(path.resolve(folder)).digest().readUInt32BE(0);
  return PORT_BASE + (h % PORT_SPAN);
}

/**
 * Where builds before this one wrote the entry as one line "URL PID" for the sh launcher's fast
 * path, which trusted it without checking the process (any file the agent's code writes there
 * was trusted). Nothing reads it now; register() and unregister() remove a leftover, so a
 * launcher written by an older build falls back to the local decision until it is rewritten.
 */
export function byPathFile(folder: string, stateDir = userStateDir()): string {
  return path.join(registryDir(stateDir), "by-path", path.resolve(folder), ".endpoint");
}

/**
 * The live endpoint of another process that holds `folder`'s entry, if any. One endpoint per
 * folder (issue 35): while it lives its entry is never replaced, so a second `serve` (or window)
 * with rules of its own cannot take the folder over from the one the hooks trust.
 */
export function heldBy(folder: string, stateDir = userStateDir()): Registration | undefined {
  const reg = readRegistration(folder, stateDir);
  return reg && reg.active && reg.pid !== process.pid && pidAlive(reg.pid) ? reg : undefined;
}

/**
 * Publishes this process's endpoint for each folder whose entry is free (none, inactive, or its
 * process gone); returns the folders it took. A folder held by another live endpoint is left to it.
 */
export function register(folders: string[], url: string, port: number, host: string, stateDir = userStateDir()): string[] {
  ensurePrivateDir(registryDir(stateDir));
  const taken: string[] = [];
  for (const folder of folders) {
    if (heldBy(folder, stateDir)) continue;
    taken.push(folder);
    const reg: Registration = { folder: path.resolve(folder), url, port, pid: process.pid, active: true, host, updatedAt: new Date().toISOString() };
    writeFileAtomic(registrationFile(folder, stateDir), JSON.stringify(reg, null, 2) + "\n", 0o600);
    fs.rmSync(byPathFile(folder, stateDir), { force: true });
  }
  return taken;
}

/** Marks our registrations inactive (keeping the port for next time). Only our own pid's. */
export function unregister(folders: string[], stateDir = userStateDir()): void {
  for (const folder of folders) {
    const reg = readRegistration(folder, stateDir);
    if (!reg || reg.pid !== process.pid) continue;
    try {
      writeFileAtomic(registrationFile(folder, stateDir), JSON.stringify({ ...reg, active: false, updatedAt: new Date().toISOString() }, null, 2) + "\n", 0o600);
      fs.rmSync(byPathFile(folder, stateDir), { force: true });
    } catch {
      /* state dir gone */
    }
  }
}

/** An entry the trusted lookup passed over, and why (the hook says it; doctor shows it). */
export interface Distrusted {
  reg: Registration;
  reason: string;
}

/**
 * The live endpoint guarding `dir`: the registration of the deepest folder containing it whose
 * endpoint a hook may trust (endpoint-trust.ts). `trust: false` skips those checks (listing only);
 * `skipped` collects the entries passed over, with why.
 */
export function lookupEndpoint(dir: string, stateDir = userStateDir(), opts: { trust?: boolean; skipped?: Distrusted[] } = {}): Registration | undefined {
  let entries: string[];
  try {
    entries = fs.readdirSync(registryDir(stateDir));
  } catch {
    return undefined;
  }
  const target = path.resolve(dir);
  let best: Registration | undefined;
  for (const name of entries) {
    if (!name.endsWith(".json")) continue;
    let reg: Registration;
    try {
      reg = JSON.parse(fs.readFileSync(path.join(registryDir(stateDir), name), "utf8"));
    } catch {
      continue;
    }
    if (!reg.active || !pidAlive(reg.pid)) continue;
    const inside = target === reg.folder || target.startsWith(reg.folder.endsWith("/") ? reg.folder : reg.folder + "/");
    if (!inside || (best && reg.folder.length <= best.folder.length)) continue;
    // An endpoint the user did not start, or a port another process listens on: never trusted (issue 35).
    const reason = opts.trust === false ? undefined : distrustOf(reg);
    if (reason) opts.skipped?.push({ reg, reason });
    else best = reg;
  }
  return best;
}

/** The processes of the live endpoints in the registry (a signal to one switches a guard off). */
export function liveEndpointPids(stateDir = userStateDir()): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync(registryDir(stateDir));
  } catch {
    return [];
  }
  const pids = new Set<number>();
  for (const name of entries) {
    if (!name.endsWith(".json")) continue;
    try {
      const reg = JSON.parse(fs.readFileSync(path.join(registryDir(stateDir), name), "utf8")) as Registration;
      if (reg.active && pidAlive(reg.pid)) pids.add(reg.pid);
    } catch {
      /* torn or foreign file */
    }
  }
  return [...pids];
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
