// Puts a snapshot back. Never overwrites what changed since: a file that exists and differs from
// the kept version gets the kept version beside it (NAME.restored-ID) and is reported as a
// conflict; a file already identical counts as restored. So restoring twice changes nothing the
// second time. Git: uncommitted changes are re-applied path by path on top of the current state,
// branch tips and stash entries re-created; the remote is never pushed: the command that would
// push its old tip back is printed.
import * as fs from "node:fs";
import * as path from "node:path";
import { EMPTY_TREE, git, gitBuffer, gitMaybe } from "./git-run";
import type { KeptFile, KeptGit, KeptWorktree, SnapshotManifest } from "./manifest";
import type { SnapshotStore } from "./store";

export interface RestoreReport {
  /** What was (or, in a dry run, would be) put back. */
  restored: string[];
  /** Already as kept: nothing to do. */
  unchanged: string[];
  /** Changed since the snapshot: the kept version was put beside it. */
  conflicts: { path: string; beside: string }[];
  /** What the guard does not do itself (a push to the remote): the exact command. */
  commands: string[];
  dryRun: boolean;
}

export function restoreSnapshot(store: SnapshotStore, m: SnapshotManifest, o: { dryRun?: boolean } = {}): RestoreReport {
  const r: RestoreReport = { restored: [], unchanged: [], conflicts: [], commands: [], dryRun: !!o.dryRun };
  const dir = store.folderOf(m.id);
  const beside = (p: string) => `${p}.restored-${m.id}`;
  for (const f of m.files) restoreFile(f, dir, beside, r);
  // Folders last: their modification times change while their content is put back.
  for (const f of [...m.files].reverse()) if (f.type === "dir" && !r.dryRun) setTimes(f);
  for (const g of m.git) restoreGit(g, dir, m.id, beside, r);
  return r;
}

function restoreFile(f: KeptFile, dir: string, beside: (p: string) => string, r: RestoreReport): void {
  const now = lstat(f.path);
  if (f.type === "dir") {
    if (now?.isDirectory()) return;
    if (now) return void r.conflicts.push({ path: f.path, beside: "(not a folder now: nothing written)" });
    if (!r.dryRun) fs.mkdirSync(f.path, { recursive: true, mode: f.mode });
    return;
  }
  if (f.type === "symlink") {
    if (now?.isSymbolicLink() && fs.readlinkSync(f.path) === f.link) return void r.unchanged.push(f.path);
    if (now) return void r.conflicts.push({ path: f.path, beside: "(a different file now: nothing written)" });
    r.restored.push(f.path);
    if (!r.dryRun) fs.symlinkSync(f.link!, f.path);
    return;
  }
  const kept = path.join(dir, f.stored!);
  if (now && now.isFile() && sameContent(kept, f.path)) return void r.unchanged.push(f.path);
  const target = now ? beside(f.path) : f.path;
  if (now) {
    r.conflicts.push({ path: f.path, beside: target });
    if (lstat(target)?.isFile() && sameContent(kept, target)) return;
  } else r.restored.push(f.path);
  if (r.dryRun) return;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  putInPlace(kept, target, f);
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

function restoreGit(g: KeptGit, dir: string, id: string, beside: (p: string) => string, r: RestoreReport): void {
  const objects = path.join(dir, "objects");
  const run = (args: string[], input?: string) => git(args, { cwd: g.repo, input });
  const maybe = (args: string[]) => gitMaybe(args, { cwd: g.repo });
  // The snapshot's objects become the repository's (loose objects and packs are content-addressed:
  // copying them in never changes an object the repository has).
  if (!r.dryRun && fs.existsSync(objects)) importObjects(objects, path.resolve(g.repo, run(["rev-parse", "--git-path", "objects"])));
  const read = { cwd: g.repo, env: { GIT_ALTERNATE_OBJECT_DIRECTORIES: objects } };
  if (g.worktree) restoreWorktree(g.repo, g.worktree, read, beside, r);
  for (const b of g.branches ?? []) {
    const now = maybe(["rev-parse", "-q", "--verify", `refs/heads/${b.name}`]);
    const label = `branch ${b.name} at ${b.tip.slice(0, 12)}`;
    if (now === b.tip) r.unchanged.push(label);
    else if (!now) {
      r.restored.push(label);
      if (!r.dryRun) run(["update-ref", `refs/heads/${b.name}`, b.tip, ""]);
    } else {
      const other = `${b.name}.restored-${id}`;
      r.conflicts.push({ path: `branch ${b.name}`, beside: `branch ${other}` });
      if (!r.dryRun && maybe(["rev-parse", "-q", "--verify", `refs/heads/${other}`]) !== b.tip) run(["update-ref", `refs/heads/${other}`, b.tip]);
    }
  }
  if (g.stashes?.length) {
    const present = new Set((maybe(["stash", "list", "--format=%H"]) ?? "").split("\n"));
    // Oldest first, so the stack comes back in its order.
    for (const s of [...g.stashes].reverse()) {
      if (present.has(s.sha)) {
        r.unchanged.push(`stash ${s.sha.slice(0, 12)}`);
        continue;
      }
      r.restored.push(`stash ${s.sha.slice(0, 12)} (${s.message})`);
      if (!r.dryRun) run(["stash", "store", "-m", s.message, s.sha]);
    }
  }
  if (g.remote) {
    for (const ref of g.remote.refs) r.commands.push(`git -C ${shellQuote(g.repo)} push --force-with-lease=refs/heads/${ref.ref} ${g.remote.remote} ${ref.tip}:refs/heads/${ref.ref}`);
  }
}

/**
 * Re-applies the uncommitted changes: each path the snapshot's work tree (or index) changed from
 * its HEAD gets the kept content when the path is as HEAD has it now, is left alone when it is
 * already as kept, and gets the kept version beside it otherwise.
 */
function restoreWorktree(repo: string, w: KeptWorktree, read: { cwd: string; env: NodeJS.ProcessEnv }, beside: (p: string) => string, r: RestoreReport): void {
  const changed = (a: string, b: string) =>
    gitBuffer(["diff-tree", "-r", "-z", "--no-renames", "--raw", a, b], read)
      .toString("utf8")
      .split("\0")
      .filter(Boolean);
  const entries = (list: string[]) => {
    const out: { path: string; oldSha: string; newSha: string; newMode: string }[] = [];
    for (let i = 0; i + 1 < list.length; i += 2) {
      const [, newMode, oldSha, newSha] = list[i].slice(1).split(" ");
      out.push({ path: list[i + 1], oldSha, newSha, newMode });
    }
    return out;
  };
  const ZERO = /^0+$/;
  const currentBlob = (abs: string): string | undefined => {
    const st = lstat(abs);
    if (!st) return undefined;
    if (st.isSymbolicLink()) return git(["hash-object", "--stdin"], { cwd: repo, input: fs.readlinkSync(abs) });
    return st.isFile() ? git(["hash-object", "--no-filters", "--", abs], { cwd: repo }) : "dir";
  };
  for (const e of entries(changed(w.base || EMPTY_TREE, w.tree))) {
    const abs = path.join(repo, e.path);
    const now = currentBlob(abs);
    const wanted = ZERO.test(e.newSha) ? undefined : e.newSha;
    const base = ZERO.test(e.oldSha) ? undefined : e.oldSha;
    if (now === wanted) {
      r.unchanged.push(abs);
      continue;
    }
    if (now === base) {
      r.restored.push(abs);
      if (r.dryRun) continue;
      if (wanted === undefined) fs.rmSync(abs, { force: true });
      else writeBlob(repo, read, wanted, e.newMode, abs);
      continue;
    }
    if (wanted === undefined) continue;
    const other = beside(abs);
    r.conflicts.push({ path: abs, beside: other });
    if (!r.dryRun && currentBlob(other) !== wanted) writeBlob(repo, read, wanted, e.newMode, other);
  }
  // The index: staged content comes back staged (its objects are the repository's now).
  for (const e of entries(changed(w.base || EMPTY_TREE, w.index))) {
    const ls = gitMaybe(["ls-files", "-s", "--", e.path], { cwd: repo }) ?? "";
    const now = ls ? ls.split(" ")[1] : undefined;
    const wanted = ZERO.test(e.newSha) ? undefined : e.newSha;
    const base = ZERO.test(e.oldSha) ? undefined : e.oldSha;
    const label = `${e.path} (staged)`;
    if (now === wanted) {
      r.unchanged.push(label);
      continue;
    }
    if (now !== base) {
      r.conflicts.push({ path: label, beside: "(staged differently now: the index is left as it is)" });
      continue;
    }
    r.restored.push(label);
    if (r.dryRun) continue;
    if (wanted === undefined) git(["update-index", "--force-remove", "--", e.path], { cwd: repo });
    else git(["update-index", "--add", "--cacheinfo", `${e.newMode},${wanted},${e.path}`], { cwd: repo });
  }
}

function writeBlob(repo: string, read: { cwd: string; env: NodeJS.ProcessEnv }, sha: string, mode: string, abs: string): void {
  const content = gitBuffer(["cat-file", "blob", sha], read);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  if (mode === "120000") {
    fs.rmSync(abs, { force: true });
    fs.symlinkSync(content.toString("utf8"), abs);
    return;
  }
  fs.writeFileSync(abs, content);
  fs.chmodSync(abs, mode === "100755" ? 0o755 : 0o644);
  void repo;
}

function importObjects(from: string, to: string): void {
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, e.name);
    const dst = path.join(to, e.name);
    if (e.isDirectory()) {
      fs.mkdirSync(dst, { recursive: true });
      importObjects(src, dst);
    } else if (e.isFile() && !fs.existsSync(dst)) {
      fs.copyFileSync(src, dst);
    }
  }
}

function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
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

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}
