// Keeps git state a call would discard, as git objects in the snapshot's own object store
// (<snapshot>/objects), which borrows the repository's objects as an alternate: only what the
// repository does not already hold is written, and nothing in the repository points at it (no
// ref, no reflog), so `git show`, `git push --mirror` or a clone from the agent cannot reach it.
//   uncommitted changes  the index's tree and the work tree's (a copy of the index + `add -A`)
//   branch tips, stashes, the remote's old tip  their commits, and the objects only they reach
import * as fs from "node:fs";
import * as path from "node:path";
import type { GitStateEffect } from "../../engine/undo/types";
import { NotKept, type Budget } from "./budget";
import { EMPTY_TREE, git, gitMaybe, privateObjects } from "./git-run";
import type { KeptGit } from "./manifest";

interface Repo {
  top: string;
  objects: string;
  index: string;
}

function repoAt(cwd: string, budget: Budget): Repo | undefined {
  const out = gitMaybe(["rev-parse", "--show-toplevel", "--git-path", "objects", "--git-path", "index"], { cwd, timeoutMs: budget.left() });
  if (!out) return undefined;
  const [top, objects, index] = out.split("\n");
  return { top, objects: path.resolve(cwd, objects), index: path.resolve(cwd, index) };
}

export class GitKeeper {
  readonly kept = new Map<string, KeptGit>();

  constructor(
    private readonly snapshotDir: () => string,
    private readonly budget: Budget,
  ) {}

  keep(e: GitStateEffect): void {
    const repo = repoAt(e.repo, this.budget);
    if (!repo) return;
    const run = (args: string[], env?: NodeJS.ProcessEnv, input?: string) => git(args, { cwd: repo.top, env, input, timeoutMs: this.timeLeft() });
    const maybe = (args: string[]) => gitMaybe(args, { cwd: repo.top, timeoutMs: this.timeLeft() });
    const entry = (): KeptGit => {
      let k = this.kept.get(repo.top);
      if (!k) this.kept.set(repo.top, (k = { repo: repo.top }));
      return k;
    };
    switch (e.kind) {
      case "worktree": {
        if (this.kept.get(repo.top)?.worktree) return;
        const head = maybe(["rev-parse", "-q", "--verify", "HEAD^{commit}"]);
        const base = head ? run(["rev-parse", `${head}^{tree}`]) : EMPTY_TREE;
        const objects = this.objectsDir();
        // A copy of the index, so neither the repository's index nor its objects are written.
        const index = path.join(this.snapshotDir(), "index");
        if (fs.existsSync(repo.index)) fs.copyFileSync(repo.index, index);
        const env = privateObjects(objects, repo.objects, { GIT_INDEX_FILE: index });
        const indexTree = run(["write-tree"], env);
        run(["add", "-A", "--", ":/"], env);
        const tree = run(["write-tree"], env);
        fs.rmSync(index, { force: true });
        if (tree === base && indexTree === base) return;
        entry().worktree = { ...(head && { head }), base, index: indexTree, tree };
        return;
      }
      case "head": {
        if (this.kept.get(repo.top)?.head) return;
        // A detached HEAD moves no branch: the reflog of HEAD is git's own undo there.
        const branch = maybe(["symbolic-ref", "-q", "--short", "HEAD"]);
        const tip = branch && maybe(["rev-parse", "-q", "--verify", `refs/heads/${branch}^{commit}`]);
        if (!branch || !tip) return;
        // The commits stay in the repository (its reflog reaches them): only the position is kept.
        entry().head = { branch, tip, ...(e.mode && { mode: e.mode }) };
        return;
      }
      case "branches": {
        const tips = e.names.map((name) => ({ name, tip: maybe(["rev-parse", "-q", "--verify", `refs/heads/${name}^{commit}`]) })).filter((b): b is { name: string; tip: string } => !!b.tip);
        if (!tips.length) return;
        this.packOnly(repo, tips.map((t) => t.tip), tips.map((t) => `refs/heads/${t.name}`));
        // `branch -D` drops branch.NAME.* (upstream, merge, rebase…) with the branch.
        const withConfig = tips.map((t) => {
          const config = branchConfig(maybe(["config", "--local", "-z", "--get-regexp", `^branch\\.${t.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.`]));
          return config.length ? { ...t, config } : t;
        });
        entry().branches = [...(entry().branches ?? []), ...withConfig];
        return;
      }
      case "stashes": {
        const list = maybe(["stash", "list", "--format=%H%x00%gs"]);
        const stashes = (list ?? "").split("\n").filter(Boolean).map((l) => ({ sha: l.split("\0")[0], message: l.split("\0")[1] ?? "" }));
        if (!stashes.length) return;
        this.packOnly(repo, stashes.map((s) => s.sha), ["refs/stash"]);
        entry().stashes = stashes;
        return;
      }
      case "remote-tip": {
        const upstream = maybe(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"]);
        const remote = e.remote ?? upstream?.split("/")[0] ?? "origin";
        const refs = e.refs.length ? e.refs : [upstream && upstream.startsWith(remote + "/") ? upstream.slice(remote.length + 1) : maybe(["symbolic-ref", "--short", "-q", "HEAD"]) ?? ""].filter(Boolean);
        // The remote's tip as last fetched: the guard never asks the network.
        const tips = refs.map((ref) => ({ ref, tip: maybe(["rev-parse", "-q", "--verify", `refs/remotes/${remote}/${ref}^{commit}`]) })).filter((r): r is { ref: string; tip: string } => !!r.tip);
        if (!tips.length) return;
        this.packOnly(repo, tips.map((t) => t.tip), tips.map((t) => `refs/remotes/${remote}/${t.ref}`));
        entry().remote = { remote, refs: tips };
        return;
      }
    }
  }

  /** Packs the objects only `tips` reach once `losing` refs are gone, into the private store. */
  private packOnly(repo: Repo, tips: string[], losing: string[]): void {
    const excludes = losing.map((r) => `--exclude=${r}`);
    const objects = git(["rev-list", "--objects", ...tips, "--not", ...excludes, "--all"], { cwd: repo.top, timeoutMs: this.timeLeft() });
    if (!objects.trim()) return;
    const pack = path.join(this.objectsDir(), "pack");
    fs.mkdirSync(pack, { recursive: true });
    git(["pack-objects", "-q", path.join(pack, "pack")], { cwd: repo.top, input: objects + "\n", timeoutMs: this.timeLeft() });
  }

  private objectsDir(): string {
    const dir = path.join(this.snapshotDir(), "objects");
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  private timeLeft(): number {
    return this.budget.left();
  }
}

/** `git config -z --get-regexp` output: NUL-terminated "key\nvalue" records. */
function branchConfig(out: string | undefined): [string, string][] {
  return (out ?? "")
    .split("\0")
    .filter(Boolean)
    .map((r) => {
      const nl = r.indexOf("\n");
      return (nl < 0 ? [r, ""] : [r.slice(0, nl), r.slice(nl + 1)]) as [string, string];
    });
}

/** A git child that ran out of time is the snapshot's time bound. */
export function asNotKept(e: unknown): NotKept | undefined {
  if (e instanceof NotKept) return e;
  const err = e as { code?: string; signal?: string };
  if (err?.code === "ETIMEDOUT" || err?.signal === "SIGTERM") return new NotKept("too slow");
  return undefined;
}
