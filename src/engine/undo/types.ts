// What a call would destroy, as the engine sees it before the call runs: the facts the core's
// snapshot step keeps a copy of (src/core/snapshots/). Pure types.

/**
 * How an effect destroys a file. `unlinks`: the name goes away or is renamed over (rm, mv onto,
 * sed -i), so a hard link keeps the old inode at no copy cost. `in-place`: the same inode is
 * rewritten (`>` truncation, cp onto, truncate, Write/Edit), so only a copy keeps the old content.
 */
export type KeepHow = "unlinks" | "in-place";

export interface DestroyedPath {
  /** Absolute, normalised; may end in a glob segment (`/w/*.log`) the core expands. */
  path: string;
  how: KeepHow;
  /** Everything below `path` is destroyed too (rm -r, rsync --delete, find -delete). */
  recursive: boolean;
  /** What produced it ("rm -r", "> redirection", "Write"). */
  via: string;
  /**
   * A name the defaults call regenerable (build output, node_modules…): kept only when git says it
   * holds work (tracked files with uncommitted changes, files git does not ignore).
   */
  regenerable?: true;
}

/** Git state a command discards, in the repository whose work tree holds `repo`. */
export type GitStateEffect =
  /** Uncommitted changes: the index, the work tree, untracked files that are not ignored. */
  | { kind: "worktree"; repo: string; via: string }
  /** The checked-out branch's position, which a reset or a rebase moves. */
  | { kind: "head"; repo: string; via: string; mode?: "soft" | "mixed" }
  /** Branch tips a deletion or a forced move loses. */
  | { kind: "branches"; repo: string; names: string[]; via: string }
  /** Stash entries a drop or a clear loses. */
  | { kind: "stashes"; repo: string; via: string }
  /** The remote's tip before a force push or a remote branch deletion (remote: as written, else the upstream). */
  | { kind: "remote-tip"; repo: string; remote?: string; refs: string[]; via: string };

export interface Destroys {
  files: DestroyedPath[];
  git: GitStateEffect[];
}
