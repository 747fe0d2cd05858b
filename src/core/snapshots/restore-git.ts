// Puts kept git state back, whole: the branch a reset or a rebase moved gets its old position when
// nothing was committed on it since (else the command is printed and nothing moves); uncommitted
// changes are re-applied path by path with their modes (the kept version in place, what is there
// now set aside); deleted branches come back with their configuration (upstream…), stash entries
// at their place in the list; the remote is never pushed: the command that would is printed.
import * as fs from "node:fs";
import * as path from "node:path";
import { EMPTY_TREE, git, gitBuffer, gitMaybe } from "./git-run";
import type { KeptGit, KeptWorktree, SnapshotManifest } from "./manifest";
import { lstat, type Aside, type RestoreReport, type RestoreStep } from "./restore-aside";

export function restoreGit(g: KeptGit, dir: string, m: SnapshotManifest, aside: Aside, r: RestoreReport): void {
  const objects = path.join(dir, "objects");
  const run = (args: string[], input?: string) => git(args, { cwd: g.repo, input });
  // The snapshot's objects become the repository's (loose objects and packs are content-addressed:
  // copying them in never changes an object the repository has).
  if (!r.dryRun && fs.existsSync(objects)) importObjects(objects, path.resolve(g.repo, run(["rev-parse", "--git-path", "objects"])));
  const read = { cwd: g.repo, env: { GIT_ALTERNATE_OBJECT_DIRECTORIES: objects } };
  // The branch first: the uncommitted changes were made on top of its old position.
  if (g.head) restoreHead(g.repo, g.head, Date.parse(m.time), r, aside, g.worktree?.index);
  if (g.worktree) restoreWorktree(g.repo, g.worktree, read, aside, r);
  for (const b of g.branches ?? []) restoreBranch(g.repo, b, m, r, aside);
  if (g.stashes?.length) restoreStashes(g.repo, g.stashes, r, aside);
  if (g.remote) {
    for (const ref of g.remote.refs) r.commands.push(`git -C ${shellQuote(g.repo)} push --force-with-lease=refs/heads/${ref.ref} ${g.remote.remote} ${ref.tip}:refs/heads/${ref.ref}`);
  }
}

/**
 * The branch a reset or a rebase moved. Moved back when nothing was committed on it since: its
 * position now is behind the kept one (a reset back), or the call's own move is the only one in
 * its reflog since the snapshot (a rebase). Otherwise later work sits on it: moving it would
 * drop that work from the branch, so the command is printed and nothing moves.
 */
function restoreHead(repo: string, h: { branch: string; tip: string; mode?: "soft" | "mixed" }, since: number, r: RestoreReport, aside: Aside, keptIndex?: string): void {
  const maybe = (args: string[]) => gitMaybe(args, { cwd: repo });
  const ref = `refs/heads/${h.branch}`;
  const now = maybe(["rev-parse", "-q", "--verify", `${ref}^{commit}`]);
  const label = `branch ${h.branch} at ${h.tip.slice(0, 12)}`;
  if (now === h.tip) return void r.unchanged.push(label);
  const checkedOut = maybe(["symbolic-ref", "-q", "HEAD"]) === ref;
  const command = checkedOut ? `git -C ${shellQuote(repo)} reset --keep ${h.tip}` : `git -C ${shellQuote(repo)} update-ref ${ref} ${h.tip}`;
  const behind = !now || maybe(["merge-base", "--is-ancestor", now, h.tip]) !== undefined;
  if (!behind && !onlyOneMoveSince(repo, ref, h.tip, now, since)) {
    r.conflicts.push({ path: `branch ${h.branch}`, beside: `(commits were made on it since the snapshot: nothing moved; to put it back at ${h.tip.slice(0, 12)} anyway: ${command})` });
    return;
  }
  if (r.dryRun) return void r.restored.push(label);
  try {
    if (checkedOut && now) moveCheckedOut(repo, h, now, keptIndex);
    else git(["update-ref", ref, h.tip, ...(now ? [now] : [""])], { cwd: repo });
    r.restored.push(label);
    aside.step({ kind: "ref", repo, ref, from: now, to: h.tip, how: checkedOut && now ? (h.mode ?? "keep") : "update-ref" });
  } catch (e) {
    r.conflicts.push({ path: `branch ${h.branch}`, beside: `(not moved: ${String((e as { stderr?: Buffer }).stderr ?? (e as Error).message).trim().split("\n")[0]}; to put it back at ${h.tip.slice(0, 12)}: ${command})` });
  }
}

/**
 * Moves the checked-out branch back to `tip` without losing anything in the index or the work
 * tree. `reset --keep` moves the branch and the work tree together and refuses to touch a file
 * changed since (a --hard reset's case). After a --soft reset the index already is `tip`'s: only
 * the branch moves (--soft); after a --mixed one the work tree is: the branch and the index move.
 */
function moveCheckedOut(repo: string, h: { tip: string; mode?: "soft" | "mixed" }, now: string, keptIndex: string | undefined): void {
  const run = (args: string[]) => git(args, { cwd: repo });
  // --soft touched neither the index nor the work tree: only the branch goes back.
  if (h.mode === "soft") return void run(["reset", "-q", "--soft", h.tip]);
  if (h.mode === "mixed") {
    // --mixed rewrote the index to the commit it moved to: the kept index comes back when the
    // index is still as the call left it (nothing staged since), else the branch alone moves.
    const untouched = gitMaybe(["diff", "--cached", "--quiet", now, "--"], { cwd: repo }) !== undefined;
    run(["reset", "-q", "--soft", h.tip]);
    if (untouched && keptIndex) run(["read-tree", keptIndex]);
    return;
  }
  run(["reset", "-q", "--keep", h.tip]);
}

/** The branch's reflog since the snapshot holds one move, from `from` to `to`: the call's own. */
function onlyOneMoveSince(repo: string, ref: string, from: string, to: string | undefined, since: number): boolean {
  const log = gitMaybe(["log", "-g", "--date=unix", "--format=%H %gd", ref], { cwd: repo });
  if (!log || !to) return false;
  const entries = log.split("\n").map((l) => ({ sha: l.split(" ")[0], at: Number(/@\{(\d+)\}$/.exec(l)?.[1] ?? 0) * 1000 }));
  // Newest first: the move to where it is now, made after the snapshot (reflog times are whole
  // seconds), right after the kept position: nothing else happened on the branch in between.
  return entries[0]?.sha === to && entries[0].at >= Math.floor(since / 1000) * 1000 && entries[1]?.sha === from;
}

function restoreBranch(repo: string, b: { name: string; tip: string; config?: [string, string][] }, m: SnapshotManifest, r: RestoreReport, aside: Aside): void {
  const run = (args: string[]) => git(args, { cwd: repo });
  const maybe = (args: string[]) => gitMaybe(args, { cwd: repo });
  const ref = `refs/heads/${b.name}`;
  const now = maybe(["rev-parse", "-q", "--verify", ref]);
  const label = `branch ${b.name} at ${b.tip.slice(0, 12)}`;
  if (now === b.tip) r.unchanged.push(label);
  else if (!now) {
    r.restored.push(label);
    if (!r.dryRun) run(["update-ref", ref, b.tip, ""]);
    aside.step({ kind: "ref", repo, ref, to: b.tip, how: "update-ref" });
  } else if (maybe(["symbolic-ref", "-q", "HEAD"]) === ref) {
    // Checked out (`checkout -B`, `switch -C`): moved back like a reset's branch, with the work tree.
    restoreHead(repo, { branch: b.name, tip: b.tip }, Date.parse(m.time), r, aside);
  } else {
    // The kept tip in place; where the branch is now stays reachable under a name that says so.
    const other = `${b.name}.before-restore-${m.id}`;
    r.restored.push(label);
    r.setAside.push({ path: `branch ${b.name}`, keptAt: `branch ${other}`, what: "where the branch was" });
    if (!r.dryRun) {
      run(["update-ref", `refs/heads/${other}`, now]);
      run(["update-ref", ref, b.tip, now]);
    }
    aside.step({ kind: "ref", repo, ref: `refs/heads/${other}`, to: now, how: "update-ref" });
    aside.step({ kind: "ref", repo, ref, from: now, to: b.tip, how: "update-ref" });
  }
  // branch.NAME.* as it was: upstream, merge, rebase… (a value already set is left as it is).
  for (const [key, value] of b.config ?? []) {
    if ((maybe(["config", "--local", "--get-all", key]) ?? "").split("\n").includes(value)) continue;
    r.restored.push(`config ${key}`);
    if (!r.dryRun) run(["config", "--local", "--add", key, value]);
    aside.step({ kind: "config", repo, key, value });
  }
}

/**
 * Stash entries at their place in the list: entries made since go on top, the kept ones follow
 * in their kept order. git has no "insert at": the list is rebuilt (every commit checked to exist
 * first, so a failure loses nothing).
 */
function restoreStashes(repo: string, kept: { sha: string; message: string }[], r: RestoreReport, aside: Aside): void {
  const run = (args: string[]) => git(args, { cwd: repo });
  const now = stashList(repo);
  const keptShas = new Set(kept.map((s) => s.sha));
  const present = new Set(now.map((s) => s.sha));
  const wanted = [...now.filter((s) => !keptShas.has(s.sha)), ...kept];
  for (const s of kept) (present.has(s.sha) ? r.unchanged : r.restored).push(`stash ${s.sha.slice(0, 12)}${present.has(s.sha) ? "" : ` (${s.message})`}`);
  if (r.dryRun || wanted.map((s) => s.sha).join() === now.map((s) => s.sha).join()) return;
  for (const s of wanted) run(["cat-file", "-e", `${s.sha}^{commit}`]);
  if (now.length) run(["update-ref", "-d", "refs/stash"]);
  // Oldest first: `stash store` puts each on top.
  for (const s of [...wanted].reverse()) run(["stash", "store", "-m", s.message, s.sha]);
  aside.step({ kind: "stash", repo, from: now, to: wanted });
}

/** The stash list, newest first. */
export function stashList(repo: string): { sha: string; message: string }[] {
  return (gitMaybe(["stash", "list", "--format=%H%x00%gs"], { cwd: repo }) ?? "")
    .split("\n")
    .filter(Boolean)
    .map((l) => ({ sha: l.split("\0")[0], message: l.split("\0")[1] ?? "" }));
}

/** What the index holds at `p` ("MODE SHA"), or undefined. */
export function stagedNow(repo: string, p: string): string | undefined {
  const ls = gitMaybe(["ls-files", "-s", "--", p], { cwd: repo }) ?? "";
  return ls ? `${ls.split(" ")[0]} ${ls.split(" ")[1]}` : undefined;
}

interface TreeEntry {
  path: string;
  oldMode: string;
  newMode: string;
  oldSha: string;
  newSha: string;
}

/**
 * Re-applies the uncommitted changes: each path the snapshot's work tree (or index) changed from
 * its HEAD gets the kept content and mode; what is there now, when it is neither HEAD's version
 * nor the kept one, is set aside first. A mode-only change (chmod +x) is a change like any other.
 */
function restoreWorktree(repo: string, w: KeptWorktree, read: { cwd: string; env: NodeJS.ProcessEnv }, aside: Aside, r: RestoreReport): void {
  const changed = (a: string, b: string): TreeEntry[] => {
    const list = gitBuffer(["diff-tree", "-r", "-z", "--no-renames", "--raw", a, b], read).toString("utf8").split("\0").filter(Boolean);
    const out: TreeEntry[] = [];
    for (let i = 0; i + 1 < list.length; i += 2) {
      const [oldMode, newMode, oldSha, newSha] = list[i].slice(1).split(" ");
      out.push({ path: list[i + 1], oldMode, newMode, oldSha, newSha });
    }
    return out;
  };
  const ZERO = /^0+$/;
  // A file's git identity: its blob and its mode (100644, 100755, 120000).
  const current = (abs: string): string | undefined => {
    const st = lstat(abs);
    if (!st) return undefined;
    if (st.isSymbolicLink()) return `120000 ${git(["hash-object", "--stdin"], { cwd: repo, input: fs.readlinkSync(abs) })}`;
    if (!st.isFile()) return "dir";
    return `${st.mode & 0o100 ? "100755" : "100644"} ${git(["hash-object", "--no-filters", "--", abs], { cwd: repo })}`;
  };
  for (const e of changed(w.base || EMPTY_TREE, w.tree)) {
    const abs = path.join(repo, e.path);
    const now = current(abs);
    const wanted = ZERO.test(e.newSha) ? undefined : `${e.newMode} ${e.newSha}`;
    const base = ZERO.test(e.oldSha) ? undefined : `${e.oldMode} ${e.oldSha}`;
    if (now === wanted) {
      r.unchanged.push(abs);
      continue;
    }
    if (wanted === undefined) {
      // Deleted in the kept state: as HEAD has it now, it goes; changed since, it stays.
      if (now === base) {
        r.restored.push(abs);
        if (!r.dryRun) fs.rmSync(abs, { force: true });
        aside.step({ kind: "path", path: abs, before: { blob: e.oldSha, mode: e.oldMode, repo } });
      }
      continue;
    }
    // HEAD's version comes back from the repository on an undo; anything else from beside it.
    let before: Extract<RestoreStep, { kind: "path" }>["before"] = { none: true };
    if (now !== undefined && now !== base) before = { aside: aside.move(abs) };
    else if (now !== undefined) {
      before = { blob: e.oldSha, mode: e.oldMode, repo };
      if (!r.dryRun) fs.rmSync(abs, { force: true });
    }
    r.restored.push(abs);
    if (r.dryRun) continue;
    writeBlob(read, e.newSha, e.newMode, abs);
    aside.step({ kind: "path", path: abs, before });
  }
  // The index: staged content comes back staged (its objects are the repository's now).
  for (const e of changed(w.base || EMPTY_TREE, w.index)) {
    const now = stagedNow(repo, e.path);
    const wanted = ZERO.test(e.newSha) ? undefined : `${e.newMode} ${e.newSha}`;
    const base = ZERO.test(e.oldSha) ? undefined : `${e.oldMode} ${e.oldSha}`;
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
    else git(["update-index", "--add", "--cacheinfo", `${e.newMode},${e.newSha},${e.path}`], { cwd: repo });
    aside.step({ kind: "index", repo, path: e.path, from: now, to: wanted });
  }
}

export function writeBlob(read: { cwd: string; env: NodeJS.ProcessEnv }, sha: string, mode: string, abs: string): void {
  const content = gitBuffer(["cat-file", "blob", sha], read);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  if (mode === "120000") {
    fs.symlinkSync(content.toString("utf8"), abs);
    return;
  }
  fs.writeFileSync(abs, content);
  fs.chmodSync(abs, mode === "100755" ? 0o755 : 0o644);
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

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}
