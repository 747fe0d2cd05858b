// What a restore reports, and how it keeps what is there now: moved aside, beside it, under a
// name that says so, never overwritten (restore.ts for files, restore-git.ts for git state).
import * as fs from "node:fs";

export interface RestoreReport {
  /** What was (or, in a dry run, would be) put back. */
  restored: string[];
  /** Already as kept: nothing to do. */
  unchanged: string[];
  /** What was there and differed: moved aside (never lost) before the kept version went in place. */
  setAside: { path: string; keptAt: string; what: string }[];
  /** What was not put back (a branch with later commits on it, the index staged differently), and why. */
  conflicts: { path: string; beside: string }[];
  /** What the guard does not do itself (a push to the remote, moving a branch past later work): the exact command. */
  commands: string[];
  /** What the call named that held nothing to keep (a socket, a device). */
  notKept: { path: string; why: string }[];
  dryRun: boolean;
}

/** Moves what is there now out of the way, beside it, under a name that says so. */
export class Aside {
  constructor(
    private readonly id: string,
    private readonly r: RestoreReport,
  ) {}

  /** The free name beside `p` that says what it holds: NAME.before-restore-ID (then -2, -3…). */
  nameFor(p: string): string {
    const base = `${p}.before-restore-${this.id}`;
    let name = base;
    for (let i = 2; lstat(name); i++) name = `${base}-${i}`;
    return name;
  }

  /**
   * Renames `p` aside (a rename keeps it whole: content, mode, links) and reports where. `what`
   * it holds, where that is known (the call's post-tool copy tells the call's change from an edit).
   */
  move(p: string, what = "what was there (the call's change, or an edit made since)"): void {
    const to = this.nameFor(p);
    this.r.setAside.push({ path: p, keptAt: to, what });
    if (!this.r.dryRun) fs.renameSync(p, to);
  }

  /** Writes the call's own version (kept on its post-tool event) beside `p`, when an edit replaced it since. */
  callVersion(p: string, kept: string, mode: number): void {
    const base = `${p}.call-version-${this.id}`;
    let to = base;
    for (let i = 2; lstat(to); i++) to = `${base}-${i}`;
    this.r.setAside.push({ path: p, keptAt: to, what: "the call's own version" });
    if (this.r.dryRun) return;
    fs.copyFileSync(kept, to, fs.constants.COPYFILE_FICLONE);
    fs.chmodSync(to, mode);
  }
}

export function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

