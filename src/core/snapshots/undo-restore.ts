// Undo restore: puts back exactly what the last restore of a snapshot replaced. Each restore
// records what it changed (restore.ts, restore-git.ts: RestoreStep) in <snapshot>/restores.json,
// newest last; the undo takes the newest record back in reverse order: set-aside files return to
// their place, what the restore created goes, HEAD's blobs are rewritten from the repository,
// refs, index entries, config values and the stash list get their old values. Nothing changed
// since the restore is ever overwritten: the undo first checks every path and ref against what
// the restore left, and when one differs it stops before changing anything and says which (the
// same rule as restore: nothing lost, and a clear message). One path for the CLI and the panel.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { writeFileAtomic } from "../state-dir";
import { git, gitMaybe } from "./git-run";
import { lstat, type RestoreStep } from "./restore-aside";
import { stagedNow, stashList, writeBlob } from "./restore-git";
import type { SnapshotStore } from "./store";

interface RestoreRecord {
  time: string;
  steps: RestoreStep[];
}

export interface UndoRestoreReport {
  /** What came back as it was before the restore (from beside it, from the repository, its mode). */
  putBack: string[];
  /** What the restore had created: removed (copies of what the store keeps: nothing is lost). */
  removed: string[];
  /** Why nothing was undone: what changed since the restore (or a set-aside copy that is gone). */
  changed: { path: string; why: string }[];
  /** No restore of this snapshot is left to undo. */
  nothing: boolean;
  dryRun: boolean;
}

const RECORDS = "restores.json";

/** Called by a restore that changed something: its steps, with what it left at each path. */
export function recordRestore(store: SnapshotStore, id: string, steps: RestoreStep[]): void {
  for (const s of steps) if (s.kind === "path") s.put = identity(s.path);
  writeRecords(store, id, [...recordsOf(store, id), { time: new Date().toISOString(), steps }]);
}

/** A restore of snapshot `id` can be undone (the feed then offers Undo restore). */
export function canUndoRestore(store: SnapshotStore, id: string): boolean {
  return recordsOf(store, id).length > 0;
}

export function undoRestore(store: SnapshotStore, id: string, o: { dryRun?: boolean } = {}): UndoRestoreReport {
  const r: UndoRestoreReport = { putBack: [], removed: [], changed: [], nothing: false, dryRun: !!o.dryRun };
  const records = recordsOf(store, id);
  const last = records.at(-1);
  if (!last) return { ...r, nothing: true };
  const steps = [...last.steps].reverse();
  // Every check first: one change since the restore and nothing is done.
  for (const s of steps) r.changed.push(...changedSince(s, last.steps));
  if (r.changed.length) return r;
  for (const s of steps) undoStep(s, r);
  if (!r.dryRun) writeRecords(store, id, records.slice(0, -1));
  return r;
}

/** What differs from what the restore left (its content and mode, a ref's tip, a staged entry). */
function changedSince(s: RestoreStep, all: RestoreStep[]): { path: string; why: string }[] {
  const out: { path: string; why: string }[] = [];
  switch (s.kind) {
    case "path": {
      if (identity(s.path) !== s.put) out.push({ path: s.path, why: "changed since the restore" });
      else if (s.put === "dir") {
        // A folder the restore made goes only when it holds nothing but what the restore put there.
        const ours = new Set(all.filter((x) => x.kind === "path").map((x) => x.path));
        const extra = fs.readdirSync(s.path).filter((n) => !ours.has(path.join(s.path, n)));
        if (extra.length) out.push({ path: s.path, why: `holds files made since the restore (${extra.join(", ")})` });
      }
      if ("aside" in s.before && !lstat(s.before.aside)) out.push({ path: s.before.aside, why: "is gone: what the restore set aside there cannot come back" });
      return out;
    }
    case "ref":
      if (gitMaybe(["rev-parse", "-q", "--verify", s.ref], { cwd: s.repo }) !== s.to) out.push({ path: `branch ${branchName(s.ref)}`, why: "moved since the restore" });
      return out;
    case "index":
      if (stagedNow(s.repo, s.path) !== s.to) out.push({ path: `${s.path} (staged)`, why: "staged differently since the restore" });
      return out;
    case "stash":
      if (stashList(s.repo).map((x) => x.sha).join() !== s.to.map((x) => x.sha).join()) out.push({ path: "the stash list", why: "changed since the restore" });
      return out;
    case "config":
      return out;
  }
}

function undoStep(s: RestoreStep, r: UndoRestoreReport): void {
  const run = (repo: string, args: string[]) => git(args, { cwd: repo });
  switch (s.kind) {
    case "path": {
      const b = s.before;
      if ("chmod" in b) {
        r.putBack.push(s.path);
        if (!r.dryRun) fs.chmodSync(s.path, b.chmod);
        return;
      }
      ("none" in b ? r.removed : r.putBack).push(s.path);
      if (r.dryRun) return;
      // A file set aside goes back over the restored file in one rename: the name is never
      // missing, for an editor or a build watching it. A folder on either side is removed first.
      if ("aside" in b && s.put !== "dir" && !fs.lstatSync(b.aside).isDirectory()) return void fs.renameSync(b.aside, s.path);
      if (s.put === "dir") fs.rmdirSync(s.path);
      else fs.rmSync(s.path, { force: true });
      if ("aside" in b) fs.renameSync(b.aside, s.path);
      else if ("blob" in b) writeBlob({ cwd: b.repo, env: {} }, b.blob, b.mode, s.path);
      return;
    }
    case "ref": {
      const label = `branch ${branchName(s.ref)}`;
      (s.from ? r.putBack : r.removed).push(s.from ? `${label} at ${s.from.slice(0, 12)}` : label);
      if (r.dryRun) return;
      if (!s.from) return void run(s.repo, ["update-ref", "-d", s.ref, s.to]);
      const checkedOut = gitMaybe(["symbolic-ref", "-q", "HEAD"], { cwd: s.repo }) === s.ref;
      // Back the way the restore moved it: the work tree with the branch (--keep refuses to touch a
      // file changed since), or the branch alone (--soft), or the branch and the index (--mixed).
      if (checkedOut && s.how !== "update-ref") run(s.repo, ["reset", "-q", `--${s.how}`, s.from]);
      else run(s.repo, ["update-ref", s.ref, s.from, s.to]);
      return;
    }
    case "index":
      r.putBack.push(`${s.path} (staged)`);
      if (r.dryRun) return;
      if (!s.from) run(s.repo, ["update-index", "--force-remove", "--", s.path]);
      else run(s.repo, ["update-index", "--add", "--cacheinfo", `${s.from.split(" ")[0]},${s.from.split(" ")[1]},${s.path}`]);
      return;
    case "config":
      r.removed.push(`config ${s.key}`);
      if (!r.dryRun) gitMaybe(["config", "--local", "--fixed-value", "--unset", s.key, s.value], { cwd: s.repo });
      return;
    case "stash":
      r.putBack.push("the stash list");
      if (r.dryRun) return;
      if (s.to.length) run(s.repo, ["update-ref", "-d", "refs/stash"]);
      // Oldest first: `stash store` puts each on top.
      for (const x of [...s.from].reverse()) run(s.repo, ["stash", "store", "-m", x.message, x.sha]);
      return;
  }
}

/** What is at `p`, as a comparable string: kind, mode and content (a hash), or a link's target. */
function identity(p: string): string {
  const st = lstat(p);
  if (!st) return "absent";
  if (st.isSymbolicLink()) return `symlink ${fs.readlinkSync(p)}`;
  if (st.isDirectory()) return "dir";
  const mode = (st.mode & 0o7777).toString(8);
  if (st.isFIFO()) return `fifo ${mode}`;
  if (!st.isFile()) return "other";
  return `file ${mode} ${crypto.createHash("sha256").update(fs.readFileSync(p)).digest("hex")}`;
}

function branchName(ref: string): string {
  return ref.replace(/^refs\/heads\//, "");
}

function recordsOf(store: SnapshotStore, id: string): RestoreRecord[] {
  try {
    return JSON.parse(fs.readFileSync(path.join(store.folderOf(id), RECORDS), "utf8")) as RestoreRecord[];
  } catch {
    return [];
  }
}

function writeRecords(store: SnapshotStore, id: string, records: RestoreRecord[]): void {
  const file = path.join(store.folderOf(id), RECORDS);
  if (records.length) writeFileAtomic(file, JSON.stringify(records) + "\n");
  else fs.rmSync(file, { force: true });
}
