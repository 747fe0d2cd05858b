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
  /** What the restore changed, in order, for Undo restore (undo-restore.ts); empty in a dry run. */
  steps: RestoreStep[];
}

/**
 * One change a restore made, and what was there before it: enough to put that back. Paths: the
 * restore left something at `path` (its identity is taken once the restore is done, so an undo
 * can tell a change made since); before it, `path` held what is now at `aside`, or a git blob, or
 * the same content under another mode, or nothing. Refs, index entries, config values and the
 * stash list: their value before and after.
 */
export type RestoreStep =
  | { kind: "path"; path: string; before: { aside: string } | { blob: string; mode: string; repo: string } | { chmod: number } | { none: true }; put?: string }
  | { kind: "ref"; repo: string; ref: string; from?: string; to: string; how: "update-ref" | "keep" | "soft" | "mixed" }
  | { kind: "index"; repo: string; path: string; from?: string; to?: string }
  | { kind: "config"; repo: string; key: string; value: string }
  | { kind: "stash"; repo: string; from: { sha: string; message: string }[]; to: { sha: string; message: string }[] };

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
  move(p: string, what = "what was there (the call's change, or an edit made since)"): string {
    const to = this.nameFor(p);
    this.r.setAside.push({ path: p, keptAt: to, what });
    if (!this.r.dryRun) fs.renameSync(p, to);
    return to;
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
    // A copy of what the store keeps: an undo removes it (nothing is lost).
    this.step({ kind: "path", path: to, before: { none: true } });
  }

  /** Records one change the restore made (never in a dry run: nothing changed). */
  step(s: RestoreStep): void {
    if (!this.r.dryRun) this.r.steps.push(s);
  }
}

export function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

