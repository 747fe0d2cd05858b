// Puts a snapshot back: the kept version always goes IN PLACE, and nothing is ever lost — what is
// there now, when it differs (the call's own change, or an edit made since), is moved aside first
// under a name that says so (NAME.before-restore-ID) and reported. A file already as kept counts
// as restored, so restoring twice changes nothing the second time, and several snapshots of one
// file can be restored in either order (each sets the then-current version aside). Git state:
// restore-git.ts.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { KeptFile, SnapshotManifest } from "./manifest";
import { Aside, lstat, type RestoreReport } from "./restore-aside";
import { restoreGit } from "./restore-git";
import type { SnapshotStore } from "./store";
import { recordRestore } from "./undo-restore";

export type { RestoreReport };

export function restoreSnapshot(store: SnapshotStore, m: SnapshotManifest, o: { dryRun?: boolean } = {}): RestoreReport {
  const r: RestoreReport = { restored: [], unchanged: [], setAside: [], conflicts: [], commands: [], notKept: m.notKept ?? [], dryRun: !!o.dryRun, steps: [] };
  const dir = store.folderOf(m.id);
  const aside = new Aside(m.id, r);
  for (const f of m.files) restoreFile(f, dir, aside, r);
  // Folders last, deepest first: their mode (which may forbid writing into them) and time go on
  // once their content is back. chmod, not mkdir's mode: the umask must not decide it.
  for (const f of [...m.files].reverse()) {
    if (f.type !== "dir" || r.dryRun) continue;
    try {
      fs.chmodSync(f.path, f.mode);
    } catch {
      /* not ours to change: content matters more than its mode */
    }
    setTimes(f);
  }
  for (const g of m.git) restoreGit(g, dir, m, aside, r);
  // Undo restore puts back what this restore replaced (undo-restore.ts).
  if (!r.dryRun && r.steps.length) recordRestore(store, m.id, r.steps);
  return r;
}

function restoreFile(f: KeptFile, dir: string, aside: Aside, r: RestoreReport): void {
  const now = lstat(f.path);
  // What was there goes aside (and the undo brings it back from there), or nothing was there.
  const away = (what?: string) => (now ? { aside: aside.move(f.path, what) } : { none: true as const });
  if (f.type === "dir") {
    if (now?.isDirectory()) return;
    const before = away();
    if (!r.dryRun) fs.mkdirSync(f.path, { recursive: true });
    aside.step({ kind: "path", path: f.path, before });
    return;
  }
  if (f.type === "symlink") {
    if (now?.isSymbolicLink() && fs.readlinkSync(f.path) === f.link) return void r.unchanged.push(f.path);
    const before = away();
    r.restored.push(f.path);
    if (r.dryRun) return;
    fs.mkdirSync(path.dirname(f.path), { recursive: true });
    fs.symlinkSync(f.link!, f.path);
    aside.step({ kind: "path", path: f.path, before });
    return;
  }
  if (f.type === "fifo") {
    if (now?.isFIFO()) return void r.unchanged.push(f.path);
    const before = away();
    r.restored.push(f.path);
    if (r.dryRun) return;
    fs.mkdirSync(path.dirname(f.path), { recursive: true });
    // Node has no mkfifo: coreutils' does it, with the kept mode (not the umask's).
    execFileSync("mkfifo", ["-m", (f.mode & 0o7777).toString(8), "--", f.path]);
    aside.step({ kind: "path", path: f.path, before });
    return;
  }
  if (f.linkOf) {
    // A second name of one file: a link to the first name again, as it was.
    const first = lstat(f.linkOf);
    if (now && first && now.ino === first.ino && now.dev === first.dev) return void r.unchanged.push(f.path);
    const before = away();
    r.restored.push(f.path);
    if (r.dryRun) return;
    fs.linkSync(f.linkOf, f.path);
    aside.step({ kind: "path", path: f.path, before });
    return;
  }
  const kept = path.join(dir, f.stored!);
  if (now?.isFile() && sameContent(kept, f.path)) {
    if ((now.mode & 0o7777) === f.mode) return void r.unchanged.push(f.path);
    r.restored.push(`${f.path} (mode ${f.mode.toString(8)})`);
    if (r.dryRun) return;
    fs.chmodSync(f.path, f.mode);
    aside.step({ kind: "path", path: f.path, before: { chmod: now.mode & 0o7777 } });
    return;
  }
  const before = now ? { aside: setAsideFile(f, dir, now, aside) } : { none: true as const };
  r.restored.push(f.path);
  if (r.dryRun) return;
  fs.mkdirSync(path.dirname(f.path), { recursive: true });
  putInPlace(kept, f.path, f);
  aside.step({ kind: "path", path: f.path, before });
}

/**
 * What is there now goes aside. With the call's own version (its post-tool event), the message
 * says which it is; when it is a later edit, the call's version is kept beside it as well.
 */
function setAsideFile(f: KeptFile, dir: string, now: fs.Stats, aside: Aside): string {
  if (!f.after) return aside.move(f.path);
  const after = path.join(dir, f.after.stored);
  if (now.isFile() && sameContent(after, f.path)) return aside.move(f.path, "the call's change");
  const to = aside.move(f.path, "an edit made after the call");
  aside.callVersion(f.path, after, f.after.mode);
  return to;
}

/**
 * The kept file copied to `target` whole or not at all: copied under a temporary name beside it
 * with its mode and time, then linked into place. An editor, an agent or a test that sees the
 * file sees all of it (a copy straight to the target is seen empty first), and a file that
 * appeared at the target since the check is never overwritten (EEXIST: the restore fails and
 * says so). A copy, never a link to the kept file: the kept version must not change when the
 * restored file is edited. Where hard links are not supported, a rename puts it in place.
 */
function putInPlace(kept: string, target: string, f: KeptFile): void {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.dc-restore-${process.pid}-${Date.now()}`);
  fs.copyFileSync(kept, temp, fs.constants.COPYFILE_FICLONE);
  try {
    fs.chmodSync(temp, f.mode);
    setTimes({ ...f, path: temp });
    try {
      fs.linkSync(temp, target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") throw e;
      fs.renameSync(temp, target);
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function sameContent(a: string, b: string): boolean {
  const sa = fs.statSync(a);
  const sb = fs.statSync(b);
  if (sa.size !== sb.size) return false;
  if (sa.ino === sb.ino && sa.dev === sb.dev) return true;
  return fs.readFileSync(a).equals(fs.readFileSync(b));
}

function setTimes(f: { path: string; mtimeMs: number }): void {
  try {
    const t = new Date(f.mtimeMs);
    fs.utimesSync(f.path, t, t);
  } catch {
    /* the folder is gone or not ours: content matters more than its time */
  }
}
